//! The state class of every variant, written once: generic helpers over
//! [`Game`] plus the [`py_state!`] macro that stamps out one `#[pyclass]` per
//! variant (a variant is then one line in `mod.rs`).

use super::action::{ok, resolve, PyAction, PyOutcome};
use super::errors;
use super::marvel_data::Keep;
use crate::game::{ActionList, Config, Game, Player};
use crate::rng::SplitMix64;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use pyo3::IntoPyObject;

/// Reads a seat argument, rejecting anything outside `0..num_players`.
pub(crate) fn seat<G: Game>(g: &G, player: SeatArg) -> PyResult<Player> {
    let player = player.0;
    let n = g.num_players();
    if player >= 0 && (player as u64) < n as u64 {
        Ok(player as Player)
    } else {
        Err(errors::config(format!(
            "player {player} is out of range 0..{n}"
        )))
    }
}

/// A seed argument: any int in `0..2**64` (anything else is a `ConfigError`).
#[derive(Clone, Copy)]
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if !obj.is_instance_of::<PyBool>() {
            if let Ok(v) = obj.extract::<u64>() {
                return Ok(Seed(v));
            }
        }
        Err(errors::config(format!(
            "seed must be an int in 0..2**64, got {}",
            obj.repr()?
        )))
    }
}

/// An integer argument: a Python int or any integer with `__index__` (NumPy
/// integers, as an RL loop produces them), not a bool. Values beyond `i64`
/// saturate, so the range checks that follow reject them.
fn index_arg(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    if obj.is_instance_of::<PyInt>() {
        // The common case, without a Python method call.
        return Some(obj.extract::<i64>().unwrap_or(i64::MAX));
    }
    let index = obj.call_method0("__index__").ok()?;
    Some(index.extract::<i64>().unwrap_or(i64::MAX))
}

/// A seat argument: an integer (see `index_arg`); its range is checked
/// against the state.
#[derive(Clone, Copy)]
pub(crate) struct SeatArg(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for SeatArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Some(v) = index_arg(&obj) {
            return Ok(SeatArg(v));
        }
        Err(errors::config(format!(
            "player must be an integer, got {}",
            obj.repr()?
        )))
    }
}

/// Reads an integer option (`players`, `turn_cap`, `n`; see `index_arg`),
/// else a `ConfigError` naming the option (as the reference engine raises).
pub(crate) fn int_arg(obj: Option<&Bound<'_, PyAny>>, name: &str, default: i64) -> PyResult<i64> {
    let Some(obj) = obj else {
        return Ok(default);
    };
    if let Some(v) = index_arg(obj) {
        return Ok(v);
    }
    Err(errors::config(format!(
        "{name} must be an integer, got {}",
        obj.repr()?
    )))
}

