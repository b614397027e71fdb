//! The words and numbers of action text, read alike by every variant and by
//! the reference engine (`splendor/reference/action_text.py`), so that the two
//! engines accept exactly the same text (docs/contract.md, *Action text*).

use crate::game::GameError;

/// Action text lower-cased for parsing: only the ASCII letters `A`–`Z` are
/// folded (no other character is changed, so a non-ASCII letter never turns
/// into a valid one). Split it into words with `str::split_whitespace`: runs
/// of Unicode `White_Space`, with surrounding white space ignored.
pub fn fold(text: &str) -> String {
    text.to_ascii_lowercase()
}

/// A number in `lo..=hi` written as 1 to 3 ASCII digits (leading zeros
/// allowed: `01` is 1), with no sign or padding: `+1`, ` 1`, `0001`, `١` and
/// `²` are not numbers.
pub fn number(word: &str, lo: u16, hi: u16) -> Option<u16> {
    let digits = (1..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit());
    let v: u16 = word.parse().ok().filter(|_| digits)?;
    (lo..=hi).contains(&v).then_some(v)
}

/// `level.slot`: two numbers joined by one dot.
pub fn level_slot(word: &str, levels: u16, slots: u16) -> Option<(u16, u16)> {
    let (l, s) = word.split_once('.')?;
    Some((number(l, 1, levels)?, number(s, 1, slots)?))
}

/// How a variant's action text looks, for the message of text that does not
/// parse, and the near misses it corrects (docs/contract.md, *Action text*).
pub struct Grammar {
    /// The text forms: `take <colours> (...), buy <level>.<slot>, ...`.
    pub forms: &'static str,
    /// The letters (and, for Duel, cells) the forms use.
    pub letters: &'static str,
    /// A head word of another variant and this variant's word for it
    /// (`recruit` -> `buy`, or `buy` -> `recruit` in Marvel).
    pub head_swap: (&'static str, &'static str),
    /// Another variant's letter for a colour and this variant's (`b` -> `u`
    /// for blue, or `u` -> `b` in Marvel), swapped in the words after
    /// `letter_heads`.
    pub letter_swap: (char, char),
    /// Head words whose arguments are colour letters.
    pub letter_heads: &'static [&'static str],
    /// Whether `take` takes one word of letters (several are joined).
    pub take_letters: bool,
}

/// The near miss of words that did not parse: the text with another
/// variant's words and letters swapped for this one's, `r1` after `buy`
/// (`recruit`) read as `reserved 1` and `take r g b` as `take rgb`. None when
/// nothing changes. The caller suggests it only if it parses.
pub fn near_miss(words: &[&str], grammar: &Grammar) -> Option<String> {
    let (&head, args) = words.split_first()?;
    let head = if head == grammar.head_swap.0 {
        grammar.head_swap.1
    } else {
        head
    };
    let mut out: Vec<String> = vec![head.to_string()];
    let shorthand = match args {
        [r] if matches!(head, "buy" | "recruit") => {
            r.strip_prefix('r').filter(|n| number(n, 0, 999).is_some())
        }
        _ => None,
    };
    if let Some(n) = shorthand {
        out.extend(["reserved".to_string(), n.to_string()]);
    } else if grammar.letter_heads.contains(&head) {
        let (from, to) = grammar.letter_swap;
        let swapped = args.iter().map(|w| {
            if matches!(*w, "gold" | "grey") {
                (*w).to_string()
            } else {
                w.replace(from, &to.to_string())
            }
        });
        if head == "take" && grammar.take_letters && args.len() > 1 {
            out.push(swapped.collect());
        } else {
            out.extend(swapped);
        }
    } else {
        out.extend(args.iter().map(|w| (*w).to_string()));
    }
    let candidate = out.join(" ");
    (candidate != words.join(" ")).then_some(candidate)
}

/// The error for action text that does not parse, the same in every variant
/// and in both engines: the text (quoted as a JSON string), the suggestion of
/// [`near_miss`] when it parses (`canonical` gives its canonical text), and
/// the variant's forms and letters.
pub fn parse_error(
    text: &str,
    grammar: &Grammar,
    canonical: impl Fn(&str) -> Option<String>,
) -> GameError {
    let lower = fold(text);
    let words: Vec<&str> = lower.split_whitespace().collect();
    let quoted = serde_json::to_string(text).unwrap_or_default();
    let hint = near_miss(&words, grammar)
        .and_then(|c| canonical(&c))
        .map(|c| format!(" (did you mean \"{c}\"?)"))
        .unwrap_or_default();
    GameError::InvalidAction(format!(
        "cannot parse action text {quoted}{hint}: expected one of: {}; {}",
        grammar.forms, grammar.letters
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_one_to_three_ascii_digits() {
        assert_eq!(number("0", 0, 9), Some(0));
        assert_eq!(number("3", 1, 3), Some(3));
        assert_eq!(number("001", 1, 3), Some(1));
        for bad in [
            "", "0001", "+1", "-1", " 1", "1 ", "\u{661}", "\u{b2}", "4", "99999",
        ] {
            assert_eq!(number(bad, 0, 3), None, "{bad:?}");
        }
        assert_eq!(level_slot("2.3", 3, 4), Some((2, 3)));
        assert_eq!(level_slot("01.01", 3, 4), Some((1, 1)));
        for bad in ["0001.1", "1.0001", "1.2.3", "1.", ".1", "1,1"] {
            assert_eq!(level_slot(bad, 3, 4), None, "{bad:?}");
        }
    }

    #[test]
    fn only_ascii_letters_fold() {
        assert_eq!(fold("TAKE Wug"), "take wug");
        assert_eq!(fold("\u{130} \u{212a}"), "\u{130} \u{212a}");
    }
}
