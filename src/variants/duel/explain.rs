//! Why a Splendor Duel action is not legal now, in words (docs/contract.md,
//! *Why an action is illegal*); the reference engine mirrors every sentence.

use super::actions::*;
use super::board::{cell_name, LINE_MASKS};
use super::cards::*;
use super::state::*;
use crate::explain::{lack_reason, payment_reason, MAX_RESERVED, NOT_EXPLAINED};
use crate::game::Action;

/// Token kind names, in kind order (w u g r k p y).
const KIND_NAMES: [&str; 7] = ["white", "blue", "green", "red", "black", "pearl", "gold"];

/// `2.3` for pyramid slot index `slot` (level-major).
fn slot_name(slot: usize) -> String {
    let level = (0..3).rev().find(|&l| slot >= SLOT_OFFSET[l]).unwrap_or(0);
    format!("{}.{}", level + 1, slot - SLOT_OFFSET[level] + 1)
}

fn lanes<const N: usize>(x: u64) -> [u8; N] {
    std::array::from_fn(|k| lane(x, k))
}

/// The phase whose decisions include action `a`.
fn phase_of(a: u16) -> Phase {
    match a {
        _ if a < RESERVE || (BUY..PAY).contains(&a) || a == PASS => Phase::Main,
        _ if a < BUY => Phase::Reserve,
        _ if a < TOKEN => Phase::Pay,
        _ if a < STEAL => Phase::Token,
        _ if a < JOKER => Phase::Steal,
        _ if a < ROYAL => Phase::Joker,
        _ if a < DISCARD => Phase::Royal,
        _ => Phase::Discard,
    }
}

impl DuelState {
    /// The colour name of the card whose `token` ability is being resolved.
    fn token_colour(&self) -> &'static str {
        let card = self.pending_card as usize;
        let bonus = if card < NUM_CARDS {
            CARD_BONUS[card]
        } else {
            0
        };
        KIND_NAMES
            .get(bonus as usize)
            .copied()
            .unwrap_or("matching")
    }

    fn phase_task(&self, a: u16) -> String {
        match self.phase {
            Phase::Main if phase_of(a) == Phase::Reserve => {
                "take a gold token first (`gold <cell>`): reserving starts with it".into()
            }
            Phase::Main => "choose a main action first (take, gold or buy)".into(),
            Phase::Reserve => {
                "choose the card to reserve first (`reserve L.s` or `reserve deck L`)".into()
            }
            Phase::Pay => format!(
                "first choose how to pay for `{}`",
                text(Action(self.pending_buy))
            ),
            Phase::Joker => "choose the colour of your joker first (`joker x`)".into(),
            Phase::Token => format!(
                "take a {} token with the card's ability first (`token <cell>`)",
                self.token_colour()
            ),
            Phase::Steal => "steal a token first (`steal x`)".into(),
            Phase::Royal => "choose a royal card first (`royal n`)".into(),
            Phase::Discard | Phase::Over => format!(
                "you hold {} tokens: discard one first (`discard x`)",
                self.token_total(self.current as usize)
            ),
        }
    }

    fn buy_reason(&self, card: u8, empty: String) -> String {
        let p = self.current as usize;
        if card == NONE {
            return empty;
        }
        if CARD_BONUS[card as usize] == BONUS_WILD && self.real_colours[p] == 0 {
            return "a joker joins the colour of one of your cards, and you have none".into();
        }
        let cost: [u8; 6] = lanes(CARD_COST[card as usize]);
        let bonus: [u8; 5] = lanes(self.bonus[p]);
        let held: [u8; 7] = lanes(self.tokens[p]);
        lack_reason(&LETTERS[..6], &cost, &bonus, &held, held[6], "gold")
            .unwrap_or_else(|| NOT_EXPLAINED.to_string())
    }

    fn main_reason(&self, a: u16) -> String {
        let p = self.current as usize;
        if a < PRIVILEGE {
            let mut m = LINE_MASKS[a as usize];
            while m != 0 {
                let cell = m.trailing_zeros() as usize;
                m &= m - 1;
                match self.kind_at(cell) {
                    None => return format!("{} is empty", cell_name(cell)),
                    Some(6) => {
                        let c = cell_name(cell);
                        return format!(
                            "{c} holds gold: gold is taken only with `gold {c}`, to reserve a card"
                        );
                    }
                    Some(_) => {}
                }
            }
            return NOT_EXPLAINED.into();
        }
        if a < REPLENISH {
            let cell = usize::from(a - PRIVILEGE);
            return if self.privileges[p] == 0 {
                "you hold no privilege".into()
            } else if self.replenished {
                "privileges are used before replenishing, and you replenished this turn".into()
            } else if self.kind_at(cell).is_none() {
                format!("{} is empty", cell_name(cell))
            } else {
                "a privilege cannot take gold".into()
            };
        }
        if a == REPLENISH {
            return if self.replenished {
                "you already replenished this turn".into()
            } else {
                "the bag is empty".into()
            };
        }
        if a < RESERVE {
            let cell = usize::from(a - GOLD);
            return if self.kind_at(cell) != Some(6) {
                format!("{} holds no gold", cell_name(cell))
            } else if self.reserved_len[p] as usize >= MAX_RESERVED {
                format!("you already hold {MAX_RESERVED} reserved cards")
            } else {
                "there is no card left to reserve".into()
            };
        }
        if a == PASS {
            return "pass is allowed only when no other action is".into();
        }
        if a < BUY_RESERVED {
            let slot = usize::from(a - BUY);
            return self.buy_reason(
                self.pyramid[slot],
                format!("slot {} is empty", slot_name(slot)),
            );
        }
        let index = usize::from(a - BUY_RESERVED);
        self.buy_reason(
            self.buy_card(a),
            format!("you have no reserved card {}", index + 1),
        )
    }

    fn payment_reason(&self, a: u16) -> String {
        let p = self.current as usize;
        let card = self.buy_card(self.pending_buy);
        if card == NONE {
            return NOT_EXPLAINED.into();
        }
        let need: [u8; 6] = lanes(self.need(p, card));
        let held: [u8; 7] = lanes(self.tokens[p]);
        let vector: [u8; 6] = lanes(PAYMENTS[usize::from(a - PAY)]);
        payment_reason(&KIND_NAMES[..6], "gold", &need, &held, held[6], &vector)
    }

    /// Why action `a` is not legal now, for a state that is not over.
    pub(crate) fn explain(&self, a: Action) -> String {
        let a = a.0;
        let kind = phase_of(a);
        if kind != self.phase {
            return self.phase_task(a);
        }
        let p = self.current as usize;
        match kind {
            Phase::Main => self.main_reason(a),
            Phase::Reserve if a < RESERVE_DECK => {
                format!("slot {} is empty", slot_name(usize::from(a - RESERVE)))
            }
            Phase::Reserve => format!("the level {} deck is empty", a - RESERVE_DECK + 1),
            Phase::Pay => self.payment_reason(a),
            Phase::Token => format!(
                "{} holds no {} token",
                cell_name(usize::from(a - TOKEN)),
                self.token_colour()
            ),
            Phase::Steal => format!(
                "seat {} holds no {} token",
                1 - p,
                KIND_NAMES[usize::from(a - STEAL)]
            ),
            Phase::Joker => format!(
                "you own no {} card for the joker to join",
                KIND_NAMES[usize::from(a - JOKER)]
            ),
            Phase::Royal => format!("royal {} is already taken", a - ROYAL),
            Phase::Discard | Phase::Over => {
                format!("you hold no {} token", KIND_NAMES[usize::from(a - DISCARD)])
            }
        }
    }
}
