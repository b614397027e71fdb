//! A readable text picture of the board.

use super::cards::{self, LETTERS};
use super::state::{BaseState, Phase, EMPTY};
use crate::gems::Gems;
use std::fmt::Write as _;

fn cost_text(g: Gems) -> String {
    let parts: Vec<String> = (0..5)
        .filter(|&c| g.get(c) > 0)
        .map(|c| format!("{}{}", g.get(c), LETTERS[c] as char))
        .collect();
    if parts.is_empty() {
        "free".into()
    } else {
        parts.join(" ")
    }
}

/// `#id b+p: cost`, e.g. `#70 w+3: 3u 3g 5r 3k` (white bonus, 3 points).
fn card_text(c: u8) -> String {
    format!(
        "#{c} {}+{}: {}",
        LETTERS[cards::bonus(c)] as char,
        cards::points(c),
        cost_text(cards::cost(c))
    )
}

fn tokens_text(g: Gems) -> String {
    (0..6)
        .map(|c| format!("{}{}", LETTERS[c] as char, g.get(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl BaseState {
    /// The board as several lines of text.
    pub(crate) fn render_text(&self) -> String {
        let mut s = String::new();
        let who = match self.phase {
            Phase::Over => "game over".to_string(),
            ph => format!("seat {} to play ({})", self.current, ph.as_str()),
        };
        let _ = writeln!(
            s,
            "Splendor, {} players, round {}, {who}",
            self.num_players,
            self.turn / u32::from(self.num_players) + 1
        );
        let _ = writeln!(s, "bank    {}", tokens_text(self.bank));
        let nobles: Vec<String> = self
            .nobles_on_display()
            .iter()
            .map(|&n| format!("N{n}[{}]", cost_text(cards::noble_req(n))))
            .collect();
        let _ = writeln!(s, "nobles  {}", nobles.join("  "));
        for l in (0..3).rev() {
            let row: Vec<String> = self.board[l]
                .iter()
                .map(|&c| {
                    let t = if c == EMPTY {
                        "(empty)".to_string()
                    } else {
                        card_text(c)
                    };
                    format!("{t:<22}")
                })
                .collect();
            let _ = writeln!(
                s,
                "L{} [{:>2}] {}",
                l + 1,
                self.deck_size(l),
                row.join(" | ").trim_end()
            );
        }
        for p in 0..self.num_players as usize {
            let mark = if self.phase != Phase::Over && p == self.current as usize {
                '>'
            } else {
                ' '
            };
            let _ = writeln!(
                s,
                "{mark}seat {p}: {:>2} pts, {:>2} cards, tokens {}, bonuses {}",
                self.points[p],
                self.owned[p].len(),
                tokens_text(self.tokens[p]),
                cost_text(self.bonus[p]),
            );
            let res: Vec<String> = self
                .reserved(p)
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let h = if self.is_hidden(p, i) { " (blind)" } else { "" };
                    format!("{}{h}", card_text(c))
                })
                .collect();
            if !res.is_empty() {
                let _ = writeln!(s, "         reserved: {}", res.join(", "));
            }
            let nobles: Vec<String> = self.nobles_of(p).map(|n| format!("N{n}")).collect();
            if !nobles.is_empty() {
                let _ = writeln!(s, "         nobles: {}", nobles.join(" "));
            }
        }
        if let Some(o) = self.outcome_now() {
            let w: Vec<String> = o.winner_list().iter().map(|p| p.to_string()).collect();
            let _ = writeln!(
                s,
                "result: {} (winners: {})",
                o.reason.as_str(),
                if w.is_empty() {
                    "none".into()
                } else {
                    w.join(", ")
                }
            );
        }
        s
    }
}
