//! Python bindings of the search: `RandomBot`, `GreedyBot`, `MctsBot`,
//! `search` and `match`. Every long call releases the GIL.
//!
//! The variant of a state is only known at run time, so the generic code is
//! reached through [`StateFn`] / [`VariantFn`] visitors; the `dispatch!`
//! macro, invoked once in `mod.rs` with the variant list, generates the
//! functions that pick the concrete `G`.

use super::action::{ok, PyAction, VariantInfo};
use super::errors;
use super::network::PyNetwork;
use super::state::Seed;
use crate::game::{Action, Game, GameError};
use crate::search::arena::REASONS;
use crate::search::{
    bots, play_match, Bot, BotSpec, MatchConfig, MatchResult, SearchConfig, SearchResult, Selection,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

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

pub(crate) fn not_a_state(obj: &Bound<'_, PyAny>) -> PyErr {
    let name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    // TypeError, as for every other binding that is handed a non-state.
    pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a game state (e.g. BaseState from splendor.new_game), not {name}"
    ))
}

/// The Rust bot behind each Python bot class.
#[derive(Clone, Debug)]
enum AnyBot {
    Random(bots::RandomBot),
    Greedy(bots::GreedyBot),
    Mcts(bots::MctsBot),
}

impl AnyBot {
    fn act<G: Game>(&mut self, g: &G) -> Result<Action, GameError> {
        match self {
            AnyBot::Random(b) => b.act(g),
            AnyBot::Greedy(b) => b.act(g),
            AnyBot::Mcts(b) => b.act(g),
        }
    }
}

struct ActFn<'a, 'py> {
    bot: &'a mut AnyBot,
    py: Python<'py>,
}

impl StateFn for ActFn<'_, '_> {
    type Out = PyResult<PyAction>;
    fn call<G: Game>(self, g: G) -> PyResult<PyAction> {
        let bot = self.bot;
        let a = self.py.detach(move || bot.act(&g));
        ok(a).map(PyAction::new_of::<G>)
    }
}

fn act(py: Python<'_>, bot: &mut AnyBot, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
    super::with_state(state, ActFn { bot, py })?
}

/// Picks a uniformly random legal action (seeded: reproducible).
#[pyclass(module = "splendor._core", name = "RandomBot")]
pub(crate) struct PyRandomBot {
    bot: AnyBot,
    seed: u64,
}

#[pymethods]
impl PyRandomBot {
    #[new]
    #[pyo3(signature = (seed=Seed(0)), text_signature = "(seed=0)")]
    fn new(seed: Seed) -> Self {
        Self {
            bot: AnyBot::Random(bots::RandomBot::new(seed.0)),
            seed: seed.0,
        }
    }

    /// The action this bot plays in `state` (any variant).
    fn act(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        act(py, &mut self.bot, state)
    }

    fn __repr__(&self) -> String {
        format!("RandomBot(seed={})", self.seed)
    }
}

/// One ply greedy: the action whose result has the best heuristic for the
/// mover; ties broken by the seeded rng.
#[pyclass(module = "splendor._core", name = "GreedyBot")]
pub(crate) struct PyGreedyBot {
    bot: AnyBot,
    seed: u64,
}

#[pymethods]
impl PyGreedyBot {
    #[new]
    #[pyo3(signature = (seed=Seed(0)), text_signature = "(seed=0)")]
    fn new(seed: Seed) -> Self {
        Self {
            bot: AnyBot::Greedy(bots::GreedyBot::new(seed.0)),
            seed: seed.0,
        }
    }

    /// The action this bot plays in `state` (any variant).
    fn act(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        act(py, &mut self.bot, state)
    }

    fn __repr__(&self) -> String {
        format!("GreedyBot(seed={})", self.seed)
    }
}

fn non_negative(name: &str, v: i64) -> PyResult<u64> {
    u64::try_from(v).map_err(|_| errors::config(format!("{name} must be >= 0, got {v}")))
}

