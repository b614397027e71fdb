//! Move generation, move application and the end of the turn (docs/base.md,
//! "Phases and the turn").

use super::actions::*;
use super::cards::{self, GOLD};
use super::state::{BaseState, Phase, DECK_CAP, EMPTY};
use crate::game::{Action, ActionList, EndReason, Outcome, MAX_PLAYERS};
use crate::gems::Gems;

/// Points that trigger the last round.
pub const WINNING_POINTS: u8 = 15;
/// Most tokens a player may keep at the end of a turn.
pub const TOKEN_LIMIT: u32 = 10;

/// A cost no player can pay (127 of each colour): what an empty slot costs.
const UNPAYABLE: u64 = 0x7F_7F7F_7F7F;

const fn cost_or_unpayable_table() -> [u64; 256] {
    let mut t = [UNPAYABLE; 256];
    let mut c = 0;
    while c < cards::NUM_CARDS {
        t[c] = cards::CARD_COST[c];
        c += 1;
    }
    t
}

/// Card costs by id, padded to 256 entries so that `EMPTY` (and any byte)
/// indexes without a bounds check and reads an unpayable cost.
static COST_OR_UNPAYABLE: [u64; 256] = cost_or_unpayable_table();

/// The cost of `card`, or one nobody can pay for `EMPTY`.
#[inline]
pub(crate) fn cost_or_unpayable(card: u8) -> u64 {
    COST_OR_UNPAYABLE[card as usize]
}

/// Whether a player holding `tokens` (gold in lane 5) with `bonus` can pay for `card`.
#[inline]
pub fn can_afford(tokens: Gems, bonus: Gems, card: u8) -> bool {
    affordable(buying_power(tokens, bonus), tokens.get(GOLD), card)
}

/// Coloured tokens plus bonuses per colour: `max(0, cost - bonus - tokens)`
/// is the shortfall that gold must cover, so one saturating subtraction per
/// card decides affordability.
#[inline]
fn buying_power(tokens: Gems, bonus: Gems) -> Gems {
    bonus.add(tokens.low_lanes(5))
}

#[inline]
fn affordable(power: Gems, gold: u8, card: u8) -> bool {
    cards::cost(card).saturating_sub(power).total() <= u32::from(gold)
}

/// Number of distinct payments (gold vectors) for `card`, capped at 2.
#[inline]
fn payment_choice(tokens: Gems, bonus: Gems, card: u8) -> (Gems, bool) {
    let need = cards::cost(card).saturating_sub(bonus);
    let short = need.saturating_sub(tokens);
    // More than one payment exactly when a spare gold exists and some needed
    // colour could be paid either with a coloured token or with gold.
    let several = u32::from(tokens.get(GOLD)) > short.total() && need.sub(short).0 != 0;
    (short, several)
}

/// Pushes the pay ids of every gold vector `g` with `short ≤ g ≤ need`
/// (lane-wise) and `Σ g ≤ gold`, ascending: a lexicographic walk of the box,
/// which matches the id order of docs/base.md.
fn push_payments(out: &mut ActionList, short: Gems, need: Gems, gold: u8) {
    let lo: [u8; 5] = std::array::from_fn(|c| short.get(c));
    let hi: [u8; 5] = std::array::from_fn(|c| need.get(c).min(5));
    let mut g = lo;
    let base: u32 = lo.iter().map(|&x| u32::from(x)).sum();
    if base > u32::from(gold) {
        return;
    }
    loop {
        let code = g.iter().fold(0usize, |acc, &x| acc * 6 + x as usize);
        out.push(Action(PAY + u16::from(PAYMENT_INDEX[code])));
        // Odometer step (last colour fastest) within the box and the gold budget.
        let mut sum: u32 = g.iter().map(|&x| u32::from(x)).sum();
        let mut c = 5;
        loop {
            if c == 0 {
                return;
            }
            c -= 1;
            if g[c] < hi[c] && sum < u32::from(gold) {
                g[c] += 1;
                break;
            }
            sum -= u32::from(g[c] - lo[c]);
            g[c] = lo[c];
        }
    }
}

impl BaseState {
    #[inline]
    fn seat(&self) -> usize {
        self.current as usize
    }

