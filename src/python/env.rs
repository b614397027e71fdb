//! Python bindings of the batched environment (`splendor.VectorEnv`) and of
//! the observation spec. The env owns its NumPy arrays; `reset` and `step`
//! write into them with the GIL released and return the same objects, so a
//! step allocates nothing. `step_async` hands the step to a background
//! thread (a [`Driver`]) and returns at once; `step_wait` collects it.

use super::action::ok;
use super::args::{self, Arg, Param};
use super::errors;
use super::interrupt::POLL;
use super::state::{self, Seed};
use crate::cancel::Cancel;
use crate::env::{Assist, Buffers, Driver, EnvConfig, Observed, VectorEnv, Waited};
use crate::game::{GameError, MAX_PLAYERS};
use crate::search::BotSpec;
use crate::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};
use numpy::ndarray::{Array1, Array2};
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The variant-independent face of a `VectorEnv<G>`.
trait DynEnv: Send {
    fn reset(&mut self, seed: Option<u64>, buf: Buffers<'_>) -> Result<(), GameError>;
    fn step(&mut self, actions: &[i64], buf: Buffers<'_>) -> Result<(), GameError>;
    fn check_actions(&self, actions: &[i64]) -> Result<(), GameError>;
    fn bot_stop(&self) -> Arc<Cancel>;
    fn assist(&self) -> Arc<Assist>;
    fn state_json(&self, i: usize) -> Option<String>;
    fn num_actions(&self) -> usize;
    fn observation_size(&self) -> usize;
}

impl<G: Observed> DynEnv for VectorEnv<G> {
    fn reset(&mut self, seed: Option<u64>, buf: Buffers<'_>) -> Result<(), GameError> {
        VectorEnv::reset(self, seed, buf)
    }
    fn step(&mut self, actions: &[i64], buf: Buffers<'_>) -> Result<(), GameError> {
        VectorEnv::step(self, actions, buf)
    }
    fn check_actions(&self, actions: &[i64]) -> Result<(), GameError> {
        VectorEnv::check_actions(self, actions)
    }
    fn bot_stop(&self) -> Arc<Cancel> {
        VectorEnv::bot_stop(self)
    }
    fn assist(&self) -> Arc<Assist> {
        VectorEnv::assist(self)
    }
    fn state_json(&self, i: usize) -> Option<String> {
        self.game(i).map(|g| g.to_json(None))
    }
    fn num_actions(&self) -> usize {
        G::NUM_ACTIONS
    }
    fn observation_size(&self) -> usize {
        G::OBSERVATION_SIZE
    }
}

/// The variants with an observation spec. (`Observed` is not part of the
/// `Game` contract that `mod.rs`'s dispatch is written against, hence this
/// short list of its own.)
fn build(variant: &str, config: EnvConfig) -> PyResult<Box<dyn DynEnv>> {
    Ok(match variant {
        "base" => Box::new(ok(VectorEnv::<BaseState>::new(config))?),
        "duel" => Box::new(ok(VectorEnv::<DuelState>::new(config))?),
        "marvel" => Box::new(ok(VectorEnv::<MarvelState>::new(config))?),
        _ => return Err(super::unknown_variant(variant)),
    })
}

/// One of the env's arrays as a pointer and a length: what a step on the
/// driver thread writes through, the GIL and NumPy's borrow flags being out
/// of its reach.
struct RawSlice<T>(*mut T, usize);

// SAFETY: the memory is that of a NumPy array the `PyVectorEnv` holds; see
// `PyVectorEnv::step_async` for why it outlives the step and why nothing
// else writes it meanwhile.
unsafe impl<T: Send> Send for RawSlice<T> {}

impl<T> RawSlice<T> {
    fn of(slice: &mut [T]) -> Self {
        Self(slice.as_mut_ptr(), slice.len())
    }

    /// SAFETY: the memory must be alive and not otherwise borrowed for `'a`.
    unsafe fn slice<'a>(&self) -> &'a mut [T] {
        unsafe { std::slice::from_raw_parts_mut(self.0, self.1) }
    }
}

/// [`Buffers`] as raw slices, for a step on the driver thread.
struct RawBuffers {
    obs: RawSlice<f32>,
    mask: RawSlice<bool>,
    packed_mask: RawSlice<u64>,
    player: RawSlice<i32>,
    rewards: RawSlice<f32>,
    terminated: RawSlice<bool>,
    truncated: RawSlice<bool>,
    final_obs: RawSlice<f32>,
    episode_length: RawSlice<i64>,
}

impl RawBuffers {
    fn of(buf: Buffers<'_>) -> Self {
        RawBuffers {
            obs: RawSlice::of(buf.obs),
            mask: RawSlice::of(buf.mask),
            packed_mask: RawSlice::of(buf.packed_mask),
            player: RawSlice::of(buf.player),
            rewards: RawSlice::of(buf.rewards),
            terminated: RawSlice::of(buf.terminated),
            truncated: RawSlice::of(buf.truncated),
            final_obs: RawSlice::of(buf.final_obs),
            episode_length: RawSlice::of(buf.episode_length),
        }
    }

    /// SAFETY: as [`RawSlice::slice`], for every array.
    unsafe fn buffers<'a>(&self) -> Buffers<'a> {
        unsafe {
            Buffers {
                obs: self.obs.slice(),
                mask: self.mask.slice(),
                packed_mask: self.packed_mask.slice(),
                player: self.player.slice(),
                rewards: self.rewards.slice(),
                terminated: self.terminated.slice(),
                truncated: self.truncated.slice(),
                final_obs: self.final_obs.slice(),
                episode_length: self.episode_length.slice(),
            }
        }
    }
}

/// The env's arrays borrowed read-write for one call (so that an argument of
/// that call which is one of them, or a view of one, is refused).
struct Borrowed<'py> {
    obs: PyReadwriteArray2<'py, f32>,
    mask: PyReadwriteArray2<'py, bool>,
    packed_mask: PyReadwriteArray2<'py, u64>,
    player: PyReadwriteArray1<'py, i32>,
    rewards: PyReadwriteArray2<'py, f32>,
    terminated: PyReadwriteArray1<'py, bool>,
    truncated: PyReadwriteArray1<'py, bool>,
    final_obs: PyReadwriteArray2<'py, f32>,
    episode_length: PyReadwriteArray1<'py, i64>,
}

impl Borrowed<'_> {
    /// The arrays as slices (the env made them contiguous and never hands out
    /// a way to reshape them in place).
    fn buffers(&mut self) -> PyResult<Buffers<'_>> {
        Ok(Buffers {
            obs: self.obs.as_slice_mut()?,
            mask: self.mask.as_slice_mut()?,
            packed_mask: self.packed_mask.as_slice_mut()?,
            player: self.player.as_slice_mut()?,
            rewards: self.rewards.as_slice_mut()?,
            terminated: self.terminated.as_slice_mut()?,
            truncated: self.truncated.as_slice_mut()?,
            final_obs: self.final_obs.as_slice_mut()?,
            episode_length: self.episode_length.as_slice_mut()?,
        })
    }
}

