"""``splendor match --ray`` and ``splendor selfplay --ray``: the options and the
runs, kept here so that ``splendor.cli`` only registers and dispatches them."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from splendor.errors import ConfigError

#: What a bare ``--ray`` means: a new local cluster on this machine.
LOCAL = "local"


def add_options(parser: argparse.ArgumentParser, *, chunk: int, int_in: Any) -> None:
    """Registers ``--ray [ADDRESS]``, ``--chunk-size`` and ``--max-retries``."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL,
        default=None,
        metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS (HOST:PORT of the head node, ray://HOST:PORT "
        "or auto), or a new local one when no ADDRESS is given (pip install 'splendor[ray]')",
    )
    parser.add_argument(
        "--chunk-size",
        type=int_in(1, 1_000_000),
        default=None,
        help=f"with --ray: games per Ray task (default {chunk})",
    )
    parser.add_argument(
        "--max-retries",
        type=int_in(0, 100),
        default=None,
        help="with --ray: times a chunk whose worker died is run again (default 3)",
    )


def ray_options_without_ray(args: argparse.Namespace, *names: str) -> None:
    """Refuses the ``--ray``-only options on a local run.

    Raises:
        ConfigError: One of them is given without ``--ray``.
    """
    for name in ("chunk_size", "max_retries", *names):
        if getattr(args, name) is not None:
            flag = "--" + name.replace("_", "-")
            raise ConfigError(f"{flag} is an option of a --ray run: add --ray, or leave it out")


def _retries(args: argparse.Namespace) -> int:
    return 3 if args.max_retries is None else int(args.max_retries)


def _address(args: argparse.Namespace) -> str | None:
    from splendor.distributed.cluster import parse_address

    address = None if args.ray == LOCAL else str(args.ray)
    parse_address(address)
    return address


def run_match(args: argparse.Namespace, bots: list[str], progress: Any) -> Any:
    """The match of ``splendor match --ray``; returns its result."""
    from splendor.distributed.match_chunks import MATCH_CHUNK, match

    address = _address(args)
    if args.out is None:
        raise ConfigError(
            "--ray needs --out DIR: the folder the results stream to, which a rerun resumes"
        )
    if args.threads is not None:
        raise ConfigError("--threads is not an option of a --ray run: Ray runs a game per CPU")
    try:
        return match(
            bots,
            args.out,
            variant=args.variant,
            players=args.players,
            games=args.games,
            seed=args.seed,
            turn_cap=args.turn_cap,
            chunk_size=args.chunk_size or MATCH_CHUNK,
            address=address,
            max_retries=_retries(args),
            progress=progress,
        )
    except KeyboardInterrupt:
        _resume_hint(args.out)
        raise


def run_selfplay(args: argparse.Namespace, progress: Any) -> Any:
    """The run of ``splendor selfplay --ray``; returns its folder."""
    from splendor.distributed.selfplay_chunks import SELFPLAY_CHUNK, selfplay

    address = _address(args)
    if args.threads is not None:
        raise ConfigError("--threads is not an option of a --ray run: Ray runs a game per CPU")
    try:
        return selfplay(
            args.variant,
            args.out,
            games=args.games,
            players=args.players,
            seed=args.seed,
            first_game=args.first_game,
            iterations=args.iterations,
            temperature_moves=args.temperature_moves,
            network=args.network,
            noise_alpha=args.noise_alpha,
            noise_epsilon=args.noise_epsilon,
            fast_iterations=args.fast_iterations,
            full_search_fraction=args.full_search_fraction,
            chunk_size=args.chunk_size or SELFPLAY_CHUNK,
            address=address,
            max_retries=_retries(args),
            progress=progress,
        )
    except KeyboardInterrupt:
        _resume_hint(args.out)
        raise


def _resume_hint(out: str) -> None:
    print(
        f"\nsplendor: the finished chunks are stored in {out}; "
        "run the same command again to resume",
        file=sys.stderr,
    )
