//! The search's settings (`SearchConfig` and the policies it names) and its result.

use crate::game::{range_message, Action, GameError, Player};
use crate::nn::Network;
use crate::search::noise::RootNoise;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How rollouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RolloutPolicy {
    /// Uniform over the legal actions: the cheapest policy.
    Random,
    /// With probability `epsilon` a uniform move, otherwise the move whose
    /// child position has the best [`Game::heuristic`] for the mover. Much
    /// more expensive per move (one clone + apply per legal action).
    Greedy {
        /// Probability of a uniform move instead of the greedy one.
        epsilon: f32,
    },
    /// Move-average sampling (MAST): with probability `epsilon` a uniform
    /// move, otherwise the legal action id with the best average reward for
    /// the mover so far in this search (over every iteration it took part in,
    /// in the tree or in rollouts). Learns cheap, game-agnostic preferences
    /// ("buying beats reserving") at the cost of one table lookup per legal
    /// action.
    Mast {
        /// Probability of a uniform move instead of the best-average one.
        epsilon: f32,
    },
    /// With probability `epsilon` a uniform move, otherwise the variant's own
    /// cheap playout policy ([`Game::playout_action`]); MAST where the
    /// variant has none.
    Informed {
        /// Probability of a uniform move instead of the policy's.
        epsilon: f32,
    },
}

impl RolloutPolicy {
    /// Whether the search keeps the MAST table: MAST reads it, and Informed
    /// falls back to it where the variant has no playout policy
    /// (`has_playout`: [`Game::HAS_PLAYOUT_POLICY`](crate::game::Game::HAS_PLAYOUT_POLICY)).
    pub(super) fn uses_mast(self, has_playout: bool) -> bool {
        match self {
            RolloutPolicy::Mast { .. } => true,
            RolloutPolicy::Informed { .. } => !has_playout,
            _ => false,
        }
    }
}

/// How the tree policy ranks the children of a node. Rewards are in `[0, 1]`
/// and `c` is [`SearchConfig::exploration`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// UCB1 over availability counts: `mean + c * sqrt(ln(avail) / visits)`.
    /// Children are created one per iteration, in random order.
    Uct,
    /// PUCT with a heuristic prior, as in AlphaZero but with the variant's
    /// [`Game::heuristic`] in place of a policy network: on a node's second
    /// visit a child is created for every legal action, each with prior
    /// `P(a)`, a softmax over the one-ply heuristic of the position it leads
    /// to; a child then scores `mean + c * P(a) * sqrt(avail) / (1 + visits)`
    /// (an unvisited child counts the mean of its visited siblings). The
    /// budget goes first and deepest to the moves a greedy player would make,
    /// instead of evenly to every move, which at 1,000 iterations in the base
    /// game is the difference between checking a few moves two turns deep
    /// and sampling thirty moves once each.
    Puct {
        /// Softmax temperature in heuristic units (> 0); lower is greedier.
        /// One whose reciprocal overflows `f32` (below about 3e-39) is the
        /// limit: the prior is shared by the best moves alone.
        temperature: f64,
    },
}

/// How a rollout that reaches its depth cap is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutEval {
    /// Each player's reward is `heuristic(p)` as is.
    Heuristic,
    /// Each player's reward is `0.5 + (h_p - max_{q != p} h_q) / 2`: only the
    /// lead over the best opponent counts, which is what decides the game.
    Relative,
}

