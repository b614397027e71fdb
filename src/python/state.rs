//! The state class of every variant, written once: generic helpers over
//! [`Game`] plus the [`py_state!`] macro that stamps out one `#[pyclass]` per
//! variant (a variant is then one line in `mod.rs`).

use super::action::{ok, resolve, PyAction, PyOutcome};
use super::args;
use super::errors;
use super::marvel_data::Keep;
use crate::game::{ActionList, Config, Game, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3::IntoPyObject;

/// Reads a seat argument, rejecting anything outside `0..num_players`.
pub(crate) fn seat<G: Game>(g: &G, player: SeatArg) -> PyResult<Player> {
    let n = g.num_players();
    match player.0 {
        Some(p) if p >= 0 && (p as u64) < n as u64 => Ok(p as Player),
        _ => Err(errors::config(args::range_message(
            "player",
            0,
            n - 1,
            &player.1,
        ))),
    }
}

/// A seed argument: any integer in `0..=2**64 - 1` (anything else is a
/// `ConfigError`).
#[derive(Clone, Copy)]
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let v = args::int_between(&obj, "seed", 0, u64::MAX.into(), errors::config)?;
        Ok(Seed(v as u64))
    }
}

/// A seat argument: an integer (see `args::integer`; `None` inside when it
/// does not fit), with its repr for messages; its range is checked against
/// the state by [`seat`].
#[derive(Clone)]
pub(crate) struct SeatArg(Option<i64>, String);

impl<'a, 'py> FromPyObject<'a, 'py> for SeatArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match args::integer(&obj) {
            Some(v) => Ok(SeatArg(
                v.and_then(|v| i64::try_from(v).ok()),
                args::repr(&obj),
            )),
            None => Err(errors::config(format!(
                "player must be an integer, got {}",
                args::repr(&obj)
            ))),
        }
    }
}

/// The largest `turn_cap` any variant accepts is the variant's to check;
/// this only keeps the value in `u32`.
const TURN_CAP_MAX: i128 = u32::MAX as i128;

/// Builds a `Config` from the keyword arguments of `new_game`.
pub(crate) fn config(
    players: &args::Arg<'_>,
    seed: Seed,
    turn_cap: &args::Arg<'_>,
) -> PyResult<Config> {
    // `None` means the default, as in the reference engine. The variant
    // checks its own player count (Duel: 2 only) and turn cap.
    let players = players
        .opt_int("players", 2, MAX_PLAYERS as i128)?
        .unwrap_or(2);
    let turn_cap = turn_cap
        .opt_int("turn_cap", 1, TURN_CAP_MAX)?
        .unwrap_or(100);
    Ok(Config {
        num_players: players as u8,
        seed: seed.0,
        turn_cap: turn_cap as u32,
    })
}

pub(crate) fn legal_actions<G: Game>(g: &G) -> Vec<PyAction> {
    let mut list = ActionList::new();
    g.legal_actions(&mut list);
    list.as_slice()
        .iter()
        .map(|&a| PyAction::new_of::<G>(a))
        .collect()
}

pub(crate) fn legal_action_ids<G: Game>(g: &G) -> Vec<u16> {
    let mut list = ActionList::new();
    g.legal_actions(&mut list);
    list.as_slice().iter().map(|a| a.0).collect()
}

pub(crate) fn legal_action_mask<'py, G: Game>(
    py: Python<'py>,
    g: &G,
) -> Bound<'py, PyArray1<bool>> {
    let mut list = ActionList::new();
    g.legal_actions(&mut list);
    let mut mask = vec![false; G::NUM_ACTIONS];
    for a in list.as_slice() {
        mask[a.index()] = true;
    }
    PyArray1::from_vec(py, mask)
}

pub(crate) fn apply<G: Game>(g: &mut G, a: &Bound<'_, PyAny>) -> PyResult<()> {
    let action = resolve::<G>(a)?;
    ok(g.apply(action))
}

pub(crate) fn current_player<G: Game>(g: &G) -> i64 {
    g.current_player().map_or(-1, i64::from)
}

pub(crate) fn outcome<G: Game>(g: &G) -> Option<PyOutcome> {
    g.outcome().map(|o| PyOutcome::from_outcome(&o))
}

