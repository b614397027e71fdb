"""The state of a Splendor Duel game on a plain, readable object (docs/duel.md, Setup).

:class:`DuelCore` holds the state: its fields, setup (the exact order of the draws) and
what is read off it directly. :class:`~splendor.reference.duel.rules.DuelRules` adds the
rules on top, and the public class :class:`splendor.reference.duel.DuelState` the checked
API of docs/contract.md (Python surface).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from splendor.errors import ConfigError
from splendor.reference.common import check_int
from splendor.reference.duel.board import SPIRAL
from splendor.reference.duel.cards import (
    CARDS,
    LEVEL_IDS,
    NONE_BONUS,
    ROYALS,
    SLOT_OFFSET,
    SLOTS,
    TOKEN_TOTALS,
    WILD,
)
from splendor.reference.rng import SplitMix64

TOKEN_LIMIT = 10
MAX_RESERVED = 3
PHASES = ("main", "reserve", "pay", "joker", "token", "steal", "royal", "discard", "over")
PURCHASE_PHASES = ("joker", "token", "steal", "royal")
MAX_TURN_CAP = 1_000_000

_State = TypeVar("_State", bound="DuelCore")


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
    """One seat: tokens (w u g r k p y), privileges, cards, joker placements, reserves, royals."""

    tokens: list[int] = field(default_factory=lambda: [0] * 7)
    privileges: int = 0
    cards: set[int] = field(default_factory=set)
    jokers: dict[int, int] = field(default_factory=dict)
    reserved: list[Reserve] = field(default_factory=list)
    royals: set[int] = field(default_factory=set)

    def real_colours(self) -> set[int]:
        """Colours of the cards with a real (non-joker) colour bonus."""
        return {CARDS[c].bonus for c in self.cards if CARDS[c].bonus < WILD}

    def bonuses(self) -> list[int]:
        """Bonus per colour: real cards (doubles count 2) plus placed jokers."""
        out = [0] * 5
        for c in self.cards:
            if CARDS[c].bonus < WILD:
                out[CARDS[c].bonus] += CARDS[c].bonus_count
        for colour in self.jokers.values():
            out[colour] += 1
        return out

    def colour_points(self) -> list[int]:
        """Points per colour: its coloured cards plus the jokers placed on it."""
        out = [0] * 5
        for c in self.cards:
            if CARDS[c].bonus < WILD:
                out[CARDS[c].bonus] += CARDS[c].points
        for c, colour in self.jokers.items():
            out[colour] += CARDS[c].points
        return out

    def points(self) -> int:
        return sum(CARDS[c].points for c in self.cards) + sum(ROYALS[r].points for r in self.royals)

    def crowns(self) -> int:
        return sum(CARDS[c].crowns for c in self.cards)


def thresholds(crowns: int) -> int:
    """How many of the royal thresholds (3 and 6 crowns) ``crowns`` has reached."""
    return int(crowns >= 3) + int(crowns >= 6)


class DuelCore:
    """The state. Fields mirror the JSON of docs/duel.md."""

    board: list[int | None]
    bag: list[int]
    chance: int
    decks: list[list[int]]
    pyramid: list[list[int | None]]
    players: list[PlayerState]
    royals: set[int]
    turn: int
    turn_cap: int
    current: int
    phase: str
    pending_buy: int | None
    pending_card: int | None
    royals_due: int
    again: bool
    replenished: bool
    outcome_reason: str | None
    outcome_winners: tuple[int, ...]

    # -------------------------------------------------------------------- setup

    @classmethod
    def new(cls: type[_State], players: int = 2, seed: int = 0, turn_cap: int = 100) -> _State:
        """Deal a new game exactly as docs/duel.md (Setup) orders the draws."""
        if players != 2 or isinstance(players, bool):
            raise ConfigError(f"Splendor Duel is for exactly 2 players, not {players!r}")
        seed = check_int(seed, "seed", 0, 2**64 - 1)
        turn_cap = check_int(turn_cap, "turn_cap", 1, MAX_TURN_CAP)
        rng = SplitMix64(seed)
        decks = []
        for level in range(3):
            deck = list(LEVEL_IDS[level])
            rng.shuffle(deck)
            decks.append(deck)
        bag = [k for k in range(7) for _ in range(TOKEN_TOTALS[k])]
        rng.shuffle(bag)
        s = cls.__new__(cls)
        s.board = [None] * 25
        for i, k in enumerate(bag):
            s.board[SPIRAL[i]] = k
        s.chance = rng.next_u64()
        s.bag = [0] * 7
        s.pyramid = [list[int | None](decks[lv][: SLOTS[lv]]) for lv in range(3)]
        s.decks = [decks[lv][SLOTS[lv] :] for lv in range(3)]
        s.players = [PlayerState(), PlayerState(privileges=1)]
        s.royals = {0, 1, 2, 3}
        s.turn, s.turn_cap, s.current, s.phase = 0, turn_cap, 0, "main"
        s.pending_buy, s.pending_card, s.royals_due = None, None, 0
        s.again, s.replenished = False, False
        s.outcome_reason, s.outcome_winners = None, ()
        return s

    # ---------------------------------------------------------------- helpers

    def supply(self) -> int:
        return 3 - self.players[0].privileges - self.players[1].privileges

    def gain_privilege(self, p: int) -> None:
        """From the supply if it has one, else from the opponent; nothing at 3."""
        if self.players[p].privileges == 3:
            return
        if self.supply() == 0:
            self.players[1 - p].privileges -= 1
        self.players[p].privileges += 1

    def slot_card(self, slot: int) -> int | None:
        level = 0 if slot < 5 else (1 if slot < 9 else 2)
        return self.pyramid[level][slot - SLOT_OFFSET[level]]

    def refill_board(self) -> None:
        """Replenish: shuffle the bag with the chance generator, fill the spiral's empty cells."""
        tokens = [k for k in range(7) for _ in range(self.bag[k])]
        rng = SplitMix64(self.chance)
        rng.shuffle(tokens)
        empty = [c for c in SPIRAL if self.board[c] is None]
        for cell, k in zip(empty, tokens, strict=False):
            self.board[cell] = k
            self.bag[k] -= 1
        self.chance = rng.next_u64()

    def draw(self, level: int) -> int | None:
        return self.decks[level].pop(0) if self.decks[level] else None

    def scores(self) -> list[int]:
        return [pl.points() for pl in self.players]


assert NONE_BONUS == 6
