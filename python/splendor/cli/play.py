"""``splendor play``: a person against the AI in the terminal (:mod:`splendor.play`)."""

from __future__ import annotations

import argparse
from typing import Any

import splendor
from splendor.cli._options import MAX_SEED, int_in


def run(args: argparse.Namespace) -> int:
    from splendor.play import main as play_main

    return play_main(
        variant=args.variant,
        players=args.players,
        bot=args.bot,
        seat=args.seat,
        seed=args.seed,
        load=args.load,
    )


def add(sub: Any) -> None:
    p = sub.add_parser("play", help="play against the AI in the terminal")
    p.add_argument(
        "--variant",
        choices=splendor.VARIANTS,
        help="base (the default), duel or marvel; with --load, the file's variant",
    )
    p.add_argument(
        "--players", type=int_in(2, 4), help="seats (default 2); with --load, the file's"
    )
    p.add_argument(
        "--bot",
        default="default",
        help="default (the shipped network's search where there is one, else mcts:1000), "
        "random, greedy, mcts, mcts:N, mcts:Ts, net:N, net:Ts, net:N@PATH or net:Ts@PATH "
        "(a net budget may add :batch=B: net:900:batch=4), or an AI level, level:1 (Beginner)"
        " to level:10 (Strongest, the default)",
    )
    p.add_argument("--seat", type=int_in(0, 3), default=0, help="your seat (0 plays first)")
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    p.set_defaults(func=run)
