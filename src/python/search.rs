//! Python bindings of the search: `RandomBot`, `GreedyBot`, `MctsBot`,
//! `search` and `match`. Every long call releases the GIL and stops on
//! Ctrl-C (see [`super::interrupt`]).
//!
//! The variant of a state is only known at run time, so the generic code is
//! reached through [`StateFn`] / [`VariantFn`] visitors; the `dispatch!`
//! macro, invoked once in `mod.rs` with the variant list, generates the
//! functions that pick the concrete `G`.

use super::action::{ok, PyAction, VariantInfo};
use super::args::{self, Arg};
use super::network::PyNetwork;
use super::state::Seed;
use super::{errors, interrupt};
use crate::game::{Action, Game, MAX_PLAYERS};
use crate::search::arena::REASONS;
use crate::search::mcts::ActionStats;
use crate::search::{
    bots, play_match_cancellable, Bot, BotSpec, BotStats, MatchConfig, MatchResult, SearchConfig,
    SearchResult, Selection,
};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use std::sync::{Mutex, MutexGuard};

/// A computation on a game state of any variant.
pub(crate) trait StateFn {
    type Out;
    fn call<G: Game>(self, g: G) -> Self::Out;
}

/// A computation that needs only the variant's type.
pub(crate) trait VariantFn {
    type Out;
    fn call<G: Game>(self) -> Self::Out;
}

/// Generates `with_state` and `with_variant` for the listed state classes.
macro_rules! dispatch {
    ($($py:ident = $g:ty;)*) => {
        /// Calls `f` on a copy of the Rust state inside the Python state `obj`.
        pub(crate) fn with_state<F: $crate::python::search::StateFn>(
            obj: &pyo3::Bound<'_, pyo3::PyAny>,
            f: F,
        ) -> pyo3::PyResult<F::Out> {
            $( if let Ok(s) = obj.cast::<$py>() {
                let g: $g = s.try_borrow()?.inner.clone();
                return Ok(f.call(g));
            } )*
            Err($crate::python::search::not_a_state(obj))
        }

        /// Calls `f` with the state type of `variant`.
        pub(crate) fn with_variant<F: $crate::python::search::VariantFn>(
            variant: &str,
            f: F,
        ) -> pyo3::PyResult<F::Out> {
            $( if variant == <$g as $crate::game::Game>::VARIANT {
                return Ok(f.call::<$g>());
            } )*
            Err(unknown_variant(variant))
        }
    };
}
pub(crate) use dispatch;

/// The error for an argument that is not a state of this engine: an
/// `InvalidStateError`, with the way out for a reference-engine state.
pub(crate) fn not_a_state(obj: &Bound<'_, PyAny>) -> PyErr {
    let name = args::type_name(obj);
    let module = obj
        .get_type()
        .module()
        .ok()
        .and_then(|m| m.to_str().ok().map(str::to_owned))
        .unwrap_or_default();
    let hint = if module.starts_with("splendor.reference") {
        format!(
            "a reference-engine {name} is not accepted: convert it with \
             splendor.from_json(state.to_json())"
        )
    } else {
        format!("not {name}")
    };
    errors::InvalidStateError::new_err(format!(
        "expected a state of the Rust engine (BaseState, DuelState or MarvelState, \
         from splendor.new_game or splendor.from_json); {hint}"
    ))
}

/// Locks a bot. A bot is only a random stream and settings, which a panic
/// elsewhere cannot leave half-written, so a poisoned lock is still good.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bot stream argument of `__setstate__` (an int in `0..=2**64 - 1`).
fn stream_arg(state: &Bound<'_, PyAny>) -> PyResult<u64> {
    let v = args::int_between(
        state,
        "bot state",
        0,
        u64::MAX.into(),
        errors::invalid_state,
    )?;
    Ok(v as u64)
}

/// The bots that answer at once (one ply at most): they act with the GIL
/// held, which also keeps the calls of several threads in order.
#[derive(Clone, Debug)]
enum QuickBot {
    RandomBot(bots::RandomBot),
    GreedyBot(bots::GreedyBot),
}

impl QuickBot {
    fn stream(&self) -> u64 {
        match self {
            QuickBot::RandomBot(b) => b.stream(),
            QuickBot::GreedyBot(b) => b.stream(),
        }
    }
}

struct QuickActFn<'a>(&'a Mutex<QuickBot>);

impl StateFn for QuickActFn<'_> {
    type Out = PyResult<PyAction>;
    fn call<G: Game>(self, g: G) -> PyResult<PyAction> {
        let a = match &mut *lock(self.0) {
            QuickBot::RandomBot(b) => b.act(&g),
            QuickBot::GreedyBot(b) => b.act(&g),
        };
        ok(a).map(PyAction::new_of::<G>)
    }
}