pub(crate) fn returns<G: Game>(g: &G) -> Vec<f64> {
    let n = g.num_players();
    match g.outcome() {
        Some(o) => o.returns()[..n].to_vec(),
        None => vec![0.0; n],
    }
}

pub(crate) fn scores<G: Game>(g: &G) -> Vec<i32> {
    g.scores()[..g.num_players()].to_vec()
}

pub(crate) fn observation<'py, G: Game>(
    py: Python<'py>,
    g: &G,
    player: SeatArg,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let p = seat(g, player)?;
    let mut out = vec![0.0f32; G::OBSERVATION_SIZE];
    g.observation(p, &mut out);
    Ok(PyArray1::from_vec(py, out))
}

pub(crate) fn to_json<G: Game>(g: &G, player: Option<SeatArg>) -> PyResult<String> {
    let viewer = player.map(|p| seat(g, p)).transpose()?;
    Ok(g.to_json(viewer))
}

pub(crate) fn from_json<G: Game>(text: &Bound<'_, PyAny>) -> PyResult<G> {
    ok(G::from_json(args::json_text(text)?))
}

/// `from_json` of a variant whose states need nothing kept alive.
pub(crate) fn from_json_kept<G: Game>(text: &Bound<'_, PyAny>) -> PyResult<(G, Keep)> {
    from_json::<G>(text).map(|g| (g, None))
}

/// `__reduce__`: `(Class.from_json, (json,))`.
pub(crate) fn reduce<'py, G: Game>(
    class: &Bound<'py, PyAny>,
    g: &G,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let load = class.getattr("from_json")?;
    (load, (g.to_json(None),)).into_pyobject(class.py())
}

/// The one argument of `apply` / `child` (`name`), bound as Python binds it
/// ([`args::bind`]: a call that does not fit is a `ConfigError`).
pub(crate) fn action_argument<'py>(
    name: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    args::one(name, "action", args, kwargs)
}

