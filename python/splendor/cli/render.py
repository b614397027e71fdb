"""``splendor render``: a saved game's board as SVG or text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from splendor import render
from splendor.cli._options import check_writable
from splendor.errors import ConfigError

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


def run(args: argparse.Namespace) -> int:
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


def add(sub: Any) -> None:
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
    p.set_defaults(func=run)
