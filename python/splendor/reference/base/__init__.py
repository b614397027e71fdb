"""Splendor (base game, 2-4 players): the reference engine's public state class.

The package mirrors ``src/variants/base/`` room for room (docs/contract.md, *The rooms
of a variant*): the state and its setup live in :mod:`~splendor.reference.base.state`,
the rules in :mod:`~splendor.reference.base.rules`; :class:`BaseState` adds the checked
API of docs/contract.md (Python surface), each method one call into a room. Every
method that can fail leaves the state unchanged.
"""

from __future__ import annotations

import copy

import numpy as np
import numpy.typing as npt

from splendor.errors import IllegalActionError, InvalidActionError
from splendor.reference.base import actions as A
from splendor.reference.base.eval import heuristic
from splendor.reference.base.explain import explain_illegal
from splendor.reference.base.json import from_obj, to_obj
from splendor.reference.base.observe import OBSERVATION_SIZE, determinize, observation
from splendor.reference.base.render import render
from splendor.reference.base.rules import BaseRules
from splendor.reference.common import (
    Action,
    Outcome,
    action_id,
    check_int,
    dump_json,
    id_argument,
    parse_json,
)
from splendor.reference.rng import SplitMix64

NUM_ACTIONS = A.NUM_ACTIONS
VARIANT = "base"
__all__ = ["NUM_ACTIONS", "OBSERVATION_SIZE", "BaseState", "new_base_game"]


def _action(a: int) -> Action:
    return Action(VARIANT, a, A.action_text(a))


class BaseState(BaseRules):
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

    def __copy__(self) -> BaseState:
        # A shallow copy would share the players' token lists with this state.
        return self.clone()

    # ------------------------------------------------------------------ actions

    def action_from_id(self, i: int) -> Action:
        """The Action of id ``i`` (InvalidActionError when out of range or not an int)."""
        return _action(id_argument(i, NUM_ACTIONS))

    def action_from_text(self, text: str) -> Action:
        """Parse action text (InvalidActionError naming the text on failure)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a str, not {type(text).__name__}")
        return _action(A.parse_action(text))

    def _resolve(self, a: Action | int | str) -> int:
        found = action_id(a, NUM_ACTIONS, VARIANT)
        if found is None:
            assert isinstance(a, str)
            return A.parse_action(a)
        return found

    def legal_action_ids(self) -> list[int]:
        return self.legal_ids()

    def legal_actions(self) -> list[Action]:
        return [_action(a) for a in self.legal_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[self.legal_ids()] = True
        return mask

    def apply(self, a: Action | int | str) -> None:
        """Play an action given as an Action, an id or text; the state is unchanged on error."""
        i = self._resolve(a)
        if self.phase == "over":
            raise IllegalActionError(f"the game is over; `{A.action_text(i)}` cannot be played")
        if i not in self.legal_ids():
            raise IllegalActionError(
                f"`{A.action_text(i)}` is not legal now: {explain_illegal(self, i)}"
            )
        self.apply_unchecked(i)

    def child(self, a: Action | int | str) -> BaseState:
        out = self.clone()
        out.apply(a)
        return out

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> int:
        """The seat to decide; -1 when the game is over."""
        current = self.current
        return -1 if current is None else current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        reason = self.end_reason() if self.phase == "over" else None
        if reason is None:
            return None
        winners = () if reason == "truncated" else self.winners()
        return Outcome(winners, reason, self.num_players)

    def returns(self) -> list[float]:
        outcome = self.outcome()
        return [0.0] * self.num_players if outcome is None else outcome.returns()

    def _seat(self, player: object) -> int:
        return check_int(player, "player", 0, self.num_players - 1)

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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

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
