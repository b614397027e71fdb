//! Rollouts from a leaf to the depth cap (random, greedy, MAST or the variant's
//! playout policy) and the evaluation at the cut.

use super::*;
use crate::game::{one_ply_value, Action, Game, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;

impl<G: Game> Tree<G> {
    pub(super) fn rollout(&mut self, state: &mut G, cfg: &SearchConfig) -> [f32; MAX_PLAYERS] {
        let mut depth = 0;
        self.trace.clear();
        let mast = cfg.rollout.uses_mast(G::HAS_PLAYOUT_POLICY);
        if mast && self.mast.is_empty() {
            self.mast = vec![MastEntry::default(); MAX_PLAYERS * G::NUM_ACTIONS];
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
                    if mast {
                        self.trace.push((mover, a));
                    }
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
            let v = self.mast[base + a.index()].mean;
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

/// One `(player, action)` entry of the MAST table.
#[derive(Clone, Copy)]
pub(super) struct MastEntry {
    sum: f32,
    count: u32,
    /// `sum / count`, or a neutral 0.5 before the first reward: kept with
    /// every update (a few per iteration) rather than divided out on every
    /// read (one per legal action of every MAST rollout move).
    mean: f32,
}

impl Default for MastEntry {
    fn default() -> Self {
        Self {
            sum: 0.0,
            count: 0,
            mean: 0.5,
        }
    }
}

impl MastEntry {
    pub(super) fn add(&mut self, reward: f32) {
        self.sum += reward;
        self.count += 1;
        self.mean = self.sum / self.count as f32;
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
    let mut h = state.heuristics();
    for slot in h.iter_mut().take(n) {
        *slot = slot.clamp(0.0, 1.0);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean MAST reads is the quotient it divided out on every read
    /// before, bit for bit, and a neutral 0.5 before the first reward.
    #[test]
    fn the_kept_mean_is_the_quotient() {
        let mut e = MastEntry::default();
        assert_eq!(e.mean, 0.5);
        let mut rng = SplitMix64::new(3);
        for _ in 0..10_000 {
            e.add(rng.next_f64() as f32);
            let want = e.sum / e.count as f32;
            assert_eq!(e.mean.to_bits(), want.to_bits());
        }
    }
}
