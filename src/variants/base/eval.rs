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
use super::state::{BaseState, Phase};
use crate::game::{Action, Player, MAX_PLAYERS};
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
        let slots: [u8; 16] = std::array::from_fn(|k| self.slot_card(seat, k));
        let cost = |k: usize| cost_or_unpayable(self.slot_card(seat, k));
        let shortfalls = crate::afford::shortfalls_by(cost, b.add(t).0);
        let gold = f32::from(t.get(GOLD));
        // Every slot's value, the 16 quotients independent of each other
        // (vector divisions): an affordable card has `short <= 0`, so the
        // divisor is exactly 1 and the quotient exactly its worth; an empty
        // slot (worth 0) gives 0, which never beats a card's positive value.
        let reach: [f32; 16] = std::array::from_fn(|k| {
            let short = f32::from(shortfalls[k]) - gold;
            let short = if short > 0.0 { short } else { 0.0 };
            REACH_WORTH[usize::from(slots[k])] / (1.0 + short)
        });
        v + max16(reach)
    }

    /// `heuristic` of the Game trait: the outcome when over, else a logistic
    /// squash of this player's lead over the best opponent.
    pub(crate) fn evaluate(&self, player: Player) -> f32 {
        if let Some(o) = self.outcome_now() {
            return o.returns()[player as usize] as f32;
        }
        let p = player as usize;
        squash(self.position_value(p), self.best_other_value(p))
    }

    /// The best `position_value` of the seats other than `p`.
    fn best_other_value(&self, p: usize) -> f32 {
        (0..self.num_players as usize)
            .filter(|&q| q != p)
            .map(|q| self.position_value(q))
            .fold(f32::MIN, f32::max)
    }

    /// `child_values` of the Game trait, bit for bit `one_ply_value` of each
    /// action. An action changes the holdings of the seat that takes it and
    /// nobody else's; another seat's `position_value` reads its own holdings,
    /// the board and the nobles on display, so for a child whose board and
    /// display are this state's (takes, blind reserves, returns) the other
    /// seats' values are this state's: computed once, not once per child.
    pub(crate) fn child_values(&self, legal: &[Action], mover: Player, out: &mut [f32]) {
        let m = mover as usize;
        let acting = self.phase != Phase::Over && self.current == mover;
        let mut shared = None;
        for (slot, &a) in out.iter_mut().zip(legal) {
            let mut child = *self;
            child.apply_action(a);
            *slot = if let Some(o) = child.outcome_now() {
                o.returns()[m] as f32
            } else {
                let unchanged = child.board == self.board
                    && child.display == self.display
                    && child.n_display == self.n_display;
                let best_other = if acting && unchanged {
                    *shared.get_or_insert_with(|| self.best_other_value(m))
                } else {
                    child.best_other_value(m)
                };
                squash(child.position_value(m), best_other)
            };
        }
    }

    /// `evaluate` of every seat (0 past the last), each seat's
    /// `position_value` computed once: the same floats in the same order.
    pub(crate) fn evaluate_all(&self) -> [f32; MAX_PLAYERS] {
        let n = self.num_players as usize;
        let mut out = [0.0; MAX_PLAYERS];
        if let Some(o) = self.outcome_now() {
            for (slot, r) in out.iter_mut().zip(o.returns()).take(n) {
                *slot = r as f32;
            }
            return out;
        }
        let mut values = [0.0f32; MAX_PLAYERS];
        for (q, v) in values.iter_mut().enumerate().take(n) {
            *v = self.position_value(q);
        }
        for (p, slot) in out.iter_mut().enumerate().take(n) {
            let best_other = (0..n)
                .filter(|&q| q != p)
                .map(|q| values[q])
                .fold(f32::MIN, f32::max);
            *slot = squash(values[p], best_other);
        }
        out
    }
}

/// The main-phase mask of a state whose legal list is `legal`: that list is
/// the mask's ids ascending, or `pass` (id 328, outside the mask) alone, so
/// the playout reads the mask back instead of computing it a second time.
fn main_mask_of(legal: &[Action]) -> u64 {
    legal
        .iter()
        .filter(|a| a.0 < 64)
        .fold(0, |m, a| m | 1 << a.0)
}