/// Everything a search needs besides the state.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Total iteration budget over all threads; 0 = no iteration limit (then a
    /// time limit is required).
    pub iterations: u64,
    /// Wall-time budget in seconds, if any. Both budgets may be set: the first
    /// one reached stops the search.
    pub time_limit: Option<f64>,
    /// Root-parallel trees (one per thread), merged at the root.
    pub threads: usize,
    /// Base seed; thread `t` uses a seed derived from it and `t`.
    pub seed: u64,
    /// UCT exploration constant (rewards are in `[0, 1]`).
    pub exploration: f64,
    /// First-play urgency reduction of PUCT (a finite number >= 0; unused by
    /// UCT). A child never visited is scored as if its mean were the mean of
    /// its visited siblings less `fpu_reduction * sqrt(m)`, `m` being the
    /// prior mass of those siblings: once the search has visited the moves
    /// the prior likes most, an untried one must look that much better to be
    /// tried, so a small budget goes deeper into good lines instead of
    /// sampling every move once (Leela Zero's rule; KataGo's is alike). 0:
    /// the siblings' mean as it is.
    pub fpu_reduction: f64,
    /// Temperature of the network's prior (a finite number > 0; unused
    /// without a network): the prior is a softmax of the policy logits
    /// divided by it. Above 1 it is flatter, so the search spends more of its
    /// budget checking the moves the network ranks below its favourite
    /// (Leela Chess Zero's policy softmax temperature). 1: the network's
    /// prior as trained.
    pub policy_temperature: f64,
    /// Node cap per tree; once reached the tree stops growing but the search
    /// goes on.
    pub max_nodes: usize,
    /// Rollout decisions before the evaluation cut.
    pub rollout_depth: u32,
    /// The rollout policy.
    pub rollout: RolloutPolicy,
    /// The evaluation at the cut.
    pub cut_eval: CutEval,
    /// How the tree picks among a node's children.
    pub selection: Selection,
    /// A policy/value network. With one, the search is AlphaZero's PUCT:
    /// a node is expanded on its first visit with the network's prior over
    /// the legal actions and the network's value is backed up, with no
    /// rollout (`selection`, `rollout`, `rollout_depth` and `cut_eval` are
    /// then unused). Compared by the file's SHA-256.
    pub network: Option<Arc<Network>>,
    /// Dirichlet noise on the root prior, for self-play exploration only;
    /// needs a prior (PUCT selection or a network).
    pub root_noise: Option<RootNoise>,
    /// Leaves evaluated per forward pass of the network (1 to 256; unused
    /// without a network). With 1 each iteration evaluates its own leaf, as
    /// AlphaZero does. With more, each tree selects up to this many leaves
    /// one after the other, each path taking a virtual loss (a visit worth
    /// 0 to its player) so the next selections spread out, evaluates them
    /// in one batched pass ([`Network::evaluate_legal_batch`]), then expands
    /// them and backs their values up in place of the virtual losses. A
    /// selection that reaches a leaf already in the batch ends the batch
    /// early and backs that leaf's value up along its own path too. Faster
    /// per iteration (the weights are read once per few leaves); the
    /// selections see slightly staler statistics.
    pub leaf_batch: usize,
    /// Search only this action at the root (it must be legal there): the
    /// whole budget goes to its subtree, so its value is as well estimated as
    /// that of a move the search prefers. A game review uses it for a move
    /// played that the full search hardly visited. `None`: every legal action.
    pub root_action: Option<Action>,
    /// How the move is chosen from the root's visits: 0 plays the most
    /// visited action; a temperature `T > 0` draws an action with probability
    /// proportional to `visits ^ (1 / T)`, from a stream seeded by `seed`
    /// (`choice.rs`): 1 in proportion to the visits, above 1 flatter. Only
    /// actions the search visited can be drawn. The AI levels play with it.
    pub move_temperature: f64,
    /// Stops a search with an iteration budget early, once its most visited
    /// root move leads the runner-up by more than `early_stop` times the
    /// iterations left (a finite number >= 0; read every 8 iterations, per
    /// tree). 0: never. 1: exactly when the runner-up could not catch up even
    /// with every iteration left, so the move is the full budget's (with one
    /// thread and `move_temperature` 0) in less time; below 1 sooner, on the
    /// bet that it would not get most of them (Leela Chess Zero's "smart
    /// pruning"). The visits returned are those of the shorter search. Unused
    /// with `root_action` and without an iteration budget.
    pub early_stop: f64,
}

/// Largest [`SearchConfig::leaf_batch`].
pub const MAX_LEAF_BATCH: usize = 256;

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            iterations: 1000,
            time_limit: None,
            threads: 1,
            seed: 0,
            exploration: 0.7,
            fpu_reduction: 0.0,
            policy_temperature: 1.0,
            max_nodes: 1 << 20,
            rollout_depth: 24,
            rollout: RolloutPolicy::Informed { epsilon: 0.3 },
            cut_eval: CutEval::Relative,
            selection: Selection::Puct { temperature: 0.02 },
            network: None,
            root_noise: None,
            leaf_batch: 1,
            root_action: None,
            move_temperature: 0.0,
            early_stop: 0.0,
        }
    }
}