/// Builds and validates a search config from Python arguments. With
/// `iterations=None` the budget is 1000 iterations, or the time limit alone
/// when one is given.
#[allow(clippy::too_many_arguments)]
fn search_config(
    iterations: Option<i64>,
    time_limit: Option<f64>,
    threads: i64,
    seed: Seed,
    max_nodes: i64,
    rollout_depth: i64,
    exploration: f64,
    prior_temperature: Option<f64>,
    network: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchConfig> {
    let network = network
        .filter(|n| !n.is_none())
        .map(PyNetwork::argument)
        .transpose()?;
    let iterations = match (iterations, time_limit) {
        (Some(n), _) => non_negative("iterations", n)?,
        (None, Some(_)) => 0,
        (None, None) => SearchConfig::default().iterations,
    };
    let cfg = SearchConfig {
        iterations,
        time_limit,
        threads: usize::try_from(threads).unwrap_or(0),
        seed: seed.0,
        exploration,
        max_nodes: usize::try_from(max_nodes).unwrap_or(0),
        rollout_depth: u32::try_from(rollout_depth).map_err(|_| {
            errors::config(format!(
                "rollout_depth must be in 0..2**32, got {rollout_depth}"
            ))
        })?,
        selection: match prior_temperature {
            Some(temperature) => Selection::Puct { temperature },
            None => Selection::Uct,
        },
        network,
        ..SearchConfig::default()
    };
    ok(cfg.validate())?;
    Ok(cfg)
}

const DEFAULT_MAX_NODES: i64 = 1 << 20;

/// Information-set MCTS with determinization.
#[pyclass(module = "splendor._core", name = "MctsBot")]
pub(crate) struct PyMctsBot {
    bot: AnyBot,
    config: SearchConfig,
}

#[pymethods]
impl PyMctsBot {
    #[new]
    #[pyo3(signature = (iterations=None, time_limit=None, threads=1, seed=Seed(0), max_nodes=DEFAULT_MAX_NODES, rollout_depth=24, exploration=0.7, prior_temperature=Some(0.02), network=None))]
    #[pyo3(
        text_signature = "(iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        iterations: Option<i64>,
        time_limit: Option<f64>,
        threads: i64,
        seed: Seed,
        max_nodes: i64,
        rollout_depth: i64,
        exploration: f64,
        prior_temperature: Option<f64>,
        network: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let config = search_config(
            iterations,
            time_limit,
            threads,
            seed,
            max_nodes,
            rollout_depth,
            exploration,
            prior_temperature,
            network,
        )?;
        let bot = ok(bots::MctsBot::new(config.clone()))?;
        Ok(Self {
            bot: AnyBot::Mcts(bot),
            config,
        })
    }

    /// The action this bot plays in `state` (any variant).
    fn act(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        act(py, &mut self.bot, state)
    }

    #[getter]
    fn iterations(&self) -> u64 {
        self.config.iterations
    }

    #[getter]
    fn time_limit(&self) -> Option<f64> {
        self.config.time_limit
    }

    #[getter]
    fn threads(&self) -> usize {
        self.config.threads
    }

    /// SHA-256 of the network file, or None for the rollout search.
    #[getter]
    fn network_sha256(&self) -> Option<String> {
        self.config.network.as_ref().map(|n| n.sha256_hex())
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

#[pymethods]
impl PySearchResult {
    /// The most visited action.
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

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(action={:?}, iterations={}, nodes={})",
            (self.info.text)(self.result.action),
            self.result.iterations,
            self.result.nodes
        )
    }
}

struct SearchFn<'py> {
    cfg: SearchConfig,
    py: Python<'py>,
}

impl StateFn for SearchFn<'_> {
    type Out = PyResult<PySearchResult>;
    fn call<G: Game>(self, g: G) -> PyResult<PySearchResult> {
        let cfg = self.cfg;
        let result = ok(self.py.detach(move || crate::search::search(&g, &cfg)))?;
        Ok(PySearchResult {
            info: VariantInfo::of::<G>(),
            result,
        })
    }
}

/// Searches `state` for the player to move, with the GIL released.
#[pyfunction]
#[pyo3(signature = (state, *, iterations=None, time_limit=None, threads=1, seed=Seed(0), max_nodes=DEFAULT_MAX_NODES, rollout_depth=24, exploration=0.7, prior_temperature=Some(0.02), network=None))]
#[pyo3(
    text_signature = "(state, *, iterations=None, time_limit=None, threads=1, seed=0, max_nodes=1048576, rollout_depth=24, exploration=0.7, prior_temperature=0.02, network=None)"
)]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    iterations: Option<i64>,
    time_limit: Option<f64>,
    threads: i64,
    seed: Seed,
    max_nodes: i64,
    rollout_depth: i64,
    exploration: f64,
    prior_temperature: Option<f64>,
    network: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySearchResult> {
    let cfg = search_config(
        iterations,
        time_limit,
        threads,
        seed,
        max_nodes,
        rollout_depth,
        exploration,
        prior_temperature,
        network,
    )?;
    super::with_state(state, SearchFn { cfg, py })?
}

