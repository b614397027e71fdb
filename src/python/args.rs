//! Reading arguments from Python: every bad value, whatever its type, is a
//! `SplendorError` subclass whose message names the argument, never a
//! `TypeError`, `OverflowError` or `UnicodeEncodeError` from the conversion.
//!
//! Ranges are written one way in every message, by
//! [`crate::game::range_message`]: "NAME must be between LO and HI, got
//! VALUE" (both ends included).

use super::errors;
pub(crate) use crate::game::range_message;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyString};
use std::path::PathBuf;

/// The class of error a bad argument raises (`ConfigError`,
/// `InvalidActionError`, ...), as a constructor from the message.
pub(crate) type ErrorFn = fn(String) -> PyErr;

/// `repr(obj)`, or a placeholder when even that fails.
pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .and_then(|r| r.to_str().map(str::to_owned))
        .unwrap_or_else(|_| format!("<{}>", type_name(obj)));
    // Keep messages one line and short, whatever was passed.
    if text.chars().count() > 80 {
        let head: String = text.chars().take(77).collect();
        format!("{head}...")
    } else {
        text
    }
}

/// The name of `obj`'s type.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .ok()
        .and_then(|n| n.to_str().ok().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// An integer value of `obj`: a Python int or any integer type with
/// `__index__` (NumPy integers), but not a bool. `None` when `obj` is not an
/// integer; `Some(None)` when it is one too large for `i128`.
pub(crate) fn integer(obj: &Bound<'_, PyAny>) -> Option<Option<i128>> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    if obj.is_instance_of::<PyInt>() {
        // The common case, without a Python method call.
        return Some(obj.extract::<i128>().ok());
    }
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyString>() {
        return None;
    }
    let index = obj.call_method0("__index__").ok()?;
    if !index.is_instance_of::<PyInt>() {
        return None;
    }
    Some(index.extract::<i128>().ok())
}

/// An integer argument in `lo..=hi`, else `error("NAME must be an integer,
/// got VALUE")` or `error("NAME must be between LO and HI, got VALUE")`.
pub(crate) fn int_between(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
    error: ErrorFn,
) -> PyResult<i128> {
    match integer(obj) {
        Some(Some(v)) if (lo..=hi).contains(&v) => Ok(v),
        Some(_) => Err(error(range_message(name, lo, hi, repr(obj)))),
        None => Err(error(format!(
            "{name} must be an integer, got {}",
            repr(obj)
        ))),
    }
}

/// A number argument: an int or a float (or anything with `__float__`, such
/// as NumPy floats), not a bool or a str. The range is the caller's to check
/// (NaN and infinities pass here).
pub(crate) fn number(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    let bad = || errors::config(format!("{name} must be a number, got {}", repr(obj)));
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyString>() {
        return Err(bad());
    }
    // An int beyond the float range overflows here: still a bad number.
    obj.extract::<f64>().map_err(|_| bad())
}

/// A text argument: a `str` that is valid Unicode (no lone surrogate, which
/// cannot be encoded as UTF-8), else `error(...)` naming it.
pub(crate) fn text<'a>(obj: &'a Bound<'_, PyAny>, name: &str, error: ErrorFn) -> PyResult<&'a str> {
    let Ok(s) = obj.cast::<PyString>() else {
        return Err(error(format!(
            "{name} must be a str, not {}",
            type_name(obj)
        )));
    };
    s.to_str().map_err(|_| {
        error(format!(
            "{name} is not valid text: {} contains a lone surrogate",
            repr(obj)
        ))
    })
}

/// The JSON text of a state argument (`InvalidStateError` for a non-string
/// or a string that is not valid Unicode).
pub(crate) fn json_text<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    text(obj, "the state JSON", errors::invalid_state)
}

/// A variant name argument (`ConfigError` when not a str).
pub(crate) fn variant<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    text(obj, "variant", errors::config)
}

/// An argument taken as the caller passed it, so that its conversion, and
/// its error, are ours; `Arg(None)` when the caller left it out (unlike
/// `Option<T>`, which cannot tell a left-out argument from `None`).
pub(crate) struct Arg<'py>(pub Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg(Some(obj.to_owned())))
    }
}

