//! The heuristic (docs/duel.md, *Heuristic*): how close each player is to one
//! of the three ways to win.

use super::state::*;
use crate::game::MAX_PLAYERS;

impl DuelState {
    fn progress(&self, p: usize) -> f32 {
        let pts = (f32::from(self.points[p]) / 20.0).min(1.0);
        let crowns = (f32::from(self.crowns[p]) / 10.0).min(1.0);
        let colour = (f32::from(self.best_colour(p)) / 10.0).min(1.0);
        let bonuses = lane_sum(self.bonus[p]) as f32;
        let gold = f32::from(lane(self.tokens[p], 6));
        let gems = self.token_total(p) as f32 - gold;
        // The closest goal counts most; the others and the engine (bonuses)
        // break ties; tokens are worth less than the card they buy.
        pts.max(crowns).max(colour)
            + 0.3 * (pts + crowns + colour) / 3.0
            + 0.03 * bonuses
            + 0.004 * gems
            + 0.008 * gold
            + 0.01 * f32::from(self.privileges[p])
    }

    /// Heuristic value for `p` (docs/duel.md, *Heuristic*).
    pub fn value(&self, p: usize) -> f32 {
        if self.phase == Phase::Over {
            return if self.winners == 0 {
                0.5
            } else if self.winners & (1 << p) != 0 {
                1.0
            } else {
                0.0
            };
        }
        (0.5 + 0.5 * (self.progress(p) - self.progress(1 - p))).clamp(0.01, 0.99)
    }

    /// `value` of both players (0 for the unused seats), each player's
    /// progress computed once.
    pub fn values(&self) -> [f32; MAX_PLAYERS] {
        let mut out = [0.0; MAX_PLAYERS];
        if self.phase == Phase::Over {
            out[0] = self.value(0);
            out[1] = self.value(1);
            return out;
        }
        let progress = [self.progress(0), self.progress(1)];
        for p in 0..2 {
            out[p] = (0.5 + 0.5 * (progress[p] - progress[1 - p])).clamp(0.01, 0.99);
        }
        out
    }
}
