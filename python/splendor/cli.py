"""The ``splendor`` console command.

Each subcommand is a ``_add_<name>(subparsers)`` function that registers its
parser and sets ``func``; add one by writing such a function and listing it in
``_COMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import splendor
from splendor.errors import MatchInterrupted, SplendorError
from splendor.reference.rng import SplitMix64

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def greedy_value(state: Any, player: int) -> float:
    """A cheap evaluation of ``state`` for ``player``: points first, then progress.

    Points dominate; among equal points, owned cards (lasting discounts) and then
    held tokens break the tie. Opponents' best score counts against the player.
    """
    scores: list[int] = state.scores()
    others = [s for p, s in enumerate(scores) if p != player]
    value = 100.0 * scores[player] - 50.0 * (max(others) if others else 0)
    full = json.loads(state.to_json())
    players = full.get("players")
    if isinstance(players, list) and player < len(players):
        me = players[player]
        value += 10.0 * len(me.get("cards", []))
        tokens = me.get("tokens", [])
        value += float(sum(t for t in tokens if isinstance(t, int)))
    outcome = state.outcome()
    if outcome is not None:
        value += 1e6 if player in outcome.winners else -1e6
    return float(value)


class GreedyPyBot:
    """Picks the legal action whose child scores best by :func:`greedy_value`.

    Ties are broken by a seeded SplitMix64 stream, so games are reproducible.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def act(self, state: Any) -> Any:
        """The chosen action among ``state.legal_actions()``."""
        me = state.current_player
        best: list[Any] = []
        best_value = float("-inf")
        for action in state.legal_actions():
            value = greedy_value(state.child(action), me)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self.rng.below(len(best))]


def _demo(args: argparse.Namespace) -> int:
    state = splendor.new_game(args.variant, players=args.players, seed=args.seed)
    bots = [splendor.GreedyBot(seed=args.seed * 31 + p) for p in range(state.num_players)]
    last_player = -1
    while not state.is_terminal():
        player = state.current_player
        if player != last_player and not args.quiet:
            print(state)
            print()
        action = bots[player].act(state)
        if not args.quiet:
            print(f"player {player}: {action}")
        state.apply(action)
        last_player = player
    print(state)
    outcome = state.outcome()
    assert outcome is not None
    scores = ", ".join(f"player {p}: {s}" for p, s in enumerate(state.scores()))
    if outcome.winners:
        who = " and ".join(f"player {p}" for p in outcome.winners)
        print(f"\nGame over ({outcome.reason}). Winner: {who}. Scores: {scores}.")
    else:
        print(f"\nGame over ({outcome.reason}): no winner. Scores: {scores}.")
    return 0


def _add_demo(sub: Any) -> None:
    p = sub.add_parser("demo", help="watch a greedy AI play itself, board printed each turn")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="print only the final board and result")
    p.set_defaults(func=_demo)


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


def _bench(args: argparse.Namespace) -> int:
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


def _add_bench(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure engine speed (random games, Rust vs reference)")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=20000, help="games for random_games")
    p.add_argument("--loop-games", type=int, default=200, help="Rust games driven from Python")
    p.add_argument("--ref-games", type=int, default=20, help="reference games from Python")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=_bench)


def _match(args: argparse.Namespace) -> int:
    from splendor.arena import ProgressBar, format_table, parse_bots, run_match

    bots = parse_bots(args.bots)
    bar = None if args.no_progress else ProgressBar(sys.stderr)
    code = 0
    try:
        result = run_match(
            bots,
            variant=args.variant,
            players=args.players,
            games=args.games,
            seed=args.seed,
            threads=args.threads,
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
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(result.to_json() + "\n")
    return code


def _add_match(sub: Any) -> None:
    p = sub.add_parser(
        "match",
        help="play bots against each other (seat rotation, paired deals, Wilson 95% CI)",
    )
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument(
        "--bots",
        default="mcts:1000,greedy",
        help="comma-separated: random, greedy, mcts, mcts:N (iterations), mcts:Ts (seconds)",
    )
    p.add_argument("--threads", type=int, default=1, help="games played at once")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--turn-cap", type=int, default=100)
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_match)


def _play(args: argparse.Namespace) -> int:
    from splendor.play import main as play_main

    return play_main(
        variant=args.variant,
        players=args.players,
        bot=args.bot,
        seat=args.seat,
        seed=args.seed,
        load=args.load,
    )


def _add_play(sub: Any) -> None:
    p = sub.add_parser("play", help="play against the AI in the terminal")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--bot", default="mcts:1000", help="random, greedy, mcts, mcts:N or mcts:Ts")
    p.add_argument("--seat", type=int, default=0, help="your seat (0 plays first)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    p.set_defaults(func=_play)


_COMMANDS: list[Callable[[Any], None]] = [_add_demo, _add_bench, _add_match, _add_play]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="splendor", description="Fast, exact Splendor engines and AI."
    )
    parser.add_argument("--version", action="version", version=splendor.__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    for add in _COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``splendor`` command."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        # Ctrl-C ends any command quietly: the long calls stop within a
        # fraction of a second, and no traceback is worth showing.
        print("\nsplendor: interrupted", file=sys.stderr)
        return INTERRUPTED
    except SplendorError as exc:
        print(f"splendor: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
