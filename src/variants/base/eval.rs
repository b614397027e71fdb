//! The evaluation: the heuristic, a cheap static evaluation for rollout
//! cut-offs, move priors and the greedy bot; and the playout policy, a cheap,
//! informed move choice for search rollouts.
//!
//! Uniform random play is a poor model of how a Splendor game goes on: random
//! players reserve and hoard, so a rollout from a good position often ends as
//! a coin flip. A one-ply greedy rollout on the heuristic is a much better
//! model but costs a clone, an apply and two position evaluations per legal
//! move. This policy reaches most of that quality for about the cost of move
//! generation, by scoring the moves directly from the mover's tokens,
//! bonuses and the cards in sight, without playing any of them:
//! - buy the affordable card with the best immediate gain (points, a bonus
//!   colour still worth having, noble progress, minus the tokens spent);
//! - otherwise collect tokens towards a *target*: the card that is best value
//!   for the effort still missing;
//! - reserve the target (for the gold) when no take makes progress;
//! - pay with as little gold as possible, return the tokens the target needs
//!   least, take any noble.

use super::actions::{BUY, BUY_RESERVED, DOUBLE, RESERVE, RETURN, TAKE_MASKS};
use super::cards::{self, GOLD};
use super::rules::{cost_or_unpayable, TOKEN_LIMIT};
use super::state::{BaseState, Phase, EMPTY};
use crate::game::{Action, Player};
use crate::gems::Gems;
use crate::rng::SplitMix64;

/// `0.3 * (points + 0.5)` of every card id (0 past the last card): the
/// value of a card within reach in `position_value`, computed once (constant
/// evaluation rounds each step exactly as the run time would).
static REACH_WORTH: [f32; 256] = reach_worth();

