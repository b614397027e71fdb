//! The text picture of a Marvel state, with character names.

use super::actions::*;
use super::cards::COLOURS;
use super::state::*;
use std::fmt::Write;

impl MarvelState {
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
