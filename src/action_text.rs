//! The words and numbers of action text, read alike by every variant and by
//! the reference engine (`splendor/reference/action_text.py`), so that the two
//! engines accept exactly the same text (docs/contract.md, *Action text*).

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
