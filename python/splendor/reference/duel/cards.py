"""Splendor Duel card and royal data (docs/duel.md, Data and ids).

Cards and royals are loaded from ``splendor/data/duel/*.csv``, the single source of
truth shared with the Rust engine, read by the one card-file reader
(:mod:`splendor.reference.cardfile`) with the same checks as ``build/duel.rs``; a card's
id is its 0-based data row.
"""

from __future__ import annotations

from dataclasses import dataclass

from splendor.errors import CardDataError
from splendor.reference import cardfile

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


ROYAL_ABILITIES = ("again", "steal", "privilege")
"""The abilities a royal card may have (no token, no wild)."""
NUM_ROYALS = 4


def _abilities(name: str, row: int, text: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """``none``, or ability names from ``allowed`` joined by ``+`` (ASCII case ignored)."""
    if cardfile.choice(text, ("none",)) is not None:
        return ()
    out = []
    for part in cardfile.trim(text).split("+"):
        known = cardfile.choice(part, allowed)
        if known is None:
            raise CardDataError(f"{name} row {row} column ability: unknown ability {text!r}")
        out.append(allowed[known])
    return tuple(out)


def load_cards(text: str | None = None) -> tuple[Card, ...]:
    """Read and check ``cards.csv`` (CardDataError naming row and column)."""
    name = "duel/cards.csv"
    if text is None:
        text = cardfile.bundled_text("duel", "cards.csv")
    rows = cardfile.rows(text, name, CARD_HEADER)
    if len(rows) != sum(CARDS_PER_LEVEL):
        raise CardDataError(f"{name}: expected {sum(CARDS_PER_LEVEL)} cards, got {len(rows)}")
    expected = [lv for lv, n in zip((1, 2, 3), CARDS_PER_LEVEL, strict=True) for _ in range(n)]
    cards: list[Card] = []
    for i, r in enumerate(rows):
        row, f = r.number, r.fields

        def num(col: str, text: str, lo: int, hi: int, row: int = row) -> int:
            return cardfile.integer(name, row, col, text, lo, hi)

        level = num("level", f[0], 1, 3)
        if level != expected[i]:
            raise CardDataError(
                f"{name} row {row} column level: expected level {expected[i]}"
                " (30 level-1, then 24 level-2, then 13 level-3 rows)"
            )
        bonus = cardfile.choice(f[1], BONUSES)
        if bonus is None:
            raise CardDataError(f"{name} row {row} column bonus: unknown bonus {f[1]!r}")
        abilities = _abilities(name, row, f[5], ABILITIES)
        if (bonus == WILD) != ("wild" in abilities):
            raise CardDataError(
                f"{name} row {row} column ability: a card has the wild ability exactly when"
                " its bonus is wild"
            )
        cost = tuple(num(CARD_HEADER[6 + k], f[6 + k], 0, 15) for k in range(6))
        cards.append(
            Card(
                i,
                level,
                bonus,
                num("bonus_count", f[2], 0, 2),
                num("points", f[3], 0, 20),
                num("crowns", f[4], 0, 10),
                abilities,
                (cost[0], cost[1], cost[2], cost[3], cost[4], cost[5]),
            )
        )
    return tuple(cards)


def load_royals(text: str | None = None) -> tuple[Royal, ...]:
    """Read and check ``royals.csv``."""
    name = "duel/royals.csv"
    if text is None:
        text = cardfile.bundled_text("duel", "royals.csv")
    rows = cardfile.rows(text, name, ["points", "ability"])
    if len(rows) != NUM_ROYALS:
        raise CardDataError(f"{name}: expected {NUM_ROYALS} royals, got {len(rows)}")
    return tuple(
        Royal(
            i,
            cardfile.integer(name, r.number, "points", r.fields[0], 0, 20),
            _abilities(name, r.number, r.fields[1], ROYAL_ABILITIES),
        )
        for i, r in enumerate(rows)
    )


CARDS = load_cards()
ROYALS = load_royals()
LEVEL_IDS = tuple(tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3))
JOKERS = tuple(c.id for c in CARDS if c.bonus == WILD)
