"""``splendor ladder``: a round robin of bots fitted to Elo ratings."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import splendor
from splendor.cli._options import INTERRUPTED, MAX_SEED, float_in, int_in
from splendor.errors import ConfigError, MatchInterrupted


def run(args: argparse.Namespace) -> int:
    try:
        import matplotlib  # noqa: F401
        import statsmodels  # noqa: F401

        from splendor import ladder
    except ImportError as exc:
        raise ConfigError(
            f"splendor ladder needs the ladder extra: pip install 'splendor[ladder]' ({exc})"
        ) from None
    from splendor.bots import parse_bots

    if args.players != 2:
        raise ConfigError(f"the ladder compares bots in pairs: 2 players only, got {args.players}")
    bots = parse_bots(args.bots) if args.bots is not None else ladder.default_bots(args.variant)
    bots = ladder.check_bots(bots, args.variant, args.players)
    anchor = ladder.choose_anchor(bots, args.anchor)
    out = Path(args.out if args.out is not None else f"ladder-{args.variant}-{args.players}p")
    start = time.monotonic()
    try:
        results = ladder.run_ladder(
            bots,
            out,
            variant=args.variant,
            players=args.players,
            games_per_pair=args.games_per_pair,
            seed=args.seed,
            threads=args.threads,
        )
    except MatchInterrupted:
        print(
            f"splendor ladder: interrupted; the finished pairs are in {out / ladder.RESULTS_FILE}: "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return INTERRUPTED
    counts = sorted({r.games for r in results})  # more where an earlier run played more
    games = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    header = (
        f"Ladder: {args.variant}, {args.players} players, {games} games per pair "
        f"(paired, seat-rotated deals; seed {args.seed})."
    )
    ratings = ladder.write_report(
        results, bots, out, anchor=anchor, prior_draws=args.prior_draws, header=header
    )
    print(ladder.summary(ratings))
    print(
        f"wrote {out / ladder.TABLE_FILE} and {out / ladder.PLOT_FILE} "
        f"({time.monotonic() - start:.0f} s)"
    )
    return 0


def add(sub: Any) -> None:
    p = sub.add_parser(
        "ladder",
        help="round robin of reference bots, fitted to Elo ratings with 95%% intervals "
        "(resumable; a Markdown table and a PNG plot)",
    )
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument(
        "--players", type=int_in(2, 4), default=2, help="2 only: the fit compares bots in pairs"
    )
    p.add_argument(
        "--games-per-pair",
        type=int_in(2, 1_000_000),
        default=20,
        help="games each pair plays, a multiple of the players (default 20)",
    )
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot specs (default: random, greedy, mcts:100, mcts:1000, "
        "mcts:10000 and the networks shipped at b132d65, e.g. net:1070@b132d65; a new "
        "network by path: net:N@PATH)",
    )
    p.add_argument(
        "--threads", type=int_in(1, 1024), default=1, help="games played at once (default 1)"
    )
    p.add_argument(
        "--seed", type=int_in(0, MAX_SEED), default=0, help="the deals, the same for every pair"
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="folder for results.jsonl, ladder.md and ladder.png; a rerun skips the pairs "
        "finished there (default ladder-VARIANT-2p)",
    )
    p.add_argument(
        "--anchor", default=None, help="the bot rated 0 (default greedy, else the first bot)"
    )
    p.add_argument(
        "--prior-draws",
        type=float_in(0.0, 1000.0),
        default=1.0,
        help="virtual drawn games added to each pair, so a bot that won or lost every "
        "game has a finite rating (default 1)",
    )
    p.set_defaults(func=run)
