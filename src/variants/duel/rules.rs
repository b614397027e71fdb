//! Legal actions and their effects (docs/duel.md, *Phases and the turn*).

use super::actions::*;
pub(crate) use super::board::IdBits;
use super::board::{line_take_bits, or_bits, LINE_MASKS};
use super::cards::*;
use super::state::*;
use crate::game::{Action, ActionList, EndReason};
use crate::gems::Gems;

/// End reasons stored in `end_reason` (0 = not over).
pub const REASONS: [EndReason; 4] = [
    EndReason::Points,
    EndReason::Crowns,
    EndReason::Colour,
    EndReason::Truncated,
];

impl DuelState {
    /// The card a buy id refers to, for the current player.
    #[inline]
    pub(crate) fn buy_card(&self, id: u16) -> u8 {
        if id < BUY_RESERVED {
            self.pyramid[usize::from(id - BUY)]
        } else {
            let i = usize::from(id - BUY_RESERVED);
            let p = self.current as usize;
            if i < self.reserved_len[p] as usize {
                self.reserved[p][i]
            } else {
                NONE
            }
        }
    }

    /// Tokens `p` must pay for `card` before gold (lanes w u g r k p).
    #[inline]
    pub(crate) fn need(&self, p: usize, card: u8) -> u64 {
        sat_sub(CARD_COST[card as usize], self.bonus[p])
    }

    /// Whether `p` may buy `card` now (a payment exists; jokers need a real colour).
    #[inline]
    pub(crate) fn can_buy(&self, p: usize, card: u8) -> bool {
        if card == NONE {
            return false;
        }
        if CARD_BONUS[card as usize] == BONUS_WILD && self.real_colours[p] == 0 {
            return false;
        }
        let power = self.bonus[p] + (self.tokens[p] & NON_GOLD);
        lane_sum(sat_sub(CARD_COST[card as usize], power)) <= u32::from(lane(self.tokens[p], 6))
    }

    /// Whether the gold vector `g` is a valid payment of `card` for `p`.
    pub(crate) fn payment_ok(&self, p: usize, card: u8, g: u64) -> bool {
        let need = self.need(p, card);
        let tok = self.tokens[p];
        if lane_sum(g) > u32::from(lane(tok, 6)) {
            return false;
        }
        (0..6).all(|k| {
            let (n, gk, t) = (lane(need, k), lane(g, k), lane(tok, k));
            gk <= n && n - gk <= t
        })
    }

    /// Pushes the pay ids of `card` for `p`: the gold vectors `g` with
    /// `short <= g <= need` lane by lane (`short` what the coloured tokens
    /// leave unpaid; `need - g <= tokens` is `g >= short`) and at most the
    /// gold held. Two SWAR comparisons per vector instead of a lane loop;
    /// `payments_are_the_valid_ones` checks it against `payment_ok`.
    fn push_payments(&self, p: usize, card: u8, out: &mut ActionList) {
        let need = Gems(self.need(p, card));
        let short = need.saturating_sub(Gems(self.tokens[p] & NON_GOLD));
        let gold = u32::from(lane(self.tokens[p], 6));
        for (i, &g) in PAYMENTS.iter().enumerate() {
            let g = Gems(g);
            if short.all_le(g) && g.all_le(need) && g.total() <= gold {
                out.push(Action(PAY + i as u16));
            }
        }
    }

    /// Whether `p` has more than one way to pay for `card` (given it can pay).
    #[inline]
    pub(crate) fn several_payments(&self, p: usize, card: u8) -> bool {
        let need = self.need(p, card);
        let short = sat_sub(need, self.tokens[p] & NON_GOLD);
        let spare_gold = u32::from(lane(self.tokens[p], 6)) - lane_sum(short);
        spare_gold > 0 && lane_sum(need) > lane_sum(short)
    }

    #[inline]
    fn can_reserve_something(&self) -> bool {
        self.pyramid.iter().any(|&c| c != NONE) || (0..3).any(|l| !self.deck(l).is_empty())
    }

    /// Main-phase actions listed from their id bits, one `push_mask` per word.
    fn push_main(&self, out: &mut ActionList) {
        let ids = self.main_ids();
        if ids == [0; 4] {
            out.push(Action(PASS));
        }
        for (w, &bits) in ids.iter().enumerate() {
            out.push_mask(64 * w as u16, bits);
        }
    }

