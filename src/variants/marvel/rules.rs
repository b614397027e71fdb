//! Marvel rules: legal actions, applying them, the end of a turn and the outcome.

use super::actions::*;
use super::state::*;
use crate::game::{Action, ActionList, EndReason, Outcome};
use crate::gems::Gems;

/// For each 5-bit mask of stone colours in the bank, the take ids `0..25`
/// legal with it: the ten triples when three or more colours are there,
/// otherwise the pairs and the singles (docs/marvel.md).
const TAKE_LEGAL: [u32; 32] = take_legal();

const fn take_legal() -> [u32; 32] {
    let mut out = [0u32; 32];
    let mut m = 0;
    while m < 32 {
        let mut bits = 0u32;
        let mut i = 0;
        if (m as u32).count_ones() >= 3 {
            while i < 10 {
                if TRIPLES[i] as usize & m == TRIPLES[i] as usize {
                    bits |= 1 << (TAKE3 as usize + i);
                }
                i += 1;
            }
        } else {
            while i < 10 {
                if PAIRS[i] as usize & m == PAIRS[i] as usize {
                    bits |= 1 << (TAKE2D as usize + i);
                }
                i += 1;
            }
            let mut c = 0;
            while c < 5 {
                if m & (1 << c) != 0 {
                    bits |= 1 << (TAKE1 as usize + c);
                }
                c += 1;
            }
        }
        out[m] = bits;
        m += 1;
    }
    out
}

impl MarvelState {
    /// The card a recruit action (board slot or reserve index) refers to, or NONE.
    #[inline]
    pub(super) fn card_at(&self, a: u16) -> u8 {
        let p = self.current as usize;
        if (RECRUIT..RECRUIT_RES).contains(&a) {
            let k = (a - RECRUIT) as usize;
            self.board[k / 4][k % 4]
        } else if (RECRUIT_RES..RETURN).contains(&a) {
            let k = (a - RECRUIT_RES) as usize;
            if k < self.n_reserved[p] as usize {
                self.reserved[p][k]
            } else {
                NONE
            }
        } else {
            NONE
        }
    }

    /// (need, grey that must be used) for the current player and `card`.
    #[inline]
    fn need_and_short(&self, card: u8) -> (Gems, Gems) {
        let p = self.current as usize;
        let need = self.data.costs[card as usize].saturating_sub(self.bonus[p]);
        (need, need.saturating_sub(self.tokens[p]))
    }

    /// The single payment when there is exactly one, else None (there may be
    /// none or several). The minimal-grey payment is unique exactly when no
    /// grey is left over or no coloured token would be spent.
    #[inline]
    fn unique_payment(&self, card: u8) -> Option<Gems> {
        let (need, short) = self.need_and_short(card);
        let grey = u32::from(self.tokens[self.current as usize].get(GREY));
        let s = short.total();
        (s == grey || need.sub(short).total() == 0).then_some(short)
    }