/// Defines a `#[pyclass]` for a bot that answers at once.
macro_rules! quick_bot {
    ($(#[$doc:meta])* $py:ident, $name:literal, $kind:ident) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "splendor._core", name = $name)]
        pub(crate) struct $py {
            bot: Mutex<QuickBot>,
            seed: u64,
        }

        #[pymethods]
        impl $py {
            #[new]
            #[pyo3(signature = (seed=Seed(0)), text_signature = "(seed=0)")]
            fn new(seed: Seed) -> Self {
                Self {
                    bot: Mutex::new(QuickBot::$kind(bots::$kind::new(seed.0))),
                    seed: seed.0,
                }
            }

            /// The action this bot plays in `state`, a state of any variant.
            ///
            /// Safe to call from several threads at once (calls are taken
            /// in turn).
            ///
            /// Raises:
            ///     ConfigError: `state` is finished.
            ///     InvalidStateError: `state` is not a state of this engine
            ///         (a reference-engine state converts with
            ///         `splendor.from_json(state.to_json())`).
            #[pyo3(text_signature = "($self, state)")]
            fn act(&self, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
                super::with_state(state, QuickActFn(&self.bot))?
            }

            /// Pickle support: the seed, then the random stream as it
            /// stands, so an unpickled bot plays on exactly as this one.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
                let me = slf.get();
                let stream = lock(&me.bot).stream();
                (slf.get_type(), (me.seed,), stream).into_pyobject(slf.py())
            }

            /// Restores the random stream saved by `__reduce__`.
            ///
            /// Raises:
            ///     InvalidStateError: `state` is not an int in
            ///         `0..=2**64 - 1`.
            #[pyo3(text_signature = "($self, state, /)")]
            fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
                let stream = stream_arg(state)?;
                *lock(&self.bot) = QuickBot::$kind(bots::$kind::new(stream));
                Ok(())
            }

            fn __repr__(&self) -> String {
                format!("{}(seed={})", $name, self.seed)
            }
        }
    };
}

quick_bot! {
    /// Plays a uniformly random legal action; seeded, so reproducible.
    ///
    /// Args:
    ///     seed: Seeds the bot's own random stream (an int between 0 and
    ///         2**64 - 1).
    PyRandomBot, "RandomBot", RandomBot
}

quick_bot! {
    /// One ply greedy: the action whose result has the best heuristic for
    /// the mover (a win counts 1); ties broken by the seeded random stream.
    ///
    /// Args:
    ///     seed: Seeds the tie-breaks (an int between 0 and 2**64 - 1).
    PyGreedyBot, "GreedyBot", GreedyBot
}

/// Most search threads.
pub(crate) const MAX_THREADS: i128 = 256;
const DEFAULT_MAX_NODES: i128 = 1 << 20;
/// The node cap's largest value: node indices are `u32` with room to spare.
const MAX_NODES: i128 = (u32::MAX / 2) as i128;
const DEFAULT_PRIOR_TEMPERATURE: f64 = 0.02;