/// What a step on the driver thread returns.
type StepOutput = Result<(), GameError>;

/// Step threads not in use, shared by every env of the process: `step_async`
/// takes one (or starts one) and `step_wait` gives it back. In the pipelined
/// loop (step one env while choosing the other's actions, then swap) the two
/// envs thus use one thread in turn, rather than one each, the idle one
/// polling for its next step on a core the busy ones need.
static IDLE_DRIVERS: Mutex<Vec<Driver<StepOutput>>> = Mutex::new(Vec::new());

/// More idle step threads than this are stopped.
const MAX_IDLE_DRIVERS: usize = 16;

fn take_driver() -> PyResult<Driver<StepOutput>> {
    let mut idle = IDLE_DRIVERS.lock().unwrap_or_else(|p| p.into_inner());
    // The most recently used first: it is the one still polling.
    while let Some(driver) = idle.pop() {
        // A forked child's copies of the parent's threads are gone.
        if driver.is_ours() {
            return Ok(driver);
        }
    }
    drop(idle);
    Driver::new("splendor-env-async")
        .map_err(|e| errors::config(format!("cannot start the env's step thread: {e}")))
}

fn give_back(driver: Driver<StepOutput>) {
    let mut idle = IDLE_DRIVERS.lock().unwrap_or_else(|p| p.into_inner());
    if idle.len() < MAX_IDLE_DRIVERS {
        idle.push(driver);
    }
}

/// A zero-filled `[rows, cols]` array over memory NumPy does not own (its
/// base holds it), so that `ndarray.resize` cannot move it while a step
/// writes into it.
fn matrix<T: Element + Default>(py: Python<'_>, rows: usize, cols: usize) -> Py<PyArray2<T>> {
    PyArray2::from_owned_array(py, Array2::default((rows, cols))).unbind()
}

