"""Time per move of a bot on this build against a bot on another build of the package.

    python benches/build_time.py --other PATH VARIANT PLAYERS OTHER_SPEC THIS_SPEC

"Equal time per move" between two versions of the engine means each bot on its own build: a
faster engine gives its bot more search in the same time. ``PATH`` is the ``python/`` folder of
another checkout with its extension built (``_core.abi3.so``), for example commit 60f7934's, whose
default AI the issue-40 figures are measured against. ``OTHER_SPEC`` is timed there, in a child
process, and ``THIS_SPEC`` here, in another child process, on the same positions: every decision
with a choice of four whole games that the two specs play against each other on this build (seats
rotated). A search of a fixed iteration count makes the same moves on either build (the engine's
changes keep its searches bit for bit; ``tests/test_search_pins.py`` holds them), so the games
are the ones the two would play across builds.

On a shared machine the load moves from minute to minute, so the two children run in turns,
five rounds each, the order swapped every round; the printed ratio is the median over the rounds
of THIS_SPEC's CPU time over all positions to OTHER_SPEC's. CPU time (``time.thread_time``) counts
only the searching thread, so another job on the machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import splendor

ROUNDS = 5
GAMES = 4

# What a child process runs: loads the positions, builds the bot with its own build's
# `make_bot` (in `splendor.bots` today, `splendor.play` in older builds), searches each position
# once to warm up, then prints the CPU seconds of one more pass over them all.
CHILD = r"""
import json, sys, time
import splendor
try:
    from splendor.bots import make_bot
except ImportError:
    from splendor.play import make_bot
spec, variant, players, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(path) as f:
    states = [splendor.from_json(text) for text in json.load(f)]
bot = make_bot(spec, 0, variant, players)
bot.act(states[0])
start = time.thread_time()
for state in states:
    bot.act(state)
print(json.dumps({"seconds": time.thread_time() - start, "file": splendor.__file__}))
"""


def whole_game_positions(variant: str, players: int, specs: list[str]) -> list[str]:
    """Every decision with a choice of ``GAMES`` games between the specs (seat ``k`` plays
    ``specs[(k + game) % len(specs)]``), as full-state JSON."""
    from splendor.bots import make_bot

    states: list[str] = []
    for seed in range(GAMES):
        bots = [make_bot(spec, seed, variant, players) for spec in specs]
        state = splendor.new_game(variant, players=players, seed=seed)
        while not state.is_terminal():
            seat = int(state.current_player)
            if len(state.legal_actions()) > 1:
                states.append(state.to_json())
            state.apply(bots[(seat + seed) % len(specs)].act(state))
    return states


def cpu_seconds(python_path: str, spec: str, variant: str, players: int, path: str) -> float:
    """CPU seconds of ``spec`` over the positions in ``path``, on the build at ``python_path``."""
    env = dict(os.environ, PYTHONPATH=python_path)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, spec, variant, str(players), path],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    report = json.loads(out.strip().splitlines()[-1])
    expected = str(Path(python_path).resolve() / "splendor" / "__init__.py")
    if str(Path(report["file"]).resolve()) != expected:
        raise SystemExit(f"the child imported {report['file']}, not the build at {python_path}")
    return float(report["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="the other build's python/ folder")
    parser.add_argument("variant", choices=["base", "duel", "marvel"])
    parser.add_argument("players", type=int)
    parser.add_argument("other_spec", help="the bot timed on the other build")
    parser.add_argument("this_spec", help="the bot timed on this build")
    args = parser.parse_args()
    this_python = str(Path(splendor.__file__).resolve().parent.parent)
    states = whole_game_positions(args.variant, args.players, [args.this_spec, args.other_spec])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "positions.json")
        with open(path, "w") as f:
            json.dump(states, f)
        ratios, totals = [], {"other": 0.0, "this": 0.0}
        for r in range(ROUNDS):
            sides = [("other", args.other, args.other_spec), ("this", this_python, args.this_spec)]
            seconds = {}
            for name, python_path, spec in sides if r % 2 == 0 else sides[::-1]:
                seconds[name] = cpu_seconds(python_path, spec, args.variant, args.players, path)
                totals[name] += seconds[name]
            ratios.append(seconds["this"] / seconds["other"])
    per_move = {k: v / ROUNDS / len(states) * 1000 for k, v in totals.items()}
    print(
        f"{args.variant} {args.players}p, {len(states)} positions of {GAMES} whole games: "
        f"{args.other_spec} on {args.other} {per_move['other']:.2f} ms/move, "
        f"{args.this_spec} here {per_move['this']:.2f} ms/move; ratio per round "
        f"{[round(x, 3) for x in ratios]}, median {statistics.median(ratios):.3f}"
    )


if __name__ == "__main__":
    main()
