//! A policy/value network read from a `.safetensors` file and evaluated in
//! plain Rust, with no Python in the loop.
//!
//! The file format (metadata keys, tensor names and shapes) is specified in
//! `docs/network.md`: a ReLU MLP over the observation with a policy head (one
//! logit per action id) and a value head (one logit per seat, rotated so
//! column 0 is the player to move). [`Network::from_bytes`] checks every key,
//! name, shape and dtype and refuses non-finite weights, so a loaded network
//! can be evaluated without further checks.
//!
//! The optional `features` key adds derived inputs after the observation
//! ([`features::InputFeatures`]); the trunk then reads the observation
//! followed by them.
//!
//! Evaluation writes into a [`Scratch`] the caller keeps (one per thread), so
//! it never allocates.

pub mod features;
pub mod kernel;

use features::InputFeatures;

use crate::game::{Action, Game, GameError, MAX_PLAYERS};
use crate::rng::SplitMix64;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// The value of the `format` metadata key this version reads and writes.
pub const FORMAT: &str = "splendor-net/1";

/// Widest hidden layer accepted (a guard against absurd headers).
const MAX_WIDTH: usize = 1 << 16;

/// Largest network file read, in bytes (1 GiB, some 268 million float32
/// weights): a bigger file is refused before any of it is read.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The input magnitude a network must handle: every value of the trunk's
/// input (observation and extras) with `|x|` at most this (game counts are
/// far smaller) gives finite outputs below [`MAX_ACTIVATION`].
pub const MAX_INPUT: f32 = 65536.0;

/// The bound, checked at load, on every pre-activation of a forward pass
/// (trunk, policy logits, value logits) for inputs within [`MAX_INPUT`]:
/// far below `f32::MAX` (about 3.4e38), so no sum overflows and both
/// softmaxes stay finite.
pub const MAX_ACTIVATION: f64 = 1e30;

/// One dense layer, its weight kept in the layout its kernel wants.
#[derive(Clone)]
struct Dense {
    inputs: usize,
    outputs: usize,
    /// Row-major `[inputs, outputs]` (transposed) for the trunk,
    /// `[outputs, inputs]` (as stored) for the heads.
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A loaded network: immutable, shared between threads behind an `Arc`.
#[derive(Clone)]
pub struct Network {
    variant: String,
    players: usize,
    obs_size: usize,
    num_actions: usize,
    hidden: Vec<usize>,
    /// What the trunk reads besides the observation.
    features: InputFeatures,
    provenance: String,
    sha256: [u8; 32],
    /// The trunk, the input normalisation folded into its first layer.
    trunk: Vec<Dense>,
    policy: Dense,
    value: Dense,
}

/// Two networks are equal when their files are (same SHA-256), so a
/// `SearchConfig` holding one still compares by content.
impl PartialEq for Network {
    fn eq(&self, other: &Self) -> bool {
        self.sha256 == other.sha256
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.variant)
            .field("players", &self.players)
            .field("hidden", &self.hidden)
            .field("features", &self.features.name())
            .field("sha256", &self.sha256_hex())
            .finish()
    }
}

/// Per-thread buffers of an evaluation.
#[derive(Clone, Debug)]
pub struct Scratch {
    /// The trunk's input (observation, then extras) when there are extras.
    input: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    rows: Vec<usize>,
}

/// Buffers of [`Network::evaluate_legal_batch`]: sized for a batch by
/// [`Network::batch_scratch`], grown (once) only by a larger batch.
#[derive(Clone, Debug, Default)]
pub struct BatchScratch {
    /// The trunk's input rows (observation, then extras) when there are extras.
    input: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    rows: Vec<usize>,
    /// The kernel's packed tile ([`kernel::gemm_cols`]).
    active: Vec<u32>,
    packed: Vec<f32>,
}

fn bad(msg: String) -> GameError {
    GameError::Network(msg)
}

fn metadata_value<'a>(meta: &'a HashMap<String, String>, key: &str) -> Result<&'a str, GameError> {
    meta.get(key)
        .map(String::as_str)
        .ok_or_else(|| bad(format!("network file: metadata key `{key}` is missing")))
}

