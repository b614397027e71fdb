"""The state of a Marvel game on a plain, readable object (docs/marvel.md sections 2 and 5).

:class:`MarvelCore` holds the state: its fields, setup (the exact order of the draws,
docs/marvel.md section 2) and the values derived from it. :class:`~splendor.reference.
marvel.rules.MarvelRules` adds the rules on top, and the public class
:class:`splendor.reference.marvel.MarvelState` the checked API of docs/contract.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from splendor.reference.common import check_int
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import MarvelData, load_data
from splendor.reference.rng import SplitMix64

STONES_PER_PLAYERS = {2: 4, 3: 5, 4: 7}
GREY_SUPPLY = 5
TOKEN_LIMIT = 10
MAX_RESERVED = 3
GAUNTLET_POINTS = 16
AVENGERS_ICONS = 3
AVENGERS_POINTS = 3
PHASES = ("main", "pay", "return", "location", "over")


@dataclass
class Reserve:
    """A reserved card; ``hidden`` when reserved blind from a deck."""

    card: int
    hidden: bool


@dataclass
class PlayerState:
    """One seat's tokens, recruited cards, locations and reserves."""

    tokens: list[int] = field(default_factory=lambda: [0] * 7)
    cards: list[int] = field(default_factory=list)
    locations: list[int] = field(default_factory=list)
    reserved: list[Reserve] = field(default_factory=list)


class MarvelCore:
    """A Splendor: Marvel game state (full information; no input checking here)."""

    data: MarvelData
    num_players: int
    turn_cap: int
    turn: int
    passes: int
    phase: str
    current: int
    pending: int | None
    bank: list[int]
    board: list[list[int | None]]
    decks: list[list[int]]
    locations: list[int]
    avengers: int | None
    players: list[PlayerState]

    def __init__(
        self,
        players: int = 2,
        seed: int = 0,
        turn_cap: int = 100,
        data: MarvelData | None = None,
    ) -> None:
        players = check_int(players, "players", 2, 4)
        seed = check_int(seed, "seed", 0, 2**64 - 1)
        turn_cap = check_int(turn_cap, "turn_cap", 1, 10000)
        self.data = data if data is not None else load_data()
        self.num_players = players
        self.turn_cap = turn_cap
        rng = SplitMix64(seed)
        decks: list[list[int]] = []
        for level in (1, 2, 3):
            deck = [c.id for c in self.data.cards if c.level == level]
            rng.shuffle(deck)
            decks.append(deck)
        tiles = [0, 1, 2, 3]
        rng.shuffle(tiles)
        self.locations = sorted(2 * t + rng.below(2) for t in tiles[:players])
        self.board = [list[int | None](d[:4]) for d in decks]
        self.decks = [d[4:] for d in decks]
        stones = STONES_PER_PLAYERS[players]
        self.bank = [stones] * 5 + [GREY_SUPPLY, players]
        self.players = [PlayerState() for _ in range(players)]
        self.avengers = None
        self.turn = 0
        self.passes = 0
        self.phase = "main"
        self.current = 0
        self.pending = None

    # ----- derived values -------------------------------------------------

    def bonuses(self, p: int) -> list[int]:
        """Recruited cards per colour."""
        out = [0] * 5
        for c in self.players[p].cards:
            out[self.data.cards[c].bonus] += 1
        return out

    def icons(self, p: int) -> int:
        """Avengers icons on recruited cards."""
        return sum(self.data.cards[c].avengers for c in self.players[p].cards)

    def points(self, p: int) -> int:
        """Infinity points: cards, locations and the Avengers tile."""
        pl = self.players[p]
        pts = sum(self.data.cards[c].points for c in pl.cards)
        pts += sum(self.data.locations[loc].points for loc in pl.locations)
        return pts + (AVENGERS_POINTS if self.avengers == p else 0)

    def meets_gauntlet(self, p: int) -> bool:
        """16 points, a bonus of every colour and the green token."""
        return (
            self.points(p) >= GAUNTLET_POINTS
            and min(self.bonuses(p)) >= 1
            and self.players[p].tokens[A.GREEN] == 1
        )

    def scores(self) -> list[int]:
        """Infinity points of every seat."""
        return [self.points(p) for p in range(self.num_players)]