/// Builds and validates a search config from Python arguments. With
/// `iterations=None` the budget is 1000 iterations, or the time limit alone
/// when one is given.
#[allow(clippy::too_many_arguments)]
fn search_config(
    iterations: &Arg<'_>,
    time_limit: &Arg<'_>,
    threads: &Arg<'_>,
    seed: Seed,
    max_nodes: &Arg<'_>,
    rollout_depth: &Arg<'_>,
    exploration: &Arg<'_>,
    prior_temperature: &Arg<'_>,
    network: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchConfig> {
    let network = network
        .filter(|n| !n.is_none())
        .map(PyNetwork::argument)
        .transpose()?;
    let defaults = SearchConfig::default();
    let iterations = iterations.opt_int("iterations", 0, u64::MAX.into())?;
    let time_limit = time_limit.opt_number_or("time_limit", None)?;
    let iterations = match (iterations, time_limit) {
        (Some(n), _) => n as u64,
        (None, Some(_)) => 0,
        (None, None) => defaults.iterations,
    };
    let cfg = SearchConfig {
        iterations,
        time_limit,
        threads: threads.int_or("threads", 1, 1, MAX_THREADS)? as usize,
        seed: seed.0,
        exploration: exploration.number_or("exploration", defaults.exploration)?,
        max_nodes: max_nodes.int_or("max_nodes", DEFAULT_MAX_NODES, 2, MAX_NODES)? as usize,
        rollout_depth: rollout_depth.int_or("rollout_depth", 24, 0, u32::MAX.into())? as u32,
        selection: match prior_temperature
            .opt_number_or("prior_temperature", Some(DEFAULT_PRIOR_TEMPERATURE))?
        {
            Some(temperature) => Selection::Puct { temperature },
            None => Selection::Uct,
        },
        network,
        ..defaults
    };
    ok(cfg.validate())?;
    Ok(cfg)
}

/// Information-set MCTS with determinization: the search never reads what
/// the player to move cannot see.
///
/// Args:
///     iterations: Total iteration budget per move over all threads. None:
///         1000, or no iteration limit when `time_limit` is given.
///     time_limit: Seconds per move, or None. With both budgets the first
///         reached stops the search. 0 runs the least search there is: the
///         clock is read every 8 iterations, so 8 per thread.
///     threads: Root-parallel search trees (one per thread, 1 to 256),
///         merged at the root.
///     seed: Seeds the bot's stream of per-move search seeds.
///     max_nodes: Node cap per tree (2 to 2**31 - 1); once reached the tree
///         stops growing.
///     rollout_depth: Rollout decisions before the heuristic cut.
///     exploration: Weight of the prior in the PUCT rule (or the UCT
///         constant when `prior_temperature` is None), a finite number >= 0.
///     prior_temperature: Temperature (> 0) of the softmax over the one-ply
///         heuristic that sets each move's prior; None: plain UCT. A
///         temperature so small that its reciprocal overflows (below about
///         3e-39, e.g. 1e-320) is the limit of the softmax: the whole prior
///         on the best move(s).
///
/// Raises:
///     ConfigError: A bad argument (the message names it and its range).
#[pyclass(frozen, module = "splendor._core", name = "MctsBot")]
pub(crate) struct PyMctsBot {
    bot: Mutex<bots::MctsBot>,
    config: SearchConfig,
    /// The network object, kept so that the bot pickles with it.
    network: Option<Py<PyNetwork>>,
}

struct MctsActFn<'a, 'py> {
    bot: &'a Mutex<bots::MctsBot>,
    py: Python<'py>,
}

impl StateFn for MctsActFn<'_, '_> {
    type Out = PyResult<PyAction>;
    fn call<G: Game>(self, g: G) -> PyResult<PyAction> {
        // The bot is held only while this move's seed is drawn: threads
        // sharing one bot search at the same time, each with its own seed.
        let mv = ok(lock(self.bot).begin_move(&g))?;
        if let bots::MctsMove::Forced(a) = mv {
            return Ok(PyAction::new_of::<G>(a));
        }
        let a = interrupt::run(self.py, move |cancel| mv.finish(&g, cancel))?;
        ok(a).map(PyAction::new_of::<G>)
    }
}

#[pymethods]
impl PyMctsBot {
    #[new]
    #[pyo3(signature = (iterations=Arg(None), time_limit=Arg(None), threads=Arg(None), seed=Seed(0), max_nodes=Arg(None), rollout_depth=Arg(None), exploration=Arg(None), prior_temperature=Arg(None), network=None))]
    #[pyo3(
        text_signature = "(iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        iterations: Arg<'_>,
        time_limit: Arg<'_>,
        threads: Arg<'_>,
        seed: Seed,
        max_nodes: Arg<'_>,
        rollout_depth: Arg<'_>,
        exploration: Arg<'_>,
        prior_temperature: Arg<'_>,
        network: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let network = network
            .filter(|n| !n.is_none())
            .map(PyNetwork::object)
            .transpose()?;
        let config = search_config(
            &iterations,
            &time_limit,
            &threads,
            seed,
            &max_nodes,
            &rollout_depth,
            &exploration,
            &prior_temperature,
            network.as_ref().map(|n| n.as_any()),
        )?;
        let bot = ok(bots::MctsBot::new(config.clone()))?;
        Ok(Self {
            bot: Mutex::new(bot),
            config,
            network: network.map(Bound::unbind),
        })
    }

    /// Searches `state` (any variant) and returns the chosen action.
    ///
    /// The GIL is released while searching; Ctrl-C stops the search and
    /// raises KeyboardInterrupt within a fraction of a second. Safe to call
    /// from several threads at once: each call draws its own seed from the
    /// bot's stream and searches in parallel with the others.
    ///
    /// Raises:
    ///     ConfigError: `state` is finished.
    ///     InvalidStateError: `state` is not a state of this engine (a
    ///         reference-engine state converts with
    ///         `splendor.from_json(state.to_json())`).
    ///     KeyboardInterrupt: Ctrl-C during the search.
    #[pyo3(text_signature = "($self, state)")]
    fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        super::with_state(state, MctsActFn { bot: &self.bot, py })?
    }

    /// The iteration budget per move (0: time only).
    #[getter]
    fn iterations(&self) -> u64 {
        self.config.iterations
    }

    /// Seconds per move, if limited by time.
    #[getter]
    fn time_limit(&self) -> Option<f64> {
        self.config.time_limit
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.config.threads
    }

    /// SHA-256 of the network file, or None for the rollout search.
    #[getter]
    fn network_sha256(&self) -> Option<String> {
        self.config.network.as_ref().map(|n| n.sha256_hex())
    }

    /// Pickle support: the settings, then the stream of per-move seeds as
    /// it stands, so an unpickled bot plays on exactly as this one.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let c = &me.config;
        let stream = lock(&me.bot).stream();
        let prior = match c.selection {
            Selection::Puct { temperature } => Some(temperature),
            Selection::Uct => None,
        };
        let settings = (
            c.iterations,
            c.time_limit,
            c.threads,
            c.seed,
            c.max_nodes,
            c.rollout_depth,
            c.exploration,
            prior,
            me.network.as_ref().map(|n| n.clone_ref(slf.py())),
        );
        (slf.get_type(), settings, stream).into_pyobject(slf.py())
    }

    /// Restores the stream of per-move seeds saved by `__reduce__`.
    ///
    /// Raises:
    ///     InvalidStateError: `state` is not an int in `0..=2**64 - 1`.
    #[pyo3(text_signature = "($self, state, /)")]
    fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let stream = stream_arg(state)?;
        *lock(&self.bot) = ok(bots::MctsBot::with_stream(self.config.clone(), stream))?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        let c = &self.config;
        let network = match &c.network {
            Some(n) => format!(", network=<{}>", &n.sha256_hex()[..12]),
            None => String::new(),
        };
        format!(
            "MctsBot(iterations={}, time_limit={}, threads={}, seed={}, max_nodes={}, rollout_depth={}, exploration={}, prior_temperature={}{network})",
            c.iterations,
            c.time_limit.map_or("None".into(), |t| t.to_string()),
            c.threads,
            c.seed,
            c.max_nodes,
            c.rollout_depth,
            c.exploration,
            match c.selection {
                Selection::Puct { temperature } => temperature.to_string(),
                Selection::Uct => "None".into(),
            }
        )
    }
}

