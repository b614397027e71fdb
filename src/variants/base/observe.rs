//! What one player can see: the observation vector and determinization.

use super::cards::{self, LEVEL_START};
use super::state::{BaseState, Phase, DECK_SEG, EMPTY};
use crate::cardset::CardSet;
use crate::game::Player;
use crate::gems::Gems;
use crate::rng::SplitMix64;

/// Length of the observation vector (docs/base.md, "Observation").
pub const OBSERVATION_SIZE: usize = 432;
const BOARD_AT: usize = 6;
const DECKS_AT: usize = BOARD_AT + 144;
const NOBLES_AT: usize = DECKS_AT + 3;
const PLAYERS_AT: usize = NOBLES_AT + 30;
const PLAYER_LEN: usize = 56;
const PHASE_AT: usize = PLAYERS_AT + 4 * PLAYER_LEN;
const PENDING_AT: usize = PHASE_AT + 5;
const ROUNDS_AT: usize = PENDING_AT + 15;
const COUNT_AT: usize = ROUNDS_AT + 2;

/// `[level, points, bonus one-hot 5, cost 5]` of every card, the block a
/// face-up or known reserved card takes in the observation: computed once,
/// so that writing a card is one copy.
static CARD_FEATURES: [[f32; 12]; cards::NUM_CARDS] = card_feature_table();

const fn card_feature_table() -> [[f32; 12]; cards::NUM_CARDS] {
    let mut table = [[0.0; 12]; cards::NUM_CARDS];
    let mut card = 0;
    while card < cards::NUM_CARDS {
        let f = &mut table[card];
        f[0] = cards::CARD_LEVEL[card] as f32;
        f[1] = cards::CARD_POINTS[card] as f32;
        f[2 + cards::CARD_BONUS[card] as usize] = 1.0;
        let cost = cards::CARD_COST[card].to_le_bytes();
        let mut k = 0;
        while k < 5 {
            f[7 + k] = cost[k] as f32;
            k += 1;
        }
        card += 1;
    }
    table
}

/// `[present, requirement 5]` of every noble.
static NOBLE_FEATURES: [[f32; 6]; cards::NUM_NOBLES] = noble_feature_table();

const fn noble_feature_table() -> [[f32; 6]; cards::NUM_NOBLES] {
    let mut table = [[0.0; 6]; cards::NUM_NOBLES];
    let mut noble = 0;
    while noble < cards::NUM_NOBLES {
        table[noble][0] = 1.0;
        let req = cards::NOBLE_REQ[noble].to_le_bytes();
        let mut k = 0;
        while k < 5 {
            table[noble][1 + k] = req[k] as f32;
            k += 1;
        }
        noble += 1;
    }
    table
}

/// The first `N` lanes of `gems` as floats.
#[inline(always)]
fn lanes<const N: usize>(gems: Gems) -> [f32; N] {
    let bytes = gems.0.to_le_bytes();
    let mut out = [0.0; N];
    for (x, &b) in out.iter_mut().zip(&bytes) {
        *x = f32::from(b);
    }
    out
}

/// `out[at..at + N]` as an array, so that writes into it need no bounds checks.
#[inline(always)]
fn block<const N: usize>(out: &mut [f32; OBSERVATION_SIZE], at: usize) -> &mut [f32; N] {
    (&mut out[at..at + N])
        .try_into()
        .expect("a block inside the observation")
}

/// `out[at..at + N]` of a smaller block.
#[inline(always)]
fn block_of<const N: usize, const M: usize>(out: &mut [f32; M], at: usize) -> &mut [f32; N] {
    (&mut out[at..at + N])
        .try_into()
        .expect("a block inside its record")
}

