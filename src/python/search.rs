//! Python bindings of the search itself: `search` and its `SearchResult`,
//! the search settings shared with `MctsBot` ([`search_config`]), and the
//! visitors that reach code generic over `G: Game` from a Python state. The
//! bots are in [`super::bots`], `match` in [`super::matches`]. Every long
//! call releases the GIL and stops on Ctrl-C (see [`super::interrupt`]).
//!
//! The variant of a state is only known at run time, so the generic code is
//! reached through [`StateFn`] / [`VariantFn`] visitors; the `dispatch!`
//! macro, invoked once in `mod.rs` with the variant list, generates the
//! functions that pick the concrete `G`.

use super::action::{ok, PyAction, VariantInfo};
use super::args::{self, Arg};
use super::network::PyNetwork;
use super::pickle::{self, count, real};
use super::state::Seed;
use super::{errors, interrupt};
use crate::game::{Action, Game, Player};
use crate::search::mcts::{ActionStats, MAX_LEAF_BATCH};
use crate::search::{SearchConfig, SearchResult, Selection};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

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
pub(super) fn search_config(
    iterations: &Arg<'_>,
    time_limit: &Arg<'_>,
    threads: &Arg<'_>,
    seed: Seed,
    max_nodes: &Arg<'_>,
    rollout_depth: &Arg<'_>,
    exploration: &Arg<'_>,
    prior_temperature: &Arg<'_>,
    network: Option<&Bound<'_, PyAny>>,
    leaf_batch: &Arg<'_>,
    move_temperature: &Arg<'_>,
    fpu_reduction: &Arg<'_>,
    policy_temperature: &Arg<'_>,
    early_stop: &Arg<'_>,
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
        fpu_reduction: fpu_reduction.number_or("fpu_reduction", defaults.fpu_reduction)?,
        policy_temperature: policy_temperature
            .number_or("policy_temperature", defaults.policy_temperature)?,
        max_nodes: max_nodes.int_or("max_nodes", DEFAULT_MAX_NODES, 2, MAX_NODES)? as usize,
        rollout_depth: rollout_depth.int_or("rollout_depth", 24, 0, u32::MAX.into())? as u32,
        selection: match prior_temperature
            .opt_number_or("prior_temperature", Some(DEFAULT_PRIOR_TEMPERATURE))?
        {
            Some(temperature) => Selection::Puct { temperature },
            None => Selection::Uct,
        },
        network,
        leaf_batch: leaf_batch.int_or("leaf_batch", 1, 1, MAX_LEAF_BATCH as i128)? as usize,
        move_temperature: move_temperature.number_or("move_temperature", 0.0)?,
        early_stop: early_stop.number_or("early_stop", defaults.early_stop)?,
        ..defaults
    };
    ok(cfg.validate())?;
    Ok(cfg)
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

    fn line(&self, line: &[(Player, Action)]) -> Vec<(u8, PyAction)> {
        line.iter().map(|&(p, a)| (p, self.action_of(a))).collect()
    }
}

#[pymethods]
impl PySearchResult {
    /// Results are not built directly: a `ConfigError` says where they come
    /// from.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn py_new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(pickle::no_constructor("SearchResult", "search"))
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

    /// The expected line of each legal action: the action by the player to
    /// move, then the most visited reply, and so on, as `(seat, action)`
    /// pairs (at most 8 decisions).
    #[getter]
    fn lines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (s, line) in self.result.stats.iter().zip(&self.result.lines) {
            d.set_item(self.action_of(s.action), self.line(line))?;
        }
        Ok(d)
    }

    /// The expected line of the chosen action (`lines[action]`).
    #[getter]
    fn principal_variation(&self) -> Vec<(u8, PyAction)> {
        self.line(self.result.principal_variation())
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        pickle::eq(self, other, |a, b| {
            a.info.name == b.info.name && a.result == b.result
        })
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
        let lines: Vec<Vec<(Player, u16)>> = r
            .lines
            .iter()
            .map(|l| l.iter().map(|&(p, a)| (p, a.0)).collect())
            .collect();
        let payload = (
            me.info.name,
            r.action.0,
            stats,
            r.iterations,
            r.nodes,
            lines,
        );
        pickle::reduce(slf.py(), "_restore_search_result", payload)
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
    let [variant, action, stats, iterations, nodes, lines] = pickle::tuple(payload, WHAT)?;
    let info = super::variant_info(args::text(&variant, "variant", errors::invalid_state)?)
        .ok_or_else(|| pickle::bad_pickle(WHAT, "unknown variant"))?;
    let max_id = info.num_actions as i128 - 1;
    let id = |o: &Bound<'_, PyAny>| -> PyResult<Action> {
        Ok(Action(
            args::int_between(o, "action id", 0, max_id, errors::invalid_state)? as u16,
        ))
    };
    let mut list = Vec::new();
    for s in pickle::items(&stats, WHAT)? {
        let [a, visits, value] = pickle::tuple(&s, WHAT)?;
        list.push(ActionStats {
            action: id(&a)?,
            visits: count(&visits, "visits")?,
            value: real(&value, "value")?,
        });
    }
    let mut read_lines = Vec::new();
    for l in pickle::items(&lines, WHAT)? {
        let mut line = Vec::new();
        for step in pickle::items(&l, WHAT)? {
            let [p, a] = pickle::tuple(&step, WHAT)?;
            let p = args::int_between(&p, "seat", 0, 3, errors::invalid_state)? as Player;
            line.push((p, id(&a)?));
        }
        read_lines.push(line);
    }
    if read_lines.len() != list.len() {
        return Err(pickle::bad_pickle(WHAT, "one line per action"));
    }
    Ok(PySearchResult {
        info,
        result: SearchResult {
            action: id(&action)?,
            stats: list,
            iterations: count(&iterations, "iterations")?,
            nodes: count(&nodes, "nodes")?,
            lines: read_lines,
        },
    })
}

