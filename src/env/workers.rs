//! The threads that step a [`VectorEnv`](super::VectorEnv)'s shards beside
//! the calling thread.
//!
//! A step hands one shard to each worker and steps one itself, then waits for
//! the workers; a shard of 1,024 base envs split in two is about 70 µs of
//! work. A thread pool that parks idle threads (rayon's, which this replaced)
//! pays a wake-up on both sides of every step: the worker waking for its
//! shard and the caller waking when the last shard is done, each tens of
//! microseconds on a virtual machine, so 2 threads were no faster than one.
//! Here a worker keeps polling for up to [`WARM`] after a step (a training
//! loop steps again within that time: the random choice or the network
//! between steps), then parks; the caller polls while the workers finish,
//! their shards being as long as its own. Both poll with `yield_now`, so
//! that on a busy machine the core goes to whoever needs it; the caller (and
//! a thread at the barrier below) first spins for a few microseconds
//! ([`SPIN`]): the others are usually that close.
//!
//! [`run_phases`](Workers::run_phases) runs two phases in one hand-off, a
//! barrier between them: a step checks every shard's actions, then plays
//! them only if all are legal, for the price of one dispatch.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a worker polls for the next step before it parks.
pub const WARM: Duration = Duration::from_micros(300);

/// How long a thread waiting for the others of its step (at the barrier of
/// [`Workers::run_phases`], for the workers' shards, or for the helpers of
/// an [`Assist`](super::assist::Assist) round to leave) spins before it
/// polls by yielding its core: about one hand-off's time, so that the usual
/// wait costs no system call, and a long one (a thread descheduled on a busy
/// machine) wastes little.
pub const SPIN: Duration = Duration::from_micros(5);

/// A step's work: called with the shard index (0 on the caller).
type Job<'a> = &'a (dyn Fn(usize) + Sync);

struct Shared {
    /// Counts the steps; a worker runs the job once per new value.
    epoch: AtomicU64,
    /// The current step's job, a `*const Job` on the caller's stack, valid
    /// from the epoch's increment until `pending` is back to zero.
    job: AtomicPtr<()>,
    /// Workers that have not finished the current step's job.
    pending: AtomicUsize,
    /// A worker's job panicked during the current step.
    panicked: AtomicBool,
    /// Threads past the first phase of [`Workers::run_phases`]'s step.
    arrived: AtomicUsize,
    /// The first phase of the current step panicked somewhere: no one runs
    /// the second.
    first_failed: AtomicBool,
    /// Workers parked on `wake` (the caller notifies only when some are).
    sleepers: AtomicUsize,
    stop: AtomicBool,
    lock: Mutex<()>,
    wake: Condvar,
}

/// `count` worker threads (none for a single-threaded env).
pub struct Workers {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// The process that started the threads: a child made by `fork` (Python's
    /// multiprocessing) has none of them, and steps every shard itself.
    owner: u32,
}

impl Workers {
    /// Starts `count` workers, named `splendor-env-1`, `-2`, ...
    pub fn new(count: usize) -> std::io::Result<Workers> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            pending: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            arrived: AtomicUsize::new(0),
            first_failed: AtomicBool::new(false),
            sleepers: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        let mut workers = Workers {
            shared,
            threads: Vec::with_capacity(count),
            owner: std::process::id(),
        };
        for index in 1..=count {
            let shared = Arc::clone(&workers.shared);
            // On failure, `workers` is dropped: the threads started so far stop.
            let handle = thread::Builder::new()
                .name(format!("splendor-env-{index}"))
                .spawn(move || work(&shared, index))?;
            workers.threads.push(handle);
        }
        Ok(workers)
    }

    /// Number of workers.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// True without workers.
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Calls `job(0)` on this thread and `job(i)` on worker `i` (1 to
    /// `len()`), and returns when every call has (in a forked child, all on
    /// this thread). A panic in any call is resumed here, after all of them
    /// have returned.
    pub fn run(&mut self, job: Job<'_>) {
        let shared = &*self.shared;
        let count = self.threads.len();
        if count == 0 {
            job(0);
            return;
        }
        if std::process::id() != self.owner {
            // A forked child: the workers stayed in the parent.
            for index in 0..=count {
                job(index);
            }
            return;
        }
        // `&mut self`: one step at a time, so the previous step's job is no
        // longer read by anyone.
        let job_ref: &Job<'_> = &job;
        shared
            .job
            .store(job_ref as *const Job<'_> as *mut (), Ordering::Release);
        shared.pending.store(count, Ordering::Release);
        shared.epoch.fetch_add(1, Ordering::SeqCst);
        if shared.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = shared.lock.lock().unwrap_or_else(PoisonError::into_inner);
            shared.wake.notify_all();
        }
        let mine = panic::catch_unwind(AssertUnwindSafe(|| job(0)));
        // The workers borrow what `job` borrows: wait for them even if our
        // own part panicked.
        wait_until(|| shared.pending.load(Ordering::Acquire) == 0);
        shared.job.store(std::ptr::null_mut(), Ordering::Relaxed);
        if let Err(payload) = mine {
            panic::resume_unwind(payload);
        }
        if shared.panicked.swap(false, Ordering::AcqRel) {
            panic!("an env worker thread panicked");
        }
    }
}

