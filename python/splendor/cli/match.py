"""``splendor match``: bots against each other, a progress bar and a results table."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import splendor
from splendor.cli._options import INTERRUPTED, MAX_SEED, add_ray_options, check_writable, int_in
from splendor.errors import MatchInterrupted


def run(args: argparse.Namespace) -> int:
    from splendor.arena import ProgressBar, format_table, run_match
    from splendor.bots import parse_bots
    from splendor.distributed import cli as ray_cli

    bots = parse_bots(args.bots)
    if args.ray is None:
        ray_cli.ray_options_without_ray(args, "out")
    if args.json:
        check_writable(args.json)  # before the match, not after hours of it
    bar = None if args.no_progress else ProgressBar(sys.stderr)
    code = 0
    try:
        if args.ray is not None:
            result = ray_cli.run_match(args, bots, bar)
        else:
            result = run_match(
                bots,
                variant=args.variant,
                players=args.players,
                games=args.games,
                seed=args.seed,
                threads=args.threads or 1,
                turn_cap=args.turn_cap,
                progress=bar,
            )
    except MatchInterrupted as stop:
        # Ctrl-C: the games finished so far are still worth a table.
        if bar is not None and bar.tty:
            sys.stderr.write("\n")
        result, code = stop.result, INTERRUPTED
        print(f"interrupted: {result.games} of {args.games} games finished")
        print("splendor: interrupted", file=sys.stderr)
    print(format_table(result))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(result.to_json() + "\n")
        except OSError as exc:
            # Keep the results: they go to stdout instead of the file.
            print(
                f"splendor: error: cannot write {args.json}: {exc.strerror or exc}", file=sys.stderr
            )
            print(result.to_json())
            return 1
    return code


def add(sub: Any) -> None:
    p = sub.add_parser(
        "match",
        help="play bots against each other (seat rotation, paired deals, Wilson 95%% CI)",
    )
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2, help="seats (Duel: 2)")
    p.add_argument("--games", type=int_in(1, 10_000_000), default=100)
    p.add_argument(
        "--bots",
        default="mcts:1000,greedy",
        help="comma-separated: random, greedy, mcts, mcts:N (iterations), mcts:Ts (seconds), "
        "net:N / net:Ts (the shipped network), net:N@PATH / net:Ts@PATH (a network file); "
        "a net budget may add :batch=B (leaves per network evaluation): net:900:batch=4; "
        "the AI levels level:1 (Beginner) to level:10 (Strongest, the default)",
    )
    p.add_argument(
        "--threads", type=int_in(1, 1024), default=None, help="games played at once (default 1)"
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--turn-cap", type=int_in(1, 1_000_000), default=100, help="rounds")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--out", metavar="DIR", help="with --ray: the run's folder (JSON lines; rerun resumes)"
    )
    add_ray_options(p, "match")
    p.set_defaults(func=run)
