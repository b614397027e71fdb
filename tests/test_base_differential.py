"""Rust vs reference, in lockstep, on seeded random base games.

Both engines deal the game from the same seed; one SplitMix64 stream picks the
moves. At every decision the legal ids and texts, the full JSON (byte for
byte), the current player and the scores must agree; every ``VIEW_EVERY``-th
decision also the views and observations of every seat; at the end the
outcome and returns. On a sample of decisions the same illegal or malformed
actions must raise the same exception type in both, leaving both unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import splendor
from splendor import reference
from splendor.reference.rng import SplitMix64

GAMES_PER_PLAYER_COUNT = 500
CHUNK = 50
VIEW_EVERY = 8
PROBE_EVERY = 16
BAD_TEXTS = ("", "take", "take wwww", "buy 4.1", "reserve deck 4", "noble 10", "pay gold z")


def _error_type(state: Any, action: object) -> str | None:
    before = state.to_json()
    try:
        state.child(action)
    except splendor.SplendorError as exc:
        assert state.to_json() == before
        return type(exc).__name__
    return None


def _probe(rust: Any, ref: Any, rng: SplitMix64, where: str) -> None:
    legal = set(rust.legal_action_ids())
    illegal = [i for i in range(329) if i not in legal]
    probes: list[object] = [
        illegal[rng.below(len(illegal))],
        329 + rng.below(1000),
        -1 - rng.below(5),
        BAD_TEXTS[rng.below(len(BAD_TEXTS))],
        ref.action_from_id(illegal[rng.below(len(illegal))]).text,
        None,
        1.5,
    ]
    for action in probes:
        got = (_error_type(rust, action), _error_type(ref, action))
        assert got[0] == got[1], f"{where}: {action!r} raised {got[0]} (rust) vs {got[1]} (ref)"
        assert got[0] is not None, f"{where}: {action!r} was accepted"


def _compare_views(rust: Any, ref: Any, where: str) -> None:
    for p in range(rust.num_players):
        assert rust.to_json(p) == ref.to_json(p), f"{where}: view of seat {p}"
        assert np.array_equal(rust.observation(p), ref.observation(p)), f"{where}: obs {p}"
        # float32 in Rust, float64 in the reference (docs/base.md, Heuristic).
        assert abs(rust.heuristic(p) - ref.heuristic(p)) <= 1e-5, f"{where}: heuristic {p}"


def play_lockstep(players: int, seed: int) -> int:
    rust = splendor.new_game("base", players=players, seed=seed)
    ref = reference.new_game("base", players=players, seed=seed)
    rng = SplitMix64(seed ^ 0x5EED)
    decisions = 0
    while True:
        where = f"players={players} seed={seed} decision={decisions}"
        rust_json = rust.to_json()
        assert rust_json == ref.to_json(), f"{where}: full JSON differs"
        assert rust.current_player == ref.current_player, where
        assert rust.scores() == ref.scores(), where
        assert rust.is_terminal() == ref.is_terminal(), where
        if decisions % VIEW_EVERY == 0 or rust.is_terminal():
            _compare_views(rust, ref, where)
        if rust.is_terminal():
            break
        rust_legal = rust.legal_actions()
        ref_legal = ref.legal_actions()
        assert [int(a) for a in rust_legal] == [int(a) for a in ref_legal], where
        assert [str(a) for a in rust_legal] == [str(a) for a in ref_legal], where
        if decisions % PROBE_EVERY == 0:
            _probe(rust, ref, rng, where)
        i = rng.below(len(rust_legal))
        rust.apply(rust_legal[i])
        ref.apply(ref_legal[i])
        decisions += 1
    ro, fo = rust.outcome(), ref.outcome()
    assert ro is not None and fo is not None
    assert (ro.winners, ro.reason) == (fo.winners, fo.reason), f"seed={seed}: outcome"
    assert rust.returns() == ref.returns()
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(GAMES_PER_PLAYER_COUNT // CHUNK))
def test_lockstep(players: int, chunk: int) -> None:
    first = 10_000 * players + chunk * CHUNK
    total = sum(play_lockstep(players, seed) for seed in range(first, first + CHUNK))
    assert total > CHUNK


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_agrees(players: int) -> None:
    rust = splendor.new_game("base", players=players, seed=7)
    ref = reference.new_game("base", players=players, seed=7)
    rng = SplitMix64(77)
    for step in range(120):
        if rust.is_terminal():
            break
        if step % 10 == 0:
            for p in range(players):
                assert (
                    rust.determinize(p, seed=step).to_json()
                    == ref.determinize(p, seed=step).to_json()
                )
        legal = rust.legal_action_ids()
        a = legal[rng.below(len(legal))]
        rust.apply(a)
        ref.apply(a)
