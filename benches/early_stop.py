"""What the early stop saves: iterations and time of the default AI's search with ``:stop=S``
against the same search without it, on the positions of whole games.

Usage (from the repository root; docs/training.md, "Early stop"):

    python benches/early_stop.py [--games 3] [--stop 1] [--only base-3p]

For every shipped network, the positions are every decision with a choice of ``--games`` games
the default AI plays against itself (seeds 0, 1, ...). Each position is searched twice with the
default AI's search (its iterations, batch and tree policy), once with ``early_stop`` 0 and once
with ``--stop``, one thread, the same seed, in alternating order. Prints, per game: the share
of the iterations and of the CPU time the early stop leaves, and how often the two searches
chose the same move (always, with ``--stop 1``: the runner-up could not have caught up). One
Markdown table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from typing import Any

import splendor
from splendor import bots, nets


def positions(variant: str, players: int, games: int) -> list[Any]:
    """Every decision with a choice of ``games`` games of the default AI against itself."""
    states: list[Any] = []
    for seed in range(games):
        seats = [bots.make_bot("default", seed * 10 + k, variant, players) for k in range(players)]
        state = splendor.new_game(variant, players=players, seed=seed)
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                states.append(state.clone())
            state.apply(seats[state.current_player].act(state))
    return states


def measure(variant: str, players: int, games: int, stop: float) -> dict[str, object]:
    spec = splendor.parse_bot_spec(bots.resolve_bot_spec("default", variant, players))
    tree = nets.shipped_tree_policy(variant, players)
    settings: dict[str, Any] = {
        "iterations": spec.iterations,
        "network": splendor.Network.load(str(spec.network)),
        "leaf_batch": spec.leaf_batch or 1,
        "exploration": tree.exploration,
        "fpu_reduction": tree.fpu_reduction,
        "policy_temperature": tree.policy_temperature,
    }
    totals: dict[str, list[float]] = {"full": [0, 0.0], "early": [0, 0.0]}
    same = 0
    states = positions(variant, players, games)
    for k, state in enumerate(states):
        order = [("full", 0.0), ("early", stop)]
        chosen = {}
        for name, early_stop in order if k % 2 == 0 else order[::-1]:
            start = time.thread_time()
            result = splendor.search(state, seed=k, early_stop=early_stop, **settings)
            totals[name][1] += time.thread_time() - start
            totals[name][0] += result.iterations
            chosen[name] = int(result.action)
        same += chosen["full"] == chosen["early"]
    return {
        "game": f"{variant}-{players}p",
        # The search compared, without its own early stop (3 and 4 players have one).
        "search": re.sub(r":stop=[0-9.]+", "", str(spec).split("@", 1)[0]),
        "positions": len(states),
        "iterations_left": totals["early"][0] / totals["full"][0],
        "time_left": totals["early"][1] / totals["full"][1],
        "same_move": same / len(states),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--stop", type=float, default=1.0)
    parser.add_argument("--only", help="one game, e.g. base-3p")
    args = parser.parse_args()
    rows = []
    for variant, players in sorted(nets.SHIPPED_NET_ITERATIONS):
        if args.only and args.only != f"{variant}-{players}p":
            continue
        rows.append(measure(variant, players, args.games, args.stop))
    stop = f"`:stop={args.stop:g}`"
    print(f"| game | search (without / with {stop}) | positions | iterations | time | same move |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['game']} | `{r['search']}` | {r['positions']} | {r['iterations_left']:.2f} |"
            f" {r['time_left']:.2f} | {r['same_move']:.0%} |"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