/// Builds a `Config` from the keyword arguments of `new_game`.
pub(crate) fn config(
    players: Option<&Bound<'_, PyAny>>,
    seed: Seed,
    turn_cap: Option<&Bound<'_, PyAny>>,
) -> PyResult<Config> {
    let players = int_arg(players, "players", 2)?;
    let turn_cap = int_arg(turn_cap, "turn_cap", 100)?;
    let num_players = u8::try_from(players)
        .map_err(|_| errors::config(format!("players must be 2, 3 or 4, got {players}")))?;
    let turn_cap = u32::try_from(turn_cap)
        .ok()
        .filter(|&c| c > 0)
        .ok_or_else(|| {
            errors::config(format!("turn_cap must be a positive int, not {turn_cap}"))
        })?;
    Ok(Config {
        num_players,
        seed: seed.0,
        turn_cap,
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
        Some(o) => o.returns()[..n].iter().map(|&r| f64::from(r)).collect(),
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

/// The JSON text of a state argument (`InvalidStateError` for a non-string).
pub(crate) fn json_text<'a>(text: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let Ok(s) = text.cast::<PyString>() else {
        return Err(errors::InvalidStateError::new_err(format!(
            "a state must be given as JSON text, not {}",
            text.get_type().name()?
        )));
    };
    s.to_str()
}

pub(crate) fn from_json<G: Game>(text: &Bound<'_, PyAny>) -> PyResult<G> {
    ok(G::from_json(json_text(text)?))
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
    let Ok(s) = text.cast::<PyString>() else {
        return Err(errors::invalid_action(format!(
            "action text must be a str, not {}",
            text.get_type().name()?
        )));
    };
    ok(G::parse_action(s.to_str()?)).map(PyAction::new_of::<G>)
}

pub(crate) fn action_from_id<G: Game>(id: &Bound<'_, PyAny>) -> PyResult<PyAction> {
    if id.cast::<PyString>().is_ok()
        || id.cast::<PyAction>().is_ok()
        || super::action::foreign_action_variant(id).is_some()
    {
        return Err(errors::invalid_action(format!(
            "action_from_id takes an int id, not {}",
            id.get_type().name()?
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
            from_json(text) = $crate::python::state::from_json_kept::<$g>
        );
    };
    // A variant whose card set can come from files (Marvel): `from_json`
    // takes the same `cards=` / `locations=` keywords as `new_game`.
    ($py:ident, $pyname:literal, $g:ty, card_files) => {
        $crate::python::state::py_state!(
            @class $py, $pyname, $g,
            reduce = $crate::python::marvel_data::reduce,
            from_json(text, *, cards=None, locations=None) = $crate::python::marvel_data::from_json,
            cards, locations
        );
    };
    (@class $py:ident, $pyname:literal, $g:ty, reduce = $reduce:expr,
     from_json($($sig:tt)*) = $load:expr $(, $extra:ident)*) => {
        #[doc = concat!("A `", $pyname, "` game state (mutable; `child` and `clone` copy it).")]
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

            #[staticmethod]
            #[pyo3(signature = ($($sig)*))]
            fn from_json(
                text: &pyo3::Bound<'_, pyo3::PyAny>,
                $($extra: Option<&pyo3::Bound<'_, pyo3::PyAny>>,)*
            ) -> pyo3::PyResult<Self> {
                ($load)(text $(, $extra)*).map(|(inner, keep)| Self { inner, keep })
            }

            fn legal_actions(&self) -> Vec<$crate::python::action::PyAction> {
                $crate::python::state::legal_actions(&self.inner)
            }

            fn legal_action_ids(&self) -> Vec<u16> {
                $crate::python::state::legal_action_ids(&self.inner)
            }

            fn legal_action_mask<'py>(
                &self,
                py: pyo3::Python<'py>,
            ) -> pyo3::Bound<'py, numpy::PyArray1<bool>> {
                $crate::python::state::legal_action_mask(py, &self.inner)
            }

            fn apply(&mut self, action: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<()> {
                $crate::python::state::apply(&mut self.inner, action)
            }

            fn child(&self, action: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                let mut inner = self.inner.clone();
                $crate::python::state::apply(&mut inner, action)?;
                Ok(self.with(inner))
            }

            fn clone(&self) -> Self {
                self.with(self.inner.clone())
            }

            #[getter]
            fn current_player(&self) -> i64 {
                $crate::python::state::current_player(&self.inner)
            }

            #[getter]
            fn num_players(&self) -> usize {
                $crate::game::Game::num_players(&self.inner)
            }

            #[getter]
            fn num_actions(&self) -> usize {
                <$g as $crate::game::Game>::NUM_ACTIONS
            }

            #[getter]
            fn observation_size(&self) -> usize {
                <$g as $crate::game::Game>::OBSERVATION_SIZE
            }

            #[getter]
            fn variant(&self) -> &'static str {
                <$g as $crate::game::Game>::VARIANT
            }

            fn is_terminal(&self) -> bool {
                $crate::game::Game::is_terminal(&self.inner)
            }

            fn outcome(&self) -> Option<$crate::python::action::PyOutcome> {
                $crate::python::state::outcome(&self.inner)
            }

            fn returns(&self) -> Vec<f64> {
                $crate::python::state::returns(&self.inner)
            }

            fn scores(&self) -> Vec<i32> {
                $crate::python::state::scores(&self.inner)
            }

            fn heuristic(&self, player: $crate::python::state::SeatArg) -> pyo3::PyResult<f64> {
                $crate::python::state::heuristic(&self.inner, player)
            }

            fn observation<'py>(
                &self,
                py: pyo3::Python<'py>,
                player: $crate::python::state::SeatArg,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f32>>> {
                $crate::python::state::observation(py, &self.inner, player)
            }

            #[pyo3(signature = (player=None))]
            fn to_json(
                &self,
                player: Option<$crate::python::state::SeatArg>,
            ) -> pyo3::PyResult<String> {
                $crate::python::state::to_json(&self.inner, player)
            }

            #[pyo3(signature = (player, *, seed))]
            fn determinize(
                &self,
                player: $crate::python::state::SeatArg,
                seed: $crate::python::state::Seed,
            ) -> pyo3::PyResult<Self> {
                $crate::python::state::determinize(&self.inner, player, seed)
                    .map(|inner| self.with(inner))
            }

            fn action_from_text(
                &self,
                text: &pyo3::Bound<'_, pyo3::PyAny>,
            ) -> pyo3::PyResult<$crate::python::action::PyAction> {
                $crate::python::state::action_from_text::<$g>(text)
            }

            fn action_from_id(
                &self,
                id: &pyo3::Bound<'_, pyo3::PyAny>,
            ) -> pyo3::PyResult<$crate::python::action::PyAction> {
                $crate::python::state::action_from_id::<$g>(id)
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

            fn __str__(&self) -> String {
                $crate::game::Game::render(&self.inner)
            }

            fn __repr__(&self) -> String {
                $crate::python::state::repr($pyname, &self.inner)
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.clone()
            }

            fn __reduce__<'py>(
                slf: &pyo3::Bound<'py, Self>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyTuple>> {
                ($reduce)(slf.get_type().as_any(), &slf.borrow().inner)
            }
        }
    };
}

pub(crate) use py_state;
