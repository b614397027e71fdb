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
mod format;
mod forward;
pub mod kernel;
mod writer;

use features::InputFeatures;
use format::*;
pub use forward::softmax;
use forward::*;
pub use writer::{encode, header_for, random_network_bytes, random_tensors, Header};

use crate::game::{Game, GameError};
use std::fmt;

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

impl Network {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, ActionList, Config};
    use crate::rng::SplitMix64;
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
    fn subnormal_weights_are_read_as_zero_and_change_no_result() {
        let header = Header {
            features: Some("needs".to_string()),
            ..header_for::<BaseState>(2, &[32, 16])
        };
        let normal = random_tensors(&header, 5);
        // Every third weight and bias of every tensor but the normalisation
        // made subnormal (as weight decay leaves them), and the same ones zero.
        let (mut tiny, mut zeroed) = (normal.clone(), normal.clone());
        for ((name, _, t), (_, _, z)) in tiny.iter_mut().zip(zeroed.iter_mut()) {
            if name.starts_with("input.") {
                continue;
            }
            for (k, (v, w)) in t.iter_mut().zip(z.iter_mut()).enumerate() {
                if k % 3 == 0 {
                    *v = if k % 2 == 0 { 1.0e-39 } else { -3.0e-42 };
                    *w = 0.0;
                }
            }
        }
        assert!(tiny[2].2.iter().any(|v| v.is_subnormal()));
        let tiny = Network::from_bytes(&encode(&header, &tiny)).expect("a network");
        let zeroed = Network::from_bytes(&encode(&header, &zeroed)).expect("a network");
        for layer in tiny.trunk.iter().chain([&tiny.policy, &tiny.value]) {
            assert!(
                !layer
                    .weight
                    .iter()
                    .chain(&layer.bias)
                    .any(|v| v.is_subnormal()),
                "a subnormal value was kept"
            );
        }
        let (obs, legal, ends) = positions(6);
        for net in [&tiny, &zeroed] {
            let mut priors = vec![0.0; legal.len()];
            let mut values = vec![0.0; 6 * 2];
            let mut scratch = net.batch_scratch(6);
            net.evaluate_legal_batch(&obs, &legal, &ends, &mut scratch, &mut priors, &mut values);
            let (want_p, want_v) = {
                let mut p = vec![0.0; legal.len()];
                let mut v = vec![0.0; 6 * 2];
                let mut s = zeroed.batch_scratch(6);
                zeroed.evaluate_legal_batch(&obs, &legal, &ends, &mut s, &mut p, &mut v);
                (p, v)
            };
            assert_eq!(priors, want_p);
            assert_eq!(values, want_v);
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