/// What `search` found: the chosen action and the root statistics.
///
/// Results compare equal when every field is equal; they pickle and
/// deep-copy.
#[pyclass(frozen, module = "splendor._core", name = "SearchResult")]
pub(crate) struct PySearchResult {
    info: VariantInfo,
    result: SearchResult,
}

impl PySearchResult {
    fn action_of(&self, a: Action) -> PyAction {
        PyAction {
            info: self.info,
            id: a.0,
        }
    }
}

/// The exception for a corrupt pickle of a result.
fn bad_pickle(what: &str, detail: &str) -> PyErr {
    errors::InvalidStateError::new_err(format!("bad pickled {what}: {detail}"))
}

/// The `n` items of a tuple or list inside a pickle.
fn items<'py>(obj: &Bound<'py, PyAny>, what: &str, n: usize) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let items: Vec<Bound<'py, PyAny>> = match obj.cast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => match obj.cast::<PyList>() {
            Ok(l) => l.iter().collect(),
            Err(_) => return Err(bad_pickle(what, "expected a tuple")),
        },
    };
    if n != usize::MAX && items.len() != n {
        return Err(bad_pickle(
            what,
            &format!("expected {n} items, got {}", items.len()),
        ));
    }
    Ok(items)
}

fn count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    Ok(args::int_between(obj, name, 0, u64::MAX.into(), errors::invalid_state)? as u64)
}

fn real(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    args::number(obj, name).map_err(|_| bad_pickle(name, "expected a number"))
}

/// The error for building a result class directly.
fn no_constructor(class: &str, maker: &str) -> PyErr {
    errors::config(format!(
        "{class} has no constructor: it is what splendor.{maker}(...) returns"
    ))
}

