//! Why a Marvel action is not legal now: the base game's reasons
//! ([`crate::explain`]) in Marvel's words. Marvel numbers its actions like the
//! base game up to `return`; `location`, `pay` and `pass` are mapped to the
//! base numbering first.

use super::actions::{
    action_text, GREY_VECTORS, LOCATION, PAIRS, PASS, PAY, RECRUIT, RECRUIT_RES, TRIPLES,
};
use super::state::{MarvelState, Phase, NONE};
use crate::explain::{explain_main_game, MainGame, MainGameWords, MainKind};
use crate::game::Action;

const WORDS: MainGameWords = MainGameWords {
    colours: ["purple", "blue", "red", "orange", "yellow", "grey"],
    letters: b"pbroys",
    buy: "recruit",
    tile: "location",
    tiles_come: "several locations can come to you",
};

/// Base-numbering ids of the first `noble`, the first `pay` and `pass`.
const BASE_NOBLE: u16 = 66;
const BASE_PAY: u16 = 76;
const BASE_PASS: u16 = 328;

/// The base-game id of the same kind of decision as Marvel id `a`.
fn base_numbering(a: u16) -> u16 {
    if a < LOCATION {
        a
    } else if a < PAY {
        BASE_NOBLE + (a - LOCATION)
    } else if a < PASS {
        BASE_PAY + (a - PAY)
    } else {
        BASE_PASS
    }
}

impl MarvelState {
    fn cost_of(&self, card: u8) -> Option<[u8; 5]> {
        (card != NONE).then(|| {
            let c = self.data.costs[card as usize];
            std::array::from_fn(|k| c.get(k))
        })
    }

    /// Why action `a` is not legal now (docs/contract.md, *Why an action is
    /// illegal*), for a state that is not over.
    pub(crate) fn explain(&self, a: Action) -> String {
        let tile = (LOCATION..PAY)
            .contains(&a.0)
            .then(|| usize::from(a.0 - LOCATION));
        explain_main_game(self, &WORDS, base_numbering(a.0), tile)
    }
}

impl MainGame for MarvelState {
    fn kind(&self) -> MainKind {
        match self.phase {
            Phase::Pay => MainKind::Pay,
            Phase::Return => MainKind::Return,
            Phase::Location => MainKind::Tile,
            Phase::Main | Phase::Over => MainKind::Main,
        }
    }
    fn bank_of(&self, c: usize) -> u8 {
        self.bank.get(c)
    }
    fn tokens_of(&self, c: usize) -> u8 {
        self.tokens[self.current as usize].get(c)
    }
    fn token_total(&self) -> u32 {
        self.tokens[self.current as usize].total()
    }
    fn bonuses(&self) -> [u8; 5] {
        let b = self.bonus[self.current as usize];
        std::array::from_fn(|k| b.get(k))
    }
    fn reserved_count(&self) -> usize {
        self.n_reserved[self.current as usize] as usize
    }
    fn slot_card_cost(&self, level: usize, slot: usize) -> Option<[u8; 5]> {
        self.cost_of(self.card_at(RECRUIT + (4 * level + slot) as u16))
    }
    fn reserved_card_cost(&self, index: usize) -> Option<[u8; 5]> {
        self.cost_of(self.card_at(RECRUIT_RES + index as u16))
    }
    fn pending_text(&self) -> String {
        action_text(Action(u16::from(self.pending)))
    }
    fn pending_cost(&self) -> [u8; 5] {
        self.cost_of(self.card_at(u16::from(self.pending)))
            .unwrap_or_default()
    }
    fn tile_on_display(&self, id: usize) -> bool {
        id < 8 && self.loc_display & (1 << id) != 0
    }
    fn take_mask(a: u16) -> u8 {
        let a = usize::from(a);
        match a {
            0..10 => TRIPLES[a],
            10..20 => PAIRS[a - 10],
            _ => 1 << (a - 20),
        }
    }
    fn payment(i: usize) -> [u8; 5] {
        let g = GREY_VECTORS[i];
        std::array::from_fn(|c| g.get(c))
    }
}
