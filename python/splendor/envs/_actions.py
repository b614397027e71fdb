"""The action an adapter is given, checked before it reaches the engine."""

from __future__ import annotations

import operator

import numpy as np

from splendor.errors import InvalidActionError


def action_id(action: object, num_actions: int | None = None) -> int:
    """``action`` as an int action id: an ``int``, a NumPy integer or a 0-d integer array.

    Anything else (a float, ``None``, text, a bool, an array of several values) raises
    ``InvalidActionError``, whatever its value; with ``num_actions``, so does an id out of
    ``0..num_actions - 1``. Never ``TypeError`` or ``OverflowError``.
    """
    if isinstance(action, (bool, np.bool_)):
        raise InvalidActionError(f"an action must be an int action id, not {action!r}")
    try:
        a = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidActionError(
            f"an action must be an int action id, not {type(action).__name__} {action!r}"
        ) from None
    if num_actions is not None and not 0 <= a < num_actions:
        raise InvalidActionError(f"action id must be between 0 and {num_actions - 1}, got {a}")
    return a
