//! The text picture of a Duel state, in the layout every variant shares
//! ([`crate::picture`]), with the token board drawn as a grid.

use super::actions::LETTERS;
use super::cards::*;
use super::state::*;
use crate::game::Game;
use crate::picture::{self, Picture};

/// Ability names in flag-bit order (`CARD_ABILITY`, `ROYAL_ABILITY`).
const ABILITIES: [&str; 5] = ["again", "token", "steal", "privilege", "wild"];

/// The abilities of `flags`, joined by `+` (a joker shows as `*` instead).
fn ability_text(flags: u8) -> Option<String> {
    let names: Vec<&str> = (0..4)
        .filter(|&b| flags & (1 << b) != 0)
        .map(|b| ABILITIES[b])
        .collect();
    (!names.is_empty()).then(|| names.join("+"))
}

/// `#58 WW 2pt 1cr again cost 3u 2p`: id, bonus (`*` a joker, `-` none),
/// points, crowns, ability, cost.
fn card_text(card: u8) -> String {
    let c = card as usize;
    let bonus = match CARD_BONUS[c] {
        BONUS_WILD => "*".to_string(),
        BONUS_NONE => "-".to_string(),
        b => (LETTERS[b as usize].to_ascii_uppercase() as char)
            .to_string()
            .repeat(usize::from(CARD_BONUS_COUNT[c])),
    };
    let mut text = format!("#{card} {bonus} {}pt", CARD_POINTS[c]);
    if CARD_CROWNS[c] > 0 {
        text.push_str(&format!(" {}cr", CARD_CROWNS[c]));
    }
    if let Some(a) = ability_text(CARD_ABILITY[c]) {
        text.push(' ');
        text.push_str(&a);
    }
    let cost: Vec<u8> = (0..6).map(|k| lane(CARD_COST[c], k)).collect();
    format!("{text} cost {}", picture::cost(&LETTERS, &cost))
}

/// `R0 2pt steal`: id, points, ability.
fn royal_text(r: usize) -> String {
    match ability_text(ROYAL_ABILITY[r]) {
        Some(a) => format!("R{r} {}pt {a}", ROYAL_POINTS[r]),
        None => format!("R{r} {}pt", ROYAL_POINTS[r]),
    }
}

impl DuelState {
    /// A readable picture of the state.
    pub fn picture(&self) -> String {
        let to_play = (self.phase != Phase::Over).then(|| (self.current, self.phase.name()));
        let mut p = Picture::new("Splendor Duel", 2, self.turn, to_play);
        p.line("board: a b c d e");
        for r in 0..5 {
            let row: Vec<String> = (0..5)
                .map(|c| {
                    self.kind_at(r * 5 + c)
                        .map_or(".".to_string(), |k| (LETTERS[k] as char).to_string())
                })
                .collect();
            p.line(&format!("     {} {}", r + 1, row.join(" ")));
        }
        let bag: Vec<u8> = (0..7).map(|k| lane(self.bag, k)).collect();
        p.line(&format!(
            "bag: {}, privileges in the supply: {}",
            picture::tokens(&LETTERS, &bag, true),
            self.supply()
        ));
        let royals: Vec<String> = (0..NUM_ROYALS)
            .filter(|&r| self.royals_available & (1 << r) != 0)
            .map(royal_text)
            .collect();
        p.list("royals", &royals);
        for l in (0..3).rev() {
            let row: Vec<Option<String>> = self.pyramid[SLOT_OFFSET[l]..SLOT_OFFSET[l] + SLOTS[l]]
                .iter()
                .map(|&c| (c != NONE).then(|| card_text(c)))
                .collect();
            p.card_row(l + 1, self.deck(l).len(), &row);
        }
        for seat in 0..2 {
            let tokens: Vec<u8> = (0..7).map(|k| lane(self.tokens[seat], k)).collect();
            let bonuses: Vec<u8> = (0..5).map(|k| lane(self.bonus[seat], k)).collect();
            let royals: Vec<String> = (0..NUM_ROYALS)
                .filter(|&r| self.royals_owned[seat] & (1 << r) != 0)
                .map(|r| format!("R{r}"))
                .collect();
            p.seat(
                seat,
                &[
                    format!("{} points", self.points[seat]),
                    format!("{} crowns", self.crowns[seat]),
                    format!("tokens [{}]", picture::tokens(&LETTERS, &tokens, false)),
                    format!("bonuses [{}]", picture::bonuses(&LETTERS, &bonuses)),
                    format!("privileges {}", self.privileges[seat]),
                    format!("{} cards", self.cards[seat].count_ones()),
                    format!("royals [{}]", royals.join(", ")),
                ],
            );
            for i in 0..self.reserved_len[seat] as usize {
                let blind = self.reserved_hidden[seat] & (1 << i) != 0;
                p.reserved(&card_text(self.reserved[seat][i]), blind);
            }
        }
        if let Some(o) = self.outcome() {
            p.result(o.reason.as_str(), &o.winner_list());
        }
        p.finish()
    }
}
