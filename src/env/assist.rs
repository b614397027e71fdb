//! Lets a thread that waits for a [`VectorEnv`](super::VectorEnv)'s step
//! help play it.
//!
//! The pipelined training loop (step one env in the background while the
//! caller chooses the actions of another, then swap) leaves the caller with
//! little to do once its choice is made: choosing 512 random actions is half
//! as long as stepping 512 games. Rather than wait idle in `step_wait`, the
//! caller joins the step in flight: the games of a step are played in small
//! chunks that every thread taking part claims one at a time, so the work
//! ends up split evenly between the step thread and the waiter, whatever
//! each was doing before.
//!
//! Each step (a *round*) gets the next round number. In
//! [`run_round`](Assist::run_round) the stepping thread opens the round to
//! helpers with their claim loop, runs its own, then closes the round: no
//! helper enters after that, and it returns once every helper inside has
//! left (they borrow the step's games and buffers). A step refused for a bad
//! action is a round too ([`skip_round`](Assist::skip_round)). A helper
//! ([`help`](Assist::help)) that comes for round `r` before it opens waits
//! for it; one that comes after it closed leaves at once.

use super::workers::wait_until;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// A round's claim loop: plays chunks of the step until none is left.
pub type ClaimLoop<'a> = &'a (dyn Fn() + Sync);

/// The rendezvous between a stepping thread and its helpers; shared (in an
/// `Arc`) by the env and whoever may wait for its steps.
#[derive(Default)]
pub struct Assist {
    /// The last round opened, and the last closed (`closed <= opened`).
    opened: AtomicU64,
    closed: AtomicU64,
    /// The open round's claim loop, a `*const ClaimLoop` on the stepping
    /// thread's stack, valid while the round is open and helpers are inside.
    job: AtomicPtr<()>,
    /// Helpers inside the open round.
    inside: AtomicUsize,
    /// A helper's chunk panicked during the open round.
    panicked: AtomicBool,
}

impl Assist {
    /// A rendezvous with no round yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The last round closed: with no step in flight, the next step's round
    /// is this plus one.
    pub fn last_closed(&self) -> u64 {
        self.closed.load(Ordering::SeqCst)
    }

    /// Opens the next round (the stepping thread, once the step's actions
    /// are known to be legal) to helpers, who will run `theirs`, runs `mine`
    /// here, then closes the round (waiting for the helpers inside). A panic
    /// of `mine` is resumed after the round is closed; one in a helper is
    /// raised here then, as "an env helper panicked".
    pub fn run_round(&self, mine: ClaimLoop<'_>, theirs: ClaimLoop<'_>) {
        let round = self.opened.load(Ordering::SeqCst) + 1;
        let job_ref: &ClaimLoop<'_> = &theirs;
        self.panicked.store(false, Ordering::Relaxed);
        self.job.store(
            job_ref as *const ClaimLoop<'_> as *mut (),
            Ordering::Release,
        );
        self.opened.store(round, Ordering::SeqCst);
        let mine = panic::catch_unwind(AssertUnwindSafe(mine));
        self.close(round);
        if let Err(payload) = mine {
            panic::resume_unwind(payload);
        }
        if self.panicked.swap(false, Ordering::AcqRel) {
            panic!("an env helper panicked");
        }
    }

    /// Marks a round that plays nothing (a step refused for a bad action):
    /// its helpers leave at once.
    pub fn skip_round(&self) {
        let round = self.opened.fetch_add(1, Ordering::SeqCst) + 1;
        self.closed.store(round, Ordering::SeqCst);
    }

    /// No helper enters `round` after this; returns once those inside left.
    fn close(&self, round: u64) {
        // SeqCst, paired with the helper's increment of `inside` then load of
        // `closed`: either this load sees the helper inside (and waits), or
        // the helper sees the round closed (and never reads `job`).
        self.closed.store(round, Ordering::SeqCst);
        wait_until(|| self.inside.load(Ordering::SeqCst) == 0);
        self.job.store(std::ptr::null_mut(), Ordering::Relaxed);
    }

