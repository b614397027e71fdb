//! A stop request for long engine calls.
//!
//! The engine never sees a signal or an interpreter: whoever drives a long
//! call (the Python bindings on Ctrl-C, a server on a client's disconnect, a
//! test) sets the token from any thread, and the call returns early at its
//! next check. Every long loop polls it: the search every few iterations in
//! each of its threads, the arena before every decision of every game (an
//! MCTS bot inside a match stops too), batches of random games before every
//! game. A poll is one relaxed atomic load, so the hot paths keep their speed.

use std::sync::atomic::{AtomicBool, Ordering};

/// A cancellation token: `cancel()` once, and every call polling it stops.
///
/// Shared by reference (`&Cancel` is `Send + Sync`), so the scoped threads of
/// a search or a match all see one flag.
#[derive(Debug, Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    /// A token that is not cancelled.
    pub const fn new() -> Self {
        Self(AtomicBool::new(false))
    }

    /// Asks every call polling this token to stop. Idempotent.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A token that is never cancelled, for the calls that take none.
pub(crate) static NEVER: Cancel = Cancel::new();

#[cfg(test)]
mod tests {
    use super::Cancel;

    #[test]
    fn a_token_stays_cancelled() {
        let c = Cancel::new();
        assert!(!c.is_cancelled());
        c.cancel();
        c.cancel();
        assert!(c.is_cancelled());
    }
}
