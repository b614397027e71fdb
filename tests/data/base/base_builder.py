"""Building base-game positions for the scenario files by moving cards and tokens.

Starting from a dealt game and only moving things keeps cards and tokens conserved;
``Pos.done`` checks the result loads as a valid state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from splendor.reference import from_json, new_game
from splendor.reference.base.cards import CARDS

LETTERS = "wugrky"
TRIPLES = [
    "take wug",
    "take wur",
    "take wuk",
    "take wgr",
    "take wgk",
    "take wrk",
    "take ugr",
    "take ugk",
    "take urk",
    "take grk",
]
"""The ten take-3 actions, in id order."""

SCENARIOS: dict[str, dict[str, Any]] = {}
"""The scenarios made so far, by name (``base_scenarios.generate`` fills it)."""


def scenario(name: str, rule: str, state: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    """Add a scenario: ``state`` a full-state JSON object, ``steps`` as tests/data/README.md has."""
    if name in SCENARIOS:
        raise ValueError(f"two scenarios are named {name}")
    SCENARIOS[name] = {"name": name, "rule": rule, "state": state, "steps": steps}


def level_of(card: int) -> int:
    return CARDS[card].level - 1


def cost(card: int) -> tuple[int, ...]:
    return CARDS[card].cost


class Pos:
    """A position under construction, as the full-state JSON object."""

    def __init__(self, players: int = 2, seed: int = 0, turn_cap: int = 100) -> None:
        self.obj: dict[str, Any] = json.loads(
            new_game("base", players=players, seed=seed, turn_cap=turn_cap).to_json()
        )

    def _take_out(self, card: int) -> None:
        lv = level_of(card)
        decks, board = self.obj["decks"], self.obj["board"]
        if card in decks[lv]:
            decks[lv].remove(card)
        elif card in board[lv]:
            slot = board[lv].index(card)
            board[lv][slot] = decks[lv].pop(0) if decks[lv] else None
        else:
            raise ValueError(f"card {card} is not in a deck or on the board")

    def row(self, level: int, cards: list[int]) -> Pos:
        """Put ``cards`` face up first in row ``level`` (0-based), keeping old cards after them.

        Old cards that no longer fit go back on top of the deck.
        """
        board, deck = self.obj["board"][level], self.obj["decks"][level]
        for c in cards:
            if c in deck:
                deck.remove(c)
        old = [c for c in board if c is not None and c not in cards]
        new = (list(cards) + old)[:4]
        for c in reversed(old[4 - len(cards) :]):
            deck.insert(0, c)
        self.obj["board"][level] = new
        return self

    def top(self, level: int) -> int:
        deck: list[int] = self.obj["decks"][level]
        return deck[0]

    def give(self, seat: int, *cards: int) -> Pos:
        for c in cards:
            self._take_out(c)
            self.obj["players"][seat]["cards"].append(c)
        self.obj["players"][seat]["cards"].sort()
        return self

    def reserve(self, seat: int, card: int, hidden: bool = False) -> Pos:
        self._take_out(card)
        entry = {"card": card, "hidden": hidden, "level": level_of(card) + 1}
        self.obj["players"][seat]["reserved"].append(entry)
        return self

    def tokens(self, seat: int, spec: str) -> Pos:
        """Move tokens (one letter each, e.g. ``"wwuy"``) from the bank to ``seat``."""
        for ch in spec:
            c = LETTERS.index(ch)
            self.obj["bank"][c] -= 1
            self.obj["players"][seat]["tokens"][c] += 1
            assert self.obj["bank"][c] >= 0, spec
        return self

    def nobles(self, ids: list[int]) -> Pos:
        self.obj["nobles"] = ids
        return self

    def set(self, **fields: Any) -> Pos:
        self.obj.update(fields)
        return self

    def done(self) -> dict[str, Any]:
        obj = self.obj
        obj["deck_sizes"] = [len(d) for d in obj["decks"]]
        obj["current"] = obj["turn"] % obj["num_players"]
        from_json(json.dumps(obj))  # the position must be valid
        return obj


def cards_where(
    level: int, pred: Callable[[int], bool], exclude: tuple[int, ...] = ()
) -> list[int]:
    ids = [c.id for c in CARDS if c.level == level + 1 and c.id not in exclude]
    return [c for c in ids if pred(c)]