impl Workers {
    /// Calls `first(i)` for every `i` (0 on this thread, as in
    /// [`run`](Self::run)), then, once every call of `first` has returned,
    /// `second(i)`: one hand-off to the workers, with a barrier between the
    /// phases (in a forked child, every `first` then every `second`, on this
    /// thread). If any `first` panics, no `second` runs, and the panic is
    /// resumed here.
    pub fn run_phases(&mut self, first: Job<'_>, second: Job<'_>) {
        let count = self.threads.len();
        if count == 0 || std::process::id() != self.owner {
            for index in 0..=count {
                first(index);
            }
            for index in 0..=count {
                second(index);
            }
            return;
        }
        let shared = Arc::clone(&self.shared);
        let shared = &*shared;
        // Published to the workers by `run`'s epoch increment.
        shared.arrived.store(0, Ordering::Relaxed);
        shared.first_failed.store(false, Ordering::Relaxed);
        let both = |index: usize| {
            let checked = panic::catch_unwind(AssertUnwindSafe(|| first(index)));
            if checked.is_err() {
                shared.first_failed.store(true, Ordering::Release);
            }
            // Every thread of the step arrives here even if its `first`
            // panicked, so the barrier always opens.
            shared.arrived.fetch_add(1, Ordering::AcqRel);
            wait_until(|| shared.arrived.load(Ordering::Acquire) > count);
            if let Err(payload) = checked {
                panic::resume_unwind(payload);
            }
            if !shared.first_failed.load(Ordering::Acquire) {
                second(index);
            }
        };
        self.run(&both);
    }
}

