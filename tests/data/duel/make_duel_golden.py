"""Write ``golden_playouts.json``: seeded random playouts of the reference engine.

Each entry is a seed, the number of decisions of ``random_playout(new_game("duel",
seed=seed), seed)`` and the final full JSON. The Rust engine's test
(``tests/duel_golden.rs``) and the reference test replay them; a difference in any
draw, legal list or rule changes the decision count or the final state.
"""

from __future__ import annotations

import json
from pathlib import Path

from splendor.reference import new_game, random_playout


def main() -> None:
    games = []
    for seed in range(24):
        state = new_game("duel", seed=seed)
        start = state.to_json()
        n = random_playout(state, seed)
        games.append({"seed": seed, "decisions": n, "start": start, "final": state.to_json()})
    out = Path(__file__).with_name("golden_playouts.json")
    out.write_text(json.dumps(games, indent=1) + "\n")


if __name__ == "__main__":
    main()