impl BaseState {
    /// Fills `out` (length ≥ [`OBSERVATION_SIZE`]) with `observer`'s view.
    pub(crate) fn observe(&self, observer: Player, out: &mut [f32]) {
        // The layout is docs/base.md's; the spec (src/env/spec.rs) names it.
        // Cards and nobles are copied from the tables above.
        let out: &mut [f32; OBSERVATION_SIZE] = (&mut out[..OBSERVATION_SIZE])
            .try_into()
            .expect("an observation buffer");
        *out = [0.0; OBSERVATION_SIZE];
        let n = self.num_players as usize;
        *block::<6>(out, 0) = lanes(self.bank);
        for (k, &c) in self.board.as_flattened().iter().enumerate() {
            if c != EMPTY {
                // No `present` flag: level ≥ 1 marks a card (docs/base.md).
                *block::<12>(out, BOARD_AT + 12 * k) = CARD_FEATURES[usize::from(c)];
            }
        }
        for l in 0..3 {
            out[DECKS_AT + l] = self.deck_size(l) as f32;
        }
        for (i, &nb) in self.nobles_on_display().iter().enumerate() {
            *block::<6>(out, NOBLES_AT + 6 * i) = NOBLE_FEATURES[usize::from(nb)];
        }
        let mut seat = observer as usize;
        for rel in 0..n {
            let o = block::<PLAYER_LEN>(out, PLAYERS_AT + PLAYER_LEN * rel);
            *block_of::<6, PLAYER_LEN>(o, 0) = lanes(self.tokens[seat]);
            *block_of::<5, PLAYER_LEN>(o, 6) = lanes(self.bonus[seat]);
            o[11] = f32::from(self.points[seat]);
            o[12] = self.owned[seat].len() as f32;
            o[13] = self.nobles_of(seat).count() as f32;
            for (i, &card) in self.reserved(seat).iter().enumerate() {
                let r = block_of::<14, PLAYER_LEN>(o, 14 + 14 * i);
                r[0] = 1.0;
                if seat != observer as usize && self.is_hidden(seat, i) {
                    r[2] = f32::from(cards::level(card));
                } else {
                    r[1] = 1.0;
                    *block_of::<12, 14>(r, 2) = CARD_FEATURES[usize::from(card)];
                }
            }
            seat = if seat + 1 == n { 0 } else { seat + 1 };
        }
        out[PHASE_AT + self.phase as usize] = 1.0;
        if self.phase == Phase::Pay {
            out[PENDING_AT + (self.pending - 45) as usize] = 1.0;
        }
        // Division by a constant is a multiply; by a variable, a slow `div`.
        let rounds = match n {
            2 => self.turn / 2,
            3 => self.turn / 3,
            _ => self.turn / 4,
        };
        out[ROUNDS_AT] = rounds as f32;
        if self.points[..n]
            .iter()
            .any(|&p| p >= super::rules::WINNING_POINTS)
        {
            out[ROUNDS_AT + 1] = 1.0;
        }
        out[COUNT_AT + n - 2] = 1.0;
    }

    /// docs/contract.md `determinize`: per level, the deck and the opponents'
    /// blind reserves of that level are pooled, sorted, shuffled and dealt
    /// back (reserves by seat then reserve order, then the deck from the top).
    pub(crate) fn determinize_for(&self, observer: Player, rng: &mut SplitMix64) -> Self {
        let mut s = *self;
        let n = self.num_players as usize;
        for l in 0..3 {
            let level = l as u8 + 1;
            // Sorting through a bitset: the pool order depends only on which
            // cards are unseen, never on where they were.
            let mut set = CardSet::EMPTY;
            let mut slots = [(0u8, 0u8); 12];
            let mut n_slots = 0;
            for seat in (0..n).filter(|&q| q != observer as usize) {
                for (i, &c) in self.reserved(seat).iter().enumerate() {
                    if self.is_hidden(seat, i) && cards::level(c) == level {
                        set.insert(c);
                        slots[n_slots] = (seat as u8, i as u8);
                        n_slots += 1;
                    }
                }
            }
            for &c in self.deck(l) {
                set.insert(c);
            }
            let mut pool = [0u8; 40];
            let len = set.len() as usize;
            for (dst, c) in pool.iter_mut().zip(set.iter()) {
                *dst = c;
            }
            debug_assert!(pool[..len].iter().all(|&c| c >= LEVEL_START[l]));
            rng.shuffle(&mut pool[..len]);
            for (k, &(seat, i)) in slots[..n_slots].iter().enumerate() {
                s.reserved[seat as usize][i as usize] = pool[k];
            }
            let start = (DECK_SEG[l] + self.top[l]) as usize;
            let rest = &pool[n_slots..len];
            s.deck[start..start + rest.len()].copy_from_slice(rest);
        }
        s
    }
}
