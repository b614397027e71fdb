//! The `Action` and `Outcome` classes, shared by every variant.

use super::errors;
use crate::game::{Action, Game, GameError, Outcome};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// What an `Action` needs to know about its variant without a state.
#[derive(Clone, Copy)]
pub(crate) struct VariantInfo {
    pub name: &'static str,
    pub num_actions: usize,
    pub observation_size: usize,
    pub text: fn(Action) -> String,
}

impl VariantInfo {
    pub(crate) fn of<G: Game>() -> Self {
        Self {
            name: G::VARIANT,
            num_actions: G::NUM_ACTIONS,
            observation_size: G::OBSERVATION_SIZE,
            text: G::action_text,
        }
    }
}

/// An action of one variant: a stable id and its text form.
#[pyclass(frozen, module = "splendor._core", name = "Action")]
pub(crate) struct PyAction {
    pub info: VariantInfo,
    pub id: u16,
}

impl PyAction {
    pub(crate) fn new_of<G: Game>(a: Action) -> Self {
        Self {
            info: VariantInfo::of::<G>(),
            id: a.0,
        }
    }
}

#[pymethods]
impl PyAction {
    #[new]
    fn py_new(variant: &str, id: i64) -> PyResult<Self> {
        let info = super::variant_info(variant).ok_or_else(|| {
            errors::config(format!(
                "unknown variant {variant:?}; expected one of {}",
                super::VARIANTS.join(", ")
            ))
        })?;
        let id = checked_id(id, info.num_actions)?;
        Ok(Self { info, id })
    }

    /// The variant this action belongs to.
    #[getter]
    fn variant(&self) -> &'static str {
        self.info.name
    }

    /// The stable integer id.
    #[getter]
    fn id(&self) -> u16 {
        self.id
    }

    /// The canonical text form.
    #[getter]
    fn text(&self) -> String {
        (self.info.text)(Action(self.id))
    }

    fn __int__(&self) -> u16 {
        self.id
    }

    fn __index__(&self) -> u16 {
        self.id
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Action({}, '{}')", self.id, self.text())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyAction>() {
            Ok(o) => {
                let o = o.get();
                PyBool::new(py, o.info.name == self.info.name && o.id == self.id)
                    .to_owned()
                    .into_any()
                    .unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.info.name, self.id).hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let args = (me.info.name, me.id);
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}

/// Checks an id against a variant's action space.
fn checked_id(id: i64, num_actions: usize) -> PyResult<u16> {
    if id >= 0 && (id as u64) < num_actions as u64 {
        Ok(id as u16)
    } else {
        Err(errors::invalid_action(format!(
            "action id {id} is out of range 0..{num_actions}"
        )))
    }
}

/// The variant of an action object of the other engine: an object of a class
/// named `Action` with a string `variant` attribute (the reference engine's
/// `Action`). Both engines read action arguments by the same rule. The class
/// name is checked first so that NumPy integers cost no failed lookup.
pub(crate) fn foreign_action_variant(a: &Bound<'_, PyAny>) -> Option<String> {
    if a.is_instance_of::<PyInt>() || a.is_instance_of::<PyString>() {
        return None;
    }
    if a.get_type().name().ok()?.to_str().ok()? != "Action" {
        return None;
    }
    a.getattr(pyo3::intern!(a.py(), "variant"))
        .ok()?
        .extract::<String>()
        .ok()
}

/// Reads an action argument for a state of variant `G`: an `Action` (of
/// either engine) of the same variant, an int id (or anything with
/// `__index__`, such as a numpy integer) or text. An action of another variant
/// and anything else are an `InvalidActionError`.
pub(crate) fn resolve<G: Game>(a: &Bound<'_, PyAny>) -> PyResult<Action> {
    if let Ok(act) = a.cast::<PyAction>() {
        let act = act.get();
        if act.info.name != G::VARIANT {
            return Err(errors::invalid_action(format!(
                "`{}` is an action of variant {:?}, not {:?}",
                act.text(),
                act.info.name,
                G::VARIANT
            )));
        }
        return Ok(Action(act.id));
    }
    if a.is_instance_of::<PyBool>() {
        return Err(errors::invalid_action(
            "an action must be an Action, an int id or text, not bool".to_owned(),
        ));
    }
    if let Ok(s) = a.cast::<PyString>() {
        let text = s.to_str()?;
        return G::parse_action(text).map_err(errors::to_py);
    }
    if let Some(variant) = foreign_action_variant(a) {
        if variant != G::VARIANT {
            return Err(errors::invalid_action(format!(
                "`{}` is an action of variant {variant:?}, not {:?}",
                a.str().map_or_else(|_| "?".into(), |s| s.to_string()),
                G::VARIANT
            )));
        }
    }
    if let Ok(index) = a.call_method0("__index__") {
        return match index.extract::<i64>() {
            Ok(v) => checked_id(v, G::NUM_ACTIONS).map(Action),
            Err(_) => Err(errors::invalid_action(format!(
                "action id {index} is out of range 0..{}",
                G::NUM_ACTIONS
            ))),
        };
    }
    let type_name = a.get_type().name()?;
    Err(errors::invalid_action(format!(
        "an action must be an Action, an int id or text, not {type_name}"
    )))
}

/// Turns an engine result into Python, keeping the error class.
pub(crate) fn ok<T>(r: Result<T, GameError>) -> PyResult<T> {
    r.map_err(errors::to_py)
}

/// The result of a finished game.
#[pyclass(frozen, module = "splendor._core", name = "Outcome")]
pub(crate) struct PyOutcome {
    winners: Vec<u8>,
    reason: String,
    num_players: u8,
}

impl PyOutcome {
    pub(crate) fn from_outcome(o: &Outcome) -> Self {
        Self {
            winners: o.winner_list(),
            reason: o.reason.as_str().to_owned(),
            num_players: o.num_players,
        }
    }
}

#[pymethods]
impl PyOutcome {
    #[new]
    fn py_new(winners: Vec<u8>, reason: String, num_players: u8) -> Self {
        Self {
            winners,
            reason,
            num_players,
        }
    }

    /// The winning seats, ascending (several: a shared win; none: truncated).
    #[getter]
    fn winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.winners)
    }

    /// Why the game ended.
    #[getter]
    fn reason(&self) -> &str {
        &self.reason
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> u8 {
        self.num_players
    }

    /// True when the turn cap ended the game.
    #[getter]
    fn truncated(&self) -> bool {
        self.reason == "truncated"
    }

    /// True when every player had to pass for a full round.
    #[getter]
    fn stalled(&self) -> bool {
        self.reason == "stalled"
    }

    /// `1/k` to each of `k` winners, 0 to everyone else.
    fn returns(&self) -> Vec<f64> {
        let k = self.winners.len();
        (0..self.num_players)
            .map(|p| {
                if self.winners.contains(&p) {
                    1.0 / k as f64
                } else {
                    0.0
                }
            })
            .collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyOutcome>() {
            Ok(o) => {
                let o = o.get();
                let same = o.winners == self.winners
                    && o.reason == self.reason
                    && o.num_players == self.num_players;
                PyBool::new(py, same).to_owned().into_any().unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (&self.winners, &self.reason, self.num_players).hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        let winners: Vec<String> = self.winners.iter().map(u8::to_string).collect();
        let comma = if winners.len() == 1 { "," } else { "" };
        format!(
            "Outcome(winners=({}{comma}), reason='{}', num_players={})",
            winners.join(", "),
            self.reason,
            self.num_players
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let args = (me.winners.clone(), me.reason.clone(), me.num_players);
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}