fn parse_count(meta: &HashMap<String, String>, key: &str) -> Result<usize, GameError> {
    let text = metadata_value(meta, key)?;
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 && n <= MAX_WIDTH => Ok(n),
        _ => Err(bad(format!(
            "network file: metadata `{key}` must be an integer between 1 and {MAX_WIDTH}, got {text:?}"
        ))),
    }
}

impl Network {
    /// Reads and validates a network file.
    ///
    /// Errors (`GameError::Network`): not a safetensors file (or truncated),
    /// a missing or wrong metadata key, a missing, extra, misshapen or
    /// non-`F32` tensor, or a non-finite weight. The message names the
    /// problem.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, GameError> {
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| bad(format!("not a valid safetensors network file: {e}")))?;
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| bad(format!("not a valid safetensors network file: {e}")))?;
        let empty = HashMap::new();
        let meta = header.metadata().as_ref().unwrap_or(&empty);
        let format = metadata_value(meta, "format")?;
        if format != FORMAT {
            return Err(bad(format!(
                "network file: format is {format:?}, this version reads {FORMAT:?}"
            )));
        }
        let variant = metadata_value(meta, "variant")?.to_string();
        if variant.is_empty() {
            return Err(bad("network file: metadata `variant` is empty".into()));
        }
        let players = parse_count(meta, "players")?;
        if players > MAX_PLAYERS {
            return Err(bad(format!(
                "network file: metadata `players` must be between 1 and {MAX_PLAYERS}, got {players}"
            )));
        }
        let obs_size = parse_count(meta, "obs_size")?;
        let num_actions = parse_count(meta, "num_actions")?;
        let hidden_text = metadata_value(meta, "hidden")?;
        let hidden: Vec<usize> = hidden_text
            .split(',')
            .map(|w| w.trim().parse::<usize>().ok().filter(|&n| n > 0 && n <= MAX_WIDTH))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                bad(format!(
                    "network file: metadata `hidden` must be comma-separated widths between 1 and {MAX_WIDTH}, got {hidden_text:?}"
                ))
            })?;
        let provenance = meta.get("provenance").cloned().unwrap_or_default();
        let features = InputFeatures::resolve(
            meta.get("features").map_or("raw", String::as_str),
            &variant,
            players,
            obs_size,
        )?;
        // The trunk reads the observation followed by the extras.
        let input_size = obs_size + features.extra_len();

        let mut expected: Vec<(String, Vec<usize>)> = vec![
            ("input.shift".into(), vec![input_size]),
            ("input.scale".into(), vec![input_size]),
        ];
        let mut prev = input_size;
        for (i, &h) in hidden.iter().enumerate() {
            expected.push((format!("trunk.{i}.weight"), vec![h, prev]));
            expected.push((format!("trunk.{i}.bias"), vec![h]));
            prev = h;
        }
        expected.push(("policy.weight".into(), vec![num_actions, prev]));
        expected.push(("policy.bias".into(), vec![num_actions]));
        expected.push(("value.weight".into(), vec![players, prev]));
        expected.push(("value.bias".into(), vec![players]));
        for name in tensors.names() {
            if !expected.iter().any(|(n, _)| n == name) {
                return Err(bad(format!("network file: unexpected tensor `{name}`")));
            }
        }
        let read = |name: &str, shape: &[usize]| -> Result<Vec<f32>, GameError> {
            let view: TensorView<'_> = tensors
                .tensor(name)
                .map_err(|_| bad(format!("network file: tensor `{name}` is missing")))?;
            if view.dtype() != Dtype::F32 {
                return Err(bad(format!(
                    "network file: tensor `{name}` has dtype {:?}, expected F32",
                    view.dtype()
                )));
            }
            if view.shape() != shape {
                return Err(bad(format!(
                    "network file: tensor `{name}` has shape {:?}, expected {shape:?}",
                    view.shape()
                )));
            }
            let values: Vec<f32> = view
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                return Err(bad(format!(
                    "network file: tensor `{name}` has a non-finite value at flat index {k}"
                )));
            }
            Ok(values)
        };
        let shift = read("input.shift", &[input_size])?;
        let scale = read("input.scale", &[input_size])?;
        let mut trunk = Vec::with_capacity(hidden.len());
        let mut prev = input_size;
        for (i, &h) in hidden.iter().enumerate() {
            let w = read(&format!("trunk.{i}.weight"), &[h, prev])?;
            let mut bias = read(&format!("trunk.{i}.bias"), &[h])?;
            // Transposed for `gemv_cols`: row `k` holds input k's weights.
            // The input normalisation is folded into the first layer,
            // `W ((x - shift) * scale) + b = (W diag(scale)) x + (b - W (shift * scale))`,
            // so the layer reads the raw observation, whose many zeros
            // `gemv_cols` skips.
            let mut weight = vec![0.0; w.len()];
            for o in 0..h {
                let mut shifted = 0.0f64;
                for k in 0..prev {
                    let (mut wk, mut sk) = (w[o * prev + k], 0.0);
                    if i == 0 {
                        sk = shift[k] * scale[k];
                        wk *= scale[k];
                    }
                    shifted += f64::from(w[o * prev + k]) * f64::from(sk);
                    weight[k * h + o] = wk;
                }
                bias[o] = (f64::from(bias[o]) - shifted) as f32;
            }
            if let Some(k) = weight.iter().chain(&bias).position(|v| !v.is_finite()) {
                return Err(bad(format!(
                    "network file: the weights are too large: the input normalisation folded into trunk.0 overflows float32 (value {k})"
                )));
            }
            trunk.push(Dense {
                inputs: prev,
                outputs: h,
                weight,
                bias,
            });
            prev = h;
        }
        let policy = Dense {
            inputs: prev,
            outputs: num_actions,
            weight: read("policy.weight", &[num_actions, prev])?,
            bias: read("policy.bias", &[num_actions])?,
        };
        let value = Dense {
            inputs: prev,
            outputs: players,
            weight: read("value.weight", &[players, prev])?,
            bias: read("value.bias", &[players])?,
        };
        check_magnitude(input_size, &trunk, &policy, &value)?;
        Ok(Network {
            variant,
            players,
            obs_size,
            num_actions,
            hidden,
            features,
            provenance,
            sha256: Sha256::digest(bytes).into(),
            trunk,
            policy,
            value,
        })
    }

    /// Reads a network file from disk (see [`Network::read_file`] and
    /// [`Network::from_bytes`]).
    pub fn load(path: impl AsRef<Path>) -> Result<Network, GameError> {
        Network::from_bytes(&Network::read_file(path.as_ref())?)
    }

    /// The bytes of a network file: the one way every entry point reads one.
    ///
    /// Errors (`GameError::Network`): the path is missing or unreadable, is
    /// not a regular file (a folder, a FIFO, a device such as `/dev/zero`),
    /// or holds more than [`MAX_FILE_BYTES`]. The kind and size are checked
    /// before the file is opened and again on the opened file, which is
    /// opened non-blocking (a FIFO put in its place cannot block) and read
    /// with a bound.
    pub fn read_file(path: &Path) -> Result<Vec<u8>, GameError> {
        use std::io::Read;
        let fail = |what: String| {
            bad(format!(
                "cannot read network file {}: {what}",
                path.display()
            ))
        };
        let check = |meta: &std::fs::Metadata| -> Result<(), GameError> {
            if !meta.is_file() {
                let kind = if meta.is_dir() {
                    "a folder"
                } else {
                    "not a regular file"
                };
                return Err(fail(format!("it is {kind}")));
            }
            if meta.len() > MAX_FILE_BYTES {
                return Err(fail(format!(
                    "it holds {} bytes, over the limit of {MAX_FILE_BYTES} (1 GiB)",
                    meta.len()
                )));
            }
            Ok(())
        };
        check(&std::fs::metadata(path).map_err(|e| fail(e.to_string()))?)?;
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let file = options.open(path).map_err(|e| fail(e.to_string()))?;
        let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
        check(&meta)?;
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(e.to_string()))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!(
                "it grew over the limit of {MAX_FILE_BYTES} bytes while read"
            )));
        }
        Ok(bytes)
    }

    /// The variant it was trained for (`base`, `duel`, `marvel`).
    pub fn variant(&self) -> &str {
        &self.variant
    }
    /// The player count it was trained for.
    pub fn players(&self) -> usize {
        self.players
    }
    /// Length of the observation it reads.
    pub fn obs_size(&self) -> usize {
        self.obs_size
    }
    /// Number of policy logits (the variant's action-space size).
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Hidden widths of the trunk.
    pub fn hidden(&self) -> &[usize] {
        &self.hidden
    }
    /// The input feature set (`raw` or `needs`, the `features` metadata).
    pub fn features(&self) -> &str {
        self.features.name()
    }
    /// Length of the trunk's input: the observation and the extras.
    pub fn input_size(&self) -> usize {
        self.obs_size + self.features.extra_len()
    }
    /// Writes the trunk's input for `obs` (before the input normalisation):
    /// the observation, then the extras of the feature set.
    /// Panics when `obs.len() != obs_size` or `out.len() != input_size()`.
    pub fn input(&self, obs: &[f32], out: &mut [f32]) {
        assert_eq!(obs.len(), self.obs_size, "observation length");
        assert_eq!(out.len(), self.input_size(), "input length");
        let (head, extras) = out.split_at_mut(self.obs_size);
        head.copy_from_slice(obs);
        self.features.write(obs, extras);
    }
    /// The `provenance` metadata (empty when absent).
    pub fn provenance(&self) -> &str {
        &self.provenance
    }
    /// SHA-256 of the file the network was read from.
    pub fn sha256(&self) -> [u8; 32] {
        self.sha256
    }
    /// [`Network::sha256`] as lower-case hex.
    pub fn sha256_hex(&self) -> String {
        self.sha256.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Checks that the network fits games of `G` with `players` seats.
    pub fn check_game<G: Game>(&self, players: usize) -> Result<(), GameError> {
        if self.variant != G::VARIANT || self.players != players {
            return Err(bad(format!(
                "the network is for {} with {} players, not {} with {players}",
                self.variant,
                self.players,
                G::VARIANT
            )));
        }
        if self.obs_size != G::OBSERVATION_SIZE || self.num_actions != G::NUM_ACTIONS {
            return Err(bad(format!(
                "the network reads observations of {} and scores {} actions; {} has {} and {}",
                self.obs_size,
                self.num_actions,
                G::VARIANT,
                G::OBSERVATION_SIZE,
                G::NUM_ACTIONS
            )));
        }
        Ok(())
    }

    /// Buffers for [`Network::evaluate`]; keep one per thread.
    pub fn scratch(&self) -> Scratch {
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let input = match self.features {
            InputFeatures::Raw => Vec::new(),
            _ => vec![0.0; self.input_size()],
        };
        Scratch {
            input,
            a: vec![0.0; widest],
            b: vec![0.0; widest],
            rows: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
        }
    }

    /// Runs the trunk; returns the last hidden layer (in `scratch`).
    fn trunk<'s>(&self, obs: &[f32], scratch: &'s mut Scratch) -> &'s [f32] {
        assert_eq!(obs.len(), self.obs_size, "observation length");
        let Scratch { input, a, b, .. } = scratch;
        let (mut cur, mut next) = (a, b);
        let mut src: &[f32] = obs;
        if let InputFeatures::Needs(_) = self.features {
            self.input(obs, input);
            src = input;
        }
        for layer in &self.trunk {
            let out = &mut next[..layer.outputs];
            kernel::gemv_cols(&layer.weight, &src[..layer.inputs], &layer.bias, out);
            for v in out.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut cur, &mut next);
            src = &cur[..layer.outputs];
        }
        let last = self.trunk.last().map_or(0, |l| l.outputs);
        &cur[..last]
    }

    /// Buffers for [`Network::evaluate_legal_batch`] with up to `batch`
    /// observations; keep one per thread.
    pub fn batch_scratch(&self, batch: usize) -> BatchScratch {
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let input = match self.features {
            InputFeatures::Raw => Vec::new(),
            _ => vec![0.0; batch * self.input_size()],
        };
        let widest_in = widest.max(self.input_size());
        BatchScratch {
            input,
            a: vec![0.0; batch * widest],
            b: vec![0.0; batch * widest],
            rows: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
            active: Vec::with_capacity(widest_in),
            packed: Vec::with_capacity(kernel::TILE_ROWS * widest_in),
        }
    }

    /// The batched trunk: the last hidden layer of each of the `batch`
    /// observations of `obs`, row after row (in `scratch`).
    fn trunk_batch<'s>(
        &self,
        obs: &[f32],
        batch: usize,
        scratch: &'s mut BatchScratch,
    ) -> &'s [f32] {
        assert_eq!(obs.len(), batch * self.obs_size, "observations length");
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let BatchScratch {
            input,
            a,
            b,
            active,
            packed,
            ..
        } = scratch;
        // Grown only when the batch is larger than any before.
        for buf in [&mut *a, &mut *b] {
            if buf.len() < batch * widest {
                buf.resize(batch * widest, 0.0);
            }
        }
        let (mut cur, mut next) = (a, b);
        let mut src: &[f32] = obs;
        let mut width = self.obs_size;
        if let InputFeatures::Needs(_) = self.features {
            let n = self.input_size();
            if input.len() < batch * n {
                input.resize(batch * n, 0.0);
            }
            for (o, row) in obs
                .chunks_exact(self.obs_size)
                .zip(input.chunks_exact_mut(n))
            {
                self.input(o, row);
            }
            src = &input[..batch * n];
            width = n;
        }
        for layer in &self.trunk {
            debug_assert_eq!(width, layer.inputs);
            let out = &mut next[..batch * layer.outputs];
            kernel::gemm_cols(&layer.weight, src, &layer.bias, out, active, packed);
            for v in out.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut cur, &mut next);
            src = &cur[..batch * layer.outputs];
            width = layer.outputs;
        }
        &cur[..batch * width]
    }

    /// [`Network::evaluate_legal`] for a batch of observations in one pass
    /// of the trunk ([`kernel::gemm_cols`], which reads each weight once per
    /// few observations): `obs` holds `batch` observations one after the
    /// other; observation `k`'s legal actions are
    /// `legal[legal_ends[k - 1]..legal_ends[k]]` (`legal_ends[-1]` read as
    /// 0, `legal_ends.len() == batch`), its prior goes to the same range of
    /// `priors` (`priors.len() == legal.len()`, a softmax over its own
    /// legal actions) and its value to `values[k * players..(k + 1) * players]`.
    /// Each result equals `evaluate_legal`'s for that observation. Never
    /// allocates once `scratch` has seen a batch this large. Panics when the
    /// lengths disagree.
    pub fn evaluate_legal_batch(
        &self,
        obs: &[f32],
        legal: &[Action],
        legal_ends: &[usize],
        scratch: &mut BatchScratch,
        priors: &mut [f32],
        values: &mut [f32],
    ) {
        let batch = legal_ends.len();
        assert_eq!(priors.len(), legal.len(), "priors length");
        assert_eq!(values.len(), batch * self.players, "values length");
        assert_eq!(
            legal_ends.last().copied().unwrap_or(0),
            legal.len(),
            "legal ends"
        );
        let mut rows = std::mem::take(&mut scratch.rows);
        let width = self.policy.inputs;
        let h = self.trunk_batch(obs, batch, scratch);
        let mut start = 0;
        for (k, &end) in legal_ends.iter().enumerate() {
            assert!(start <= end, "legal ends must not decrease");
            let hk = &h[k * width..(k + 1) * width];
            rows.clear();
            rows.extend(legal[start..end].iter().map(|a| a.index()));
            let prior = &mut priors[start..end];
            kernel::gemv_rows_subset(&self.policy.weight, hk, &self.policy.bias, &rows, prior);
            softmax(prior);
            self.value_head(hk, &mut values[k * self.players..(k + 1) * self.players]);
            start = end;
        }
        scratch.rows = rows;
    }

    /// The value head's softmax into `value` (`len == players`).
    fn value_head(&self, h: &[f32], value: &mut [f32]) {
        kernel::gemv_rows(&self.value.weight, h, &self.value.bias, value);
        softmax(value);
    }

    /// Full evaluation: the policy logits of every action id
    /// (`policy_logits.len() == num_actions`) and the value
    /// (`value.len() == players`, column 0 = the player to move, sums to 1).
    /// Panics when the slice lengths are wrong.
    pub fn evaluate(
        &self,
        obs: &[f32],
        scratch: &mut Scratch,
        policy_logits: &mut [f32],
        value: &mut [f32],
    ) {
        assert_eq!(policy_logits.len(), self.num_actions, "policy length");
        assert_eq!(value.len(), self.players, "value length");
        let h = self.trunk(obs, scratch);
        debug_assert_eq!(h.len(), self.policy.inputs);
        kernel::gemv_rows(&self.policy.weight, h, &self.policy.bias, policy_logits);
        self.value_head(h, value);
    }

    /// What the search needs: the prior over `legal` (softmax of their
    /// logits only, `prior.len() == legal.len()`) and the value as in
    /// [`Network::evaluate`]. Only the legal rows of the policy head are
    /// computed.
    pub fn evaluate_legal(
        &self,
        obs: &[f32],
        scratch: &mut Scratch,
        legal: &[Action],
        prior: &mut [f32],
        value: &mut [f32],
    ) {
        assert_eq!(prior.len(), legal.len(), "prior length");
        assert_eq!(value.len(), self.players, "value length");
        let mut rows = std::mem::take(&mut scratch.rows);
        rows.clear();
        rows.extend(legal.iter().map(|a| a.index()));
        let h = self.trunk(obs, scratch);
        kernel::gemv_rows_subset(&self.policy.weight, h, &self.policy.bias, &rows, prior);
        self.value_head(h, value);
        softmax(prior);
        scratch.rows = rows;
    }
}

