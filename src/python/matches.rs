//! Python binding of `match` (an arena between bots) and its `MatchResult`.

use super::action::ok;
use super::args::{self, Arg};
use super::bots::bot_spec;
use super::pickle::{self, count, real};
use super::search::{VariantFn, MAX_THREADS};
use super::state::Seed;
use super::{errors, interrupt};
use crate::game::{Game, MAX_PLAYERS};
use crate::search::arena::REASONS;
use crate::search::{play_match_cancellable, BotSpec, BotStats, MatchConfig, MatchResult};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

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
        Err(pickle::no_constructor("MatchResult", "match"))
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
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
    fn to_json(
        &self,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        args::no_arguments("MatchResult.to_json", args, kwargs)?;
        Ok(self.r.to_json())
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        pickle::eq(self, other, |a, b| a.r == b.r)
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
        pickle::reduce(slf.py(), "_restore_match_result", payload)
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
    let [variant, players, games, bots, totals, averages, reasons] = pickle::tuple(payload, WHAT)?;
    let variant = args::text(&variant, "variant", errors::invalid_state)?;
    if super::variant_info(variant).is_none() {
        return Err(pickle::bad_pickle(WHAT, "unknown variant"));
    }
    let mut bot_stats = Vec::new();
    for b in pickle::items(&bots, WHAT)? {
        let [name, games, wins, rate, lo, hi] = pickle::tuple(&b, WHAT)?;
        bot_stats.push(BotStats {
            name: args::text(&name, "name", errors::invalid_state)?.to_owned(),
            games: count(&games, "games")?,
            wins: real(&wins, "wins")?,
            win_rate: real(&rate, "win_rate")?,
            ci_low: real(&lo, "ci_low")?,
            ci_high: real(&hi, "ci_high")?,
        });
    }
    let [draws, truncated, stalled] = pickle::tuple(&totals, WHAT)?;
    let [avg_decisions, avg_turns] = pickle::tuple(&averages, WHAT)?;
    let mut per_reason = [0u64; REASONS.len()];
    for (slot, n) in per_reason
        .iter_mut()
        .zip(pickle::tuple::<{ REASONS.len() }>(&reasons, WHAT)?)
    {
        *slot = count(&n, "reasons")?;
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
            draws: count(&draws, "draws")?,
            truncated: count(&truncated, "truncated")?,
            stalled: count(&stalled, "stalled")?,
            avg_decisions: real(&avg_decisions, "avg_decisions")?,
            avg_turns: real(&avg_turns, "avg_turns")?,
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
/// rest. Bots may be given as specs, read by `parse_bot_spec`: `random`,
/// `greedy`, `mcts`, `mcts:N`, `mcts:Ts`, `net:N@PATH`, `net:Ts@PATH`
/// (`splendor.match` also resolves `default` and `net` to the network
/// shipped for the game). A bot object contributes its kind and settings;
/// the seeds of the games' bots derive from `seed`.
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

/// Adds `match` and `MatchResult` to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMatchResult>()?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_match_result, m)?)
}