#[pymethods]
impl PySearchResult {
    /// Results are not built directly: a `ConfigError` says where they come
    /// from.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn py_new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(no_constructor("SearchResult", "search"))
    }

    /// The most visited action (ties: higher mean value, then lower id).
    #[getter]
    fn action(&self) -> PyAction {
        self.action_of(self.result.action)
    }

    /// Visits per legal action (summed over threads).
    #[getter]
    fn visits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.result.stats {
            d.set_item(self.action_of(s.action), s.visits)?;
        }
        Ok(d)
    }

    /// Mean reward in `[0, 1]` of each legal action for the player to move.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.result.stats {
            d.set_item(self.action_of(s.action), s.value)?;
        }
        Ok(d)
    }

    /// Iterations run over all threads.
    #[getter]
    fn iterations(&self) -> u64 {
        self.result.iterations
    }

    /// Tree nodes over all threads.
    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<Self>() {
            Ok(o) => {
                let o = o.get();
                let same = o.info.name == self.info.name && o.result == self.result;
                PyBool::new(py, same).to_owned().into_any().unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    /// Pickle support: the variant and every field, exactly.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let r = &me.result;
        let stats: Vec<(u16, u64, f64)> = r
            .stats
            .iter()
            .map(|s| (s.action.0, s.visits, s.value))
            .collect();
        let restore = slf
            .py()
            .import("splendor._core")?
            .getattr("_restore_search_result")?;
        let payload = (me.info.name, r.action.0, stats, r.iterations, r.nodes);
        (restore, (payload,)).into_pyobject(slf.py())
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(action={:?}, iterations={}, nodes={})",
            (self.info.text)(self.result.action),
            self.result.iterations,
            self.result.nodes
        )
    }
}

/// Rebuilds a `SearchResult` from its pickle (`__reduce__`).
#[pyfunction]
fn _restore_search_result(payload: &Bound<'_, PyAny>) -> PyResult<PySearchResult> {
    const WHAT: &str = "SearchResult";
    let [variant, action, stats, iterations, nodes]: [Bound<'_, PyAny>; 5] =
        items(payload, WHAT, 5)?
            .try_into()
            .map_err(|_| bad_pickle(WHAT, "expected 5 items"))?;
    let info = super::variant_info(args::text(&variant, "variant", errors::invalid_state)?)
        .ok_or_else(|| bad_pickle(WHAT, "unknown variant"))?;
    let max_id = info.num_actions as i128 - 1;
    let id = |o: &Bound<'_, PyAny>| -> PyResult<Action> {
        Ok(Action(
            args::int_between(o, "action id", 0, max_id, errors::invalid_state)? as u16,
        ))
    };
    let mut list = Vec::new();
    for s in items(&stats, WHAT, usize::MAX)? {
        let [a, visits, value]: [Bound<'_, PyAny>; 3] = items(&s, WHAT, 3)?
            .try_into()
            .map_err(|_| bad_pickle(WHAT, "expected 3 items"))?;
        list.push(ActionStats {
            action: id(&a)?,
            visits: count(&visits, "visits")?,
            value: real(&value, "value")?,
        });
    }
    Ok(PySearchResult {
        info,
        result: SearchResult {
            action: id(&action)?,
            stats: list,
            iterations: count(&iterations, "iterations")?,
            nodes: count(&nodes, "nodes")?,
        },
    })
}

struct SearchFn<'py> {
    cfg: SearchConfig,
    py: Python<'py>,
}

impl StateFn for SearchFn<'_> {
    type Out = PyResult<PySearchResult>;
    fn call<G: Game>(self, g: G) -> PyResult<PySearchResult> {
        let cfg = self.cfg;
        let result = interrupt::run(self.py, move |cancel| {
            crate::search::search_cancellable(&g, &cfg, cancel)
        })?;
        Ok(PySearchResult {
            info: VariantInfo::of::<G>(),
            result: ok(result)?,
        })
    }
}

/// Searches `state` for the player to move, with the GIL released.
///
/// Reproducible for a fixed seed, thread count and iteration budget. The
/// arguments are those of `MctsBot`. Ctrl-C stops the search (in every
/// thread) and raises KeyboardInterrupt within a fraction of a second.
///
/// Raises:
///     ConfigError: Bad arguments or a finished game.
///     InvalidStateError: `state` is not a state of this engine.
///     KeyboardInterrupt: Ctrl-C during the search.
#[pyfunction]
#[pyo3(signature = (state, *, iterations=Arg(None), time_limit=Arg(None), threads=Arg(None), seed=Seed(0), max_nodes=Arg(None), rollout_depth=Arg(None), exploration=Arg(None), prior_temperature=Arg(None), network=None))]
#[pyo3(
    text_signature = "(state, *, iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None)"
)]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    iterations: Arg<'_>,
    time_limit: Arg<'_>,
    threads: Arg<'_>,
    seed: Seed,
    max_nodes: Arg<'_>,
    rollout_depth: Arg<'_>,
    exploration: Arg<'_>,
    prior_temperature: Arg<'_>,
    network: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySearchResult> {
    let cfg = search_config(
        &iterations,
        &time_limit,
        &threads,
        seed,
        &max_nodes,
        &rollout_depth,
        &exploration,
        &prior_temperature,
        network,
    )?;
    super::with_state(state, SearchFn { cfg, py })?
}