struct SearchFn<'a, 'py> {
    cfg: SearchConfig,
    py: Python<'py>,
    /// The one root action to search (`root_action`), read for the variant.
    root_action: Option<&'a Bound<'py, PyAny>>,
    /// An event that stops the search once set (`stop`).
    stop: Option<Py<PyAny>>,
}

impl StateFn for SearchFn<'_, '_> {
    type Out = PyResult<PySearchResult>;
    fn call<G: Game>(self, g: G) -> PyResult<PySearchResult> {
        let mut cfg = self.cfg;
        if let Some(a) = self.root_action.filter(|a| !a.is_none()) {
            cfg.root_action = Some(super::action::resolve::<G>(a)?);
        }
        let (result, raised) = interrupt::run_watched_until(self.py, self.stop, move |cancel| {
            crate::search::search_cancellable(&g, &cfg, cancel)
        });
        if let Some(e) = raised {
            return Err(e);
        }
        Ok(PySearchResult {
            info: VariantInfo::of::<G>(),
            result: ok(result)?,
        })
    }
}

/// Searches `state` for the player to move, with the GIL released.
///
/// Reproducible for a fixed seed, thread count and iteration budget. The
/// arguments are those of `MctsBot`, and `root_action` (an action legal in
/// `state`, its id or text): search only that move at the root, so that its
/// value gets the whole budget (a game review's estimate of a move played
/// that the full search hardly tried), and `stop` (a `threading.Event`):
/// once it is set, the search ends within a fraction of a second with what
/// it found so far, as when a time limit is reached (a thread that is not
/// Python's main thread, which Ctrl-C does not reach, is stopped this way).
/// Ctrl-C stops the search (in every
/// thread) and raises KeyboardInterrupt within a fraction of a second.
///
/// Raises:
///     ConfigError: Bad arguments or a finished game.
///     InvalidActionError: `root_action` is not an action of this variant.
///     IllegalActionError: `root_action` is not legal in `state`.
///     InvalidStateError: `state` is not a state of this engine.
///     KeyboardInterrupt: Ctrl-C during the search.
#[pyfunction]
#[pyo3(signature = (state, *, iterations=Arg(None), time_limit=Arg(None), threads=Arg(None), seed=Seed(0), max_nodes=Arg(None), rollout_depth=Arg(None), exploration=Arg(None), prior_temperature=Arg(None), network=None, leaf_batch=Arg(None), root_action=None, stop=None, move_temperature=Arg(None), fpu_reduction=Arg(None), policy_temperature=Arg(None), early_stop=Arg(None)))]
#[pyo3(
    text_signature = "(state, *, iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None, leaf_batch=1, root_action=None, stop=None, move_temperature=0.0, fpu_reduction=0.0, policy_temperature=1.0, early_stop=0.0)"
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
    leaf_batch: Arg<'_>,
    root_action: Option<&Bound<'_, PyAny>>,
    stop: Option<&Bound<'_, PyAny>>,
    move_temperature: Arg<'_>,
    fpu_reduction: Arg<'_>,
    policy_temperature: Arg<'_>,
    early_stop: Arg<'_>,
) -> PyResult<PySearchResult> {
    let stop = stop.filter(|s| !s.is_none());
    if let Some(s) = stop {
        if !s.getattr("is_set").is_ok_and(|f| f.is_callable()) {
            return Err(errors::config(format!(
                "stop must be an event with is_set() (a threading.Event), not {}",
                args::type_name(s)
            )));
        }
    }
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
        &leaf_batch,
        &move_temperature,
        &fpu_reduction,
        &policy_temperature,
        &early_stop,
    )?;
    super::with_state(
        state,
        SearchFn {
            cfg,
            py,
            root_action,
            stop: stop.map(|s| s.clone().unbind()),
        },
    )?
}

/// Adds `search` and `SearchResult` to the module (the bots and `match`
/// register themselves, from `bots.rs` and `matches.rs`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySearchResult>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_search_result, m)?)?;
    Ok(())
}