/// Refuses weights with which a forward pass could leave the finite range:
/// for every input with `|x| <= MAX_INPUT`, each pre-activation `y_o = b_o +
/// Σ_k w_ok h_k` is at most `|b_o| + Σ_k |w_ok| m_k` in magnitude, `m_k` the
/// same bound on the layer below (a ReLU does not grow it); every such bound,
/// computed in f64 on the weights as evaluated (normalisation folded in),
/// must be at most [`MAX_ACTIVATION`].
fn check_magnitude(
    input_size: usize,
    trunk: &[Dense],
    policy: &Dense,
    value: &Dense,
) -> Result<(), GameError> {
    let refuse = |name: &str, bound: f64| -> Result<(), GameError> {
        if bound <= MAX_ACTIVATION {
            return Ok(());
        }
        Err(bad(format!(
            "network file: the weights are too large: `{name}` can reach {bound:.3e} for inputs \
             within ±{MAX_INPUT} (a network must stay within {MAX_ACTIVATION:e}, docs/network.md)"
        )))
    };
    let mut m = vec![f64::from(MAX_INPUT); input_size];
    for (i, layer) in trunk.iter().enumerate() {
        // Transposed: row `k` holds input k's weights.
        let mut next: Vec<f64> = layer.bias.iter().map(|b| f64::from(b.abs())).collect();
        for (k, row) in layer.weight.chunks_exact(layer.outputs).enumerate() {
            for (n, w) in next.iter_mut().zip(row) {
                *n += f64::from(w.abs()) * m[k];
            }
        }
        refuse(
            &format!("trunk.{i}"),
            next.iter().copied().fold(0.0, f64::max),
        )?;
        m = next;
    }
    for (name, head) in [("policy", policy), ("value", value)] {
        let top = head
            .weight
            .chunks_exact(head.inputs)
            .zip(&head.bias)
            .map(|(row, b)| {
                f64::from(b.abs())
                    + row
                        .iter()
                        .zip(&m)
                        .map(|(w, mk)| f64::from(w.abs()) * mk)
                        .sum::<f64>()
            })
            .fold(0.0, f64::max);
        refuse(name, top)?;
    }
    Ok(())
}

