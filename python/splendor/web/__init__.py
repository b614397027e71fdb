"""The web layer: the page to play against the AI and the JSON API (``splendor serve``).

Needs the ``web`` extra (``pip install 'splendor[web]'``: FastAPI, uvicorn and SQLAlchemy;
``splendor[postgres]`` adds psycopg for a PostgreSQL database); ``import splendor`` never
imports it.
"""

from __future__ import annotations

import sys
from typing import Any

from splendor.web.ai import ServerLimits
from splendor.web.app import create_app

__all__ = ["ServerLimits", "create_app", "serve", "serving_banner"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    limits: ServerLimits | None = None,
    db: str | None = None,
    *,
    public_url: str | None = None,
    root_path: str = "",
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run the app with uvicorn until interrupted (binds to localhost unless told otherwise).

    ``db``: a SQLite file (default :func:`splendor.web.store.default_path`) or a
    ``postgresql://`` URL. Bound beyond localhost, it prints every address others on the
    network can open. ``public_url``: the address friends open (links are made from it);
    ``root_path`` and ``forwarded_allow_ips``: uvicorn's ``--root-path`` and
    ``--forwarded-allow-ips``, for a reverse proxy (:mod:`splendor.web.hosting`). Ctrl-C
    ends the event streams at once, so the server stops promptly even with pages watching
    their games.
    """
    import uvicorn

    from splendor.web.hosting import (
        WILDCARDS,
        ForwardedHeaders,
        default_forwarded_allow_ips,
        hosting_for,
        local_addresses,
        normal_forwarded_allow_ips,
        normal_public_url,
        normal_root_path,
    )
    from splendor.web.store import default_path

    root_path = normal_root_path(root_path)
    public_url = None if public_url is None else normal_public_url(public_url)
    trusted = normal_forwarded_allow_ips(
        default_forwarded_allow_ips() if forwarded_allow_ips is None else forwarded_allow_ips
    )
    addresses = local_addresses(WILDCARDS[host]) if host in WILDCARDS else []
    hosting, urls = hosting_for(host, port, public_url, addresses)
    db = str(default_path()) if db is None else db
    app = create_app(limits, db=db, hosting=hosting)  # a database that cannot be opened stops here
    print(serving_banner(host, urls, public_url, root_path, db), file=sys.stderr)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            app.state.tables.hub.close()  # the event streams end, so their connections close
            await super().shutdown(sockets)

    # Keep idle connections longer than a queued search can take, so a client reusing one does
    # not race the server closing it (uvicorn's default is 5 s). The proxy headers are read by
    # uvicorn's own middleware, with X-Forwarded-Host added (ForwardedHeaders), so uvicorn's
    # copy is off.
    config = uvicorn.Config(
        ForwardedHeaders(app, trusted),  # type: ignore[arg-type]  # FastAPI's ASGI types
        host=host,
        port=port,
        log_level="info",
        timeout_keep_alive=75,
        timeout_graceful_shutdown=5,
        root_path=root_path,
        proxy_headers=False,
        forwarded_allow_ips=trusted,
    )
    Server(config).run()


def serving_banner(
    host: str, urls: list[str], public_url: str | None, root_path: str, db: str
) -> str:
    """What ``serve`` prints: where to open the page, and where the games are kept."""
    from splendor.web.hosting import WILDCARDS, is_loopback

    shown = db if "://" not in db else db.split("://", 1)[0] + "://..."  # no password shown
    lines = ["splendor: serving (Ctrl-C stops); games in " + shown]
    if public_url is not None:
        lines.append(f"  open (and share): {public_url}")
        if root_path:
            lines.append(f"  behind a proxy that serves this app under {root_path}/")
    elif is_loopback(host):
        lines.append(f"  open: {urls[0]}")
        lines.append(
            "  only this machine can open it: --host 0.0.0.0 lets others on your network in"
        )
    elif host in WILDCARDS:
        lines.append(f"  on this machine: {urls[0]}")
        if len(urls) > 1:
            lines += [f"  others on your network: {u}" for u in urls[1:]]
        else:
            lines.append("  no network address found: others cannot reach this machine now")
    else:
        lines.append(f"  open (and share): {urls[0]}")
    return "\n".join(lines)
