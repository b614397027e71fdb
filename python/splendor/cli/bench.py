"""``splendor bench``: the engine's speed, random games in Rust and from Python."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import splendor
from splendor.cli._options import MAX_SEED, int_in
from splendor.errors import SplendorError
from splendor.reference.rng import SplitMix64


def python_loop_rate(
    new_game: Callable[..., Any], variant: str, players: int, games: int, seed: int
) -> tuple[float, int]:
    """Decisions per second of random games driven from Python (legal_actions + apply).

    Returns:
        The rate and the number of decisions played.
    """
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        state = new_game(variant, players=players, seed=seed + i)
        rng = SplitMix64(seed + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, decisions


def run(args: argparse.Namespace) -> int:
    # The GIL is released but the games run on this thread, so its CPU time is
    # theirs: on a busy machine it is the figure comparable to a CPU-time bench.
    cpu = time.thread_time()
    totals = splendor.random_games(args.variant, args.games, players=args.players, seed=args.seed)
    cpu = time.thread_time() - cpu
    elapsed = max(totals["elapsed"], 1e-9)
    games = max(totals["games"], 1)
    rows: list[tuple[str, str]] = [
        ("random games, one Python call", f"{totals['games'] / elapsed:,.0f} games/s"),
        ("  per game (wall / CPU)", f"{elapsed / games * 1e6:.2f} / {cpu / games * 1e6:.2f} µs"),
        ("  decisions", f"{totals['decisions'] / elapsed:,.0f} decisions/s"),
        (
            "  average game",
            f"{totals['decisions'] / max(totals['games'], 1):.1f} decisions, "
            f"{totals['turns'] / max(totals['games'], 1):.1f} turns",
        ),
    ]
    rust_rate, _ = python_loop_rate(
        splendor.new_game, args.variant, args.players, args.loop_games, args.seed
    )
    rows.append(("Python calls, Rust engine", f"{rust_rate:,.0f} decisions/s"))
    try:
        from splendor import reference

        ref_rate, _ = python_loop_rate(
            reference.new_game, args.variant, args.players, args.ref_games, args.seed
        )
    except (ImportError, AttributeError, SplendorError) as exc:
        rows.append(("Python calls, reference engine", f"n/a ({exc})"))
    else:
        rows.append(("Python calls, reference engine", f"{ref_rate:,.0f} decisions/s"))
        rows.append(("  Rust / reference", f"{rust_rate / ref_rate:,.1f}x"))
    title = f"splendor bench: {args.variant}, {args.players} players"
    width = max(len(r[0]) for r in rows)
    print(title)
    print("-" * len(title))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


def add(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure engine speed (random games, Rust vs reference)")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2, help="seats (Duel: 2)")
    p.add_argument(
        "--games", type=int_in(1, 10_000_000), default=20000, help="games for random_games"
    )
    p.add_argument(
        "--loop-games", type=int_in(1, 1_000_000), default=200, help="Rust games driven from Python"
    )
    p.add_argument(
        "--ref-games", type=int_in(1, 100_000), default=20, help="reference games from Python"
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.set_defaults(func=run)
