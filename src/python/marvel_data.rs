//! Marvel card sets seen from Python: the `cards=` / `locations=` keywords of
//! `new_game("marvel", ...)` and `MarvelState.from_json` (a path — str
//! without a newline, or os.PathLike — or the CSV text itself), the registry
//! that keeps a custom set alive exactly as long as a state object uses it,
//! and the self-contained pickle of a state on a custom set.
//!
//! A state is a `Copy` struct holding `&'static MarvelData`. The bundled set
//! is static; a custom set lives in an `Arc<SharedSet>` that every Python
//! state object using it holds (its `keep` field), and the registry maps the
//! set's identity to a `Weak` so that a second load of the same content
//! shares it. When the last state object using a set is freed, the set and
//! its registry entry are freed with it, so memory stays bounded by the sets
//! in use (a rejected file allocates nothing that outlives the call).

use super::{action, errors};
use crate::variants::marvel::cards::{MarvelData, BUNDLED_CARDS, BUNDLED_LOCATIONS};
use crate::variants::marvel::MarvelState;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};

/// A custom card set shared by the state objects that use it.
pub(crate) struct SharedSet(MarvelData);

/// What a Python state object holds to keep its card set alive: `None` for
/// the bundled set (static) and for the variants without card files.
pub(crate) type Keep = Option<Arc<SharedSet>>;

/// Live custom sets by identity.
static SHARED: Mutex<BTreeMap<String, Weak<SharedSet>>> = Mutex::new(BTreeMap::new());

impl Drop for SharedSet {
    fn drop(&mut self) {
        let mut reg = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        // A load on another thread may already have put a fresh copy under
        // this identity: remove the entry only if it is this dead one.
        if reg.get(&self.0.id).is_some_and(|w| w.strong_count() == 0) {
            reg.remove(&self.0.id);
        }
    }
}

/// The set a state points at, with what keeps it alive.
fn pointer(keep: &Arc<SharedSet>) -> &'static MarvelData {
    let data: *const MarvelData = &keep.0;
    // SAFETY: the set lives inside the `Arc` allocation, which never moves
    // and is freed only when the last `Arc` goes. Every Python state object
    // whose Rust state holds this reference also holds a clone of the `Arc`
    // (`keep`), and the Rust copies that bindings make of such a state (bots,
    // search) live only during a call on that object, which keeps it alive.
    unsafe { &*data }
}

/// Interns a parsed set: the bundled set, or the live shared copy with the
/// same identity, or a new shared copy.
fn intern(data: MarvelData) -> (&'static MarvelData, Keep) {
    let bundled = MarvelData::bundled();
    if data.id == bundled.id {
        return (bundled, None);
    }
    let mut reg = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    // Every strong reference made under the lock is returned, so no set is
    // dropped (and no `Drop` takes the lock again) while it is held.
    if let Some(live) = reg.get(&data.id).and_then(Weak::upgrade) {
        return (pointer(&live), Some(live));
    }
    let id = data.id.clone();
    let shared = Arc::new(SharedSet(data));
    reg.insert(id, Arc::downgrade(&shared));
    (pointer(&shared), Some(shared))
}

/// The bundled set or a live custom set with this identity.
fn by_id(id: &str) -> Option<(&'static MarvelData, Keep)> {
    let bundled = MarvelData::bundled();
    if id == bundled.id {
        return Some((bundled, None));
    }
    let reg = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    let live = reg.get(id).and_then(Weak::upgrade)?;
    Some((pointer(&live), Some(live)))
}

/// The number of custom sets alive now (for the memory tests).
pub(crate) fn live_sets() -> usize {
    let reg = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    reg.values().filter(|w| w.strong_count() > 0).count()
}

fn card_data_error(msg: String) -> PyErr {
    errors::CardDataError::new_err(msg)
}

fn text_of(arg: Option<&Bound<'_, PyAny>>, bundled: &str) -> PyResult<String> {
    let Some(arg) = arg.filter(|a| !a.is_none()) else {
        return Ok(bundled.to_owned());
    };
    if arg.cast::<PyString>().is_ok() {
        let s = super::args::text(arg, "a card file", card_data_error)?;
        if s.contains('\n') {
            return Ok(s.to_owned());
        }
    }
    let path: std::path::PathBuf = arg.extract().map_err(|_| {
        errors::CardDataError::new_err(format!(
            "a card file must be a path or CSV text, not {}",
            arg.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    std::fs::read_to_string(&path).map_err(|e| {
        errors::CardDataError::new_err(format!("cannot read card file {}: {e}", path.display()))
    })
}

/// The interned card set for `cards` / `locations` (None = bundled file).
pub(crate) fn load(
    variant: &str,
    cards: Option<&Bound<'_, PyAny>>,
    locations: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'static MarvelData, Keep)> {
    if variant != "marvel" {
        return Err(errors::config(format!(
            "cards= and locations= apply to the marvel variant only, not {variant:?}"
        )));
    }
    let c = text_of(cards, BUNDLED_CARDS)?;
    let l = text_of(locations, BUNDLED_LOCATIONS)?;
    Ok(intern(action::ok(MarvelData::parse(&c, &l))?))
}

/// `MarvelState.from_json(text, *, cards=None, locations=None)`: without
/// files, the card set is the bundled one or a set some live state uses,
/// found by the identity the JSON records; with files (a missing one means
/// the bundled file), exactly that set, whose identity must match.
pub(crate) fn from_json(
    text: &Bound<'_, PyAny>,
    cards: Option<&Bound<'_, PyAny>>,
    locations: Option<&Bound<'_, PyAny>>,
) -> PyResult<(MarvelState, Keep)> {
    let given = |a: Option<&Bound<'_, PyAny>>| a.is_some_and(|a| !a.is_none());
    let text = super::args::json_text(text)?;
    let (data, keep) = if given(cards) || given(locations) {
        load("marvel", cards, locations)?
    } else {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            errors::InvalidStateError::new_err(format!("state JSON does not parse: {e}"))
        })?;
        let id = v.get("card_set").and_then(serde_json::Value::as_str);
        match id.and_then(by_id) {
            Some(found) => found,
            // Validation names the unknown identity.
            None => (MarvelData::bundled(), None),
        }
    };
    let state = action::ok(MarvelState::from_json_with(text, data))?;
    Ok((state, keep))
}

/// `__reduce__` of a Marvel state: `(MarvelState.from_json, (json,))` on the
/// bundled set; on a custom set the loader also carries the set's canonical
/// CSV (`functools.partial(MarvelState.from_json, cards=..., locations=...)`),
/// so the pickle loads in a process that never saw the files.
pub(crate) fn reduce<'py>(
    class: &Bound<'py, PyAny>,
    state: &MarvelState,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = class.py();
    let text = crate::game::Game::to_json(state, None);
    let load = class.getattr("from_json")?;
    let data = state.data();
    if std::ptr::eq(data, MarvelData::bundled()) {
        return load_tuple(py, load, text);
    }
    let (cards, locations) = data.canonical_csv();
    let kwargs = PyDict::new(py);
    kwargs.set_item("cards", cards)?;
    kwargs.set_item("locations", locations)?;
    let partial = py
        .import("functools")?
        .getattr("partial")?
        .call((load,), Some(&kwargs))?;
    load_tuple(py, partial, text)
}

fn load_tuple<'py>(
    py: Python<'py>,
    load: Bound<'py, PyAny>,
    text: String,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            load,
            PyTuple::new(py, [PyString::new(py, &text)])?.into_any(),
        ],
    )
}
