//! What a player may see: the observation tensor and determinization.

use super::cards::*;
use super::state::*;
use crate::rng::SplitMix64;

/// Card features per card (docs/duel.md, *Observation*).
pub const CARD_FEATURES: usize = 23;
/// Features per player.
pub const PLAYER_FEATURES: usize = 97;
/// Length of the observation.
pub const OBSERVATION_SIZE: usize = 696;

/// The features of every card (docs/duel.md, *Observation*), and zeros
/// (row [`NO_CARD`]) for no card: computed once, so that writing a card is
/// one copy.
static CARD_BLOCKS: [[f32; CARD_FEATURES]; NUM_CARDS + 1] = card_blocks();
/// The row of [`CARD_BLOCKS`] for no card.
const NO_CARD: usize = NUM_CARDS;

const fn card_blocks() -> [[f32; CARD_FEATURES]; NUM_CARDS + 1] {
    let mut table = [[0.0; CARD_FEATURES]; NUM_CARDS + 1];
    let mut c = 0;
    while c < NUM_CARDS {
        let out = &mut table[c];
        out[0] = 1.0;
        out[1] = CARD_LEVEL[c] as f32;
        out[2] = CARD_POINTS[c] as f32;
        out[3] = CARD_CROWNS[c] as f32;
        out[4 + CARD_BONUS[c] as usize] = 1.0;
        out[11] = CARD_BONUS_COUNT[c] as f32;
        let mut b = 0;
        while b < 5 {
            if CARD_ABILITY[c] & (1 << b) != 0 {
                out[12 + b] = 1.0;
            }
            b += 1;
        }
        let cost = CARD_COST[c].to_le_bytes();
        let mut k = 0;
        while k < 6 {
            out[17 + k] = cost[k] as f32;
            k += 1;
        }
        c += 1;
    }
    table
}

/// The block of `card` (`NONE`: zeros).
#[inline]
fn card_block(card: u8) -> &'static [f32; CARD_FEATURES] {
    &CARD_BLOCKS[usize::from(card).min(NO_CARD)]
}

/// Writes `card`'s block into `out[..CARD_FEATURES]`.
#[inline]
fn card_features(card: u8, out: &mut [f32]) {
    let out: &mut [f32; CARD_FEATURES] = (&mut out[..CARD_FEATURES])
        .try_into()
        .expect("a card block");
    *out = *card_block(card);
}

impl DuelState {
    /// Writes `player`'s observation into `out` (length [`OBSERVATION_SIZE`]).
    pub fn observe(&self, player: usize, out: &mut [f32]) {
        out.iter_mut().for_each(|x| *x = 0.0);
        if out.len() < OBSERVATION_SIZE {
            return;
        }
        let mut o = 0;
        // Cell by kind, as `kind_at` reads it (the first kind whose bitboard
        // holds the cell), without a search per cell.
        let mut seen = 0u32;
        for (k, &bits) in self.board.iter().enumerate() {
            let mut bits = bits & !seen & ((1 << 25) - 1);
            seen |= bits;
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                out[o + cell * 7 + k] = 1.0;
                bits &= bits - 1;
            }
        }
        o += 175;
        for k in 0..7 {
            out[o + k] = f32::from(lane(self.bag, k));
        }
        o += 7;
        for slot in 0..NUM_SLOTS {
            card_features(self.pyramid[slot], &mut out[o..o + CARD_FEATURES]);
            o += CARD_FEATURES;
        }
        for l in 0..3 {
            out[o + l] = self.deck(l).len() as f32;
        }
        o += 3;
        for r in 0..4 {
            out[o + r] = f32::from(self.royals_available >> r & 1);
        }
        o += 4;
        out[o] = f32::from(self.supply());
        o += 1;
        for q in [player, 1 - player] {
            let v = &mut out[o..o + PLAYER_FEATURES];
            for (k, x) in v.iter_mut().enumerate().take(7) {
                *x = f32::from(lane(self.tokens[q], k));
            }
            for c in 0..5 {
                v[7 + c] = f32::from(lane(self.bonus[q], c));
                v[12 + c] = f32::from(lane(self.colour_points[q], c));
            }
            v[17] = f32::from(self.points[q]);
            v[18] = f32::from(self.crowns[q]);
            v[19] = f32::from(self.privileges[q]);
            for r in 0..4 {
                v[20 + r] = f32::from(self.royals_owned[q] >> r & 1);
            }
            v[24] = self.cards[q].count_ones() as f32;
            for i in 0..self.reserved_len[q] as usize {
                let base = 25 + i * (CARD_FEATURES + 1);
                let card = self.reserved[q][i];
                let hidden = self.reserved_hidden[q] & (1 << i) != 0;
                if hidden && q != player {
                    v[base + 1] = 1.0;
                    v[base + 2] = level(card) as f32;
                } else {
                    v[base] = 1.0;
                    card_features(card, &mut v[base + 1..base + 1 + CARD_FEATURES]);
                }
            }
            o += PLAYER_FEATURES;
        }
        out[o + self.phase as usize] = 1.0;
        o += 9;
        out[o] = f32::from(u8::from(self.replenished));
        out[o + 1] = f32::from(u8::from(self.again));
        out[o + 2] = f32::from(self.royals_due);
        o += 3;
        card_features(self.pending_card, &mut out[o..o + CARD_FEATURES]);
        if self.pending_card == NONE && self.phase == super::state::Phase::Pay {
            card_features(
                self.buy_card(self.pending_buy),
                &mut out[o..o + CARD_FEATURES],
            );
        }
        o += CARD_FEATURES;
        out[o] = (self.turn / 2) as f32;
        debug_assert_eq!(o + 1, OBSERVATION_SIZE);
    }

    /// Resamples what `observer` cannot see (docs/duel.md, *Chance*).
    pub fn resample(&self, observer: usize, rng: &mut SplitMix64) -> Self {
        let mut s = *self;
        let opp = 1 - observer.min(1);
        for l in 0..3 {
            let mut pool = [0u8; 32];
            let mut n = 0;
            let mut slots = [0usize; 3];
            let mut ns = 0;
            for i in 0..s.reserved_len[opp] as usize {
                if s.reserved_hidden[opp] & (1 << i) != 0 && level(s.reserved[opp][i]) == l + 1 {
                    pool[n] = s.reserved[opp][i];
                    n += 1;
                    slots[ns] = i;
                    ns += 1;
                }
            }
            for &c in s.deck(l) {
                pool[n] = c;
                n += 1;
            }
            let pool = &mut pool[..n];
            pool.sort_unstable();
            rng.shuffle(pool);
            for (j, &i) in slots[..ns].iter().enumerate() {
                s.reserved[opp][i] = pool[j];
            }
            let start = s.deck_pos[l] as usize;
            s.decks[l][start..start + n - ns].copy_from_slice(&pool[ns..]);
        }
        s.chance = rng.next_u64();
        s
    }
}