/// In-place softmax (max-shifted; an empty slice stays empty). The result
/// is always finite and sums to 1: a NaN counts as probability 0, and when
/// the largest value is not finite (some `+inf`, or nothing but NaN and
/// `-inf`) the mass is shared equally by the `+inf` entries (by all entries
/// when there is none). A loaded network never gives such logits; this
/// keeps a non-finite value out of the search whatever the input.
pub fn softmax(xs: &mut [f32]) {
    let top = xs
        .iter()
        .copied()
        .filter(|x| !x.is_nan())
        .fold(f32::NEG_INFINITY, f32::max);
    if !top.is_finite() {
        let hit = |x: f32| top != f32::INFINITY || x == f32::INFINITY;
        let n = xs.iter().filter(|&&x| hit(x)).count();
        for x in xs.iter_mut() {
            *x = if hit(*x) { 1.0 / n as f32 } else { 0.0 };
        }
        return;
    }
    let mut sum = 0.0;
    for x in xs.iter_mut() {
        // `top` itself gives 1, so `sum >= 1`.
        *x = if x.is_nan() { 0.0 } else { (*x - top).exp() };
        sum += *x;
    }
    for x in xs.iter_mut() {
        *x /= sum;
    }
}

/// What a network file declares, for [`encode`].
#[derive(Clone, Debug)]
pub struct Header {
    /// The variant name.
    pub variant: String,
    /// The player count.
    pub players: usize,
    /// Observation length.
    pub obs_size: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Hidden widths.
    pub hidden: Vec<usize>,
    /// The `features` metadata (`None`: the key is left out, which reads as
    /// `raw`).
    pub features: Option<String>,
    /// Free text.
    pub provenance: String,
}

