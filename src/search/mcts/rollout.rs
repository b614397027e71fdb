//! Rollouts from a leaf to the depth cap (random, greedy, MAST or the variant's
//! playout policy) and the evaluation at the cut.

use super::*;
use crate::game::{Action, Game, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;

impl<G: Game> Tree<G> {
    pub(super) fn rollout(&mut self, state: &mut G, cfg: &SearchConfig) -> [f32; MAX_PLAYERS] {
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
    pub(super) fn mast_choice(&mut self, mover: Player) -> Action {
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
pub(super) fn one_ply_value<G: Game>(state: &G, a: Action, mover: Player) -> f32 {
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
pub(super) fn evaluate<G: Game>(state: &G, cut: CutEval) -> [f32; MAX_PLAYERS] {
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
