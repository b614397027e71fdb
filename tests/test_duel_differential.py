"""Differential tests: the Rust engine and the reference engine play the same seeded
Duel games in lockstep and must agree at every decision (legal id lists, full JSON
byte for byte, outcomes; views and observations every few decisions) and raise the
same exception types on bad input.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import splendor
import splendor.errors
import splendor.reference as ref
from splendor.reference.rng import SplitMix64

GAMES = 500
BATCHES = 10


def _outcome(state: object) -> tuple[tuple[int, ...], str] | None:
    o = state.outcome()  # type: ignore[attr-defined]
    return None if o is None else (tuple(o.winners), o.reason)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_engines_agree_in_lockstep(batch: int) -> None:
    for seed in range(batch * GAMES // BATCHES, (batch + 1) * GAMES // BATCHES):
        fast = splendor.new_game("duel", seed=seed)
        slow = ref.new_game("duel", seed=seed)
        rng = SplitMix64(seed * 7919 + 1)
        step = 0
        while True:
            where = f"seed {seed} step {step}"
            assert fast.to_json() == slow.to_json(), where
            ids = fast.legal_action_ids()
            assert ids == slow.legal_action_ids(), where
            assert _outcome(fast) == _outcome(slow), where
            if step % 15 == 0:
                for p in (0, 1):
                    assert fast.to_json(p) == slow.to_json(p), where
                    assert np.array_equal(fast.observation(p), slow.observation(p)), where
                    assert abs(fast.heuristic(p) - slow.heuristic(p)) <= 1e-5, where
                assert fast.scores() == slow.scores(), where
                assert [str(a) for a in fast.legal_actions()] == [
                    str(a) for a in slow.legal_actions()
                ], where
            if not ids:
                assert fast.is_terminal() and slow.is_terminal()
                assert fast.returns() == slow.returns()
                break
            a = ids[rng.below(len(ids))]
            fast.apply(a)
            slow.apply(a)
            step += 1


def _error_of(fn: Callable[[Any], object], arg: Any) -> type[BaseException] | None:
    try:
        fn(arg)
    except splendor.errors.SplendorError as exc:
        return type(exc)
    return None


BAD_ACTIONS: list[object] = [-1, 358, 10**9, "", "take a1 c1", "pay gold yyyy", "royal 9", 2.5]


def test_bad_input_raises_the_same_errors() -> None:
    rng = SplitMix64(3)
    for seed in range(40):
        fast = splendor.new_game("duel", seed=seed)
        slow = ref.new_game("duel", seed=seed)
        for _ in range(rng.below(120)):
            if fast.is_terminal():
                break
            ids = fast.legal_action_ids()
            a = ids[rng.below(len(ids))]
            fast.apply(a)
            slow.apply(a)
        before = fast.to_json()
        candidates = [*BAD_ACTIONS, *range(358)]
        for bad in candidates:
            e1 = _error_of(fast.child, bad)
            e2 = _error_of(slow.child, bad)
            assert e1 == e2, (seed, bad)
        assert fast.to_json() == before == slow.to_json()
        full = json.loads(before)
        for key in ("bag", "players", "phase", "turn", "royals"):
            broken = dict(full)
            broken[key] = None
            text = json.dumps(broken, sort_keys=True, separators=(",", ":"))
            assert _error_of(splendor.from_json, text) == _error_of(ref.from_json, text)


def test_determinize_is_identical() -> None:
    rng = SplitMix64(8)
    for seed in range(30):
        fast = splendor.new_game("duel", seed=seed)
        slow = ref.new_game("duel", seed=seed)
        for _ in range(rng.below(150)):
            if fast.is_terminal():
                break
            ids = fast.legal_action_ids()
            a = ids[rng.below(len(ids))]
            fast.apply(a)
            slow.apply(a)
        for p in (0, 1):
            assert (
                fast.determinize(p, seed=seed).to_json() == slow.determinize(p, seed=seed).to_json()
            )
