"""Both engines read every kind of argument alike: the same calls succeed, the same
calls fail with the same exception type (ints, NumPy integers, bools, floats, text,
None, huge ints and lists, for seats, seeds, actions and options)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import splendor
import splendor.reference as ref

ARGS: list[Any] = [
    0,
    1,
    -1,
    2,
    5,
    True,
    np.int64(1),
    np.int32(0),
    np.uint8(1),
    1.0,
    "0",
    None,
    2**64,
    -(2**70),
    [0],
]

CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "to_json": lambda s, a: s.to_json(a),
    "observation": lambda s, a: s.observation(a),
    "heuristic": lambda s, a: s.heuristic(a),
    "determinize(player)": lambda s, a: s.determinize(a, seed=1),
    "determinize(seed)": lambda s, a: s.determinize(0, seed=a),
    "apply": lambda s, a: s.clone().apply(a),
    "child": lambda s, a: s.child(a),
    "action_from_id": lambda s, a: s.action_from_id(a),
    "action_from_text": lambda s, a: s.action_from_text(a),
}


def _kind(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """``"ok"``, or the name of the exception type the call raised."""
    try:
        call(*args, **kwargs)
    except Exception as exc:
        return type(exc).__name__
    return "ok"


@pytest.mark.parametrize("variant", splendor.VARIANTS)
@pytest.mark.parametrize("call", sorted(CALLS))
def test_state_methods(variant: str, call: str) -> None:
    fast, slow = splendor.new_game(variant, seed=3), ref.new_game(variant, seed=3)
    before = fast.to_json()
    for arg in ARGS:
        got = (_kind(CALLS[call], fast, arg), _kind(CALLS[call], slow, arg))
        assert got[0] == got[1], f"{call}({arg!r}): rust {got[0]}, reference {got[1]}"
    assert fast.to_json() == before == slow.to_json()


@pytest.mark.parametrize("variant", splendor.VARIANTS)
@pytest.mark.parametrize("option", ["players", "seed", "turn_cap"])
def test_new_game_options(variant: str, option: str) -> None:
    for arg in ARGS:
        got = (
            _kind(splendor.new_game, variant, **{option: arg}),
            _kind(ref.new_game, variant, **{option: arg}),
        )
        assert got[0] == got[1], f"{option}={arg!r}: rust {got[0]}, reference {got[1]}"
    # The matrix holds both outcomes: some arguments are accepted, some refused.
    kinds = {_kind(splendor.new_game, variant, **{option: a}) for a in ARGS}
    assert "ok" in kinds and "ConfigError" in kinds


def _parameters(fn: Callable[..., Any]) -> list[tuple[str, str]]:
    """(name, kind) of each parameter a caller gives (``self`` left out)."""
    import inspect

    return [
        (p.name, "keyword" if p.kind is p.KEYWORD_ONLY else "either")
        for p in inspect.signature(fn).parameters.values()
    ]


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_public_methods_take_the_same_parameters(variant: str) -> None:
    """The same names in both engines (``state.apply(action=...)``, ``action_from_id(id=...)``):
    a call by keyword that works on one works on the other. The Rust bindings take
    ``self`` positionally only; beyond it, names and keyword-only-ness match."""
    fast, slow = splendor.new_game(variant), ref.new_game(variant)
    checked = 0
    for attr in sorted(dir(type(fast))):
        if attr.startswith("_") or not callable(getattr(type(fast), attr)):
            continue
        rust, python = _parameters(getattr(fast, attr)), _parameters(getattr(slow, attr))
        assert rust == python, f"{attr}: rust {rust}, reference {python}"
        checked += 1
    assert checked >= 15
    for name in ("new_game", "from_json", "random_playout"):
        assert _parameters(getattr(splendor, name)) == _parameters(getattr(ref, name)), name