    /// Main-phase actions as id bits (every main id is below 226; `pass`,
    /// legal when none is, not included).
    #[inline]
    pub(crate) fn main_ids(&self) -> IdBits {
        let p = self.current as usize;
        let gold = self.board[6];
        let takeable = self.occupied() & !gold;
        let mut ids: IdBits = [0; 4];
        line_take_bits(takeable, &mut ids);
        if self.privileges[p] > 0 && !self.replenished {
            or_bits(&mut ids, PRIVILEGE, u64::from(takeable));
        }
        if self.bag != 0 && !self.replenished {
            or_bits(&mut ids, REPLENISH, 1);
        }
        if gold != 0 && self.reserved_len[p] < 3 && self.can_reserve_something() {
            or_bits(&mut ids, GOLD, u64::from(gold));
        }
        or_bits(&mut ids, BUY, u64::from(self.buyable_slots(p)));
        ids
    }

    /// Bit `slot` for every pyramid card and bit `12+i` for every reserved
    /// card `i` that `p` may buy: the buy ids less `BUY` (the pyramid and
    /// reserve blocks are adjacent). max(0, max(0, cost - bonus) - tokens)
    /// equals max(0, cost - (bonus + tokens)), so one saturating subtraction
    /// per card; empty slots and (without a real colour) jokers look up a
    /// cost nobody can pay.
    #[inline]
    fn buyable_slots(&self, p: usize) -> u16 {
        let power = self.bonus[p] + (self.tokens[p] & NON_GOLD);
        let gold = lane(self.tokens[p], 6);
        let table = if self.real_colours[p] == 0 {
            &COST_NO_JOKER
        } else {
            &COST_ANY
        };
        let cost = |k: usize| {
            if k < NUM_SLOTS {
                table[self.pyramid[k] as usize]
            } else if k < NUM_SLOTS + self.reserved[p].len() {
                table[self.reserved[p][k - NUM_SLOTS] as usize]
            } else {
                UNPAYABLE
            }
        };
        let held = (1u16 << self.reserved_len[p]) - 1;
        crate::afford::affordable_mask_by(cost, power, gold) & (0xFFF | held << NUM_SLOTS)
    }

