//! Why a base-game action is not legal now: the shared main-game reasons
//! ([`crate::explain`]) read from a [`BaseState`].

use super::actions::{self, BUY, BUY_RESERVED, NOBLE, PAY};
use super::cards::{self, COLOUR_NAMES, LETTERS};
use super::state::{BaseState, Phase, EMPTY};
use crate::explain::{explain_main_game, MainGame, MainGameWords, MainKind};
use crate::game::Action;

const WORDS: MainGameWords = MainGameWords {
    colours: COLOUR_NAMES,
    letters: &LETTERS,
    buy: "buy",
    tile: "noble",
    tiles_come: "several nobles can visit you",
};

fn cost_of(card: u8) -> [u8; 5] {
    let c = cards::cost(card);
    std::array::from_fn(|k| c.get(k))
}

impl MainGame for BaseState {
    fn kind(&self) -> MainKind {
        match self.phase {
            Phase::Pay => MainKind::Pay,
            Phase::Return => MainKind::Return,
            Phase::Noble => MainKind::Tile,
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
        let card = self.board[level][slot];
        (card != EMPTY).then(|| cost_of(card))
    }
    fn reserved_card_cost(&self, index: usize) -> Option<[u8; 5]> {
        self.reserved(self.current as usize)
            .get(index)
            .map(|&card| cost_of(card))
    }
    fn pending_text(&self) -> String {
        actions::action_text(Action(u16::from(self.pending)))
    }
    fn pending_cost(&self) -> [u8; 5] {
        cost_of(self.buy_target(u16::from(self.pending)))
    }
    fn tile_on_display(&self, id: usize) -> bool {
        self.nobles_on_display()
            .iter()
            .any(|&n| usize::from(n) == id)
    }
    fn take_mask(a: u16) -> u8 {
        actions::TAKE_MASKS[usize::from(a)]
    }
    fn payment(i: usize) -> [u8; 5] {
        let g = actions::PAYMENTS[i];
        std::array::from_fn(|c| g.get(c))
    }
}

impl BaseState {
    /// Why action `a` is not legal now (docs/contract.md, *Why an action is
    /// illegal*), for a state that is not over.
    pub(crate) fn explain(&self, a: Action) -> String {
        let tile = (NOBLE..PAY)
            .contains(&a.0)
            .then(|| usize::from(a.0 - NOBLE));
        explain_main_game(self, &WORDS, a.0, tile)
    }
}

// The shared reasons assume the base numbering of buys; pin it.
const _: () = assert!(BUY == 45 && BUY_RESERVED == 57 && NOBLE == 66 && PAY == 76);
