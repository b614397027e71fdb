"""Seeded random games played by the reference engine, recorded for the Rust engine.

``tests/data/marvel/traces.json`` (regenerate with ``python tests/marvel_traces.py``)
holds, per game: the player count, the seed, every chosen action id (chosen as
``legal[rng.below(len(legal))]`` with ``SplitMix64(seed ^ 0xABCD)``), the legal
list length at every step, the full JSON every 40 decisions and at the end, the
view of seat 1 at the end, and the outcome. ``tests/marvel_traces.rs`` replays it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from splendor.reference.marvel import new_game
from splendor.reference.rng import SplitMix64

GOLDEN = Path(__file__).parent / "data" / "marvel" / "traces.json"


def trace(players: int, seed: int) -> dict[str, Any]:
    """One recorded game."""
    s = new_game(players=players, seed=seed)
    rng = SplitMix64(seed ^ 0xABCD)
    actions: list[int] = []
    lengths: list[int] = []
    snapshots: dict[str, str] = {}
    while not s.is_terminal():
        if len(actions) % 40 == 0:
            snapshots[str(len(actions))] = s.to_json()
        ids = s.legal_action_ids()
        a = ids[rng.below(len(ids))]
        actions.append(a)
        lengths.append(len(ids))
        s.apply(a)
    o = s.outcome()
    assert o is not None
    return {
        "players": players,
        "seed": seed,
        "actions": actions,
        "legal_lengths": lengths,
        "snapshots": snapshots,
        "final": s.to_json(),
        "final_view_1": s.to_json(1),
        "winners": list(o.winners),
        "reason": o.reason,
        "scores": s.scores(),
    }


def generate() -> list[dict[str, Any]]:
    """Five games per player count."""
    return [trace(n, seed) for n in (2, 3, 4) for seed in range(5)]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(generate(), separators=(",", ":")) + "\n")