    /// The card a buy id (face-up or reserved) refers to, or `EMPTY`.
    #[inline]
    pub(crate) fn buy_target(&self, id: u16) -> u8 {
        if id < BUY_RESERVED {
            let k = (id - BUY) as usize;
            self.board[k / 4][k % 4]
        } else {
            self.reserved[self.seat()][(id - BUY_RESERVED) as usize]
        }
    }

    /// Bit `n` set for every displayed noble `n` that `seat` qualifies for.
    #[inline]
    pub(crate) fn qualifying_nobles(&self, seat: usize) -> u16 {
        let b = self.bonus[seat];
        let mut m = 0u16;
        if b.total() < cards::MIN_NOBLE_TOTAL {
            return 0;
        }
        for &n in &self.display[..self.n_display as usize] {
            if cards::noble_req(n).all_le(b) {
                m |= 1 << n;
            }
        }
        m
    }

    /// Bit `4l+s` set when board slot `s` of level index `l` holds a card.
    #[inline]
    pub(crate) fn board_mask(&self) -> u16 {
        crate::gems::occupied_slots(self.board.as_flattened().try_into().expect("12 slots"))
    }

    /// Main-phase actions as a bitmask of ids 0..60 (pass not included).
    #[inline]
    pub(crate) fn main_mask(&self) -> u64 {
        let p = self.seat();
        let colours = self.bank.low_lanes(5);
        let mut bits = u64::from(TAKE_LEGAL[(colours.nonzero_mask() & 31) as usize])
            | u64::from(colours.at_least_mask(4) & 31) << DOUBLE;
        if self.n_reserved[p] < 3 {
            bits |= u64::from(self.board_mask()) << RESERVE;
            for (l, (&top, &cap)) in self.top.iter().zip(DECK_CAP.iter()).enumerate() {
                if top < cap {
                    bits |= 1 << (BLIND as usize + l);
                }
            }
        }
        bits | u64::from(self.affordable_slots(p)) << BUY
    }

    /// Bit `k` set for every face-up card `k` (`4l+s`) and bit `12+i` for
    /// every reserved card `i` that `p` can pay for: the buy ids `45..60`
    /// less `BUY` (face-up and reserved buys are adjacent id blocks).
    #[inline]
    pub(crate) fn affordable_slots(&self, p: usize) -> u16 {
        let power = buying_power(self.tokens[p], self.bonus[p]);
        let gold = self.tokens[p].get(GOLD);
        // Empty board slots, unused reserve slots and the 16th lane look up
        // a cost nobody can pay, so no test of emptiness is needed.
        let cost = |k: usize| COST_OR_UNPAYABLE[usize::from(self.slot_card(p, k))];
        crate::afford::affordable_mask_by(cost, power.0, gold) & 0x7FFF
    }

    /// The card in slot `k` of the 16 that `p`'s affordability looks at:
    /// face-up card `k` (`4l+s`) for `k < 12`, reserved card `k - 12` of
    /// `p`, `EMPTY` for an unused reserve slot and for slot 15.
    #[inline(always)]
    pub(crate) fn slot_card(&self, p: usize, k: usize) -> u8 {
        match k {
            0..12 => self.board[k / 4][k % 4],
            12..15 => self.reserved[p][k - 12],
            _ => EMPTY,
        }
    }

    /// The return phase's actions as a bitmask of ids `RETURN..RETURN + 6`
    /// less `RETURN`: the colours (gold too) the player to move holds.
    #[inline]
    pub(crate) fn return_mask(&self) -> u64 {
        u64::from(self.tokens[self.seat()].nonzero_mask() & 0x3F)
    }

    /// The noble phase's actions as a bitmask of ids `NOBLE..NOBLE + 10`
    /// less `NOBLE`: the nobles on display the player to move qualifies for.
    #[inline]
    pub(crate) fn noble_mask(&self) -> u64 {
        u64::from(self.qualifying_nobles(self.seat()))
    }

    /// Fills `out` with the legal actions, ascending.
    pub(crate) fn legal_into(&self, out: &mut ActionList) {
        out.clear();
        let p = self.seat();
        match self.phase {
            Phase::Main => {
                let bits = self.main_mask();
                if bits == 0 {
                    out.push(Action(PASS));
                }
                out.push_mask(0, bits);
            }
            Phase::Pay => {
                let card = self.buy_target(u16::from(self.pending));
                let t = self.tokens[p];
                let need = cards::cost(card).saturating_sub(self.bonus[p]);
                let short = need.saturating_sub(t);
                push_payments(out, short, need, t.get(GOLD));
            }
            Phase::Return => out.push_mask(RETURN, self.return_mask()),
            Phase::Noble => out.push_mask(NOBLE, self.noble_mask()),
            Phase::Over => {}
        }
    }

