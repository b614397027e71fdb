//! A thread that runs one job at a time in the background: what lets a
//! [`VectorEnv`](super::VectorEnv) step while its caller does something else
//! (chooses the next actions of another batch, runs a network).
//!
//! The caller [`post`](Driver::post)s a job and returns at once, then
//! [`wait`](Driver::wait)s for its output. Both hand-offs are polled, as the
//! env's [`Workers`](super::workers) are: a step is tens of microseconds, and
//! waking a parked thread costs about as much on a virtual machine. The
//! driver thread polls for the next job for [`WARM`] after each one, then
//! parks; a waiter polls for [`WARM`], then parks until the job is done or its
//! timeout (so that a long step, one with MCTS opponents, does not keep a
//! core spinning). Both poll with `yield_now`, giving the core to whoever
//! needs it on a busy machine.

use super::workers::WARM;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// A job: runs once on the driver thread.
pub type Job<T> = Box<dyn FnOnce() -> T + Send + 'static>;

/// No job posted, or its output taken.
const IDLE: u8 = 0;
/// A job posted and not finished.
const POSTED: u8 = 1;
/// The job finished; its output waits in `output`.
const DONE: u8 = 2;

struct Shared<T> {
    /// `IDLE` → `POSTED` (by `post`) → `DONE` (by the thread) → `IDLE` (by `wait`).
    state: AtomicU8,
    job: Mutex<Option<Job<T>>>,
    /// The finished job's output (`Err`: it panicked), until a `wait` takes it.
    output: Mutex<Option<thread::Result<T>>>,
    /// Threads parked on `wake` (the driver, a waiter): whoever changes
    /// `state` or `stop` notifies only when some are.
    sleepers: AtomicUsize,
    stop: std::sync::atomic::AtomicBool,
    lock: Mutex<()>,
    wake: Condvar,
}

/// What [`Driver::wait`] found.
pub enum Waited<T> {
    /// The job finished: its output, or its panic's payload.
    Done(thread::Result<T>),
    /// Still running after the timeout.
    Running,
    /// No job was posted (or its output was already taken).
    Idle,
    /// The job was posted in another process: this one is a child made by
    /// `fork` while the job ran, and the thread running it stayed in the parent.
    Lost,
}

/// One background thread (started by [`Driver::new`]) and its job slot.
pub struct Driver<T: Send + 'static> {
    shared: Arc<Shared<T>>,
    thread: Option<JoinHandle<()>>,
    /// The process that started the thread: a child made by `fork` has no
    /// such thread, and runs the jobs it posts itself, at once.
    owner: u32,
}