/// A zero-filled `[len]` array, as [`matrix`].
fn vector<T: Element + Default>(py: Python<'_>, len: usize) -> Py<PyArray1<T>> {
    PyArray1::from_owned_array(py, Array1::default(len)).unbind()
}

/// The most envs one `VectorEnv` holds.
const MAX_ENVS: usize = 1 << 24;

type SpecRow = (String, usize, f32, bool);

fn spec_rows<G: Observed>(players: usize) -> PyResult<Vec<SpecRow>> {
    let spec = ok(G::observation_spec(players))?;
    Ok(spec
        .features
        .into_iter()
        .map(|f| (f.name, f.offset, f.scale, f.bounded))
        .collect())
}

/// `(name, offset, scale, bounded)` of every observation feature of
/// `variant` with `players` seats; `splendor.observation_spec` wraps it.
#[pyfunction]
#[pyo3(signature = (variant, players=Arg(None)), text_signature = "(variant, players=2)")]
fn _observation_spec(variant: &Bound<'_, PyAny>, players: Arg<'_>) -> PyResult<Vec<SpecRow>> {
    let variant = args::variant(variant)?;
    let players = players
        .opt_int("players", 2, MAX_PLAYERS as i128)?
        .unwrap_or(2) as usize;
    match variant {
        "base" => spec_rows::<BaseState>(players),
        "duel" => spec_rows::<DuelState>(players),
        "marvel" => spec_rows::<MarvelState>(players),
        _ => Err(super::unknown_variant(variant)),
    }
}

/// `num_envs` games of one variant stepped together in Rust, GIL released.
///
/// `step` and `reset` write into arrays the env owns and return those same
/// objects (no per-step copy): read or copy them before the next call. A game
/// that ends is replaced by the env's next game (its own seeded stream) within
/// the same step; that step's `rewards`, `terminated`, `truncated`,
/// `final_observation` and `episode_length` describe the game that ended.
/// `opponents` gives one entry per seat: None for a seat the caller plays, or
/// a bot (`random`, `greedy`, `mcts:N`) that plays it inside the env. The
/// arrays depend only on the seed and the actions, whatever `threads`.
/// `step_async(actions)` starts a step on a thread of the env's own and
/// returns at once; `step_wait()` collects it (helping to finish it), so the
/// caller can work meanwhile (on another env's actions, say).
///
/// Raises:
///     ConfigError: A bad variant, count, player count, bot, thread count
///         or flag.
#[pyclass(module = "splendor._core", name = "VectorEnv")]
pub(crate) struct PyVectorEnv {
    /// Shared with the driver thread's job while a step is in flight.
    env: Arc<Mutex<Box<dyn DynEnv>>>,
    /// The thread running the step in flight (from `IDLE_DRIVERS`).
    driver: Mutex<Option<Driver<StepOutput>>>,
    /// From `step_async` until `step_wait` has collected the step: every
    /// other call on the env raises meanwhile.
    in_flight: AtomicBool,
    /// The env's `bot_stop`, kept here because the env is locked while a
    /// step is in flight.
    bot_stop: Arc<Cancel>,
    /// The env's `assist`, through which `step_wait` helps play the step in
    /// flight; None when a seat is played by a search bot, whose games can
    /// take seconds each (helping with one would keep `step_wait` from
    /// answering Ctrl-C).
    assist: Option<Arc<Assist>>,
    /// The assist round of the step in flight.
    round: AtomicU64,
    variant: String,
    num_envs: usize,
    num_players: usize,
    /// Read at creation, so that no getter waits for the env's lock.
    num_actions: usize,
    observation_size: usize,
    threads: usize,
    normalize: bool,
    opponents: Vec<Option<String>>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    packed_mask: Py<PyArray2<u64>>,
    player: Py<PyArray1<i32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    final_obs: Py<PyArray2<f32>>,
    episode_length: Py<PyArray1<i64>>,
}

impl PyVectorEnv {
    /// An error if a step is in flight (`what` names the call refused).
    fn idle(&self, what: &str) -> PyResult<()> {
        if self.in_flight.load(Ordering::Acquire) {
            return Err(errors::invalid_state(format!(
                "{what}: a step is in flight (step_async was called): call step_wait() first"
            )));
        }
        Ok(())
    }

