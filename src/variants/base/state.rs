//! The packed base-game state.

use super::cards::{self, GOLD, LEVEL_START, NUM_NOBLES};
use crate::cardset::CardSet;
use crate::game::{Config, GameError, MAX_PLAYERS};
use crate::gems::Gems;
use crate::rng::SplitMix64;

/// Marks an empty board slot, reserve slot, noble slot or drawn deck cell.
pub const EMPTY: u8 = 0xFF;
/// Deck capacity of each level once the 4 face-up cards are dealt.
pub const DECK_CAP: [u8; 3] = [36, 26, 16];
/// Start of each level's segment in [`BaseState::deck`] (plus the end).
pub const DECK_SEG: [u8; 4] = [0, 36, 62, 78];
/// Largest accepted turn cap (rounds).
pub const MAX_TURN_CAP: u32 = 1_000_000;

/// Which decision the current player faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Phase {
    /// Choose the main action (take, reserve, buy, or pass when nothing else).
    Main = 0,
    /// Choose how to pay for the pending buy.
    Pay = 1,
    /// Return one token (holding more than 10).
    Return = 2,
    /// Choose one of several qualifying nobles.
    Noble = 3,
    /// The game is over.
    Over = 4,
}

impl Phase {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Main => "main",
            Phase::Pay => "pay",
            Phase::Return => "return",
            Phase::Noble => "noble",
            Phase::Over => "over",
        }
    }
}

/// A complete Splendor position for 2–4 players: a 288-byte `Copy` value, no heap.
///
/// ```text
/// offset size field
///   0    64  owned[4]      u128 bitset of purchased card ids per seat
///  64     8  bank          Gems: lanes w u g r k y (gold) of the bank
///  72    32  tokens[4]     Gems per seat
/// 104    32  bonus[4]      Gems per seat (lanes w..k): derived from `owned`, kept for speed
/// 136    78  deck          3 segments [36 | 26 | 16] of card ids; level l's deck is
///                          deck[DECK_SEG[l] + top[l] .. DECK_SEG[l+1]], top card first;
///                          drawn cells hold EMPTY so equal positions compare equal
/// 214     3  top[3]        cursor of each level's deck
/// 217    12  board[3][4]   face-up card ids (EMPTY = no card)
/// 229    12  reserved[4][3] reserved card ids in reserve order (EMPTY after the last)
/// 241     4  n_reserved[4]
/// 245     4  points[4]     card points + noble points (derived, kept for speed)
/// 249     5  display[5]    nobles on display, in display order (EMPTY after the last)
/// 254     1  n_display
/// 255     5  claimed[5]    claimed nobles in claim order, (seat << 4) | noble id
/// 260     1  n_claimed
/// 262     2  hidden        bit 3*seat+i: reserve slot i of seat was reserved blind
/// 264     5  num_players, current, phase, pending (buy id in `pay`, else 0), passes
/// 272     8  turn, turn_cap (u32 each); 8 bytes of padding to the 16-byte alignment
/// ```
/// `current` keeps the last mover's seat once the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct BaseState {
    pub(crate) owned: [CardSet; MAX_PLAYERS],
    pub(crate) bank: Gems,
    pub(crate) tokens: [Gems; MAX_PLAYERS],
    pub(crate) bonus: [Gems; MAX_PLAYERS],
    pub(crate) deck: [u8; 78],
    pub(crate) top: [u8; 3],
    pub(crate) board: [[u8; 4]; 3],
    pub(crate) reserved: [[u8; 3]; MAX_PLAYERS],
    pub(crate) n_reserved: [u8; MAX_PLAYERS],
    pub(crate) points: [u8; MAX_PLAYERS],
    pub(crate) display: [u8; 5],
    pub(crate) n_display: u8,
    pub(crate) claimed: [u8; 5],
    pub(crate) n_claimed: u8,
    pub(crate) hidden: u16,
    pub(crate) num_players: u8,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    pub(crate) pending: u8,
    pub(crate) passes: u8,
    pub(crate) turn: u32,
    pub(crate) turn_cap: u32,
}