/// Writes a network file: the metadata of `header` and `tensors` as
/// `(name, shape, values)`, F32 little-endian, in the given order (no
/// checks: tests use it to write bad files too). The header JSON has sorted
/// keys, so the same network always gives the same bytes.
pub fn encode(header: &Header, tensors: &[(String, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
    use serde_json::{json, Map, Value};
    let hidden: Vec<String> = header.hidden.iter().map(usize::to_string).collect();
    let mut top = Map::new();
    let mut metadata = json!({
            "format": FORMAT,
            "variant": header.variant,
            "players": header.players.to_string(),
            "obs_size": header.obs_size.to_string(),
            "num_actions": header.num_actions.to_string(),
            "hidden": hidden.join(","),
            "provenance": header.provenance,
    });
    if let Some(features) = &header.features {
        metadata["features"] = json!(features);
    }
    top.insert("__metadata__".into(), metadata);
    let mut data = Vec::new();
    for (name, shape, values) in tensors {
        let start = data.len();
        data.extend(values.iter().flat_map(|x| x.to_le_bytes()));
        top.insert(
            name.clone(),
            json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
        );
    }
    let mut text = Value::Object(top).to_string().into_bytes();
    // The data starts 8-byte aligned, as safetensors writers do.
    while text.len() % 8 != 0 {
        text.push(b' ');
    }
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&text);
    out.extend_from_slice(&data);
    out
}

/// The tensors of a network of `header`'s shape with seeded uniform weights
/// in `±1/sqrt(fan_in)` (biases too), shift 0 and scale 1: for tests and
/// benchmarks. The input is the observation and the extras of
/// `header.features` (none for a name that is not a feature set).
pub fn random_tensors(header: &Header, seed: u64) -> Vec<(String, Vec<usize>, Vec<f32>)> {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |n: usize, fan_in: usize| -> Vec<f32> {
        let r = 1.0 / (fan_in as f64).sqrt();
        (0..n)
            .map(|_| ((rng.next_f64() * 2.0 - 1.0) * r) as f32)
            .collect()
    };
    let extras = header
        .features
        .as_deref()
        .and_then(|f| features::extra_len_of(f, &header.variant, header.players))
        .unwrap_or(0);
    let o = header.obs_size + extras;
    let mut t = vec![
        ("input.shift".to_string(), vec![o], vec![0.0; o]),
        ("input.scale".to_string(), vec![o], vec![1.0; o]),
    ];
    let mut prev = o;
    for (i, &h) in header.hidden.iter().enumerate() {
        t.push((
            format!("trunk.{i}.weight"),
            vec![h, prev],
            uniform(h * prev, prev),
        ));
        t.push((format!("trunk.{i}.bias"), vec![h], uniform(h, prev)));
        prev = h;
    }
    let a = header.num_actions;
    let p = header.players;
    t.push((
        "policy.weight".into(),
        vec![a, prev],
        uniform(a * prev, prev),
    ));
    t.push(("policy.bias".into(), vec![a], uniform(a, prev)));
    t.push((
        "value.weight".into(),
        vec![p, prev],
        uniform(p * prev, prev),
    ));
    t.push(("value.bias".into(), vec![p], uniform(p, prev)));
    t
}

/// The header of a network for `G` with `players` seats and `hidden` widths.
pub fn header_for<G: Game>(players: usize, hidden: &[usize]) -> Header {
    Header {
        variant: G::VARIANT.to_string(),
        players,
        obs_size: G::OBSERVATION_SIZE,
        num_actions: G::NUM_ACTIONS,
        hidden: hidden.to_vec(),
        features: None,
        provenance: "{\"source\": \"random weights\"}".into(),
    }
}

/// A random-weight network file for `G` (see [`random_tensors`]).
pub fn random_network_bytes<G: Game>(players: usize, hidden: &[usize], seed: u64) -> Vec<u8> {
    let header = header_for::<G>(players, hidden);
    encode(&header, &random_tensors(&header, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ActionList, Config};
    use crate::variants::base::BaseState;

    /// Observations and legal lists along a few seeded random 2-player games.
    fn positions(count: usize) -> (Vec<f32>, Vec<Action>, Vec<usize>) {
        let (mut obs, mut legal, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        let mut buf = vec![0.0; BaseState::OBSERVATION_SIZE];
        let mut list = ActionList::new();
        let mut seed = 0;
        while ends.len() < count {
            let mut s = BaseState::new_game(&Config {
                seed,
                ..Config::default()
            })
            .expect("a deal");
            let mut rng = SplitMix64::new(seed + 7);
            seed += 1;
            while ends.len() < count {
                let Some(mover) = s.current_player() else {
                    break;
                };
                s.observation(mover, &mut buf);
                obs.extend_from_slice(&buf);
                s.legal_actions(&mut list);
                legal.extend_from_slice(list.as_slice());
                ends.push(legal.len());
                // A few moves between the positions, so they differ.
                for _ in 0..3 {
                    if s.current_player().is_none() {
                        break;
                    }
                    s.legal_actions(&mut list);
                    s.apply(list.as_slice()[rng.below(list.len() as u64) as usize])
                        .expect("legal");
                }
            }
        }
        (obs, legal, ends)
    }

    fn batch_equals_single(net: &Network) {
        let obs_size = net.obs_size();
        let players = net.players();
        let mut single = net.scratch();
        let mut batched = net.batch_scratch(4);
        for batch in [1, 3, 8, 17] {
            let (obs, legal, ends) = positions(batch);
            let mut priors = vec![0.0; legal.len()];
            let mut values = vec![0.0; batch * players];
            // Sized for 4: the larger batches grow it.
            net.evaluate_legal_batch(&obs, &legal, &ends, &mut batched, &mut priors, &mut values);
            let mut start = 0;
            for (k, &end) in ends.iter().enumerate() {
                let mut prior = vec![0.0; end - start];
                let mut value = vec![0.0; players];
                net.evaluate_legal(
                    &obs[k * obs_size..(k + 1) * obs_size],
                    &mut single,
                    &legal[start..end],
                    &mut prior,
                    &mut value,
                );
                // The same operations in the same order: equal, not close.
                assert_eq!(
                    &priors[start..end],
                    &prior[..],
                    "batch {batch} item {k} prior"
                );
                assert_eq!(
                    &values[k * players..(k + 1) * players],
                    &value[..],
                    "batch {batch} item {k} value"
                );
                start = end;
            }
        }
    }

    #[test]
    fn a_batch_evaluates_each_item_as_evaluate_legal_does() {
        for features in [None, Some("needs".to_string())] {
            for hidden in [&[64, 64][..], &[40, 24, 8]] {
                let header = Header {
                    features: features.clone(),
                    ..header_for::<BaseState>(2, hidden)
                };
                let net = Network::from_bytes(&encode(&header, &random_tensors(&header, 11)))
                    .expect("a network");
                batch_equals_single(&net);
            }
        }
    }
}
