"""Marvel card and location files: parsing, validation and the card-set checksum.

The CSV files under ``splendor/data/marvel`` are the single source of truth; a
user may pass a corrected file (see ``docs/marvel.md`` section 7).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from splendor.errors import CardDataError
from splendor.reference.common import range_message

COLOURS = ("purple", "blue", "red", "orange", "yellow")
LETTERS = "pbroy"
CARD_HEADER = [
    "level",
    "bonus",
    "points",
    "avengers",
    "time_stone",
    "purple",
    "blue",
    "red",
    "orange",
    "yellow",
    "name",
]
LOCATION_HEADER = ["tile", "side", "points", "purple", "blue", "red", "orange", "yellow", "name"]
LEVEL_SIZES = (40, 30, 20)
NUM_CARDS = 90
NUM_LOCATIONS = 8


@dataclass(frozen=True)
class Card:
    """One character card."""

    id: int
    level: int
    bonus: int
    points: int
    avengers: int
    time_stone: int
    cost: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class Location:
    """One side of a location tile."""

    id: int
    tile: int
    side: int
    points: int
    requirement: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class MarvelData:
    """A validated card set: 90 cards, 8 locations and their checksum."""

    cards: tuple[Card, ...]
    locations: tuple[Location, ...]
    checksum: int


def _read_text(source: str | Path | None, default: str) -> tuple[str, str]:
    """The text of a file argument: None (bundled), a path, or the CSV text itself."""
    if source is None:
        ref = resources.files("splendor").joinpath("data").joinpath("marvel").joinpath(default)
        return ref.read_text(encoding="utf-8"), default
    if not isinstance(source, (str, Path)):
        raise CardDataError(f"a card file must be a path or CSV text, not {type(source).__name__}")
    if isinstance(source, Path) or "\n" not in source:
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise CardDataError(f"cannot read card file {path}: {exc}") from None
    return source, "<text>"


def _rows(text: str, name: str, header: list[str]) -> list[list[str]]:
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    if not rows or [c.strip() for c in rows[0]] != header:
        raise CardDataError(f"{name} row 1: header must be {','.join(header)}")
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise CardDataError(f"{name} row {i}: expected {len(header)} columns, got {len(row)}")
    return rows[1:]


def _int(name: str, row: int, col: str, text: str, lo: int, hi: int) -> int:
    s = text.strip()
    if not (s.isascii() and s.isdigit()):
        raise CardDataError(f"{name} row {row} column {col}: {text!r} is not an integer")
    v = int(s)
    if not lo <= v <= hi:
        raise CardDataError(range_message(f"{name} row {row} column {col}", lo, hi, v))
    return v


def _name(name: str, row: int, text: str) -> str:
    s = text.strip()
    if not s:
        raise CardDataError(f"{name} row {row} column name: empty name")
    return s


def parse_cards(text: str, name: str = "cards.csv") -> tuple[Card, ...]:
    """Parse and validate a card file (CardDataError names the row and column)."""
    rows = _rows(text, name, CARD_HEADER)
    if len(rows) != NUM_CARDS:
        raise CardDataError(f"{name}: expected {NUM_CARDS} cards, got {len(rows)}")
    cards = []
    for i, r in enumerate(rows):
        row = i + 2
        level = _int(name, row, "level", r[0], 1, 3)
        expected = 1 if i < 40 else 2 if i < 70 else 3
        if level != expected:
            raise CardDataError(
                f"{name} row {row} column level: expected level {expected} "
                "(40 level-1, then 30 level-2, then 20 level-3 rows)"
            )
        bonus_text = r[1].strip().lower()
        if bonus_text not in COLOURS:
            raise CardDataError(f"{name} row {row} column bonus: unknown colour {r[1]!r}")
        points = _int(name, row, "points", r[2], 0, 9)
        avengers = _int(name, row, "avengers", r[3], 0, 3)
        time_stone = _int(name, row, "time_stone", r[4], 0, 1)
        cost = tuple(_int(name, row, COLOURS[c], r[5 + c], 0, 9) for c in range(5))
        if sum(cost) == 0:
            raise CardDataError(f"{name} row {row} column purple: a card must cost something")
        cards.append(
            Card(
                i,
                level,
                COLOURS.index(bonus_text),
                points,
                avengers,
                time_stone,
                cost,
                _name(name, row, r[10]),
            )
        )
    return tuple(cards)


def parse_locations(text: str, name: str = "locations.csv") -> tuple[Location, ...]:
    """Parse and validate a location file (CardDataError names the row and column)."""
    rows = _rows(text, name, LOCATION_HEADER)
    if len(rows) != NUM_LOCATIONS:
        raise CardDataError(f"{name}: expected {NUM_LOCATIONS} locations, got {len(rows)}")
    locs = []
    for i, r in enumerate(rows):
        row = i + 2
        tile = _int(name, row, "tile", r[0], 1, 4)
        if tile != i // 2 + 1:
            raise CardDataError(f"{name} row {row} column tile: expected tile {i // 2 + 1}")
        side_text = r[1].strip().upper()
        if side_text != "AB"[i % 2]:
            raise CardDataError(f"{name} row {row} column side: expected side {'AB'[i % 2]}")
        points = _int(name, row, "points", r[2], 0, 9)
        req = tuple(_int(name, row, COLOURS[c], r[3 + c], 0, 9) for c in range(5))
        if sum(req) == 0:
            raise CardDataError(f"{name} row {row} column purple: a location must require bonuses")
        locs.append(Location(i, tile - 1, i % 2, points, req, _name(name, row, r[8])))
    return tuple(locs)


def fnv1a32(data: bytes) -> int:
    """FNV-1a, 32 bits."""
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def checksum(cards: tuple[Card, ...], locations: tuple[Location, ...]) -> int:
    """The card-set checksum of docs/marvel.md section 1."""
    lines = [
        ",".join(str(v) for v in (c.level, c.bonus, c.points, c.avengers, c.time_stone, *c.cost))
        + f",{c.name}\n"
        for c in cards
    ]
    lines += [
        ",".join(str(v) for v in (loc.tile + 1, loc.side, loc.points, *loc.requirement))
        + f",{loc.name}\n"
        for loc in locations
    ]
    return fnv1a32("".join(lines).encode("utf-8"))


_CACHE: dict[tuple[str, str], MarvelData] = {}


def load_data(cards: str | Path | None = None, locations: str | Path | None = None) -> MarvelData:
    """Load a card set: None for the bundled files, else a path or the CSV text."""
    ctext, cname = _read_text(cards, "cards.csv")
    ltext, lname = _read_text(locations, "locations.csv")
    key = (ctext, ltext)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    c = parse_cards(ctext, cname)
    loc = parse_locations(ltext, lname)
    data = MarvelData(c, loc, checksum(c, loc))
    if len(_CACHE) < 64:
        _CACHE[key] = data
    return data


def data_by_checksum(checksum: object) -> MarvelData:
    """The bundled set or a set loaded earlier with this checksum (else the bundled one)."""
    bundled = load_data()
    for d in (bundled, *_CACHE.values()):
        if d.checksum == checksum:
            return d
    return bundled
