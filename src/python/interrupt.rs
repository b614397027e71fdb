//! Long calls that Ctrl-C can stop.
//!
//! Python handles a signal only when the main thread runs Python code, so a
//! long Rust call with the GIL released would ignore Ctrl-C until it
//! returned. [`run`] gives the work a [`Cancel`] token *watched* from the
//! calling thread: the engine's long loops poll the token, and on the calling
//! thread (which runs a search's first tree, a match's bookkeeping, or the
//! batch of random games itself) the poll re-acquires the GIL every
//! [`POLL`] for a moment and asks Python whether a signal handler raised
//! (`Python::check_signals`). If one did (`KeyboardInterrupt` by default),
//! the token is cancelled, every thread of the work winds down within a few
//! iterations, and the handler's exception is raised. A call that ends
//! sooner than [`POLL`] never touches the GIL and starts no thread.

use crate::cancel::Cancel;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the calling thread checks for a signal: well inside the 0.5 s a
/// person waits for Ctrl-C to work, and rare enough to cost nothing.
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// Runs `work(cancel)` with the GIL released and a token cancelled when a
/// signal handler raises. Returns the work's output (partial when stopped)
/// and that exception, if any.
pub(crate) fn run_watched<T, W>(py: Python<'_>, work: W) -> (T, Option<PyErr>)
where
    T: Send,
    W: FnOnce(&Cancel) -> T + Send,
{
    run_watched_until(py, None, work)
}

/// [`run_watched`] that also stops, like a time limit reached (no
/// exception), once `stop` (an object with `is_set()`, such as a
/// `threading.Event`) is set. Python runs signal handlers only on the main
/// thread, so a call made from another thread is stopped this way: the
/// thread that waits for it sets the event.
pub(crate) fn run_watched_until<T, W>(
    py: Python<'_>,
    stop: Option<Py<PyAny>>,
    work: W,
) -> (T, Option<PyErr>)
where
    T: Send,
    W: FnOnce(&Cancel) -> T + Send,
{
    let raised: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let slot = Arc::clone(&raised);
    // Made here, so the calling thread is the one that watches.
    let cancel = Cancel::watched(POLL, move || {
        let checked = Python::attach(|py| {
            if let Some(stop) = &stop {
                if stop.bind(py).call_method0("is_set")?.is_truthy()? {
                    return Ok(false);
                }
            }
            py.check_signals().map(|()| true)
        });
        match checked {
            Ok(go_on) => go_on,
            Err(e) => {
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                false
            }
        }
    });
    let output = py.detach(|| work(&cancel));
    let error = raised.lock().unwrap_or_else(|p| p.into_inner()).take();
    (output, error)
}

/// [`run_watched`] for work whose partial output is of no use: its output,
/// or the exception a signal handler raised while it ran.
pub(crate) fn run<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&Cancel) -> T + Send,
{
    match run_watched(py, work) {
        (_, Some(e)) => Err(e),
        (output, None) => Ok(output),
    }
}
