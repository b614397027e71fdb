//! Maps the engine's [`GameError`] onto the exception classes of
//! `python/splendor/errors.py`, which both engines raise, so `except
//! splendor.IllegalActionError` works the same on either engine.

use crate::game::GameError;
use pyo3::PyErr;

pyo3::import_exception!(splendor.errors, IllegalActionError);
pyo3::import_exception!(splendor.errors, InvalidActionError);
pyo3::import_exception!(splendor.errors, InvalidStateError);
pyo3::import_exception!(splendor.errors, ConfigError);
pyo3::import_exception!(splendor.errors, CardDataError);
pyo3::import_exception!(splendor.errors, NetworkError);

/// The Python exception for an engine error, keeping its message.
pub(crate) fn to_py(e: GameError) -> PyErr {
    match e {
        GameError::IllegalAction(m) => IllegalActionError::new_err(m),
        GameError::InvalidAction(m) => InvalidActionError::new_err(m),
        GameError::InvalidState(m) => InvalidStateError::new_err(m),
        GameError::Config(m) => ConfigError::new_err(m),
        GameError::CardData(m) => CardDataError::new_err(m),
        GameError::Network(m) => NetworkError::new_err(m),
    }
}

/// Shorthand for the `ConfigError` raised on bad arguments (seat, seed, count).
pub(crate) fn config(msg: String) -> PyErr {
    ConfigError::new_err(msg)
}

/// Shorthand for the `InvalidActionError` raised on a malformed action argument.
pub(crate) fn invalid_action(msg: String) -> PyErr {
    InvalidActionError::new_err(msg)
}

/// Shorthand for the `InvalidStateError` raised on a bad state argument.
pub(crate) fn invalid_state(msg: String) -> PyErr {
    InvalidStateError::new_err(msg)
}
