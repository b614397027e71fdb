"""Splendor: Marvel, the reference engine (the executable specification).

Format: ``docs/marvel.md``; rules: ``docs/rules/marvel.md``. Written for clarity, not
speed: the Rust engine is checked against it move for move. :class:`MarvelState` is laid
out room for room like ``src/variants/marvel/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from splendor._arguments import typed_methods
from splendor.reference.common import check_int, dump_json, load_json, parse_json
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import (
    COLOURS,
    bundled_data,
    data_by_id,
    intern,
    load_data,
)
from splendor.reference.marvel.eval import heuristic
from splendor.reference.marvel.explain import explain_illegal
from splendor.reference.marvel.json import from_obj, to_obj
from splendor.reference.marvel.observe import OBSERVATION_SIZE, determinize, observation
from splendor.reference.marvel.render import render
from splendor.reference.marvel.rules import MarvelRules
from splendor.reference.marvel.state import PlayerState, Reserve
from splendor.reference.rng import SplitMix64
from splendor.reference.surface import PUBLIC_METHODS, Surface


@typed_methods(*PUBLIC_METHODS)
class MarvelState(MarvelRules, Surface):
    """A Splendor: Marvel game state (full information; views via ``to_json``)."""

    variant = "marvel"
    num_actions = A.NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    @property
    def current_player(self) -> int:
        """The seat to decide, -1 when the game is over."""
        return -1 if self.phase == "over" else self.current

    @staticmethod
    def _action_text(a: int) -> str:
        return A.ALL_TEXT[a]

    @staticmethod
    def _parse_action(text: str) -> int:
        return A.parse_action(text)

    def _explain(self, a: int) -> str:
        return explain_illegal(self, a)

    def clone(self) -> MarvelState:
        """A deep copy (the card data is shared: it is immutable)."""
        c = object.__new__(MarvelState)
        c.__dict__.update(self.__dict__)
        c.bank = list(self.bank)
        c.board = [list(r) for r in self.board]
        c.decks = [list(d) for d in self.decks]
        c.locations = list(self.locations)
        c.players = [
            PlayerState(
                list(p.tokens),
                list(p.cards),
                list(p.locations),
                [Reserve(r.card, r.hidden) for r in p.reserved],
            )
            for p in self.players
        ]
        return c

    def __deepcopy__(self, memo: dict[int, Any]) -> MarvelState:
        return self.clone()

    def heuristic(self, player: int) -> float:
        """A value in [0, 1] for ``player`` (docs/marvel.md section 8)."""
        return heuristic(self, self._seat(player))

    # ----- hidden information -----------------------------------------------

    def determinize(self, player: int, *, seed: int) -> MarvelState:
        """A full state consistent with ``player``'s view (contract: sorted pools)."""
        seat = self._seat(player)
        rng = SplitMix64(check_int(seed, "seed", 0, 2**64 - 1))
        out = self.clone()
        determinize(out, seat, rng)
        return out

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``player`` (docs/marvel.md section 6)."""
        return observation(self, self._seat(player))

    # ----- JSON ---------------------------------------------------------------

    def to_obj(self, player: int | None = None) -> dict[str, Any]:
        """The JSON object of the full state or of ``player``'s view."""
        if player is not None:
            player = self._seat(player)
        return to_obj(self, player)

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state (or of ``player``'s view)."""
        return dump_json(self.to_obj(player))

    @classmethod
    def from_json(
        cls,
        text: str,
        *,
        cards: str | Path | None = None,
        locations: str | Path | None = None,
    ) -> MarvelState:
        """Load and validate a full-state JSON (InvalidStateError when corrupt)."""
        obj = parse_json(text)
        if cards is None and locations is None:
            # An unknown identity: validation against the bundled set names it.
            data = data_by_id(obj.get("card_set")) or bundled_data()
        else:
            data = load_data(cards, locations)
        state = cls.__new__(cls)
        from_obj(obj, data, state)
        return state

    # ----- Python protocol ------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {"json": self.to_json(), "data": self.data}

    def __setstate__(self, st: dict[str, Any]) -> None:
        # Registered again, so that from_json finds the set in this process too.
        from_obj(load_json(st["json"]), intern(st["data"]), self)

    def __repr__(self) -> str:
        return (
            f"<MarvelState players={self.num_players} turn={self.turn} phase={self.phase} "
            f"current={self.current_player} scores={self.scores()}>"
        )

    def __str__(self) -> str:
        return render(self)


def new_game(
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: str | Path | None = None,
    locations: str | Path | None = None,
) -> MarvelState:
    """Deal a Marvel game; ``cards``/``locations`` may name corrected files."""
    return MarvelState(players, seed, turn_cap, load_data(cards, locations))


new_marvel_game = new_game


def from_json(
    text: str, *, cards: str | Path | None = None, locations: str | Path | None = None
) -> MarvelState:
    """Load a Marvel state from its full JSON."""
    return MarvelState.from_json(text, cards=cards, locations=locations)


__all__ = [
    "COLOURS",
    "OBSERVATION_SIZE",
    "MarvelState",
    "from_json",
    "new_game",
    "new_marvel_game",
]
