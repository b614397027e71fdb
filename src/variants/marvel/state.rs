//! The packed Marvel state, setup and derived values.

use super::actions::{GREEN, GREY};
use super::cards::{MarvelData, LEVEL_START};
use crate::cardset::CardSet;
use crate::game::{Config, GameError, Player, MAX_PLAYERS};
use crate::gems::Gems;
use crate::rng::SplitMix64;

/// Marks an empty board slot / no pending action / no Avengers holder.
pub const NONE: u8 = 0xFF;
/// Start of each level's deck in `decks`, and the end of the last one: a deck
/// holds at most its level's size minus the 4 board slots.
pub const DECK_OFFSET: [usize; 4] = [0, 36, 62, 78];
/// Stones per colour for 2, 3, 4 players.
pub const STONES: [u8; 5] = [0, 0, 4, 5, 7];
/// Grey supply (every player count).
pub const GREY_SUPPLY: u8 = 5;
/// Token limit at the end of a turn (all colours, grey and green included).
pub const TOKEN_LIMIT: u32 = 10;
/// Reserved cards per player.
pub const MAX_RESERVED: u8 = 3;
/// Points needed for the Gauntlet.
pub const GAUNTLET_POINTS: u8 = 16;
/// Icons needed to claim the Avengers tile.
pub const AVENGERS_ICONS: u8 = 3;
/// Points of the Avengers tile.
pub const AVENGERS_POINTS: u8 = 3;

/// Where the current player is in their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// The main action.
    Main,
    /// Choosing how to pay a pending recruit.
    Pay,
    /// Returning tokens down to 10.
    Return,
    /// Choosing among several qualifying locations.
    Location,
    /// The game is over.
    Over,
}

impl Phase {
    /// JSON name.
    pub fn as_str(self) -> &'static str {
        ["main", "pay", "return", "location", "over"][self as usize]
    }
}

/// A Splendor: Marvel state: fixed size, `Copy`, no heap.
///
/// ```text
///  data        &'static MarvelData  card/location tables (interned)
///  owned[4]    u128 bitsets         recruited cards per seat
///  bank        Gems (u64, 8-bit lanes: p b r o y grey green -)
///  tokens[4]   Gems                 per seat, same lanes
///  bonus[4]    Gems                 recruited cards per colour (lanes 0..5)
///  decks[78]   u8 card ids          level 1 at 0..36, 2 at 36..62, 3 at 62..78;
///                                   each deck is decks[deck_top[l]..DECK_OFFSET[l+1]]
///  deck_top[3] u8                   index of each deck's top card
///  board[3][4] u8                   face-up ids, NONE = empty
///  reserved[4][3], n_reserved[4]    reserve order; hidden[4] bit i = slot i blind
///  base_points[4], icons[4]  u16   card points + location points (tile excluded)
///  loc_owned[4], loc_display        location id bitmasks (8 ids)
///  avengers                         holder seat or NONE
///  num_players current phase passes pending(action id or NONE)  u8 each
///  turn turn_cap                    u16 each
/// ```
#[derive(Clone, Copy)]
pub struct MarvelState {
    pub(super) data: &'static MarvelData,
    pub(super) owned: [CardSet; MAX_PLAYERS],
    pub(super) bank: Gems,
    pub(super) tokens: [Gems; MAX_PLAYERS],
    pub(super) bonus: [Gems; MAX_PLAYERS],
    pub(super) decks: [u8; 78],
    pub(super) deck_top: [u8; 3],
    pub(super) board: [[u8; 4]; 3],
    pub(super) reserved: [[u8; 3]; MAX_PLAYERS],
    pub(super) n_reserved: [u8; MAX_PLAYERS],
    pub(super) hidden: [u8; MAX_PLAYERS],
    pub(super) base_points: [u16; MAX_PLAYERS],
    pub(super) icons: [u16; MAX_PLAYERS],
    pub(super) loc_owned: [u8; MAX_PLAYERS],
    pub(super) loc_display: u8,
    pub(super) avengers: u8,
    pub(super) num_players: u8,
    pub(super) current: u8,
    pub(super) phase: Phase,
    pub(super) passes: u8,
    pub(super) pending: u8,
    pub(super) turn: u16,
    pub(super) turn_cap: u16,
}