/// A bot argument of `match`: a bot object or a spec string.
fn bot_spec(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<BotSpec> {
    if obj.cast::<PyString>().is_ok() {
        return ok(BotSpec::parse(args::text(
            obj,
            "a bot spec",
            errors::config,
        )?));
    }
    if obj.cast::<PyRandomBot>().is_ok() {
        return Ok(BotSpec::Random);
    }
    if obj.cast::<PyGreedyBot>().is_ok() {
        return Ok(BotSpec::Greedy);
    }
    if let Ok(b) = obj.cast::<PyMctsBot>() {
        return Ok(BotSpec::Mcts(b.get().config.clone()));
    }
    Err(errors::config(format!(
        "bot {i} is not a bot: expected RandomBot, GreedyBot, MctsBot or a spec such as \"mcts:1000\", got {}",
        args::type_name(obj)
    )))
}

/// The results of `match`.
///
/// Results compare equal when every field is equal; they pickle and
/// deep-copy. A match stopped by Ctrl-C raises `MatchInterrupted`, whose
/// `result` is the MatchResult of the games finished so far.
#[pyclass(frozen, module = "splendor._core", name = "MatchResult")]
pub(crate) struct PyMatchResult {
    r: MatchResult,
}

#[pymethods]
impl PyMatchResult {
    /// Results are not built directly: a `ConfigError` says where they come
    /// from.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn py_new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(no_constructor("MatchResult", "match"))
    }

    /// The variant played.
    #[getter]
    fn variant(&self) -> &str {
        &self.r.variant
    }

    /// Seats per game.
    #[getter]
    fn players(&self) -> u8 {
        self.r.players
    }

    /// Games played (finished).
    #[getter]
    fn games(&self) -> u64 {
        self.r.games
    }

    /// Per bot, in the order given: dicts with `name`, `games`, `wins` (a
    /// win shared by k players counts exactly 1/k), `win_rate`, `ci_low`,
    /// `ci_high` (the Wilson 95% interval).
    #[getter]
    fn bots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let l = PyList::empty(py);
        for b in &self.r.bots {
            let d = PyDict::new(py);
            d.set_item("name", &b.name)?;
            d.set_item("games", b.games)?;
            d.set_item("wins", b.wins)?;
            d.set_item("win_rate", b.win_rate)?;
            d.set_item("ci_low", b.ci_low)?;
            d.set_item("ci_high", b.ci_high)?;
            l.append(d)?;
        }
        Ok(l)
    }

    /// Games won by more than one player.
    #[getter]
    fn draws(&self) -> u64 {
        self.r.draws
    }

    /// Games ended by the turn cap.
    #[getter]
    fn truncated(&self) -> u64 {
        self.r.truncated
    }

    /// Games ended because every player had to pass.
    #[getter]
    fn stalled(&self) -> u64 {
        self.r.stalled
    }

    /// Mean decisions per game.
    #[getter]
    fn avg_decisions(&self) -> f64 {
        self.r.avg_decisions
    }

    /// Mean completed turns per game.
    #[getter]
    fn avg_turns(&self) -> f64 {
        self.r.avg_turns
    }

    /// Games per end reason (points, crowns, colour, gauntlet, stalled,
    /// truncated).
    #[getter]
    fn reasons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (r, n) in REASONS.iter().zip(self.r.reasons) {
            d.set_item(r.as_str(), n)?;
        }
        Ok(d)
    }

    /// The results as compact JSON with sorted keys.
    fn to_json(&self) -> String {
        self.r.to_json()
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<Self>() {
            Ok(o) => PyBool::new(py, o.get().r == self.r)
                .to_owned()
                .into_any()
                .unbind(),
            Err(_) => py.NotImplemented(),
        }
    }

    /// Pickle support: every field, exactly.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let r = &slf.get().r;
        let bots: Vec<(String, u64, f64, f64, f64, f64)> = r
            .bots
            .iter()
            .map(|b| {
                (
                    b.name.clone(),
                    b.games,
                    b.wins,
                    b.win_rate,
                    b.ci_low,
                    b.ci_high,
                )
            })
            .collect();
        let payload = (
            r.variant.clone(),
            r.players,
            r.games,
            bots,
            (r.draws, r.truncated, r.stalled),
            (r.avg_decisions, r.avg_turns),
            r.reasons.to_vec(),
        );
        let restore = slf
            .py()
            .import("splendor._core")?
            .getattr("_restore_match_result")?;
        (restore, (payload,)).into_pyobject(slf.py())
    }

    fn __repr__(&self) -> String {
        let bots: Vec<String> = self
            .r
            .bots
            .iter()
            .map(|b| format!("{} {:.1}%", b.name, 100.0 * b.win_rate))
            .collect();
        format!(
            "MatchResult(variant={:?}, players={}, games={}, {})",
            self.r.variant,
            self.r.players,
            self.r.games,
            bots.join(", ")
        )
    }
}

