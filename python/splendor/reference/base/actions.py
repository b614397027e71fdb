"""The base game's fixed action space (docs/base.md, Action ids): ids, text and parsing."""

from __future__ import annotations

from itertools import combinations

from splendor.reference.action_text import Grammar, number, parse_error, words
from splendor.reference.base.cards import GOLD, LETTERS, NUM_LEVELS, SLOTS, TOKEN_LETTERS

NUM_ACTIONS = 329

TRIPLES: tuple[tuple[int, ...], ...] = tuple(combinations(range(5), 3))
PAIRS: tuple[tuple[int, ...], ...] = tuple(combinations(range(5), 2))
TAKE3 = 0
TAKE2 = 10
TAKE1 = 20
DOUBLE = 25
RESERVE_UP = 30
RESERVE_DECK = 42
BUY_UP = 45
BUY_RESERVED = 57
RETURN = 60
NOBLE = 66
PAY = 76
PASS = 328


def _gold_vectors() -> tuple[tuple[int, int, int, int, int], ...]:
    out = []
    for w in range(6):
        for u in range(6 - w):
            for g in range(6 - w - u):
                for r in range(6 - w - u - g):
                    for k in range(6 - w - u - g - r):
                        out.append((w, u, g, r, k))
    return tuple(out)


GOLD_VECTORS = _gold_vectors()
"""Position ``i`` is the gold vector of pay action ``PAY + i``."""
PAY_ID = {v: PAY + i for i, v in enumerate(GOLD_VECTORS)}
assert len(GOLD_VECTORS) == 252 and PAY + len(GOLD_VECTORS) == PASS


def slot_id(base: int, level: int, slot: int) -> int:
    """Id of a face-up reserve/buy action (``level`` 1..3, ``slot`` 0..3)."""
    return base + (level - 1) * SLOTS + slot


def action_text(a: int) -> str:
    """The canonical text of action id ``a`` (``0 <= a < NUM_ACTIONS``)."""
    if a < TAKE2:
        return "take " + "".join(LETTERS[c] for c in TRIPLES[a - TAKE3])
    if a < TAKE1:
        return "take " + "".join(LETTERS[c] for c in PAIRS[a - TAKE2])
    if a < DOUBLE:
        return "take " + LETTERS[a - TAKE1]
    if a < RESERVE_UP:
        return "take " + LETTERS[a - DOUBLE] * 2
    if a < RESERVE_DECK:
        level, slot = divmod(a - RESERVE_UP, SLOTS)
        return f"reserve {level + 1}.{slot + 1}"
    if a < BUY_UP:
        return f"reserve deck {a - RESERVE_DECK + 1}"
    if a < BUY_RESERVED:
        level, slot = divmod(a - BUY_UP, SLOTS)
        return f"buy {level + 1}.{slot + 1}"
    if a < RETURN:
        return f"buy reserved {a - BUY_RESERVED + 1}"
    if a < NOBLE:
        return f"return {TOKEN_LETTERS[a - RETURN]}"
    if a < PAY:
        return f"noble {a - NOBLE}"
    if a < PASS:
        vector = GOLD_VECTORS[a - PAY]
        if sum(vector) == 0:
            return "pay"
        return "pay gold " + "".join(LETTERS[c] * n for c, n in enumerate(vector))
    return "pass"


def _parse_take(letters: str) -> int | None:
    if not letters or any(ch not in LETTERS for ch in letters):
        return None
    colours = sorted(LETTERS.index(ch) for ch in letters)
    distinct = tuple(sorted(set(colours)))
    if len(colours) == 2 and len(distinct) == 1:
        return DOUBLE + distinct[0]
    if len(distinct) != len(colours):
        return None
    if len(colours) == 3:
        return TAKE3 + TRIPLES.index(distinct)
    if len(colours) == 2:
        return TAKE2 + PAIRS.index(distinct)
    if len(colours) == 1:
        return TAKE1 + colours[0]
    return None


def _parse_slot(word: str) -> tuple[int, int] | None:
    parts = word.split(".")
    if len(parts) != 2:
        return None
    level = number(parts[0], 1, NUM_LEVELS)
    slot = number(parts[1], 1, SLOTS)
    if level is None or slot is None:
        return None
    return level, slot - 1


def _parse_words(words: list[str]) -> int | None:
    head, rest = words[0], words[1:]
    if head == "pass" and not rest:
        return PASS
    if head == "take" and len(rest) == 1:
        return _parse_take(rest[0])
    if head in ("reserve", "buy"):
        if len(rest) == 1:
            pos = _parse_slot(rest[0])
            if pos is None:
                return None
            return slot_id(RESERVE_UP if head == "reserve" else BUY_UP, *pos)
        if len(rest) == 2 and head == "reserve" and rest[0] == "deck":
            level = number(rest[1], 1, NUM_LEVELS)
            return None if level is None else RESERVE_DECK + level - 1
        if len(rest) == 2 and head == "buy" and rest[0] == "reserved":
            index = number(rest[1], 1, 3)
            return None if index is None else BUY_RESERVED + index - 1
        return None
    if head == "return" and len(rest) == 1:
        if len(rest[0]) == 1 and rest[0] in TOKEN_LETTERS:
            return RETURN + TOKEN_LETTERS.index(rest[0])
        return None
    if head == "noble" and len(rest) == 1:
        noble = number(rest[0], 0, 9) if len(rest[0]) == 1 else None
        return None if noble is None else NOBLE + noble
    if head == "pay":
        if not rest:
            return PAY_ID[(0, 0, 0, 0, 0)]
        if len(rest) == 2 and rest[0] == "gold" and all(ch in LETTERS for ch in rest[1]):
            counts = [rest[1].count(ch) for ch in LETTERS]
            if 1 <= sum(counts) <= GOLD:
                w, u, g, r, k = counts
                return PAY_ID[(w, u, g, r, k)]
        return None
    return None


def parse_action(text: str) -> int:
    """Parse action text into its id (InvalidActionError naming the text on failure).

    Case-insensitive for ASCII letters; words are separated by runs of Unicode
    white space (surrounding white space ignored); colour letters may come in any
    order; numbers are 1-3 ASCII digits (a noble id: one digit).
    """
    ws = words(text)
    parsed = _parse_words(ws) if ws else None
    if parsed is None:
        raise parse_error(text, GRAMMAR, _canonical)
    return parsed


def _canonical(text: str) -> str | None:
    ws = words(text)
    parsed = _parse_words(ws) if ws else None
    return None if parsed is None else action_text(parsed)


#: The text forms, for the message of text that does not parse (as the Rust engine's).
GRAMMAR = Grammar(
    forms="take <colours> (take wug, take rr), reserve <level>.<slot>, reserve deck <level>, "
    "buy <level>.<slot>, buy reserved <1-3>, return <colour>, noble <id>, pay, "
    "pay gold <colours>, pass",
    letters="colour letters: w white, u blue, g green, r red, k black, y gold",
    head_swap=("recruit", "buy"),
    letter_swap=("b", "u"),
    letter_heads=("take", "return", "pay"),
    take_letters=True,
)
