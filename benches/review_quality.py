"""How well a review tells a weaker player from a stronger one, and how its chart ends.

    python benches/review_quality.py [--games 100] [--weak mcts:100] [--bot default]
        [--seed 0] [--iterations N] [--out FILE.json] [--no-agreement]

1. ``--games`` 2-player base games between ``--weak`` and the default AI (seats
   alternate game by game, deals from ``--seed``), each reviewed by ``--bot``
   (``splendor.review``, one thread): each bot's average loss per decision, pooled over
   its decisions, with a 95% interval over games (each game's average loss is one
   sample: the decisions of one game are not independent).
2. ``--games`` games between two copies of the default AI, reviewed the same way: how
   often the chart's last point (the last mover's win probability, for 2 players the
   other seat's is one minus it) puts the winner above one half, with a Wilson 95%
   interval.

The numbers are printed and, with ``--out``, written as JSON (docs/figures.md).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

import splendor
from splendor.bots import make_bot
from splendor.distributed.match_chunks import wilson_interval


def play_game(specs: list[str], seed: int) -> list[int]:
    """The action ids of one 2-player base game, seat ``k`` played by ``specs[k]``."""
    state = splendor.new_game("base", players=2, seed=seed)
    bots = [make_bot(spec, seed * 7 + k, "base", 2) for k, spec in enumerate(specs)]
    ids = []
    while not state.is_terminal():
        action = bots[state.current_player].act(state)
        ids.append(int(action))
        state.apply(action)
    return ids


def reviewed(ids: list[int], seed: int, bot: str, iterations: int | None) -> splendor.Review:
    start = splendor.new_game("base", players=2, seed=seed)
    return splendor.review(start, bot, actions=ids, seed=seed, iterations=iterations)


def mean_interval(samples: list[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval of the mean."""
    m = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0
    return m, m - half, m + half


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--weak", default="mcts:100")
    p.add_argument("--strong", default="default")
    p.add_argument("--bot", default="default", help="the review's search")
    p.add_argument("--iterations", type=int, default=None, help="the review's budget")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None)
    p.add_argument(
        "--no-agreement", action="store_true", help="skip part 2 (the default against itself)"
    )
    args = p.parse_args(argv)
    began = time.monotonic()

    per_game: dict[str, list[float]] = {args.weak: [], args.strong: []}
    pooled: dict[str, list[float]] = {args.weak: [], args.strong: []}
    weak_wins = 0
    for g in range(args.games):
        seed = args.seed + g
        specs = [args.weak, args.strong] if g % 2 == 0 else [args.strong, args.weak]
        r = reviewed(play_game(specs, seed), seed, args.bot, args.iterations)
        weak_wins += specs.index(args.weak) in r.winners
        for seat, spec in enumerate(specs):
            losses = [d.loss for d in r.decisions if d.seat == seat]
            per_game[spec].append(statistics.fmean(losses))
            pooled[spec].extend(losses)
        print(
            f"game {g + 1}/{args.games}: "
            + ", ".join(f"{s} {per_game[s][-1]:.4f}" for s in per_game)
            + f" ({time.monotonic() - began:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    quality: dict[str, Any] = {}
    for spec in per_game:
        m, lo, hi = mean_interval(per_game[spec])
        quality[spec] = {
            "average_loss_per_decision": statistics.fmean(pooled[spec]),
            "mean_of_game_averages": m,
            "interval_95": [lo, hi],
            "decisions": len(pooled[spec]),
        }
    agree = 0
    for g in range(0 if args.no_agreement else args.games):
        seed = args.seed + 10_000 + g
        r = reviewed(play_game([args.strong, args.strong], seed), seed, args.bot, args.iterations)
        last = r.decisions[-1]
        favourite = last.seat if last.win > 0.5 else 1 - last.seat
        agree += favourite in r.winners
        print(
            f"self-play {g + 1}/{args.games}: last {last.win:.3f} by seat {last.seat},"
            f" winners {list(r.winners)}",
            file=sys.stderr,
            flush=True,
        )
    lo, hi = wilson_interval(agree, args.games) if not args.no_agreement else (0.0, 0.0)
    out = {
        "games": args.games,
        "weak": args.weak,
        "strong": args.strong,
        "review_bot": args.bot,
        "review_iterations": args.iterations,
        "seed": args.seed,
        "weak_wins": weak_wins,
        "quality": quality,
        "last_point_agrees": agree,
        "last_point_agrees_interval_95": [lo, hi],
        "seconds": time.monotonic() - began,
    }
    print(json.dumps(out, indent=1))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