impl<'py> Arg<'py> {
    /// The value, `None` when left out or passed as `None`.
    fn given(&self) -> Option<&Bound<'py, PyAny>> {
        self.0.as_ref().filter(|o| !o.is_none())
    }

    /// An integer in `lo..=hi`; `default` when left out (`None` is refused).
    pub(crate) fn int_or(&self, name: &str, default: i128, lo: i128, hi: i128) -> PyResult<i128> {
        match &self.0 {
            None => Ok(default),
            Some(o) => int_between(o, name, lo, hi, errors::config),
        }
    }

    /// An integer in `lo..=hi`, or `None` when left out or `None`.
    pub(crate) fn opt_int(&self, name: &str, lo: i128, hi: i128) -> PyResult<Option<i128>> {
        self.given()
            .map(|o| int_between(o, name, lo, hi, errors::config))
            .transpose()
    }

    /// A number; `default` when left out (`None` is refused).
    pub(crate) fn number_or(&self, name: &str, default: f64) -> PyResult<f64> {
        match &self.0 {
            None => Ok(default),
            Some(o) => number(o, name),
        }
    }

    /// A number; `default` when left out, `None` when passed `None`.
    pub(crate) fn opt_number_or(&self, name: &str, default: Option<f64>) -> PyResult<Option<f64>> {
        match &self.0 {
            None => Ok(default),
            Some(o) if o.is_none() => Ok(None),
            Some(o) => number(o, name).map(Some),
        }
    }
}

/// A list argument: any iterable but a `str`, `bytes` or `bytearray` (whose
/// items are characters or byte values, never what a list argument holds),
/// each item read by `item`. An exception raised while iterating is
/// `error(...)` naming the argument (Ctrl-C and other non-`Exception`s pass).
pub(crate) fn list<'py, T>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    error: ErrorFn,
    mut item: impl FnMut(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let not_a_list = || error(format!("{name} must be a list, not {}", type_name(obj)));
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(not_a_list());
    }
    let only_exceptions = |e: PyErr, ours: PyErr| {
        if e.is_instance_of::<PyException>(obj.py()) {
            ours
        } else {
            e
        }
    };
    let unreadable = |e: PyErr| {
        let ours = error(format!("{name} could not be read: {e}"));
        only_exceptions(e, ours)
    };
    let mut out = Vec::new();
    let entries = obj
        .try_iter()
        .map_err(|e| only_exceptions(e, not_a_list()))?;
    for entry in entries {
        out.push(item(&entry.map_err(unreadable)?)?);
    }
    Ok(out)
}

/// A file path argument: a `str` or an `os.PathLike` whose `__fspath__`
/// gives one, else `error(...)` naming it. A name that is not valid text
/// (a lone surrogate) is refused, except for the `surrogateescape` form of
/// undecodable bytes that `os.listdir` returns, which names a real file.
pub(crate) fn path(obj: &Bound<'_, PyAny>, name: &str, error: ErrorFn) -> PyResult<PathBuf> {
    let not_a_path = || {
        error(format!(
            "{name} must be a path (a str or os.PathLike), not {}",
            type_name(obj)
        ))
    };
    let text = if obj.is_instance_of::<PyString>() {
        obj.clone()
    } else if obj.hasattr("__fspath__").unwrap_or(false) {
        let fspath = obj.call_method0("__fspath__").map_err(|e| {
            if e.is_instance_of::<PyException>(obj.py()) {
                not_a_path()
            } else {
                e
            }
        })?;
        if !fspath.is_instance_of::<PyString>() {
            return Err(not_a_path());
        }
        fspath
    } else {
        return Err(not_a_path());
    };
    // The file system encoding, as `open` would use it.
    let os_text: std::ffi::OsString = text.extract().map_err(|_| {
        error(format!(
            "{name} is not a valid path: {} contains a lone surrogate",
            repr(&text)
        ))
    })?;
    Ok(PathBuf::from(os_text))
}

/// A `bytes` argument, else `error(...)` naming it.
pub(crate) fn bytes<'a>(
    obj: &'a Bound<'_, PyAny>,
    name: &str,
    error: ErrorFn,
) -> PyResult<&'a [u8]> {
    obj.cast::<PyBytes>()
        .map(|b| b.as_bytes())
        .map_err(|_| error(format!("{name} must be bytes, not {}", type_name(obj))))
}

/// A 1-d float32 NumPy array argument (any strides), copied out, else
/// `error(...)` naming it.
pub(crate) fn float32_vector(
    obj: &Bound<'_, PyAny>,
    name: &str,
    error: ErrorFn,
) -> PyResult<Vec<f32>> {
    let bad = || {
        error(format!(
            "{name} must be a 1-d float32 NumPy array, got {}",
            repr(obj)
        ))
    };
    let array = obj.cast::<PyArray1<f32>>().map_err(|_| bad())?;
    // Refused only while Rust code holds the array for writing.
    let view = array
        .try_readonly()
        .map_err(|_| error(format!("{name} is being written to by another call")))?;
    Ok(view.as_array().iter().copied().collect())
}

/// A callable argument, else `error(...)` naming it.
pub(crate) fn callable<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
    name: &str,
    error: ErrorFn,
) -> PyResult<&'a Bound<'py, PyAny>> {
    if obj.is_callable() {
        Ok(obj)
    } else {
        Err(error(format!(
            "{name} must be a callable, not {}",
            type_name(obj)
        )))
    }
}