/// Rebuilds a `MatchResult` from its pickle (`__reduce__`).
#[pyfunction]
fn _restore_match_result(payload: &Bound<'_, PyAny>) -> PyResult<PyMatchResult> {
    const WHAT: &str = "MatchResult";
    let [variant, players, games, bots, totals, averages, reasons]: [Bound<'_, PyAny>; 7] =
        items(payload, WHAT, 7)?
            .try_into()
            .map_err(|_| bad_pickle(WHAT, "expected 7 items"))?;
    let variant = args::text(&variant, "variant", errors::invalid_state)?;
    if super::variant_info(variant).is_none() {
        return Err(bad_pickle(WHAT, "unknown variant"));
    }
    let mut bot_stats = Vec::new();
    for b in items(&bots, WHAT, usize::MAX)? {
        let [name, games, wins, rate, lo, hi]: [Bound<'_, PyAny>; 6] = items(&b, WHAT, 6)?
            .try_into()
            .map_err(|_| bad_pickle(WHAT, "expected 6 items"))?;
        bot_stats.push(BotStats {
            name: args::text(&name, "name", errors::invalid_state)?.to_owned(),
            games: count(&games, "games")?,
            wins: real(&wins, "wins")?,
            win_rate: real(&rate, "win_rate")?,
            ci_low: real(&lo, "ci_low")?,
            ci_high: real(&hi, "ci_high")?,
        });
    }
    let totals = items(&totals, WHAT, 3)?;
    let averages = items(&averages, WHAT, 2)?;
    let reasons = items(&reasons, WHAT, REASONS.len())?;
    let mut per_reason = [0u64; 6];
    for (slot, n) in per_reason.iter_mut().zip(&reasons) {
        *slot = count(n, "reasons")?;
    }
    Ok(PyMatchResult {
        r: MatchResult {
            variant: variant.to_owned(),
            players: args::int_between(
                &players,
                "players",
                1,
                MAX_PLAYERS as i128,
                errors::invalid_state,
            )? as u8,
            games: count(&games, "games")?,
            bots: bot_stats,
            draws: count(&totals[0], "draws")?,
            truncated: count(&totals[1], "truncated")?,
            stalled: count(&totals[2], "stalled")?,
            avg_decisions: real(&averages[0], "avg_decisions")?,
            avg_turns: real(&averages[1], "avg_turns")?,
            reasons: per_reason,
        },
    })
}

pyo3::import_exception!(splendor.errors, MatchInterrupted);

struct MatchFn<'py> {
    cfg: MatchConfig,
    progress: Option<Py<PyAny>>,
    py: Python<'py>,
}

impl VariantFn for MatchFn<'_> {
    type Out = PyResult<MatchResult>;
    fn call<G: Game>(self) -> PyResult<MatchResult> {
        let (cfg, progress, py) = (self.cfg, self.progress, self.py);
        // What `progress` raised: the match stops and `progress` is never
        // called again. Ctrl-C inside the callback is an interrupt.
        let mut raised: Option<PyErr> = None;
        let mut interrupted: Option<PyErr> = None;
        let (result, signal) = interrupt::run_watched(py, |cancel| {
            let mut report = |done: usize, total: usize| {
                if raised.is_some() {
                    return false;
                }
                if interrupted.is_some() {
                    // The token winds the match down; keep its partial result.
                    return true;
                }
                let Some(cb) = &progress else {
                    return true;
                };
                match Python::attach(|py| cb.call1(py, (done, total)).map(drop)) {
                    Ok(()) => true,
                    Err(e) => {
                        // Games in flight are abandoned at once.
                        cancel.cancel();
                        if Python::attach(|py| e.is_instance_of::<PyKeyboardInterrupt>(py)) {
                            // The token ends the match with its partial result.
                            interrupted = Some(e);
                            true
                        } else {
                            raised = Some(e);
                            false
                        }
                    }
                }
            };
            play_match_cancellable::<G>(&cfg, &mut report, cancel)
        });
        if let Some(e) = raised {
            return Err(e);
        }
        let Some(e) = interrupted.or(signal) else {
            return ok(result);
        };
        match result {
            Ok(partial) if e.is_instance_of::<PyKeyboardInterrupt>(py) => {
                let message = format!(
                    "the match was interrupted after {} of {} games",
                    partial.games, cfg.games
                );
                let result = Py::new(py, PyMatchResult { r: partial })?;
                let stop = MatchInterrupted::new_err((message, result));
                stop.set_cause(py, Some(e));
                Err(stop)
            }
            _ => Err(e),
        }
    }
}

