"""The ``splendor`` console command.

Each subcommand is a ``_add_<name>(subparsers)`` function that registers its
parser and sets ``func``; add one by writing such a function and listing it in
``_COMMANDS``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import splendor
from splendor import render
from splendor.errors import ConfigError, MatchInterrupted, SplendorError
from splendor.reference.rng import SplitMix64

MAX_SEED = 2**64 - 1

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2).

    argparse prints the whole usage before an error; one line that names the
    problem and points at ``--help`` reads better, and scripts can rely on it.
    Subcommand parsers inherit the class.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type`` accepting integers in ``lo..hi`` (inclusive)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi}, got {value}")
        return value

    parse.__name__ = f"integer between {lo} and {hi}"
    parse.lo = lo  # type: ignore[attr-defined]
    parse.hi = hi  # type: ignore[attr-defined]
    return parse


def float_in(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse ``type`` accepting finite numbers in ``[lo, hi]``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not lo <= value <= hi:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi}, got {value}")
        return value

    parse.__name__ = f"number between {lo} and {hi}"
    parse.lo = lo  # type: ignore[attr-defined]
    parse.hi = hi  # type: ignore[attr-defined]
    parse.is_float = True  # type: ignore[attr-defined]
    return parse


def check_writable(path: str) -> None:
    """Fails now, before any work, if ``path`` cannot be written.

    Raises:
        OSError: ``path`` is a directory or cannot be opened for writing (the system
            refuses: exit status 1, as for any file the command cannot write).
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"cannot write {path}: it is a directory")
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not existed:
        target.unlink()  # leave nothing behind if the work fails later


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


#: Seconds between turns of ``splendor demo`` on a terminal, so that a person can follow.
DEMO_DELAY = 0.6


def _demo(args: argparse.Namespace) -> int:
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


def _add_demo(sub: Any) -> None:
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
    p.set_defaults(func=_bench)


def _match(args: argparse.Namespace) -> int:
    from splendor.arena import ProgressBar, format_table, parse_bots, run_match
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


def _add_match(sub: Any) -> None:
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
        "a net budget may add :batch=B (leaves per network evaluation): net:900:batch=4",
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
    _add_ray_options(p, "match")
    p.set_defaults(func=_match)


def _add_ray_options(p: Any, command: str) -> None:
    from splendor.distributed import cli as ray_cli
    from splendor.distributed.match_chunks import MATCH_CHUNK
    from splendor.distributed.selfplay_chunks import SELFPLAY_CHUNK

    chunk = MATCH_CHUNK if command == "match" else SELFPLAY_CHUNK
    ray_cli.add_options(p, chunk=chunk, int_in=int_in)


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
        "(a net budget may add :batch=B: net:900:batch=4)",
    )
    p.add_argument("--seat", type=int_in(0, 3), default=0, help="your seat (0 plays first)")
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    p.set_defaults(func=_play)


def _selfplay(args: argparse.Namespace) -> int:
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
            progress=bar,
        )
    print(f"self-play games stored in {run}")
    return 0


def _add_selfplay(sub: Any) -> None:
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
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_ray_options(p, "selfplay")
    p.set_defaults(func=_selfplay)


def _train(args: argparse.Namespace) -> int:
    try:
        from splendor.train import cli as train_cli
    except ImportError as exc:
        raise ConfigError(
            f"splendor train needs the training extra: pip install 'splendor[train]' ({exc})"
        ) from None
    return train_cli.run(args)


