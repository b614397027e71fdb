"""Splendor (base game, 2-4 players): :class:`BaseState`, the reference engine's public
state class (format: ``docs/base.md``), laid out room for room like ``src/variants/base/``."""

from __future__ import annotations

import copy

import numpy as np
import numpy.typing as npt

from splendor._arguments import typed_methods
from splendor.reference.base import actions as A
from splendor.reference.base.eval import heuristic
from splendor.reference.base.explain import explain_illegal
from splendor.reference.base.json import from_obj, to_obj
from splendor.reference.base.observe import OBSERVATION_SIZE, determinize, observation
from splendor.reference.base.render import render
from splendor.reference.base.rules import BaseRules
from splendor.reference.common import Outcome, check_int, dump_json, parse_json
from splendor.reference.rng import SplitMix64
from splendor.reference.surface import PUBLIC_METHODS, Surface

NUM_ACTIONS = A.NUM_ACTIONS
VARIANT = "base"
__all__ = ["NUM_ACTIONS", "OBSERVATION_SIZE", "BaseState", "new_base_game"]


@typed_methods(*PUBLIC_METHODS)
class BaseState(BaseRules, Surface):
    """A game of Splendor (base). Build one with :func:`new_base_game` or :meth:`from_json`."""

    variant = VARIANT
    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    # ------------------------------------------------------------- construction

    @classmethod
    def from_json(cls, text: str) -> BaseState:
        """Load and validate a full state (InvalidStateError naming the problem)."""
        state = cls.__new__(cls)
        from_obj(parse_json(text), state)
        return state

    def clone(self) -> BaseState:
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
        current = self.current
        return -1 if current is None else current

    def outcome(self) -> Outcome | None:
        reason = self.end_reason() if self.phase == "over" else None
        if reason is None:
            return None
        winners = () if reason == "truncated" else self.winners()
        return Outcome(winners, reason, self.num_players)

    def heuristic(self, player: int) -> float:
        """Value in [0, 1] of the position for ``player`` (docs/base.md, Heuristic)."""
        seat = self._seat(player)
        outcome = self.outcome()
        return heuristic(self, seat, None if outcome is None else outcome.returns())

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """Float32 vector of length 432 (docs/base.md, Observation) from ``player``'s seat."""
        return observation(self, self._seat(player))

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state, or of ``player``'s view (hidden cards null)."""
        viewer = None if player is None else self._seat(player)
        return dump_json(to_obj(self, viewer))

    def determinize(self, player: int, *, seed: int) -> BaseState:
        """A full state consistent with ``player``'s view, unseen cards resampled.

        Per level (1, 2, 3 in order), the pool of the deck and the opponents' hidden
        reserves of that level is sorted, shuffled with ``SplitMix64(seed)``, and
        dealt back: opponents' hidden reserves (seat ascending, reserve order), then
        the deck from the top (docs/contract.md, Randomness).
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
            f"<BaseState players={self.num_players} turn={self.turn} phase={self.phase}"
            f" current={self.current_player} scores={self.scores()}>"
        )


def new_base_game(players: int = 2, seed: int = 0, turn_cap: int = 100) -> BaseState:
    """Deal a new base game (ConfigError on a bad player count, seed or turn cap)."""
    return BaseState.new(players, seed, turn_cap)