/// Plays `games` games between `bots`, `threads` at a time, GIL released.
///
/// Games come in groups of `players` sharing one deal, with the bots
/// rotated through the seats. Fewer bots than seats: the last one fills the
/// rest. Bots may be given as specs: `random`, `greedy`, `mcts`, `mcts:N`,
/// `mcts:Ts`. A bot object contributes its kind and settings; the seeds of
/// the games' bots derive from `seed`.
///
/// `first_game`: the call plays games `first_game .. first_game + games - 1`
/// of the match seeded `seed`, each exactly as a match from game 0 plays it,
/// so chunks of a match played apart add up to the whole (`wins * 12` is an
/// integer, counted exactly).
///
/// `progress(done, total)` is called on the calling thread after each
/// finished game; an exception in it stops the match and is re-raised, and
/// `progress` is never called again.
///
/// Ctrl-C stops every game in flight (searches included) within a fraction
/// of a second and raises `splendor.errors.MatchInterrupted` (a
/// KeyboardInterrupt) whose `result` holds the games finished so far.
///
/// Raises:
///     ConfigError: A bad bot, variant, player count, game or thread count.
///     MatchInterrupted: Ctrl-C during the match.
#[pyfunction(name = "match")]
#[pyo3(signature = (bots, *, variant=Arg(None), players=Arg(None), games=Arg(None), seed=Seed(0), threads=Arg(None), turn_cap=Arg(None), progress=Arg(None), first_game=Arg(None)))]
#[pyo3(
    text_signature = "(bots, *, variant='base', players=2, games=100, seed=0, threads=1, turn_cap=100, progress=None, first_game=0)"
)]
#[allow(clippy::too_many_arguments)]
fn play(
    py: Python<'_>,
    bots: &Bound<'_, PyAny>,
    variant: Arg<'_>,
    players: Arg<'_>,
    games: Arg<'_>,
    seed: Seed,
    threads: Arg<'_>,
    turn_cap: Arg<'_>,
    progress: Arg<'_>,
    first_game: Arg<'_>,
) -> PyResult<PyMatchResult> {
    if bots.cast::<PyString>().is_ok() {
        return Err(errors::config(
            "bots must be a list of bots or specs, not one str (e.g. [\"mcts:1000\", \"greedy\"])"
                .into(),
        ));
    }
    let specs: Vec<BotSpec> = bots
        .try_iter()
        .map_err(|_| {
            errors::config(format!(
                "bots must be a list of bots or specs, not {}",
                args::type_name(bots)
            ))
        })?
        .enumerate()
        .map(|(i, b)| bot_spec(i, &b?))
        .collect::<PyResult<_>>()?;
    let variant = match &variant.0 {
        None => "base",
        Some(v) => args::variant(v)?,
    };
    // The game checks the player count per variant when the match starts.
    let players = players.int_or("players", 2, 2, MAX_PLAYERS as i128)? as u8;
    let turn_cap = turn_cap.int_or("turn_cap", 100, 1, u32::MAX.into())? as u32;
    let progress = match &progress.0 {
        None => None,
        Some(p) if p.is_none() => None,
        Some(p) if p.is_callable() => Some(p.clone().unbind()),
        Some(p) => {
            return Err(errors::config(format!(
                "progress must be a callable or None, not {}",
                args::type_name(p)
            )))
        }
    };
    let cfg = MatchConfig {
        bots: specs,
        players,
        games: games.int_or("games", 100, 1, usize::MAX as i128)? as usize,
        first_game: first_game.int_or("first_game", 0, 0, usize::MAX as i128)? as usize,
        seed: seed.0,
        threads: threads.int_or("threads", 1, 1, MAX_THREADS)? as usize,
        turn_cap,
    };
    let r = super::with_variant(variant, MatchFn { cfg, progress, py })??;
    Ok(PyMatchResult { r })
}

/// Adds the search classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandomBot>()?;
    m.add_class::<PyGreedyBot>()?;
    m.add_class::<PyMctsBot>()?;
    m.add_class::<PySearchResult>()?;
    m.add_class::<PyMatchResult>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_search_result, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_match_result, m)?)?;
    Ok(())
}