/// Gem tokens per colour for 2, 3, 4 players.
pub fn gems_per_colour(num_players: u8) -> u8 {
    match num_players {
        2 => 4,
        3 => 5,
        _ => 7,
    }
}

/// The bank at setup: 4/5/7 of each colour and 5 gold.
pub fn setup_bank(num_players: u8) -> Gems {
    let mut g = Gems::splat(gems_per_colour(num_players), 5);
    g.set(GOLD, 5);
    g
}

impl BaseState {
    /// An empty shell (no cards placed) used by setup and `from_json`.
    pub(crate) fn blank(num_players: u8, turn_cap: u32) -> Self {
        BaseState {
            owned: [CardSet::EMPTY; MAX_PLAYERS],
            bank: setup_bank(num_players),
            tokens: [Gems::ZERO; MAX_PLAYERS],
            bonus: [Gems::ZERO; MAX_PLAYERS],
            deck: [EMPTY; 78],
            top: DECK_CAP,
            board: [[EMPTY; 4]; 3],
            reserved: [[EMPTY; 3]; MAX_PLAYERS],
            n_reserved: [0; MAX_PLAYERS],
            points: [0; MAX_PLAYERS],
            display: [EMPTY; 5],
            n_display: 0,
            claimed: [EMPTY; 5],
            n_claimed: 0,
            hidden: 0,
            num_players,
            current: 0,
            phase: Phase::Main,
            pending: 0,
            passes: 0,
            turn: 0,
            turn_cap,
        }
    }

