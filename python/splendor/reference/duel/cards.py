"""Splendor Duel card and royal data (docs/duel.md, Data and ids).

Cards and royals are loaded from ``splendor/data/duel/*.csv``, the single source of
truth shared with the Rust engine; a card's id is its 0-based data row.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

from splendor.errors import CardDataError
from splendor.reference.common import range_message

COLOURS = ("white", "blue", "green", "red", "black")
KINDS = "wugrkpy"
"""Token kinds in order: five gem colours, pearl (5), gold (6)."""
PEARL = 5
GOLD = 6
TOKEN_TOTALS = (4, 4, 4, 4, 4, 2, 3)
BONUSES = (*COLOURS, "wild", "none")
WILD = 5
NONE_BONUS = 6
ABILITIES = ("again", "token", "steal", "privilege", "wild")
"""Ability flags in bit order (again = 1, token = 2, ...)."""
CARDS_PER_LEVEL = (30, 24, 13)
SLOTS = (5, 4, 3)
SLOT_OFFSET = (0, 5, 9)
CARD_HEADER = [
    "level",
    "bonus",
    "bonus_count",
    "points",
    "crowns",
    "ability",
    *COLOURS,
    "pearl",
]


@dataclass(frozen=True)
class Card:
    """A jewel card; ``abilities`` is a tuple of names from :data:`ABILITIES`."""

    id: int
    level: int
    bonus: int
    bonus_count: int
    points: int
    crowns: int
    abilities: tuple[str, ...]
    cost: tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class Royal:
    """A royal card: points and at most one ability (steal, again or privilege)."""

    id: int
    points: int
    abilities: tuple[str, ...]


def _read_rows(name: str, header: list[str]) -> list[list[str]]:
    try:
        root = resources.files("splendor").joinpath("data").joinpath("duel")
        text = root.joinpath(name).read_text("utf-8")
    except OSError as exc:
        raise CardDataError(f"duel/{name}: cannot read: {exc}") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != header:
        raise CardDataError(f"duel/{name}: header must be {','.join(header)}")
    out = [[f.strip() for f in r] for r in rows[1:] if r]
    for i, r in enumerate(out):
        if len(r) != len(header):
            raise CardDataError(
                f"duel/{name}: data row {i}: expected {len(header)} columns, got {len(r)}"
            )
    return out


def _int(name: str, row: int, column: str, text: str, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise CardDataError(
            f"duel/{name}: data row {row}, column {column}: {text!r} is not an integer"
        ) from None
    if not 0 <= value <= hi:
        raise CardDataError(
            range_message(f"duel/{name}: data row {row}, column {column}", 0, hi, value)
        )
    return value


def _abilities(name: str, row: int, text: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if text == "none":
        return ()
    parts = tuple(text.split("+"))
    if any(p not in allowed for p in parts):
        raise CardDataError(f"duel/{name}: data row {row}, column ability: unknown {text!r}")
    return parts


def load_cards() -> tuple[Card, ...]:
    """Read and check ``cards.csv`` (CardDataError naming row and column)."""
    name = "cards.csv"
    cards: list[Card] = []
    for i, f in enumerate(_read_rows(name, CARD_HEADER)):
        level = _int(name, i, "level", f[0], 3)
        if f[1] not in BONUSES:
            raise CardDataError(f"duel/{name}: data row {i}, column bonus: unknown {f[1]!r}")
        bonus = BONUSES.index(f[1])
        abilities = _abilities(name, i, f[5], ABILITIES)
        if (bonus == WILD) != ("wild" in abilities):
            raise CardDataError(
                f"duel/{name}: data row {i}, column ability: wild exactly on wild cards"
            )
        cost = tuple(_int(name, i, CARD_HEADER[6 + k], f[6 + k], 15) for k in range(6))
        cards.append(
            Card(
                i,
                level,
                bonus,
                _int(name, i, "bonus_count", f[2], 2),
                _int(name, i, "points", f[3], 20),
                _int(name, i, "crowns", f[4], 10),
                abilities,
                (cost[0], cost[1], cost[2], cost[3], cost[4], cost[5]),
            )
        )
    expected = [lv for lv, n in zip((1, 2, 3), CARDS_PER_LEVEL, strict=True) for _ in range(n)]
    if [c.level for c in cards] != expected:
        raise CardDataError(f"duel/{name}: expected {CARDS_PER_LEVEL} cards of levels 1/2/3")
    return tuple(cards)


def load_royals() -> tuple[Royal, ...]:
    """Read and check ``royals.csv``."""
    name = "royals.csv"
    royals = [
        Royal(i, _int(name, i, "points", f[0], 20), _abilities(name, i, f[1], ABILITIES[:4]))
        for i, f in enumerate(_read_rows(name, ["points", "ability"]))
    ]
    if len(royals) != 4:
        raise CardDataError(f"duel/{name}: expected 4 royals, got {len(royals)}")
    return tuple(royals)


CARDS = load_cards()
ROYALS = load_royals()
LEVEL_IDS = tuple(tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3))
JOKERS = tuple(c.id for c in CARDS if c.bonus == WILD)