    /// Whether action `id` is legal now, without building the legal list.
    pub(crate) fn allows(&self, id: u16) -> bool {
        let p = self.seat();
        match self.phase {
            // The one condition of `main_mask` that decides this id, without
            // computing the others (a checked apply pays for one test, not for
            // the whole list); `legality_agrees_with_the_list` proves they agree.
            Phase::Main => match id {
                0..DOUBLE => {
                    let colours = self.bank.low_lanes(5).nonzero_mask() & 31;
                    (TAKE_LEGAL[colours as usize] >> id) & 1 != 0
                }
                DOUBLE..RESERVE => self.bank.get((id - DOUBLE) as usize) >= 4,
                RESERVE..BLIND => {
                    let k = (id - RESERVE) as usize;
                    self.n_reserved[p] < 3 && self.board[k / 4][k % 4] != EMPTY
                }
                BLIND..BUY => {
                    let l = (id - BLIND) as usize;
                    self.n_reserved[p] < 3 && self.top[l] < DECK_CAP[l]
                }
                BUY..RETURN => {
                    let card = self.buy_target(id);
                    let (tokens, bonus) = (self.tokens[p], self.bonus[p]);
                    card != EMPTY && can_afford(tokens, bonus, card)
                }
                PASS => self.main_mask() == 0,
                _ => false,
            },
            Phase::Pay => {
                if !(PAY..PASS).contains(&id) {
                    return false;
                }
                let g = PAYMENTS[(id - PAY) as usize];
                let t = self.tokens[p];
                let card = self.buy_target(u16::from(self.pending));
                let need = cards::cost(card).saturating_sub(self.bonus[p]);
                let short = need.saturating_sub(t);
                short.all_le(g) && g.all_le(need) && g.total() <= u32::from(t.get(GOLD))
            }
            Phase::Return => {
                (RETURN..NOBLE).contains(&id) && self.tokens[p].get((id - RETURN) as usize) > 0
            }
            Phase::Noble => {
                (NOBLE..PAY).contains(&id) && (self.qualifying_nobles(p) >> (id - NOBLE)) & 1 != 0
            }
            Phase::Over => false,
        }
    }

    /// Applies an action assumed legal.
    pub(crate) fn apply_action(&mut self, a: Action) {
        let id = a.0;
        let p = self.seat();
        match id {
            0..=29 => {
                let g = TAKE_GEMS[id as usize];
                self.tokens[p] = self.tokens[p].add(g);
                self.bank = self.bank.sub(g);
                self.passes = 0;
                self.end_turn();
            }
            30..=44 => {
                let card = if id < BLIND {
                    let k = (id - RESERVE) as usize;
                    let (l, s) = (k / 4, k % 4);
                    let c = self.board[l][s];
                    self.board[l][s] = self.draw(l);
                    c
                } else {
                    let i = self.n_reserved[p] as usize;
                    self.hidden |= 1 << (3 * p + i);
                    self.draw((id - BLIND) as usize)
                };
                let i = self.n_reserved[p] as usize;
                self.reserved[p][i] = card;
                self.n_reserved[p] += 1;
                if self.bank.get(GOLD) > 0 {
                    self.bank = self.bank.sub(Gems::unit(GOLD, 1));
                    self.tokens[p] = self.tokens[p].add(Gems::unit(GOLD, 1));
                }
                self.passes = 0;
                self.end_turn();
            }
            45..=59 => {
                self.passes = 0;
                let card = self.buy_target(id);
                let (short, several) = payment_choice(self.tokens[p], self.bonus[p], card);
                if several {
                    self.phase = Phase::Pay;
                    self.pending = id as u8;
                    if id >= BUY_RESERVED {
                        // The card is shown as it is bought: a blind reserve
                        // is public from here on (docs/base.md).
                        self.hidden &= !(1 << (3 * p + usize::from(id - BUY_RESERVED)));
                    }
                } else {
                    self.complete_buy(id, short);
                }
            }
            60..=65 => {
                let g = Gems::unit((id - RETURN) as usize, 1);
                self.tokens[p] = self.tokens[p].sub(g);
                self.bank = self.bank.add(g);
                if self.tokens[p].total() <= TOKEN_LIMIT {
                    self.nobles_step();
                }
            }
            66..=75 => {
                self.claim_noble((id - NOBLE) as u8);
                self.advance();
            }
            76..=327 => {
                let pending = u16::from(self.pending);
                self.pending = 0;
                self.complete_buy(pending, PAYMENTS[(id - PAY) as usize]);
            }
            _ => {
                self.passes += 1;
                self.end_turn();
            }
        }
    }

