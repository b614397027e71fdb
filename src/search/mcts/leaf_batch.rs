//! Network search: one leaf evaluated at a time, or up to `leaf_batch` leaves
//! gathered and evaluated in one forward pass.

use super::*;
use crate::game::{Action, Game, Player, MAX_PLAYERS};
use crate::nn::{BatchScratch, Network, Scratch};

/// A leaf selected for the next batched evaluation.
pub(super) struct Pending {
    /// The leaf; [`NONE`] for a node evaluated without being expanded (the
    /// node cap stopped the growth), which no later selection can match.
    pub(super) node: u32,
    pub(super) mover: Player,
    /// Its path from the root: `LeafBatch::paths[path.0..path.1]`.
    pub(super) path: (usize, usize),
}

/// What a tree needs to evaluate up to `leaf_batch` leaves at once without
/// allocating (each buffer is sized for a full batch up front).
pub(super) struct LeafBatch {
    /// The movers' observations of the pending leaves, one after the other.
    pub(super) observations: Vec<f32>,
    /// Their legal actions, one list after the other ...
    pub(super) legal: Vec<Action>,
    /// ... list `k` ending at `legal_ends[k]`.
    pub(super) legal_ends: Vec<usize>,
    pub(super) priors: Vec<f32>,
    pub(super) values: Vec<f32>,
    pub(super) scratch: BatchScratch,
    pub(super) pending: Vec<Pending>,
    /// Paths that reached a pending leaf: `(its index in pending, path)`.
    pub(super) repeats: Vec<(usize, (usize, usize))>,
    pub(super) paths: Vec<u32>,
}

/// What a tree needs to evaluate its network without allocating.
pub(super) struct NetworkBuffers {
    pub(super) scratch: Scratch,
    pub(super) observation: Vec<f32>,
    pub(super) prior: Vec<f32>,
    pub(super) value: Vec<f32>,
}

impl<G: Game> Tree<G> {
    /// Up to `want` (at least 1) iterations with one batched evaluation
    /// (see [`SearchConfig::leaf_batch`]); returns how many ran. Each
    /// selection is one iteration: a terminal one is backed up at once, the
    /// others after the evaluation.
    pub(super) fn iterate_batch(
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
            net.evaluate_legal_batch_at(
                &lb.observations[..batch * obs_size],
                &lb.legal,
                &lb.legal_ends,
                &mut lb.scratch,
                &mut lb.priors,
                &mut lb.values,
                cfg.policy_temperature as f32,
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

    /// Evaluates the network on `mover`'s observation of `state` (the
    /// determinization: it holds nothing `mover`'s root player could not
    /// see); leaves the prior over `self.legal` in the buffers and returns
    /// the value per seat (seat `p` gets `value[(p - mover) mod P]`).
    pub(super) fn evaluate_network(
        &mut self,
        net: &Network,
        state: &G,
        mover: Player,
        policy_temperature: f64,
    ) -> [f32; MAX_PLAYERS] {
        let buf = self
            .eval
            .as_mut()
            .expect("a tree of a search with a network has its buffers");
        state.observation(mover, &mut buf.observation);
        buf.prior.clear();
        buf.prior.resize(self.legal.len(), 0.0);
        net.evaluate_legal_at(
            &buf.observation,
            &mut buf.scratch,
            self.legal.as_slice(),
            &mut buf.prior,
            &mut buf.value,
            policy_temperature as f32,
        );
        let players = buf.value.len();
        let mut out = [0.0; MAX_PLAYERS];
        for (p, slot) in out.iter_mut().enumerate().take(players) {
            *slot = buf.value[(p + players - mover as usize) % players];
        }
        out
    }
}
