"""Splendor Duel (2 players): :class:`DuelState`, the reference engine's public
state class (format: ``docs/duel.md``), laid out room for room like ``src/variants/duel/``."""

from __future__ import annotations

import copy

import numpy as np
import numpy.typing as npt

from splendor._arguments import typed_methods
from splendor.reference.common import Outcome, check_int, dump_json, parse_json
from splendor.reference.duel import actions as A
from splendor.reference.duel.eval import heuristic
from splendor.reference.duel.explain import explain_illegal
from splendor.reference.duel.json import from_obj, to_obj
from splendor.reference.duel.observe import OBSERVATION_SIZE, determinize, observation
from splendor.reference.duel.render import render
from splendor.reference.duel.rules import DuelRules
from splendor.reference.rng import SplitMix64
from splendor.reference.surface import PUBLIC_METHODS, Surface

NUM_ACTIONS = A.NUM_ACTIONS
VARIANT = "duel"
__all__ = ["NUM_ACTIONS", "OBSERVATION_SIZE", "DuelState", "new_duel_game"]


@typed_methods(*PUBLIC_METHODS)
class DuelState(DuelRules, Surface):
    """A game of Splendor Duel. Build one with :func:`new_duel_game` or :meth:`from_json`."""

    variant = VARIANT
    num_actions = NUM_ACTIONS
    num_players = 2
    observation_size = OBSERVATION_SIZE

    # ------------------------------------------------------------- construction

    @classmethod
    def from_json(cls, text: str) -> DuelState:
        """Load and validate a full state (InvalidStateError naming the problem)."""
        state = cls.__new__(cls)
        from_obj(parse_json(text), state)
        return state

    def clone(self) -> DuelState:
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ actions

    @staticmethod
    def _action_text(a: int) -> str:
        return A.action_text(a)

    @staticmethod
    def _parse_action(text: str) -> int:
        return A.parse_action(text)

    def _explain(self, a: int) -> str:
        return explain_illegal(self, a)

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> int:
        """The seat to decide; -1 when the game is over."""
        return -1 if self.phase == "over" else self.current

    def outcome(self) -> Outcome | None:
        if self.phase != "over" or self.outcome_reason is None:
            return None
        return Outcome(self.outcome_winners, self.outcome_reason, 2)

    def heuristic(self, player: int) -> float:
        """Value in [0, 1] for ``player`` (docs/duel.md, Heuristic)."""
        return heuristic(self, self._seat(player))

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """Float32 vector of length 696 (docs/duel.md, Observation) from ``player``'s seat."""
        return observation(self, self._seat(player))

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state, or of ``player``'s view (hidden things null)."""
        viewer = None if player is None else self._seat(player)
        return dump_json(to_obj(self, viewer))

    def determinize(self, player: int, *, seed: int) -> DuelState:
        """A full state consistent with ``player``'s view (docs/duel.md, Chance).

        Per level, the opponent's blind reserves of that level and the deck are
        pooled, sorted, shuffled with ``SplitMix64(seed)`` and dealt back (reserves
        first, then the deck from the top); then the bag's chance seed is redrawn.
        """
        observer = self._seat(player)
        rng = SplitMix64(check_int(seed, "seed", 0, 2**64 - 1))
        out = self.clone()
        determinize(out, observer, rng)
        return out

    # ------------------------------------------------------------------ dunders

    def __str__(self) -> str:
        return render(self)

    def __repr__(self) -> str:
        return (
            f"<DuelState turn={self.turn} phase={self.phase}"
            f" current={self.current_player} scores={self.scores()}>"
        )


def new_duel_game(players: int = 2, seed: int = 0, turn_cap: int = 100) -> DuelState:
    """Deal a new Duel game (ConfigError on a bad player count, seed or turn cap)."""
    return DuelState.new(players, seed, turn_cap)
