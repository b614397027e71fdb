//! The shared tree: nodes in one `Vec`, the descent from the root, back-up,
//! expansion with priors and the lines read off the most visited replies.

use super::*;
use crate::game::{Action, ActionList, Game, Player, MAX_PLAYERS};
use crate::nn::Network;
use crate::rng::SplitMix64;
use crate::search::noise::{dirichlet, RootNoise};

pub(super) const NONE: u32 = u32::MAX;

/// One tree node. Children form a singly linked list through `next_sibling`
/// so the whole tree lives in one `Vec` with no per-node allocation.
///
/// The children a node gets together (all its legal actions, on its first
/// expansion) are pushed one after the other and each is put at the head of
/// the list, so the list walks them from the highest index down: `run` says
/// how many list entries from this one on are such neighbours (this node,
/// then `index - 1`, ...), so that a scan ([`Children`]) computes their
/// indices instead of waiting for each `next_sibling` load. The list, and so
/// the order of every scan, is unchanged.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
    pub(super) visits: u32,
    /// Iterations in which this node's action was legal at its parent.
    pub(super) avail: u32,
    /// Sum of rewards of `player`.
    pub(super) value: f64,
    /// Prior probability of `action` at the parent ([`Selection::Puct`]).
    pub(super) prior: f32,
    pub(super) action: Action,
    /// The player who chose `action`.
    pub(super) player: Player,
    /// List entries from this one on at `index, index - 1, ...` (at least
    /// 1; at most 255, the rest found through `next_sibling`). It fits in the
    /// node's padding: a node stays 32 bytes.
    pub(super) run: u8,
}

/// A walk over the children of one node in list order: the node indices come
/// from `run` (arithmetic) within a run, from `next_sibling` between runs.
pub(super) struct Children {
    next: u32,
    left: u8,
}

impl Children {
    pub(super) fn of(nodes: &[Node], node: u32) -> Self {
        Self {
            next: nodes[node as usize].first_child,
            left: 0,
        }
    }

    /// The next child's index, or `None` after the last.
    #[inline(always)]
    pub(super) fn next(&mut self, nodes: &[Node]) -> Option<u32> {
        let c = self.next;
        if c == NONE {
            return None;
        }
        let n = &nodes[c as usize];
        if self.left == 0 {
            self.left = n.run;
        }
        self.left -= 1;
        self.next = if self.left > 0 {
            debug_assert_eq!(n.next_sibling, c - 1, "a run is a list of neighbours");
            c - 1
        } else {
            n.next_sibling
        };
        Some(c)
    }
}

impl Node {
    pub(super) fn new(action: Action, player: Player) -> Self {
        Self {
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            value: 0.0,
            prior: 0.0,
            action,
            player,
            run: 1,
        }
    }
}

/// Puts `child` (about to be pushed at index `nodes.len()`) at the head of
/// `node`'s children, extending the run of the head it displaces when that
/// head sits just below it.
#[inline]
fn push_child(nodes: &mut Vec<Node>, node: u32, mut child: Node) {
    let idx = nodes.len() as u32;
    let head = nodes[node as usize].first_child;
    child.next_sibling = head;
    child.run = if head != NONE && head + 1 == idx {
        nodes[head as usize].run.saturating_add(1)
    } else {
        1
    };
    nodes[node as usize].first_child = idx;
    nodes.push(child);
}

/// One tree and its scratch buffers (reused across iterations).
pub(super) struct Tree<G: Game> {
    pub(super) nodes: Vec<Node>,
    pub(super) path: Vec<u32>,
    /// Bitset over action ids: the legal actions of the current node that
    /// have no child yet.
    pub(super) untried: Vec<u64>,
    pub(super) legal: ActionList,
    /// [`Game::child_values`] of `legal`, when a node gets all its children.
    pub(super) child_values: Vec<f32>,
    pub(super) rng: SplitMix64,
    /// MAST table: one entry per `(player, action id)`.
    pub(super) mast: Vec<MastEntry>,
    /// `(player, action)` of every rollout move of this iteration.
    pub(super) trace: Vec<(Player, Action)>,
    /// Network buffers: present when the search has a network.
    pub(super) eval: Option<NetworkBuffers>,
    /// Leaf-batch buffers: present when the search has a network and a
    /// `leaf_batch` above 1.
    pub(super) batch: Option<Box<LeafBatch>>,
    pub(super) _game: std::marker::PhantomData<G>,
}

