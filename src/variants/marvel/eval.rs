//! The heuristic (docs/marvel.md §8): how close each seat is to winning.

use super::actions::GREEN;
use super::state::*;
use crate::game::Player;

impl MarvelState {
    fn value(&self, p: usize) -> f32 {
        let colours = (self.bonus[p].nonzero_mask() & 0x1F).count_ones() as f32;
        let cards: u32 = (0..5).map(|c| u32::from(self.bonus[p].get(c))).sum();
        0.55 * f32::from(self.points(p).min(16)) / 16.0
            + 0.25 * colours / 5.0
            + 0.1 * f32::from(self.tokens[p].get(GREEN))
            + 0.1 * cards.min(15) as f32 / 15.0
    }

    /// Heuristic value in [0, 1] (docs/marvel.md §8).
    pub(super) fn value_for(&self, player: Player) -> f32 {
        if let Some(o) = self.result() {
            return o.returns()[player as usize] as f32;
        }
        let p = player as usize;
        let best_other = (0..self.num_players as usize)
            .filter(|&q| q != p)
            .map(|q| self.value(q))
            .fold(f32::MIN, f32::max);
        (0.5 + 0.5 * (self.value(p) - best_other)).clamp(0.0, 1.0)
    }
}