def _add_train(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train a policy/value network: self-play, train, export, gate, repeat",
        description="Settings and reproduction: docs/training.md. Needs 'splendor[train]'.",
    )
    p.add_argument("run_dir", nargs="?", metavar="RUN_DIR", help="directory of a new run")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue an interrupted run")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2)
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--iterations", type=int_in(1, 10**6), default=10, help="loop iterations")
    p.add_argument("--hidden", default="256,256", help="hidden widths, e.g. 256,256")
    p.add_argument(
        "--features",
        default="raw",
        choices=("raw", "needs"),
        help="network input: the observation (raw), or with what each seat lacks (needs)",
    )
    p.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="DIR",
        help="self-play run directory (or a folder of them) always trained on; repeatable",
    )
    p.add_argument("--no-generate", action="store_true", help="no self-play: train on --data only")
    p.add_argument(
        "--games", type=int_in(1, 10**7), default=200, help="self-play games per iteration"
    )
    p.add_argument(
        "--selfplay-search", type=int_in(1, 10**7), default=400, help="search iterations per move"
    )
    p.add_argument(
        "--selfplay-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another splendor.selfplay setting, VALUE in JSON (e.g. temperature_moves=20)",
    )
    p.add_argument(
        "--window", type=int_in(1, 10**9), default=300_000, help="replay window in samples"
    )
    p.add_argument(
        "--value-q-weight",
        type=float_in(0.0, 1.0),
        default=0.0,
        help="weight of the search's root value in the value target (0: game results only)",
    )
    p.add_argument(
        "--augment",
        choices=("none", "colours"),
        default="none",
        help="colours: train on each sample under a random renaming of the five card colours",
    )
    p.add_argument(
        "--steps", type=int_in(1, 10**8), default=1000, help="training steps per iteration"
    )
    p.add_argument("--batch-size", type=int_in(1, 1 << 20), default=256)
    p.add_argument("--lr", type=float_in(1e-9, 10.0), default=1e-3, help="Adam learning rate")
    p.add_argument(
        "--lr-schedule",
        choices=("cosine", "constant"),
        default="cosine",
        help="cosine: each iteration's training decays the rate to 0; constant: no decay",
    )
    p.add_argument(
        "--l2", type=float_in(0.0, 1.0), default=1e-3, help="L2 penalty (Adam weight decay)"
    )
    p.add_argument(
        "--validation", type=float_in(0.0, 0.5), default=0.05, help="share of games held out"
    )
    p.add_argument("--checkpoint-every", type=int_in(1, 10**8), default=250, help="training steps")
    p.add_argument(
        "--gate-games", type=int_in(0, 10**6), default=200, help="0: accept every candidate"
    )
    p.add_argument(
        "--gate-search", type=int_in(1, 10**7), default=200, help="search iterations per move"
    )
    p.add_argument("--gate-threshold", type=float_in(0.0, 1.0), default=0.55)
    p.add_argument(
        "--gate-min-lower",
        type=float_in(0.0, 1.0),
        default=0.5,
        help="Wilson lower bound must exceed this",
    )
    p.add_argument("--eval-every", type=int_in(0, 10**6), default=1, help="iterations (0: never)")
    p.add_argument("--eval-games", type=int_in(0, 10**6), default=100)
    p.add_argument(
        "--eval-search", type=int_in(1, 10**7), default=200, help="search iterations per move"
    )
    p.add_argument("--eval-opponents", default="greedy,mcts:1000", help="comma-separated specs")
    p.add_argument("--threads", type=int_in(1, 256), default=1, help="self-play and match threads")
    p.add_argument(
        "--torch-threads", type=int_in(1, 256), default=1, help="PyTorch threads for training"
    )
    p.add_argument("--turn-cap", type=int_in(1, 10**6), default=100)
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=_train)


def _serve(args: argparse.Namespace) -> int:
    try:
        from splendor.web import ServerLimits, serve
    except ImportError as exc:  # the web extra is not installed
        raise splendor.ConfigError(
            f"'splendor serve' needs the web extra: pip install 'splendor[web]' ({exc})"
        ) from None
    try:
        socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise splendor.ConfigError(
            f"--host {args.host!r} is not an address to bind: {exc}"
        ) from None
    if not args.host:
        raise splendor.ConfigError("--host '' would bind every interface: name one (127.0.0.1)")
    workers = args.workers or os.cpu_count() or 1
    limits = ServerLimits(
        workers=workers,
        search_workers=args.search_workers or workers,
        max_searches_per_client=args.max_searches_per_client,
        max_streams_per_client=args.max_streams_per_client,
        max_tables_per_minute=args.max_tables_per_minute,
    )
    serve(args.host, args.port, limits, args.db)
    return 0


