//! The text picture of a Duel state.

use super::actions::LETTERS;
use super::cards::*;
use super::state::*;

impl DuelState {
    /// A readable picture of the state.
    pub fn picture(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "Splendor Duel, turn {}, phase {}, {}\n",
            self.turn,
            self.phase.name(),
            if self.phase == Phase::Over {
                "game over".to_string()
            } else {
                format!("player {} to play", self.current)
            }
        ));
        s.push_str("    a b c d e\n");
        for r in 0..5 {
            s.push_str(&format!("  {} ", r + 1));
            for c in 0..5 {
                let ch = self.kind_at(r * 5 + c).map_or('.', |k| LETTERS[k] as char);
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "bag {:?}, privileges in supply {}\n",
            (0..7).map(|k| lane(self.bag, k)).collect::<Vec<_>>(),
            self.supply()
        ));
        for l in (0..3).rev() {
            let row: Vec<String> = self.pyramid[SLOT_OFFSET[l]..SLOT_OFFSET[l] + SLOTS[l]]
                .iter()
                .map(|&c| {
                    if c == NONE {
                        "--".into()
                    } else {
                        format!("{c:2}")
                    }
                })
                .collect();
            s.push_str(&format!(
                "level {} [{}] deck {}\n",
                l + 1,
                row.join(" "),
                self.deck(l).len()
            ));
        }
        for p in 0..2 {
            s.push_str(&format!(
                "player {p}: {} pts, {} crowns, tokens {}, privileges {}, cards {}, reserved {}\n",
                self.points[p],
                self.crowns[p],
                (0..7)
                    .map(|k| format!("{}{}", LETTERS[k] as char, lane(self.tokens[p], k)))
                    .collect::<Vec<_>>()
                    .join(" "),
                self.privileges[p],
                self.cards[p].count_ones(),
                self.reserved_len[p]
            ));
        }
        s
    }
}
