//! Information-set MCTS with determinization, generic over [`Game`].
//!
//! Single-observer ISMCTS ("ISMCTS-SO", Cowling, Powley & Whitehouse 2012):
//! every iteration deals a fresh determinization of the root state from the
//! point of view of the player to move, so the search only ever sees what that
//! player could know; all determinizations share one tree keyed by action id.
//! A child is only selectable when its action is legal in the current
//! determinization, and UCB uses the child's *availability* count (how often it
//! was selectable) instead of the parent's visit count.
//!
//! Each node's statistics are from the point of view of the player who chose the
//! action leading to it, so the same code is max^n-style UCT for 2–4 players.
//! Rewards are `Outcome::returns()` at a terminal state, or a heuristic
//! evaluation (see [`CutEval`]) when a rollout reaches its depth cap.

use super::choice::draw_by_visits;
use super::noise::{dirichlet, RootNoise};
use crate::cancel::{Cancel, NEVER};
use crate::game::{range_message, Action, ActionList, Game, GameError, Player, MAX_PLAYERS};
use crate::nn::{BatchScratch, Network, Scratch};
use crate::rng::SplitMix64;
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
    /// falls back to it where the variant has no playout policy.
    fn uses_mast(self) -> bool {
        matches!(
            self,
            RolloutPolicy::Mast { .. } | RolloutPolicy::Informed { .. }
        )
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

    fn deadline(&self, start: Instant) -> Option<Instant> {
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

const NONE: u32 = u32::MAX;

/// One tree node. Children form a singly linked list through `next_sibling`
/// so the whole tree lives in one `Vec` with no per-node allocation.
#[derive(Clone, Copy)]
struct Node {
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Iterations in which this node's action was legal at its parent.
    avail: u32,
    /// Sum of rewards of `player`.
    value: f64,
    /// Prior probability of `action` at the parent ([`Selection::Puct`]).
    prior: f32,
    action: Action,
    /// The player who chose `action`.
    player: Player,
}

impl Node {
    fn new(action: Action, player: Player) -> Self {
        Self {
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            value: 0.0,
            prior: 0.0,
            action,
            player,
        }
    }
}

/// One tree and its scratch buffers (reused across iterations).
struct Tree<G: Game> {
    nodes: Vec<Node>,
    path: Vec<u32>,
    /// Bitset over action ids: the legal actions of the current node that
    /// have no child yet.
    untried: Vec<u64>,
    legal: ActionList,
    rng: SplitMix64,
    /// MAST table: `(reward sum, count)` per `(player, action id)`.
    mast: Vec<(f32, u32)>,
    /// `(player, action)` of every rollout move of this iteration.
    trace: Vec<(Player, Action)>,
    /// Network buffers: present when the search has a network.
    eval: Option<NetworkBuffers>,
    /// Leaf-batch buffers: present when the search has a network and a
    /// `leaf_batch` above 1.
    batch: Option<Box<LeafBatch>>,
    _game: std::marker::PhantomData<G>,
}

/// A leaf selected for the next batched evaluation.
struct Pending {
    /// The leaf; [`NONE`] for a node evaluated without being expanded (the
    /// node cap stopped the growth), which no later selection can match.
    node: u32,
    mover: Player,
    /// Its path from the root: `LeafBatch::paths[path.0..path.1]`.
    path: (usize, usize),
}

/// What a tree needs to evaluate up to `leaf_batch` leaves at once without
/// allocating (each buffer is sized for a full batch up front).
struct LeafBatch {
    /// The movers' observations of the pending leaves, one after the other.
    observations: Vec<f32>,
    /// Their legal actions, one list after the other ...
    legal: Vec<Action>,
    /// ... list `k` ending at `legal_ends[k]`.
    legal_ends: Vec<usize>,
    priors: Vec<f32>,
    values: Vec<f32>,
    scratch: BatchScratch,
    pending: Vec<Pending>,
    /// Paths that reached a pending leaf: `(its index in pending, path)`.
    repeats: Vec<(usize, (usize, usize))>,
    paths: Vec<u32>,
}

/// What a tree needs to evaluate its network without allocating.
struct NetworkBuffers {
    scratch: Scratch,
    observation: Vec<f32>,
    prior: Vec<f32>,
    value: Vec<f32>,
}

/// Where [`Tree::descend`] stopped.
enum Descent {
    /// At `node`, never expanded, with `mover` to play (network search
    /// only); `room`: whether the node cap leaves room for its children.
    Leaf {
        node: u32,
        mover: Player,
        room: bool,
    },
    /// Anywhere else: the game ended, the node cap stopped the growth, or
    /// (without a network) a rollout starts here.
    Stopped,
}

/// Creates a child of `node` for every action of `legal`, with the prior
/// the network gave it (`prior[k]` for `legal[k]`).
fn add_children(nodes: &mut Vec<Node>, node: u32, mover: Player, legal: &[Action], prior: &[f32]) {
    for (&a, &p) in legal.iter().zip(prior) {
        let mut child = Node::new(a, mover);
        child.prior = p;
        child.next_sibling = nodes[node as usize].first_child;
        nodes[node as usize].first_child = nodes.len() as u32;
        nodes.push(child);
    }
}

impl<G: Game> Tree<G> {
    /// The most visited line below `node`: its most visited child (ties: the
    /// first in the list, which is deterministic), that child's, and so on,
    /// while a child was visited, at most [`MAX_LINE`]` - 1` decisions.
    fn line_below(&self, mut node: u32) -> Line {
        let mut line = Vec::new();
        while line.len() + 1 < MAX_LINE {
            let (mut best, mut most) = (NONE, 0);
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let ch = &self.nodes[c as usize];
                if ch.visits > most {
                    (best, most) = (c, ch.visits);
                }
                c = ch.next_sibling;
            }
            if best == NONE {
                break;
            }
            let ch = &self.nodes[best as usize];
            line.push((ch.player, ch.action));
            node = best;
        }
        line
    }

    fn new(seed: u64, capacity: usize, network: Option<&Network>, leaf_batch: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity);
        nodes.push(Node::new(Action(0), 0));
        Self {
            nodes,
            path: Vec::with_capacity(64),
            untried: vec![0; G::NUM_ACTIONS.div_ceil(64)],
            legal: ActionList::new(),
            rng: SplitMix64::new(seed),
            mast: Vec::new(),
            trace: Vec::with_capacity(64),
            eval: network.map(|net| NetworkBuffers {
                scratch: net.scratch(),
                observation: vec![0.0; G::OBSERVATION_SIZE],
                prior: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
                value: vec![0.0; net.players()],
            }),
            batch: network.filter(|_| leaf_batch > 1).map(|net| {
                Box::new(LeafBatch {
                    observations: vec![0.0; leaf_batch * G::OBSERVATION_SIZE],
                    legal: Vec::with_capacity(leaf_batch * crate::game::MAX_LEGAL_ACTIONS),
                    legal_ends: Vec::with_capacity(leaf_batch),
                    priors: Vec::with_capacity(leaf_batch * crate::game::MAX_LEGAL_ACTIONS),
                    values: Vec::with_capacity(leaf_batch * net.players()),
                    scratch: net.batch_scratch(leaf_batch),
                    pending: Vec::with_capacity(leaf_batch),
                    repeats: Vec::with_capacity(1),
                    paths: Vec::with_capacity(leaf_batch * 64),
                })
            }),
            _game: std::marker::PhantomData,
        }
    }

    /// One iteration: determinize, select, expand, roll out, back up.
    fn iterate(&mut self, root: &G, observer: Player, cfg: &SearchConfig) {
        let mut state = root.determinize(observer, &mut self.rng);
        let network = cfg.network.as_deref();
        // The network's value at the leaf, when this iteration evaluated one.
        let mut leaf_value = None;
        if let Descent::Leaf { node, mover, room } = self.descend(&mut state, cfg, 0) {
            // AlphaZero: a leaf is expanded on its first visit with the
            // network's prior, and its value is backed up.
            let net = network.expect("only a search with a network stops at a leaf");
            let value = self.evaluate_network(net, &state, mover);
            if room {
                let buf = self.eval.as_ref().expect("network buffers");
                add_children(
                    &mut self.nodes,
                    node,
                    mover,
                    self.legal.as_slice(),
                    &buf.prior,
                );
                self.add_root_noise(node, cfg, self.legal.len());
            }
            leaf_value = Some(value);
        }
        let rewards = match (leaf_value, network) {
            (Some(v), _) => v,
            (None, None) => self.rollout(&mut state, cfg),
            (None, Some(net)) => match (state.outcome(), state.current_player()) {
                (Some(o), _) => o.returns().map(|r| r as f32),
                // The node cap stopped the growth: evaluate without expanding.
                (None, Some(mover)) => self.evaluate_network(net, &state, mover),
                (None, None) => [0.0; MAX_PLAYERS],
            },
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += rewards[n.player as usize] as f64;
        }
        if network.is_none() && cfg.rollout.uses_mast() {
            // The root (path[0]) carries no action.
            for &i in &self.path[1..] {
                let n = self.nodes[i as usize];
                let e = &mut self.mast[n.player as usize * G::NUM_ACTIONS + n.action.index()];
                e.0 += rewards[n.player as usize];
                e.1 += 1;
            }
            for &(p, a) in &self.trace {
                let e = &mut self.mast[p as usize * G::NUM_ACTIONS + a.index()];
                e.0 += rewards[p as usize];
                e.1 += 1;
            }
        }
    }

    /// Adds `rewards` (per seat) to the nodes of `path`; `visit` adds the
    /// visit too (a path without a virtual loss).
    fn back_up(nodes: &mut [Node], path: &[u32], rewards: &[f32; MAX_PLAYERS], visit: bool) {
        for &i in path {
            let n = &mut nodes[i as usize];
            n.visits += u32::from(visit);
            n.value += rewards[n.player as usize] as f64;
        }
    }

    /// Up to `want` (at least 1) iterations with one batched evaluation
    /// (see [`SearchConfig::leaf_batch`]); returns how many ran. Each
    /// selection is one iteration: a terminal one is backed up at once, the
    /// others after the evaluation.
    fn iterate_batch(
        &mut self,
        root: &G,
        observer: Player,
        cfg: &SearchConfig,
        net: &Network,
        want: u64,
    ) -> u64 {
        let mut lb = self.batch.take().expect("leaf-batch buffers");
        lb.legal.clear();
        lb.legal_ends.clear();
        lb.pending.clear();
        lb.repeats.clear();
        lb.paths.clear();
        let obs_size = G::OBSERVATION_SIZE;
        // Children of the pending leaves, counted against the node cap
        // before they exist.
        let mut reserved = 0;
        let mut done = 0u64;
        while done < want {
            let mut state = root.determinize(observer, &mut self.rng);
            let (node, mover, expand) = match self.descend(&mut state, cfg, reserved) {
                Descent::Leaf { node, mover, room } => (node, mover, room),
                Descent::Stopped => match (state.outcome(), state.current_player()) {
                    (None, Some(mover)) => (NONE, mover, false),
                    (outcome, _) => {
                        let rewards =
                            outcome.map_or([0.0; MAX_PLAYERS], |o| o.returns().map(|r| r as f32));
                        Self::back_up(&mut self.nodes, &self.path, &rewards, true);
                        done += 1;
                        continue;
                    }
                },
            };
            done += 1;
            let from = lb.paths.len();
            lb.paths.extend_from_slice(&self.path);
            let path = (from, lb.paths.len());
            if let Some(k) = lb
                .pending
                .iter()
                .position(|p| p.node == node && node != NONE)
            {
                // The virtual losses led back to a leaf already in the
                // batch: the tree is too small for more distinct leaves now.
                lb.repeats.push((k, path));
                break;
            }
            let k = lb.pending.len();
            state.observation(
                mover,
                &mut lb.observations[k * obs_size..(k + 1) * obs_size],
            );
            if expand {
                lb.legal.extend_from_slice(self.legal.as_slice());
                reserved += self.legal.len();
            }
            // A leaf that is not expanded needs its value only.
            lb.legal_ends.push(lb.legal.len());
            lb.pending.push(Pending {
                node: if expand { node } else { NONE },
                mover,
                path,
            });
            // The virtual loss: a visit now, its reward at the back-up.
            for &i in &self.path {
                self.nodes[i as usize].visits += 1;
            }
        }
        let batch = lb.pending.len();
        if batch > 0 {
            let players = net.players();
            lb.priors.clear();
            lb.priors.resize(lb.legal.len(), 0.0);
            lb.values.clear();
            lb.values.resize(batch * players, 0.0);
            net.evaluate_legal_batch(
                &lb.observations[..batch * obs_size],
                &lb.legal,
                &lb.legal_ends,
                &mut lb.scratch,
                &mut lb.priors,
                &mut lb.values,
            );
        }
        let rewards_of = |lb: &LeafBatch, k: usize| {
            let players = net.players();
            let mover = lb.pending[k].mover as usize;
            let value = &lb.values[k * players..(k + 1) * players];
            let mut out = [0.0; MAX_PLAYERS];
            for (p, slot) in out.iter_mut().enumerate().take(players) {
                *slot = value[(p + players - mover) % players];
            }
            out
        };
        let mut start = 0;
        for k in 0..batch {
            let p = &lb.pending[k];
            let end = lb.legal_ends[k];
            if p.node != NONE {
                let (legal, prior) = (&lb.legal[start..end], &lb.priors[start..end]);
                add_children(&mut self.nodes, p.node, p.mover, legal, prior);
                self.add_root_noise(p.node, cfg, end - start);
            }
            start = end;
            let rewards = rewards_of(&lb, k);
            let (a, b) = lb.pending[k].path;
            Self::back_up(&mut self.nodes, &lb.paths[a..b], &rewards, false);
        }
        for &(k, (a, b)) in &lb.repeats {
            let rewards = rewards_of(&lb, k);
            Self::back_up(&mut self.nodes, &lb.paths[a..b], &rewards, true);
        }
        self.batch = Some(lb);
        done
    }

    /// The selection of one iteration on the determinization `state`: walks
    /// down from the root (the path in `self.path`, `state` moved along),
    /// creating children as the selection rule asks. With a network it stops
    /// at the first node never expanded ([`Descent::Leaf`], `self.legal`
    /// then holds its legal actions); otherwise, or when the game ends or the
    /// node cap stops the growth, it returns [`Descent::Stopped`]. `reserved`
    /// nodes count as made already (children of leaves pending in a batch).
    fn descend(&mut self, state: &mut G, cfg: &SearchConfig, reserved: usize) -> Descent {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let network = cfg.network.as_deref();
        let (puct, temperature) = match cfg.selection {
            _ if network.is_some() => (true, 0.0),
            Selection::Uct => (false, 0.0),
            Selection::Puct { temperature } => (true, temperature),
        };
        while let Some(mover) = state.current_player() {
            state.legal_actions(&mut self.legal);
            if self.legal.is_empty() {
                // A non-terminal state with no legal action breaks the
                // contract; score it as it stands instead of looping.
                break;
            }
            let fresh = self.nodes[node as usize].first_child == NONE;
            let room = self.nodes.len() + reserved + self.legal.len() <= cfg.max_nodes;
            if network.is_some() && fresh {
                return Descent::Leaf { node, mover, room };
            }
            if puct && fresh && (node == 0 || self.nodes[node as usize].visits > 0) && room {
                self.expand_all(node, state, mover, temperature);
                self.add_root_noise(node, cfg, self.legal.len());
            }
            // At the root, a search of one action (`root_action`) leaves
            // the others out of the candidates: never tried, never chosen.
            let only = cfg.root_action.filter(|_| node == 0);
            for a in self.legal.as_slice() {
                if only.is_none_or(|f| f == *a) {
                    self.untried[a.index() >> 6] |= 1 << (a.index() & 63);
                }
            }
            // Scan the children: count availability, find the best score
            // among those legal here, and strike them from `untried`.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut tried = 0usize;
            // First-play urgency of a PUCT child never visited: the mean of
            // its visited siblings (a neutral 0.5 when there are none).
            let fpu = if puct {
                self.sibling_mean(node, mover)
            } else {
                0.0
            };
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let ch = &mut self.nodes[c as usize];
                let i = ch.action.index();
                let bit = 1u64 << (i & 63);
                // A child only matches when its player is the one to move:
                // in some variants who decides next can depend on a card
                // drawn, so the same action path can reach different movers
                // in different determinizations.
                if self.untried[i >> 6] & bit != 0 && ch.player == mover {
                    self.untried[i >> 6] ^= bit;
                    tried += 1;
                    ch.avail += 1;
                    let score = if puct {
                        let q = if ch.visits > 0 {
                            ch.value / ch.visits as f64
                        } else {
                            fpu
                        };
                        q + cfg.exploration * f64::from(ch.prior) * (ch.avail as f64).sqrt()
                            / (1.0 + ch.visits as f64)
                    } else {
                        let v = ch.visits.max(1) as f64;
                        ch.value / v + cfg.exploration * ((ch.avail as f64).ln() / v).sqrt()
                    };
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = ch.next_sibling;
            }
            let n_untried = if only.is_some() { 1 } else { self.legal.len() } - tried;
            let mut expand = None;
            if n_untried > 0 && self.nodes.len() + reserved < cfg.max_nodes {
                let mut k = self.rng.below(n_untried as u64) as usize;
                for &a in self.legal.as_slice() {
                    if self.untried[a.index() >> 6] & (1 << (a.index() & 63)) != 0 {
                        if k == 0 {
                            expand = Some(a);
                            break;
                        }
                        k -= 1;
                    }
                }
            }
            for a in self.legal.as_slice() {
                self.untried[a.index() >> 6] = 0;
            }
            // With PUCT every legal action already has a child, except those
            // legal only in some determinizations: such an action competes
            // as an unvisited child with a uniform prior.
            let uniform = 1.0 / self.legal.len() as f64;
            if let Some(a) =
                expand.filter(|_| !puct || fpu + cfg.exploration * uniform > best_score)
            {
                let idx = self.nodes.len() as u32;
                let mut child = Node::new(a, mover);
                child.avail = 1;
                child.prior = uniform as f32;
                child.next_sibling = self.nodes[node as usize].first_child;
                self.nodes[node as usize].first_child = idx;
                self.nodes.push(child);
                state.apply_unchecked(a);
                self.path.push(idx);
                if network.is_some() {
                    // The new child is a leaf: the network evaluates it on
                    // the next turn of the loop.
                    node = idx;
                    continue;
                }
                break;
            }
            if best == NONE {
                // Node cap reached and no child is legal here: roll out (or
                // evaluate with the network, below).
                break;
            }
            state.apply_unchecked(self.nodes[best as usize].action);
            self.path.push(best);
            if self.nodes[best as usize].visits == 0 && network.is_none() {
                // A PUCT leaf: roll out from it.
                break;
            }
            node = best;
        }
        Descent::Stopped
    }

    /// Evaluates the network on `mover`'s observation of `state` (the
    /// determinization: it holds nothing `mover`'s root player could not
    /// see); leaves the prior over `self.legal` in the buffers and returns
    /// the value per seat (seat `p` gets `value[(p - mover) mod P]`).
    fn evaluate_network(&mut self, net: &Network, state: &G, mover: Player) -> [f32; MAX_PLAYERS] {
        let buf = self
            .eval
            .as_mut()
            .expect("a tree of a search with a network has its buffers");
        state.observation(mover, &mut buf.observation);
        buf.prior.clear();
        buf.prior.resize(self.legal.len(), 0.0);
        net.evaluate_legal(
            &buf.observation,
            &mut buf.scratch,
            self.legal.as_slice(),
            &mut buf.prior,
            &mut buf.value,
        );
        let players = buf.value.len();
        let mut out = [0.0; MAX_PLAYERS];
        for (p, slot) in out.iter_mut().enumerate().take(players) {
            *slot = buf.value[(p + players - mover as usize) % players];
        }
        out
    }

    /// Mixes Dirichlet noise into the priors of the root's children (just
    /// created) when the search asks for it.
    /// `n` is the number of children (the root's legal actions).
    fn add_root_noise(&mut self, node: u32, cfg: &SearchConfig, n: usize) {
        let Some(RootNoise { alpha, epsilon }) = cfg.root_noise.filter(|_| node == 0) else {
            return;
        };
        let mut eta = [0.0f64; crate::game::MAX_LEGAL_ACTIONS];
        dirichlet(&mut self.rng, alpha, &mut eta[..n]);
        let mut c = self.nodes[0].first_child;
        let mut k = 0;
        while c != NONE {
            let ch = &mut self.nodes[c as usize];
            ch.prior = ((1.0 - epsilon) * f64::from(ch.prior) + epsilon * eta[k]) as f32;
            k += 1;
            c = ch.next_sibling;
        }
    }

    /// Creates a child of `node` for every legal action (in `self.legal`),
    /// each with its prior: a softmax over the heuristic of the position it
    /// leads to, for `mover`.
    fn expand_all(&mut self, node: u32, state: &G, mover: Player, temperature: f64) {
        let first = self.nodes.len();
        let mut top = f32::NEG_INFINITY;
        for &a in self.legal.as_slice() {
            let h = one_ply_value(state, a, mover);
            top = top.max(h);
            let mut child = Node::new(a, mover);
            child.prior = h;
            child.next_sibling = self.nodes[node as usize].first_child;
            self.nodes[node as usize].first_child = self.nodes.len() as u32;
            self.nodes.push(child);
        }
        let inv_t = (1.0 / temperature) as f32;
        let mut sum = 0.0f32;
        for n in &mut self.nodes[first..] {
            n.prior = if inv_t.is_finite() {
                ((n.prior - top) * inv_t).exp()
            } else {
                // A temperature so small that its reciprocal overflows (e.g.
                // 1e-320) is the softmax's limit: all the mass on the best
                // moves, where `0 * inf` would give NaN priors.
                f32::from(n.prior == top)
            };
            sum += n.prior;
        }
        for n in &mut self.nodes[first..] {
            n.prior /= sum;
        }
    }

    /// Mean reward of the visited children of `node` that `mover` chose.
    fn sibling_mean(&self, node: u32, mover: Player) -> f64 {
        let (mut value, mut visits) = (0.0, 0u64);
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let ch = &self.nodes[c as usize];
            if ch.player == mover {
                value += ch.value;
                visits += u64::from(ch.visits);
            }
            c = ch.next_sibling;
        }
        if visits == 0 {
            0.5
        } else {
            value / visits as f64
        }
    }

    fn rollout(&mut self, state: &mut G, cfg: &SearchConfig) -> [f32; MAX_PLAYERS] {
        let mut depth = 0;
        self.trace.clear();
        if cfg.rollout.uses_mast() && self.mast.is_empty() {
            self.mast = vec![(0.0, 0); MAX_PLAYERS * G::NUM_ACTIONS];
        }
        while depth < cfg.rollout_depth {
            let Some(mover) = state.current_player() else {
                break;
            };
            state.legal_actions(&mut self.legal);
            let n = self.legal.len();
            if n == 0 {
                break;
            }
            let a = match cfg.rollout {
                RolloutPolicy::Random => self.legal.as_slice()[self.rng.below(n as u64) as usize],
                RolloutPolicy::Greedy { epsilon } => {
                    if n == 1 || self.rng.next_f64() < epsilon as f64 {
                        self.legal.as_slice()[self.rng.below(n as u64) as usize]
                    } else {
                        greedy_choice(state, mover, self.legal.as_slice(), &mut self.rng)
                    }
                }
                RolloutPolicy::Mast { epsilon } | RolloutPolicy::Informed { epsilon } => {
                    let informed = matches!(cfg.rollout, RolloutPolicy::Informed { .. });
                    let a = if n == 1 || self.rng.next_f64() < epsilon as f64 {
                        self.legal.as_slice()[self.rng.below(n as u64) as usize]
                    } else if let Some(a) = informed
                        .then(|| state.playout_action(self.legal.as_slice(), &mut self.rng))
                        .flatten()
                    {
                        a
                    } else {
                        self.mast_choice(mover)
                    };
                    self.trace.push((mover, a));
                    a
                }
            };
            state.apply_unchecked(a);
            depth += 1;
        }
        evaluate(state, cfg.cut_eval)
    }
}

