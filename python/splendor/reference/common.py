"""Pieces every reference variant shares: actions, outcomes and canonical JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from splendor.errors import ConfigError, InvalidActionError, InvalidStateError


@dataclass(frozen=True)
class Action:
    """An action: a stable integer id and its text form."""

    variant: str
    id: int
    text: str = field(compare=False)

    def __int__(self) -> int:
        return self.id

    def __index__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.id}, {self.text!r})"


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winners`` lists the winning seats (several: a shared win; none: truncated);
    ``reason`` is one of ``points``, ``crowns``, ``colour``, ``gauntlet``,
    ``stalled``, ``truncated``.
    """

    winners: tuple[int, ...]
    reason: str
    num_players: int

    @property
    def truncated(self) -> bool:
        return self.reason == "truncated"

    @property
    def stalled(self) -> bool:
        return self.reason == "stalled"

    def returns(self) -> list[float]:
        """``1/k`` to each of ``k`` winners, 0 to everyone else."""
        k = len(self.winners)
        return [(1.0 / k if p in self.winners else 0.0) for p in range(self.num_players)]


def dump_json(obj: Any) -> str:
    """Canonical JSON: compact, keys sorted (byte-identical to the Rust engine)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def load_json(text: str) -> dict[str, Any]:
    """Parse JSON text into an object, raising InvalidStateError on anything else."""
    try:
        obj = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise InvalidStateError(f"state JSON does not parse: {exc}") from None
    if not isinstance(obj, dict):
        raise InvalidStateError("state JSON must be an object")
    return obj


def action_id(value: object, num_actions: int) -> int | None:
    """The id of an Action or int argument, or None for text (raises on junk types).

    NumPy integers (e.g. from ``argmax`` over a mask) count as int ids; bool does not.
    """
    if isinstance(value, np.integer):
        value = int(value)
    if isinstance(value, Action):
        return value.id
    if isinstance(value, bool):
        raise InvalidActionError("an action must be an Action, an int id or text, not bool")
    if isinstance(value, int):
        if not 0 <= value < num_actions:
            raise InvalidActionError(range_message("action id", 0, num_actions - 1, value))
        return value
    if isinstance(value, str):
        return None
    raise InvalidActionError(
        f"an action must be an Action, an int id or text, not {type(value).__name__}"
    )


def id_argument(value: object, num_actions: int) -> int:
    """The id given to ``action_from_id``: an int (NumPy integers included), in range."""
    if isinstance(value, np.integer):
        value = int(value)
    if isinstance(value, (Action, bool)) or not isinstance(value, int):
        raise InvalidActionError(f"an action id must be an int, not {type(value).__name__}")
    found = action_id(value, num_actions)
    assert found is not None
    return found


def range_message(name: str, lo: object, hi: object, got: object) -> str:
    """``"NAME must be between LO and HI, got GOT"``: the one way both engines write a range
    (both ends included)."""
    return f"{name} must be between {lo} and {hi}, got {got}"


def check_int(value: object, name: str, lo: int, hi: int) -> int:
    """An integer argument in ``lo..=hi`` (NumPy integers too, bool not), else ConfigError."""
    if isinstance(value, np.integer):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(range_message(name, lo, hi, value))
    return value