    /// Pays for the card of buy id `id` with gold vector `g` and takes it.
    fn complete_buy(&mut self, id: u16, g: Gems) {
        let p = self.seat();
        let card = self.buy_target(id);
        let need = cards::cost(card).saturating_sub(self.bonus[p]);
        let paid = need.sub(g).add(Gems::unit(GOLD, g.total() as u8));
        self.tokens[p] = self.tokens[p].sub(paid);
        self.bank = self.bank.add(paid);
        if id < BUY_RESERVED {
            let k = (id - BUY) as usize;
            self.board[k / 4][k % 4] = self.draw(k / 4);
        } else {
            self.remove_reserved(p, (id - BUY_RESERVED) as usize);
        }
        self.owned[p].insert(card);
        self.bonus[p] = self.bonus[p].add(Gems::unit(cards::bonus(card), 1));
        self.points[p] += cards::points(card);
        self.phase = Phase::Main;
        self.end_turn();
    }

    fn remove_reserved(&mut self, p: usize, i: usize) {
        let n = self.n_reserved[p] as usize;
        self.reserved[p].copy_within(i + 1..n, i);
        self.reserved[p][n - 1] = EMPTY;
        self.n_reserved[p] -= 1;
        let bits = (self.hidden >> (3 * p)) & 7;
        let kept = (bits & ((1 << i) - 1)) | ((bits >> (i + 1)) << i);
        self.hidden = (self.hidden & !(7 << (3 * p))) | (kept << (3 * p));
    }

    fn claim_noble(&mut self, noble: u8) {
        let p = self.seat();
        let n = self.n_display as usize;
        if let Some(pos) = self.display[..n].iter().position(|&x| x == noble) {
            self.display.copy_within(pos + 1..n, pos);
            self.display[n - 1] = EMPTY;
            self.n_display -= 1;
        }
        // Kept sorted by seat (claim order within a seat) so that a state
        // rebuilt from JSON, which only has per-seat lists, compares equal.
        let k = self.n_claimed as usize;
        let at = self.claimed[..k]
            .iter()
            .take_while(|&&c| usize::from(c >> 4) <= p)
            .count();
        self.claimed.copy_within(at..k, at + 1);
        self.claimed[at] = ((p as u8) << 4) | noble;
        self.n_claimed += 1;
        self.points[p] += cards::noble_points(noble);
    }

    /// End of the turn after the main action and its payment: returns, then nobles.
    fn end_turn(&mut self) {
        if self.tokens[self.seat()].total() > TOKEN_LIMIT {
            self.phase = Phase::Return;
        } else {
            self.nobles_step();
        }
    }

    fn nobles_step(&mut self) {
        let m = self.qualifying_nobles(self.seat());
        // Zero, one or several nobles, without a popcount (not in the
        // x86_64 baseline, so `count_ones` is a dozen instructions).
        if m == 0 {
            self.advance();
        } else if m & (m - 1) == 0 {
            self.claim_noble(m.trailing_zeros() as u8);
            self.advance();
        } else {
            self.phase = Phase::Noble;
        }
    }

    fn advance(&mut self) {
        self.turn += 1;
        // Same checks as `end_reason`, with "the round is complete" read off
        // the seat instead of `turn % n` (no division on the hot path).
        let n = self.num_players;
        let over = (self.current + 1 == n
            && self.points[..n as usize]
                .iter()
                .any(|&p| p >= WINNING_POINTS))
            || self.passes >= n
            || u64::from(self.turn) >= u64::from(self.turn_cap) * u64::from(n);
        debug_assert_eq!(over, self.end_reason().is_some());
        if over {
            self.phase = Phase::Over;
        } else {
            self.current = if self.current + 1 == self.num_players {
                0
            } else {
                self.current + 1
            };
            self.phase = Phase::Main;
        }
    }

