//! The text picture of a Marvel state, in the layout every variant shares
//! ([`crate::picture`]), with character and location names.

use super::actions::*;
use super::state::*;
use crate::picture::{self, lanes, Picture};

impl MarvelState {
    /// `Thor R 3pt A2 T cost 5p 3b 3r 3y`: name, bonus colour, points,
    /// Avengers icons, Time stone, cost.
    fn card_text(&self, c: u8) -> String {
        let card = &self.data.cards[c as usize];
        let mut text = format!(
            "{} {} {}pt",
            card.name,
            LETTERS[card.bonus as usize].to_ascii_uppercase() as char,
            card.points
        );
        if card.avengers > 0 {
            text.push_str(&format!(" A{}", card.avengers));
        }
        if card.time_stone {
            text.push_str(" T");
        }
        format!(
            "{text} cost {}",
            picture::cost(LETTERS, &lanes(card.cost, 5))
        )
    }

    /// A readable multi-line picture with character names.
    pub(super) fn picture(&self) -> String {
        let n = self.num_players as usize;
        let to_play = (self.phase != Phase::Over).then(|| (self.current, self.phase.as_str()));
        let mut p = Picture::new("Splendor: Marvel", n, u32::from(self.turn), to_play);
        p.line(&format!(
            "bank: {}",
            picture::tokens(TOKEN_LETTERS, &lanes(self.bank, 7), true)
        ));
        let locations: Vec<String> = (0..8)
            .filter(|id| self.loc_display & (1 << id) != 0)
            .map(|id| {
                let l = &self.data.locations[id];
                let needs = picture::cost(LETTERS, &lanes(l.requirement, 5));
                format!("{} {}pt ({needs})", l.name, l.points)
            })
            .collect();
        p.list("locations", &locations);
        for lv in (0..3).rev() {
            let row: Vec<Option<String>> = self.board[lv]
                .iter()
                .map(|&c| (c != NONE).then(|| self.card_text(c)))
                .collect();
            p.card_row(lv + 1, self.deck(lv).len(), &row);
        }
        for q in 0..n {
            let names: Vec<String> = (0..8)
                .filter(|id| self.loc_owned[q] & (1 << id) != 0)
                .map(|id| self.data.locations[id].name.clone())
                .collect();
            let tile = if self.avengers as usize == q {
                " +Avengers"
            } else {
                ""
            };
            p.seat(
                q,
                &[
                    format!("{} points{tile}", self.points(q)),
                    format!(
                        "tokens [{}]",
                        picture::tokens(TOKEN_LETTERS, &lanes(self.tokens[q], 7), false)
                    ),
                    format!(
                        "bonuses [{}]",
                        picture::bonuses(LETTERS, &lanes(self.bonus[q], 5))
                    ),
                    format!("{} cards", self.owned[q].len()),
                    format!("locations [{}]", names.join(", ")),
                ],
            );
            for i in 0..self.n_reserved[q] as usize {
                let blind = self.hidden[q] & (1 << i) != 0;
                p.reserved(&self.card_text(self.reserved[q][i]), blind);
            }
        }
        if let Some(o) = self.result() {
            p.result(o.reason.as_str(), &o.winner_list());
        }
        p.finish()
    }
}