@dataclasses.dataclass(frozen=True)
class ServerLimitsDefaults:
    """The per-client defaults of :class:`splendor.web.ServerLimits`, without importing the
    web extra (a test checks that the two agree)."""

    max_searches_per_client: int = 4
    max_streams_per_client: int = 64
    max_tables_per_minute: int = 30


def _add_serve(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="the web page to play with people and the AI, and its JSON API",
        description="Serve the page and the JSON API (docs/web.md). Games live in a database:"
        " every accepted move is committed before it is answered, so a restart loses none."
        " Several server processes (or machines) can serve the same games from one PostgreSQL"
        " database.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost only)")
    p.add_argument(
        "--db",
        default=None,
        metavar="PATH|URL",
        help="where games are kept: a SQLite file (made with its folder if missing; default"
        " $XDG_DATA_HOME/splendor/games.sqlite3, i.e. ~/.local/share/splendor/games.sqlite3)"
        " or a PostgreSQL URL, postgresql://USER:PASSWORD@HOST/DATABASE (needs"
        " 'splendor[postgres]')",
    )
    p.add_argument("--port", type=int_in(1, 65535), default=8000)
    p.add_argument(
        "--workers",
        type=int_in(1, 1024),
        default=None,
        help="threads playing the tables' AI seats (default: all cores)",
    )
    p.add_argument(
        "--search-workers",
        type=int_in(1, 1024),
        default=None,
        help="threads for the searches clients ask for (moves, hints), a pool apart from the"
        " AI seats' (default: as --workers)",
    )
    defaults = ServerLimitsDefaults()
    p.add_argument(
        "--max-searches-per-client",
        type=int_in(1, 1_000_000),
        default=defaults.max_searches_per_client,
        help="searches one client address may have queued or running (beyond: 429;"
        " default %(default)s)",
    )
    p.add_argument(
        "--max-streams-per-client",
        type=int_in(1, 1_000_000),
        default=defaults.max_streams_per_client,
        help="event streams one client address may hold open (beyond: 429; default %(default)s)",
    )
    p.add_argument(
        "--max-tables-per-minute",
        type=int_in(1, 1_000_000),
        default=defaults.max_tables_per_minute,
        help="tables one client address may make in a minute (beyond: 429; default %(default)s)",
    )
    p.set_defaults(func=_serve)


#: The formats ``render`` writes, by the output file's extension.
RENDER_FORMATS = {".svg": "svg", ".txt": "text"}


def render_format(output: str, asked: str | None, tty: bool) -> str:
    """The format ``render`` writes to ``output`` (``-``: stdout).

    ``--format`` when given; else the file's extension (``.svg``, ``.txt``; a name
    without one: SVG); on stdout, text on a terminal and SVG into a pipe.

    Raises:
        ConfigError: ``output`` has another extension (``.png``: no PNG is written), or
            one that contradicts ``--format``.
    """
    if output == "-":
        return asked or ("text" if tty else "svg")
    ext = Path(output).suffix.lower()
    if ext and ext not in RENDER_FORMATS:
        raise ConfigError(
            f"-o {output}: cannot write {ext[1:].upper()} (only SVG or text): name a .svg or"
            " .txt file"
        )
    implied = RENDER_FORMATS.get(ext)
    if asked is not None and implied is not None and asked != implied:
        kind = {"svg": "an SVG", "text": "a text"}[implied]
        raise ConfigError(f"-o {output} names {kind} file, but --format is {asked}")
    return asked or implied or "svg"


