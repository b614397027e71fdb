"""``splendor serve``: the web page and its JSON API (:mod:`splendor.web`)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
from typing import Any

import splendor
from splendor.cli._options import int_in


def run(args: argparse.Namespace) -> int:
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
        review_iterations=args.review_iterations,
        max_reviews=args.max_reviews,
    )
    serve(
        args.host,
        args.port,
        limits,
        args.db,
        public_url=args.public_url,
        root_path=args.root_path,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    return 0


@dataclasses.dataclass(frozen=True)
class ServerLimitsDefaults:
    """The per-client defaults of :class:`splendor.web.ServerLimits`, without importing the
    web extra (a test checks that the two agree)."""

    max_searches_per_client: int = 4
    max_streams_per_client: int = 64
    max_tables_per_minute: int = 30
    max_reviews: int = 8


def add(sub: Any) -> None:
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
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address friends open (e.g. https://example.org/splendor/): every link the"
        " server hands out is made from it (default: the address each request came to)",
    )
    p.add_argument(
        "--root-path",
        default="",
        metavar="PATH",
        help="the path a reverse proxy serves this app under (e.g. /splendor), as uvicorn's"
        " --root-path",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="comma-separated proxy addresses or networks (or *) whose X-Forwarded-For, -Proto"
        " and -Host headers are believed, as uvicorn's option (default: $FORWARDED_ALLOW_IPS"
        " or 127.0.0.1)",
    )
    p.add_argument(
        "--review-iterations",
        type=int_in(1, 1_000_000),
        default=None,
        help="iterations per decision of a game's review (default: the default AI's own)",
    )
    p.add_argument(
        "--max-reviews",
        type=int_in(1, 1_000_000),
        default=defaults.max_reviews,
        help="game reviews queued or running at once, on one low-priority thread (beyond: 503;"
        " default %(default)s)",
    )
    p.set_defaults(func=run)