/// Returns once `done()` is true: spinning for up to [`SPIN`], then yielding
/// the core between looks (a thread waited for may need it).
pub(super) fn wait_until(done: impl Fn() -> bool) {
    let start = Instant::now();
    while start.elapsed() < SPIN {
        for _ in 0..32 {
            if done() {
                return;
            }
            std::hint::spin_loop();
        }
    }
    while !done() {
        thread::yield_now();
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if std::process::id() != self.owner {
            // A forked child has no such threads to stop or join (their
            // handles would name threads of the parent).
            for handle in self.threads.drain(..) {
                std::mem::forget(handle);
            }
            return;
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        {
            let _guard = self
                .shared
                .lock
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.shared.wake.notify_all();
        }
        for handle in self.threads.drain(..) {
            // A worker catches its job's panics, so it cannot have died of one.
            let _ = handle.join();
        }
    }
}

/// Worker `index`'s loop: wait for a new epoch, run the job, report.
fn work(shared: &Shared, index: usize) {
    // The epoch the workers were made at (not a fresh load: the first step
    // may have begun before this thread runs).
    let mut seen = 0;
    loop {
        if !wait_for_step(shared, &mut seen) {
            return;
        }
        let job = shared.job.load(Ordering::Acquire) as *const Job<'static>;
        // SAFETY: the caller stored a pointer to a `Job` on its stack before
        // moving the epoch, and does not return (nor touch `job`) until
        // `pending` is zero, which this worker's decrement below is part of:
        // the pointer and what it borrows are alive for this call.
        let result = panic::catch_unwind(AssertUnwindSafe(|| unsafe { (*job)(index) }));
        if result.is_err() {
            shared.panicked.store(true, Ordering::Release);
        }
        shared.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits until the epoch moves past `seen` (then updates it and returns
/// true) or the workers are stopped (false): polling for [`WARM`], then
/// parked; after a wake-up it polls again (the next steps come at the same
/// pace).
fn wait_for_step(shared: &Shared, seen: &mut u64) -> bool {
    loop {
        let start = Instant::now();
        while start.elapsed() < WARM {
            if shared.stop.load(Ordering::Acquire) {
                return false;
            }
            let epoch = shared.epoch.load(Ordering::Acquire);
            if epoch != *seen {
                *seen = epoch;
                return true;
            }
            // Yielding, not spinning: the next step is usually tens of
            // microseconds away (the caller choosing actions), and other
            // threads (the caller's, on a busy machine) may need the core.
            thread::yield_now();
        }
        let mut guard = shared.lock.lock().unwrap_or_else(PoisonError::into_inner);
        // Counted before the last look at the epoch, under the lock the
        // caller takes to notify: either the caller sees a sleeper and
        // notifies, or this look sees its new epoch (both are SeqCst).
        shared.sleepers.fetch_add(1, Ordering::SeqCst);
        while shared.epoch.load(Ordering::SeqCst) == *seen && !shared.stop.load(Ordering::SeqCst) {
            guard = shared
                .wake
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        shared.sleepers.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once_per_step() {
        let mut workers = Workers::new(3).unwrap();
        let counts: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
        for step in 0..2_000 {
            if step % 500 == 0 {
                // Let the workers park, then wake them.
                thread::sleep(WARM * 3);
            }
            workers.run(&|i| {
                counts[i].fetch_add(1, Ordering::Relaxed);
            });
        }
        for c in &counts {
            assert_eq!(c.load(Ordering::Relaxed), 2_000);
        }
    }

    #[test]
    fn a_panicking_worker_is_reported_after_every_part_returned() {
        let mut workers = Workers::new(2).unwrap();
        let done = AtomicUsize::new(0);
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            workers.run(&|i| {
                if i == 2 {
                    panic!("shard 2");
                }
                thread::sleep(Duration::from_millis(5));
                done.fetch_add(1, Ordering::Relaxed);
            })
        }));
        assert!(caught.is_err());
        assert_eq!(done.load(Ordering::Relaxed), 2);
        // The workers are still there for the next step.
        workers.run(&|_| {
            done.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(done.load(Ordering::Relaxed), 5);
    }

    #[test]
    fn every_first_phase_ends_before_any_second_begins() {
        for threads in [0, 1, 3] {
            let mut workers = Workers::new(threads).unwrap();
            let firsts = AtomicUsize::new(0);
            let seconds = AtomicUsize::new(0);
            for step in 0..500 {
                if step % 100 == 0 {
                    // Let the workers park, then wake them.
                    thread::sleep(WARM * 3);
                }
                workers.run_phases(
                    &|i| {
                        if i == 1 {
                            // A late first phase: the others must wait for it.
                            thread::sleep(Duration::from_micros(50));
                        }
                        firsts.fetch_add(1, Ordering::SeqCst);
                    },
                    &|_| {
                        assert_eq!(firsts.load(Ordering::SeqCst), (step + 1) * (threads + 1));
                        seconds.fetch_add(1, Ordering::SeqCst);
                    },
                );
                assert_eq!(seconds.load(Ordering::SeqCst), (step + 1) * (threads + 1));
            }
        }
    }

    #[test]
    fn a_panicking_first_phase_stops_every_second_phase() {
        let mut workers = Workers::new(2).unwrap();
        let seconds = AtomicUsize::new(0);
        for bad in 0..3 {
            let caught = panic::catch_unwind(AssertUnwindSafe(|| {
                workers.run_phases(
                    &|i| {
                        if i == bad {
                            panic!("shard {i}");
                        }
                    },
                    &|_| {
                        seconds.fetch_add(1, Ordering::SeqCst);
                    },
                )
            }));
            assert!(caught.is_err());
            assert_eq!(seconds.load(Ordering::SeqCst), 0);
        }
        // The next step runs both phases everywhere.
        workers.run_phases(&|_| {}, &|_| {
            seconds.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(seconds.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn no_workers_runs_on_the_caller() {
        let mut workers = Workers::new(0).unwrap();
        let ran = AtomicUsize::new(0);
        workers.run(&|i| {
            assert_eq!(i, 0);
            ran.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(ran.load(Ordering::Relaxed), 1);
    }
}