    /// Runs `f` on the env and the arrays' memory with the GIL released.
    fn with_buffers<F>(&self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut dyn DynEnv, Buffers<'_>) -> Result<(), GameError> + Send,
    {
        let mut arrays = self.borrow_arrays(py)?;
        let buf = arrays.buffers()?;
        let env = &self.env;
        let r = py.detach(move || {
            let mut env = env
                .lock()
                .map_err(|_| GameError::InvalidState("the env was poisoned".into()))?;
            f(env.as_mut(), buf)
        });
        ok(r)
    }

    /// The arrays' memory as raw slices, checked as `with_buffers` checks it.
    fn raw_buffers(&self, py: Python<'_>) -> PyResult<RawBuffers> {
        Ok(RawBuffers::of(self.borrow_arrays(py)?.buffers()?))
    }

    /// Borrows every array read-write; refused when an argument of this very
    /// call is one of them (or a view of one).
    fn borrow_arrays<'py>(&self, py: Python<'py>) -> PyResult<Borrowed<'py>> {
        let busy = |_| {
            errors::config(
                "the env's arrays are in use: an argument is one of them or a view of one (pass a copy)"
                    .into(),
            )
        };
        Ok(Borrowed {
            obs: self.obs.bind(py).try_readwrite().map_err(busy)?,
            mask: self.mask.bind(py).try_readwrite().map_err(busy)?,
            packed_mask: self.packed_mask.bind(py).try_readwrite().map_err(busy)?,
            player: self.player.bind(py).try_readwrite().map_err(busy)?,
            rewards: self.rewards.bind(py).try_readwrite().map_err(busy)?,
            terminated: self.terminated.bind(py).try_readwrite().map_err(busy)?,
            truncated: self.truncated.bind(py).try_readwrite().map_err(busy)?,
            final_obs: self.final_obs.bind(py).try_readwrite().map_err(busy)?,
            episode_length: self.episode_length.bind(py).try_readwrite().map_err(busy)?,
        })
    }

    fn arrays<'py>(&self, py: Python<'py>, with_step: bool) -> PyResult<Bound<'py, PyTuple>> {
        let mut items: Vec<Bound<'py, PyAny>> = vec![
            self.obs.bind(py).clone().into_any(),
            self.mask.bind(py).clone().into_any(),
            self.player.bind(py).clone().into_any(),
        ];
        if with_step {
            items.push(self.rewards.bind(py).clone().into_any());
            items.push(self.terminated.bind(py).clone().into_any());
            items.push(self.truncated.bind(py).clone().into_any());
        }
        PyTuple::new(py, items)
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    #[pyo3(
        text_signature = "(variant, num_envs, *, players=2, seed=0, turn_cap=100, opponents=None, threads=1, normalize=False)"
    )]
    fn new(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let [variant, num_envs, players, seed, turn_cap, opponents, threads, normalize] = args::bind(
            "VectorEnv",
            "(variant, num_envs, *, players=2, seed=0, turn_cap=100, opponents=None, threads=1, normalize=False)",
            [
                Param::Required("variant"),
                Param::Required("num_envs"),
                Param::Keyword("players"),
                Param::Keyword("seed"),
                Param::Keyword("turn_cap"),
                Param::Keyword("opponents"),
                Param::Keyword("threads"),
                Param::Keyword("normalize"),
            ],
            args,
            kwargs,
        )?;
        let (variant, num_envs) = (&args::required(variant), &args::required(num_envs));
        let [players, turn_cap, opponents, threads, normalize] =
            [players, turn_cap, opponents, threads, normalize].map(Arg);
        let seed = seed.map_or(Ok(Seed(0)), |s| s.extract::<Seed>())?;
        let variant = args::variant(variant)?;
        let game = state::config(&players, seed, &turn_cap)?;
        let num_envs =
            args::int_between(num_envs, "num_envs", 1, MAX_ENVS as i128, errors::config)? as usize;
        let threads = threads.opt_int("threads", 1, 256)?.unwrap_or(1) as usize;
        let normalize = match &normalize.0 {
            None => false,
            Some(flag) => args::flag(flag, "normalize")?,
        };
        let players = usize::from(game.num_players);
        let names = match opponents.0.as_ref().filter(|o| !o.is_none()) {
            None => vec![None; players],
            Some(o) => args::optional_texts(
                o,
                "opponents",
                "None or a bot such as \"random\", \"greedy\" or \"mcts:100\"",
            )?,
        };
        let mut specs = Vec::with_capacity(names.len());
        for name in &names {
            specs.push(match name {
                None => None,
                Some(text) => Some(ok(BotSpec::parse(text))?),
            });
        }
        let config = EnvConfig {
            num_envs,
            game,
            opponents: specs,
            threads,
            normalize,
        };
        let searching = config
            .opponents
            .iter()
            .any(|o| matches!(o, Some(BotSpec::Mcts(_))));
        let env = py.detach(|| build(variant, config))?;
        let (o, a) = (env.observation_size(), env.num_actions());
        let bot_stop = env.bot_stop();
        let assist = (!searching).then(|| env.assist());
        let me = Self {
            env: Arc::new(Mutex::new(env)),
            driver: Mutex::new(None),
            in_flight: AtomicBool::new(false),
            bot_stop,
            assist,
            round: AtomicU64::new(0),
            variant: variant.to_owned(),
            num_envs,
            num_players: players,
            num_actions: a,
            observation_size: o,
            threads,
            normalize,
            opponents: names,
            obs: matrix(py, num_envs, o),
            mask: matrix(py, num_envs, a),
            packed_mask: matrix(py, num_envs, a.div_ceil(64)),
            player: vector(py, num_envs),
            rewards: matrix(py, num_envs, players),
            terminated: vector(py, num_envs),
            truncated: vector(py, num_envs),
            final_obs: matrix(py, num_envs, o),
            episode_length: vector(py, num_envs),
        };
        me.with_buffers(py, |env, buf| env.reset(None, buf))?;
        Ok(me)
    }

    /// Restarts every env (from `seed` if given, else the seed it was made
    /// or last reset with); returns `(obs, mask, player)`.
    ///
    /// Raises:
    ///     ConfigError: A seed that is not an integer between 0 and 2**64 - 1.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, seed=None)")]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let [seed] = args::bind(
            "VectorEnv.reset",
            "(seed=None)",
            [Param::Optional("seed")],
            args,
            kwargs,
        )?;
        let seed = Arg(seed)
            .opt_int("seed", 0, u64::MAX.into())?
            .map(|s| s as u64);
        self.idle("reset")?;
        self.with_buffers(py, move |env, buf| env.reset(seed, buf))?;
        self.arrays(py, false)
    }

    /// Plays one action id per env; returns `(obs, mask, player, rewards,
    /// terminated, truncated)` (the env's own arrays, overwritten by the
    /// next call).
    ///
    /// `actions` is read in place when it is a contiguous int64 array (what
    /// `splendor.envs.random_legal_actions` returns); other integer arrays and
    /// sequences of integers are converted first.
    ///
    /// Raises:
    ///     IllegalActionError: An action not legal in its env (the message
    ///         names the env).
    ///     InvalidActionError: An id out of range, or actions that are not a
    ///         1-D array of integers.
    ///     ConfigError: Not one action per env.
    /// Nothing changes when it raises.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, actions)")]
    fn step<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = &args::one("VectorEnv.step", "actions", args, kwargs)?;
        self.idle("step")?;
        let actions = args::int_array(actions, "actions", errors::invalid_action)?;
        let acts = actions.as_slice();
        if acts.len() != self.num_envs {
            return Err(errors::config(format!(
                "expected {} actions (one per env), got {}",
                self.num_envs,
                acts.len()
            )));
        }
        self.with_buffers(py, move |env, buf| env.step(acts, buf))?;
        self.arrays(py, true)
    }

    /// Starts `step(actions)` on a thread of the env's own and returns at once
    /// (None), so that the caller can work meanwhile; `step_wait()` returns
    /// its result. The actions are checked and copied first: a bad one raises
    /// here, as `step` would, and nothing starts. Until `step_wait` returns,
    /// the env's arrays are being written (do not read them, nor arrays
    /// returned earlier, which are the same objects), and every other call
    /// on the env (`step`, `reset`, `step_async`, `state`, the array
    /// attributes) raises InvalidStateError.
    ///
    /// Raises:
    ///     IllegalActionError: An action not legal in its env (the message
    ///         names the env).
    ///     InvalidActionError: An id out of range, or actions that are not a
    ///         1-D array of integers.
    ///     ConfigError: Not one action per env.
    ///     InvalidStateError: A step is already in flight.
    /// Nothing changes when it raises.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, actions)")]
    fn step_async(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let actions = &args::one("VectorEnv.step_async", "actions", args, kwargs)?;
        self.idle("step_async")?;
        let actions = args::int_array(actions, "actions", errors::invalid_action)?;
        let acts = actions.as_slice().to_vec();
        if acts.len() != self.num_envs {
            return Err(errors::config(format!(
                "expected {} actions (one per env), got {}",
                self.num_envs,
                acts.len()
            )));
        }
        // Borrowed and released at once: the check that no argument is one
        // of the arrays. From here on `in_flight` keeps every other call
        // away from them.
        let raw = self.raw_buffers(py)?;
        {
            let env = self
                .env
                .lock()
                .map_err(|_| errors::invalid_state("the env was poisoned".into()))?;
            ok(env.check_actions(&acts))?;
        }
        let driver = take_driver()?;
        if let Some(assist) = &self.assist {
            // No step is in flight: every round so far is closed.
            self.round
                .store(assist.last_closed() + 1, Ordering::Release);
        }
        let env = Arc::clone(&self.env);
        let job = Box::new(move || -> StepOutput {
            let mut env = env
                .lock()
                .map_err(|_| GameError::InvalidState("the env was poisoned".into()))?;
            // SAFETY: the arrays are alive: `self` holds them, and its `Drop`
            // waits for this job before they are released. Nothing else
            // borrows them from Rust meanwhile: every method of `self` that
            // does refuses while `in_flight` (set below, under the GIL, before
            // any other thread can call one), and `in_flight` is cleared only
            // by `step_wait` once this job has returned. The env made them
            // contiguous (and not resizable: they do not own their memory).
            let buf = unsafe { raw.buffers() };
            env.step(&acts, buf)
        });
        self.in_flight.store(true, Ordering::Release);
        if driver.post(job).is_err() {
            // Not reached: a driver is given back idle.
            self.in_flight.store(false, Ordering::Release);
            return Err(errors::invalid_state(
                "step_async: the env's step thread is busy".into(),
            ));
        }
        *self.driver.lock().unwrap_or_else(|p| p.into_inner()) = Some(driver);
        Ok(())
    }

    /// Waits for the step `step_async` started and returns `(obs, mask,
    /// player, rewards, terminated, truncated)`, as `step` does. Rather than
    /// wait idle, the calling thread first helps play the step's remaining
    /// games beside the env's threads (not when a seat is played by a
    /// search bot, whose games are long), so that a caller that alternates
    /// two envs keeps two cores busy. The GIL is released while it waits;
    /// Ctrl-C raises KeyboardInterrupt within a fraction of a second and
    /// leaves the step in flight (call `step_wait` again to collect it).
    ///
    /// Raises:
    ///     InvalidStateError: No step in flight.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
    fn step_wait<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        args::no_arguments("VectorEnv.step_wait", args, kwargs)?;
        if !self.in_flight.load(Ordering::Acquire) {
            return Err(errors::invalid_state(
                "step_wait: no step in flight: call step_async(actions) first".into(),
            ));
        }
        let mut held = self.driver.lock().unwrap_or_else(|p| p.into_inner());
        let Some(driver) = held.as_ref() else {
            return Err(errors::invalid_state(
                "step_wait: the env's step thread is missing".into(),
            ));
        };
        // First, help play the step (the rest of its games are split
        // between its thread and this one), then collect it.
        let mut help = self.assist.as_deref();
        let round = self.round.load(Ordering::Acquire);
        let output = loop {
            let waited = py.detach(|| {
                if let Some(assist) = help.take() {
                    assist.help(round, POLL, &|| driver.is_done());
                }
                driver.wait(POLL)
            });
            match waited {
                Waited::Done(output) => break output,
                Waited::Running => py.check_signals()?,
                Waited::Idle => {
                    // Not reached: `in_flight` is cleared only here, after
                    // the output was taken.
                    self.in_flight.store(false, Ordering::Release);
                    return Err(errors::invalid_state(
                        "step_wait: no step in flight: call step_async(actions) first".into(),
                    ));
                }
                Waited::Lost => {
                    return Err(errors::invalid_state(
                        "step_wait: this process was forked while the step was in flight, and \
                         the thread running it stayed in the parent: make a new env"
                            .into(),
                    ));
                }
            }
        };
        if let Some(driver) = held.take() {
            give_back(driver);
        }
        drop(held);
        self.in_flight.store(false, Ordering::Release);
        match output {
            Ok(result) => ok(result)?,
            // As `step` would: PyO3 turns the panic into a PanicException.
            Err(payload) => std::panic::resume_unwind(payload),
        }
        self.arrays(py, true)
    }

    /// A copy of env `i`'s current game as a state object (for rendering
    /// and checks; not needed for stepping).
    ///
    /// Raises:
    ///     ConfigError: `i` is not an env index.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, i)")]
    fn state(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let i = &args::one("VectorEnv.state", "i", args, kwargs)?;
        let last = self.num_envs as i128 - 1;
        let k = args::int_between(i, "env index", 0, last, errors::config)? as usize;
        self.idle("state")?;
        let json = self
            .env
            .lock()
            .map_err(|_| errors::invalid_state("the env was poisoned".into()))?
            .state_json(k)
            .ok_or_else(|| errors::config(args::range_message("env index", 0, last, k)))?;
        let text = pyo3::types::PyString::new(py, &json);
        super::state_from_json(py, &self.variant, text.as_any())
    }

    /// The variant name.
    #[getter]
    fn variant(&self) -> &str {
        &self.variant
    }
    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
    /// Seats per game.
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Length of an observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.observation_size
    }
    /// Threads stepping shards of the envs.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    /// Whether observations are divided by the spec's scales.
    #[getter]
    fn normalize(&self) -> bool {
        self.normalize
    }
    /// Per seat: None (played by the caller) or the bot playing it.
    #[getter]
    fn opponents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.opponents)
    }
    /// float32 `[n, obs_size]`: observation of the player to move.
    #[getter]
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        self.idle("observation")?;
        Ok(self.obs.bind(py).clone())
    }
    /// bool `[n, num_actions]`: legal actions of the player to move.
    #[getter]
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        self.idle("action_mask")?;
        Ok(self.mask.bind(py).clone())
    }
    /// uint64 `[n, ceil(num_actions / 64)]`: the same mask packed, bit
    /// `a % 64` of word `a // 64` set when action `a` is legal (what
    /// `np.packbits(mask, axis=1, bitorder="little")` gives, in 64-bit
    /// words). `splendor.envs.random_legal_actions` draws from it faster.
    #[getter]
    fn packed_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u64>>> {
        self.idle("packed_mask")?;
        Ok(self.packed_mask.bind(py).clone())
    }
    /// int32 `[n]`: the player to move.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i32>>> {
        self.idle("current_player")?;
        Ok(self.player.bind(py).clone())
    }
    /// float32 `[n, players]`: returns of the games that ended in the last step.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        self.idle("rewards")?;
        Ok(self.rewards.bind(py).clone())
    }
    /// bool `[n]`: the game ended (not by the turn cap) in the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        self.idle("terminated")?;
        Ok(self.terminated.bind(py).clone())
    }
    /// bool `[n]`: the game hit the turn cap in the last step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        self.idle("truncated")?;
        Ok(self.truncated.bind(py).clone())
    }
    /// float32 `[n, obs_size]`: final observation (seen by the seat that
    /// acted) of the games that ended in the last step; other rows are stale.
    #[getter]
    fn final_observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        self.idle("final_observation")?;
        Ok(self.final_obs.bind(py).clone())
    }
    /// int64 `[n]`: decisions in the games that ended in the last step, else 0.
    #[getter]
    fn episode_length<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.idle("episode_length")?;
        Ok(self.episode_length.bind(py).clone())
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({:?}, num_envs={}, players={}, threads={})",
            self.variant, self.num_envs, self.num_players, self.threads
        )
    }
}

impl Drop for PyVectorEnv {
    /// An env dropped with a step in flight waits for that step (whose job
    /// writes into the arrays this object holds) before they are released,
    /// its bots told to answer at once.
    fn drop(&mut self) {
        let held = self.driver.get_mut().unwrap_or_else(|p| p.into_inner());
        if let Some(driver) = held.take() {
            self.bot_stop.cancel();
            let finish = move || loop {
                match driver.wait(Duration::from_secs(1)) {
                    Waited::Running => continue,
                    Waited::Done(_) | Waited::Idle => return give_back(driver),
                    // Forked: dropping it only forgets the parent's thread.
                    Waited::Lost => return,
                }
            };
            Python::attach(|py| py.detach(finish));
        }
    }
}

/// Adds the env class and the spec function to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(_observation_spec, m)?)?;
    Ok(())
}
