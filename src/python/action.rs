//! The `Action` and `Outcome` classes, shared by every variant.

use super::{args, errors};
use crate::game::{Action, EndReason, Game, GameError, Outcome, MAX_PLAYERS};
use crate::search::arena::REASONS;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
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

/// An action of one variant: a stable integer id and its text form.
///
/// `int(action)` is the id and `str(action)` the canonical text. Actions
/// compare equal when variant and id are equal, and are hashable.
///
/// Args:
///     variant: The variant name, e.g. "base".
///     id: The action id, between 0 and `num_actions - 1` of that variant.
///
/// Raises:
///     ConfigError: The variant is unknown or not a str.
///     InvalidActionError: The id is not an integer or out of range.
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
    #[pyo3(signature = (*args, **kwargs), text_signature = "(variant, id)")]
    fn py_new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let [variant, id] = args::bind(
            "Action",
            "(variant, id)",
            [
                args::Param::Required("variant"),
                args::Param::Required("id"),
            ],
            args,
            kwargs,
        )?;
        let (variant, id) = (&args::required(variant), &args::required(id));
        let variant = args::variant(variant)?;
        let info = super::variant_info(variant).ok_or_else(|| super::unknown_variant(variant))?;
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

    /// The canonical text form (same as `str(action)`).
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

    /// Pickle support.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let args = (me.info.name, me.id);
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}

/// Reads an action id for a variant with `num_actions` actions.
fn checked_id(id: &Bound<'_, PyAny>, num_actions: usize) -> PyResult<u16> {
    let hi = num_actions as i128 - 1;
    Ok(args::int_between(id, "action id", 0, hi, errors::invalid_action)? as u16)
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
    if a.cast::<PyString>().is_ok() {
        let text = args::text(a, "action text", errors::invalid_action)?;
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
    if args::integer(a).is_some() {
        return checked_id(a, G::NUM_ACTIONS).map(Action);
    }
    Err(errors::invalid_action(format!(
        "an action must be an Action, an int id or text, not {}",
        args::type_name(a)
    )))
}

/// Turns an engine result into Python, keeping the error class.
pub(crate) fn ok<T>(r: Result<T, GameError>) -> PyResult<T> {
    r.map_err(errors::to_py)
}

/// The result of a finished game.
///
/// Args:
///     winners: The winning seats (several: a shared win; none: the turn cap
///         ended the game).
///     reason: Why the game ended: points, crowns, colour, gauntlet, stalled
///         or truncated.
///     num_players: Number of seats (1 to 4).
///
/// Raises:
///     ConfigError: A seat out of range or repeated, an unknown reason, or
///         winners of a truncated game.
#[pyclass(frozen, module = "splendor._core", name = "Outcome")]
pub(crate) struct PyOutcome {
    outcome: Outcome,
}

impl PyOutcome {
    pub(crate) fn from_outcome(o: &Outcome) -> Self {
        Self { outcome: *o }
    }
}

#[pymethods]
impl PyOutcome {
    #[new]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(winners, reason, num_players)")]
    fn py_new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let [winners, reason, num_players] = args::bind(
            "Outcome",
            "(winners, reason, num_players)",
            [
                args::Param::Required("winners"),
                args::Param::Required("reason"),
                args::Param::Required("num_players"),
            ],
            args,
            kwargs,
        )?;
        let [winners, reason, num_players] = [winners, reason, num_players].map(args::required);
        let (winners, reason, num_players) = (&winners, &reason, &num_players);
        let n = args::int_between(
            num_players,
            "num_players",
            1,
            MAX_PLAYERS as i128,
            errors::config,
        )?;
        let name = args::text(reason, "reason", errors::config)?;
        let reason = REASONS
            .iter()
            .copied()
            .find(|r| r.as_str() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = REASONS.iter().map(|r| r.as_str()).collect();
                errors::config(format!(
                    "unknown reason {name:?}; expected one of {}",
                    names.join(", ")
                ))
            })?;
        if winners.cast::<PyString>().is_ok() {
            return Err(errors::config(
                "winners must be a list of seats, not a str".into(),
            ));
        }
        let seats = winners.try_iter().map_err(|_| {
            errors::config(format!(
                "winners must be a list of seats, not {}",
                args::type_name(winners)
            ))
        })?;
        let mut mask = 0u8;
        for seat in seats {
            let p = args::int_between(&seat?, "a winner", 0, n - 1, errors::config)?;
            if mask & (1 << p) != 0 {
                return Err(errors::config(format!("winner {p} is listed twice")));
            }
            mask |= 1 << p;
        }
        if reason == EndReason::Truncated && mask != 0 {
            return Err(errors::config("a truncated game has no winner".into()));
        }
        Ok(Self {
            outcome: Outcome {
                winners: mask,
                reason,
                num_players: n as u8,
            },
        })
    }

    /// The winning seats, ascending (several: a shared win; none: truncated).
    #[getter]
    fn winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.outcome.winner_list())
    }

    /// Why the game ended: points, crowns, colour, gauntlet, stalled or
    /// truncated.
    #[getter]
    fn reason(&self) -> &'static str {
        self.outcome.reason.as_str()
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> u8 {
        self.outcome.num_players
    }

    /// True when the turn cap ended the game.
    #[getter]
    fn truncated(&self) -> bool {
        self.outcome.truncated()
    }

    /// True when every player had to pass for a full round.
    #[getter]
    fn stalled(&self) -> bool {
        self.outcome.stalled()
    }

    /// Returns per seat: exactly `1/k` (a float64) to each of `k` winners, 0
    /// to everyone else (all zeros when truncated).
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
    fn returns(
        &self,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<f64>> {
        args::no_arguments("Outcome.returns", args, kwargs)?;
        let n = usize::from(self.outcome.num_players);
        Ok(self.outcome.returns()[..n].to_vec())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyOutcome>() {
            Ok(o) => PyBool::new(py, o.get().outcome == self.outcome)
                .to_owned()
                .into_any()
                .unbind(),
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.outcome.hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        let winners: Vec<String> = self
            .outcome
            .winner_list()
            .iter()
            .map(u8::to_string)
            .collect();
        let comma = if winners.len() == 1 { "," } else { "" };
        format!(
            "Outcome(winners=({}{comma}), reason='{}', num_players={})",
            winners.join(", "),
            self.reason(),
            self.outcome.num_players
        )
    }

    /// Pickle support.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let o = slf.get().outcome;
        let args = (o.winner_list(), o.reason.as_str(), o.num_players);
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}