    /// Deals a new game (docs/base.md, "Setup").
    pub fn new(config: &Config) -> Result<Self, GameError> {
        if !(2..=4).contains(&config.num_players) {
            return Err(GameError::Config(crate::game::range_message(
                "players",
                2,
                4,
                config.num_players,
            )));
        }
        if !(1..=MAX_TURN_CAP).contains(&config.turn_cap) {
            return Err(GameError::Config(crate::game::range_message(
                "turn_cap",
                1,
                MAX_TURN_CAP,
                config.turn_cap,
            )));
        }
        let n = config.num_players;
        let mut s = Self::blank(n, config.turn_cap);
        let mut rng = SplitMix64::new(config.seed);
        for l in 0..3 {
            let mut ids: [u8; 40] = [0; 40];
            let len = (LEVEL_START[l + 1] - LEVEL_START[l]) as usize;
            for (i, id) in ids[..len].iter_mut().enumerate() {
                *id = LEVEL_START[l] + i as u8;
            }
            rng.shuffle(&mut ids[..len]);
            s.board[l].copy_from_slice(&ids[..4]);
            let seg = DECK_SEG[l] as usize;
            s.deck[seg..seg + len - 4].copy_from_slice(&ids[4..len]);
            s.top[l] = 0;
        }
        let mut nobles: [u8; NUM_NOBLES] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut nobles);
        let shown = usize::from(n) + 1;
        s.display[..shown].copy_from_slice(&nobles[..shown]);
        s.n_display = shown as u8;
        Ok(s)
    }

    /// Cards left in the deck of level index `l` (0..3).
    #[inline]
    pub fn deck_size(&self, l: usize) -> usize {
        (DECK_CAP[l] - self.top[l]) as usize
    }

    /// The deck of level index `l`, top card first.
    #[inline]
    pub fn deck(&self, l: usize) -> &[u8] {
        &self.deck[(DECK_SEG[l] + self.top[l]) as usize..DECK_SEG[l + 1] as usize]
    }

    /// Draws the top card of level index `l`, or `EMPTY` when the deck is empty.
    #[inline]
    pub(crate) fn draw(&mut self, l: usize) -> u8 {
        if self.top[l] >= DECK_CAP[l] {
            return EMPTY;
        }
        let i = (DECK_SEG[l] + self.top[l]) as usize;
        self.top[l] += 1;
        std::mem::replace(&mut self.deck[i], EMPTY)
    }

    /// The phase of the game.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Completed turns.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Tokens held by `seat` (lanes w u g r k y).
    pub fn tokens(&self, seat: usize) -> Gems {
        self.tokens[seat]
    }

    /// The bank (lanes w u g r k y).
    pub fn bank(&self) -> Gems {
        self.bank
    }

    /// Bonuses of `seat` (lanes w u g r k).
    pub fn bonuses(&self, seat: usize) -> Gems {
        self.bonus[seat]
    }

    /// Purchased cards of `seat`.
    pub fn cards(&self, seat: usize) -> CardSet {
        self.owned[seat]
    }

    /// Reserved cards of `seat`, in reserve order.
    pub fn reserved(&self, seat: usize) -> &[u8] {
        &self.reserved[seat][..self.n_reserved[seat] as usize]
    }

    /// Whether reserve slot `i` of `seat` was reserved blind.
    #[inline]
    pub fn is_hidden(&self, seat: usize, i: usize) -> bool {
        self.hidden & (1 << (3 * seat + i)) != 0
    }

    /// Face-up card of level index `l`, slot `s`, if any.
    pub fn board_card(&self, l: usize, s: usize) -> Option<u8> {
        let c = self.board[l][s];
        (c != EMPTY).then_some(c)
    }

    /// Nobles on display, in display order.
    pub fn nobles_on_display(&self) -> &[u8] {
        &self.display[..self.n_display as usize]
    }

    /// Nobles claimed by `seat`, in claim order.
    pub fn nobles_of(&self, seat: usize) -> impl Iterator<Item = u8> + '_ {
        self.claimed[..self.n_claimed as usize]
            .iter()
            .filter(move |&&c| usize::from(c >> 4) == seat)
            .map(|&c| c & 0xF)
    }

    /// Points from scratch (cards and nobles), for checks of the cached value.
    pub fn points_from_scratch(&self, seat: usize) -> u32 {
        let cards: u32 = self.owned[seat]
            .iter()
            .map(|c| u32::from(cards::points(c)))
            .sum();
        let nobles: u32 = self
            .nobles_of(seat)
            .map(|n| u32::from(cards::noble_points(n)))
            .sum();
        cards + nobles
    }

    /// Bonuses from scratch, for checks of the cached value.
    pub fn bonuses_from_scratch(&self, seat: usize) -> Gems {
        self.owned[seat]
            .iter()
            .fold(Gems::ZERO, |g, c| g.add(Gems::unit(cards::bonus(c), 1)))
    }

    /// The pending buy action id (in phase `pay`).
    pub fn pending(&self) -> Option<u16> {
        (self.phase == Phase::Pay).then_some(u16::from(self.pending))
    }

    /// Consecutive passes counted so far.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The turn cap in rounds.
    pub fn turn_cap(&self) -> u32 {
        self.turn_cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layout_matches_the_drawing() {
        assert_eq!(size_of::<BaseState>(), 288);
        assert_eq!(offset_of!(BaseState, owned), 0);
        assert_eq!(offset_of!(BaseState, bank), 64);
        assert_eq!(offset_of!(BaseState, tokens), 72);
        assert_eq!(offset_of!(BaseState, bonus), 104);
        assert_eq!(offset_of!(BaseState, deck), 136);
        assert_eq!(offset_of!(BaseState, top), 214);
        assert_eq!(offset_of!(BaseState, board), 217);
        assert_eq!(offset_of!(BaseState, reserved), 229);
        assert_eq!(offset_of!(BaseState, n_reserved), 241);
        assert_eq!(offset_of!(BaseState, points), 245);
        assert_eq!(offset_of!(BaseState, display), 249);
        assert_eq!(offset_of!(BaseState, n_display), 254);
        assert_eq!(offset_of!(BaseState, claimed), 255);
        assert_eq!(offset_of!(BaseState, n_claimed), 260);
        assert_eq!(offset_of!(BaseState, hidden), 262);
        assert_eq!(offset_of!(BaseState, num_players), 264);
        assert_eq!(offset_of!(BaseState, turn), 272);
        assert_eq!(offset_of!(BaseState, turn_cap), 276);
    }
}
