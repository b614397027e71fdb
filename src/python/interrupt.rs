//! Long calls that Ctrl-C can stop.
//!
//! Python handles a signal only when the main thread runs Python code, so a
//! long Rust call with the GIL released would ignore Ctrl-C until it
//! returned. [`run`] runs the work on a scoped thread and keeps the calling
//! thread free: every [`POLL`] it re-acquires the GIL for a moment and asks
//! Python whether a signal handler raised (`Python::check_signals`). If one
//! did (`KeyboardInterrupt` by default), the work's [`Cancel`] token is set,
//! the work and all its threads wind down within a few iterations, and the
//! handler's exception is raised.
//!
//! The same loop delivers the work's events (a match's progress) to Python on
//! the calling thread, so a Python callback runs where the caller expects it.

use crate::cancel::Cancel;
use pyo3::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the calling thread checks for a signal: well inside the 0.5 s a
/// person waits for Ctrl-C to work, and rare enough to cost nothing.
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// What [`run_with_events`] returns: the work's output (partial when
/// stopped) and, when Python raised (a signal handler, or `on_event`), that
/// exception.
pub(crate) struct Finished<T> {
    pub output: T,
    pub error: Option<PyErr>,
}

/// Runs `work(cancel, send)` with the GIL released, calling
/// `on_event(py, e)` on the calling thread, with the GIL, for every `e` the
/// work sends, and checking for signals every [`POLL`]. The first exception
/// (from `on_event` or a signal handler) sets `cancel`; no event is delivered
/// after it. Returns once the work has returned.
pub(crate) fn run_with_events<T, E, W, H>(py: Python<'_>, work: W, mut on_event: H) -> Finished<T>
where
    T: Send,
    E: Send,
    W: FnOnce(&Cancel, &dyn Fn(E)) -> T + Send,
    H: FnMut(Python<'_>, E) -> PyResult<()> + Send,
{
    py.detach(move || {
        let cancel = Cancel::new();
        let (tx, rx) = mpsc::channel::<E>();
        std::thread::scope(|s| {
            let cancel = &cancel;
            let worker = s.spawn(move || {
                let send = move |e: E| {
                    // The receiver outlives the worker; a send cannot fail.
                    let _ = tx.send(e);
                };
                work(cancel, &send)
            });
            let mut error: Option<PyErr> = None;
            loop {
                // The worker's sender is dropped when the work returns, after
                // its last event: `Disconnected` means done.
                let event = match rx.recv_timeout(POLL) {
                    Ok(e) => Some(e),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                if error.is_some() {
                    continue;
                }
                let step = Python::attach(|py| {
                    if let Some(e) = event {
                        on_event(py, e)?;
                    }
                    py.check_signals()
                });
                if let Err(e) = step {
                    cancel.cancel();
                    error = Some(e);
                }
            }
            let output = match worker.join() {
                Ok(output) => output,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            Finished { output, error }
        })
    })
}

/// [`run_with_events`] for work without events: its output, or the exception
/// a signal handler raised while it ran (the partial output is dropped).
pub(crate) fn run<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&Cancel) -> T + Send,
{
    let done = run_with_events(py, |cancel, _: &dyn Fn(())| work(cancel), |_, ()| Ok(()));
    match done.error {
        Some(e) => Err(e),
        None => Ok(done.output),
    }
}