/// Bit `k` set when `x[k] <= limit`.
#[inline]
fn below_or_at(x: &[u8; 16], limit: u32) -> u16 {
    x.iter()
        .enumerate()
        .fold(0, |m, (k, &v)| m | u16::from(u32::from(v) <= limit) << k)
}

/// The largest of 16 values, none NaN, all at least 0: the maximum of such
/// numbers is the same whatever order they are compared in, so a tree of
/// comparisons (vector maxima) gives the scan's answer.
#[inline]
fn max16(x: [f32; 16]) -> f32 {
    let max = |a: f32, b: f32| if a > b { a } else { b };
    let m8: [f32; 8] = std::array::from_fn(|k| max(x[k], x[k + 8]));
    let m4: [f32; 4] = std::array::from_fn(|k| max(m8[k], m8[k + 4]));
    max(max(m4[0], m4[2]), max(m4[1], m4[3]))
}

/// The heuristic's logistic squash of a seat's lead over the best opponent.
#[inline]
fn squash(mine: f32, best_other: f32) -> f32 {
    let x = (mine - best_other) / 4.0;
    1.0 / (1.0 + (-x).exp())
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
            Phase::Main => self
                .playout_main(main_mask_of(legal), rng)
                .unwrap_or_else(|| uniform(rng)),
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
    ///
    /// The tokens each card still misses, `max(0, cost - bonus - tokens)`
    /// summed, come for the 16 slots at once (as in `position_value`); the
    /// candidates are then scored in the order of the per-card scan (board
    /// row by row, then the reserve), so the same two win every tie.
    fn targets(&self) -> (Gems, Gems, Option<(usize, usize)>) {
        let p = self.current as usize;
        let (t, b) = (self.tokens[p], self.bonus[p]);
        let gold = u32::from(t.get(GOLD));
        let slots: [u8; 16] = std::array::from_fn(|k| self.slot_card(p, k));
        let cost = |k: usize| cost_or_unpayable(self.slot_card(p, k));
        let missing = crate::afford::shortfalls_by(cost, b.add(t).0);
        let gains: [f32; 5] = std::array::from_fn(|c| bonus_gain(b.get(c)));
        // Every slot's score, the 16 quotients independent of each other
        // (vector divisions); those of slots that are no candidate are
        // computed from a stand-in card and never read.
        let scores: [f32; 16] = std::array::from_fn(|k| {
            let card = slots[k].min(cards::NUM_CARDS as u8 - 1);
            let worth = f32::from(cards::points(card)) + gains[cards::bonus(card)];
            worth / (1.0 + u32::from(missing[k]).saturating_sub(gold) as f32)
        });
        let present = self.board_mask() | ((1u16 << self.n_reserved[p]) - 1) << 12;
        let mut candidates = present & !below_or_at(&missing, gold);
        // (score, slot index), the best first; 16 = none.
        let mut best = [(f32::NEG_INFINITY, 16usize); 2];
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let score = scores[k];
            if score > best[0].0 {
                best[1] = best[0];
                best[0] = (score, k);
            } else if score > best[1].0 {
                best[1] = (score, k);
            }
        }
        let short = |k: usize| {
            slots.get(k).map_or(Gems::ZERO, |&c| {
                cards::cost(c).saturating_sub(b).saturating_sub(t)
            })
        };
        let slot = Some(best[0].1).filter(|&k| k < 12).map(|k| (k / 4, k % 4));
        (short(best[0].1), short(best[1].1), slot)
    }

    /// `mask`: the main-phase mask of this state ([`main_mask_of`] the list).
    fn playout_main(&self, mask: u64, rng: &mut SplitMix64) -> Option<Action> {
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
        let weight: [f32; 5] = std::array::from_fn(|c| {
            if first.get(c) > 0 {
                TARGET_WEIGHT
            } else if second.get(c) > 0 {
                SECOND_WEIGHT
            } else {
                SPARE_WEIGHT
            }
        });
        let mut take = None;
        let mut take_score = 0.0f32;
        let mut ties = 0u64;
        // The take ids of the mask, ascending.
        let mut takes = mask & ((1 << (DOUBLE + 5)) - 1);
        while takes != 0 {
            let id = takes.trailing_zeros() as u16;
            takes &= takes - 1;
            let (score, n) = if id < DOUBLE {
                let m = TAKE_MASKS[id as usize];
                let s: f32 = (0..5).filter(|c| m >> c & 1 != 0).map(|c| weight[c]).sum();
                (s, m.count_ones() as f32)
            } else {
                // Two of one colour help only as far as the target misses them.
                let c = (id - DOUBLE) as usize;
                let useful = f32::from(first.get(c).min(2));
                let s = if useful > 0.0 {
                    TARGET_WEIGHT * useful + SPARE_WEIGHT * (2.0 - useful)
                } else {
                    2.0 * weight[c].min(SECOND_WEIGHT)
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
    use crate::variants::base::state::EMPTY;

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

    /// `targets` as it was written before the shortfalls were computed 16
    /// slots at once: one card at a time, board row by row, then the reserve.
    fn targets_per_card(s: &BaseState) -> (Gems, Gems, Option<(usize, usize)>) {
        let p = s.current as usize;
        let (t, b) = (s.tokens[p], s.bonus[p]);
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
        for (l, row) in s.board.iter().enumerate() {
            for (k, &c) in row.iter().enumerate() {
                if c != EMPTY {
                    consider(c, Some((l, k)));
                }
            }
        }
        for &c in s.reserved(p) {
            consider(c, None);
        }
        (best[0].1, best[1].1, best[0].2)
    }

    /// Every position of seeded random games (2-4 players), each with its
    /// legal list.
    fn random_positions(games: u64) -> Vec<(BaseState, ActionList)> {
        let mut out = Vec::new();
        for seed in 0..games {
            let config = Config {
                num_players: 2 + (seed % 3) as u8,
                seed,
                turn_cap: 100,
            };
            let mut s = BaseState::new(&config).expect("valid");
            let mut rng = SplitMix64::new(seed);
            while !s.is_terminal() {
                let mut list = ActionList::new();
                s.legal_actions(&mut list);
                let a = list.as_slice()[rng.below(list.len() as u64) as usize];
                out.push((s, list));
                s.apply_unchecked(a);
            }
        }
        out
    }

    /// The playout's targets, return and take choices rest on `targets`:
    /// the same two cards, shortfalls and slot as the per-card scan.
    #[test]
    fn targets_are_the_per_card_scan() {
        let positions = random_positions(150);
        for (s, _) in &positions {
            assert_eq!(s.targets(), targets_per_card(s), "{}", s.to_json(None));
        }
        assert!(positions.len() > 15_000, "{}", positions.len());
    }

    /// The playout reads the main-phase mask back from the legal list.
    #[test]
    fn the_main_mask_is_read_back_from_the_list() {
        let mut main = 0;
        for (s, list) in random_positions(150) {
            if s.phase == Phase::Main {
                assert_eq!(main_mask_of(list.as_slice()), s.main_mask());
                main += 1;
            }
        }
        assert!(main > 10_000, "{main}");
    }

    /// The search's priors: `child_values` is `one_ply_value` of every
    /// action bit for bit, for the seat to move (which shares the other
    /// seats' values between children) and for any other seat; and the cut
    /// evaluation's `evaluate_all` is `evaluate` of every seat.
    #[test]
    fn shared_values_are_the_one_by_one_values_bit_for_bit() {
        let mut shared = 0;
        for (s, list) in random_positions(60) {
            let legal = list.as_slice();
            for mover in 0..s.num_players {
                let mut got = vec![0.0f32; legal.len()];
                s.child_values(legal, mover, &mut got);
                for (&a, g) in legal.iter().zip(&got) {
                    let want = crate::game::one_ply_value(&s, a, mover);
                    assert_eq!(g.to_bits(), want.to_bits(), "{a:?} for {mover}");
                    let mut child = s;
                    child.apply_unchecked(a);
                    if mover == s.current && child.board == s.board {
                        shared += 1;
                    }
                }
            }
            let all = s.evaluate_all();
            for (p, got) in all.iter().enumerate() {
                let want = if p < usize::from(s.num_players) {
                    s.evaluate(p as Player)
                } else {
                    0.0
                };
                assert_eq!(got.to_bits(), want.to_bits(), "seat {p}");
            }
        }
        assert!(shared > 30_000, "{shared}");
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