impl<G: Game> Tree<G> {
    /// The action of `self.legal` with the best MAST average for `mover`
    /// (unseen actions count as 0.5, a neutral reward); ties uniformly.
    fn mast_choice(&mut self, mover: Player) -> Action {
        let base = mover as usize * G::NUM_ACTIONS;
        let mut best = self.legal.as_slice()[0];
        let mut best_v = f32::NEG_INFINITY;
        let mut ties = 0u64;
        for &a in self.legal.as_slice() {
            let (sum, n) = self.mast[base + a.index()];
            let v = if n == 0 { 0.5 } else { sum / n as f32 };
            if v > best_v {
                best_v = v;
                best = a;
                ties = 1;
            } else if v == best_v {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best = a;
                }
            }
        }
        best
    }
}

/// The value for `mover` of the position `a` leads to: its return if that
/// ends the game, else the heuristic.
fn one_ply_value<G: Game>(state: &G, a: Action, mover: Player) -> f32 {
    let mut child = state.clone();
    child.apply_unchecked(a);
    match child.outcome() {
        // The search works in f32: 1/k rounds to the nearest f32 as before.
        Some(o) => o.returns()[mover as usize] as f32,
        None => child.heuristic(mover),
    }
}

/// The legal action whose child is best for `mover` by the heuristic; ties
/// broken uniformly by `rng` (reservoir sampling, so one pass).
pub(crate) fn greedy_choice<G: Game>(
    state: &G,
    mover: Player,
    legal: &[Action],
    rng: &mut SplitMix64,
) -> Action {
    let mut best = legal[0];
    let mut best_h = f32::NEG_INFINITY;
    let mut ties = 0u64;
    for &a in legal {
        let h = one_ply_value(state, a, mover);
        if h > best_h {
            best_h = h;
            best = a;
            ties = 1;
        } else if h == best_h {
            ties += 1;
            if rng.below(ties) == 0 {
                best = a;
            }
        }
    }
    best
}

