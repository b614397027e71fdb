//! The base game's fixed action space (docs/base.md, "Action ids"): ids,
//! text forms and the lookup tables the move generator uses.

use super::cards::LETTERS;
use crate::game::{Action, GameError};
use crate::gems::Gems;

/// Size of the action space.
pub const NUM_ACTIONS: usize = 329;
/// First "take 3 different" id.
pub const TAKE3: u16 = 0;
/// First "take 2 different" id.
pub const TAKE2: u16 = 10;
/// First "take 1" id.
pub const TAKE1: u16 = 20;
/// First "take 2 of one colour" id.
pub const DOUBLE: u16 = 25;
/// First "reserve face-up" id.
pub const RESERVE: u16 = 30;
/// First "reserve blind" id.
pub const BLIND: u16 = 42;
/// First "buy face-up" id.
pub const BUY: u16 = 45;
/// First "buy reserved" id.
pub const BUY_RESERVED: u16 = 57;
/// First "return" id.
pub const RETURN: u16 = 60;
/// First "take noble" id.
pub const NOBLE: u16 = 66;
/// First "pay" id.
pub const PAY: u16 = 76;
/// Number of gold vectors (payments).
pub const NUM_PAYMENTS: usize = 252;
/// The pass id.
pub const PASS: u16 = 328;

/// Colour sets of the take actions 0..25, as 5-bit masks.
pub const TAKE_MASKS: [u8; 25] = take_masks();

