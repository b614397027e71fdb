//! What a player sees: the observation vector and determinization.

use super::actions::*;
use super::cards::Card;
use super::state::*;
use crate::game::{Player, MAX_PLAYERS};
use crate::rng::SplitMix64;

/// Length of the observation vector (docs/marvel.md §6).
pub const OBSERVATION_SIZE: usize = 503;
const PLAYER_BLOCK: usize = 66;

struct Writer<'a> {
    out: &'a mut [f32],
    i: usize,
}

impl Writer<'_> {
    #[inline]
    fn put(&mut self, x: f32) {
        self.out[self.i] = x;
        self.i += 1;
    }
    #[inline]
    fn zeros(&mut self, n: usize) {
        self.out[self.i..self.i + n].fill(0.0);
        self.i += n;
    }
    /// The next `N` floats, to write in place: one bounds check. (Building
    /// a block on the stack and copying it would make the copy's loads wait
    /// for the narrower stores that built it.)
    #[inline]
    fn next<const N: usize>(&mut self) -> &mut [f32; N] {
        let at = self.i;
        self.i += N;
        (&mut self.out[at..at + N])
            .try_into()
            .expect("a block inside the observation")
    }
    /// The first `N` lanes of `gems`.
    #[inline]
    fn lanes<const N: usize>(&mut self, gems: crate::gems::Gems) {
        let bytes = gems.0.to_le_bytes();
        for (x, &b) in self.next::<N>().iter_mut().zip(&bytes) {
            *x = f32::from(b);
        }
    }
    /// `[level, points, avengers, time stone, bonus one-hot 5, cost 5]`.
    #[inline]
    fn card(&mut self, c: &Card) {
        let values = self.next::<14>();
        values[0] = f32::from(c.level);
        values[1] = f32::from(c.points);
        values[2] = f32::from(c.avengers);
        values[3] = f32::from(u8::from(c.time_stone));
        let bonus = &mut values[4..9];
        bonus.fill(0.0);
        if let Some(x) = bonus.get_mut(usize::from(c.bonus)) {
            *x = 1.0;
        }
        let cost = c.cost.0.to_le_bytes();
        for (x, &b) in values[9..14].iter_mut().zip(&cost) {
            *x = f32::from(b);
        }
    }
}

impl MarvelState {
    /// Writes `player`'s observation into `out` (at least OBSERVATION_SIZE long).
    pub(super) fn observe(&self, player: Player, out: &mut [f32]) {
        let mut w = Writer { out, i: 0 };
        w.lanes::<7>(self.bank);
        for row in &self.board {
            for &c in row {
                if c == NONE {
                    w.zeros(15);
                } else {
                    w.put(1.0);
                    w.card(&self.data.cards[c as usize]);
                }
            }
        }
        for lv in 0..3 {
            w.put(self.deck(lv).len() as f32);
        }
        let mut shown = 0;
        for id in 0..8 {
            if self.loc_display & (1 << id) != 0 && shown < 4 {
                w.put(1.0);
                w.lanes::<5>(self.data.locations[id].requirement);
                shown += 1;
            }
        }
        w.zeros(6 * (4 - shown));
        let n = self.num_players as usize;
        for k in 0..MAX_PLAYERS {
            if k >= n {
                w.zeros(PLAYER_BLOCK);
                continue;
            }
            // `(player + k) % n` without a division (a slow `div`).
            let q = if player as usize + k >= n {
                player as usize + k - n
            } else {
                player as usize + k
            };
            w.lanes::<7>(self.tokens[q]);
            w.lanes::<5>(self.bonus[q]);
            w.put(f32::from(self.points(q)));
            w.put(self.owned[q].len() as f32);
            w.put(self.loc_owned[q].count_ones() as f32);
            w.put(f32::from(self.icons[q]));
            w.put(f32::from(u8::from(self.avengers as usize == q)));
            w.put(f32::from(u8::from(self.meets_gauntlet(q))));
            for i in 0..3 {
                if i >= self.n_reserved[q] as usize {
                    w.zeros(16);
                    continue;
                }
                let card = &self.data.cards[self.reserved[q][i] as usize];
                w.put(1.0);
                if self.hidden[q] & (1 << i) != 0 && q != player as usize {
                    w.put(0.0);
                    w.put(f32::from(card.level));
                    w.zeros(13);
                } else {
                    w.put(1.0);
                    w.card(card);
                }
            }
        }
        for ph in [
            Phase::Main,
            Phase::Pay,
            Phase::Return,
            Phase::Location,
            Phase::Over,
        ] {
            w.put(f32::from(u8::from(self.phase == ph)));
        }
        let start = w.i;
        w.zeros(15);
        if self.pending != NONE {
            w.out[start + (self.pending as usize - RECRUIT as usize)] = 1.0;
        }
        // Division by a constant is a multiply; by a variable, a slow `div`.
        let rounds = match self.num_players {
            2 => self.turn / 2,
            3 => self.turn / 3,
            _ => self.turn / 4,
        };
        w.put(f32::from(rounds));
        w.put(f32::from(u8::from(self.anyone_meets_gauntlet())));
        for k in 2..=4u8 {
            w.put(f32::from(u8::from(self.num_players == k)));
        }
        debug_assert_eq!(w.i, OBSERVATION_SIZE);
    }

    /// Resamples what `observer` cannot see (contract: sorted pools).
    pub(super) fn resample(&self, observer: Player, rng: &mut SplitMix64) -> MarvelState {
        let mut s = *self;
        for lv in 0..3u8 {
            let mut slots: [(usize, usize); 9] = [(0, 0); 9];
            let mut n_slots = 0;
            let mut pool = [0u8; 40];
            let mut len = 0;
            for q in 0..s.num_players as usize {
                if q == observer as usize {
                    continue;
                }
                for i in 0..s.n_reserved[q] as usize {
                    let c = s.reserved[q][i];
                    if s.hidden[q] & (1 << i) != 0 && s.data.cards[c as usize].level == lv + 1 {
                        slots[n_slots] = (q, i);
                        n_slots += 1;
                        pool[len] = c;
                        len += 1;
                    }
                }
            }
            let deck_len = s.deck(lv as usize).len();
            pool[len..len + deck_len].copy_from_slice(s.deck(lv as usize));
            len += deck_len;
            let pool = &mut pool[..len];
            pool.sort_unstable();
            rng.shuffle(pool);
            for (k, &(q, i)) in slots[..n_slots].iter().enumerate() {
                s.reserved[q][i] = pool[k];
            }
            s.set_deck(lv as usize, &pool[n_slots..]);
        }
        s
    }
}
