//! The Duel state: a fixed-size `Copy` struct with no heap, its setup and its
//! conservation invariants.
//!
//! ```text
//! tokens / bag       u64, 8-bit lanes:  | - | y | p | k | r | g | u | w |  (lane 0 = white)
//! bonus / colour_pts u64, 8-bit lanes 0..4 (w u g r k); jokers count in their colour
//! board              [u32; 7]: one 25-bit mask per kind w u g r k p y (bit = row*5+col)
//! cards              [u128; 2]: bit = card id owned (tableau)
//! decks              [[u8; 25]; 3] with deck_pos..deck_len the cards left, top first
//! pyramid            [u8; 12]: slots level-major (5+4+3), NONE = empty
//! reserved           [[u8; 3]; 2] + reserved_len, reserved_hidden (bit = blind slot)
//! joker_colour       [u8; 16]: colour of joker JOKER_INDEX[card], NONE = not placed
//! royals_owned / royals_available: 4-bit masks by royal id
//! ```

use super::board::SPIRAL;
use super::cards::*;
use crate::game::{Config, GameError, Player};
use crate::rng::SplitMix64;

/// Empty slot / absent card.
pub const NONE: u8 = u8::MAX;
/// No pending buy.
pub const NO_BUY: u16 = u16::MAX;
/// Lanes 0..5 (gems and pearls, no gold).
pub const NON_GOLD: u64 = 0x0000_FFFF_FFFF_FFFF;
/// One in every lane, for SWAR sums.
pub const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Where the current decision stands in the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Phase {
    /// Optional actions and the mandatory action.
    Main,
    /// Gold taken: choose the card to reserve.
    Reserve,
    /// Choose how gold pays for the pending buy.
    Pay,
    /// Choose the colour of the joker just bought.
    Joker,
    /// Choose the cell for the `token` ability.
    Token,
    /// Choose the kind to steal.
    Steal,
    /// Choose a royal card.
    Royal,
    /// Return one token (over 10).
    Discard,
    /// The game is over.
    Over,
}

/// Phase names, in the order of [`Phase`] (JSON and observation).
pub const PHASE_NAMES: [&str; 9] = [
    "main", "reserve", "pay", "joker", "token", "steal", "royal", "discard", "over",
];

impl Phase {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        PHASE_NAMES[self as usize]
    }
    /// Parses a JSON name.
    pub fn from_name(s: &str) -> Option<Phase> {
        const ALL: [Phase; 9] = [
            Phase::Main,
            Phase::Reserve,
            Phase::Pay,
            Phase::Joker,
            Phase::Token,
            Phase::Steal,
            Phase::Royal,
            Phase::Discard,
            Phase::Over,
        ];
        PHASE_NAMES.iter().position(|&n| n == s).map(|i| ALL[i])
    }
}

/// A Splendor Duel game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelState {
    pub(crate) board: [u32; 7],
    pub(crate) chance: u64,
    pub(crate) bag: u64,
    pub(crate) tokens: [u64; 2],
    pub(crate) bonus: [u64; 2],
    pub(crate) colour_points: [u64; 2],
    pub(crate) cards: [u128; 2],
    pub(crate) decks: [[u8; 25]; 3],
    pub(crate) deck_pos: [u8; 3],
    pub(crate) deck_len: [u8; 3],
    pub(crate) pyramid: [u8; NUM_SLOTS],
    pub(crate) reserved: [[u8; 3]; 2],
    pub(crate) reserved_len: [u8; 2],
    pub(crate) reserved_hidden: [u8; 2],
    pub(crate) joker_colour: [u8; MAX_JOKERS],
    pub(crate) points: [u8; 2],
    pub(crate) crowns: [u8; 2],
    pub(crate) privileges: [u8; 2],
    pub(crate) royals_owned: [u8; 2],
    pub(crate) real_colours: [u8; 2],
    pub(crate) royals_available: u8,
    pub(crate) turn: u32,
    pub(crate) turn_cap: u32,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    pub(crate) pending_buy: u16,
    pub(crate) pending_card: u8,
    pub(crate) royals_due: u8,
    pub(crate) again: bool,
    pub(crate) replenished: bool,
    pub(crate) winners: u8,
    pub(crate) end_reason: u8,
}

/// Saturating per-lane `a - b` for lanes below 128.
#[inline]
pub fn sat_sub(a: u64, b: u64) -> u64 {
    let d = (a | HIGH).wrapping_sub(b);
    let keep = d & HIGH;
    d & ((keep >> 7) * 0x7F)
}

/// Sum of all lanes (the total stays below 256).
#[inline]
pub fn lane_sum(x: u64) -> u32 {
    (x.wrapping_mul(ONES) >> 56) as u32
}

