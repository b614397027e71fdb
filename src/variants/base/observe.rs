//! What one player can see: the observation vector and determinization.

use super::cards::{self, LEVEL_START};
use super::state::{BaseState, Phase, DECK_SEG};
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

/// Floats of a card block: `[level, points, bonus one-hot 5, cost 5]`.
const CARD_LEN: usize = 12;
/// Floats of a reserve slot: `[present, known, card block]`.
const RESERVE_LEN: usize = 2 + CARD_LEN;
/// Floats of a seat before its reserve slots.
const SEAT_HEAD: usize = 14;
/// Floats of a noble block: `[present, requirement 5]`.
const NOBLE_LEN: usize = 6;

/// The card block of every card id, and zeros past the last card (an empty
/// slot, `EMPTY`, reads row 255): computed once, so that writing a slot is
/// one copy, indexed by the slot's byte without a test.
static CARD_BLOCKS: [[f32; CARD_LEN]; 256] = card_blocks();

const fn card_blocks() -> [[f32; CARD_LEN]; 256] {
    let mut table = [[0.0; CARD_LEN]; 256];
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

/// The reserve slot of every card seen by its owner (or reserved face up),
/// and zeros past the last card (an empty slot, `EMPTY`, reads row 255).
static KNOWN_RESERVES: [[f32; RESERVE_LEN]; 256] = known_reserves();

const fn known_reserves() -> [[f32; RESERVE_LEN]; 256] {
    let mut table = [[0.0; RESERVE_LEN]; 256];
    let mut card = 0;
    while card < cards::NUM_CARDS {
        table[card][0] = 1.0;
        table[card][1] = 1.0;
        let mut k = 0;
        while k < CARD_LEN {
            table[card][2 + k] = CARD_BLOCKS[card][k];
            k += 1;
        }
        card += 1;
    }
    table
}

/// The reserve slot of a card reserved blind, seen by another seat, by the
/// card's level (`[present, not known, level, zeros]`); row 0 (the level
/// of `EMPTY` in `cards::CARD_LEVEL`, 0 past the last card) is zeros.
static BLIND_RESERVES: [[f32; RESERVE_LEN]; 4] = blind_reserves();

const fn blind_reserves() -> [[f32; RESERVE_LEN]; 4] {
    let mut table = [[0.0; RESERVE_LEN]; 4];
    let mut level = 1;
    while level < 4 {
        table[level][0] = 1.0;
        table[level][2] = level as f32;
        level += 1;
    }
    table
}

/// The noble block of every noble, and zeros (row [`NO_NOBLE`]) for none.
static NOBLE_BLOCKS: [[f32; NOBLE_LEN]; cards::NUM_NOBLES + 1] = noble_blocks();
/// The row of [`NOBLE_BLOCKS`] for no noble.
const NO_NOBLE: usize = cards::NUM_NOBLES;

const fn noble_blocks() -> [[f32; NOBLE_LEN]; cards::NUM_NOBLES + 1] {
    let mut table = [[0.0; NOBLE_LEN]; cards::NUM_NOBLES + 1];
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

/// The eight lanes of `gems` as floats (the caller keeps those it needs).
#[inline(always)]
fn lanes(gems: Gems) -> [f32; 8] {
    let bytes = gems.0.to_le_bytes();
    let mut out = [0.0; 8];
    for (x, &b) in out.iter_mut().zip(&bytes) {
        *x = f32::from(b);
    }
    out
}

/// `out[at..at + N]` as an array, so that writes into it need no bounds checks.
#[inline(always)]
fn block<const N: usize, const M: usize>(out: &mut [f32; M], at: usize) -> &mut [f32; N] {
    (&mut out[at..at + N])
        .try_into()
        .expect("a block inside its record")
}

impl BaseState {
    /// Fills `out` (length ≥ [`OBSERVATION_SIZE`]) with `observer`'s view.
    ///
    /// Every float is written once, record by record, most of them copied
    /// from the tables above (an empty slot copies a row of zeros): no
    /// clearing pass first.
    pub(crate) fn observe(&self, observer: Player, out: &mut [f32]) {
        // The layout is docs/base.md's; the spec (src/observation.rs) names it.
        let out: &mut [f32; OBSERVATION_SIZE] = (&mut out[..OBSERVATION_SIZE])
            .try_into()
            .expect("an observation buffer");
        let n = self.num_players as usize;
        let bank = lanes(self.bank);
        block::<6, OBSERVATION_SIZE>(out, 0).copy_from_slice(&bank[..6]);
        for (k, &c) in self.board.as_flattened().iter().enumerate() {
            // No `present` flag: level ≥ 1 marks a card (docs/base.md).
            *block::<CARD_LEN, OBSERVATION_SIZE>(out, BOARD_AT + CARD_LEN * k) =
                CARD_BLOCKS[usize::from(c)];
        }
        for l in 0..3 {
            out[DECKS_AT + l] = self.deck_size(l) as f32;
        }
        let shown = self.nobles_on_display();
        for i in 0..5 {
            let row = shown.get(i).map_or(NO_NOBLE, |&nb| usize::from(nb));
            *block::<NOBLE_LEN, OBSERVATION_SIZE>(out, NOBLES_AT + NOBLE_LEN * i) =
                NOBLE_BLOCKS[row];
        }
        // Each seat's nobles, counted in one pass over the claims.
        let mut nobles = [0u8; 4];
        for &c in &self.claimed[..self.n_claimed as usize] {
            nobles[usize::from(c >> 4) & 3] += 1;
        }
        let mut seat = observer as usize;
        for rel in 0..4 {
            let o = block::<PLAYER_LEN, OBSERVATION_SIZE>(out, PLAYERS_AT + PLAYER_LEN * rel);
            if rel >= n {
                *o = [0.0; PLAYER_LEN];
                continue;
            }
            let head = block::<SEAT_HEAD, PLAYER_LEN>(o, 0);
            let tokens = lanes(self.tokens[seat]);
            let bonus = lanes(self.bonus[seat]);
            head[..6].copy_from_slice(&tokens[..6]);
            head[6..11].copy_from_slice(&bonus[..5]);
            head[11] = f32::from(self.points[seat]);
            // Every card gives one bonus, so the bonus total counts the
            // cards (from_json rebuilds the bonuses from the cards).
            debug_assert_eq!(self.bonus[seat].total(), self.owned[seat].len());
            head[12] = self.bonus[seat].total() as f32;
            head[13] = f32::from(nobles[seat]);
            // Unused reserve slots hold `EMPTY`, whose rows are zeros; a
            // blind reserve shows its level only, to everyone but its owner.
            let blind = if seat == observer as usize {
                0
            } else {
                (self.hidden >> (3 * seat)) & 7
            };
            for i in 0..3 {
                let r = block::<RESERVE_LEN, PLAYER_LEN>(o, SEAT_HEAD + RESERVE_LEN * i);
                let card = usize::from(self.reserved[seat][i]);
                *r = if blind >> i & 1 != 0 {
                    BLIND_RESERVES[usize::from(cards::CARD_LEVEL[card])]
                } else {
                    KNOWN_RESERVES[card]
                };
            }
            seat = if seat + 1 == n { 0 } else { seat + 1 };
        }
        let tail = block::<{ OBSERVATION_SIZE - PHASE_AT }, OBSERVATION_SIZE>(out, PHASE_AT);
        *tail = [0.0; OBSERVATION_SIZE - PHASE_AT];
        tail[self.phase as usize] = 1.0;
        if self.phase == Phase::Pay {
            tail[PENDING_AT - PHASE_AT + (self.pending - 45) as usize] = 1.0;
        }
        // Division by a constant is a multiply; by a variable, a slow `div`.
        let rounds = match n {
            2 => self.turn / 2,
            3 => self.turn / 3,
            _ => self.turn / 4,
        };
        tail[ROUNDS_AT - PHASE_AT] = rounds as f32;
        if self.points[..n]
            .iter()
            .any(|&p| p >= super::rules::WINNING_POINTS)
        {
            tail[ROUNDS_AT - PHASE_AT + 1] = 1.0;
        }
        tail[COUNT_AT - PHASE_AT + n - 2] = 1.0;
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