    /// Fills `out` with the legal actions, ascending.
    pub fn legal(&self, out: &mut ActionList) {
        out.clear();
        let p = self.current as usize;
        match self.phase {
            Phase::Main => self.push_main(out),
            Phase::Reserve => {
                for (slot, &card) in self.pyramid.iter().enumerate() {
                    if card != NONE {
                        out.push(Action(RESERVE + slot as u16));
                    }
                }
                for l in 0..3 {
                    if !self.deck(l).is_empty() {
                        out.push(Action(RESERVE_DECK + l as u16));
                    }
                }
            }
            Phase::Pay => {
                let card = self.buy_card(self.pending_buy);
                if card != NONE {
                    self.push_payments(p, card, out);
                }
            }
            Phase::Joker => push_bits5(self.real_colours[p], JOKER, out),
            Phase::Token => {
                let card = self.pending_card as usize;
                if card < NUM_CARDS && CARD_BONUS[card] < 5 {
                    push_cells(self.board[CARD_BONUS[card] as usize], TOKEN, out);
                }
            }
            Phase::Steal => {
                let opp = self.tokens[1 - p];
                for k in 0..6 {
                    if lane(opp, k) > 0 {
                        out.push(Action(STEAL + k as u16));
                    }
                }
            }
            Phase::Royal => push_bits5(self.royals_available, ROYAL, out),
            Phase::Discard => {
                for k in 0..7 {
                    if lane(self.tokens[p], k) > 0 {
                        out.push(Action(DISCARD + k as u16));
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// Whether action `id` is legal now: the one condition of `legal` that
    /// decides this id, without building the list (a checked apply pays for
    /// one test). `legality_agrees_with_the_list` proves the two agree.
    pub(crate) fn allows(&self, id: u16) -> bool {
        let p = self.current as usize;
        let in_block = |base: u16, len: u16| id >= base && id < base + len;
        match self.phase {
            Phase::Main => match id {
                0..PRIVILEGE => {
                    let takeable = self.occupied() & !self.board[6];
                    LINE_MASKS[id as usize] & !takeable == 0
                }
                PRIVILEGE..REPLENISH => {
                    let takeable = self.occupied() & !self.board[6];
                    self.privileges[p] > 0
                        && !self.replenished
                        && (takeable >> (id - PRIVILEGE)) & 1 != 0
                }
                REPLENISH => self.bag != 0 && !self.replenished,
                GOLD..RESERVE => {
                    (self.board[6] >> (id - GOLD)) & 1 != 0
                        && self.reserved_len[p] < 3
                        && self.can_reserve_something()
                }
                BUY..PAY => self.can_buy(p, self.buy_card(id)),
                PASS => {
                    let mut list = ActionList::new();
                    self.push_main(&mut list);
                    list.as_slice() == [Action(PASS)]
                }
                _ => false,
            },
            Phase::Reserve => match id {
                RESERVE..RESERVE_DECK => self.pyramid[usize::from(id - RESERVE)] != NONE,
                RESERVE_DECK..BUY => !self.deck(usize::from(id - RESERVE_DECK)).is_empty(),
                _ => false,
            },
            Phase::Pay => {
                let card = self.buy_card(self.pending_buy);
                card != NONE
                    && in_block(PAY, NUM_PAYMENTS as u16)
                    && self.payment_ok(p, card, PAYMENTS[usize::from(id - PAY)])
            }
            Phase::Joker => in_block(JOKER, 5) && (self.real_colours[p] >> (id - JOKER)) & 1 != 0,
            Phase::Token => {
                let card = self.pending_card as usize;
                card < NUM_CARDS
                    && CARD_BONUS[card] < 5
                    && in_block(TOKEN, 25)
                    && (self.board[CARD_BONUS[card] as usize] >> (id - TOKEN)) & 1 != 0
            }
            Phase::Steal => {
                in_block(STEAL, 6) && lane(self.tokens[1 - p], usize::from(id - STEAL)) > 0
            }
            Phase::Royal => in_block(ROYAL, 4) && (self.royals_available >> (id - ROYAL)) & 1 != 0,
            Phase::Discard => {
                in_block(DISCARD, 7) && lane(self.tokens[p], usize::from(id - DISCARD)) > 0
            }
            Phase::Over => false,
        }
    }

    #[inline]
    fn take_cells(&mut self, p: usize, m: u32) -> (u32, u32) {
        let mut most = 0;
        let mut pearls = 0;
        for k in 0..7 {
            let n = (self.board[k] & m).count_ones();
            if n > 0 {
                self.board[k] &= !m;
                self.tokens[p] += u64::from(n) << (8 * k);
                if k == 5 {
                    pearls = n;
                } else if k < 5 {
                    most = most.max(n);
                }
            }
        }
        (most, pearls)
    }

    /// Applies an action assumed legal.
    pub fn play(&mut self, a: Action) {
        let p = self.current as usize;
        let id = a.0;
        match id {
            0..=144 => {
                let (most, pearls) = self.take_cells(p, LINE_MASKS[id as usize]);
                if most == 3 || pearls >= 2 {
                    self.gain_privilege(1 - p);
                }
                self.end_turn();
            }
            145..=169 => {
                self.take_cells(p, 1 << (id - PRIVILEGE));
                self.privileges[p] = self.privileges[p].saturating_sub(1);
            }
            REPLENISH => {
                self.refill_board();
                self.replenished = true;
                self.gain_privilege(1 - p);
            }
            171..=195 => {
                self.take_cells(p, 1 << (id - GOLD));
                self.phase = Phase::Reserve;
            }
            196..=210 => {
                let (card, hidden) = if id < RESERVE_DECK {
                    let slot = usize::from(id - RESERVE);
                    let c = self.pyramid[slot];
                    self.pyramid[slot] = NONE;
                    (c, false)
                } else {
                    (
                        self.draw(usize::from(id - RESERVE_DECK)).unwrap_or(NONE),
                        true,
                    )
                };
                let n = self.reserved_len[p] as usize;
                if card != NONE && n < 3 {
                    self.reserved[p][n] = card;
                    if hidden {
                        self.reserved_hidden[p] |= 1 << n;
                    }
                    self.reserved_len[p] += 1;
                }
                self.end_turn();
            }
            211..=225 => {
                let card = self.buy_card(id);
                if card == NONE {
                    return;
                }
                if self.several_payments(p, card) {
                    self.phase = Phase::Pay;
                    self.pending_buy = id;
                    if id >= BUY_RESERVED {
                        // The card is shown as it is bought: a blind reserve
                        // is public from here on (docs/duel.md).
                        self.reserved_hidden[p] &= !(1 << (id - BUY_RESERVED));
                    }
                } else {
                    let short = sat_sub(self.need(p, card), self.tokens[p] & NON_GOLD);
                    self.complete_buy(id, short);
                }
            }
            226..=309 => {
                let buy = self.pending_buy;
                self.pending_buy = NO_BUY;
                self.complete_buy(buy, PAYMENTS[usize::from(id - PAY)]);
            }
            310..=334 => {
                self.take_cells(p, 1 << (id - TOKEN));
                self.after_ability();
            }
            335..=340 => {
                self.steal(p, usize::from(id - STEAL));
                self.after_ability();
            }
            341..=345 => {
                let card = self.pending_card;
                self.place_joker(p, card, usize::from(id - JOKER));
                self.after_card(card);
            }
            346..=349 => {
                if !self.take_royal(usize::from(id - ROYAL)) {
                    self.after_ability();
                }
            }
            350..=356 => {
                let k = usize::from(id - DISCARD);
                if lane(self.tokens[p], k) > 0 {
                    self.tokens[p] -= 1 << (8 * k);
                    self.bag += 1 << (8 * k);
                }
                if self.token_total(p) <= 10 {
                    self.finish_turn();
                }
            }
            _ => self.end_turn(),
        }
    }

    #[inline]
    fn steal(&mut self, p: usize, k: usize) {
        if lane(self.tokens[1 - p], k) > 0 {
            self.tokens[1 - p] -= 1 << (8 * k);
            self.tokens[p] += 1 << (8 * k);
        }
    }

    fn complete_buy(&mut self, id: u16, g: u64) {
        let p = self.current as usize;
        let card = self.buy_card(id);
        if card == NONE {
            return;
        }
        if id < BUY_RESERVED {
            self.pyramid[usize::from(id - BUY)] = NONE;
        } else {
            let i = usize::from(id - BUY_RESERVED);
            let n = self.reserved_len[p] as usize;
            let hid = self.reserved_hidden[p];
            for j in i..n - 1 {
                self.reserved[p][j] = self.reserved[p][j + 1];
            }
            self.reserved[p][n - 1] = NONE;
            let low = hid & ((1 << i) - 1);
            self.reserved_hidden[p] = low | ((hid >> 1) & !((1 << i) - 1));
            self.reserved_len[p] -= 1;
        }
        let paid = self.need(p, card) - g;
        let gold = u64::from(lane_sum(g));
        let spent = paid + (gold << 48);
        self.tokens[p] -= spent;
        self.bag += spent;
        let c = card as usize;
        self.cards[p] |= 1 << c;
        self.points[p] += CARD_POINTS[c];
        let before = self.crowns[p];
        self.crowns[p] += CARD_CROWNS[c];
        let after = self.crowns[p];
        self.royals_due = u8::from(before < 3 && after >= 3) + u8::from(before < 6 && after >= 6);
        self.pending_card = card;
        let b = CARD_BONUS[c];
        if b < 5 {
            self.bonus[p] += u64::from(CARD_BONUS_COUNT[c]) << (8 * b);
            self.colour_points[p] += u64::from(CARD_POINTS[c]) << (8 * b);
            self.real_colours[p] |= 1 << b;
        } else if b == BONUS_WILD {
            let opts = self.real_colours[p];
            if opts.count_ones() > 1 {
                self.phase = Phase::Joker;
                return;
            }
            self.place_joker(p, card, opts.trailing_zeros() as usize);
        }
        self.after_card(card);
    }

    fn place_joker(&mut self, p: usize, card: u8, colour: usize) {
        let j = JOKER_INDEX[card as usize] as usize;
        if j < MAX_JOKERS && colour < 5 {
            self.joker_colour[j] = colour as u8;
            self.bonus[p] += 1 << (8 * colour);
            self.colour_points[p] += u64::from(CARD_POINTS[card as usize]) << (8 * colour);
        }
    }

    fn after_card(&mut self, card: u8) {
        let p = self.current as usize;
        let c = card as usize;
        let ab = CARD_ABILITY[c];
        if ab & AB_AGAIN != 0 {
            self.again = true;
        }
        if ab & AB_TOKEN != 0 && CARD_BONUS[c] < 5 {
            let cells = self.board[CARD_BONUS[c] as usize];
            if cells.count_ones() > 1 {
                self.phase = Phase::Token;
                return;
            }
            self.take_cells(p, cells);
        }
        if ab & AB_STEAL != 0 && self.begin_steal(p) {
            return;
        }
        if ab & AB_PRIVILEGE != 0 {
            self.gain_privilege(p);
        }
        self.after_ability();
    }

    /// Steals at once when there is one choice; returns true when a `steal`
    /// decision is needed.
    fn begin_steal(&mut self, p: usize) -> bool {
        let opp = self.tokens[1 - p];
        let kinds = (0..6).filter(|&k| lane(opp, k) > 0);
        let mut it = kinds.clone();
        match (it.next(), it.next()) {
            (None, _) => false,
            (Some(k), None) => {
                self.steal(p, k);
                false
            }
            _ => {
                self.phase = Phase::Steal;
                true
            }
        }
    }

    /// Takes royal `r`; returns true when its ability needs a decision.
    fn take_royal(&mut self, r: usize) -> bool {
        let p = self.current as usize;
        self.royals_available &= !(1 << r);
        self.royals_owned[p] |= 1 << r;
        self.royals_due = self.royals_due.saturating_sub(1);
        self.points[p] += ROYAL_POINTS[r];
        let ab = ROYAL_ABILITY[r];
        if ab & AB_AGAIN != 0 {
            self.again = true;
        }
        if ab & AB_PRIVILEGE != 0 {
            self.gain_privilege(p);
        }
        ab & AB_STEAL != 0 && self.begin_steal(p)
    }

    fn after_ability(&mut self) {
        while self.royals_due > 0 {
            let avail = self.royals_available;
            match avail.count_ones() {
                0 => self.royals_due = 0,
                1 => {
                    if self.take_royal(avail.trailing_zeros() as usize) {
                        return;
                    }
                }
                _ => {
                    self.phase = Phase::Royal;
                    return;
                }
            }
        }
        self.end_turn();
    }

    fn end_turn(&mut self) {
        self.pending_card = NONE;
        self.pending_buy = NO_BUY;
        if self.token_total(self.current as usize) > 10 {
            self.phase = Phase::Discard;
            return;
        }
        self.finish_turn();
    }

    fn finish_turn(&mut self) {
        let p = self.current as usize;
        if has_empty_slot(&self.pyramid) {
            self.refill_pyramid();
        }
        self.turn += 1;
        let reason = if self.points[p] >= 20 {
            1
        } else if self.crowns[p] >= 10 {
            2
        } else if any_lane_at_least_10(self.colour_points[p]) {
            3
        } else if self.turn >= 2 * self.turn_cap {
            4
        } else {
            0
        };
        self.end_of_turn_state(p, reason);
    }

    fn refill_pyramid(&mut self) {
        for l in 0..3 {
            for slot in SLOT_OFFSET[l]..SLOT_OFFSET[l] + SLOTS[l] {
                if self.pyramid[slot] == NONE {
                    if let Some(c) = self.draw(l) {
                        self.pyramid[slot] = c;
                    }
                }
            }
        }
    }

    fn end_of_turn_state(&mut self, p: usize, reason: u8) {
        self.pending_card = NONE;
        self.pending_buy = NO_BUY;
        self.royals_due = 0;
        self.replenished = false;
        if reason != 0 {
            self.end_reason = reason;
            self.winners = if reason == 4 { 0 } else { 1 << p };
            self.phase = Phase::Over;
            self.again = false;
            return;
        }
        if !self.again {
            self.current = 1 - self.current;
        }
        self.again = false;
        self.phase = Phase::Main;
    }
}

/// Whether any pyramid slot is empty (`NONE` = 0xFF), by the SWAR zero-byte test
/// on the complemented bytes.
#[inline]
fn has_empty_slot(pyramid: &[u8; NUM_SLOTS]) -> bool {
    let mut lo = [0u8; 8];
    let mut hi = [0u8; 8];
    lo.copy_from_slice(&pyramid[..8]);
    hi[..4].copy_from_slice(&pyramid[8..]);
    // Padding bytes are 0, so their complement is never a zero byte.
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & 0x8080_8080_8080_8080 != 0;
    zero_byte(!u64::from_le_bytes(lo)) || zero_byte(!u64::from_le_bytes(hi))
}

/// Whether a lane (values below 118) is at least 10.
#[inline]
fn any_lane_at_least_10(x: u64) -> bool {
    x.wrapping_add(0x7676_7676_7676_7676) & 0x8080_8080_8080_8080 != 0
}

/// A cost no player can pay: 127 white, far above any bonus + tokens.
const UNPAYABLE: u64 = 0x7F;

const fn cost_table(jokers: bool) -> [u64; 256] {
    let mut t = [UNPAYABLE; 256];
    let mut c = 0;
    while c < NUM_CARDS {
        if jokers || CARD_BONUS[c] != BONUS_WILD {
            t[c] = CARD_COST[c];
        }
        c += 1;
    }
    t
}

/// Card costs by id (256 entries so `NONE` indexes an unpayable cost).
static COST_ANY: [u64; 256] = cost_table(true);
/// The same with jokers unpayable (for a player without a real colour).
static COST_NO_JOKER: [u64; 256] = cost_table(false);

#[inline]
fn push_cells(mut m: u32, base: u16, out: &mut ActionList) {
    while m != 0 {
        out.push(Action(base + m.trailing_zeros() as u16));
        m &= m - 1;
    }
}

#[inline]
fn push_bits5(m: u8, base: u16, out: &mut ActionList) {
    push_cells(u32::from(m), base, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked apply's per-action test and the move generator agree on
    /// every id in every position of random games (every phase).
    #[test]
    fn legality_agrees_with_the_list() {
        let mut list = ActionList::new();
        let mut positions = 0;
        for seed in 0..300u64 {
            let config = crate::game::Config {
                num_players: 2,
                seed,
                turn_cap: 100,
            };
            let mut s = DuelState::new(&config).expect("valid");
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
                s.play(list.as_slice()[rng.below(list.len() as u64) as usize]);
            }
        }
        assert!(positions > 40_000, "{positions}");
    }

    /// The pay list is exactly the vectors `payment_ok` accepts, for every
    /// card and many token and bonus holdings.
    #[test]
    fn payments_are_the_valid_ones() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut s = DuelState::new(&crate::game::Config::default()).expect("valid");
        let mut list = ActionList::new();
        for round in 0..4000 {
            let card = (round % NUM_CARDS) as u8;
            s.tokens[0] = pack(&std::array::from_fn::<u8, 7, _>(|_| rng.below(5) as u8));
            s.bonus[0] = pack(&std::array::from_fn::<u8, 5, _>(|_| rng.below(3) as u8));
            list.clear();
            s.push_payments(0, card, &mut list);
            let expected: Vec<u16> = (0..NUM_PAYMENTS)
                .filter(|&i| s.payment_ok(0, card, PAYMENTS[i]))
                .map(|i| PAY + i as u16)
                .collect();
            let got: Vec<u16> = list.as_slice().iter().map(|a| a.0).collect();
            assert_eq!(got, expected, "card {card}");
        }
    }

    #[test]
    fn swar_helpers_match_plain_loops() {
        let mut p = [3u8; NUM_SLOTS];
        assert!(!has_empty_slot(&p));
        for i in 0..NUM_SLOTS {
            p = [3u8; NUM_SLOTS];
            p[i] = NONE;
            assert!(has_empty_slot(&p), "slot {i}");
        }
        for v in 0..40u64 {
            for lane in 0..5 {
                assert_eq!(
                    any_lane_at_least_10(v << (8 * lane) | 9 << (8 * ((lane + 1) % 5))),
                    v >= 10
                );
            }
        }
    }
}