def _seat_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a seat number, got {text!r}") from None


def _render(args: argparse.Namespace) -> int:
    from splendor.play import read_game

    fmt = render_format(args.output, args.format, sys.stdout.isatty())
    if args.output != "-":
        check_writable(args.output)
    state = read_game(args.game)
    viewer = args.viewer
    seats = state.num_players
    if viewer is not None and not 0 <= viewer < seats:
        raise ConfigError(
            f"--viewer must be between 0 and {seats - 1} (this game has {seats} seats),"
            f" got {viewer}"
        )
    if fmt == "svg":
        picture = str(render.svg_board(state, viewer))
    else:
        picture = render.text_board(state, viewer) + "\n"
    if args.output == "-":
        sys.stdout.write(picture)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(picture)
    return 0


def _add_render(sub: Any) -> None:
    p = sub.add_parser("render", help="draw a saved game's board (SVG or text)")
    p.add_argument("game", help="a saved game (a state's JSON)")
    p.add_argument(
        "-o", "--output", default="-", help="a .svg or .txt file to write (default: stdout)"
    )
    p.add_argument(
        "--viewer", type=_seat_number, default=None, help="whose view (default: spectator)"
    )
    p.add_argument(
        "--format",
        choices=["svg", "text"],
        default=None,
        help="default: from the file's extension; on stdout, text on a terminal, else svg",
    )
    p.set_defaults(func=_render)


def _ladder(args: argparse.Namespace) -> int:
    try:
        import matplotlib  # noqa: F401
        import statsmodels  # noqa: F401

        from splendor import ladder
    except ImportError as exc:
        raise ConfigError(
            f"splendor ladder needs the ladder extra: pip install 'splendor[ladder]' ({exc})"
        ) from None
    from splendor.arena import parse_bots

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


def _add_ladder(sub: Any) -> None:
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
    p.set_defaults(func=_ladder)


_COMMANDS: list[Callable[[Any], None]] = [
    _add_demo,
    _add_bench,
    _add_match,
    _add_ladder,
    _add_play,
    _add_selfplay,
    _add_train,
    _add_serve,
    _add_render,
]


def version_text() -> str:
    """What ``splendor --version`` prints: the version on the first line, then the build.

    The build (``splendor._core.build_info()``): the Rust compiler, target and profile,
    the cargo features, the CPU features the code is compiled for and the network
    kernels this CPU runs, then the Python and NumPy it runs under.
    """
    import platform

    import numpy

    info = splendor._core.build_info()
    return "\n".join(
        [
            f"splendor {info['version']}",
            f"built with {info['rustc']} for {info['target']} ({info['profile']} profile)",
            f"cargo features: {info['features'] or 'none'}",
            f"CPU features: compiled for {info['target_features']}; "
            f"network kernels: {info['kernels']}",
            f"running on {platform.python_implementation()} {platform.python_version()}, "
            f"NumPy {numpy.__version__}",
        ]
    )


class _VersionAction(argparse.Action):
    """``--version``: prints :func:`version_text` (its line breaks kept) and exits 0."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print the version and how this build was made, then exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(version_text())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = OneLineParser(prog="splendor", description="Fast, exact Splendor engines and AI.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)
    for add in _COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``splendor`` command; returns the exit status.

    0 on success; 2 for a bad argument (one line on stderr, as argparse's
    own errors); 1 when the operating system refuses (a file it cannot write).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version or a bad argument: already printed
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        # Ctrl-C ends any command quietly: the long calls stop within a
        # fraction of a second, and no traceback is worth showing.
        print("\nsplendor: interrupted", file=sys.stderr)
        return INTERRUPTED
    except SplendorError as exc:
        # A bad value the parser could not check (a bot spec, a file): status 2 as argparse's.
        print(f"splendor {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # The system refused (a file it cannot read or write): status 1.
        what = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else exc
        print(f"splendor {args.command}: error: {what}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
