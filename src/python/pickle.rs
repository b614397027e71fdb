//! What the result classes of `search` and `match` share: they are not
//! built directly, they compare field by field, and they pickle through a
//! module-level restore function whose payload is checked item by item.

use super::{args, errors};
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::True;
use pyo3::types::{PyBool, PyList, PyTuple};
use pyo3::{IntoPyObjectExt, PyClass};

/// The exception for a corrupt pickle of a result.
pub(super) fn bad_pickle(what: &str, detail: &str) -> PyErr {
    errors::InvalidStateError::new_err(format!("bad pickled {what}: {detail}"))
}

/// The items of a tuple or list inside a pickle, however many.
pub(super) fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    match obj.cast::<PyTuple>() {
        Ok(t) => Ok(t.iter().collect()),
        Err(_) => match obj.cast::<PyList>() {
            Ok(l) => Ok(l.iter().collect()),
            Err(_) => Err(bad_pickle(what, "expected a tuple")),
        },
    }
}

/// Exactly `N` items of a tuple or list inside a pickle.
pub(super) fn tuple<'py, const N: usize>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<[Bound<'py, PyAny>; N]> {
    let items = items(obj, what)?;
    let n = items.len();
    items
        .try_into()
        .map_err(|_| bad_pickle(what, &format!("expected {N} items, got {n}")))
}

/// A count inside a pickle (an int in `0..=2**64 - 1`).
pub(super) fn count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    Ok(args::int_between(obj, name, 0, u64::MAX.into(), errors::invalid_state)? as u64)
}

/// A real number inside a pickle.
pub(super) fn real(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    args::number(obj, name).map_err(|_| bad_pickle(name, "expected a number"))
}

/// The error for building a result class directly.
pub(super) fn no_constructor(class: &str, maker: &str) -> PyErr {
    errors::config(format!(
        "{class} has no constructor: it is what splendor.{maker}(...) returns"
    ))
}

/// `__eq__` of a result class: `same` on two results of the class,
/// `NotImplemented` against anything else.
pub(super) fn eq<T: PyClass<Frozen = True> + Sync>(
    me: &T,
    other: &Bound<'_, PyAny>,
    same: impl FnOnce(&T, &T) -> bool,
) -> Py<PyAny> {
    let py = other.py();
    match other.cast::<T>() {
        Ok(o) => PyBool::new(py, same(me, o.get()))
            .to_owned()
            .into_any()
            .unbind(),
        Err(_) => py.NotImplemented(),
    }
}

/// `__reduce__` of a result class: a call of `splendor._core.<restore>`
/// with the one argument `payload`.
pub(super) fn reduce<'py>(
    py: Python<'py>,
    restore: &str,
    payload: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let restore = py.import("splendor._core")?.getattr(restore)?;
    let payload = payload.into_bound_py_any(py)?;
    (restore, (payload,)).into_pyobject(py)
}
