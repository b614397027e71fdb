//! The text picture of a state (`Game::render`, Python's `__str__`): one
//! layout and one set of words for every variant (docs/contract.md, *The text
//! picture*), filled in by each variant's `render.rs`. The reference engine
//! draws the same text (`splendor/reference/picture.py`).
//!
//! ```text
//! Splendor, 2 seats, turn 8, seat 1 to play (main)
//! bank: w4 u3 g4 r3 k3 y0
//! nobles: N9 3pt (3g 3r 3k), N7 3pt (3w 3r 3k), N4 3pt (4r 4k)
//! L3 (16 left): #82 R 3pt cost 3w 5u 3g 3k | ... | -
//! L2 (26 left): ...
//! L1 (30 left): ...
//! seat 0: 0 points, tokens [u1 r1 k1 y3], bonuses [], 0 cards, nobles []
//!     reserved: #33 K 0pt cost 2g 1r
//!     reserved (blind): #8 U 0pt cost 1w 2k
//! seat 1: ...
//! result: points, winners [1]
//! ```

use crate::explain::amounts;
use crate::gems::Gems;
use std::fmt::Write as _;

/// A picture being drawn, line by line.
pub struct Picture {
    text: String,
}

impl Picture {
    /// Starts with the header: `Title, N seats, turn T, seat S to play
    /// (phase)`, or `..., game over`. The turn is counted from 1 (the last
    /// turn once the game is over); `turns_done` is the number of completed
    /// turns.
    pub fn new(title: &str, seats: usize, turns_done: u32, to_play: Option<(u8, &str)>) -> Self {
        let mut text = String::new();
        match to_play {
            Some((seat, phase)) => {
                let turn = turns_done + 1;
                let _ = write!(
                    text,
                    "{title}, {seats} seats, turn {turn}, seat {seat} to play ({phase})"
                );
            }
            None => {
                let turn = turns_done.max(1);
                let _ = write!(text, "{title}, {seats} seats, turn {turn}, game over");
            }
        }
        Picture { text }
    }

    /// Adds a line as it is.
    pub fn line(&mut self, line: &str) {
        self.text.push('\n');
        self.text.push_str(line);
    }

    /// `label: a, b, c`, or `label: -` when there is nothing.
    pub fn list(&mut self, label: &str, items: &[String]) {
        let body = if items.is_empty() {
            "-".to_string()
        } else {
            items.join(", ")
        };
        self.line(&format!("{label}: {body}"));
    }

    /// A row of the card display: `L2 (26 left): card | card | -`.
    pub fn card_row(&mut self, level: usize, left: usize, cards: &[Option<String>]) {
        let cells: Vec<&str> = cards.iter().map(|c| c.as_deref().unwrap_or("-")).collect();
        self.line(&format!("L{level} ({left} left): {}", cells.join(" | ")));
    }

    /// A seat's line: `seat 0: fact, fact, ...`.
    pub fn seat(&mut self, seat: usize, facts: &[String]) {
        self.line(&format!("seat {seat}: {}", facts.join(", ")));
    }

    /// One of the seat's reserved cards, under its line.
    pub fn reserved(&mut self, card: &str, blind: bool) {
        let mark = if blind { " (blind)" } else { "" };
        self.line(&format!("    reserved{mark}: {card}"));
    }

    /// The last line once the game is over: `result: reason, winners [0, 1]`.
    pub fn result(&mut self, reason: &str, winners: &[u8]) {
        let list: Vec<String> = winners.iter().map(u8::to_string).collect();
        self.line(&format!("result: {reason}, winners [{}]", list.join(", ")));
    }

    /// The picture's text (no newline at the end).
    pub fn finish(self) -> String {
        self.text
    }
}

/// The first `n` lanes of `g`, as counts.
pub fn lanes(g: Gems, n: usize) -> Vec<u8> {
    (0..n).map(|i| g.get(i)).collect()
}

/// Tokens, letter then count: `w1 u0 g2` (`all`), or only the nonzero ones.
pub fn tokens(letters: &[u8], counts: &[u8], all: bool) -> String {
    letters
        .iter()
        .zip(counts)
        .filter(|&(_, &n)| all || n > 0)
        .map(|(&l, n)| format!("{}{n}", l as char))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Bonuses, capital letter then count, nonzero only: `W2 R1`.
pub fn bonuses(letters: &[u8], counts: &[u8]) -> String {
    letters
        .iter()
        .zip(counts)
        .filter(|&(_, &n)| n > 0)
        .map(|(&l, n)| format!("{}{n}", l.to_ascii_uppercase() as char))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A cost or a requirement, amount then letter: `3w 2u` (`free` when nothing).
pub fn cost(letters: &[u8], counts: &[u8]) -> String {
    let text = amounts(letters, counts);
    if text.is_empty() {
        "free".into()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_layout() {
        let mut p = Picture::new("Splendor", 2, 7, Some((1, "main")));
        p.line("bank: w4");
        p.list("nobles", &[]);
        p.card_row(3, 16, &[Some("a".into()), None]);
        p.seat(0, &["0 points".into(), "tokens []".into()]);
        p.reserved("b", true);
        p.result("points", &[0, 1]);
        assert_eq!(
            p.finish(),
            "Splendor, 2 seats, turn 8, seat 1 to play (main)\nbank: w4\nnobles: -\n\
             L3 (16 left): a | -\nseat 0: 0 points, tokens []\n    reserved (blind): b\n\
             result: points, winners [0, 1]"
        );
        let over = Picture::new("Splendor Duel", 2, 30, None).finish();
        assert_eq!(over, "Splendor Duel, 2 seats, turn 30, game over");
        assert_eq!(tokens(b"wu", &[1, 0], true), "w1 u0");
        assert_eq!(tokens(b"wu", &[1, 0], false), "w1");
        assert_eq!(bonuses(b"wu", &[0, 2]), "U2");
        assert_eq!(cost(b"wu", &[3, 0]), "3w");
        assert_eq!(cost(b"wu", &[0, 0]), "free");
    }
}