// The readers below came with the batched environment (`env.rs`).
use numpy::{PyArrayDescrMethods, PyReadonlyArray1, PyUntypedArray, PyUntypedArrayMethods};

/// A yes/no argument: `True` or `False` (a NumPy bool too), never an int or
/// any other object whose truth would be guessed.
pub(crate) fn flag(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    obj.extract::<bool>()
        .map_err(|_| errors::config(format!("{name} must be True or False, got {}", repr(obj))))
}

/// An optional text per item of a sequence (`None` or a `str`), as for a
/// list of bots per seat; a bare `str` is refused (it would be read as its
/// characters). `what` describes an item for the messages.
pub(crate) fn optional_texts(
    obj: &Bound<'_, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Vec<Option<String>>> {
    let not_a_sequence = || {
        errors::config(format!(
            "{name} must be a sequence with one entry per seat ({what}), got {}",
            repr(obj)
        ))
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(not_a_sequence());
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| not_a_sequence())? {
        // An iterator that raises part-way is a bad argument too.
        let item = item.map_err(|_| not_a_sequence())?;
        if item.is_none() {
            out.push(None);
        } else {
            out.push(Some(
                text(
                    &item,
                    &format!("an entry of {name} ({what})"),
                    errors::config,
                )?
                .to_owned(),
            ));
        }
    }
    Ok(out)
}

/// The integers of a 1-D array argument, as `i64`: see [`int_array`].
pub(crate) enum Ints<'py> {
    /// A contiguous int64 NumPy array, read in place.
    Borrowed(PyReadonlyArray1<'py, i64>),
    /// Anything else that holds integers, converted.
    Owned(Vec<i64>),
}

impl Ints<'_> {
    /// The values.
    pub(crate) fn as_slice(&self) -> &[i64] {
        match self {
            // Only contiguous arrays are kept borrowed (checked when read).
            Ints::Borrowed(a) => a.as_slice().unwrap_or_default(),
            Ints::Owned(v) => v,
        }
    }
}

/// A 1-D array of integers: a contiguous int64 NumPy array is read in place
/// (no copy, the common case on a hot path); any other integer dtype, a
/// strided array, or a sequence NumPy reads as integers is converted. Any
/// other dtype, shape or object is `error(...)` naming what was expected.
/// The length is the caller's to check.
pub(crate) fn int_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    error: ErrorFn,
) -> PyResult<Ints<'py>> {
    if let Ok(a) = obj.cast::<PyArray1<i64>>() {
        return match a.try_readonly() {
            Ok(r) if r.as_slice().is_ok() => Ok(Ints::Borrowed(r)),
            Ok(r) => Ok(Ints::Owned(r.as_array().to_vec())),
            Err(_) => Err(error(format!(
                "{name} cannot be read: the array is being written by another call"
            ))),
        };
    }
    let expected = || {
        error(format!(
            "{name} must be a 1-D array of integers, got {}",
            repr(obj)
        ))
    };
    let array = if obj.cast::<PyUntypedArray>().is_ok() {
        obj.clone()
    } else {
        // Lists, tuples and other array-likes, as NumPy itself reads them.
        let numpy = obj.py().import("numpy").map_err(|_| expected())?;
        numpy
            .call_method1("asarray", (obj,))
            .map_err(|_| expected())?
    };
    let untyped = array.cast::<PyUntypedArray>().map_err(|_| expected())?;
    let dtype = untyped.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        let dtype = dtype
            .str()
            .map(|s| s.to_string())
            .unwrap_or_else(|_| "?".into());
        return Err(error(format!("{name} must be integers, got dtype {dtype}")));
    }
    if untyped.ndim() != 1 {
        // Written as Python writes a shape: `(2, 3)`, `()`.
        let dims: Vec<String> = untyped.shape().iter().map(usize::to_string).collect();
        return Err(error(format!(
            "{name} must be a 1-D array, got shape ({})",
            dims.join(", ")
        )));
    }
    let mut array = array.clone();
    if dtype.is_native_byteorder() == Some(false) {
        array = array
            .call_method1("astype", (dtype.call_method1("newbyteorder", ("=",))?,))
            .map_err(|_| expected())?;
    }
    macro_rules! convert {
        ($($t:ty),*) => {$(
            if let Ok(a) = array.cast::<PyArray1<$t>>() {
                let r = a.try_readonly().map_err(|_| expected())?;
                let mut out = Vec::with_capacity(r.len());
                for (i, &x) in r.as_array().iter().enumerate() {
                    out.push(i64::try_from(x).map_err(|_| {
                        error(range_message(&format!("{name}[{i}]"), i64::MIN, i64::MAX, x))
                    })?);
                }
                return Ok(Ints::Owned(out));
            }
        )*};
    }
    convert!(i64, i32, i16, i8, u64, u32, u16, u8);
    Err(expected())
}

