//! Python bindings of the batched environment (`splendor.VectorEnv`) and of
//! the observation spec. The env owns its NumPy arrays; `reset` and `step`
//! write into them with the GIL released and return the same objects, so a
//! step allocates nothing.

use super::action::ok;
use super::errors;
use super::state::{self, Seed};
use crate::env::{Buffers, EnvConfig, Observed, VectorEnv};
use crate::game::GameError;
use crate::search::BotSpec;
use crate::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
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
#[pyo3(signature = (variant, players=None), text_signature = "(variant, players=2)")]
fn _observation_spec(
    variant: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<SpecRow>> {
    let variant = super::args::variant(variant)?;
    let players = state::int_arg(players, "players", 2)?;
    let players = usize::try_from(players)
        .map_err(|_| errors::config(format!("players must be between 2 and 4, got {players}")))?;
    match variant {
        "base" => spec_rows::<BaseState>(players),
        "duel" => spec_rows::<DuelState>(players),
        "marvel" => spec_rows::<MarvelState>(players),
        _ => Err(super::unknown_variant(variant)),
    }
}

/// `n` games of one variant stepped together in Rust.
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

fn opponents_arg(obj: Option<&Bound<'_, PyAny>>, players: usize) -> PyResult<Vec<Option<String>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(vec![None; players]);
    };
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(errors::config(
            "opponents must be a sequence with one entry per seat (None or a bot such as \"greedy\"), not a string".into(),
        ));
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| {
        errors::config("opponents must be a sequence with one entry per seat".into())
    })? {
        let item = item?;
        if item.is_none() {
            out.push(None);
        } else {
            let text: String = item.extract().map_err(|_| {
                errors::config(format!(
                    "an opponent is None or a bot name such as \"random\", \"greedy\" or \"mcts:100\", got {}",
                    item.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            out.push(Some(text));
        }
    }
    Ok(out)
}

impl PyVectorEnv {
    /// Runs `f` on the env and the arrays' memory with the GIL released.
    fn with_buffers<F>(&self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut dyn DynEnv, Buffers<'_>) -> Result<(), GameError> + Send,
    {
        let mut obs = self.obs.bind(py).try_readwrite()?;
        let mut mask = self.mask.bind(py).try_readwrite()?;
        let mut player = self.player.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut terminated = self.terminated.bind(py).try_readwrite()?;
        let mut truncated = self.truncated.bind(py).try_readwrite()?;
        let mut final_obs = self.final_obs.bind(py).try_readwrite()?;
        let mut episode_length = self.episode_length.bind(py).try_readwrite()?;
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
    #[pyo3(signature = (variant, num_envs, *, players=None, seed=Seed(0), turn_cap=None, opponents=None, threads=None, normalize=false))]
    #[pyo3(
        text_signature = "(variant, num_envs, *, players=2, seed=0, turn_cap=100, opponents=None, threads=1, normalize=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_envs: &Bound<'_, PyAny>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Seed,
        turn_cap: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        normalize: bool,
    ) -> PyResult<Self> {
        let game = state::config(
            &super::args::Arg(players.cloned()),
            seed,
            &super::args::Arg(turn_cap.cloned()),
        )?;
        let n = state::int_arg(Some(num_envs), "num_envs", 1)?;
        let num_envs = usize::try_from(n)
            .ok()
            .filter(|&n| n > 0 && n <= 1 << 24)
            .ok_or_else(|| {
                errors::config(format!(
                    "num_envs must be between 1 and {}, got {n}",
                    1 << 24
                ))
            })?;
        let t = state::int_arg(threads, "threads", 1)?;
        let threads = usize::try_from(t)
            .ok()
            .filter(|&t| (1..=256).contains(&t))
            .ok_or_else(|| errors::config(format!("threads must be between 1 and 256, got {t}")))?;
        let players = usize::from(game.num_players);
        let names = opponents_arg(opponents, players)?;
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
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<Seed>) -> PyResult<Bound<'py, PyTuple>> {
        self.with_buffers(py, move |env, buf| env.reset(seed.map(|s| s.0), buf))?;
        self.arrays(py, false)
    }

    /// Plays one action per env; returns `(obs, mask, player, rewards,
    /// terminated, truncated)` (the env's own arrays, overwritten by the
    /// next call).
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let converted;
        let array: &Bound<'py, PyAny> = if actions.cast::<PyArray1<i64>>().is_ok() {
            actions
        } else {
            let np = py.import("numpy")?;
            converted = np
                .call_method1("asarray", (actions,))
                .and_then(|a| {
                    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
                    if kind != "i" && kind != "u" {
                        return Err(errors::invalid_action(format!(
                            "actions must be integers, got dtype {}",
                            a.getattr("dtype")?.str()?
                        )));
                    }
                    a.call_method1("astype", ("int64",))
                })
                .map_err(|e| {
                    if e.is_instance_of::<errors::InvalidActionError>(py) {
                        e
                    } else {
                        errors::invalid_action(format!(
                            "actions must be a 1-D integer array, one per env: {e}"
                        ))
                    }
                })?;
            &converted
        };
        let array = array.cast::<PyArray1<i64>>().map_err(|_| {
            errors::invalid_action("actions must be a 1-D integer array, one per env".into())
        })?;
        let readonly: PyReadonlyArray1<'_, i64> = array.try_readonly()?;
        if readonly.len() != self.num_envs {
            return Err(errors::config(format!(
                "expected {} actions (one per env), got {}",
                self.num_envs,
                readonly.len()
            )));
        }
        let owned;
        let acts: &[i64] = match readonly.as_slice() {
            Ok(s) => s,
            Err(_) => {
                owned = readonly.as_array().to_vec();
                &owned
            }
        };
        self.with_buffers(py, move |env, buf| env.step(acts, buf))?;
        self.arrays(py, true)
    }

    /// A copy of env `i`'s current game as a state object (for rendering
    /// and checks; not needed for stepping).
    fn state(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let k = state::int_arg(Some(i), "i", 0)?;
        let json = usize::try_from(k)
            .ok()
            .and_then(|k| self.env.lock().ok().and_then(|env| env.state_json(k)));
        let Some(json) = json else {
            return Err(errors::config(format!(
                "env index must be between 0 and {}, got {k}",
                self.num_envs - 1
            )));
        };
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