    /// Fills `out` with the legal actions, ascending.
    pub(super) fn legal(&self, out: &mut ActionList) {
        out.clear();
        let p = self.current as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Pay => {
                let card = self.card_at(u16::from(self.pending));
                if card == NONE {
                    return;
                }
                let (need, short) = self.need_and_short(card);
                let grey = usize::from(self.tokens[p].get(GREY));
                // Every g with short ≤ g ≤ need and Σg ≤ grey, in id order
                // (lexicographic), without scanning all 252 vectors.
                let lo = |c: usize| usize::from(short.get(c));
                let hi = |c: usize| usize::from(need.get(c)).min(grey);
                for a in lo(0)..=hi(0) {
                    for b in lo(1)..=hi(1).min(grey - a) {
                        let ab = a + b;
                        for r in lo(2)..=hi(2).min(grey - ab) {
                            let abr = ab + r;
                            for o in lo(3)..=hi(3).min(grey - abr) {
                                let abro = abr + o;
                                for y in lo(4)..=hi(4).min(grey - abro) {
                                    let k = a * 1296 + b * 216 + r * 36 + o * 6 + y;
                                    out.push(Action(PAY + u16::from(GREY_RANK[k])));
                                }
                            }
                        }
                    }
                }
            }
            Phase::Return => {
                let m = self.tokens[p].nonzero_mask();
                for c in 0..6 {
                    if m & (1 << c) != 0 {
                        out.push(Action(RETURN + c));
                    }
                }
            }
            Phase::Location => {
                let m = self.qualifying_locations(p);
                for id in 0..8 {
                    if m & (1 << id) != 0 {
                        out.push(Action(LOCATION + id));
                    }
                }
            }
            Phase::Main => self.legal_main(out),
        }
    }

    fn legal_main(&self, out: &mut ActionList) {
        let bits = self.main_mask();
        if bits == 0 {
            out.push(Action(PASS));
        }
        out.push_mask(0, bits);
    }

    /// Main-phase actions as a bitmask of ids `0..60` (pass not included):
    /// every main action id is below 64, so the list is one `push_mask`.
    #[inline]
    pub(super) fn main_mask(&self) -> u64 {
        let p = self.current as usize;
        let stones = self.bank.low_lanes(5);
        let board = crate::gems::occupied_slots(self.board.as_flattened().try_into().expect("12"));
        let mut bits = u64::from(TAKE_LEGAL[usize::from(stones.nonzero_mask() & 31)])
            | u64::from(stones.at_least_mask(4) & 31) << TAKE2S;
        if self.n_reserved[p] < MAX_RESERVED {
            bits |= u64::from(board) << RESERVE;
            for lv in 0..3 {
                let left = usize::from(self.deck_top[lv]) < DECK_OFFSET[lv + 1];
                bits |= u64::from(left) << (RESERVE_DECK as usize + lv);
            }
        }
        bits | u64::from(self.recruitable_slots(p, board)) << RECRUIT
    }

    /// Bit `k` for every face-up card `k` (`4l+s`, `board` the occupied
    /// ones) and bit `12+i` for every reserved card `i` that `p` can pay for:
    /// the recruit ids less `RECRUIT` (the face-up and reserved blocks are
    /// adjacent). The shortfall after bonuses and tokens, `max(0, cost -
    /// bonus - tokens)`, must be covered by grey.
    #[inline]
    fn recruitable_slots(&self, p: usize, board: u16) -> u16 {
        let costs = &*self.data.costs;
        // An empty slot reads a zero cost: the occupancy mask drops it.
        let cost = |k: usize| match k {
            0..12 => costs[self.board[k / 4][k % 4] as usize].0,
            12..15 => costs[self.reserved[p][k - 12] as usize].0,
            _ => Gems::ZERO.0,
        };
        let held = (1u16 << self.n_reserved[p]) - 1;
        let power = self.bonus[p].add(self.tokens[p]);
        let grey = self.tokens[p].get(GREY);
        crate::afford::affordable_mask_by(cost, power.0, grey) & (board | held << 12)
    }

    /// Whether action `id` is legal now: the one condition of `legal` that
    /// decides this id, without building the list (a checked apply pays for
    /// one test). `legality_agrees_with_the_list` proves the two agree.
    pub(super) fn allows(&self, id: u16) -> bool {
        let p = self.current as usize;
        match self.phase {
            Phase::Over => false,
            Phase::Pay => {
                let card = self.card_at(u16::from(self.pending));
                if card == NONE || !(PAY..PASS).contains(&id) {
                    return false;
                }
                let g = GREY_VECTORS[usize::from(id - PAY)];
                let (need, short) = self.need_and_short(card);
                let grey = u32::from(self.tokens[p].get(GREY));
                short.all_le(g) && g.all_le(need) && g.total() <= grey
            }
            Phase::Return => {
                (RETURN..LOCATION).contains(&id) && self.tokens[p].get(usize::from(id - RETURN)) > 0
            }
            Phase::Location => {
                (LOCATION..PAY).contains(&id)
                    && (self.qualifying_locations(p) >> (id - LOCATION)) & 1 != 0
            }
            Phase::Main => match id {
                TAKE3..TAKE2S => {
                    let avail = self.bank.low_lanes(5).nonzero_mask() & 31;
                    (TAKE_LEGAL[usize::from(avail)] >> id) & 1 != 0
                }
                TAKE2S..RESERVE => self.bank.get(usize::from(id - TAKE2S)) >= 4,
                RESERVE..RESERVE_DECK => {
                    let k = usize::from(id - RESERVE);
                    self.n_reserved[p] < MAX_RESERVED && self.board[k / 4][k % 4] != NONE
                }
                RESERVE_DECK..RECRUIT => {
                    self.n_reserved[p] < MAX_RESERVED
                        && !self.deck(usize::from(id - RESERVE_DECK)).is_empty()
                }
                RECRUIT..RETURN => {
                    let card = self.card_at(id);
                    card != NONE && {
                        let (bonus, tokens) = (self.bonus[p], self.tokens[p]);
                        self.data.costs[card as usize]
                            .saturating_sub(bonus)
                            .saturating_sub(tokens)
                            .total()
                            <= u32::from(tokens.get(GREY))
                    }
                }
                PASS => self.main_mask() == 0,
                _ => false,
            },
        }
    }

    /// Applies an action assumed legal.
    pub(super) fn step(&mut self, a: u16) {
        let p = self.current as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Pay => {
                if let Some(&g) = GREY_VECTORS.get(a.wrapping_sub(PAY) as usize) {
                    self.recruit(u16::from(self.pending), g);
                }
            }
            Phase::Return => {
                let u = Gems::unit((a.wrapping_sub(RETURN) as usize).min(GREY), 1);
                if u.all_le(self.tokens[p]) {
                    self.tokens[p] = self.tokens[p].sub(u);
                    self.bank = self.bank.add(u);
                }
                self.continue_turn();
            }
            Phase::Location => {
                let id = a.wrapping_sub(LOCATION) as usize;
                if id < 8 {
                    self.take_location(id);
                }
                self.end_turn(false);
            }
            Phase::Main => self.step_main(a),
        }
    }

    fn step_main(&mut self, a: u16) {
        let p = self.current as usize;
        match a {
            _ if a < TAKE2D => self.take(TRIPLES[a as usize], 1),
            _ if a < TAKE1 => self.take(PAIRS[(a - TAKE2D) as usize], 1),
            _ if a < TAKE2S => self.take(1 << (a - TAKE1), 1),
            _ if a < RESERVE => self.take(1 << (a - TAKE2S), 2),
            _ if a < RECRUIT => {
                if self.n_reserved[p] >= MAX_RESERVED {
                    return;
                }
                let (card, blind) = if a < RESERVE_DECK {
                    let k = (a - RESERVE) as usize;
                    let c = self.board[k / 4][k % 4];
                    self.refill(k);
                    (c, false)
                } else {
                    (self.draw((a - RESERVE_DECK) as usize), true)
                };
                if card == NONE {
                    return;
                }
                let i = self.n_reserved[p];
                self.reserved[p][i as usize] = card;
                self.hidden[p] |= u8::from(blind) << i;
                self.n_reserved[p] += 1;
                if self.bank.get(GREY) > 0 {
                    let u = Gems::unit(GREY, 1);
                    self.bank = self.bank.sub(u);
                    self.tokens[p] = self.tokens[p].add(u);
                }
                self.continue_turn();
            }
            _ if a < RETURN => {
                let card = self.card_at(a);
                if card == NONE {
                    return;
                }
                if let Some(g) = self.unique_payment(card) {
                    self.recruit(a, g);
                } else {
                    self.phase = Phase::Pay;
                    self.pending = a as u8;
                    if a >= RECRUIT_RES {
                        // The card is shown as it is recruited: a blind
                        // reserve is public from here on (docs/marvel.md).
                        self.hidden[p] &= !(1 << (a - RECRUIT_RES));
                    }
                }
            }
            _ => self.end_turn(true),
        }
    }

    fn take(&mut self, mask: u8, n: u8) {
        let p = self.current as usize;
        let mut g = Gems::ZERO;
        for c in 0..5 {
            if mask & (1 << c) != 0 {
                g = g.add(Gems::unit(c, n));
            }
        }
        self.bank = self.bank.sub(g);
        self.tokens[p] = self.tokens[p].add(g);
        self.continue_turn();
    }

    fn refill(&mut self, k: usize) {
        let card = self.draw(k / 4);
        self.board[k / 4][k % 4] = card;
    }

    fn recruit(&mut self, a: u16, grey: Gems) {
        let p = self.current as usize;
        let card = if a < RECRUIT_RES {
            let k = (a - RECRUIT) as usize;
            let c = self.board[k / 4][k % 4];
            self.refill(k);
            c
        } else {
            let i = (a - RECRUIT_RES) as usize;
            let c = self.reserved[p][i];
            let n = self.n_reserved[p] as usize;
            self.reserved[p].copy_within(i + 1..n, i);
            self.reserved[p][n - 1] = NONE;
            self.n_reserved[p] -= 1;
            let h = self.hidden[p];
            self.hidden[p] = (h & ((1 << i) - 1)) | ((h >> (i + 1)) << i);
            c
        };
        let info = &self.data.cards[card as usize];
        let need = info.cost.saturating_sub(self.bonus[p]);
        let paid = need.sub(grey).add(Gems::unit(GREY, grey.total() as u8));
        self.tokens[p] = self.tokens[p].sub(paid);
        self.bank = self.bank.add(paid);
        self.owned[p].insert(card);
        self.bonus[p] = self.bonus[p].add(Gems::unit(info.bonus as usize, 1));
        self.base_points[p] += u16::from(info.points);
        self.icons[p] += u16::from(info.avengers);
        if info.time_stone && self.tokens[p].get(GREEN) == 0 {
            let u = Gems::unit(GREEN, 1);
            self.tokens[p] = self.tokens[p].add(u);
            self.bank = self.bank.sub(u);
        }
        let mine = self.icons[p];
        if self.avengers == NONE {
            if mine >= u16::from(AVENGERS_ICONS) {
                self.avengers = p as u8;
            }
        } else if self.avengers as usize != p && mine > self.icons[self.avengers as usize] {
            self.avengers = p as u8;
        }
        self.pending = NONE;
        self.continue_turn();
    }

    fn take_location(&mut self, id: usize) {
        let p = self.current as usize;
        self.loc_display &= !(1 << id);
        self.loc_owned[p] |= 1 << id;
        self.base_points[p] += u16::from(self.data.locations[id].points);
    }

    /// End-of-turn steps after the main action: returns, then a location.
    fn continue_turn(&mut self) {
        let p = self.current as usize;
        if self.tokens[p].total() > TOKEN_LIMIT {
            self.phase = Phase::Return;
            return;
        }
        let q = self.qualifying_locations(p);
        if q.count_ones() >= 2 {
            self.phase = Phase::Location;
            return;
        }
        if q != 0 {
            self.take_location(q.trailing_zeros() as usize);
        }
        self.end_turn(false);
    }

    fn end_turn(&mut self, passed: bool) {
        let n = self.num_players;
        self.turn += 1;
        self.passes = if passed { self.passes + 1 } else { 0 };
        self.pending = NONE;
        // `current == turn % n` always holds, so the round is complete exactly
        // when the last seat has moved (no division on the hot path).
        let round_complete = self.current + 1 == n;
        if (round_complete && self.anyone_meets_gauntlet())
            || self.passes >= n
            || u32::from(self.turn) >= u32::from(self.turn_cap) * u32::from(n)
        {
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Main;
            self.current = if round_complete { 0 } else { self.current + 1 };
        }
    }

    /// The result once the game is over.
    pub(super) fn result(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.num_players;
        let meets: u8 = (0..n)
            .filter(|&p| self.meets_gauntlet(p as usize))
            .fold(0, |m, p| m | (1 << p));
        let reason = if self.turn % u16::from(n) == 0 && meets != 0 {
            EndReason::Gauntlet
        } else if self.passes >= n {
            EndReason::Stalled
        } else {
            return Some(Outcome {
                winners: 0,
                reason: EndReason::Truncated,
                num_players: n,
            });
        };
        let pool = if meets != 0 { meets } else { (1 << n) - 1 };
        let key = |p: usize| {
            (
                self.points(p),
                u8::from(self.avengers as usize == p),
                u8::MAX - self.owned[p].len() as u8,
            )
        };
        let best = (0..n as usize)
            .filter(|&p| pool & (1 << p) != 0)
            .map(key)
            .max();
        let winners = (0..n as usize)
            .filter(|&p| pool & (1 << p) != 0 && Some(key(p)) == best)
            .fold(0u8, |m, p| m | (1 << p));
        Some(Outcome {
            winners,
            reason,
            num_players: n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked apply's per-action test and the move generator agree on
    /// every id in every position of random games (2–4 players, every phase).
    #[test]
    fn legality_agrees_with_the_list() {
        use crate::game::{Config, Game};
        let mut list = ActionList::new();
        let mut positions = 0;
        for seed in 0..300u64 {
            let config = Config {
                num_players: 2 + (seed % 3) as u8,
                seed,
                turn_cap: 100,
            };
            let mut s = MarvelState::new_game(&config).expect("valid");
            let mut rng = crate::rng::SplitMix64::new(seed);
            loop {
                s.legal(&mut list);
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
                s.step(list.as_slice()[rng.below(list.len() as u64) as usize].0);
            }
        }
        assert!(positions > 40_000, "{positions}");
    }

    #[test]
    fn take_table_matches_the_rule() {
        // All five colours: the ten triples only.
        assert_eq!(TAKE_LEGAL[31], (1 << 10) - 1);
        // Two colours: their pair and both singles.
        let m = 0b00101u8;
        let pair = PAIRS.iter().position(|&x| x == m).expect("a pair");
        assert_eq!(
            TAKE_LEGAL[usize::from(m)],
            (1 << (TAKE2D as usize + pair)) | (1 << TAKE1) | (1 << (TAKE1 + 2))
        );
        assert_eq!(TAKE_LEGAL[0], 0);
    }
}