/// Where [`Tree::descend`] stopped.
pub(super) enum Descent {
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
pub(super) fn add_children(
    nodes: &mut Vec<Node>,
    node: u32,
    mover: Player,
    legal: &[Action],
    prior: &[f32],
) {
    for (&a, &p) in legal.iter().zip(prior) {
        let mut child = Node::new(a, mover);
        child.prior = p;
        push_child(nodes, node, child);
    }
}

impl<G: Game> Tree<G> {
    /// The most visited line below `node`: its most visited child (ties: the
    /// first in the list, which is deterministic), that child's, and so on,
    /// while a child was visited, at most [`MAX_LINE`]` - 1` decisions.
    pub(super) fn line_below(&self, mut node: u32) -> Line {
        let mut line = Vec::new();
        while line.len() + 1 < MAX_LINE {
            let (mut best, mut most) = (NONE, 0);
            let mut children = Children::of(&self.nodes, node);
            while let Some(c) = children.next(&self.nodes) {
                let ch = &self.nodes[c as usize];
                if ch.visits > most {
                    (best, most) = (c, ch.visits);
                }
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

    /// Visits of the root's most visited child less those of the runner-up
    /// (all of them with one child, 0 before any).
    pub(super) fn root_lead(&self) -> u32 {
        let (mut first, mut second) = (0u32, 0u32);
        let mut children = Children::of(&self.nodes, 0);
        while let Some(c) = children.next(&self.nodes) {
            let v = self.nodes[c as usize].visits;
            if v > first {
                (first, second) = (v, first);
            } else if v > second {
                second = v;
            }
        }
        first - second
    }

    pub(super) fn new(
        seed: u64,
        capacity: usize,
        network: Option<&Network>,
        leaf_batch: usize,
    ) -> Self {
        let mut nodes = Vec::with_capacity(capacity);
        nodes.push(Node::new(Action(0), 0));
        Self {
            nodes,
            path: Vec::with_capacity(64),
            untried: vec![0; G::NUM_ACTIONS.div_ceil(64)],
            legal: ActionList::new(),
            child_values: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
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
    pub(super) fn iterate(&mut self, root: &G, observer: Player, cfg: &SearchConfig) {
        let mut state = root.determinize(observer, &mut self.rng);
        let network = cfg.network.as_deref();
        // The network's value at the leaf, when this iteration evaluated one.
        let mut leaf_value = None;
        if let Descent::Leaf { node, mover, room } = self.descend(&mut state, cfg, 0) {
            // AlphaZero: a leaf is expanded on its first visit with the
            // network's prior, and its value is backed up.
            let net = network.expect("only a search with a network stops at a leaf");
            let value = self.evaluate_network(net, &state, mover, cfg.policy_temperature);
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
                (None, Some(mover)) => {
                    self.evaluate_network(net, &state, mover, cfg.policy_temperature)
                }
                (None, None) => [0.0; MAX_PLAYERS],
            },
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += rewards[n.player as usize] as f64;
        }
        if network.is_none() && cfg.rollout.uses_mast(G::HAS_PLAYOUT_POLICY) {
            // The root (path[0]) carries no action.
            for &i in &self.path[1..] {
                let n = self.nodes[i as usize];
                self.mast[n.player as usize * G::NUM_ACTIONS + n.action.index()]
                    .add(rewards[n.player as usize]);
            }
            for &(p, a) in &self.trace {
                self.mast[p as usize * G::NUM_ACTIONS + a.index()].add(rewards[p as usize]);
            }
        }
    }

    /// Adds `rewards` (per seat) to the nodes of `path`; `visit` adds the
    /// visit too (a path without a virtual loss).
    pub(super) fn back_up(
        nodes: &mut [Node],
        path: &[u32],
        rewards: &[f32; MAX_PLAYERS],
        visit: bool,
    ) {
        for &i in path {
            let n = &mut nodes[i as usize];
            n.visits += u32::from(visit);
            n.value += rewards[n.player as usize] as f64;
        }
    }

    /// The selection of one iteration on the determinization `state`: walks
    /// down from the root (the path in `self.path`, `state` moved along),
    /// creating children as the selection rule asks. With a network it stops
    /// at the first node never expanded ([`Descent::Leaf`], `self.legal`
    /// then holds its legal actions); otherwise, or when the game ends or the
    /// node cap stops the growth, it returns [`Descent::Stopped`]. `reserved`
    /// nodes count as made already (children of leaves pending in a batch).
    pub(super) fn descend(
        &mut self,
        state: &mut G,
        cfg: &SearchConfig,
        reserved: usize,
    ) -> Descent {
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
            // `untried` is all zeros here. The list is ascending, so each
            // word's bits are gathered in a register and stored once (an OR
            // into memory per action would wait on the previous one's store).
            let (mut word, mut bits) = (usize::MAX, 0u64);
            for a in self.legal.as_slice() {
                if only.is_none_or(|f| f == *a) {
                    let w = a.index() >> 6;
                    if w != word {
                        if word != usize::MAX {
                            self.untried[word] = bits;
                        }
                        (word, bits) = (w, 0);
                    }
                    bits |= 1 << (a.index() & 63);
                }
            }
            if word != usize::MAX {
                self.untried[word] = bits;
            }
            // Scan the children: count availability, find the best score
            // among those legal here, and strike them from `untried`.
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut tried = 0usize;
            // First-play urgency of a PUCT child never visited: the mean of
            // its visited siblings (a neutral 0.5 when there are none), less
            // the reduction for the prior mass already visited.
            let fpu = if puct {
                let (mean, visited_prior) = self.sibling_mean(node, mover);
                mean - cfg.fpu_reduction * visited_prior.sqrt()
            } else {
                0.0
            };
            let mut children = Children::of(&self.nodes, node);
            while let Some(c) = children.next(&self.nodes) {
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
                push_child(&mut self.nodes, node, child);
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

    /// Mixes Dirichlet noise into the priors of the root's children (just
    /// created) when the search asks for it.
    /// `n` is the number of children (the root's legal actions).
    pub(super) fn add_root_noise(&mut self, node: u32, cfg: &SearchConfig, n: usize) {
        let Some(RootNoise { alpha, epsilon }) = cfg.root_noise.filter(|_| node == 0) else {
            return;
        };
        let mut eta = [0.0f64; crate::game::MAX_LEGAL_ACTIONS];
        dirichlet(&mut self.rng, alpha, &mut eta[..n]);
        let mut children = Children::of(&self.nodes, 0);
        let mut k = 0;
        while let Some(c) = children.next(&self.nodes) {
            let ch = &mut self.nodes[c as usize];
            ch.prior = ((1.0 - epsilon) * f64::from(ch.prior) + epsilon * eta[k]) as f32;
            k += 1;
        }
    }

    /// Creates a child of `node` for every legal action (in `self.legal`),
    /// each with its prior: a softmax over the heuristic of the position it
    /// leads to, for `mover`.
    pub(super) fn expand_all(&mut self, node: u32, state: &G, mover: Player, temperature: f64) {
        let first = self.nodes.len();
        let mut top = f32::NEG_INFINITY;
        let values = &mut self.child_values;
        values.resize(self.legal.len(), 0.0);
        state.child_values(self.legal.as_slice(), mover, values);
        for (&a, &h) in self.legal.as_slice().iter().zip(values.iter()) {
            top = top.max(h);
            let mut child = Node::new(a, mover);
            child.prior = h;
            push_child(&mut self.nodes, node, child);
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

    /// Mean reward of the visited children of `node` that `mover` chose
    /// (0.5 when none was visited), and the sum of their priors.
    pub(super) fn sibling_mean(&self, node: u32, mover: Player) -> (f64, f64) {
        let (mut value, mut visits, mut prior) = (0.0, 0u64, 0.0);
        let mut children = Children::of(&self.nodes, node);
        while let Some(c) = children.next(&self.nodes) {
            let ch = &self.nodes[c as usize];
            if ch.player == mover && ch.visits > 0 {
                value += ch.value;
                visits += u64::from(ch.visits);
                prior += f64::from(ch.prior);
            }
        }
        if visits == 0 {
            (0.5, 0.0)
        } else {
            (value / visits as f64, prior)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The children of `node` by `next_sibling` alone.
    fn linked(nodes: &[Node], node: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut c = nodes[node as usize].first_child;
        while c != NONE {
            out.push(c);
            c = nodes[c as usize].next_sibling;
        }
        out
    }

    fn walked(nodes: &[Node], node: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut children = Children::of(nodes, node);
        while let Some(c) = children.next(nodes) {
            out.push(c);
        }
        out
    }

    /// Runs of every length (one child at a time, blocks, a block longer
    /// than a run can count, children interleaved with other nodes') walk
    /// the same list in the same order as `next_sibling`.
    #[test]
    fn a_walk_by_runs_is_the_linked_list() {
        let mut nodes = vec![Node::new(Action(0), 0)];
        let mut rng = SplitMix64::new(41);
        let add = |nodes: &mut Vec<Node>, parent: u32, k: usize| {
            for i in 0..k {
                push_child(nodes, parent, Node::new(Action(i as u16), 0));
            }
        };
        add(&mut nodes, 0, 7);
        add(&mut nodes, 3, 300);
        // A run counts at most 255 entries; the walk goes on by the link.
        assert_eq!(nodes[nodes[3].first_child as usize].run, 255);
        for _ in 0..2_000 {
            let parent = rng.below(nodes.len() as u64) as u32;
            let k = [1, 1, 2, 5, 40][rng.below(5) as usize];
            add(&mut nodes, parent, k);
            if rng.below(3) == 0 {
                // The same parent again right away: its run grows.
                add(&mut nodes, parent, 1);
            }
        }
        let mut longest = 0;
        for node in 0..nodes.len() as u32 {
            let want = linked(&nodes, node);
            assert_eq!(walked(&nodes, node), want, "node {node}");
            longest = longest.max(want.len());
        }
        assert!(longest >= 300, "{longest}");
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }
}