/// A parameter of a call that binds its own arguments ([`bind`]).
#[derive(Clone, Copy)]
pub(crate) enum Param {
    /// Positional or keyword, required.
    Required(&'static str),
    /// Positional or keyword, may be left out.
    Optional(&'static str),
    /// Keyword only, required.
    KeywordRequired(&'static str),
    /// Keyword only, may be left out.
    Keyword(&'static str),
}

impl Param {
    fn name(self) -> &'static str {
        match self {
            Param::Required(n)
            | Param::Optional(n)
            | Param::KeywordRequired(n)
            | Param::Keyword(n) => n,
        }
    }

    fn positional(self) -> bool {
        matches!(self, Param::Required(_) | Param::Optional(_))
    }

    fn required(self) -> bool {
        matches!(self, Param::Required(_) | Param::KeywordRequired(_))
    }
}

/// The arguments of a call taken as `(*args, **kwargs)`, bound to `params`
/// as Python binds them (each `None` when left out). A call that does not fit
/// (too many positional arguments, an unknown keyword, a value given twice, a
/// required one missing) is a `ConfigError` naming the signature, in the words
/// of `python/splendor/_arguments.py`, never PyO3's `TypeError`. `name` is what
/// the caller called (`"MctsBot"`, `"BaseState.apply"`), `signature` its
/// parameters as `help` shows them (`"(action)"`).
pub(crate) fn bind<'py, const N: usize>(
    name: &str,
    signature: &str,
    params: [Param; N],
    args: &Bound<'py, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
) -> PyResult<[Option<Bound<'py, PyAny>>; N]> {
    bind_as(name, &|| signature.to_owned(), params, args, kwargs)
}

/// [`bind`], the signature written only for the message of a call that
/// does not fit (a good call allocates nothing).
fn bind_as<'py, const N: usize>(
    name: &str,
    signature: &dyn Fn() -> String,
    params: [Param; N],
    args: &Bound<'py, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
) -> PyResult<[Option<Bound<'py, PyAny>>; N]> {
    use pyo3::types::{PyDictMethods, PyTupleMethods};
    let fail = |why: String| {
        errors::config(format!(
            "{name}(): {why}; it is called as {name}{}",
            signature()
        ))
    };
    let mut bound: [Option<Bound<'py, PyAny>>; N] = std::array::from_fn(|_| None);
    let positional = params.iter().filter(|p| p.positional()).count();
    if args.len() > positional {
        let keyword: Vec<&str> = params
            .iter()
            .filter(|p| !p.positional())
            .map(|p| p.name())
            .collect();
        let mut why = "too many positional arguments".to_owned();
        if let Some(first) = keyword.first() {
            why += &format!(" ({}: by keyword, e.g. {first}=...)", keyword.join(", "));
        }
        return Err(fail(why));
    }
    for (slot, value) in bound.iter_mut().zip(args.iter()) {
        *slot = Some(value);
    }
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let text = key
                .cast::<PyString>()
                .ok()
                .and_then(|k| k.to_str().ok().map(str::to_owned));
            let at = text
                .as_deref()
                .and_then(|k| params.iter().position(|p| p.name() == k));
            match at {
                None => {
                    return Err(fail(format!(
                        "got an unexpected keyword argument {}",
                        text.map_or_else(|| repr(&key), |k| format!("'{k}'"))
                    )))
                }
                Some(i) if bound[i].is_some() => {
                    return Err(fail(format!(
                        "multiple values for argument '{}'",
                        params[i].name()
                    )))
                }
                Some(i) => bound[i] = Some(value),
            }
        }
    }
    if let Some(p) = params
        .iter()
        .zip(&bound)
        .find_map(|(p, b)| (p.required() && b.is_none()).then_some(p))
    {
        return Err(fail(format!("missing a required argument: '{}'", p.name())));
    }
    Ok(bound)
}

/// A required argument of [`bind`]'s result (present once `bind` succeeded).
pub(crate) fn required<'py>(value: Option<Bound<'py, PyAny>>) -> Bound<'py, PyAny> {
    value.expect("bind checks the required arguments")
}

/// [`bind`] for a call that takes no arguments.
pub(crate) fn no_arguments(
    name: &str,
    args: &Bound<'_, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<()> {
    bind(name, "()", [], args, kwargs).map(|_| ())
}

/// [`bind`] for a call that takes one required argument, `param`.
pub(crate) fn one<'py>(
    name: &str,
    param: &'static str,
    args: &Bound<'py, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let signature = || format!("({param})");
    let [value] = bind_as(name, &signature, [Param::Required(param)], args, kwargs)?;
    Ok(required(value))
}
