"""The board model: what one viewer may see of a game, in one shape for every variant.

A :class:`Board` is built by :mod:`splendor.render.build` from a state's JSON *view*
(``state.to_json(viewer)``) and the bundled card tables, never from hidden
information, and every picture of a game (the text board, an SVG board, a web
page) is drawn from it. So a renderer cannot show what the viewer cannot see:
the information is not in its input.

The vocabulary is the same for every variant:

* a **seat** is one player's place at the table, numbered from 0 (seat 0 plays first);
* a **turn** is one seat's go; a **round** is one turn for every seat (base and
  Marvel end at the end of a round; Duel has no rounds);
* a **card label** is the text a player types to name it: ``2.3`` is level 2,
  slot 3 (``buy 2.3``), ``R1`` the first card in one's reserve (``buy reserved 1``);
* a **token** is a coin a player holds; a **bonus** is the permanent discount a
  bought card gives (one per card, in its colour).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final


class Public:
    """The type of :data:`PUBLIC`: a viewer who sees only public information."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "render.PUBLIC"


PUBLIC: Final = Public()
"""A spectator of a game in play: sees only public information (no seat's blind reserves,
no decks). Pass it wherever a viewer goes: ``board_of(state, PUBLIC)``, ``svg_board``,
``text_board``."""

Viewer = int | Public | None
"""Whose information a board shows: a seat, :data:`PUBLIC`, or None (every card)."""


@dataclass(frozen=True)
class TokenKind:
    """One kind of token in a variant: its letter, its name and what it does."""

    letter: str
    name: str
    note: str = ""


@dataclass(frozen=True)
class Count:
    """How many of one token kind (or one bonus colour): ``letter`` and ``n``."""

    letter: str
    n: int


@dataclass(frozen=True)
class Card:
    """A card's printed face (everything on it that matters for play).

    Attributes:
        id: The public card id (the row of the variant's card table).
        level: 1, 2 or 3.
        colour: The bonus colour's letter, or ``""`` for a card without one
            (a Duel joker or a Duel card with no bonus).
        bonus: Bonuses the card gives in its colour (1; Duel: 0, 1 or 2).
        joker: Duel's wild card: its bonus joins the colour of one of the
            owner's cards.
        points: Prestige / victory points (Marvel: Infinity points).
        cost: The price, nonzero token kinds in the variant's order.
        crowns: Duel crowns.
        abilities: Duel abilities (``again``, ``token``, ``steal``,
            ``privilege``), in the card table's order.
        name: Marvel: the character's name.
        avengers: Marvel: Avengers icons on the card.
        time_stone: Marvel: the card carries the Time stone (its recruiter
            takes the green token).
    """

    id: int
    level: int
    colour: str
    bonus: int
    joker: bool
    points: int
    cost: tuple[Count, ...]
    crowns: int = 0
    abilities: tuple[str, ...] = ()
    name: str = ""
    avengers: int = 0
    time_stone: bool = False


@dataclass(frozen=True)
class Slot:
    """A place that holds one card: a display slot or a reserve slot.

    Attributes:
        label: What the player types to name it (``2.3``, ``R1``).
        level: The card's level (known even when the card is face down).
        card: The face, or None when the slot is empty or the card is
            hidden from this viewer.
        hidden: The card is face down for this viewer (an opponent's
            blind reserve): only its level is known.
        blind: The card was reserved blind from a deck (its owner and a
            spectator see it; the other seats do not).
    """

    label: str
    level: int
    card: Card | None
    hidden: bool = False
    blind: bool = False


@dataclass(frozen=True)
class CardRow:
    """One level of the display: its deck and its face-up slots (level 3 first on a board)."""

    level: int
    deck: int
    slots: tuple[Slot, ...]


