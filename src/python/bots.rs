//! Python bindings of the bots: `RandomBot`, `GreedyBot`, `MctsBot`, and
//! the bot arguments of `match` (a bot object or a spec string).

use super::action::{ok, PyAction};
use super::args::{self, required, Arg, Param};
use super::network::PyNetwork;
use super::search::{search_config, StateFn};
use super::state::Seed;
use super::{errors, interrupt};
use crate::game::{Game, GameError};
use crate::search::{bots, Bot, BotSpec, ParsedBotSpec, SearchConfig, Selection};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use std::sync::{Mutex, MutexGuard};

/// Locks a bot. A bot is only a random stream and settings, which a panic
/// elsewhere cannot leave half-written, so a poisoned lock is still good.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bot's `seed` argument: 0 when left out.
fn seed_or_zero(seed: Option<Bound<'_, PyAny>>) -> PyResult<Seed> {
    seed.map_or(Ok(Seed(0)), |s| s.extract())
}

/// The one argument of a bot's `act` (`name`): the state.
fn state_argument<'py>(
    name: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    args::one(name, "state", args, kwargs)
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
            #[pyo3(signature = (*args, **kwargs), text_signature = "(seed=0)")]
            fn new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
                let [seed] = args::bind($name, "(seed=0)", [Param::Optional("seed")], args, kwargs)?;
                let seed = seed_or_zero(seed)?;
                Ok(Self {
                    bot: Mutex::new(QuickBot::$kind(bots::$kind::new(seed.0))),
                    seed: seed.0,
                })
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
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, state)")]
            fn act(
                &self,
                args: &Bound<'_, PyTuple>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<PyAction> {
                let state = state_argument(concat!($name, ".act"), args, kwargs)?;
                super::with_state(&state, QuickActFn(&self.bot))?
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
///     leaf_batch: Leaves evaluated per forward pass of the network (1 to
///         256; unused without a network). Above 1 each tree selects that
///         many leaves under a virtual loss and evaluates them together:
///         more iterations per second, slightly staler selections.
///     move_temperature: How the move is chosen from the root's visits: 0
///         plays the most visited action; T > 0 draws an action with
///         probability proportional to visits ** (1 / T), seeded by the
///         move's search seed (the AI levels play so).
///     fpu_reduction: First-play urgency reduction of PUCT (a finite
///         number >= 0): a move never tried scores the mean of the tried
///         ones less fpu_reduction * sqrt(their prior mass). 0: that mean.
///     policy_temperature: Temperature of the network's prior (a finite
///         number > 0; unused without a network): a softmax of the policy
///         logits divided by it, above 1 flatter. 1: the network's prior.
///     early_stop: Stops a search with an iteration budget once its most
///         visited move leads the runner-up by more than early_stop times
///         the iterations left (a finite number >= 0). 0: never; 1: the
///         full budget's move, sooner.
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

impl PyMctsBot {
    /// A bot searching with `config`, whose network (if any) is `network`'s.
    fn with_config(config: SearchConfig, network: Option<Py<PyNetwork>>) -> PyResult<Self> {
        let bot = ok(bots::MctsBot::new(config.clone()))?;
        Ok(Self {
            bot: Mutex::new(bot),
            config,
            network,
        })
    }
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
    #[pyo3(signature = (*args, **kwargs), text_signature = "(iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None, leaf_batch=1, move_temperature=0.0, fpu_reduction=0.0, policy_temperature=1.0, early_stop=0.0)")]
    fn new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        const SIGNATURE: &str = "(iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None, leaf_batch=1, move_temperature=0.0, fpu_reduction=0.0, policy_temperature=1.0, early_stop=0.0)";
        let [iterations, time_limit, threads, seed, max_nodes, rollout_depth, exploration, prior_temperature, network, leaf_batch, move_temperature, fpu_reduction, policy_temperature, early_stop] =
            args::bind(
                "MctsBot",
                SIGNATURE,
                [
                    Param::Optional("iterations"),
                    Param::Optional("time_limit"),
                    Param::Optional("threads"),
                    Param::Optional("seed"),
                    Param::Optional("max_nodes"),
                    Param::Optional("rollout_depth"),
                    Param::Optional("exploration"),
                    Param::Optional("prior_temperature"),
                    Param::Optional("network"),
                    Param::Optional("leaf_batch"),
                    Param::Optional("move_temperature"),
                    Param::Optional("fpu_reduction"),
                    Param::Optional("policy_temperature"),
                    Param::Optional("early_stop"),
                ],
                args,
                kwargs,
            )?;
        let [iterations, time_limit, threads, max_nodes, rollout_depth, exploration, prior_temperature, leaf_batch, move_temperature, fpu_reduction, policy_temperature, early_stop] =
            [
                iterations,
                time_limit,
                threads,
                max_nodes,
                rollout_depth,
                exploration,
                prior_temperature,
                leaf_batch,
                move_temperature,
                fpu_reduction,
                policy_temperature,
                early_stop,
            ]
            .map(Arg);
        let seed = seed_or_zero(seed)?;
        let network = network
            .as_ref()
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
            &leaf_batch,
            &move_temperature,
            &fpu_reduction,
            &policy_temperature,
            &early_stop,
        )?;
        Self::with_config(config, network.map(Bound::unbind))
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
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, state)")]
    fn act(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyAction> {
        let state = state_argument("MctsBot.act", args, kwargs)?;
        super::with_state(&state, MctsActFn { bot: &self.bot, py })?
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

    /// Leaves evaluated per forward pass of the network (1: one at a time).
    #[getter]
    fn leaf_batch(&self) -> usize {
        self.config.leaf_batch
    }

    /// The temperature of the move's choice (0: the most visited action).
    #[getter]
    fn move_temperature(&self) -> f64 {
        self.config.move_temperature
    }

    /// The weight of the prior in the PUCT rule (the UCT constant without a
    /// prior).
    #[getter]
    fn exploration(&self) -> f64 {
        self.config.exploration
    }

    /// The first-play urgency reduction of the tree policy (0: none).
    #[getter]
    fn fpu_reduction(&self) -> f64 {
        self.config.fpu_reduction
    }

    /// The temperature of the network's prior (1: as the network gives it).
    #[getter]
    fn policy_temperature(&self) -> f64 {
        self.config.policy_temperature
    }

    /// The early stop of a search with an iteration budget (0: none).
    #[getter]
    fn early_stop(&self) -> f64 {
        self.config.early_stop
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
        let py = slf.py();
        // The constructor's positional arguments, in its order (more than
        // a tuple of Rust values converts at once).
        let settings = PyTuple::new(
            py,
            [
                c.iterations.into_pyobject(py)?.into_any(),
                c.time_limit.into_pyobject(py)?.into_any(),
                c.threads.into_pyobject(py)?.into_any(),
                c.seed.into_pyobject(py)?.into_any(),
                c.max_nodes.into_pyobject(py)?.into_any(),
                c.rollout_depth.into_pyobject(py)?.into_any(),
                c.exploration.into_pyobject(py)?.into_any(),
                prior.into_pyobject(py)?.into_any(),
                me.network
                    .as_ref()
                    .map(|n| n.clone_ref(py))
                    .into_pyobject(py)?
                    .into_any(),
                c.leaf_batch.into_pyobject(py)?.into_any(),
                c.move_temperature.into_pyobject(py)?.into_any(),
                c.fpu_reduction.into_pyobject(py)?.into_any(),
                c.policy_temperature.into_pyobject(py)?.into_any(),
                c.early_stop.into_pyobject(py)?.into_any(),
            ],
        )?;
        (slf.get_type(), settings, stream).into_pyobject(py)
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
        let mut network = match &c.network {
            Some(n) => format!(", network=<{}>", &n.sha256_hex()[..12]),
            None => String::new(),
        };
        // Shown when not the default, as the network is.
        if c.leaf_batch != 1 {
            network += &format!(", leaf_batch={}", c.leaf_batch);
        }
        if c.move_temperature != 0.0 {
            network += &format!(", move_temperature={}", c.move_temperature);
        }
        if c.fpu_reduction != 0.0 {
            network += &format!(", fpu_reduction={}", c.fpu_reduction);
        }
        if c.policy_temperature != 1.0 {
            network += &format!(", policy_temperature={}", c.policy_temperature);
        }
        if c.early_stop != 0.0 {
            network += &format!(", early_stop={}", c.early_stop);
        }
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

/// A bot argument of `match`: a bot object or a spec string.
pub(super) fn bot_spec(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<BotSpec> {
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

/// A bot spec, parsed (what `parse_bot_spec` returns): what it names and
/// the budget it gives, nothing loaded yet.
///
/// `str(spec)` is the spec in its one spelling, which parses back to an equal
/// spec; specs compare and hash by it, and pickle.
///
/// Args:
///     text: The spec; see `parse_bot_spec`.
///
/// Raises:
///     ConfigError: `text` is not a spec (the message lists the forms).
#[pyclass(frozen, module = "splendor._core", name = "BotSpec")]
pub(crate) struct PyBotSpec {
    spec: ParsedBotSpec,
}

impl PyBotSpec {
    /// The spec `text` names (a `ConfigError` listing the forms if none).
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = args::text(text, "a bot spec", errors::config)?;
        Ok(Self {
            spec: ok(ParsedBotSpec::parse(text))?,
        })
    }
}

#[pymethods]
impl PyBotSpec {
    #[new]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(text)")]
    fn new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let [text] = args::bind("BotSpec", "(text)", [Param::Required("text")], args, kwargs)?;
        Self::parse(&required(text))
    }

    /// What the spec names: "default", "level", "random", "greedy", "mcts"
    /// or "net".
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind.as_str()
    }

    /// N of `mcts:N` / `net:N`; None when the spec gives no iteration count.
    #[getter]
    fn iterations(&self) -> Option<u64> {
        self.spec.iterations
    }

    /// T of `mcts:Ts` / `net:Ts` (seconds per move); None when the spec
    /// gives no time.
    #[getter]
    fn time_limit(&self) -> Option<f64> {
        self.spec.time_limit
    }

    /// PATH of `net:N@PATH` / `net:Ts@PATH`; None when the spec names no
    /// file.
    #[getter]
    fn network(&self) -> Option<&str> {
        self.spec.network.as_deref()
    }

    /// B of `net:...:batch=B` (leaves per forward pass of the network);
    /// None when the spec gives none.
    #[getter]
    fn leaf_batch(&self) -> Option<usize> {
        self.spec.leaf_batch
    }

    /// T of `...:temp=T` (the move temperature of `MctsBot`); None when the
    /// spec gives none (the most visited move).
    #[getter]
    fn move_temperature(&self) -> Option<f64> {
        self.spec.move_temperature
    }

    /// C of `...:c=C` (the `exploration` of `MctsBot`); None when the spec
    /// gives none (0.7).
    #[getter]
    fn exploration(&self) -> Option<f64> {
        self.spec.exploration
    }

    /// R of `...:fpu=R` (the first-play urgency reduction of `MctsBot`);
    /// None when the spec gives none (0).
    #[getter]
    fn fpu_reduction(&self) -> Option<f64> {
        self.spec.fpu_reduction
    }

    /// P of `net:...:ptemp=P` (the `policy_temperature` of `MctsBot`);
    /// None when the spec gives none (1).
    #[getter]
    fn policy_temperature(&self) -> Option<f64> {
        self.spec.policy_temperature
    }

    /// S of `...:stop=S` (the `early_stop` of `MctsBot`); None when the spec
    /// gives none (0: no early stop).
    #[getter]
    fn early_stop(&self) -> Option<f64> {
        self.spec.early_stop
    }

    /// L of `level:L` (1 to 10); None for the other kinds.
    #[getter]
    fn level(&self) -> Option<u8> {
        self.spec.level
    }

    /// A fresh bot of what the spec names, seeded with `seed`: a
    /// `RandomBot`, `GreedyBot` or `MctsBot` (a `net` spec's network file
    /// is read now).
    ///
    /// Only a spec the engine can build: `default`, `level:L` and a `net`
    /// spec without its file name the network shipped for a game, which the
    /// Python package finds (`splendor.make_bot` resolves, then builds).
    ///
    /// Raises:
    ///     ConfigError: A spec that names the shipped network, or a bad seed.
    ///     NetworkError: The network file is unreadable or bad.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, seed=0)")]
    fn build(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let [seed] = args::bind(
            "BotSpec.build",
            "(seed=0)",
            [Param::Optional("seed")],
            args,
            kwargs,
        )?;
        let seed = seed_or_zero(seed)?.0;
        // The network is read once, as the Network object the bot pickles with.
        let mut network: Option<Py<PyNetwork>> = None;
        let mut load_error: Option<PyErr> = None;
        let text = self.spec.to_string();
        let spec = BotSpec::from_parsed_with(&self.spec, &text, |path| {
            match PyNetwork::object(PyString::new(py, path).as_any()) {
                Ok(obj) => {
                    let net = obj.get().net.clone();
                    network = Some(obj.unbind());
                    Ok(net)
                }
                Err(e) => {
                    let message = e.to_string();
                    load_error = Some(e);
                    Err(GameError::Config(message))
                }
            }
        });
        if let Some(e) = load_error {
            return Err(e);
        }
        Ok(match ok(spec)? {
            BotSpec::Random => Py::new(
                py,
                PyRandomBot {
                    bot: Mutex::new(QuickBot::RandomBot(bots::RandomBot::new(seed))),
                    seed,
                },
            )?
            .into_any(),
            BotSpec::Greedy => Py::new(
                py,
                PyGreedyBot {
                    bot: Mutex::new(QuickBot::GreedyBot(bots::GreedyBot::new(seed))),
                    seed,
                },
            )?
            .into_any(),
            BotSpec::Mcts(config) => Py::new(
                py,
                PyMctsBot::with_config(SearchConfig { seed, ..config }, network)?,
            )?
            .into_any(),
        })
    }

    fn __str__(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = PyString::new(py, &self.spec.to_string());
        Ok(format!("BotSpec({})", text.repr()?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        super::pickle::eq(self, other, |a, b| a.spec == b.spec)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.spec.to_string()).hash()
    }

    /// Pickle support: the spec's text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        (slf.get_type(), (slf.get().spec.to_string(),)).into_pyobject(slf.py())
    }
}

/// Parses a bot spec: the one parser of the engine, `splendor.match`, the
/// command line and the web server, so a spec means the same everywhere.
///
/// The forms: `default` (the package's default AI for the game), `level:L`,
/// `random`,
/// `greedy`, `mcts` (1000 iterations), `mcts:N` (N iterations), `mcts:Ts`
/// (T seconds per move), `net`, `net:N`, `net:Ts` (the search guided by the
/// network shipped for the game), `net:N@PATH`, `net:Ts@PATH` (the network
/// file at PATH); a `net` budget may be followed by `:batch=B`
/// (`net:900:batch=4@PATH`: B leaves, between 1 and 256, per forward pass of the
/// network, the `leaf_batch` of `MctsBot`), an `mcts` or `net` budget by
/// `:c=C` after any batch (`net:3500:batch=4:c=0.5`: the `exploration` of
/// `MctsBot`, a number > 0 spelled as T), then by `:fpu=R`
/// (`net:1000:batch=4:fpu=0.2`: the `fpu_reduction` of
/// `MctsBot`, a number > 0 spelled as T), a `net` budget then by `:ptemp=P`
/// (the `policy_temperature` of `MctsBot`, spelled as T), and either by `:temp=T` after those
/// (`mcts:100:temp=0.5`: the `move_temperature` of `MctsBot`). `level:1` to `level:10` are the AI
/// levels, weakest first (`level:10` is the default AI). N, B and L are digits
/// only (1 or more); T is digits with an optional
/// decimal part (`0.5`, `2`), more than 0: no sign, exponent, underscore,
/// `inf` or `nan`. Keywords may be in any case; spaces around the text and
/// its parts are ignored (`mcts: 500` is `mcts:500`). Nothing is loaded or
/// checked against a game: a limit on the budget is checked on the result.
///
/// Raises:
///     ConfigError: `text` is not one of the forms (the message lists them,
///         in the words of every bad spec's error).
#[pyfunction]
#[pyo3(text_signature = "(text)")]
fn parse_bot_spec(text: &Bound<'_, PyAny>) -> PyResult<PyBotSpec> {
    PyBotSpec::parse(text)
}

/// Adds the bot classes and `parse_bot_spec` to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandomBot>()?;
    m.add_class::<PyGreedyBot>()?;
    m.add_class::<PyMctsBot>()?;
    m.add_class::<PyBotSpec>()?;
    m.add_function(wrap_pyfunction!(parse_bot_spec, m)?)
}
