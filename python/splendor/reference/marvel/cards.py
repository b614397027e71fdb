"""Marvel card and location files: parsing, validation and the card-set identity.

The CSV files under ``splendor/data/marvel`` are the single source of truth; a
user may pass a corrected file (see ``docs/marvel.md`` section 7). A set is
identified by the SHA-256 of its canonical CSV text, and a loaded set stays
registered (by a weak reference) while some state uses it.
"""

from __future__ import annotations

import hashlib
import os
import weakref
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from splendor.errors import CardDataError
from splendor.reference import cardfile

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
    """A validated card set: 90 cards, 8 locations and their identity."""

    cards: tuple[Card, ...]
    locations: tuple[Location, ...]
    id: str
    """SHA-256 of the canonical CSV text (64 lower-case hex digits), ``"card_set"`` in JSON."""

    def canonical_csv(self) -> tuple[str, str]:
        """The set as canonical CSV text (card file, location file); parses back to it."""
        return canonical_csv(self.cards, self.locations)


BUNDLED_ID = "dad7c19708885f3100a76bf6321cd8d85bf6c71037a5173cc907cfd74e78f921"
"""The identity of the bundled set (docs/marvel.md section 1)."""


def _read_text(source: object, default: str) -> tuple[str, str]:
    """The text of a file argument: None (bundled), a path, or the CSV text itself."""
    if source is None:
        return cardfile.bundled_text("marvel", default), default
    if isinstance(source, str) and "\n" in source:
        text = source
        name = "<text>"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, ValueError) as exc:
            raise CardDataError(f"cannot read card file {path}: {exc}") from None
        name = str(path)
    else:
        raise CardDataError(f"a card file must be a path or CSV text, not {type(source).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CardDataError(
            "a card file argument holds a lone surrogate: it is not valid text"
        ) from None
    return text, name


def parse_cards(text: str, name: str = "cards.csv") -> tuple[Card, ...]:
    """Parse and validate a card file (CardDataError names the row and column)."""
    rows = cardfile.rows(text, name, CARD_HEADER)
    if len(rows) != NUM_CARDS:
        raise CardDataError(f"{name}: expected {NUM_CARDS} cards, got {len(rows)}")
    cards = []
    for i, row_ in enumerate(rows):
        row, r = row_.number, row_.fields
        level = cardfile.integer(name, row, "level", r[0], 1, 3)
        expected = 1 if i < 40 else 2 if i < 70 else 3
        if level != expected:
            raise CardDataError(
                f"{name} row {row} column level: expected level {expected} "
                "(40 level-1, then 30 level-2, then 20 level-3 rows)"
            )
        bonus = cardfile.choice(r[1], COLOURS)
        if bonus is None:
            raise CardDataError(f"{name} row {row} column bonus: unknown colour {r[1]!r}")
        points = cardfile.integer(name, row, "points", r[2], 0, 9)
        avengers = cardfile.integer(name, row, "avengers", r[3], 0, 3)
        time_stone = cardfile.integer(name, row, "time_stone", r[4], 0, 1)
        cost = tuple(cardfile.integer(name, row, COLOURS[c], r[5 + c], 0, 9) for c in range(5))
        if sum(cost) == 0:
            raise CardDataError(f"{name} row {row} column purple: a card must cost something")
        cards.append(
            Card(
                i,
                level,
                bonus,
                points,
                avengers,
                time_stone,
                cost,
                cardfile.name_field(name, row, r[10]),
            )
        )
    return tuple(cards)