impl MarvelState {
    /// Deals a game with a given card set (docs/marvel.md §2 draw order).
    pub fn new_with_data(config: &Config, data: &'static MarvelData) -> Result<Self, GameError> {
        let n = config.num_players;
        if !(2..=4).contains(&n) {
            return Err(GameError::Config(crate::game::range_message(
                "players", 2, 4, n,
            )));
        }
        if !(1..=10_000).contains(&config.turn_cap) {
            return Err(GameError::Config(crate::game::range_message(
                "turn_cap",
                1,
                10_000,
                config.turn_cap,
            )));
        }
        let mut rng = SplitMix64::new(config.seed);
        let mut s = MarvelState {
            data,
            owned: [CardSet::EMPTY; MAX_PLAYERS],
            bank: Gems::splat(STONES[n as usize], 5)
                .add(Gems::unit(GREY, GREY_SUPPLY))
                .add(Gems::unit(GREEN, n)),
            tokens: [Gems::ZERO; MAX_PLAYERS],
            bonus: [Gems::ZERO; MAX_PLAYERS],
            decks: [0; 78],
            deck_top: [0; 3],
            board: [[NONE; 4]; 3],
            reserved: [[NONE; 3]; MAX_PLAYERS],
            n_reserved: [0; MAX_PLAYERS],
            hidden: [0; MAX_PLAYERS],
            base_points: [0; MAX_PLAYERS],
            icons: [0; MAX_PLAYERS],
            loc_owned: [0; MAX_PLAYERS],
            loc_display: 0,
            avengers: NONE,
            num_players: n,
            current: 0,
            phase: Phase::Main,
            passes: 0,
            pending: NONE,
            turn: 0,
            turn_cap: config.turn_cap as u16,
        };
        for lv in 0..3 {
            let mut deck: Vec<u8> = (LEVEL_START[lv]..LEVEL_START[lv + 1]).collect();
            rng.shuffle(&mut deck);
            s.board[lv].copy_from_slice(&deck[..4]);
            s.set_deck(lv, &deck[4..]);
        }
        let mut tiles = [0u8, 1, 2, 3];
        rng.shuffle(&mut tiles);
        for &t in &tiles[..n as usize] {
            let side = rng.below(2) as u8;
            s.loc_display |= 1 << (2 * t + side);
        }
        Ok(s)
    }

    /// The card set this state uses.
    pub fn data(&self) -> &'static MarvelData {
        self.data
    }

    /// Replaces a level's deck (top first; at most the capacity).
    pub(super) fn set_deck(&mut self, lv: usize, cards: &[u8]) {
        let end = DECK_OFFSET[lv + 1];
        let top = end - cards.len();
        self.decks[top..end].copy_from_slice(cards);
        self.deck_top[lv] = top as u8;
    }

    /// A level's deck, top first.
    #[inline]
    pub fn deck(&self, lv: usize) -> &[u8] {
        &self.decks[self.deck_top[lv] as usize..DECK_OFFSET[lv + 1]]
    }

    /// Draws the top card of a level's deck.
    #[inline]
    pub(super) fn draw(&mut self, lv: usize) -> u8 {
        let top = self.deck_top[lv] as usize;
        if top < DECK_OFFSET[lv + 1] {
            self.deck_top[lv] += 1;
            self.decks[top]
        } else {
            NONE
        }
    }

    /// A seat's reserved cards, in reserve order.
    #[inline]
    pub fn reserved(&self, p: usize) -> &[u8] {
        &self.reserved[p][..self.n_reserved[p] as usize]
    }

    /// Infinity points of seat `p`: cards, locations and the Avengers tile.
    #[inline]
    pub fn points(&self, p: usize) -> u16 {
        let tile = if self.avengers as usize == p {
            AVENGERS_POINTS
        } else {
            0
        };
        self.base_points[p] + u16::from(tile)
    }

    /// Whether seat `p` meets the Infinity Gauntlet conditions.
    #[inline]
    pub fn meets_gauntlet(&self, p: usize) -> bool {
        self.points(p) >= u16::from(GAUNTLET_POINTS)
            && self.bonus[p].nonzero_mask() & 0x1F == 0x1F
            && self.tokens[p].get(GREEN) == 1
    }

    /// Whether any seat meets the Gauntlet conditions.
    #[inline]
    pub fn anyone_meets_gauntlet(&self) -> bool {
        (0..self.num_players as usize).any(|p| self.meets_gauntlet(p))
    }

    /// Displayed locations whose requirement `p`'s bonuses meet (id mask).
    #[inline]
    pub fn qualifying_locations(&self, p: usize) -> u8 {
        let mut m = 0;
        let mut rest = self.loc_display;
        while rest != 0 {
            let id = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.data.locations[id].requirement.all_le(self.bonus[p]) {
                m |= 1 << id;
            }
        }
        m
    }

    /// Seat to decide, if the game is not over.
    #[inline]
    pub fn current(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.current)
    }

    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Completed turns.
    #[inline]
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// Seat holding the Avengers tile.
    #[inline]
    pub fn avengers(&self) -> Option<Player> {
        (self.avengers != NONE).then_some(self.avengers)
    }

    /// Tokens of seat `p` (lanes p b r o y grey green).
    #[inline]
    pub fn tokens(&self, p: usize) -> Gems {
        self.tokens[p]
    }

    /// The bank.
    #[inline]
    pub fn bank(&self) -> Gems {
        self.bank
    }

    /// Recruited cards of seat `p`.
    #[inline]
    pub fn owned(&self, p: usize) -> CardSet {
        self.owned[p]
    }

    /// Recomputes the cached per-seat values from `owned` and `loc_owned`.
    pub(super) fn recompute_derived(&mut self) {
        for p in 0..MAX_PLAYERS {
            let (mut bonus, mut pts, mut icons) = (Gems::ZERO, 0u32, 0u32);
            for c in self.owned[p].iter() {
                let card = &self.data.cards[c as usize];
                bonus = bonus.add(Gems::unit(card.bonus as usize, 1));
                pts += u32::from(card.points);
                icons += u32::from(card.avengers);
            }
            for id in 0..8 {
                if self.loc_owned[p] & (1 << id) != 0 {
                    pts += u32::from(self.data.locations[id].points);
                }
            }
            self.bonus[p] = bonus;
            self.base_points[p] = pts as u16;
            self.icons[p] = icons as u16;
        }
    }
}
