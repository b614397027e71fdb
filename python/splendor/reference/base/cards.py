"""Card and noble data of the base game, loaded from ``splendor/data/base/*.csv``.

The CSV files are the single source of truth shared with the Rust engine; a card's
id is its 0-based data row, a noble's id likewise.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

from splendor.errors import CardDataError
from splendor.reference.common import range_message

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


def _read_rows(name: str, header: list[str]) -> list[list[str]]:
    try:
        text = (
            resources.files("splendor")
            .joinpath("data")
            .joinpath("base")
            .joinpath(name)
            .read_text("utf-8")
        )
    except OSError as exc:
        raise CardDataError(f"base/{name}: cannot read: {exc}") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != header:
        raise CardDataError(f"base/{name}: header must be {','.join(header)}")
    return [r for r in rows[1:] if r]


def _int_field(name: str, row: int, column: str, text: str, lo: int, hi: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise CardDataError(
            f"base/{name}: data row {row}, column {column}: {text!r} is not an integer"
        ) from None
    if not lo <= value <= hi:
        raise CardDataError(
            range_message(f"base/{name}: data row {row}, column {column}", lo, hi, value)
        )
    return value


def _five(name: str, row: int, fields: list[str]) -> tuple[int, int, int, int, int]:
    w, u, g, r, k = (
        _int_field(name, row, COLOURS[c], fields[c], 0, 7) for c in range(len(COLOURS))
    )
    return (w, u, g, r, k)


def load_cards() -> tuple[Card, ...]:
    """Read and check ``cards.csv`` (CardDataError naming row and column on a bad file)."""
    name = "cards.csv"
    rows = _read_rows(name, ["level", "bonus", "points", *COLOURS])
    cards: list[Card] = []
    for i, fields in enumerate(rows):
        if len(fields) != 8:
            raise CardDataError(f"base/{name}: data row {i}: expected 8 columns, got {len(fields)}")
        level = _int_field(name, i, "level", fields[0], 1, NUM_LEVELS)
        bonus_name = fields[1].strip()
        if bonus_name not in COLOURS:
            raise CardDataError(
                f"base/{name}: data row {i}, column bonus: {bonus_name!r} is not a colour"
            )
        points = _int_field(name, i, "points", fields[2], 0, 5)
        cards.append(Card(i, level, COLOURS.index(bonus_name), points, _five(name, i, fields[3:])))
    levels = [c.level for c in cards]
    expected = [lv for lv, n in zip((1, 2, 3), CARDS_PER_LEVEL, strict=True) for _ in range(n)]
    if levels != expected:
        raise CardDataError(
            f"base/{name}: expected {CARDS_PER_LEVEL} cards of levels 1/2/3 in level order"
        )
    return tuple(cards)


def load_nobles() -> tuple[Noble, ...]:
    """Read and check ``nobles.csv``."""
    name = "nobles.csv"
    rows = _read_rows(name, ["points", *COLOURS])
    nobles: list[Noble] = []
    for i, fields in enumerate(rows):
        if len(fields) != 6:
            raise CardDataError(f"base/{name}: data row {i}: expected 6 columns, got {len(fields)}")
        points = _int_field(name, i, "points", fields[0], 0, 9)
        nobles.append(Noble(i, points, _five(name, i, fields[1:])))
    if len(nobles) != 10:
        raise CardDataError(f"base/{name}: expected 10 nobles, got {len(nobles)}")
    return tuple(nobles)


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
