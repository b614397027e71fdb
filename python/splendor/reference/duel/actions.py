"""Splendor Duel action ids and text (docs/duel.md, Action ids)."""

from __future__ import annotations

from itertools import product

from splendor.reference.action_text import Grammar, level_slot, number, parse_error, words
from splendor.reference.duel.board import LINES, cell_name
from splendor.reference.duel.cards import KINDS, SLOT_OFFSET, SLOTS

PRIVILEGE = 145
REPLENISH = 170
GOLD = 171
RESERVE = 196
RESERVE_DECK = 208
BUY = 211
BUY_RESERVED = 223
PAY = 226
TOKEN = 310
STEAL = 335
JOKER = 341
ROYAL = 346
DISCARD = 350
PASS = 357
NUM_ACTIONS = 358

PAYMENTS: tuple[tuple[int, ...], ...] = tuple(v for v in product(range(4), repeat=6) if sum(v) <= 3)
"""Gold vectors (w, u, g, r, k, p), sum at most 3, in lexicographic order."""
assert len(PAYMENTS) == 84

LEVEL_SLOT = tuple((lv + 1, s + 1) for lv in range(3) for s in range(SLOTS[lv]))
LINE_IDS = {frozenset(cells): i for i, cells in enumerate(LINES)}


def slot_index(level: int, slot: int) -> int:
    """Pyramid slot index (level-major) of 0-based ``level`` and ``slot``."""
    return SLOT_OFFSET[level] + slot


def action_text(a: int) -> str:
    """Canonical text of action id ``a``."""
    if a < PRIVILEGE:
        return "take " + " ".join(cell_name(c) for c in LINES[a])
    if a < REPLENISH:
        return f"privilege {cell_name(a - PRIVILEGE)}"
    if a == REPLENISH:
        return "replenish"
    if a < RESERVE:
        return f"gold {cell_name(a - GOLD)}"
    if a < RESERVE_DECK:
        level, slot = LEVEL_SLOT[a - RESERVE]
        return f"reserve {level}.{slot}"
    if a < BUY:
        return f"reserve deck {a - RESERVE_DECK + 1}"
    if a < BUY_RESERVED:
        level, slot = LEVEL_SLOT[a - BUY]
        return f"buy {level}.{slot}"
    if a < PAY:
        return f"buy reserved {a - BUY_RESERVED + 1}"
    if a < TOKEN:
        g = PAYMENTS[a - PAY]
        letters = "".join(KINDS[k] * n for k, n in enumerate(g))
        return f"pay gold {letters}" if letters else "pay"
    if a < STEAL:
        return f"token {cell_name(a - TOKEN)}"
    if a < JOKER:
        return f"steal {KINDS[a - STEAL]}"
    if a < ROYAL:
        return f"joker {KINDS[a - JOKER]}"
    if a < DISCARD:
        return f"royal {a - ROYAL}"
    if a < PASS:
        return f"discard {KINDS[a - DISCARD]}"
    return "pass"


def _cell(word: str) -> int | None:
    if len(word) != 2 or word[0] not in "abcde" or word[1] not in "12345":
        return None
    return (int(word[1]) - 1) * 5 + "abcde".index(word[0])


def _parse(words: list[str]) -> int | None:
    head, args = words[0], words[1:]
    if head == "take" and 1 <= len(args) <= 3:
        cells = [_cell(w) for w in args]
        if any(c is None for c in cells) or len(set(cells)) != len(cells):
            return None
        return LINE_IDS.get(frozenset(c for c in cells if c is not None))
    cell_heads = {"privilege": PRIVILEGE, "gold": GOLD, "token": TOKEN}
    if head in cell_heads and len(args) == 1:
        c = _cell(args[0])
        return None if c is None else cell_heads[head] + c
    if words == ["replenish"]:
        return REPLENISH
    if words == ["pass"]:
        return PASS
    if head == "reserve" and len(args) == 2 and args[0] == "deck":
        level = number(args[1], 1, 3)
        return None if level is None else RESERVE_DECK + level - 1
    if head == "buy" and len(args) == 2 and args[0] == "reserved":
        index = number(args[1], 1, 3)
        return None if index is None else BUY_RESERVED + index - 1
    if head in ("reserve", "buy") and len(args) == 1:
        pos = level_slot(args[0], 3, 5)
        if pos is not None and pos in LEVEL_SLOT:
            base = RESERVE if head == "reserve" else BUY
            return base + LEVEL_SLOT.index(pos)
        return None
    if head == "pay":
        if not args:
            return PAY
        if args[0] != "gold" or len(args) < 2:
            return None
        letters = "".join(args[1:])
        if any(ch not in KINDS[:6] for ch in letters):
            return None
        g = tuple(letters.count(k) for k in KINDS[:6])
        return PAY + PAYMENTS.index(g) if g in PAYMENTS else None
    kind_heads = {"steal": (STEAL, 6), "joker": (JOKER, 5), "discard": (DISCARD, 7)}
    if head in kind_heads and len(args) == 1:
        base, n = kind_heads[head]
        k = KINDS[:n].find(args[0]) if len(args[0]) == 1 else -1
        return None if k < 0 else base + k
    royal = number(args[0], 0, 3) if head == "royal" and len(args) == 1 else None
    if royal is not None:
        return ROYAL + royal
    return None


def parse_action(text: str) -> int:
    """The id of action text (case-insensitive); InvalidActionError naming the text."""
    ws = words(text)
    found = _parse(ws) if ws else None
    if found is None:
        raise parse_error(text, GRAMMAR, _canonical)
    return found


def _canonical(text: str) -> str | None:
    ws = words(text)
    found = _parse(ws) if ws else None
    return None if found is None else action_text(found)


#: The text forms, for the message of text that does not parse (as the Rust engine's).
GRAMMAR = Grammar(
    forms="take <1-3 cells in a line> (take c3 c4), privilege <cell>, replenish, gold <cell>, "
    "reserve <level>.<slot>, reserve deck <level>, buy <level>.<slot>, "
    "buy reserved <1-3>, pay, pay gold <letters>, token <cell>, steal <letter>, "
    "joker <letter>, royal <id>, discard <letter>, pass",
    letters="cells a1-e5 (column, then row); letters: w white, u blue, g green, r red, "
    "k black, p pearl, y gold",
    head_swap=("recruit", "buy"),
    letter_swap=("b", "u"),
    letter_heads=("pay", "steal", "joker", "discard"),
    take_letters=False,
)
