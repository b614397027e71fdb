//! Python binding of the self-play generator: `_core.selfplay_games`, which
//! plays seeded games on several threads with the GIL released and hands
//! each finished game to a Python callback as NumPy arrays. The run
//! directory, shards and resume logic live in `python/splendor/selfplay.py`.

use super::action::ok;
use super::args::{self, Arg};
use super::errors;
use super::network::PyNetwork;
use super::search::{VariantFn, MAX_THREADS};
use super::state::Seed;
use crate::game::{Game, MAX_PLAYERS};
use crate::search::{RootNoise, SearchConfig, Selection};
use crate::selfplay::{play_games, GameRecord, SelfPlayConfig};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

/// A finished game as a dict of NumPy arrays (the shard columns of
/// `docs/network.md`, for one game).
fn record_dict<'py, G: Game>(
    py: Python<'py>,
    r: GameRecord,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let n = r.samples;
    let d = PyDict::new(py);
    d.set_item("game_id", r.game_id)?;
    d.set_item("game_seed", r.game_seed)?;
    d.set_item("decisions", r.decisions)?;
    d.set_item("reason", r.outcome.reason.as_str())?;
    d.set_item("winners", r.outcome.winner_list())?;
    d.set_item(
        "obs",
        PyArray1::from_vec(py, r.obs).reshape([n, G::OBSERVATION_SIZE])?,
    )?;
    d.set_item(
        "mask",
        PyArray1::from_vec(py, r.mask).reshape([n, G::NUM_ACTIONS])?,
    )?;
    d.set_item(
        "policy",
        PyArray1::from_vec(py, r.policy).reshape([n, G::NUM_ACTIONS])?,
    )?;
    d.set_item(
        "returns",
        PyArray1::from_vec(py, r.returns).reshape([n, players])?,
    )?;
    d.set_item(
        "points",
        PyArray1::from_vec(py, r.points).reshape([n, players])?,
    )?;
    d.set_item("q", PyArray1::from_vec(py, r.q))?;
    d.set_item("ply", PyArray1::from_vec(py, r.ply))?;
    d.set_item("player", PyArray1::from_vec(py, r.player))?;
    Ok(d)
}

struct SelfPlayFn {
    cfg: SelfPlayConfig,
    run_seed: u64,
    game_ids: Vec<u64>,
    threads: usize,
    on_game: Py<PyAny>,
}

impl VariantFn for SelfPlayFn {
    type Out = PyResult<usize>;
    fn call<G: Game>(self) -> PyResult<usize> {
        let stop = AtomicBool::new(false);
        // Both callbacks may record an error; the first one wins.
        let py_error: RefCell<Option<PyErr>> = RefCell::new(None);
        let players = usize::from(self.cfg.players);
        let on_game = &self.on_game;
        let handed = play_games::<G>(
            &self.cfg,
            self.run_seed,
            &self.game_ids,
            self.threads,
            &stop,
            // Ctrl-C stops the run within one poll (about 50 ms).
            || {
                Python::attach(|py| match py.check_signals() {
                    Ok(()) => true,
                    Err(e) => {
                        py_error.borrow_mut().get_or_insert(e);
                        false
                    }
                })
            },
            |record| {
                Python::attach(|py| {
                    let stored = record_dict::<G>(py, record, players)
                        .and_then(|d| on_game.call1(py, (d,)))
                        .and_then(|_| py.check_signals());
                    match stored {
                        Ok(()) => true,
                        Err(e) => {
                            py_error.borrow_mut().get_or_insert(e);
                            false
                        }
                    }
                })
            },
        );
        if let Some(e) = py_error.into_inner() {
            return Err(e);
        }
        ok(handed)
    }
}

/// The largest iteration budget per decision (the budget is an `i64` in
/// the run settings).
const MAX_ITERATIONS: i128 = i64::MAX as i128;
const DEFAULT_PRIOR_TEMPERATURE: f64 = 0.02;

