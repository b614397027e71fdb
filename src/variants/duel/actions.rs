//! The action space (docs/duel.md, *Action ids*): ids, text and parsing.

use super::board::{cell_name, line_id, parse_cell, LINE_MASKS, NUM_LINES};
use crate::game::{Action, GameError};

/// First `privilege c` id.
pub const PRIVILEGE: u16 = 145;
/// `replenish`.
pub const REPLENISH: u16 = 170;
/// First `gold c` id.
pub const GOLD: u16 = 171;
/// First `reserve L.s` id (12 slots), then `reserve deck L` at +12.
pub const RESERVE: u16 = 196;
/// First `reserve deck L` id.
pub const RESERVE_DECK: u16 = 208;
/// First `buy L.s` id.
pub const BUY: u16 = 211;
/// First `buy reserved i` id.
pub const BUY_RESERVED: u16 = 223;
/// First `pay` id (84 gold vectors).
pub const PAY: u16 = 226;
/// First `token c` id.
pub const TOKEN: u16 = 310;
/// First `steal x` id.
pub const STEAL: u16 = 335;
/// First `joker c` id.
pub const JOKER: u16 = 341;
/// First `royal r` id.
pub const ROYAL: u16 = 346;
/// First `discard x` id.
pub const DISCARD: u16 = 350;
/// `pass`.
pub const PASS: u16 = 357;
/// Size of the action space.
pub const NUM_ACTIONS: usize = 358;
/// Number of gold vectors.
pub const NUM_PAYMENTS: usize = 84;

/// Token letters by kind.
pub const LETTERS: [u8; 7] = *b"wugrkpy";
const LEVEL_SLOT: [(usize, usize); 12] = [
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, 4),
    (3, 1),
    (3, 2),
    (3, 3),
];

const fn payment_table() -> [u64; NUM_PAYMENTS] {
    let mut t = [0u64; NUM_PAYMENTS];
    let mut i = 0;
    let mut w = 0u64;
    while w <= 3 {
        let mut u = 0;
        while u <= 3 - w {
            let mut g = 0;
            while g <= 3 - w - u {
                let mut r = 0;
                while r <= 3 - w - u - g {
                    let mut k = 0;
                    while k <= 3 - w - u - g - r {
                        let mut p = 0;
                        while p <= 3 - w - u - g - r - k {
                            t[i] = w | u << 8 | g << 16 | r << 24 | k << 32 | p << 40;
                            i += 1;
                            p += 1;
                        }
                        k += 1;
                    }
                    r += 1;
                }
                g += 1;
            }
            u += 1;
        }
        w += 1;
    }
    t
}

/// Gold vectors (lanes w u g r k p) by payment index.
pub const PAYMENTS: [u64; NUM_PAYMENTS] = payment_table();

/// The payment index of a gold vector.
pub fn payment_index(g: u64) -> Option<usize> {
    PAYMENTS.iter().position(|&x| x == g)
}

fn letters(v: u64, kinds: usize) -> String {
    let mut s = String::new();
    for (k, &l) in LETTERS.iter().enumerate().take(kinds) {
        for _ in 0..((v >> (8 * k)) & 0xFF) {
            s.push(l as char);
        }
    }
    s
}

/// Text of an action id (`"?"` for ids out of range).
pub fn text(a: Action) -> String {
    let id = a.0;
    let i = |base: u16| usize::from(id - base);
    let letter = |base: u16| (LETTERS[i(base)] as char).to_string();
    match id {
        0..=144 => {
            let m = LINE_MASKS[id as usize];
            let cells: Vec<String> = (0..25)
                .filter(|c| m & (1 << c) != 0)
                .map(cell_name)
                .collect();
            format!("take {}", cells.join(" "))
        }
        145..=169 => format!("privilege {}", cell_name(i(PRIVILEGE))),
        170 => "replenish".to_string(),
        171..=195 => format!("gold {}", cell_name(i(GOLD))),
        196..=207 => {
            let (l, s) = LEVEL_SLOT[i(RESERVE)];
            format!("reserve {l}.{s}")
        }
        208..=210 => format!("reserve deck {}", i(RESERVE_DECK) + 1),
        211..=222 => {
            let (l, s) = LEVEL_SLOT[i(BUY)];
            format!("buy {l}.{s}")
        }
        223..=225 => format!("buy reserved {}", i(BUY_RESERVED) + 1),
        226..=309 => {
            let g = PAYMENTS[i(PAY)];
            if g == 0 {
                "pay".to_string()
            } else {
                format!("pay gold {}", letters(g, 6))
            }
        }
        310..=334 => format!("token {}", cell_name(i(TOKEN))),
        335..=340 => format!("steal {}", letter(STEAL)),
        341..=345 => format!("joker {}", letter(JOKER)),
        346..=349 => format!("royal {}", i(ROYAL)),
        350..=356 => format!("discard {}", letter(DISCARD)),
        357 => "pass".to_string(),
        _ => "?".to_string(),
    }
}

fn kind_of(word: &str, kinds: usize) -> Option<usize> {
    let b = word.as_bytes();
    if b.len() != 1 {
        return None;
    }
    LETTERS[..kinds].iter().position(|&l| l == b[0])
}

