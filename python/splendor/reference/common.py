"""Pieces every reference variant shares: actions, outcomes and canonical JSON."""

from __future__ import annotations

import json
import operator
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


def _int_literal(text: str) -> int | float:
    # `-0` is read as the float -0.0, as the Rust engine's JSON parser (and
    # JavaScript) reads it, so both engines refuse it where an integer belongs.
    return -0.0 if text == "-0" else int(text)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def load_json(text: str) -> dict[str, Any]:
    """Parse JSON text into an object, raising InvalidStateError on anything else."""
    if not isinstance(text, str):
        raise InvalidStateError(f"a state must be given as JSON text, not {type(text).__name__}")
    try:
        obj = json.loads(text, parse_int=_int_literal, parse_constant=_no_constant)
    except (TypeError, ValueError) as exc:
        raise InvalidStateError(f"state JSON does not parse: {exc}") from None
    if not isinstance(obj, dict):
        raise InvalidStateError("state JSON must be an object")
    return obj


def parse_json(text: str) -> dict[str, Any]:
    """Parse state JSON into an object (InvalidStateError on anything else)."""
    try:
        return load_json(text)
    except RecursionError:
        # json.loads recurses once per nesting level; hostile input can go deeper.
        raise InvalidStateError("state JSON does not parse: nested too deeply") from None


def action_variant(value: object) -> str | None:
    """The variant of an action object of either engine, else None.

    An action object is an object of a class named ``Action`` (this module's, or the
    Rust engine's ``splendor.Action``) with a string ``variant`` attribute.
    """
    if type(value).__name__ != "Action" or isinstance(value, (str, int)):
        return None
    variant = getattr(value, "variant", None)
    return variant if isinstance(variant, str) else None


def action_id(value: object, num_actions: int, variant: str) -> int | None:
    """The id of an Action or int argument, or None for text (raises on junk types).

    An action object of either engine is accepted by a state of its own variant (the
    engines share ids and texts) and refused by any other. NumPy integers (e.g. from
    ``argmax`` over a mask) count as int ids; bool does not.
    """
    if isinstance(value, np.integer):
        value = int(value)
    kind = action_variant(value)
    if kind is not None:
        if kind != variant:
            raise InvalidActionError(f"`{value}` is an action of variant {kind!r}, not {variant!r}")
        try:
            found = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            raise InvalidActionError(f"`{value}` has no action id") from None
        if not 0 <= found < num_actions:
            raise InvalidActionError(
                f"action id must be between 0 and {num_actions - 1}, got {found}"
            )
        return found
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
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidActionError(f"an action id must be an int, not {type(value).__name__}")
    found = action_id(value, num_actions, "")
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