    /// The end conditions checked after `turn` was incremented, in the documented order.
    pub(crate) fn end_reason(&self) -> Option<EndReason> {
        let n = u32::from(self.num_players);
        let round_done = self.turn > 0 && self.turn % n == 0;
        if round_done
            && self.points[..n as usize]
                .iter()
                .any(|&p| p >= WINNING_POINTS)
        {
            Some(EndReason::Points)
        } else if u32::from(self.passes) >= n {
            Some(EndReason::Stalled)
        } else if u64::from(self.turn) >= u64::from(self.turn_cap) * u64::from(n) {
            Some(EndReason::Truncated)
        } else {
            None
        }
    }

    /// The result once the game is over.
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let reason = self.end_reason().unwrap_or(EndReason::Truncated);
        let n = self.num_players as usize;
        let mut winners = 0u8;
        if reason != EndReason::Truncated {
            let top = self.points[..n].iter().copied().max().unwrap_or(0);
            let fewest = (0..n)
                .filter(|&p| self.points[p] == top)
                .map(|p| self.owned[p].len())
                .min()
                .unwrap_or(0);
            for p in 0..n {
                if self.points[p] == top && self.owned[p].len() == fewest {
                    winners |= 1 << p;
                }
            }
        }
        Some(Outcome {
            winners,
            reason,
            num_players: self.num_players,
        })
    }

    /// Scores (points) per seat.
    pub(crate) fn scores_now(&self) -> [i32; MAX_PLAYERS] {
        self.points.map(i32::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn payment_walk_matches_brute_force() {
        let mut rng = SplitMix64::new(1);
        let mut list = ActionList::new();
        for _ in 0..3000 {
            let need: [u8; 5] = std::array::from_fn(|_| rng.below(5) as u8);
            let short: [u8; 5] = std::array::from_fn(|c| rng.below(u64::from(need[c]) + 1) as u8);
            let gold = rng.below(6) as u8;
            let (s, n) = (Gems::from_counts(&short), Gems::from_counts(&need));
            list.clear();
            push_payments(&mut list, s, n, gold);
            let brute: Vec<u16> = (0..NUM_PAYMENTS)
                .filter(|&i| {
                    let g = PAYMENTS[i];
                    s.all_le(g) && g.all_le(n) && g.total() <= u32::from(gold)
                })
                .map(|i| PAY + i as u16)
                .collect();
            let got: Vec<u16> = list.as_slice().iter().map(|a| a.0).collect();
            assert_eq!(got, brute, "short {short:?} need {need:?} gold {gold}");
        }
    }

    /// The checked apply's per-action test and the move generator agree on
    /// every id in every position of random games (2–4 players, every phase).
    #[test]
    fn legality_agrees_with_the_list() {
        let mut list = ActionList::new();
        let mut positions = 0;
        for seed in 0..300u64 {
            let config = crate::game::Config {
                num_players: 2 + (seed % 3) as u8,
                seed,
                turn_cap: 100,
            };
            let mut s = BaseState::new(&config).expect("valid");
            let mut rng = SplitMix64::new(seed);
            loop {
                s.legal_into(&mut list);
                for id in 0..NUM_ACTIONS as u16 {
                    assert_eq!(
                        s.allows(id),
                        list.contains(Action(id)),
                        "seed {seed}, id {id}, phase {:?}",
                        s.phase
                    );
                }
                positions += 1;
                if list.is_empty() {
                    break;
                }
                s.apply_action(list.as_slice()[rng.below(list.len() as u64) as usize]);
            }
        }
        assert!(positions > 40_000, "{positions}");
    }

    #[test]
    fn board_mask_reads_empty_slots() {
        let mut s = BaseState::new(&crate::game::Config::default()).expect("valid");
        assert_eq!(s.board_mask(), 0xFFF);
        s.board[0][1] = EMPTY;
        s.board[2][3] = EMPTY;
        assert_eq!(s.board_mask(), 0xFFF & !(1 << 1) & !(1 << 11));
    }
}