fn slot_of(word: &str) -> Option<usize> {
    let (l, s) = crate::action_text::level_slot(word, 3, 5)?;
    LEVEL_SLOT
        .iter()
        .position(|&x| x == (usize::from(l), usize::from(s)))
}

/// The text forms, for the message of text that does not parse.
pub const GRAMMAR: crate::action_text::Grammar = crate::action_text::Grammar {
    forms: "take <1-3 cells in a line> (take c3 c4), privilege <cell>, replenish, gold <cell>, \
            reserve <level>.<slot>, reserve deck <level>, buy <level>.<slot>, \
            buy reserved <1-3>, pay, pay gold <letters>, token <cell>, steal <letter>, \
            joker <letter>, royal <id>, discard <letter>, pass",
    letters: "cells a1-e5 (column, then row); letters: w white, u blue, g green, r red, \
              k black, p pearl, y gold",
    head_swap: ("recruit", "buy"),
    letter_swap: ('b', 'u'),
    letter_heads: &["pay", "steal", "joker", "discard"],
    take_letters: false,
};

/// Parses an action's text (case-insensitive, cells and letters in any order).
pub fn parse(text: &str) -> Result<Action, GameError> {
    let lower = crate::action_text::fold(text);
    let words: Vec<&str> = lower.split_whitespace().collect();
    parse_words(&words).map(Action).ok_or_else(|| {
        crate::action_text::parse_error(text, &GRAMMAR, |t| {
            parse_words(&t.split(' ').collect::<Vec<_>>()).map(|a| self::text(Action(a)))
        })
    })
}

fn parse_words(words: &[&str]) -> Option<u16> {
    let cell_arg = |base: u16| match words {
        [_, c] => parse_cell(c).map(|c| base + c as u16),
        _ => None,
    };
    let kind_arg = |base: u16, kinds: usize| match words {
        [_, k] => kind_of(k, kinds).map(|k| base + k as u16),
        _ => None,
    };
    match *words.first()? {
        "take" => {
            let cells = &words[1..];
            if cells.is_empty() || cells.len() > 3 {
                return None;
            }
            let mut mask = 0u32;
            for c in cells {
                let c = parse_cell(c)?;
                if mask & (1 << c) != 0 {
                    return None;
                }
                mask |= 1 << c;
            }
            line_id(mask)
                .filter(|&id| id < NUM_LINES)
                .map(|id| id as u16)
        }
        "privilege" => cell_arg(PRIVILEGE),
        "replenish" if words.len() == 1 => Some(REPLENISH),
        "gold" => cell_arg(GOLD),
        "token" => cell_arg(TOKEN),
        "reserve" | "buy" => match words {
            ["reserve", "deck", l] => Some(RESERVE_DECK + crate::action_text::number(l, 1, 3)? - 1),
            ["buy", "reserved", i] => Some(BUY_RESERVED + crate::action_text::number(i, 1, 3)? - 1),
            [h, s] => {
                let base = if *h == "buy" { BUY } else { RESERVE };
                Some(base + slot_of(s)? as u16)
            }
            _ => None,
        },
        "pay" => {
            let g = match words {
                ["pay"] => 0,
                // At most 3 gold (and no lane can overflow into the next).
                ["pay", "gold", rest @ ..] if !rest.is_empty() && rest.concat().len() <= 3 => {
                    let mut g = 0u64;
                    for ch in rest.concat().bytes() {
                        let k = LETTERS[..6].iter().position(|&l| l == ch)?;
                        g += 1 << (8 * k);
                    }
                    g
                }
                _ => return None,
            };
            payment_index(g).map(|i| PAY + i as u16)
        }
        "steal" => kind_arg(STEAL, 6),
        "joker" => kind_arg(JOKER, 5),
        "discard" => kind_arg(DISCARD, 7),
        "royal" => match words {
            [_, r] => Some(ROYAL + crate::action_text::number(r, 0, 3)?),
            _ => None,
        },
        "pass" if words.len() == 1 => Some(PASS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips_through_text() {
        for id in 0..NUM_ACTIONS as u16 {
            let t = text(Action(id));
            assert_eq!(parse(&t), Ok(Action(id)), "{t}");
            assert_eq!(parse(&t.to_uppercase()), Ok(Action(id)), "{t}");
        }
    }

    #[test]
    fn examples_and_errors() {
        assert_eq!(text(Action(0)), "take a1");
        assert_eq!(parse(" take c3 b3 a3 "), parse("take a3 b3 c3"));
        assert_eq!(text(Action(226)), "pay");
        assert_eq!(text(Action(227)), "pay gold p");
        assert_eq!(text(Action(309)), "pay gold www");
        assert_eq!(
            parse("pay gold pww").map(text),
            Ok("pay gold wwp".to_string())
        );
        for junk in [
            "",
            "take a1 c1",
            "take a1 a1",
            "buy 1.6",
            "pay gold yy",
            "royal 4",
            "fly",
        ] {
            assert!(
                matches!(parse(junk), Err(GameError::InvalidAction(_))),
                "{junk}"
            );
        }
    }
}
