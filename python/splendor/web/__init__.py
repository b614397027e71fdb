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

__all__ = ["ServerLimits", "create_app", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    limits: ServerLimits | None = None,
    db: str | None = None,
) -> None:
    """Run the app with uvicorn until interrupted (binds to localhost unless told otherwise).

    ``db``: a SQLite file (default :func:`splendor.web.store.default_path`) or a
    ``postgresql://`` URL. Ctrl-C ends the event streams at once, so the server stops
    promptly even with pages watching their games.
    """
    import uvicorn

    from splendor.web.store import default_path

    db = str(default_path()) if db is None else db
    app = create_app(limits, db=db)  # a database that cannot be opened stops here
    shown = db if "://" not in db else db.split("://", 1)[0] + "://..."  # no password shown
    print(
        f"splendor: serving on http://{host}:{port}/ (Ctrl-C stops); games in {shown}",
        file=sys.stderr,
    )

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            app.state.tables.hub.close()  # the event streams end, so their connections close
            await super().shutdown(sockets)

    # Keep idle connections longer than a queued search can take, so a client reusing one does
    # not race the server closing it (uvicorn's default is 5 s).
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info",
        timeout_keep_alive=75,
        timeout_graceful_shutdown=5,
    )
    Server(config).run()
