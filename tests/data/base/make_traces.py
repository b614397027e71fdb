"""Write ``traces/playouts.json`` (``python tests/data/base/make_traces.py``).

Regression traces, not rulings: seeded random playouts recorded from the reference
engine (action ids and the final state), so that any engine can check it deals and
plays the same games bit for bit, e.g. the Rust crate's own tests without Python.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from splendor.reference import new_game
from splendor.reference.rng import SplitMix64

GAMES = [(2, 0, 100, 0), (3, 1, 100, 1), (4, 2, 100, 2), (2, 3, 5, 3), (3, 4, 100, 4), (4, 5, 8, 5)]


def record(players: int, seed: int, turn_cap: int, playout_seed: int) -> dict[str, Any]:
    state = new_game("base", players=players, seed=seed, turn_cap=turn_cap)
    start = state.to_json()
    rng = SplitMix64(playout_seed)
    actions = []
    while not state.is_terminal():
        legal = state.legal_action_ids()
        actions.append(legal[rng.below(len(legal))])
        state.apply(actions[-1])
    outcome = state.outcome()
    assert outcome is not None
    return {
        "players": players,
        "seed": seed,
        "turn_cap": turn_cap,
        "playout_seed": playout_seed,
        "start": start,
        "actions": actions,
        "final": state.to_json(),
        "winners": list(outcome.winners),
        "reason": outcome.reason,
    }


def main() -> None:
    games = [record(*g) for g in GAMES]
    out = Path(__file__).parent / "traces" / "playouts.json"
    out.write_text(json.dumps({"games": games}, indent=1) + "\n")
    print(f"wrote {len(games)} traces")


if __name__ == "__main__":
    main()
