//! What one player can see: the observation vector and determinization.

use super::cards::{self, LEVEL_START};
use super::state::{BaseState, Phase, DECK_SEG, EMPTY};
use crate::cardset::CardSet;
use crate::game::Player;
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

/// Writes `[level, points, bonus one-hot 5, cost 5]` of `card` into `out[..12]`.
fn card_features(card: u8, out: &mut [f32]) {
    out[0] = f32::from(cards::level(card));
    out[1] = f32::from(cards::points(card));
    out[2 + cards::bonus(card)] = 1.0;
    let c = cards::cost(card);
    for k in 0..5 {
        out[7 + k] = f32::from(c.get(k));
    }
}

impl BaseState {
    /// Fills `out` (length ≥ [`OBSERVATION_SIZE`]) with `observer`'s view.
    pub(crate) fn observe(&self, observer: Player, out: &mut [f32]) {
        let out = &mut out[..OBSERVATION_SIZE];
        out.fill(0.0);
        let n = self.num_players as usize;
        for (c, x) in out[..6].iter_mut().enumerate() {
            *x = f32::from(self.bank.get(c));
        }
        for l in 0..3 {
            for s in 0..4 {
                let c = self.board[l][s];
                if c != EMPTY {
                    // No `present` flag: level ≥ 1 marks a card (docs/base.md).
                    let at = BOARD_AT + 12 * (4 * l + s);
                    card_features(c, &mut out[at..at + 12]);
                }
            }
            out[DECKS_AT + l] = self.deck_size(l) as f32;
        }
        for (i, &nb) in self.nobles_on_display().iter().enumerate() {
            let at = NOBLES_AT + 6 * i;
            out[at] = 1.0;
            let r = cards::noble_req(nb);
            for k in 0..5 {
                out[at + 1 + k] = f32::from(r.get(k));
            }
        }
        for rel in 0..n {
            let seat = (observer as usize + rel) % n;
            let at = PLAYERS_AT + PLAYER_LEN * rel;
            let o = &mut out[at..at + PLAYER_LEN];
            for (c, x) in o[..6].iter_mut().enumerate() {
                *x = f32::from(self.tokens[seat].get(c));
            }
            for c in 0..5 {
                o[6 + c] = f32::from(self.bonus[seat].get(c));
            }
            o[11] = f32::from(self.points[seat]);
            o[12] = self.owned[seat].len() as f32;
            o[13] = self.nobles_of(seat).count() as f32;
            for (i, &card) in self.reserved(seat).iter().enumerate() {
                let r = &mut o[14 + 14 * i..28 + 14 * i];
                r[0] = 1.0;
                if seat != observer as usize && self.is_hidden(seat, i) {
                    r[2] = f32::from(cards::level(card));
                } else {
                    r[1] = 1.0;
                    card_features(card, &mut r[2..14]);
                }
            }
        }
        out[PHASE_AT + self.phase as usize] = 1.0;
        if self.phase == Phase::Pay {
            out[PENDING_AT + (self.pending - 45) as usize] = 1.0;
        }
        out[ROUNDS_AT] = (self.turn / self.num_players as u32) as f32;
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
