//! What a player sees: observation vector, determinization, heuristic, picture.

use super::actions::*;
use super::data::{Card, COLOURS};
use super::state::*;
use crate::game::{Player, MAX_PLAYERS};
use crate::rng::SplitMix64;
use std::fmt::Write;

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

    fn value(&self, p: usize) -> f32 {
        let colours = (self.bonus[p].nonzero_mask() & 0x1F).count_ones() as f32;
        let cards: u32 = (0..5).map(|c| u32::from(self.bonus[p].get(c))).sum();
        0.55 * f32::from(self.points(p).min(16)) / 16.0
            + 0.25 * colours / 5.0
            + 0.1 * f32::from(self.tokens[p].get(GREEN))
            + 0.1 * cards.min(15) as f32 / 15.0
    }

    /// Heuristic value in [0, 1] (docs/marvel.md §8).
    pub(super) fn value_for(&self, player: Player) -> f32 {
        if let Some(o) = self.result() {
            return o.returns()[player as usize] as f32;
        }
        let p = player as usize;
        let best_other = (0..self.num_players as usize)
            .filter(|&q| q != p)
            .map(|q| self.value(q))
            .fold(f32::MIN, f32::max);
        (0.5 + 0.5 * (self.value(p) - best_other)).clamp(0.0, 1.0)
    }

    /// A readable multi-line picture with character names.
    pub(super) fn picture(&self) -> String {
        let card_text = |c: u8| {
            let card = &self.data.cards[c as usize];
            let cost: Vec<String> = (0..5)
                .filter(|&k| card.cost.get(k) > 0)
                .map(|k| format!("{}{}", card.cost.get(k), LETTERS[k] as char))
                .collect();
            let mut extra = String::new();
            if card.avengers > 0 {
                let _ = write!(extra, " A{}", card.avengers);
            }
            if card.time_stone {
                extra.push_str(" T");
            }
            format!(
                "{} [{} {}pt{}] ({})",
                card.name,
                LETTERS[card.bonus as usize] as char,
                card.points,
                extra,
                cost.join(" ")
            )
        };
        let tok = |g: crate::gems::Gems, all: bool| {
            (0..7)
                .filter(|&c| all || g.get(c) > 0)
                .map(|c| format!("{}{}", TOKEN_LETTERS[c] as char, g.get(c)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let status = if self.phase == Phase::Over {
            "over".to_string()
        } else {
            format!("seat {} to play ({})", self.current, self.phase.as_str())
        };
        let mut s = format!(
            "Splendor: Marvel, turn {}, {status}\nbank: {}\n",
            self.turn,
            tok(self.bank, true)
        );
        for lv in (0..3).rev() {
            let cells: Vec<String> = self.board[lv]
                .iter()
                .map(|&c| {
                    if c == NONE {
                        "-".to_string()
                    } else {
                        card_text(c)
                    }
                })
                .collect();
            let _ = writeln!(
                s,
                "L{} ({} left): {}",
                lv + 1,
                self.deck(lv).len(),
                cells.join(" | ")
            );
        }
        let locs: Vec<String> = (0..8)
            .filter(|id| self.loc_display & (1 << id) != 0)
            .map(|id| {
                let l = &self.data.locations[id];
                let req: Vec<String> = (0..5)
                    .filter(|&k| l.requirement.get(k) > 0)
                    .map(|k| format!("{}{}", l.requirement.get(k), LETTERS[k] as char))
                    .collect();
                format!("{} ({})", l.name, req.join(" "))
            })
            .collect();
        let _ = writeln!(
            s,
            "locations: {}",
            if locs.is_empty() {
                "-".into()
            } else {
                locs.join(", ")
            }
        );
        for q in 0..self.num_players as usize {
            let bon: Vec<String> = (0..5)
                .filter(|&c| self.bonus[q].get(c) > 0)
                .map(|c| format!("{}{}", self.bonus[q].get(c), &COLOURS[c][..1]))
                .collect();
            let names: Vec<String> = (0..8)
                .filter(|id| self.loc_owned[q] & (1 << id) != 0)
                .map(|id| self.data.locations[id].name.clone())
                .collect();
            let _ = writeln!(
                s,
                "seat {q}: {} IP{}, tokens [{}], bonuses [{}], {} cards, locations [{}]",
                self.points(q),
                if self.avengers as usize == q {
                    " +Avengers"
                } else {
                    ""
                },
                tok(self.tokens[q], false),
                bon.join(" "),
                self.owned[q].len(),
                names.join(", ")
            );
            for i in 0..self.n_reserved[q] as usize {
                let blind = if self.hidden[q] & (1 << i) != 0 {
                    " (blind)"
                } else {
                    ""
                };
                let _ = writeln!(s, "    reserved{blind}: {}", card_text(self.reserved[q][i]));
            }
        }
        if let Some(o) = self.result() {
            let _ = writeln!(
                s,
                "result: {}, winners {:?}",
                o.reason.as_str(),
                o.winner_list()
            );
        }
        s.pop();
        s
    }
}