const fn take_masks() -> [u8; 25] {
    let mut out = [0u8; 25];
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
    i = 0;
    while i < 5 {
        let mut j = i + 1;
        while j < 5 {
            out[n] = (1 << i) | (1 << j);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    i = 0;
    while i < 5 {
        out[n] = 1 << i;
        n += 1;
        i += 1;
    }
    out
}

/// Tokens gained by take ids 0..30 (doubles included).
pub const TAKE_GEMS: [Gems; 30] = take_gems();

const fn take_gems() -> [Gems; 30] {
    let mut out = [Gems(0); 30];
    let mut a = 0;
    while a < 25 {
        let mut v = 0u64;
        let mut c = 0;
        while c < 5 {
            if TAKE_MASKS[a] & (1 << c) != 0 {
                v |= 1 << (8 * c);
            }
            c += 1;
        }
        out[a] = Gems(v);
        a += 1;
    }
    while a < 30 {
        out[a] = Gems(2 << (8 * (a - 25)));
        a += 1;
    }
    out
}

/// For each 5-bit mask of colours available in the bank: the take-3 ids
/// (bits 0..10), take-2 ids (bits 10..20) and take-1 ids (bits 20..25)
/// legal with that bank, as one bit per action id.
pub const TAKE_LEGAL: [u32; 32] = take_legal();

const fn take_legal() -> [u32; 32] {
    let mut out = [0u32; 32];
    let mut m = 0;
    while m < 32 {
        let three = (m as u32).count_ones() >= 3;
        let mut bits = 0u32;
        let mut a = 0;
        while a < 25 {
            let t = TAKE_MASKS[a] as usize;
            let subset = t & m == t;
            let is_three = a < 10;
            if subset && (is_three == three) {
                bits |= 1 << a;
            }
            a += 1;
        }
        out[m] = bits;
        m += 1;
    }
    out
}

/// Gold vectors in id order: `PAYMENTS[i]` is the payment of id `PAY + i`.
pub const PAYMENTS: [Gems; NUM_PAYMENTS] = payments().0;
/// Payment index by base-6 code `Σ g_c * 6^(4-c)`; 255 for sums above 5.
pub const PAYMENT_INDEX: [u8; 7776] = payments().1;

const fn payments() -> ([Gems; NUM_PAYMENTS], [u8; 7776]) {
    let mut vecs = [Gems(0); NUM_PAYMENTS];
    let mut index = [255u8; 7776];
    let mut n = 0;
    let mut w = 0u64;
    while w <= 5 {
        let mut u = 0;
        while u <= 5 - w {
            let mut g = 0;
            while g <= 5 - w - u {
                let mut r = 0;
                while r <= 5 - w - u - g {
                    let mut k = 0;
                    while k <= 5 - w - u - g - r {
                        vecs[n] = Gems(w | (u << 8) | (g << 16) | (r << 24) | (k << 32));
                        let code = (((w * 6 + u) * 6 + g) * 6 + r) * 6 + k;
                        index[code as usize] = n as u8;
                        n += 1;
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
    (vecs, index)
}

/// The pay id of a gold vector (5 lanes summing to ≤ 5).
#[inline]
pub fn payment_id(g: Gems) -> Action {
    let code = (0..5).fold(0usize, |acc, c| acc * 6 + g.get(c) as usize);
    Action(PAY + u16::from(PAYMENT_INDEX[code]))
}

fn letters(mask_or_counts: impl IntoIterator<Item = usize>) -> String {
    mask_or_counts
        .into_iter()
        .map(|c| LETTERS[c] as char)
        .collect()
}

/// The canonical text of an action id (ids out of range give `invalid <id>`).
pub fn action_text(a: Action) -> String {
    let id = a.0;
    match id {
        0..=24 => {
            let m = TAKE_MASKS[id as usize];
            format!("take {}", letters((0..5).filter(|c| m & (1 << c) != 0)))
        }
        25..=29 => {
            let c = LETTERS[(id - DOUBLE) as usize] as char;
            format!("take {c}{c}")
        }
        30..=41 => format!(
            "reserve {}.{}",
            (id - RESERVE) / 4 + 1,
            (id - RESERVE) % 4 + 1
        ),
        42..=44 => format!("reserve deck {}", id - BLIND + 1),
        45..=56 => format!("buy {}.{}", (id - BUY) / 4 + 1, (id - BUY) % 4 + 1),
        57..=59 => format!("buy reserved {}", id - BUY_RESERVED + 1),
        60..=65 => format!("return {}", LETTERS[(id - RETURN) as usize] as char),
        66..=75 => format!("noble {}", id - NOBLE),
        76..=327 => {
            let g = PAYMENTS[(id - PAY) as usize];
            if g.total() == 0 {
                "pay".to_string()
            } else {
                let s: String = (0..5)
                    .flat_map(|c| std::iter::repeat_n(LETTERS[c] as char, g.get(c) as usize))
                    .collect();
                format!("pay gold {s}")
            }
        }
        328 => "pass".to_string(),
        _ => format!("invalid {id}"),
    }
}

/// Per-colour counts of a word of colour letters (`allow_gold` admits `y`).
fn letter_counts(word: &str, allow_gold: bool) -> Option<[u8; 6]> {
    let mut n = [0u8; 6];
    for ch in word.bytes() {
        let c = LETTERS.iter().position(|&l| l == ch)?;
        if c == 5 && !allow_gold {
            return None;
        }
        n[c] = n[c].saturating_add(1);
    }
    Some(n)
}

fn one_based(word: &str, max: u16) -> Option<u16> {
    crate::action_text::number(word, 1, max).map(|v| v - 1)
}

fn level_slot(word: &str) -> Option<u16> {
    let (l, s) = crate::action_text::level_slot(word, 3, 4)?;
    Some((l - 1) * 4 + s - 1)
}

/// Parses action text (case-insensitive, surrounding whitespace ignored,
/// colour letters in any order).
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
    forms: "take <colours> (take wug, take rr), reserve <level>.<slot>, reserve deck <level>, \
            buy <level>.<slot>, buy reserved <1-3>, return <colour>, noble <id>, pay, \
            pay gold <colours>, pass",
    letters: "colour letters: w white, u blue, g green, r red, k black, y gold",
    head_swap: ("recruit", "buy"),
    letter_swap: ('b', 'u'),
    letter_heads: &["take", "return", "pay"],
    take_letters: true,
};

fn parse_words(words: &[&str]) -> Option<u16> {
    match words {
        ["pass"] => Some(PASS),
        ["pay"] => Some(PAY),
        ["pay", "gold", g] => {
            let n = letter_counts(g, false)?;
            let v = Gems::from_counts(&n[..5]);
            (v.total() <= 5).then(|| payment_id(v).0)
        }
        ["take", t] => {
            let n = letter_counts(t, false)?;
            let distinct = n.iter().filter(|&&x| x > 0).count();
            let total: u32 = n.iter().map(|&x| u32::from(x)).sum();
            if distinct == 1 && total == 2 {
                let c = n.iter().position(|&x| x == 2)?;
                return Some(DOUBLE + c as u16);
            }
            if total as usize != distinct || !(1..=3).contains(&distinct) {
                return None;
            }
            let mask = (0..5).fold(0u8, |m, c| m | (u8::from(n[c] > 0) << c));
            TAKE_MASKS.iter().position(|&m| m == mask).map(|p| p as u16)
        }
        ["reserve", "deck", l] => Some(BLIND + one_based(l, 3)?),
        ["reserve", ls] => Some(RESERVE + level_slot(ls)?),
        ["buy", "reserved", i] => Some(BUY_RESERVED + one_based(i, 3)?),
        ["buy", ls] => Some(BUY + level_slot(ls)?),
        ["return", c] => {
            let n = letter_counts(c, true)?;
            if n.iter().map(|&x| u32::from(x)).sum::<u32>() != 1 {
                return None;
            }
            Some(RETURN + n.iter().position(|&x| x == 1)? as u16)
        }
        // A noble id is exactly one digit (docs/base.md).
        ["noble", i] if i.len() == 1 => Some(NOBLE + crate::action_text::number(i, 0, 9)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips_through_text() {
        for id in 0..NUM_ACTIONS as u16 {
            let t = action_text(Action(id));
            assert_eq!(parse_action(&t), Ok(Action(id)), "{t}");
            assert_eq!(
                parse_action(&format!("  {}  ", t.to_uppercase())),
                Ok(Action(id))
            );
        }
    }

    #[test]
    fn documented_examples() {
        assert_eq!(action_text(Action(0)), "take wug");
        assert_eq!(action_text(Action(9)), "take grk");
        assert_eq!(action_text(Action(10)), "take wu");
        assert_eq!(action_text(Action(24)), "take k");
        assert_eq!(action_text(Action(25)), "take ww");
        assert_eq!(action_text(Action(30 + 4 + 2)), "reserve 2.3");
        assert_eq!(action_text(Action(43)), "reserve deck 2");
        assert_eq!(action_text(Action(45 + 4 + 2)), "buy 2.3");
        assert_eq!(action_text(Action(57)), "buy reserved 1");
        assert_eq!(action_text(Action(65)), "return y");
        assert_eq!(action_text(Action(70)), "noble 4");
        assert_eq!(action_text(Action(76)), "pay");
        assert_eq!(action_text(Action(327)), "pay gold wwwww");
        assert_eq!(action_text(Action(77)), "pay gold k");
        assert_eq!(action_text(Action(328)), "pass");
        assert_eq!(parse_action("take guw"), Ok(Action(0)));
        assert_eq!(parse_action("pay gold rww"), parse_action("pay gold wwr"));
        assert_eq!(PAYMENTS[1], Gems::unit(4, 1));
        assert_eq!(PAYMENTS[251], Gems::unit(0, 5));
    }

    #[test]
    fn bad_text_is_rejected() {
        for t in [
            "",
            "take",
            "take wy",
            "take wwu",
            "take www",
            "take wugr",
            "take yy",
            "reserve 4.1",
            "reserve 1.5",
            "reserve 0.1",
            "reserve deck 0",
            "buy reserved 4",
            "return",
            "return wu",
            "noble 10",
            "pay gold",
            "pay gold wwwwww",
            "pay gold y",
            "passs",
            "take w u",
            "buy 1.1 now",
            "reserve +1.1",
            "noble -1",
        ] {
            assert!(
                matches!(parse_action(t), Err(GameError::InvalidAction(_))),
                "{t:?} should not parse"
            );
        }
    }

    #[test]
    fn take_legal_table() {
        // All five colours available: exactly the ten triples.
        assert_eq!(TAKE_LEGAL[31], (1 << 10) - 1);
        // Two colours (w, r): the pair and both singles, no triple.
        let m = 0b01001;
        let pair = TAKE_MASKS.iter().position(|&x| x == m).unwrap();
        assert_eq!(TAKE_LEGAL[m as usize], (1 << pair) | (1 << 20) | (1 << 23));
        assert_eq!(TAKE_LEGAL[0], 0);
    }
}