/// A bot argument of `match`: a bot object or a spec string.
fn bot_spec(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<BotSpec> {
    if let Ok(s) = obj.cast::<PyString>() {
        return ok(BotSpec::parse(s.to_str()?));
    }
    if obj.cast::<PyRandomBot>().is_ok() {
        return Ok(BotSpec::Random);
    }
    if obj.cast::<PyGreedyBot>().is_ok() {
        return Ok(BotSpec::Greedy);
    }
    if let Ok(b) = obj.cast::<PyMctsBot>() {
        return Ok(BotSpec::Mcts(b.try_borrow()?.config.clone()));
    }
    let name = obj.get_type().name()?;
    Err(errors::config(format!(
        "bot {i} is not a bot: expected RandomBot, GreedyBot, MctsBot or a spec such as \"mcts:1000\", got {name}"
    )))
}

/// The results of `match`.
#[pyclass(frozen, module = "splendor._core", name = "MatchResult")]
pub(crate) struct PyMatchResult {
    r: MatchResult,
}

#[pymethods]
impl PyMatchResult {
    #[getter]
    fn variant(&self) -> &str {
        &self.r.variant
    }
    #[getter]
    fn players(&self) -> u8 {
        self.r.players
    }
    #[getter]
    fn games(&self) -> u64 {
        self.r.games
    }
    /// Per bot, in the order given: dicts with `name`, `games`, `wins`,
    /// `win_rate`, `ci_low`, `ci_high`.
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
    #[getter]
    fn draws(&self) -> u64 {
        self.r.draws
    }
    #[getter]
    fn truncated(&self) -> u64 {
        self.r.truncated
    }
    #[getter]
    fn stalled(&self) -> u64 {
        self.r.stalled
    }
    #[getter]
    fn avg_decisions(&self) -> f64 {
        self.r.avg_decisions
    }
    #[getter]
    fn avg_turns(&self) -> f64 {
        self.r.avg_turns
    }
    /// Games per end reason.
    #[getter]
    fn reasons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (r, n) in REASONS.iter().zip(self.r.reasons) {
            d.set_item(r.as_str(), n)?;
        }
        Ok(d)
    }
    /// Compact JSON with sorted keys.
    fn to_json(&self) -> String {
        self.r.to_json()
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

struct MatchFn {
    cfg: MatchConfig,
    progress: Option<Py<PyAny>>,
}

impl VariantFn for MatchFn {
    type Out = Result<MatchResult, PyErr>;
    fn call<G: Game>(self) -> Result<MatchResult, PyErr> {
        let mut py_error: Option<PyErr> = None;
        let progress = self.progress;
        let r = play_match::<G>(&self.cfg, &mut |done, total| {
            // Re-attach briefly after each game: runs the callback and lets
            // Ctrl-C stop a long match.
            Python::attach(|py| {
                let step = match &progress {
                    Some(cb) => cb.call1(py, (done, total)).map(|_| ()),
                    None => Ok(()),
                };
                match step.and_then(|()| py.check_signals()) {
                    Ok(()) => true,
                    Err(e) => {
                        py_error.get_or_insert(e);
                        false
                    }
                }
            })
        });
        if let Some(e) = py_error {
            return Err(e);
        }
        r.map_err(errors::to_py)
    }
}

/// Plays `games` games between `bots` with seat rotation and paired deals,
/// `threads` games at a time, with the GIL released.
#[pyfunction(name = "match")]
#[pyo3(signature = (bots, *, variant="base", players=2, games=100, seed=Seed(0), threads=1, turn_cap=100, progress=None))]
#[pyo3(
    text_signature = "(bots, *, variant='base', players=2, games=100, seed=0, threads=1, turn_cap=100, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn play(
    py: Python<'_>,
    bots: &Bound<'_, PyAny>,
    variant: &str,
    players: i64,
    games: i64,
    seed: Seed,
    threads: i64,
    turn_cap: i64,
    progress: Option<Py<PyAny>>,
) -> PyResult<PyMatchResult> {
    let specs: Vec<BotSpec> = bots
        .try_iter()
        .map_err(|_| errors::config("bots must be a list of bots".into()))?
        .enumerate()
        .map(|(i, b)| bot_spec(i, &b?))
        .collect::<PyResult<_>>()?;
    // The game itself checks the player count (per variant) when the match
    // starts; here only the integer range.
    let players = u8::try_from(players)
        .map_err(|_| errors::config(format!("players must be 2, 3 or 4, got {players}")))?;
    let turn_cap = u32::try_from(turn_cap)
        .ok()
        .filter(|&c| c > 0)
        .ok_or_else(|| {
            errors::config(format!("turn_cap must be a positive int, not {turn_cap}"))
        })?;
    let cfg = MatchConfig {
        bots: specs,
        players,
        games: usize::try_from(games)
            .map_err(|_| errors::config(format!("games must be positive, got {games}")))?,
        seed: seed.0,
        threads: usize::try_from(threads).unwrap_or(0),
        turn_cap,
    };
    // Resolve the variant with the GIL held, then play without it.
    if super::variant_info(variant).is_none() {
        return Err(super::unknown_variant(variant));
    }
    let variant = variant.to_string();
    let r = py.detach(move || super::with_variant(&variant, MatchFn { cfg, progress }))??;
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
    Ok(())
}