@dataclass(frozen=True)
class Tile:
    """A noble (base), a location (Marvel) or a royal card (Duel).

    Attributes:
        kind: ``"noble"``, ``"location"`` or ``"royal"``.
        id: Its public id, as in the action text (``noble 4``, ``royal 2``).
        label: What the player types to name it in an action.
        name: Marvel locations' names; empty otherwise.
        points: Points it is worth.
        requires: Bonuses needed to claim it (nobles, locations).
        abilities: A royal's ability.
    """

    kind: str
    id: int
    label: str
    name: str
    points: int
    requires: tuple[Count, ...] = ()
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stat:
    """One figure about a seat: ``key`` is stable (for a picture), ``label`` readable.

    ``target`` is the figure that wins or matters (20 points, 10 crowns, 10
    tokens), or None. A ``flag`` is a yes/no figure (``value`` 0 or 1), shown by
    its label when set.
    """

    key: str
    label: str
    value: int
    target: int | None = None
    flag: bool = False


@dataclass(frozen=True)
class Seat:
    """What the viewer may see of one seat.

    Attributes:
        index: The seat number.
        is_viewer: This is the viewer's own seat.
        to_play: This seat decides now.
        points: Current points (the score).
        tokens: Every token kind, held counts (zeros included).
        bonuses: Bonuses per card colour (zeros included).
        cards: Number of cards bought.
        reserved: The reserve, in reserve order (labels ``R1``...).
        tiles: Nobles, locations or royals owned.
        stats: Further figures (crowns, privileges, icons, ...), in display order.
        tokens_total: Tokens held (the limit is 10 at the end of a turn).
    """

    index: int
    is_viewer: bool
    to_play: bool
    points: int
    tokens: tuple[Count, ...]
    bonuses: tuple[Count, ...]
    cards: int
    reserved: tuple[Slot, ...]
    tiles: tuple[Tile, ...]
    stats: tuple[Stat, ...] = ()

    @property
    def tokens_total(self) -> int:
        return sum(c.n for c in self.tokens)


@dataclass(frozen=True)
class Result:
    """How a finished game ended: the winning seats and why."""

    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class Board:
    """Everything one viewer may see of a game, variant-neutral.

    Attributes:
        variant: ``"base"``, ``"duel"`` or ``"marvel"``.
        title: The game's name.
        viewer: The seat whose view this is; None for a spectator: one who
            sees every card (the full state), or, when ``public`` is set, one who
            sees only public information.
        public: This is the public view (``render.PUBLIC``): every seat's blind
            reserves face down, the decks hidden, as a spectator sees a game in play.
        num_players: Number of seats.
        turn: The current turn, counted from 1 (the last turn once over).
        round: The current round (base, Marvel); None in Duel.
        to_play: The seat to decide, None once over.
        phase: The state's phase name (``main``, ``pay``, ...).
        task: What the seat to play must decide now, in words.
        goal: How the variant is won, in words.
        kinds: The token kinds, in the variant's order.
        bank: Tokens in the bank (base, Marvel); empty in Duel.
        grid: Duel's token board, 5 rows of 5 letters (``""`` = empty cell).
        bag: Duel's bag, per token kind.
        rows: The card display, level 3 first.
        tiles: Nobles / locations / royals still to be claimed.
        tiles_title: What the tiles are (``nobles``, ``royals``, ``locations``).
        tiles_note: How a tile is claimed, in words.
        seats: Every seat.
        pending: The card being paid for or resolved, when there is one.
        supply: Further shared things (Duel privileges, Marvel's Avengers tile).
        result: Set once the game is over.
        legend: Lines explaining the letters and symbols.
    """

    variant: str
    title: str
    viewer: int | None
    num_players: int
    turn: int
    round: int | None
    to_play: int | None
    phase: str
    task: str
    goal: str
    kinds: tuple[TokenKind, ...]
    bank: tuple[Count, ...]
    rows: tuple[CardRow, ...]
    tiles: tuple[Tile, ...]
    tiles_title: str
    tiles_note: str
    seats: tuple[Seat, ...]
    legend: tuple[str, ...]
    grid: tuple[tuple[str, ...], ...] = ()
    bag: tuple[Count, ...] = ()
    pending: Slot | None = None
    supply: tuple[Stat, ...] = field(default_factory=tuple)
    result: Result | None = None
    public: bool = False

    def visible_cards(self) -> list[Card]:
        """Every card face on this board (display, reserves, pending)."""
        slots = [s for row in self.rows for s in row.slots]
        slots += [s for seat in self.seats for s in seat.reserved]
        if self.pending is not None:
            slots.append(self.pending)
        return [s.card for s in slots if s.card is not None]