/// Plays the self-play games `game_ids` of a run seeded `seed` on `threads`
/// threads (GIL released) and calls `on_game(record)` with each finished
/// game, a dict of NumPy arrays (`obs`, `mask`, `policy`, `returns`, `q`, `ply`)
/// (and `points`, each seat's final score rotated like `returns`) and its
/// `game_id`, `game_seed`, `decisions`, `reason`, `winners`. Returns
/// the number of games handed over. An exception in `on_game` (or Ctrl-C)
/// stops every thread after its current decision and is re-raised. With a
/// `network` (a `Network` or a path) the searches are guided by it; with
/// `noise_alpha` the root prior gets Dirichlet noise (`noise_epsilon` its
/// weight, between 0 and 1). With `fast_iterations` > 0 (playout-cap
/// randomisation) a decision is searched in full and recorded with
/// probability `full_search_fraction`, and otherwise searched with
/// `fast_iterations`, without noise, and not recorded.
///
/// Raises:
///     ConfigError: A bad variant or setting (the message names it and its
///         range), or an `on_game` that is not callable.
///     NetworkError: A network file that cannot be read or does not fit.
///     KeyboardInterrupt: Ctrl-C; every thread stops within about 50 ms.
#[pyfunction]
#[pyo3(signature = (variant, game_ids, on_game, *, players=Arg(None), seed=Seed(0), turn_cap=Arg(None), threads=Arg(None), iterations=Arg(None), exploration=Arg(None), prior_temperature=Arg(None), rollout_depth=Arg(None), temperature_moves=Arg(None), network=None, noise_alpha=Arg(None), noise_epsilon=Arg(None), fast_iterations=Arg(None), full_search_fraction=Arg(None)))]
#[pyo3(
    text_signature = "(variant, game_ids, on_game, *, players=2, seed=0, turn_cap=100, threads=1, iterations=800, exploration=0.7, prior_temperature=0.02, rollout_depth=24, temperature_moves=20, network=None, noise_alpha=None, noise_epsilon=0.25, fast_iterations=0, full_search_fraction=0.25)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn selfplay_games(
    py: Python<'_>,
    variant: &Bound<'_, PyAny>,
    game_ids: &Bound<'_, PyAny>,
    on_game: &Bound<'_, PyAny>,
    players: Arg<'_>,
    seed: Seed,
    turn_cap: Arg<'_>,
    threads: Arg<'_>,
    iterations: Arg<'_>,
    exploration: Arg<'_>,
    prior_temperature: Arg<'_>,
    rollout_depth: Arg<'_>,
    temperature_moves: Arg<'_>,
    network: Option<&Bound<'_, PyAny>>,
    noise_alpha: Arg<'_>,
    noise_epsilon: Arg<'_>,
    fast_iterations: Arg<'_>,
    full_search_fraction: Arg<'_>,
) -> PyResult<usize> {
    let variant = args::variant(variant)?;
    if super::variant_info(variant).is_none() {
        return Err(super::unknown_variant(variant));
    }
    let game_ids = args::list(game_ids, "game_ids", errors::config, |id| {
        Ok(args::int_between(id, "a game id", 0, u64::MAX.into(), errors::config)? as u64)
    })?;
    let on_game = args::callable(on_game, "on_game", errors::config)?
        .clone()
        .unbind();
    let u32_max = i128::from(u32::MAX);
    let noise_epsilon = noise_epsilon.number_or("noise_epsilon", 0.25)?;
    // Checked even without noise: a bad weight is a bad setting either way.
    if !(0.0..=1.0).contains(&noise_epsilon) {
        return Err(errors::config(args::range_message(
            "noise_epsilon",
            0,
            1,
            noise_epsilon,
        )));
    }
    let cfg = SelfPlayConfig {
        players: players.int_or("players", 2, 2, MAX_PLAYERS as i128)? as u8,
        turn_cap: turn_cap.int_or("turn_cap", 100, 1, u32_max)? as u32,
        temperature_moves: temperature_moves.int_or("temperature_moves", 20, 0, u32_max)? as u32,
        fast_iterations: fast_iterations.int_or("fast_iterations", 0, 0, MAX_ITERATIONS)? as u64,
        full_search_fraction: full_search_fraction.number_or("full_search_fraction", 0.25)?,
        search: SearchConfig {
            iterations: iterations.int_or("iterations", 800, 1, MAX_ITERATIONS)? as u64,
            threads: 1,
            exploration: exploration.number_or("exploration", 0.7)?,
            rollout_depth: rollout_depth.int_or("rollout_depth", 24, 0, u32_max)? as u32,
            selection: match prior_temperature
                .opt_number_or("prior_temperature", Some(DEFAULT_PRIOR_TEMPERATURE))?
            {
                Some(temperature) => Selection::Puct { temperature },
                None => Selection::Uct,
            },
            network: network
                .filter(|n| !n.is_none())
                .map(PyNetwork::argument)
                .transpose()?,
            root_noise: noise_alpha
                .opt_number_or("noise_alpha", None)?
                .map(|alpha| RootNoise {
                    alpha,
                    epsilon: noise_epsilon,
                }),
            ..SearchConfig::default()
        },
    };
    let threads = threads.int_or("threads", 1, 1, MAX_THREADS)? as usize;
    let variant = variant.to_string();
    let f = SelfPlayFn {
        cfg,
        run_seed: seed.0,
        game_ids,
        threads,
        on_game,
    };
    py.detach(move || super::with_variant(&variant, f))?
}