/// Lane `k` of `x`.
#[inline]
pub fn lane(x: u64, k: usize) -> u8 {
    (x >> (8 * k)) as u8
}

/// Largest lane value.
#[inline]
pub fn lane_max(x: u64) -> u8 {
    (0..8).map(|k| lane(x, k)).max().unwrap_or(0)
}

/// Packs per-kind counts into lanes.
pub fn pack(xs: &[u8]) -> u64 {
    xs.iter()
        .enumerate()
        .fold(0, |acc, (k, &v)| acc | (u64::from(v) << (8 * k)))
}

impl DuelState {
    /// Deals a new game (docs/duel.md, *Setup*).
    pub fn new(config: &Config) -> Result<Self, GameError> {
        if config.num_players != 2 {
            return Err(GameError::Config(format!(
                "Splendor Duel is for exactly 2 players, not {}",
                config.num_players
            )));
        }
        if config.turn_cap == 0 || config.turn_cap > 1_000_000 {
            return Err(GameError::Config(crate::game::range_message(
                "turn_cap",
                1,
                1_000_000,
                config.turn_cap,
            )));
        }
        let mut rng = SplitMix64::new(config.seed);
        let mut s = DuelState {
            board: [0; 7],
            chance: 0,
            bag: 0,
            tokens: [0; 2],
            bonus: [0; 2],
            colour_points: [0; 2],
            cards: [0; 2],
            decks: [[NONE; 25]; 3],
            deck_pos: [0; 3],
            deck_len: [0; 3],
            pyramid: [NONE; NUM_SLOTS],
            reserved: [[NONE; 3]; 2],
            reserved_len: [0; 2],
            reserved_hidden: [0; 2],
            joker_colour: [NONE; MAX_JOKERS],
            points: [0; 2],
            crowns: [0; 2],
            privileges: [0, 1],
            royals_owned: [0; 2],
            real_colours: [0; 2],
            royals_available: 0b1111,
            turn: 0,
            turn_cap: config.turn_cap,
            current: 0,
            phase: Phase::Main,
            pending_buy: NO_BUY,
            pending_card: NONE,
            royals_due: 0,
            again: false,
            replenished: false,
            winners: 0,
            end_reason: 0,
        };
        for l in 0..3 {
            let mut deck: Vec<u8> = (LEVEL_START[l]..LEVEL_START[l] + LEVEL_SIZE[l]).collect();
            rng.shuffle(&mut deck);
            s.pyramid[SLOT_OFFSET[l]..SLOT_OFFSET[l] + SLOTS[l]].copy_from_slice(&deck[..SLOTS[l]]);
            let rest = &deck[SLOTS[l]..];
            s.decks[l][..rest.len()].copy_from_slice(rest);
            s.deck_len[l] = rest.len() as u8;
        }
        let mut bag = [0u8; 25];
        let mut n = 0;
        for (k, &t) in TOKEN_TOTALS.iter().enumerate() {
            for _ in 0..t {
                bag[n] = k as u8;
                n += 1;
            }
        }
        rng.shuffle(&mut bag);
        for (i, &k) in bag.iter().enumerate() {
            s.board[k as usize] |= 1 << SPIRAL[i];
        }
        s.chance = rng.next_u64();
        Ok(s)
    }

