"""The words and numbers of action text, read alike by every variant and by the Rust
engine (``src/action_text.rs``), so that both engines accept exactly the same text."""

from __future__ import annotations

import re

# Unicode White_Space, as Rust's `str::split_whitespace` sees it (Python's own
# `str.split()` also splits on U+001C..U+001F, which Rust does not).
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_WORDS = re.compile(f"[{_WHITE_SPACE}]+")
# Only ASCII letters are case-folded; any other character then fails to parse.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def words(text: str) -> list[str]:
    """The words of action text: ASCII letters lower-cased, split at white space."""
    return [w for w in _WORDS.split(text.translate(_ASCII_LOWER)) if w]


def number(word: str, lo: int, hi: int) -> int | None:
    """A number in ``lo..=hi`` of 1 to 3 ASCII digits (leading zeros allowed), no sign."""
    if not 1 <= len(word) <= 3 or any(ch not in "0123456789" for ch in word):
        return None
    value = int(word)
    return value if lo <= value <= hi else None


def level_slot(word: str, levels: int, slots: int) -> tuple[int, int] | None:
    """``level.slot``: two numbers joined by one dot (both 1-based)."""
    level, dot, slot = word.partition(".")
    if not dot:
        return None
    lv, sl = number(level, 1, levels), number(slot, 1, slots)
    return None if lv is None or sl is None else (lv, sl)