/// The one argument of `heuristic` / `observation` (`name`): a seat.
pub(crate) fn seat_argument(
    name: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<SeatArg> {
    args::one(name, "player", args, kwargs)?.extract()
}

pub(crate) fn heuristic<G: Game>(g: &G, player: SeatArg) -> PyResult<f64> {
    Ok(f64::from(g.heuristic(seat(g, player)?)))
}

pub(crate) fn determinize<G: Game>(g: &G, player: SeatArg, seed: Seed) -> PyResult<G> {
    let p = seat(g, player)?;
    let mut rng = SplitMix64::new(seed.0);
    Ok(g.determinize(p, &mut rng))
}

pub(crate) fn action_from_text<G: Game>(text: &Bound<'_, PyAny>) -> PyResult<PyAction> {
    // Not a str is a malformed action, as in the reference engine.
    let text = args::text(text, "action text", errors::invalid_action)?;
    ok(G::parse_action(text)).map(PyAction::new_of::<G>)
}

pub(crate) fn action_from_id<G: Game>(id: &Bound<'_, PyAny>) -> PyResult<PyAction> {
    if id.cast::<PyString>().is_ok()
        || id.cast::<PyAction>().is_ok()
        || super::action::foreign_action_variant(id).is_some()
    {
        return Err(errors::invalid_action(format!(
            "action_from_id takes an int id, not {}",
            args::type_name(id)
        )));
    }
    resolve::<G>(id).map(PyAction::new_of::<G>)
}

pub(crate) fn repr<G: Game>(class: &str, g: &G) -> String {
    format!(
        "<{class} players={} turn={} current_player={} scores={:?}{}>",
        g.num_players(),
        g.turns(),
        current_player(g),
        scores(g),
        match g.outcome() {
            Some(o) => format!(" over: {} won by {:?}", o.reason.as_str(), o.winner_list()),
            None => String::new(),
        }
    )
}

/// Defines the Python class `$pyname` (a `#[pyclass]` named `$py`) wrapping
/// the Rust state `$g: Game`, with every method of the contract's Python
/// surface. The wrapped state is `pub(crate) inner`, so other binding modules
/// (search, bots) can reach it.
macro_rules! py_state {
    ($py:ident, $pyname:literal, $g:ty) => {
        $crate::python::state::py_state!(
            @class $py, $pyname, $g,
            reduce = $crate::python::state::reduce::<$g>,
            from_json("(text)") = $crate::python::state::from_json_kept::<$g>
        );
    };
    // A variant whose card set can come from files (Marvel): `from_json`
    // takes the same `cards=` / `locations=` keywords as `new_game`.
    ($py:ident, $pyname:literal, $g:ty, card_files) => {
        $crate::python::state::py_state!(
            @class $py, $pyname, $g,
            reduce = $crate::python::marvel_data::reduce,
            from_json("(text, *, cards=None, locations=None)") = $crate::python::marvel_data::from_json,
            cards, locations
        );
    };
    (@class $py:ident, $pyname:literal, $g:ty, reduce = $reduce:expr,
     from_json($sig:literal) = $load:expr $(, $extra:ident)*) => {
        #[doc = concat!("A `", $pyname, "` game state; mutable, `child` and `clone` copy it.")]
        #[doc = ""]
        #[doc = "The action table, JSON format and observation layout are in the"]
        #[doc = "variant's page in `docs/`. States compare equal when their full"]
        #[doc = "JSON is equal; they are not hashable. `str(state)` draws the board;"]
        #[doc = "pickle and `copy.deepcopy` work."]
        #[pyo3::pyclass(module = "splendor._core", name = $pyname)]
        pub(crate) struct $py {
            pub(crate) inner: $g,
            /// Keeps alive the card set `inner` points at (custom Marvel
            /// sets; `None` otherwise): see `marvel_data`.
            pub(crate) keep: $crate::python::marvel_data::Keep,
        }

        impl $py {
            /// Wraps a state built from the bundled data (nothing to keep).
            pub(crate) fn new_static(inner: $g) -> Self {
                Self { inner, keep: None }
            }

            /// Loads a state from its JSON text (`from_json(text)`).
            pub(crate) fn load(text: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                $( let $extra: Option<&pyo3::Bound<'_, pyo3::PyAny>> = None; )*
                ($load)(text $(, $extra)*).map(|(inner, keep)| Self { inner, keep })
            }

            /// A copy of this object holding `inner`, on the same card set.
            fn with(&self, inner: $g) -> Self {
                Self {
                    inner,
                    keep: self.keep.clone(),
                }
            }
        }

        #[pyo3::pymethods]
        impl $py {
            #[classattr]
            const __hash__: Option<pyo3::Py<pyo3::PyAny>> = None;

            /// States are not built directly: a `ConfigError` says how to get one.
            #[new]
            #[pyo3(signature = (*_args, **_kwargs))]
            fn py_new(
                _args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                _kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Self> {
                Err($crate::python::errors::config(
                    concat!(
                        $pyname,
                        " has no constructor: deal a game with splendor.new_game(...) ",
                        "or load one with ",
                        $pyname,
                        ".from_json(text)"
                    )
                    .to_owned(),
                ))
            }

            /// Loads and validates a full state.
            ///
            /// Args:
            ///     text: JSON text as written by `to_json()`.
            ///
            /// Raises:
            ///     InvalidStateError: The JSON is malformed, a view, or
            ///         inconsistent (the message names the problem), or
            ///         `text` is not a str.
            #[staticmethod]
            #[pyo3(signature = (*args, **kwargs), text_signature = $sig)]
            fn from_json(
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Self> {
                use $crate::python::args::{bind, required, Param};
                let [text $(, $extra)*] = bind(
                    concat!($pyname, ".from_json"),
                    $sig,
                    [Param::Required("text") $(, Param::Keyword(stringify!($extra)))*],
                    args,
                    kwargs,
                )?;
                ($load)(&required(text) $(, $extra.as_ref().filter(|o| !o.is_none()))*)
                    .map(|(inner, keep)| Self { inner, keep })
            }

            /// The legal actions, ascending by id (empty once the game is over).
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn legal_actions(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Vec<$crate::python::action::PyAction>> {
                $crate::python::args::no_arguments(concat!($pyname, ".legal_actions"), args, kwargs)?;
                Ok($crate::python::state::legal_actions(&self.inner))
            }

            /// The legal action ids, ascending.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn legal_action_ids(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Vec<u16>> {
                $crate::python::args::no_arguments(concat!($pyname, ".legal_action_ids"), args, kwargs)?;
                Ok($crate::python::state::legal_action_ids(&self.inner))
            }

            /// A NumPy bool array of length `num_actions`, true at the legal ids.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn legal_action_mask<'py>(
                &self,
                py: pyo3::Python<'py>,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<bool>>> {
                $crate::python::args::no_arguments(concat!($pyname, ".legal_action_mask"), args, kwargs)?;
                Ok($crate::python::state::legal_action_mask(py, &self.inner))
            }

            /// Plays an action in place.
            ///
            /// Args:
            ///     action: An `Action`, an int id (NumPy integers too) or the
            ///         action text.
            ///
            /// Raises:
            ///     IllegalActionError: The action is not legal now (the state
            ///         is unchanged).
            ///     InvalidActionError: The text does not parse, the id is out
            ///         of range, or the argument has the wrong type.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, action)")]
            fn apply(
                &mut self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<()> {
                let action = $crate::python::state::action_argument(concat!($pyname, ".apply"), args, kwargs)?;
                $crate::python::state::apply(&mut self.inner, &action)
            }

            /// The state after `action`; this one is unchanged.
            ///
            /// Args:
            ///     action: An `Action`, an int id or the action text.
            ///
            /// Raises:
            ///     IllegalActionError: The action is not legal now.
            ///     InvalidActionError: The action is malformed.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, action)")]
            fn child(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Self> {
                let action = $crate::python::state::action_argument(concat!($pyname, ".child"), args, kwargs)?;
                let mut inner = self.inner.clone();
                $crate::python::state::apply(&mut inner, &action)?;
                Ok(self.with(inner))
            }

            /// An independent copy.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn clone(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Self> {
                $crate::python::args::no_arguments(concat!($pyname, ".clone"), args, kwargs)?;
                Ok(self.with(self.inner.clone()))
            }

            /// The seat to decide, or -1 once the game is over.
            #[getter]
            fn current_player(&self) -> i64 {
                $crate::python::state::current_player(&self.inner)
            }

            /// Number of seats.
            #[getter]
            fn num_players(&self) -> usize {
                $crate::game::Game::num_players(&self.inner)
            }

            /// Size of the action space (ids are 0 to `num_actions - 1`).
            #[getter]
            fn num_actions(&self) -> usize {
                <$g as $crate::game::Game>::NUM_ACTIONS
            }

            /// Length of `observation()`.
            #[getter]
            fn observation_size(&self) -> usize {
                <$g as $crate::game::Game>::OBSERVATION_SIZE
            }

            /// The variant name: "base", "duel" or "marvel".
            #[getter]
            fn variant(&self) -> &'static str {
                <$g as $crate::game::Game>::VARIANT
            }

            /// True once the game is over.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn is_terminal(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<bool> {
                $crate::python::args::no_arguments(concat!($pyname, ".is_terminal"), args, kwargs)?;
                Ok($crate::game::Game::is_terminal(&self.inner))
            }

            /// The result (`Outcome`) once the game is over, else None.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn outcome(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Option<$crate::python::action::PyOutcome>> {
                $crate::python::args::no_arguments(concat!($pyname, ".outcome"), args, kwargs)?;
                Ok($crate::python::state::outcome(&self.inner))
            }

            /// One return per seat: the outcome's exact returns (1/k to each of
            /// k winners, as float64), zeros before the end.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn returns(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Vec<f64>> {
                $crate::python::args::no_arguments(concat!($pyname, ".returns"), args, kwargs)?;
                Ok($crate::python::state::returns(&self.inner))
            }

            /// Current points of each seat.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
            fn scores(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Vec<i32>> {
                $crate::python::args::no_arguments(concat!($pyname, ".scores"), args, kwargs)?;
                Ok($crate::python::state::scores(&self.inner))
            }

            /// Value in [0, 1] of the position for `player`: the variant's
            /// static evaluation (see the variant's page in `docs/`), the
            /// player's return once the game is over. The search scores
            /// rollout cut-offs and sets move priors with it; `GreedyBot`
            /// maximises it.
            ///
            /// Raises:
            ///     ConfigError: `player` is not a seat.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, player)")]
            fn heuristic(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<f64> {
                let player = $crate::python::state::seat_argument(concat!($pyname, ".heuristic"), args, kwargs)?;
                $crate::python::state::heuristic(&self.inner, player)
            }

            /// The float32 encoding of what `player` can see (layout in the
            /// variant's page in `docs/`).
            ///
            /// Raises:
            ///     ConfigError: `player` is not a seat of this game.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, player)")]
            fn observation<'py>(
                &self,
                py: pyo3::Python<'py>,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f32>>> {
                let player = $crate::python::state::seat_argument(concat!($pyname, ".observation"), args, kwargs)?;
                $crate::python::state::observation(py, &self.inner, player)
            }

            /// Canonical JSON (compact, keys sorted).
            ///
            /// Args:
            ///     player: None for the full state, or the seat whose view
            ///         (hidden cards redacted) to write.
            ///
            /// Raises:
            ///     ConfigError: `player` is not a seat of this game.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, player=None)")]
            fn to_json(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<String> {
                use $crate::python::args::{bind, Param};
                let [player] = bind(concat!($pyname, ".to_json"), "(player=None)", [Param::Optional("player")], args, kwargs)?;
                let player = match player.filter(|p| !p.is_none()) {
                    Some(p) => Some(p.extract()?),
                    None => None,
                };
                $crate::python::state::to_json(&self.inner, player)
            }

            /// A full state consistent with `player`'s view, hidden cards
            /// resampled.
            ///
            /// Args:
            ///     player: The observing seat.
            ///     seed: Seed of the SplitMix64 stream that reshuffles the
            ///         hidden cards (an int between 0 and 2**64 - 1).
            ///
            /// Raises:
            ///     ConfigError: Bad seat or seed.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, player, *, seed)")]
            fn determinize(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<Self> {
                use $crate::python::args::{bind, required, Param};
                let [player, seed] = bind(
                    concat!($pyname, ".determinize"),
                    "(player, *, seed)",
                    [Param::Required("player"), Param::KeywordRequired("seed")],
                    args,
                    kwargs,
                )?;
                let player = required(player).extract()?;
                let seed = required(seed).extract()?;
                $crate::python::state::determinize(&self.inner, player, seed)
                    .map(|inner| self.with(inner))
            }

            /// Parses action text (case-insensitive).
            ///
            /// Raises:
            ///     InvalidActionError: The text does not parse, or is not a
            ///         str.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, text)")]
            fn action_from_text(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<$crate::python::action::PyAction> {
                use $crate::python::args::{bind, required, Param};
                let [text] = bind(concat!($pyname, ".action_from_text"), "(text)", [Param::Required("text")], args, kwargs)?;
                $crate::python::state::action_from_text::<$g>(&required(text))
            }

            /// The action with id `id`.
            ///
            /// Raises:
            ///     InvalidActionError: The id is out of range or not an int.
            #[pyo3(signature = (*args, **kwargs), text_signature = "($self, id)")]
            fn action_from_id(
                &self,
                args: &pyo3::Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<$crate::python::action::PyAction> {
                use $crate::python::args::{bind, required, Param};
                let [id] = bind(concat!($pyname, ".action_from_id"), "(id)", [Param::Required("id")], args, kwargs)?;
                $crate::python::state::action_from_id::<$g>(&required(id))
            }

            fn __eq__(&self, other: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::Py<pyo3::PyAny> {
                let py = other.py();
                match other.cast::<Self>() {
                    Ok(o) => {
                        let same = $crate::game::Game::to_json(&self.inner, None)
                            == $crate::game::Game::to_json(&o.borrow().inner, None);
                        pyo3::types::PyBool::new(py, same)
                            .to_owned()
                            .into_any()
                            .unbind()
                    }
                    Err(_) => py.NotImplemented(),
                }
            }

            /// The board, drawn as text.
            fn __str__(&self) -> String {
                $crate::game::Game::render(&self.inner)
            }

            fn __repr__(&self) -> String {
                $crate::python::state::repr($pyname, &self.inner)
            }

            fn __copy__(&self) -> Self {
                self.with(self.inner.clone())
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.with(self.inner.clone())
            }

            /// Pickle support: the full JSON.
            fn __reduce__<'py>(
                slf: &pyo3::Bound<'py, Self>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyTuple>> {
                ($reduce)(slf.get_type().as_any(), &slf.borrow().inner)
            }
        }
    };
}

pub(crate) use py_state;