impl SearchConfig {
    /// Checks every field; the message names the bad one.
    pub fn validate(&self) -> Result<(), GameError> {
        let bad = |m: String| Err(GameError::Config(m));
        if let Some(t) = self.time_limit {
            if !t.is_finite() || t < 0.0 {
                return bad(format!(
                    "time_limit must be a finite number of seconds >= 0, got {t}"
                ));
            }
        }
        if self.iterations == 0 && self.time_limit.is_none() {
            return bad("iterations must be positive when there is no time_limit".into());
        }
        if self.threads == 0 || self.threads > 256 {
            return bad(range_message("threads", 1, 256, self.threads));
        }
        if !self.exploration.is_finite() || self.exploration < 0.0 {
            return bad(format!(
                "exploration must be a finite number >= 0, got {}",
                self.exploration
            ));
        }
        if !self.fpu_reduction.is_finite() || self.fpu_reduction < 0.0 {
            return bad(format!(
                "fpu_reduction must be a finite number >= 0, got {}",
                self.fpu_reduction
            ));
        }
        // Checked in f32 too, where the network's logits are divided by it.
        let t = self.policy_temperature;
        if !t.is_finite() || t <= 0.0 || !(t as f32).is_normal() {
            return bad(format!(
                "policy_temperature must be a finite number > 0, got {t}"
            ));
        }
        if self.max_nodes < 2 || self.max_nodes > u32::MAX as usize / 2 {
            return bad(range_message(
                "max_nodes",
                2,
                u32::MAX as usize / 2,
                self.max_nodes,
            ));
        }
        if let Selection::Puct { temperature } = self.selection {
            if !temperature.is_finite() || temperature <= 0.0 {
                return bad(format!(
                    "prior_temperature must be a finite number > 0, got {temperature}"
                ));
            }
        }
        if let Some(RootNoise { alpha, epsilon }) = self.root_noise {
            if !alpha.is_finite() || alpha <= 0.0 {
                return bad(format!(
                    "noise_alpha must be a finite number > 0, got {alpha}"
                ));
            }
            if !(0.0..=1.0).contains(&epsilon) {
                return bad(format!(
                    "noise_epsilon must be between 0 and 1, got {epsilon}"
                ));
            }
            if self.network.is_none() && self.selection == Selection::Uct {
                return bad(
                    "root noise mixes into a prior: it needs PUCT selection or a network".into(),
                );
            }
        }
        if !self.move_temperature.is_finite() || self.move_temperature < 0.0 {
            return bad(format!(
                "move_temperature must be a finite number >= 0, got {}",
                self.move_temperature
            ));
        }
        if !self.early_stop.is_finite() || self.early_stop < 0.0 {
            return bad(format!(
                "early_stop must be a finite number >= 0, got {}",
                self.early_stop
            ));
        }
        if self.leaf_batch == 0 || self.leaf_batch > MAX_LEAF_BATCH {
            return bad(range_message(
                "leaf_batch",
                1,
                MAX_LEAF_BATCH,
                self.leaf_batch,
            ));
        }
        if let RolloutPolicy::Greedy { epsilon }
        | RolloutPolicy::Mast { epsilon }
        | RolloutPolicy::Informed { epsilon } = self.rollout
        {
            if !(0.0..=1.0).contains(&epsilon) {
                return bad(range_message("rollout epsilon", 0, 1, epsilon));
            }
        }
        Ok(())
    }

    pub(super) fn deadline(&self, start: Instant) -> Option<Instant> {
        // validate() made the value finite and >= 0; try_from still guards
        // against values too large for a Duration.
        self.time_limit.map(|t| {
            Duration::try_from_secs_f64(t)
                .ok()
                .and_then(|d| start.checked_add(d))
                .unwrap_or(start + Duration::from_secs(86_400 * 365))
        })
    }
}

/// Root statistics of one action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats {
    /// The action.
    pub action: Action,
    /// Visits summed over the threads' trees.
    pub visits: u64,
    /// Mean reward for the player to move (0 when never visited).
    pub value: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited action (ties: higher mean value, then lower id), or
    /// with [`SearchConfig::move_temperature`] the action drawn by visits.
    pub action: Action,
    /// Root statistics, ascending by action id.
    pub stats: Vec<ActionStats>,
    /// Iterations run over all threads.
    pub iterations: u64,
    /// Nodes in all trees together.
    pub nodes: u64,
    /// The expected line of each action of `stats` (same order): the action,
    /// by the player to move, then the most visited child, its most visited
    /// child and so on, as `(player, action)`, at most [`MAX_LINE`] decisions
    /// (with several threads: the line of the tree that visited the action
    /// most). It is read from the tree the mover's determinizations grew, so
    /// it holds nothing the mover could not see.
    pub lines: Vec<Line>,
}

/// An expected line of play: `(player, action)` decisions in order.
pub type Line = Vec<(Player, Action)>;

/// Most decisions in a [`SearchResult::lines`] entry.
pub const MAX_LINE: usize = 8;

impl SearchResult {
    /// `(action, visits)` pairs, ascending by id.
    pub fn visits(&self) -> Vec<(Action, u64)> {
        self.stats.iter().map(|s| (s.action, s.visits)).collect()
    }
    /// `(action, mean value)` pairs, ascending by id.
    pub fn values(&self) -> Vec<(Action, f64)> {
        self.stats.iter().map(|s| (s.action, s.value)).collect()
    }
    /// The principal variation: the expected line of the chosen action
    /// (see [`lines`](Self::lines)).
    pub fn principal_variation(&self) -> &[(Player, Action)] {
        self.stats
            .iter()
            .position(|s| s.action == self.action)
            .map_or(&[], |k| self.lines[k].as_slice())
    }
}
