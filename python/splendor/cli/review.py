"""``splendor review``: a finished game's decisions graded by the AI (:mod:`splendor.review`).

A progress bar on stderr, the summary on stdout, and with ``-o`` the review as a
self-contained HTML page (``.html``), JSON for programs (``.json``) or the chart alone
(``.svg``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from splendor.cli._options import MAX_SEED, check_writable, int_in
from splendor.errors import ConfigError

#: What ``-o`` writes, by the file's extension.
FORMATS = {".html": "html", ".htm": "html", ".json": "json", ".svg": "svg"}


def output_format(path: str) -> str:
    """The format ``-o PATH`` asks for.

    Raises:
        ConfigError: Another extension.
    """
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise ConfigError(
            f"-o {path}: name a .html (the page), .json (for programs) or .svg (the chart) file"
        )
    return FORMATS[ext]


def run(args: argparse.Namespace) -> int:
    from splendor.arena import ProgressBar
    from splendor.render.review import chart_svg, review_html
    from splendor.review import review

    fmt = output_format(args.output) if args.output else None
    if args.output:
        check_writable(args.output)  # before the work, not after it
    bar = None if args.no_progress else ProgressBar(sys.stderr, unit="decisions")
    result = review(
        args.game,
        args.bot,
        iterations=args.iterations,
        seed=args.seed,
        threads=args.threads,
        progress=bar,
    )
    print(result.summary())
    if args.output:
        if fmt == "json":
            text = result.to_json() + "\n"
        elif fmt == "svg":
            text = chart_svg(result)
        else:
            text = review_html(result)
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output}")
    return 0


def add(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="grade every decision of a finished game against the AI (a chart, the mistakes)",
        description="Review a finished game (a saved web game's JSON, or any JSON object with"
        " 'start' and 'actions'): each decision searched from the mover's own information,"
        " graded by its loss against the AI's preferred move (docs/tutorials/review.md).",
    )
    p.add_argument("game", help="the saved game (JSON)")
    p.add_argument(
        "--bot",
        default="default",
        help="the search that grades: default (the default AI of the game), mcts:N, net:N or"
        " net:N@PATH (an iteration budget)",
    )
    p.add_argument(
        "--iterations",
        type=int_in(1, 10_000_000),
        default=None,
        help="iterations per position instead of the bot's own",
    )
    p.add_argument(
        "--threads", type=int_in(1, 256), default=1, help="positions searched at once (default 1)"
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help="also write the review: .html (a page), .json (for programs) or .svg (the chart)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
