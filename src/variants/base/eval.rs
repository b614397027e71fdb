//! A cheap static evaluation for rollout cut-offs and the greedy bot.

use super::cards::{self, GOLD};
use super::rules::can_afford;
use super::state::{BaseState, EMPTY};
use crate::game::Player;

impl BaseState {
    /// How close `seat` is to winning, in rough "points" units.
    ///
    /// Points count fully; the first bonuses of each colour are worth most
    /// (they cut every later cost), further ones little on their own (their
    /// value then shows through nobles and reachable cards); tokens are worth
    /// little, which stops a one-ply player from hoarding instead of buying;
    /// partial progress towards nobles and the best card within reach add
    /// the rest, and each reserved card costs a little (it ties up a slot).
    /// The weights were tuned by greedy-vs-greedy matches (2–4 players, 900
    /// games: 0.96 against the first hand-set weights, where 0.5 is even).
    pub(crate) fn position_value(&self, seat: usize) -> f32 {
        let t = self.tokens[seat];
        let b = self.bonus[seat];
        let mut v = f32::from(self.points[seat]);
        for c in 0..5 {
            let k = f32::from(b.get(c));
            v += 0.8 * k.min(2.5) + 0.2 * (k - 2.5).max(0.0);
        }
        let coloured = t.low_lanes(5).total() as f32;
        v += 0.08 * coloured.min(10.0) + 0.12 * f32::from(t.get(GOLD));
        v -= 0.12 * self.n_reserved[seat] as f32;
        for &n in self.nobles_on_display() {
            let req = cards::noble_req(n);
            let total = req.total() as f32;
            let missing = req.saturating_sub(b).total() as f32;
            let done = (total - missing) / total;
            v += 1.8 * done * done;
        }
        // The best card this player could buy next turn, or nearly buy.
        let mut reach = 0.0f32;
        let mut consider = |card: u8| {
            let need = cards::cost(card).saturating_sub(b);
            let short = need.saturating_sub(t).total() as f32 - f32::from(t.get(GOLD));
            let worth = f32::from(cards::points(card)) + 0.5;
            let r = if can_afford(t, b, card) {
                worth * 0.3
            } else {
                worth * 0.3 / (1.0 + short.max(0.0))
            };
            reach = reach.max(r);
        };
        for row in &self.board {
            for &c in row {
                if c != EMPTY {
                    consider(c);
                }
            }
        }
        for &c in self.reserved(seat) {
            consider(c);
        }
        v + reach
    }

    /// `heuristic` of the Game trait: the outcome when over, else a logistic
    /// squash of this player's lead over the best opponent.
    pub(crate) fn evaluate(&self, player: Player) -> f32 {
        if let Some(o) = self.outcome_now() {
            return o.returns()[player as usize] as f32;
        }
        let p = player as usize;
        let mine = self.position_value(p);
        let best_other = (0..self.num_players as usize)
            .filter(|&q| q != p)
            .map(|q| self.position_value(q))
            .fold(f32::MIN, f32::max);
        let x = (mine - best_other) / 4.0;
        1.0 / (1.0 + (-x).exp())
    }
}