/// Rewards of every player: the returns when terminal, else the cut evaluation.
fn evaluate<G: Game>(state: &G, cut: CutEval) -> [f32; MAX_PLAYERS] {
    if let Some(o) = state.outcome() {
        return o.returns().map(|r| r as f32);
    }
    let n = state.num_players().min(MAX_PLAYERS);
    let mut h = [0.0f32; MAX_PLAYERS];
    for (p, slot) in h.iter_mut().enumerate().take(n) {
        *slot = state.heuristic(p as Player).clamp(0.0, 1.0);
    }
    match cut {
        CutEval::Heuristic => h,
        CutEval::Relative => {
            let mut r = [0.0f32; MAX_PLAYERS];
            for p in 0..n {
                let best_other = (0..n)
                    .filter(|&q| q != p)
                    .map(|q| h[q])
                    .fold(0.0f32, f32::max);
                r[p] = (0.5 + (h[p] - best_other) * 0.5).clamp(0.0, 1.0);
            }
            r
        }
    }
}

/// Derives thread `t`'s seed from the base seed (independent streams).
fn thread_seed(seed: u64, t: usize) -> u64 {
    SplitMix64::new(seed ^ (t as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

struct TreeOutcome {
    /// Each root child: its action, visits, value sum and expected line
    /// below it (see [`Tree::line_below`]).
    root: Vec<(Action, u64, f64, Line)>,
    iterations: u64,
    nodes: u64,
}

/// Nodes allocated up front per tree; a larger tree grows as it needs (a
/// huge budget must not reserve memory it may never use).
const INITIAL_NODES: usize = 1 << 16;

fn run_tree<G: Game>(
    state: &G,
    observer: Player,
    cfg: &SearchConfig,
    seed: u64,
    budget: u64,
    deadline: Option<Instant>,
    cancel: &Cancel,
) -> TreeOutcome {
    let capacity = if budget > 0 {
        (budget as usize).saturating_add(1).min(cfg.max_nodes)
    } else {
        cfg.max_nodes
    }
    .min(INITIAL_NODES);
    let mut tree = Tree::<G>::new(seed, capacity, cfg.network.as_deref(), cfg.leaf_batch);
    let mut done = 0u64;
    // Iterations when the stop token and the clock are next read.
    let mut next_check = 8;
    loop {
        match cfg.network.as_deref().filter(|_| cfg.leaf_batch > 1) {
            Some(net) => {
                let left = if budget > 0 { budget - done } else { u64::MAX };
                let want = left.min(cfg.leaf_batch as u64);
                done += tree.iterate_batch(state, observer, cfg, net, want);
            }
            None => {
                tree.iterate(state, observer, cfg);
                done += 1;
            }
        }
        if budget > 0 && done >= budget {
            break;
        }
        // The stop token and the clock are read every 8 iterations (with
        // leaf batches, after the first batch that passes a multiple of 8):
        // cheap, and an iteration is far below a millisecond, so a deadline
        // or a stop request is still met closely.
        if done >= next_check {
            next_check = done + 8 - done % 8;
            if cancel.poll() {
                break;
            }
            if let Some(d) = deadline {
                if Instant::now() >= d {
                    break;
                }
            }
        }
    }
    let mut root = Vec::new();
    let mut c = tree.nodes[0].first_child;
    while c != NONE {
        let n = &tree.nodes[c as usize];
        root.push((n.action, n.visits as u64, n.value, tree.line_below(c)));
        c = n.next_sibling;
    }
    TreeOutcome {
        root,
        iterations: done,
        nodes: tree.nodes.len() as u64,
    }
}

/// Searches `state` for the player to move.
///
/// Reproducible: the same state (or one differing only in what the player to
/// move cannot see), seed, thread count and iteration budget give the same
/// result, unless a time limit stops the search first.
///
/// Errors (`GameError::Config`): a finished game, or an invalid config (see
/// [`SearchConfig::validate`]).
pub fn search<G: Game>(state: &G, cfg: &SearchConfig) -> Result<SearchResult, GameError> {
    search_cancellable(state, cfg, &NEVER)
}

/// [`search`] that also stops, in every thread, within a few iterations of
/// `cancel` being set, like a time limit reached: the result is that of the
/// iterations run so far (at least one per thread), still a legal choice.
/// The caller, who set the token, decides whether to use it.
pub fn search_cancellable<G: Game>(
    state: &G,
    cfg: &SearchConfig,
    cancel: &Cancel,
) -> Result<SearchResult, GameError> {
    cfg.validate()?;
    let Some(observer) = state.current_player() else {
        return Err(GameError::Config(
            "cannot search a finished game: the state is terminal".into(),
        ));
    };
    if let Some(a) = cfg.root_action {
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        if !legal.as_slice().contains(&a) {
            return Err(GameError::IllegalAction(format!(
                "root_action {} is not legal in this state",
                G::action_text(a)
            )));
        }
    }
    if let Some(net) = &cfg.network {
        net.check_game::<G>(state.num_players())?;
    }
    let start = Instant::now();
    let deadline = cfg.deadline(start);
    let threads = cfg.threads;
    let budget = |t: usize| -> Option<u64> {
        if cfg.iterations == 0 {
            return Some(0);
        }
        let base = cfg.iterations / threads as u64;
        let b = base + u64::from((t as u64) < cfg.iterations % threads as u64);
        // A thread with an empty share is not started at all.
        (b > 0).then_some(b)
    };
    let outcomes: Vec<TreeOutcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads)
            .filter_map(|t| {
                let b = budget(t)?;
                Some(s.spawn(move || {
                    run_tree(
                        state,
                        observer,
                        cfg,
                        thread_seed(cfg.seed, t),
                        b,
                        deadline,
                        cancel,
                    )
                }))
            })
            .collect();
        // The calling thread grows tree 0 itself: one thread fewer to start,
        // and the thread that made `cancel` is the one that may watch it.
        // Thread 0 always has a share of the budget.
        let mut outcomes = Vec::with_capacity(threads);
        if let Some(b) = budget(0) {
            outcomes.push(run_tree(
                state,
                observer,
                cfg,
                thread_seed(cfg.seed, 0),
                b,
                deadline,
                cancel,
            ));
        }
        for h in handles {
            match h.join() {
                Ok(o) => outcomes.push(o),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        outcomes
    });
    let mut result = merge(state, outcomes)?;
    if cfg.move_temperature > 0.0 {
        result.action =
            draw_by_visits(&result.stats, cfg.move_temperature, cfg.seed, result.action);
    }
    Ok(result)
}

fn merge<G: Game>(state: &G, outcomes: Vec<TreeOutcome>) -> Result<SearchResult, GameError> {
    let mut visits = vec![0u64; G::NUM_ACTIONS];
    let mut values = vec![0f64; G::NUM_ACTIONS];
    // Each action's line: that of the tree that visited it most (the first
    // such tree on a tie), with those visits.
    let mut below: Vec<(u64, &[(Player, Action)])> = vec![(0, &[]); G::NUM_ACTIONS];
    let mut iterations = 0;
    let mut nodes = 0;
    for o in &outcomes {
        iterations += o.iterations;
        nodes += o.nodes;
        for (a, v, s, line) in &o.root {
            if a.index() < G::NUM_ACTIONS {
                visits[a.index()] += v;
                values[a.index()] += s;
                if *v > below[a.index()].0 {
                    below[a.index()] = (*v, line);
                }
            }
        }
    }
    // The statistics list the actions legal in the real state: the legal list
    // of the player to move depends only on what that player sees, so this
    // reads nothing hidden.
    let mut legal = ActionList::new();
    state.legal_actions(&mut legal);
    let stats: Vec<ActionStats> = legal
        .as_slice()
        .iter()
        .map(|&a| {
            let v = visits[a.index()];
            ActionStats {
                action: a,
                visits: v,
                value: if v > 0 {
                    values[a.index()] / v as f64
                } else {
                    0.0
                },
            }
        })
        .collect();
    let Some(&first) = stats.first() else {
        return Err(GameError::InvalidState(
            "the state is not terminal but has no legal action".into(),
        ));
    };
    let mut best = first;
    for s in &stats[1..] {
        if s.visits > best.visits || (s.visits == best.visits && s.value > best.value) {
            best = *s;
        }
    }
    let mover = state.current_player().unwrap_or(0);
    let lines = stats
        .iter()
        .map(|s| {
            let mut line = vec![(mover, s.action)];
            line.extend_from_slice(below[s.action.index()].1);
            line
        })
        .collect();
    Ok(SearchResult {
        action: best.action,
        stats,
        iterations,
        nodes,
        lines,
    })
}
