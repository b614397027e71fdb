"""``splendor demo``: a greedy AI plays itself, its board printed every turn."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import splendor
from splendor import render
from splendor.cli._options import MAX_SEED, float_in, int_in

#: Seconds between turns of ``splendor demo`` on a terminal, so that a person can follow.
DEMO_DELAY = 0.6


def run(args: argparse.Namespace) -> int:
    state = splendor.new_game(args.variant, players=args.players, seed=args.seed)
    bots = [splendor.GreedyBot(seed=args.seed * 31 + p) for p in range(state.num_players)]
    # Paced on a terminal (a board every DEMO_DELAY seconds); at full speed into a pipe.
    delay = args.delay
    if delay is None:
        delay = DEMO_DELAY if sys.stdout.isatty() and not args.quiet else 0.0
    last_player = -1
    first = True
    decisions = turns = 0
    while not state.is_terminal():
        player = state.current_player
        if player != last_player:
            turns += 1
            if not args.quiet:
                if not first and delay > 0:
                    sys.stdout.flush()
                    time.sleep(delay)
                # A spectator's board: every hand is shown, decks stay face down.
                print(render.render_text(render.board_of(state, None), legend=first))
                first = False
        action = bots[player].act(state)
        if not args.quiet:
            print(f"seat {player}: {action}")
        state.apply(action)
        decisions += 1
        last_player = player
    print(render.render_text(render.board_of(state, None), legend=first))
    outcome = state.outcome()
    assert outcome is not None
    scores = ", ".join(f"seat {p}: {s}" for p, s in enumerate(state.scores()))
    if outcome.winners:
        who = " and ".join(f"seat {p}" for p in outcome.winners)
        print(f"Game over ({outcome.reason}). Winner: {who}. Scores: {scores}.")
    else:
        print(f"Game over ({outcome.reason}): no winner. Scores: {scores}.")
    print(
        f"{turns} turns, {decisions} decisions, {state.num_players} greedy bots"
        f" ({args.variant}, seed {args.seed}); play one yourself: splendor play"
        f" --variant {args.variant}"
    )
    return 0


def add(sub: Any) -> None:
    p = sub.add_parser("demo", help="watch a greedy AI play itself, board printed each turn")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2, help="seats (Duel: 2)")
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--quiet", action="store_true", help="print only the final board and result")
    p.add_argument(
        "--delay",
        type=float_in(0, 60),
        default=None,
        help=f"seconds between turns (default: {DEMO_DELAY} on a terminal, 0 into a pipe)",
    )
    p.set_defaults(func=run)