const fn reach_worth() -> [f32; 256] {
    let mut t = [0.0f32; 256];
    let mut c = 0;
    while c < cards::NUM_CARDS {
        t[c] = (cards::CARD_POINTS[c] as f32 + 0.5) * 0.3;
        c += 1;
    }
    t
}

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
        // The best card this player could buy next turn, or nearly buy: each
        // card's shortfall after bonuses and tokens, `max(0, cost - bonus -
        // tokens)` summed (gold's lane costs nothing), for the 16 slots at
        // once; the same integers the per-card test computed.
        let mut slots = [EMPTY; 16];
        slots[..12].copy_from_slice(self.board.as_flattened());
        slots[12..15].copy_from_slice(&self.reserved[seat]);
        let costs = slots.map(cost_or_unpayable);
        let shortfalls = crate::afford::shortfalls(&costs, b.add(t).0);
        let gold = f32::from(t.get(GOLD));
        let mut reach = 0.0f32;
        let mut present = self.board_mask() | ((1u16 << self.n_reserved[seat]) - 1) << 12;
        while present != 0 {
            let k = present.trailing_zeros() as usize;
            present &= present - 1;
            let short = f32::from(shortfalls[k]) - gold;
            // An affordable card has `short <= 0`, so the divisor is exactly
            // 1 and the quotient exactly its worth: no separate test.
            let r = REACH_WORTH[usize::from(slots[k])] / (1.0 + short.max(0.0));
            reach = reach.max(r);
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

/// Below this immediate gain a buy is not preferred over collecting tokens.
const BUY_THRESHOLD: f32 = 0.3;
/// Weight of a taken token the target still misses.
const TARGET_WEIGHT: f32 = 3.0;
/// Weight of a taken token the second-best card still misses.
const SECOND_WEIGHT: f32 = 1.0;
/// Weight of any other taken token.
const SPARE_WEIGHT: f32 = 0.1;
/// Cost of each token taken beyond the limit (it must be given back).
const EXCESS_PENALTY: f32 = 1.0;

/// Value of one more bonus of a colour already held `k` times (the marginal
/// step of `position_value`'s bonus term).
#[inline]
fn bonus_gain(k: u8) -> f32 {
    match k {
        0 | 1 => 0.8,
        2 => 0.5,
        _ => 0.2,
    }
}

impl BaseState {
    /// The playout move for the player to move, chosen among `legal`.
    pub(crate) fn playout_choice(&self, legal: &[Action], rng: &mut SplitMix64) -> Action {
        let uniform = |rng: &mut SplitMix64| legal[rng.below(legal.len() as u64) as usize];
        match self.phase {
            Phase::Main => self.playout_main(rng).unwrap_or_else(|| uniform(rng)),
            // The payments are listed from the least gold upwards.
            Phase::Pay => legal[0],
            Phase::Return => self.playout_return(),
            _ => uniform(rng),
        }
    }

    /// Gain of buying `card` now for the player to move: points, the bonus,
    /// noble progress, less the tokens it uses up.
    fn buy_gain(&self, card: u8) -> f32 {
        let p = self.current as usize;
        let (t, b) = (self.tokens[p], self.bonus[p]);
        let colour = cards::bonus(card);
        let need = cards::cost(card).saturating_sub(b);
        let short = need.saturating_sub(t).total() as f32;
        let coloured = need.total() as f32 - short;
        let mut gain = f32::from(cards::points(card)) + bonus_gain(b.get(colour))
            - 0.08 * coloured
            - 0.12 * short;
        for &n in self.nobles_on_display() {
            let req = cards::noble_req(n);
            if req.get(colour) > b.get(colour) {
                let total = req.total() as f32;
                let missing = req.saturating_sub(b).total() as f32;
                let before = (total - missing) / total;
                let after = (total - missing + 1.0) / total;
                gain += 1.8 * (after * after - before * before);
            }
        }
        gain
    }

    /// The two cards (board or own reserve) the player to move should work
    /// towards: best `worth / (1 + tokens still missing)`, not yet affordable.
    /// Returns what each still misses (zero when there is none).
    fn targets(&self) -> (Gems, Gems, Option<(usize, usize)>) {
        let p = self.current as usize;
        let (t, b) = (self.tokens[p], self.bonus[p]);
        let gold = u32::from(t.get(GOLD));
        let mut best = [(f32::NEG_INFINITY, Gems::ZERO, None); 2];
        let mut consider = |card: u8, slot: Option<(usize, usize)>| {
            let short = cards::cost(card).saturating_sub(b).saturating_sub(t);
            let missing = short.total();
            if missing <= gold {
                return;
            }
            let worth = f32::from(cards::points(card)) + bonus_gain(b.get(cards::bonus(card)));
            let score = worth / (1.0 + (missing - gold) as f32);
            if score > best[0].0 {
                best[1] = best[0];
                best[0] = (score, short, slot);
            } else if score > best[1].0 {
                best[1] = (score, short, slot);
            }
        };
        for (l, row) in self.board.iter().enumerate() {
            for (s, &c) in row.iter().enumerate() {
                if c != EMPTY {
                    consider(c, Some((l, s)));
                }
            }
        }
        for &c in self.reserved(p) {
            consider(c, None);
        }
        (best[0].1, best[1].1, best[0].2)
    }

    fn playout_main(&self, rng: &mut SplitMix64) -> Option<Action> {
        let mask = self.main_mask();
        let p = self.current as usize;
        // The best affordable buy.
        let mut buy = None;
        let mut buy_gain = f32::NEG_INFINITY;
        let board = self.board.as_flattened();
        for (k, &c) in board.iter().enumerate() {
            if mask >> (BUY as usize + k) & 1 != 0 {
                let g = self.buy_gain(c);
                if g > buy_gain {
                    (buy, buy_gain) = (Some(BUY + k as u16), g);
                }
            }
        }
        for (i, &c) in self.reserved(p).iter().enumerate() {
            if mask >> (BUY_RESERVED as usize + i) & 1 != 0 {
                let g = self.buy_gain(c);
                if g > buy_gain {
                    (buy, buy_gain) = (Some(BUY_RESERVED + i as u16), g);
                }
            }
        }
        if buy_gain >= BUY_THRESHOLD {
            return buy.map(Action);
        }
        // The best take towards the targets.
        let (first, second, slot) = self.targets();
        let held = self.tokens[p].total() as f32;
        let weight = |c: usize| {
            if first.get(c) > 0 {
                TARGET_WEIGHT
            } else if second.get(c) > 0 {
                SECOND_WEIGHT
            } else {
                SPARE_WEIGHT
            }
        };
        let mut take = None;
        let mut take_score = 0.0f32;
        let mut ties = 0u64;
        for id in 0..(DOUBLE + 5) {
            if mask >> id & 1 == 0 {
                continue;
            }
            let (score, n) = if id < DOUBLE {
                let m = TAKE_MASKS[id as usize];
                let s: f32 = (0..5).filter(|c| m >> c & 1 != 0).map(weight).sum();
                (s, m.count_ones() as f32)
            } else {
                // Two of one colour help only as far as the target misses them.
                let c = (id - DOUBLE) as usize;
                let useful = f32::from(first.get(c).min(2));
                let s = if useful > 0.0 {
                    TARGET_WEIGHT * useful + SPARE_WEIGHT * (2.0 - useful)
                } else {
                    2.0 * weight(c).min(SECOND_WEIGHT)
                };
                (s, 2.0)
            };
            let score = score - EXCESS_PENALTY * (held + n - TOKEN_LIMIT as f32).max(0.0);
            if score > take_score {
                (take, take_score, ties) = (Some(id), score, 1);
            } else if score == take_score && take.is_some() {
                ties += 1;
                if rng.below(ties) == 0 {
                    take = Some(id);
                }
            }
        }
        if take_score >= TARGET_WEIGHT {
            return take.map(Action);
        }
        // No take makes real progress: reserve the target for its gold.
        if let Some((l, s)) = slot {
            let id = RESERVE + (4 * l + s) as u16;
            if mask >> id & 1 != 0 && self.bank.get(GOLD) > 0 {
                return Some(Action(id));
            }
        }
        take.or(buy).map(Action)
    }

    /// Returns the token the target needs least (gold last).
    fn playout_return(&self) -> Action {
        let p = self.current as usize;
        let t = self.tokens[p];
        let (first, _, _) = self.targets();
        let mut best = GOLD;
        let mut best_spare = i32::MIN;
        for c in 0..5 {
            if t.get(c) > 0 {
                let spare = i32::from(t.get(c)) - i32::from(first.get(c));
                if spare > best_spare {
                    (best, best_spare) = (c, spare);
                }
            }
        }
        Action(RETURN + best as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ActionList, Config, Game};

    /// `position_value` as it was written before the shortfalls were computed
    /// 16 slots at once: one card at a time.
    fn per_card(s: &BaseState, seat: usize) -> f32 {
        let t = s.tokens[seat];
        let b = s.bonus[seat];
        let mut v = f32::from(s.points[seat]);
        for c in 0..5 {
            let k = f32::from(b.get(c));
            v += 0.8 * k.min(2.5) + 0.2 * (k - 2.5).max(0.0);
        }
        let coloured = t.low_lanes(5).total() as f32;
        v += 0.08 * coloured.min(10.0) + 0.12 * f32::from(t.get(GOLD));
        v -= 0.12 * s.n_reserved[seat] as f32;
        for &n in s.nobles_on_display() {
            let req = cards::noble_req(n);
            let total = req.total() as f32;
            let missing = req.saturating_sub(b).total() as f32;
            let done = (total - missing) / total;
            v += 1.8 * done * done;
        }
        let mut reach = 0.0f32;
        let mut consider = |card: u8| {
            let need = cards::cost(card).saturating_sub(b);
            let short = need.saturating_sub(t).total() as f32 - f32::from(t.get(GOLD));
            let worth = f32::from(cards::points(card)) + 0.5;
            let r = if super::super::rules::can_afford(t, b, card) {
                worth * 0.3
            } else {
                worth * 0.3 / (1.0 + short.max(0.0))
            };
            reach = reach.max(r);
        };
        for row in &s.board {
            for &c in row {
                if c != EMPTY {
                    consider(c);
                }
            }
        }
        for &c in s.reserved(seat) {
            consider(c);
        }
        v + reach
    }

    /// The same value, bit for bit, for every seat of every position of
    /// random games (2-4 players): searches and the greedy bot play as before.
    #[test]
    fn position_value_is_the_per_card_value_bit_for_bit() {
        let mut list = ActionList::new();
        let mut checked = 0;
        for seed in 0..150u64 {
            let config = Config {
                num_players: 2 + (seed % 3) as u8,
                seed,
                turn_cap: 100,
            };
            let mut s = BaseState::new(&config).expect("valid");
            let mut rng = SplitMix64::new(seed);
            while !s.is_terminal() {
                for seat in 0..s.num_players as usize {
                    let (got, want) = (s.position_value(seat), per_card(&s, seat));
                    assert_eq!(got.to_bits(), want.to_bits(), "seed {seed} seat {seat}");
                    checked += 1;
                }
                s.legal_actions(&mut list);
                s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
            }
        }
        assert!(checked > 50_000, "{checked}");
    }
}