impl<T: Send + 'static> Driver<T> {
    /// Starts the thread, named `name`.
    pub fn new(name: &str) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            state: AtomicU8::new(IDLE),
            job: Mutex::new(None),
            output: Mutex::new(None),
            sleepers: AtomicUsize::new(0),
            stop: std::sync::atomic::AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || drive(&theirs))?;
        Ok(Self {
            shared,
            thread: Some(thread),
            owner: std::process::id(),
        })
    }

    /// True in the process that started the thread (false in a child made
    /// by `fork`, where [`post`](Self::post) runs jobs on the caller).
    pub fn is_ours(&self) -> bool {
        std::process::id() == self.owner
    }

    /// True from [`post`](Self::post) until [`wait`](Self::wait) has
    /// returned the job's output.
    pub fn is_busy(&self) -> bool {
        self.shared.state.load(Ordering::Acquire) != IDLE
    }

    /// True once the posted job has finished (its output not yet taken).
    pub fn is_done(&self) -> bool {
        self.shared.state.load(Ordering::Acquire) == DONE
    }

    /// Hands `job` to the thread and returns at once (in a forked child, runs
    /// it here first). Gives the job back if the last one's output was not
    /// taken yet.
    pub fn post(&self, job: Job<T>) -> Result<(), Job<T>> {
        let shared = &*self.shared;
        if shared.state.load(Ordering::Acquire) != IDLE {
            return Err(job);
        }
        if std::process::id() != self.owner {
            let output = panic::catch_unwind(AssertUnwindSafe(job));
            *lock(&shared.output) = Some(output);
            shared.state.store(DONE, Ordering::Release);
            return Ok(());
        }
        *lock(&shared.job) = Some(job);
        shared.state.store(POSTED, Ordering::SeqCst);
        notify(shared);
        Ok(())
    }

    /// Waits up to `timeout` for the posted job; takes its output when done.
    pub fn wait(&self, timeout: Duration) -> Waited<T> {
        let shared = &*self.shared;
        let finished = || match shared.state.load(Ordering::Acquire) {
            POSTED => None,
            state => Some(state),
        };
        let start = Instant::now();
        let mut seen = finished();
        while seen.is_none() && start.elapsed() < WARM.min(timeout) {
            thread::yield_now();
            seen = finished();
        }
        if seen.is_none() {
            if std::process::id() != self.owner {
                return Waited::Lost;
            }
            let deadline = start + timeout;
            let mut guard = lock(&shared.lock);
            // Counted before the last look, under the lock the driver takes
            // to notify: either it sees a sleeper, or this look sees `DONE`.
            shared.sleepers.fetch_add(1, Ordering::SeqCst);
            loop {
                seen = finished();
                let now = Instant::now();
                if seen.is_some() || now >= deadline {
                    break;
                }
                guard = shared
                    .wake
                    .wait_timeout(guard, deadline - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            shared.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
        match seen {
            None => Waited::Running,
            Some(IDLE) => Waited::Idle,
            Some(_) => {
                let output = lock(&shared.output).take();
                shared.state.store(IDLE, Ordering::Release);
                match output {
                    Some(output) => Waited::Done(output),
                    // `DONE` is stored after the output: unreachable.
                    None => Waited::Idle,
                }
            }
        }
    }
}

impl<T: Send + 'static> Drop for Driver<T> {
    /// Lets the thread finish the posted job, if any, and stops it.
    fn drop(&mut self) {
        let Some(thread) = self.thread.take() else {
            return;
        };
        if std::process::id() != self.owner {
            // A forked child: the handle names a thread of the parent.
            std::mem::forget(thread);
            return;
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        notify(&self.shared);
        // The thread catches its jobs' panics, so it cannot have died of one.
        let _ = thread.join();
    }
}

fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Wakes the parked parties, if any (after a change of `state` or `stop`).
fn notify<T>(shared: &Shared<T>) {
    if shared.sleepers.load(Ordering::SeqCst) > 0 {
        let _guard = lock(&shared.lock);
        shared.wake.notify_all();
    }
}

/// The driver thread: run each posted job, until stopped.
fn drive<T>(shared: &Shared<T>) {
    loop {
        // A job posted before the stop is run first: its poster may be
        // dropping the driver and relies on the job having run or never to run;
        // running it keeps the order of events simple.
        let posted = || shared.state.load(Ordering::Acquire) == POSTED;
        let stopped = || shared.stop.load(Ordering::Acquire);
        let start = Instant::now();
        while !posted() && !stopped() && start.elapsed() < WARM {
            thread::yield_now();
        }
        if !posted() && !stopped() {
            let mut guard = lock(&shared.lock);
            shared.sleepers.fetch_add(1, Ordering::SeqCst);
            while !posted() && !stopped() {
                guard = shared
                    .wake
                    .wait(guard)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            shared.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
        if posted() {
            if let Some(job) = lock(&shared.job).take() {
                let output = panic::catch_unwind(AssertUnwindSafe(job));
                *lock(&shared.output) = Some(output);
            }
            shared.state.store(DONE, Ordering::SeqCst);
            notify(shared);
        } else if stopped() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn done<T>(w: Waited<T>) -> T {
        match w {
            Waited::Done(Ok(v)) => v,
            _ => panic!("expected a finished job"),
        }
    }

    #[test]
    fn jobs_run_in_order_and_return_their_output() {
        let driver = Driver::<u64>::new("test-driver").unwrap();
        assert!(matches!(driver.wait(Duration::ZERO), Waited::Idle));
        for i in 0..2_000u64 {
            if i % 500 == 0 {
                // Let the thread park, then wake it.
                thread::sleep(WARM * 3);
            }
            assert!(driver.post(Box::new(move || i * 2)).is_ok());
            assert!(driver.is_busy());
            // A second job before the first's output is taken is refused.
            assert!(driver.post(Box::new(|| 0)).is_err());
            assert_eq!(done(driver.wait(Duration::from_secs(10))), i * 2);
            assert!(!driver.is_busy());
        }
    }

    #[test]
    fn a_waiter_times_out_then_gets_the_output() {
        let driver = Driver::<&str>::new("test-driver").unwrap();
        let release = Arc::new(AtomicBool::new(false));
        let r = Arc::clone(&release);
        driver
            .post(Box::new(move || {
                while !r.load(Ordering::Acquire) {
                    thread::sleep(Duration::from_millis(1));
                }
                "late"
            }))
            .map_err(|_| "refused")
            .unwrap();
        let start = Instant::now();
        assert!(matches!(
            driver.wait(Duration::from_millis(30)),
            Waited::Running
        ));
        assert!(start.elapsed() >= Duration::from_millis(30));
        release.store(true, Ordering::Release);
        assert_eq!(done(driver.wait(Duration::from_secs(10))), "late");
    }

    #[test]
    fn a_panicking_job_is_reported_and_the_thread_goes_on() {
        let driver = Driver::<u8>::new("test-driver").unwrap();
        driver
            .post(Box::new(|| panic!("job"))) // the test harness prints it
            .map_err(|_| "refused")
            .unwrap();
        assert!(matches!(
            driver.wait(Duration::from_secs(10)),
            Waited::Done(Err(_))
        ));
        driver.post(Box::new(|| 7)).map_err(|_| "refused").unwrap();
        assert_eq!(done(driver.wait(Duration::from_secs(10))), 7);
    }

    #[test]
    fn dropping_the_driver_lets_the_posted_job_finish() {
        let ran = Arc::new(AtomicBool::new(false));
        let r = Arc::clone(&ran);
        let driver = Driver::<()>::new("test-driver").unwrap();
        driver
            .post(Box::new(move || {
                thread::sleep(Duration::from_millis(20));
                r.store(true, Ordering::Release);
            }))
            .map_err(|_| "refused")
            .unwrap();
        drop(driver);
        assert!(ran.load(Ordering::Acquire));
    }
}
