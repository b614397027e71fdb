"""``splendor selfplay``: MCTS self-play games into training shards."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import splendor
from splendor.cli._options import MAX_SEED, add_ray_options, float_in, int_in
from splendor.errors import ConfigError


def run(args: argparse.Namespace) -> int:
    from splendor.arena import ProgressBar
    from splendor.distributed import cli as ray_cli
    from splendor.selfplay import selfplay

    if args.ray is None:
        ray_cli.ray_options_without_ray(args)
    elif args.shard_size is not None:
        raise ConfigError("with --ray a shard holds one chunk: give --chunk-size, not --shard-size")
    bar = None if args.no_progress else ProgressBar(sys.stderr)
    if args.ray is not None:
        run = ray_cli.run_selfplay(args, bar)
    else:
        run = selfplay(
            args.variant,
            args.out,
            games=args.games,
            players=args.players,
            seed=args.seed,
            first_game=args.first_game,
            iterations=args.iterations,
            temperature_moves=args.temperature_moves,
            threads=args.threads,
            shard_size=args.shard_size or 200,
            network=args.network,
            noise_alpha=args.noise_alpha,
            noise_epsilon=args.noise_epsilon,
            fast_iterations=args.fast_iterations,
            full_search_fraction=args.full_search_fraction,
            progress=bar,
        )
    print(f"self-play games stored in {run}")
    return 0


def add(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay",
        help="play MCTS self-play games into .npz shards (training data; resumable)",
    )
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2)
    p.add_argument(
        "--games", type=int_in(1, 10_000_000), required=True, help="number of games to play"
    )
    p.add_argument("--out", required=True, metavar="DIR", help="run directory (created or resumed)")
    p.add_argument(
        "--seed", type=int_in(0, MAX_SEED), default=0, help="run seed: game i is a function of it"
    )
    p.add_argument("--first-game", type=int_in(0, 10**12), default=0, help="id of the first game")
    p.add_argument(
        "--iterations",
        type=int_in(1, 10_000_000),
        default=800,
        help="search iterations per decision",
    )
    p.add_argument(
        "--temperature-moves",
        type=int_in(0, 100_000),
        default=20,
        help="decisions sampled in proportion to the visits at the start of each game",
    )
    p.add_argument(
        "--threads", type=int_in(1, 1024), default=None, help="games at once (default: all cores)"
    )
    p.add_argument(
        "--shard-size",
        type=int_in(1, 1_000_000),
        default=None,
        help="games per shard (default 200)",
    )
    p.add_argument("--network", metavar="FILE", help="guide the search with this network file")
    p.add_argument(
        "--noise-alpha",
        type=float_in(1e-6, 1e3),
        default=None,
        help="Dirichlet noise of this concentration on the root prior",
    )
    p.add_argument(
        "--noise-epsilon", type=float_in(0.0, 1.0), default=0.25, help="weight of the root noise"
    )
    p.add_argument(
        "--fast-iterations",
        type=int_in(0, 10_000_000),
        default=0,
        help="playout-cap randomisation: search most decisions with this many iterations, "
        "without noise, and store only the full searches (0: off)",
    )
    p.add_argument(
        "--full-search-fraction",
        type=float_in(1e-6, 1.0),
        default=0.25,
        help="with --fast-iterations: the share of decisions searched in full and stored",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_ray_options(p, "selfplay")
    p.set_defaults(func=run)
