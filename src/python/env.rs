//! Python bindings of the batched environment (`splendor.VectorEnv`) and of
//! the observation spec. The env owns its NumPy arrays; `reset` and `step`
//! write into them with the GIL released and return the same objects, so a
//! step allocates nothing.

use super::action::ok;
use super::args::{self, Arg};
use super::errors;
use super::state::{self, Seed};
use crate::env::{Buffers, EnvConfig, Observed, VectorEnv};
use crate::game::{GameError, MAX_PLAYERS};
use crate::search::BotSpec;
use crate::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::sync::Mutex;

/// The variant-independent face of a `VectorEnv<G>`.
trait DynEnv: Send {
    fn reset(&mut self, seed: Option<u64>, buf: Buffers<'_>) -> Result<(), GameError>;
    fn step(&mut self, actions: &[i64], buf: Buffers<'_>) -> Result<(), GameError>;
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
///
/// Raises:
///     ConfigError: A bad variant, count, player count, bot, thread count
///         or flag.
#[pyclass(module = "splendor._core", name = "VectorEnv")]
pub(crate) struct PyVectorEnv {
    env: Mutex<Box<dyn DynEnv>>,
    variant: String,
    num_envs: usize,
    num_players: usize,
    threads: usize,
    normalize: bool,
    opponents: Vec<Option<String>>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    player: Py<PyArray1<i32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    final_obs: Py<PyArray2<f32>>,
    episode_length: Py<PyArray1<i64>>,
}

impl PyVectorEnv {
    /// Runs `f` on the env and the arrays' memory with the GIL released.
    fn with_buffers<F>(&self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut dyn DynEnv, Buffers<'_>) -> Result<(), GameError> + Send,
    {
        // The arrays cannot be borrowed when an argument of this very call
        // is one of them (or a view of one).
        let busy = |_| {
            errors::config(
                "the env's arrays are in use: an argument is one of them or a view of one (pass a copy)"
                    .into(),
            )
        };
        let mut obs = self.obs.bind(py).try_readwrite().map_err(busy)?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(busy)?;
        let mut player = self.player.bind(py).try_readwrite().map_err(busy)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(busy)?;
        let mut terminated = self.terminated.bind(py).try_readwrite().map_err(busy)?;
        let mut truncated = self.truncated.bind(py).try_readwrite().map_err(busy)?;
        let mut final_obs = self.final_obs.bind(py).try_readwrite().map_err(busy)?;
        let mut episode_length = self.episode_length.bind(py).try_readwrite().map_err(busy)?;
        // The env made these arrays contiguous and never hands out a way
        // to reshape them in place.
        let buf = Buffers {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            player: player.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            final_obs: final_obs.as_slice_mut()?,
            episode_length: episode_length.as_slice_mut()?,
        };
        let env = &self.env;
        let r = py.detach(move || {
            let mut env = env
                .lock()
                .map_err(|_| GameError::InvalidState("the env was poisoned".into()))?;
            f(env.as_mut(), buf)
        });
        ok(r)
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
    #[pyo3(signature = (variant, num_envs, *, players=Arg(None), seed=Seed(0), turn_cap=Arg(None), opponents=Arg(None), threads=Arg(None), normalize=Arg(None)))]
    #[pyo3(
        text_signature = "(variant, num_envs, *, players=2, seed=0, turn_cap=100, opponents=None, threads=1, normalize=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        players: Arg<'_>,
        seed: Seed,
        turn_cap: Arg<'_>,
        opponents: Arg<'_>,
        threads: Arg<'_>,
        normalize: Arg<'_>,
    ) -> PyResult<Self> {
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
        let env = py.detach(|| build(variant, config))?;
        let (o, a) = (env.observation_size(), env.num_actions());
        let me = Self {
            env: Mutex::new(env),
            variant: variant.to_owned(),
            num_envs,
            num_players: players,
            threads,
            normalize,
            opponents: names,
            obs: PyArray2::zeros(py, [num_envs, o], false).unbind(),
            mask: PyArray2::zeros(py, [num_envs, a], false).unbind(),
            player: PyArray1::zeros(py, num_envs, false).unbind(),
            rewards: PyArray2::zeros(py, [num_envs, players], false).unbind(),
            terminated: PyArray1::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::zeros(py, num_envs, false).unbind(),
            final_obs: PyArray2::zeros(py, [num_envs, o], false).unbind(),
            episode_length: PyArray1::zeros(py, num_envs, false).unbind(),
        };
        me.with_buffers(py, |env, buf| env.reset(None, buf))?;
        Ok(me)
    }

    /// Restarts every env (from `seed` if given, else the seed it was made
    /// or last reset with); returns `(obs, mask, player)`.
    ///
    /// Raises:
    ///     ConfigError: A seed that is not an integer between 0 and 2**64 - 1.
    #[pyo3(signature = (seed=Arg(None)), text_signature = "($self, seed=None)")]
    fn reset<'py>(&self, py: Python<'py>, seed: Arg<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.opt_int("seed", 0, u64::MAX.into())?.map(|s| s as u64);
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
    #[pyo3(text_signature = "($self, actions)")]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
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

    /// A copy of env `i`'s current game as a state object (for rendering
    /// and checks; not needed for stepping).
    ///
    /// Raises:
    ///     ConfigError: `i` is not an env index.
    #[pyo3(text_signature = "($self, i)")]
    fn state(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let last = self.num_envs as i128 - 1;
        let k = args::int_between(i, "env index", 0, last, errors::config)? as usize;
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
        self.mask_width()
    }
    /// Length of an observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.lock().map(|e| e.observation_size()).unwrap_or(0)
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
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
    }
    /// bool `[n, num_actions]`: legal actions of the player to move.
    #[getter]
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }
    /// int32 `[n]`: the player to move.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.player.bind(py).clone()
    }
    /// float32 `[n, players]`: returns of the games that ended in the last step.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }
    /// bool `[n]`: the game ended (not by the turn cap) in the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    /// bool `[n]`: the game hit the turn cap in the last step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    /// float32 `[n, obs_size]`: final observation (seen by the seat that
    /// acted) of the games that ended in the last step; other rows are stale.
    #[getter]
    fn final_observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.final_obs.bind(py).clone()
    }
    /// int64 `[n]`: decisions in the games that ended in the last step, else 0.
    #[getter]
    fn episode_length<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.episode_length.bind(py).clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({:?}, num_envs={}, players={}, threads={})",
            self.variant, self.num_envs, self.num_players, self.threads
        )
    }
}

impl PyVectorEnv {
    fn mask_width(&self) -> usize {
        self.env.lock().map(|e| e.num_actions()).unwrap_or(0)
    }
}

/// Adds the env class and the spec function to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(_observation_spec, m)?)?;
    Ok(())
}
