"""What the commands share: the parser class, argument types, exit statuses."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

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


def add_ray_options(p: Any, command: str) -> None:
    from splendor.distributed import cli as ray_cli
    from splendor.distributed.match_chunks import MATCH_CHUNK
    from splendor.distributed.selfplay_chunks import SELFPLAY_CHUNK

    chunk = MATCH_CHUNK if command == "match" else SELFPLAY_CHUNK
    ray_cli.add_options(p, chunk=chunk, int_in=int_in)
