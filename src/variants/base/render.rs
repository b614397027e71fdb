//! The text picture of a base-game state, in the layout every variant shares
//! ([`crate::picture`]).

use super::cards::{self, LETTERS};
use super::state::{BaseState, Phase, EMPTY};
use crate::picture::{self, lanes, Picture};

/// `#82 R 3pt cost 3w 5u 3g 3k`: id, bonus colour, points, cost.
fn card_text(c: u8) -> String {
    format!(
        "#{c} {} {}pt cost {}",
        LETTERS[cards::bonus(c)].to_ascii_uppercase() as char,
        cards::points(c),
        picture::cost(&LETTERS, &lanes(cards::cost(c), 5))
    )
}

/// `N9 3pt (3g 3r 3k)`: id, points, requirement.
fn noble_text(n: u8) -> String {
    format!(
        "N{n} {}pt ({})",
        cards::noble_points(n),
        picture::cost(&LETTERS, &lanes(cards::noble_req(n), 5))
    )
}

impl BaseState {
    /// The board as several lines of text.
    pub(crate) fn render_text(&self) -> String {
        let n = self.num_players as usize;
        let to_play = (self.phase != Phase::Over).then(|| (self.current, self.phase.as_str()));
        let mut p = Picture::new("Splendor", n, self.turn(), to_play);
        p.line(&format!(
            "bank: {}",
            picture::tokens(&LETTERS, &lanes(self.bank, 6), true)
        ));
        let nobles: Vec<String> = self
            .nobles_on_display()
            .iter()
            .map(|&x| noble_text(x))
            .collect();
        p.list("nobles", &nobles);
        for l in (0..3).rev() {
            let row: Vec<Option<String>> = self.board[l]
                .iter()
                .map(|&c| (c != EMPTY).then(|| card_text(c)))
                .collect();
            p.card_row(l + 1, self.deck_size(l), &row);
        }
        for seat in 0..n {
            let nobles: Vec<String> = self.nobles_of(seat).map(|x| format!("N{x}")).collect();
            p.seat(
                seat,
                &[
                    format!("{} points", self.points[seat]),
                    format!(
                        "tokens [{}]",
                        picture::tokens(&LETTERS, &lanes(self.tokens[seat], 6), false)
                    ),
                    format!(
                        "bonuses [{}]",
                        picture::bonuses(&LETTERS, &lanes(self.bonus[seat], 5))
                    ),
                    format!("{} cards", self.owned[seat].len()),
                    format!("nobles [{}]", nobles.join(", ")),
                ],
            );
            for (i, &c) in self.reserved(seat).iter().enumerate() {
                p.reserved(&card_text(c), self.is_hidden(seat, i));
            }
        }
        if let Some(o) = self.outcome_now() {
            p.result(o.reason.as_str(), &o.winner_list());
        }
        p.finish()
    }
}
