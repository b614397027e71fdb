//! The Marvel action table (docs/marvel.md §3): ids, text and parsing.

use crate::game::{Action, GameError};
use crate::gems::Gems;

/// Colour letters in lane order (stones only).
pub const LETTERS: &[u8; 5] = b"pbroy";
/// Token letters: stones, grey (S.H.I.E.L.D.), green (Time).
pub const TOKEN_LETTERS: &[u8; 7] = b"pbroyst";
/// Lane of the grey joker tokens.
pub const GREY: usize = 5;
/// Lane of the green Time token.
pub const GREEN: usize = 6;

/// Take 3 different colours (10 triples).
pub const TAKE3: u16 = 0;
/// Take 2 different colours (10 pairs).
pub const TAKE2D: u16 = 10;
/// Take 1 colour.
pub const TAKE1: u16 = 20;
/// Take 2 of one colour.
pub const TAKE2S: u16 = 25;
/// Reserve a face-up card.
pub const RESERVE: u16 = 30;
/// Reserve blind from a deck.
pub const RESERVE_DECK: u16 = 42;
/// Recruit a face-up card.
pub const RECRUIT: u16 = 45;
/// Recruit a reserved card.
pub const RECRUIT_RES: u16 = 57;
/// Return one token (no green).
pub const RETURN: u16 = 60;
/// Take a location.
pub const LOCATION: u16 = 66;
/// Pay with a grey vector.
pub const PAY: u16 = 74;
/// Pass (only when nothing else is legal).
pub const PASS: u16 = 326;
/// Size of the action space.
pub const NUM_ACTIONS: usize = 327;
/// Number of grey vectors (sum ≤ 5 over 5 colours).
pub const NUM_GREY_VECTORS: usize = 252;