    /// Helps play `round`: waits for it to open (for up to `patience`, and
    /// not once `gone()` says the step will not open it: it ended early),
    /// then runs its claim loop beside the stepping thread. Returns true if
    /// it played in that round, false if the round was over before it came
    /// or did not open.
    pub fn help(&self, round: u64, patience: Duration, gone: &dyn Fn() -> bool) -> bool {
        let start = Instant::now();
        loop {
            if self.closed.load(Ordering::SeqCst) >= round {
                return false;
            }
            if self.opened.load(Ordering::SeqCst) >= round {
                break;
            }
            if start.elapsed() >= patience || gone() {
                return false;
            }
            thread::yield_now();
        }
        self.inside.fetch_add(1, Ordering::SeqCst);
        // Opened but perhaps already closed (and another round opened since,
        // whose `job` must not be run for this one).
        if self.closed.load(Ordering::SeqCst) >= round
            || self.opened.load(Ordering::SeqCst) != round
        {
            self.inside.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        let job = self.job.load(Ordering::Acquire) as *const ClaimLoop<'static>;
        // SAFETY: the round is open and this helper is counted in `inside`,
        // so the stepping thread has not returned from `close`, which waits
        // for `inside` to drop to zero before the claim loop (on its stack)
        // and what it borrows go away.
        let result = panic::catch_unwind(AssertUnwindSafe(|| unsafe { (*job)() }));
        if result.is_err() {
            self.panicked.store(true, Ordering::Release);
        }
        self.inside.fetch_sub(1, Ordering::SeqCst);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A claim loop over `chunks` counters: each chunk is played once.
    fn play(next: &AtomicUsize, played: &[AtomicUsize]) {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = played.get(i) else { return };
            c.fetch_add(1, Ordering::Relaxed);
            thread::sleep(Duration::from_micros(20));
        }
    }

    #[test]
    fn helpers_share_a_round_and_every_chunk_is_played_once() {
        let assist = Arc::new(Assist::new());
        let helped = Arc::new(AtomicUsize::new(0));
        for _ in 0..200 {
            let round = assist.last_closed() + 1;
            let helper = {
                let assist = Arc::clone(&assist);
                let helped = Arc::clone(&helped);
                thread::spawn(move || {
                    if assist.help(round, Duration::from_secs(5), &|| false) {
                        helped.fetch_add(1, Ordering::Relaxed);
                    }
                })
            };
            let next = AtomicUsize::new(0);
            let played: Vec<AtomicUsize> = (0..32).map(|_| AtomicUsize::new(0)).collect();
            assist.run_round(&|| play(&next, &played), &|| play(&next, &played));
            helper.join().unwrap();
            assert!(played.iter().all(|c| c.load(Ordering::Relaxed) == 1));
            assert_eq!(assist.last_closed(), round);
        }
        // The helper usually arrives in time to play some chunks.
        assert!(helped.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn a_helper_after_the_round_or_for_a_skipped_one_leaves_at_once() {
        let assist = Assist::new();
        assist.run_round(&|| {}, &|| {});
        assert!(!assist.help(1, Duration::from_secs(5), &|| false));
        assist.skip_round();
        let start = Instant::now();
        assert!(!assist.help(2, Duration::from_secs(5), &|| false));
        assert!(start.elapsed() < Duration::from_secs(1));
        // A round that never opens: the helper gives up after its patience,
        // or at once when told the step is gone.
        let start = Instant::now();
        assert!(!assist.help(3, Duration::from_millis(20), &|| false));
        assert!(start.elapsed() >= Duration::from_millis(20));
        let start = Instant::now();
        assert!(!assist.help(3, Duration::from_secs(5), &|| true));
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn a_helper_panic_is_raised_by_the_stepping_thread() {
        let assist = Arc::new(Assist::new());
        let helper = {
            let assist = Arc::clone(&assist);
            thread::spawn(move || assist.help(1, Duration::from_secs(5), &|| false))
        };
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            assist.run_round(
                &|| {
                    // The stepping thread waits here for the helper to come in.
                    let start = Instant::now();
                    while assist.inside.load(Ordering::SeqCst) == 0
                        && start.elapsed() < Duration::from_secs(5)
                    {
                        thread::yield_now();
                    }
                },
                &|| panic!("the helper's chunk"), // the test harness prints it
            )
        }));
        assert!(helper.join().unwrap());
        assert!(caught.is_err());
        // The next round runs normally.
        assist.run_round(&|| {}, &|| {});
        assert_eq!(assist.last_closed(), 2);
    }
}