def parse_locations(text: str, name: str = "locations.csv") -> tuple[Location, ...]:
    """Parse and validate a location file (CardDataError names the row and column)."""
    rows = cardfile.rows(text, name, LOCATION_HEADER)
    if len(rows) != NUM_LOCATIONS:
        raise CardDataError(f"{name}: expected {NUM_LOCATIONS} locations, got {len(rows)}")
    locs = []
    for i, row_ in enumerate(rows):
        row, r = row_.number, row_.fields
        tile = cardfile.integer(name, row, "tile", r[0], 1, 4)
        if tile != i // 2 + 1:
            raise CardDataError(f"{name} row {row} column tile: expected tile {i // 2 + 1}")
        if cardfile.choice(r[1], ("A", "B")) != i % 2:
            raise CardDataError(f"{name} row {row} column side: expected side {'AB'[i % 2]}")
        points = cardfile.integer(name, row, "points", r[2], 0, 9)
        req = tuple(cardfile.integer(name, row, COLOURS[c], r[3 + c], 0, 9) for c in range(5))
        if sum(req) == 0:
            raise CardDataError(f"{name} row {row} column purple: a location must require bonuses")
        place = cardfile.name_field(name, row, r[8])
        locs.append(Location(i, tile - 1, i % 2, points, req, place))
    return tuple(locs)


def _csv_field(name: str) -> str:
    """A name as a canonical CSV field: quoted only when it holds a comma or a quote."""
    if "," in name or '"' in name:
        return '"' + name.replace('"', '""') + '"'
    return name


def canonical_csv(cards: tuple[Card, ...], locations: tuple[Location, ...]) -> tuple[str, str]:
    """The canonical CSV text of a set (docs/marvel.md section 1): cards, locations."""
    c = [",".join(CARD_HEADER)]
    for card in cards:
        head = (card.level, COLOURS[card.bonus], card.points, card.avengers, card.time_stone)
        c.append(",".join(str(v) for v in (*head, *card.cost)) + "," + _csv_field(card.name))
    loc = [",".join(LOCATION_HEADER)]
    for x in locations:
        head2 = (x.tile + 1, "AB"[x.side], x.points, *x.requirement)
        loc.append(",".join(str(v) for v in head2) + "," + _csv_field(x.name))
    return "\n".join(c) + "\n", "\n".join(loc) + "\n"


def card_set_id(cards: tuple[Card, ...], locations: tuple[Location, ...]) -> str:
    """The identity of a set: SHA-256 of its canonical CSV text (64 hex digits)."""
    c, loc = canonical_csv(cards, locations)
    return hashlib.sha256((c + loc).encode("utf-8")).hexdigest()


_LIVE: weakref.WeakValueDictionary[str, MarvelData] = weakref.WeakValueDictionary()
"""Custom sets by identity, while some state uses them (the entry goes with the set)."""


@cache
def bundled_data() -> MarvelData:
    """The bundled card set (parsed once)."""
    return _parse(*_read_text(None, "cards.csv"), *_read_text(None, "locations.csv"))


def _parse(ctext: str, cname: str, ltext: str, lname: str) -> MarvelData:
    c = parse_cards(ctext, cname)
    loc = parse_locations(ltext, lname)
    return MarvelData(c, loc, card_set_id(c, loc))


def intern(data: MarvelData) -> MarvelData:
    """The one live object for this set's identity (the bundled set, or a registered one)."""
    bundled = bundled_data()
    if data.id == bundled.id:
        return bundled
    return _LIVE.setdefault(data.id, data)


def load_data(cards: object = None, locations: object = None) -> MarvelData:
    """Load a card set: None for the bundled files, else a path or the CSV text."""
    if cards is None and locations is None:
        return bundled_data()
    ctext, cname = _read_text(cards, "cards.csv")
    ltext, lname = _read_text(locations, "locations.csv")
    return intern(_parse(ctext, cname, ltext, lname))


def data_by_id(card_set: object) -> MarvelData | None:
    """The bundled set or a live set with this identity (None when there is none)."""
    bundled = bundled_data()
    if card_set == bundled.id:
        return bundled
    return _LIVE.get(card_set) if isinstance(card_set, str) else None


def live_card_sets() -> int:
    """The number of custom sets some state still uses."""
    return len(_LIVE)