/// Colour triples `i<j<k` in lexicographic order, as lane masks.
pub const TRIPLES: [u8; 10] = {
    let mut out = [0u8; 10];
    let mut n = 0;
    let mut i = 0;
    while i < 5 {
        let mut j = i + 1;
        while j < 5 {
            let mut k = j + 1;
            while k < 5 {
                out[n] = (1 << i) | (1 << j) | (1 << k);
                n += 1;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
};

/// Colour pairs `i<j` in lexicographic order, as lane masks.
pub const PAIRS: [u8; 10] = {
    let mut out = [0u8; 10];
    let mut n = 0;
    let mut i = 0;
    while i < 5 {
        let mut j = i + 1;
        while j < 5 {
            out[n] = (1 << i) | (1 << j);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
};

/// Grey vectors in id order (lexicographic over purple..yellow, sum ≤ 5).
pub const GREY_VECTORS: [Gems; NUM_GREY_VECTORS] = {
    let mut out = [Gems::ZERO; NUM_GREY_VECTORS];
    let mut n = 0;
    let mut p = 0u64;
    while p < 6 {
        let mut b = 0u64;
        while b < 6 - p {
            let mut r = 0u64;
            while r < 6 - p - b {
                let mut o = 0u64;
                while o < 6 - p - b - r {
                    let mut y = 0u64;
                    while y < 6 - p - b - r - o {
                        out[n] = Gems(p | b << 8 | r << 16 | o << 24 | y << 32);
                        n += 1;
                        y += 1;
                    }
                    o += 1;
                }
                r += 1;
            }
            b += 1;
        }
        p += 1;
    }
    out
};

/// Lane mask -> colour letters, ascending.
fn mask_letters(mask: u8) -> String {
    (0..5)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| LETTERS[c] as char)
        .collect()
}

/// The canonical text of an action id (out of range: `"?"`).
pub fn action_text(a: Action) -> String {
    let a = a.0;
    match a {
        _ if a < TAKE2D => format!("take {}", mask_letters(TRIPLES[a as usize])),
        _ if a < TAKE1 => format!("take {}", mask_letters(PAIRS[(a - TAKE2D) as usize])),
        _ if a < TAKE2S => format!("take {}", LETTERS[(a - TAKE1) as usize] as char),
        _ if a < RESERVE => {
            let l = LETTERS[(a - TAKE2S) as usize] as char;
            format!("take {l}{l}")
        }
        _ if a < RESERVE_DECK => {
            let k = a - RESERVE;
            format!("reserve {}.{}", k / 4 + 1, k % 4 + 1)
        }
        _ if a < RECRUIT => format!("reserve deck {}", a - RESERVE_DECK + 1),
        _ if a < RECRUIT_RES => {
            let k = a - RECRUIT;
            format!("recruit {}.{}", k / 4 + 1, k % 4 + 1)
        }
        _ if a < RETURN => format!("recruit reserved {}", a - RECRUIT_RES + 1),
        _ if a < LOCATION => format!("return {}", TOKEN_LETTERS[(a - RETURN) as usize] as char),
        _ if a < PAY => format!("location {}", a - LOCATION),
        _ if a < PASS => {
            let v = GREY_VECTORS[(a - PAY) as usize];
            if v.total() == 0 {
                "pay".to_string()
            } else {
                let mut s = String::from("pay grey ");
                for (c, &l) in LETTERS.iter().enumerate() {
                    for _ in 0..v.get(c) {
                        s.push(l as char);
                    }
                }
                s
            }
        }
        _ if a == PASS => "pass".to_string(),
        _ => "?".to_string(),
    }
}

fn letters(s: &str) -> Option<Vec<usize>> {
    s.bytes()
        .map(|b| LETTERS.iter().position(|&l| l == b))
        .collect()
}

fn slot(s: &str) -> Option<u16> {
    let (lv, sl) = crate::action_text::level_slot(s, 3, 4)?;
    Some((lv - 1) * 4 + sl - 1)
}

fn index_of(table: &[u8], mask: u8) -> Option<u16> {
    table.iter().position(|&m| m == mask).map(|i| i as u16)
}

fn parse_words(w: &[&str]) -> Option<u16> {
    match w {
        ["pass"] => Some(PASS),
        ["pay"] => Some(PAY),
        ["take", cs] => {
            let cs = letters(cs)?;
            if cs.len() == 2 && cs[0] == cs[1] {
                return Some(TAKE2S + cs[0] as u16);
            }
            let mask = cs.iter().fold(0u8, |m, &c| m | (1 << c));
            if mask.count_ones() as usize != cs.len() {
                return None;
            }
            match cs.len() {
                3 => index_of(&TRIPLES, mask).map(|i| TAKE3 + i),
                2 => index_of(&PAIRS, mask).map(|i| TAKE2D + i),
                1 => Some(TAKE1 + cs[0] as u16),
                _ => None,
            }
        }
        ["reserve", s] => slot(s).map(|k| RESERVE + k),
        ["recruit", s] => slot(s).map(|k| RECRUIT + k),
        ["reserve", "deck", d] => Some(RESERVE_DECK + crate::action_text::number(d, 1, 3)? - 1),
        ["recruit", "reserved", d] => Some(RECRUIT_RES + crate::action_text::number(d, 1, 3)? - 1),
        ["return", c] if c.len() == 1 => TOKEN_LETTERS[..6]
            .iter()
            .position(|&l| l == c.as_bytes()[0])
            .map(|i| RETURN + i as u16),
        ["location", d] => Some(LOCATION + crate::action_text::number(d, 0, 7)?),
        ["pay", "grey", cs] => {
            let cs = letters(cs)?;
            let mut v = [0u8; 5];
            for c in cs {
                v[c] += 1;
            }
            let g = Gems::from_counts(&v);
            if g.total() == 0 {
                return None;
            }
            GREY_VECTORS
                .iter()
                .position(|&x| x == g)
                .map(|i| PAY + i as u16)
        }
        _ => None,
    }
}

/// Parses action text (case-insensitive; colour letters in any order).
pub fn parse_action(text: &str) -> Result<Action, GameError> {
    let lower = crate::action_text::fold(text);
    let words: Vec<&str> = lower.split_whitespace().collect();
    parse_words(&words).map(Action).ok_or_else(|| {
        crate::action_text::parse_error(text, &GRAMMAR, |t| {
            parse_words(&t.split(' ').collect::<Vec<_>>()).map(|a| action_text(Action(a)))
        })
    })
}

/// The text forms, for the message of text that does not parse.
pub const GRAMMAR: crate::action_text::Grammar = crate::action_text::Grammar {
    forms: "take <colours> (take pbr, take oo), reserve <level>.<slot>, reserve deck <level>, \
            recruit <level>.<slot>, recruit reserved <1-3>, return <colour>, location <id>, \
            pay, pay grey <colours>, pass",
    letters: "colour letters: p purple, b blue, r red, o orange, y yellow, s grey, t green",
    head_swap: ("buy", "recruit"),
    letter_swap: ('u', 'b'),
    letter_heads: &["take", "return", "pay"],
    take_letters: true,
};

/// Position of grey vector `(p, b, r, o, y)` (each ≤ 5) in [`GREY_VECTORS`],
/// indexed by `p*1296 + b*216 + r*36 + o*6 + y`; 255 where the sum exceeds 5.
pub const GREY_RANK: [u8; 7776] = {
    let mut out = [255u8; 7776];
    let mut i = 0;
    while i < NUM_GREY_VECTORS {
        let g = GREY_VECTORS[i];
        let k = g.get(0) as usize * 1296
            + g.get(1) as usize * 216
            + g.get(2) as usize * 36
            + g.get(3) as usize * 6
            + g.get(4) as usize;
        out[k] = i as u8;
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_rank_inverts_the_vector_table() {
        for (i, g) in GREY_VECTORS.iter().enumerate() {
            let k = (0..5).fold(0, |k, c| k * 6 + usize::from(g.get(c)));
            assert_eq!(usize::from(GREY_RANK[k]), i);
        }
        assert_eq!(
            GREY_RANK.iter().filter(|&&r| r != 255).count(),
            NUM_GREY_VECTORS
        );
    }

    #[test]
    fn text_round_trips() {
        for a in 0..NUM_ACTIONS as u16 {
            assert_eq!(parse_action(&action_text(Action(a))).unwrap(), Action(a));
        }
        assert_eq!(action_text(Action(0)), "take pbr");
        assert_eq!(action_text(Action(PASS - 1)), "pay grey ppppp");
        for bad in [
            "take s",
            "take t",
            "return t",
            "recruit 4.1",
            "location 8",
            "",
            "pay grey",
        ] {
            assert!(parse_action(bad).is_err(), "{bad}");
        }
    }
}
