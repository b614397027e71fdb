//! A stop request for long engine calls.
//!
//! The engine never sees a signal or an interpreter: whoever drives a long
//! call (the Python bindings on Ctrl-C, a server on a client's disconnect, a
//! test) sets the token from any thread, or gives it a *watch*: a check that
//! the calling thread runs every so often while it works, which stops the
//! call by returning `false`. Every long loop polls the token: the search
//! every 8 iterations in each of its threads (the calling thread runs one of
//! the trees, so it is the one that watches), the arena before every
//! decision of every game and while it waits for the next finished game
//! (an MCTS bot inside a match stops too), batches of random games before
//! every game. A poll is one relaxed atomic load, plus a clock read on the
//! watching thread, so the hot paths keep their speed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

/// The check of a watched token and when it is next due.
type Check = Box<dyn FnMut() -> bool + Send>;

struct Watch {
    /// The thread that made the token: the only one that runs the check.
    owner: ThreadId,
    every: Duration,
    /// When the check is next due, and the check.
    due: Mutex<(Instant, Check)>,
}

/// A cancellation token: `cancel()` once, and every call polling it stops.
///
/// Shared by reference (`&Cancel` is `Send + Sync`), so the scoped threads of
/// a search or a match all see one flag.
#[derive(Default)]
pub struct Cancel {
    flag: AtomicBool,
    watch: Option<Watch>,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel")
            .field("cancelled", &self.is_cancelled())
            .field("watched", &self.watch.is_some())
            .finish()
    }
}

impl Cancel {
    /// A token that is not cancelled and not watched.
    pub const fn new() -> Self {
        Self {
            flag: AtomicBool::new(false),
            watch: None,
        }
    }

    /// A token watched by `check`: while a long call runs, the thread that
    /// makes this token (and only that thread) calls `check` at most every
    /// `every` from [`poll`](Self::poll); `false` cancels the token. The
    /// Python bindings check for Ctrl-C this way, on the thread that may run
    /// Python's signal handlers.
    pub fn watched(every: Duration, check: impl FnMut() -> bool + Send + 'static) -> Self {
        Self {
            flag: AtomicBool::new(false),
            watch: Some(Watch {
                owner: thread::current().id(),
                every,
                due: Mutex::new((Instant::now() + every, Box::new(check))),
            }),
        }
    }

    /// Asks every call polling this token to stop. Idempotent.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// What long loops call every few steps: on the watching thread, runs
    /// the watch when it is due; then whether the call should stop.
    #[inline]
    pub fn poll(&self) -> bool {
        if let Some(w) = &self.watch {
            self.run_watch(w);
        }
        self.is_cancelled()
    }

    #[cold]
    fn run_watch(&self, w: &Watch) {
        if thread::current().id() != w.owner || self.is_cancelled() {
            return;
        }
        let Ok(mut due) = w.due.try_lock() else {
            return;
        };
        let now = Instant::now();
        if now < due.0 {
            return;
        }
        due.0 = now + w.every;
        if !(due.1)() {
            self.cancel();
        }
    }
}

/// A token that is never cancelled, for the calls that take none.
pub(crate) static NEVER: Cancel = Cancel::new();

#[cfg(test)]
mod tests {
    use super::Cancel;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_token_stays_cancelled() {
        let c = Cancel::new();
        assert!(!c.is_cancelled() && !c.poll());
        c.cancel();
        c.cancel();
        assert!(c.is_cancelled() && c.poll());
    }

    #[test]
    fn the_watch_runs_on_its_thread_when_due() {
        let calls = Arc::new(AtomicUsize::new(0));
        let seen = calls.clone();
        let c = Cancel::watched(Duration::from_millis(5), move || {
            seen.fetch_add(1, Ordering::Relaxed) < 2
        });
        assert!(!c.poll());
        assert_eq!(calls.load(Ordering::Relaxed), 0, "not due yet");
        // Other threads never run it.
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(10));
                assert!(!c.poll());
            });
        });
        assert_eq!(calls.load(Ordering::Relaxed), 0);
        let mut polls = 0;
        while !c.poll() {
            polls += 1;
            std::thread::sleep(Duration::from_millis(1));
            assert!(polls < 1000);
        }
        // The third check said stop; checks stop once cancelled.
        assert_eq!(calls.load(Ordering::Relaxed), 3);
        std::thread::sleep(Duration::from_millis(10));
        assert!(c.poll());
        assert_eq!(calls.load(Ordering::Relaxed), 3);
    }
}
