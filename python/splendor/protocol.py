"""The state interface both engines implement (``splendor`` and ``splendor.reference``).

Code written against :class:`GameState` (the CLI, the tests, bots written in Python) runs on either
engine and every variant.
"""

from __future__ import annotations

from typing import Any, Protocol, SupportsIndex, runtime_checkable

import numpy as np
import numpy.typing as npt


@runtime_checkable
class ActionLike(Protocol):
    """An action of either engine: an id with a text form."""

    @property
    def variant(self) -> str:
        """The variant the action belongs to."""

    @property
    def id(self) -> int:
        """The stable integer id."""

    def __int__(self) -> int: ...

    def __index__(self) -> int: ...


@runtime_checkable
class OutcomeLike(Protocol):
    """The result of a finished game."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats, ascending (several: shared; none: truncated)."""

    @property
    def reason(self) -> str:
        """``points``, ``crowns``, ``colour``, ``gauntlet``, ``stalled`` or ``truncated``."""

    @property
    def truncated(self) -> bool:
        """True when the turn cap ended the game."""

    @property
    def stalled(self) -> bool:
        """True when every player had to pass for a full round."""

    def returns(self) -> list[float]:
        """``1/k`` to each of ``k`` winners, 0 to everyone else."""


ActionArg = ActionLike | SupportsIndex | str
"""What ``apply`` and ``child`` accept: an action, an int id or text."""


@runtime_checkable
class GameState(Protocol):
    """One game position of any variant, on either engine."""

    @property
    def current_player(self) -> int:
        """The seat to decide; -1 once the game is over."""

    @property
    def num_players(self) -> int:
        """Number of seats."""

    @property
    def num_actions(self) -> int:
        """Size of the variant's action space (ids are ``0..num_actions``)."""

    @property
    def variant(self) -> str:
        """``"base"``, ``"duel"`` or ``"marvel"``."""

    def legal_actions(self) -> list[Any]:
        """The legal actions, ascending by id."""

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, ascending."""

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of length ``num_actions``, true at legal ids."""

    def apply(self, action: Any) -> None:
        """Plays an action (Action, id or text) in place."""

    def child(self, action: Any) -> GameState:
        """A new state after ``action``; this one is unchanged."""

    def clone(self) -> GameState:
        """An independent copy."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def outcome(self) -> Any:
        """The :class:`OutcomeLike` result, or None before the end."""

    def returns(self) -> list[float]:
        """One return per player (zeros before the end)."""

    def scores(self) -> list[int]:
        """Current points of each player."""

    def heuristic(self, player: int) -> float:
        """The variant's static value in ``[0, 1]`` of the position for ``player``."""

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The documented float32 encoding of what ``player`` can see."""

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON: the full state, or the view of ``player``."""

    def determinize(self, player: int, *, seed: int) -> GameState:
        """A full state consistent with ``player``'s view, hidden things resampled."""

    def action_from_text(self, text: str) -> Any:
        """Parses action text into an action."""

    def action_from_id(self, id: int) -> Any:
        """The action with id ``id``."""
