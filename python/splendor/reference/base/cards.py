"""Card and noble data of the base game, loaded from ``splendor/data/base/*.csv``.

The CSV files are the single source of truth shared with the Rust engine, read by the
one card-file reader (:mod:`splendor.reference.cardfile`) with the same checks as
``build/base.rs``; a card's id is its 0-based data row, a noble's id likewise.
"""

from __future__ import annotations

from dataclasses import dataclass

from splendor.errors import CardDataError
from splendor.reference import cardfile

COLOURS = ("white", "blue", "green", "red", "black")
"""The five gem colours in the order used everywhere (gold is index 5)."""
LETTERS = "wugrk"
"""One letter per gem colour; gold is ``y``."""
TOKEN_LETTERS = LETTERS + "y"
GOLD = 5
NUM_LEVELS = 3
SLOTS = 4
NOBLE_POINTS = 3
CARDS_PER_LEVEL = (40, 30, 20)
NUM_NOBLES = 10
CARDS_CHECKSUM = 129012480
NOBLES_CHECKSUM = 20275


@dataclass(frozen=True)
class Card:
    """A development card: level 1..3, bonus colour index, points and cost per colour."""

    id: int
    level: int
    bonus: int
    points: int
    cost: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Noble:
    """A noble tile: points and the bonuses it requires per colour."""

    id: int
    points: int
    req: tuple[int, int, int, int, int]


def _five(name: str, row: int, fields: list[str]) -> tuple[int, int, int, int, int]:
    w, u, g, r, k = (cardfile.integer(name, row, COLOURS[c], fields[c], 0, 9) for c in range(5))
    return (w, u, g, r, k)


def load_cards(text: str | None = None) -> tuple[Card, ...]:
    """Read and check ``cards.csv`` (CardDataError naming row and column on a bad file)."""
    name = "base/cards.csv"
    if text is None:
        text = cardfile.bundled_text("base", "cards.csv")
    rows = cardfile.rows(text, name, ["level", "bonus", "points", *COLOURS])
    if len(rows) != sum(CARDS_PER_LEVEL):
        raise CardDataError(f"{name}: expected {sum(CARDS_PER_LEVEL)} cards, got {len(rows)}")
    expected = [lv for lv, n in zip((1, 2, 3), CARDS_PER_LEVEL, strict=True) for _ in range(n)]
    cards: list[Card] = []
    for i, r in enumerate(rows):
        row, fields = r.number, r.fields
        level = cardfile.integer(name, row, "level", fields[0], 1, NUM_LEVELS)
        if level != expected[i]:
            raise CardDataError(
                f"{name} row {row} column level: expected level {expected[i]}"
                " (40 level-1, then 30 level-2, then 20 level-3 rows)"
            )
        bonus = cardfile.choice(fields[1], COLOURS)
        if bonus is None:
            raise CardDataError(f"{name} row {row} column bonus: unknown colour {fields[1]!r}")
        points = cardfile.integer(name, row, "points", fields[2], 0, 9)
        cards.append(Card(i, level, bonus, points, _five(name, row, fields[3:])))
    return tuple(cards)


def load_nobles(text: str | None = None) -> tuple[Noble, ...]:
    """Read and check ``nobles.csv``."""
    name = "base/nobles.csv"
    if text is None:
        text = cardfile.bundled_text("base", "nobles.csv")
    rows = cardfile.rows(text, name, ["points", *COLOURS])
    if len(rows) != NUM_NOBLES:
        raise CardDataError(f"{name}: expected {NUM_NOBLES} nobles, got {len(rows)}")
    return tuple(
        Noble(
            i,
            cardfile.integer(name, r.number, "points", r.fields[0], 0, 9),
            _five(name, r.number, r.fields[1:]),
        )
        for i, r in enumerate(rows)
    )


def cards_checksum(cards: tuple[Card, ...]) -> int:
    """The card checksum defined in docs/base.md (Data)."""
    return sum(
        (c.id + 1)
        * (
            c.level
            + 10 * c.bonus
            + 100 * c.points
            + 1000 * sum(n * (col + 2) for col, n in enumerate(c.cost))
        )
        for c in cards
    )


def nobles_checksum(nobles: tuple[Noble, ...]) -> int:
    """The noble checksum defined in docs/base.md (Data)."""
    return sum(
        (n.id + 1) * (n.points + 10 * sum(r * (col + 2) for col, r in enumerate(n.req)))
        for n in nobles
    )


CARDS = load_cards()
NOBLES = load_nobles()
LEVEL_IDS: tuple[range, ...] = (range(0, 40), range(40, 70), range(70, 90))
"""Card ids of each level (index 0 = level 1)."""
