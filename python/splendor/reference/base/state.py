"""The state of a base game on a plain, readable object (docs/base.md, Setup).

:class:`BaseCore` holds the state: its fields, setup (the exact order of the draws) and
what is read off it directly. :class:`~splendor.reference.base.rules.BaseRules` adds the
rules on top, and the public class :class:`splendor.reference.base.BaseState` the checked
API of docs/contract.md (Python surface).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from splendor.reference.base.cards import CARDS, LEVEL_IDS, NOBLES, NUM_LEVELS, SLOTS
from splendor.reference.common import check_int
from splendor.reference.rng import SplitMix64

TOKEN_LIMIT = 10
WINNING_POINTS = 15
MAX_RESERVED = 3
PHASES = ("main", "pay", "return", "noble", "over")
GEMS_PER_COLOUR = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
MAX_TURN_CAP = 1_000_000

_State = TypeVar("_State", bound="BaseCore")


@dataclass
class Reserve:
    """A reserved card; ``hidden`` when it was reserved blind from a deck."""

    card: int
    hidden: bool

    @property
    def level(self) -> int:
        return CARDS[self.card].level


@dataclass
class PlayerState:
    """One seat: tokens (5 colours + gold), bought cards, claimed nobles, reserves."""

    tokens: list[int] = field(default_factory=lambda: [0] * 6)
    cards: list[int] = field(default_factory=list)
    nobles: list[int] = field(default_factory=list)
    reserved: list[Reserve] = field(default_factory=list)

    def bonuses(self) -> list[int]:
        """Bonus per colour: the number of bought cards of that colour."""
        out = [0] * 5
        for c in self.cards:
            out[CARDS[c].bonus] += 1
        return out

    def points(self) -> int:
        return sum(CARDS[c].points for c in self.cards) + sum(NOBLES[n].points for n in self.nobles)

    def num_tokens(self) -> int:
        return sum(self.tokens)


class BaseCore:
    """The full state of a base game (no input checking here)."""

    num_players: int
    turn_cap: int
    turn: int
    passes: int
    phase: str
    pending: int | None
    bank: list[int]
    board: list[list[int | None]]
    decks: list[list[int]]
    nobles: list[int]
    players: list[PlayerState]

    # -------------------------------------------------------------------- setup

    @classmethod
    def new(cls: type[_State], players: int = 2, seed: int = 0, turn_cap: int = 100) -> _State:
        """Deal a new game exactly as docs/base.md (Setup) orders the draws."""
        n = check_int(players, "players", 2, 4)
        seed = check_int(seed, "seed", 0, 2**64 - 1)
        turn_cap = check_int(turn_cap, "turn_cap", 1, MAX_TURN_CAP)
        rng = SplitMix64(seed)
        decks = []
        for level in range(NUM_LEVELS):
            deck = list(LEVEL_IDS[level])
            rng.shuffle(deck)
            decks.append(deck)
        nobles = list(range(len(NOBLES)))
        rng.shuffle(nobles)
        state = cls.__new__(cls)
        state.num_players, state.turn_cap, state.turn, state.passes = n, turn_cap, 0, 0
        state.phase, state.pending = "main", None
        state.board = [list[int | None](deck[:SLOTS]) for deck in decks]
        state.decks = [deck[SLOTS:] for deck in decks]
        state.nobles = nobles[: n + 1]
        state.bank = [GEMS_PER_COLOUR[n]] * 5 + [GOLD_TOKENS]
        state.players = [PlayerState() for _ in range(n)]
        return state

    # ----------------------------------------------------------------- queries

    @property
    def current(self) -> int | None:
        """The seat to decide, None when the game is over."""
        return None if self.phase == "over" else self.turn % self.num_players

    def mover(self) -> PlayerState:
        return self.players[self.turn % self.num_players]

    def scores(self) -> list[int]:
        return [p.points() for p in self.players]

    def _draw(self, level: int) -> int | None:
        deck = self.decks[level]
        return deck.pop(0) if deck else None
