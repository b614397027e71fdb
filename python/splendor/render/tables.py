"""Printed faces of the cards and tiles, keyed by their public ids.

The faces come from the bundled card tables (``splendor/data/<variant>/*.csv``,
read by the reference engine's data modules, the single reading of those
files); a Marvel game on a custom card set looks its set up by the view's
``card_set`` field. Nothing here reads a game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from splendor.errors import InvalidStateError
from splendor.reference.base import cards as base_cards
from splendor.reference.duel import cards as duel_cards
from splendor.reference.marvel import cards as marvel_cards
from splendor.render.model import Card, Count, Tile, TokenKind

BASE_KINDS = (
    TokenKind("w", "white"),
    TokenKind("u", "blue"),
    TokenKind("g", "green"),
    TokenKind("r", "red"),
    TokenKind("k", "black"),
    TokenKind("y", "gold", "wild, comes with a reserve"),
)
DUEL_KINDS = (
    TokenKind("w", "white"),
    TokenKind("u", "blue"),
    TokenKind("g", "green"),
    TokenKind("r", "red"),
    TokenKind("k", "black"),
    TokenKind("p", "pearl", "no card gives it"),
    TokenKind("y", "gold", "wild, taken to reserve"),
)
MARVEL_KINDS = (
    TokenKind("p", "purple"),
    TokenKind("b", "blue"),
    TokenKind("r", "red"),
    TokenKind("o", "orange"),
    TokenKind("y", "yellow"),
    TokenKind("s", "grey", "S.H.I.E.L.D., wild, comes with a reserve"),
    TokenKind("t", "green", "Time stone, needed to win"),
)
KINDS = {"base": BASE_KINDS, "duel": DUEL_KINDS, "marvel": MARVEL_KINDS}
"""Token kinds of each variant, in the order of the JSON's token arrays."""


def counts(
    letters: str, values: tuple[int, ...] | list[int], *, nonzero: bool
) -> tuple[Count, ...]:
    """``Count``s pairing ``letters`` with ``values`` (only the nonzero ones if asked)."""
    return tuple(
        Count(letter, n) for letter, n in zip(letters, values, strict=False) if n or not nonzero
    )


@cache
def base_card(card_id: int) -> Card:
    """The face of base card ``card_id``."""
    c = base_cards.CARDS[card_id]
    return Card(
        id=c.id,
        level=c.level,
        colour=base_cards.LETTERS[c.bonus],
        bonus=1,
        joker=False,
        points=c.points,
        cost=counts(base_cards.LETTERS, c.cost, nonzero=True),
    )


@cache
def base_noble(noble_id: int) -> Tile:
    """The face of noble ``noble_id``."""
    n = base_cards.NOBLES[noble_id]
    return Tile(
        "noble",
        n.id,
        f"noble {n.id}",
        "",
        n.points,
        counts(base_cards.LETTERS.upper(), n.req, nonzero=True),
    )


@cache
def duel_card(card_id: int) -> Card:
    """The face of Duel card ``card_id``."""
    c = duel_cards.CARDS[card_id]
    coloured = c.bonus < len(duel_cards.COLOURS)
    return Card(
        id=c.id,
        level=c.level,
        colour="wugrk"[c.bonus] if coloured else "",
        bonus=c.bonus_count,
        joker=c.bonus == duel_cards.WILD,
        points=c.points,
        cost=counts(duel_cards.KINDS, c.cost, nonzero=True),
        crowns=c.crowns,
        abilities=tuple(a for a in c.abilities if a != "wild"),
    )


@cache
def duel_royal(royal_id: int) -> Tile:
    """The face of royal ``royal_id``."""
    r = duel_cards.ROYALS[royal_id]
    return Tile("royal", r.id, f"royal {r.id}", "", r.points, (), r.abilities)


@dataclass(frozen=True)
class MarvelFaces:
    """The faces of one Marvel card set, by id."""

    cards: tuple[Card, ...]
    locations: tuple[Tile, ...]


_MARVEL_FACES: dict[object, MarvelFaces] = {}


def marvel_set(card_set: object) -> MarvelFaces:
    """The faces of the Marvel card set a view names (the bundled one or one loaded
    in this process).

    Raises:
        InvalidStateError: No loaded card set has that identity.
    """
    hit = _MARVEL_FACES.get(card_set)
    if hit is not None:
        return hit
    data = marvel_cards.data_by_id(card_set)
    if data is None:
        raise InvalidStateError(
            f"card_set {card_set!r} is not a Marvel card set loaded in this process:"
            " load it with MarvelState.from_json(text, cards=..., locations=...) first"
        )
    faces = MarvelFaces(
        tuple(_marvel_card(c) for c in data.cards),
        tuple(_marvel_location(loc) for loc in data.locations),
    )
    if len(_MARVEL_FACES) < 64:  # bounded: custom sets are few
        _MARVEL_FACES[card_set] = faces
    return faces


def _marvel_card(c: marvel_cards.Card) -> Card:
    return Card(
        id=c.id,
        level=c.level,
        colour=marvel_cards.LETTERS[c.bonus],
        bonus=1,
        joker=False,
        points=c.points,
        cost=counts(marvel_cards.LETTERS, c.cost, nonzero=True),
        name=c.name,
        avengers=c.avengers,
        time_stone=bool(c.time_stone),
    )


def _marvel_location(loc: marvel_cards.Location) -> Tile:
    return Tile(
        "location",
        loc.id,
        f"location {loc.id}",
        loc.name,
        loc.points,
        counts(marvel_cards.LETTERS.upper(), loc.requirement, nonzero=True),
    )
