"""The words and numbers of action text, read alike by every variant and by the Rust
engine (``src/action_text.rs``), so that both engines accept exactly the same text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from splendor.errors import InvalidActionError

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


@dataclass(frozen=True)
class Grammar:
    """How a variant's action text looks, for the message of text that does not parse
    (the Rust engine's ``action_text::Grammar``, field for field)."""

    forms: str
    letters: str
    head_swap: tuple[str, str]
    letter_swap: tuple[str, str]
    letter_heads: tuple[str, ...]
    take_letters: bool


def near_miss(ws: list[str], grammar: Grammar) -> str | None:
    """The near miss of words that did not parse (Rust's ``action_text::near_miss``):
    another variant's words and letters swapped for this one's, ``r1`` after ``buy``
    (``recruit``) read as ``reserved 1``, ``take r g b`` as ``take rgb``; None when
    nothing changes."""
    if not ws:
        return None
    head, args = ws[0], ws[1:]
    if head == grammar.head_swap[0]:
        head = grammar.head_swap[1]
    out = [head]
    shorthand = None
    if len(args) == 1 and head in ("buy", "recruit") and args[0].startswith("r"):
        n = args[0][1:]
        shorthand = n if number(n, 0, 999) is not None else None
    if shorthand is not None:
        out += ["reserved", shorthand]
    elif head in grammar.letter_heads:
        old, new = grammar.letter_swap
        swapped = [w if w in ("gold", "grey") else w.replace(old, new) for w in args]
        if head == "take" and grammar.take_letters and len(args) > 1:
            out.append("".join(swapped))
        else:
            out += swapped
    else:
        out += args
    candidate = " ".join(out)
    return None if candidate == " ".join(ws) else candidate


def _quoted(text: str) -> str:
    # As serde_json writes a string (only `"`, `\` and controls escaped); a lone
    # surrogate, which Rust text cannot hold, is escaped too.
    return json.dumps(text, ensure_ascii=False).encode("utf-8", "backslashreplace").decode()


def parse_error(
    text: str, grammar: Grammar, canonical: Callable[[str], str | None]
) -> InvalidActionError:
    """The error for action text that does not parse, worded as the Rust engine words it:
    the text, the near miss when it parses (``canonical`` gives its canonical text, or
    None), and the variant's forms and letters."""
    hint = ""
    candidate = near_miss(words(text), grammar)
    suggestion = None if candidate is None else canonical(candidate)
    if suggestion is not None:
        hint = f' (did you mean "{suggestion}"?)'
    return InvalidActionError(
        f"cannot parse action text {_quoted(text)}{hint}: expected one of: "
        f"{grammar.forms}; {grammar.letters}"
    )
