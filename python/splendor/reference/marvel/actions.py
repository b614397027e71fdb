"""The Marvel action table (docs/marvel.md section 3): ids and text."""

from __future__ import annotations

from itertools import combinations

from splendor.reference.action_text import Grammar, level_slot, number, parse_error, words

LETTERS = "pbroy"
TOKEN_LETTERS = "pbroyst"  # stones, grey (S.H.I.E.L.D.), green (Time)
GREY = 5
GREEN = 6

TRIPLES = list(combinations(range(5), 3))
PAIRS = list(combinations(range(5), 2))
TAKE3, TAKE2D, TAKE1, TAKE2S = 0, 10, 20, 25
RESERVE, RESERVE_DECK, RECRUIT, RECRUIT_RES = 30, 42, 45, 57
RETURN, LOCATION, PAY, PASS = 60, 66, 74, 326
NUM_ACTIONS = 327


def _grey_vectors() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for p in range(6):
        for b in range(6 - p):
            for r in range(6 - p - b):
                for o in range(6 - p - b - r):
                    for y in range(6 - p - b - r - o):
                        out.append((p, b, r, o, y))
    return out


GREY_VECTORS = _grey_vectors()
GREY_INDEX = {v: i for i, v in enumerate(GREY_VECTORS)}
assert len(GREY_VECTORS) == 252


def action_text(a: int) -> str:
    """The canonical text of action id ``a``."""
    if a < TAKE2D:
        return "take " + "".join(LETTERS[c] for c in TRIPLES[a])
    if a < TAKE1:
        return "take " + "".join(LETTERS[c] for c in PAIRS[a - TAKE2D])
    if a < TAKE2S:
        return "take " + LETTERS[a - TAKE1]
    if a < RESERVE:
        return "take " + LETTERS[a - TAKE2S] * 2
    if a < RESERVE_DECK:
        k = a - RESERVE
        return f"reserve {k // 4 + 1}.{k % 4 + 1}"
    if a < RECRUIT:
        return f"reserve deck {a - RESERVE_DECK + 1}"
    if a < RECRUIT_RES:
        k = a - RECRUIT
        return f"recruit {k // 4 + 1}.{k % 4 + 1}"
    if a < RETURN:
        return f"recruit reserved {a - RECRUIT_RES + 1}"
    if a < LOCATION:
        return "return " + TOKEN_LETTERS[a - RETURN]
    if a < PAY:
        return f"location {a - LOCATION}"
    if a < PASS:
        v = GREY_VECTORS[a - PAY]
        if sum(v) == 0:
            return "pay"
        return "pay grey " + "".join(LETTERS[c] * n for c, n in enumerate(v))
    return "pass"


ALL_TEXT = [action_text(a) for a in range(NUM_ACTIONS)]


def _letters(s: str, alphabet: str) -> list[int] | None:
    out: list[int] = []
    for ch in s:
        i = alphabet.find(ch)
        if i < 0:
            return None
        out.append(i)
    return out


def _slot(s: str) -> int | None:
    pos = level_slot(s, 3, 4)
    return None if pos is None else (pos[0] - 1) * 4 + pos[1] - 1


def parse_action(text: str) -> int:
    """The id of an action text (InvalidActionError when it does not parse)."""
    a = _parse(words(text))
    if a is None:
        raise parse_error(text, GRAMMAR, _canonical)
    return a


def _canonical(text: str) -> str | None:
    a = _parse(words(text))
    return None if a is None else action_text(a)


#: The text forms, for the message of text that does not parse (as the Rust engine's).
GRAMMAR = Grammar(
    forms="take <colours> (take pbr, take oo), reserve <level>.<slot>, reserve deck <level>, "
    "recruit <level>.<slot>, recruit reserved <1-3>, return <colour>, location <id>, "
    "pay, pay grey <colours>, pass",
    letters="colour letters: p purple, b blue, r red, o orange, y yellow, s grey, t green",
    head_swap=("buy", "recruit"),
    letter_swap=("u", "b"),
    letter_heads=("take", "return", "pay"),
    take_letters=True,
)


def _parse(w: list[str]) -> int | None:
    if w == ["pass"]:
        return PASS
    if w == ["pay"]:
        return PAY
    if len(w) == 2 and w[0] == "take":
        cs = _letters(w[1], LETTERS)
        if cs is None:
            return None
        if len(cs) == 2 and cs[0] == cs[1]:
            return TAKE2S + cs[0]
        t = tuple(sorted(cs))
        if len(set(t)) != len(t):
            return None
        if len(t) == 3:
            return TAKE3 + TRIPLES.index(t)
        if len(t) == 2:
            return TAKE2D + PAIRS.index(t)
        if len(t) == 1:
            return TAKE1 + t[0]
        return None
    if len(w) == 2 and w[0] in ("reserve", "recruit"):
        s = _slot(w[1])
        if s is None:
            return None
        return (RESERVE if w[0] == "reserve" else RECRUIT) + s
    index = number(w[2], 1, 3) if len(w) == 3 else None
    if index is not None and w[:2] == ["reserve", "deck"]:
        return RESERVE_DECK + index - 1
    if index is not None and w[:2] == ["recruit", "reserved"]:
        return RECRUIT_RES + index - 1
    if len(w) == 2 and w[0] == "return" and len(w[1]) == 1 and w[1] in TOKEN_LETTERS[:6]:
        return RETURN + TOKEN_LETTERS.index(w[1])
    location = number(w[1], 0, 7) if len(w) == 2 and w[0] == "location" else None
    if location is not None:
        return LOCATION + location
    if len(w) == 3 and w[:2] == ["pay", "grey"]:
        cs = _letters(w[2], LETTERS)
        if cs is None or not cs:
            return None
        v = [0] * 5
        for c in cs:
            v[c] += 1
        i = GREY_INDEX.get(tuple(v))
        return None if i is None else PAY + i
    return None