    /// Cells holding any token.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.board.iter().fold(0, |a, &b| a | b)
    }

    /// Kind (0..7) of the token on `cell`, if any.
    #[inline]
    pub fn kind_at(&self, cell: usize) -> Option<usize> {
        self.board.iter().position(|&b| b & (1 << cell) != 0)
    }

    /// Total tokens held by `p`.
    #[inline]
    pub fn token_total(&self, p: usize) -> u32 {
        lane_sum(self.tokens[p])
    }

    /// Cards left in the deck of level index `l` (0..3), top first.
    pub fn deck(&self, l: usize) -> &[u8] {
        &self.decks[l][self.deck_pos[l] as usize..self.deck_len[l] as usize]
    }

    /// Privileges in the supply.
    #[inline]
    pub fn supply(&self) -> u8 {
        3 - self.privileges[0] - self.privileges[1]
    }

    /// Seat `p` gains a privilege: from the supply, else from the opponent,
    /// nothing when already holding all 3.
    #[inline]
    pub fn gain_privilege(&mut self, p: usize) {
        if self.privileges[p] >= 3 {
            return;
        }
        if self.supply() == 0 {
            self.privileges[1 - p] -= 1;
        }
        self.privileges[p] += 1;
    }

    /// Best single-colour point total of `p`.
    #[inline]
    pub fn best_colour(&self, p: usize) -> u8 {
        lane_max(self.colour_points[p])
    }

    /// Replenish: shuffle the bag with the chance generator and fill the empty
    /// cells along the spiral.
    pub fn refill_board(&mut self) {
        let mut tokens = [0u8; 25];
        let mut n = 0;
        for k in 0..7 {
            for _ in 0..lane(self.bag, k) {
                tokens[n] = k as u8;
                n += 1;
            }
        }
        let mut r = SplitMix64::new(self.chance);
        r.shuffle(&mut tokens[..n]);
        let occ = self.occupied();
        let mut next = 0;
        for &cell in &SPIRAL {
            if next == n {
                break;
            }
            if occ & (1 << cell) == 0 {
                let k = tokens[next] as usize;
                self.board[k] |= 1 << cell;
                self.bag -= 1 << (8 * k);
                next += 1;
            }
        }
        self.chance = r.next_u64();
    }

    /// Draws the top card of level index `l`, if any.
    #[inline]
    pub fn draw(&mut self, l: usize) -> Option<u8> {
        let pos = self.deck_pos[l];
        if pos < self.deck_len[l] {
            self.deck_pos[l] = pos + 1;
            Some(self.decks[l][pos as usize])
        } else {
            None
        }
    }

    /// Seat to move as a `Player`.
    #[inline]
    pub fn seat(&self) -> Player {
        self.current
    }
}

// The conservation invariants of the rules digest (§6 item 13), checked
// directly on the packed state (the conformance tests call this after every
// decision; `from_json` checks the same things on untrusted input).
impl DuelState {
    /// Checks token, card, royal and privilege conservation and the limits;
    /// returns the first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut board_total = 0u32;
        for (k, &total) in TOKEN_TOTALS.iter().enumerate() {
            for j in k + 1..7 {
                if self.board[k] & self.board[j] != 0 {
                    return Err(format!("a cell holds kinds {k} and {j}"));
                }
            }
            let n = u32::from(lane(self.bag, k))
                + self.board[k].count_ones()
                + u32::from(lane(self.tokens[0], k))
                + u32::from(lane(self.tokens[1], k));
            if n != u32::from(total) {
                return Err(format!("{n} tokens of kind {k}"));
            }
            board_total += self.board[k].count_ones();
        }
        if board_total > 25 || self.occupied() >> 25 != 0 {
            return Err("tokens outside the board".into());
        }
        if self.privileges[0] + self.privileges[1] > 3 {
            return Err("more than 3 privileges held".into());
        }
        let mut seen = 0u128;
        let mut count = 0;
        let mut see = |c: u8| {
            if c != NONE && (c as usize) < NUM_CARDS {
                seen |= 1 << c;
                count += 1;
            }
        };
        self.pyramid.iter().for_each(|&c| see(c));
        for l in 0..3 {
            self.deck(l).iter().for_each(|&c| see(c));
        }
        for p in 0..2 {
            self.reserved[p][..self.reserved_len[p] as usize]
                .iter()
                .for_each(|&c| see(c));
            for c in 0..NUM_CARDS {
                if self.cards[p] & (1 << c) != 0 {
                    see(c as u8);
                }
            }
        }
        if count != NUM_CARDS || seen != (1u128 << NUM_CARDS) - 1 {
            return Err(format!(
                "{count} card places for {} distinct cards",
                seen.count_ones()
            ));
        }
        let royals = self.royals_available.count_ones()
            + self.royals_owned[0].count_ones()
            + self.royals_owned[1].count_ones();
        if royals != 4 || self.royals_available & (self.royals_owned[0] | self.royals_owned[1]) != 0
        {
            return Err("royals not conserved".into());
        }
        for p in 0..2 {
            if self.reserved_len[p] > 3 || self.royals_owned[p].count_ones() > 2 {
                return Err(format!("player {p} over a limit"));
            }
            let on_turn = p == self.current as usize && self.phase != Phase::Over;
            if !on_turn && self.token_total(p) > 10 {
                return Err(format!(
                    "player {p} holds {} tokens off turn",
                    self.token_total(p)
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Config;
    use crate::variants::duel::DuelState;

    #[test]
    fn each_broken_invariant_is_reported() {
        let s = DuelState::new(&Config::default()).expect("valid config");
        assert_eq!(s.check_invariants(), Ok(()));
        let mut t = s;
        t.bag += 1;
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.pyramid[1] = t.pyramid[0];
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.privileges = [2, 2];
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.royals_owned[0] = 1;
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.tokens[1] = 11;
        t.board[0] &= !0b11111111111;
        assert!(t.check_invariants().is_err());
    }
}
