"""Time to review a 2-player base game of about 60 decisions, on one thread and on two.

    python benches/review_time.py [--rounds 3] [--bot default] [--iterations N]

The game: the first deal from seed 0 up whose game between ``mcts:100`` (seat 0) and the
default AI (seat 1) has between 55 and 65 decisions. It is reviewed by ``--bot`` (default:
the default AI's own search and budget) with ``threads=1`` and ``threads=2`` in turn,
``--rounds`` times (interleaved, so a change of load on a shared machine hits both), and
the median wall time and CPU time (of all threads together) of each is printed: on a
machine whose cores are busy, the CPU time is the figure to compare. The reviews must be
identical whatever the threads (the script checks it). The target (docs/figures.md) is at
most 15 s on one thread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import splendor
from splendor.bots import make_bot


def sixty_decision_game() -> tuple[int, list[int]]:
    """The seed and action ids of the first game of 55 to 65 decisions."""
    for seed in range(1000):
        state = splendor.new_game("base", players=2, seed=seed)
        bots = [make_bot("mcts:100", seed, "base", 2), make_bot("default", seed + 1, "base", 2)]
        ids = []
        while not state.is_terminal():
            action = bots[state.current_player].act(state)
            ids.append(int(action))
            state.apply(action)
        if 55 <= len(ids) <= 65:
            return seed, ids
    raise SystemExit("no game of 55 to 65 decisions in the first 1000 deals")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--bot", default="default")
    p.add_argument("--iterations", type=int, default=None)
    args = p.parse_args(argv)
    seed, ids = sixty_decision_game()
    start = splendor.new_game("base", players=2, seed=seed)
    print(f"game: seed {seed}, {len(ids)} decisions")
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    reviews = {}
    for _ in range(args.rounds):
        for threads in (1, 2):
            began, began_cpu = time.perf_counter(), time.process_time()
            r = splendor.review(
                start, args.bot, actions=ids, threads=threads, iterations=args.iterations
            )
            times[threads].append(time.perf_counter() - began)
            cpu[threads].append(time.process_time() - began_cpu)
            reviews[threads] = r
    assert reviews[1] == reviews[2], "the review must not depend on the threads"
    print(f"reviewed by {reviews[1].bot} at {reviews[1].iterations} iterations per position")
    for threads, spent in times.items():
        print(
            f"threads={threads}: median {statistics.median(spent):.2f} s"
            f" ({', '.join(f'{t:.2f}' for t in spent)}),"
            f" {statistics.median(spent) / len(ids) * 1000:.0f} ms per decision;"
            f" CPU time (all threads) {statistics.median(cpu[threads]):.2f} s"
        )
    ratio = statistics.median(a / b for a, b in zip(times[1], times[2], strict=True))
    print(f"one thread / two threads: {ratio:.2f}x (median of the rounds' ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
