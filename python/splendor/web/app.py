"""The ASGI app: the page, and the versioned JSON API under ``/api/v1``.

The routes live in :mod:`splendor.web.routes`, one router per resource; every table route
takes its caller from the one door of :mod:`splendor.web.access`, and every error has its
exception, status and code in :mod:`splendor.web.errors`. Searches run in bounded thread
pools (the engine releases the GIL), never on the event loop: the AI seats of the tables on
one pool, the searches clients ask for on another, bounded per client and in all. No input
gets a 500: malformed JSON, unknown variants, illegal actions, tampered views, oversized
budgets and bodies are all 4xx, a database that fails is a 503, and games are left as they
were.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from splendor.web import models as m
from splendor.web.access import Server
from splendor.web.ai import ServerLimits
from splendor.web.clients import ClientBounds, Searches
from splendor.web.errors import ERROR_CODES, install_handlers
from splendor.web.games import Dealer
from splendor.web.guards import MAX_JSON_DEPTH, BodyLimit, json_depth
from splendor.web.hosting import Hosting
from splendor.web.reviews import Reviews
from splendor.web.routes import games, page, seats, service
from splendor.web.store import Store
from splendor.web.tables import Tables

__all__ = ["ERROR_CODES", "MAX_JSON_DEPTH", "create_app", "json_depth"]


def create_app(
    limits: ServerLimits | None = None,
    db: str | Store = "sqlite://",
    hosting: Hosting | None = None,
) -> FastAPI:
    """A new app with its own worker pools, on the database ``db``: a SQLite path or URL
    (the default, ``sqlite://``, is an in-memory database: for tests), a PostgreSQL URL, or
    a :class:`Store`; ``hosting``: how its links are made (default: from each request's
    address)."""
    limits = limits or ServerLimits(workers=os.cpu_count() or 1)
    ai_pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="splendor-ai")
    store = db if isinstance(db, Store) else Store(db)
    tables = Tables(store, limits, ai_pool)
    server = Server(
        tables=tables,
        dealer=Dealer(limits.max_decisions, limits.max_turn_cap),
        searches=Searches(limits),
        clients=ClientBounds(limits),
        hosting=hosting or Hosting(),
        reviews=Reviews(tables),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        tables.start()
        yield
        await server.reviews.close()
        await tables.close()
        ai_pool.shutdown(wait=False, cancel_futures=True)
        server.searches.shutdown()

    app = FastAPI(
        title="splendor",
        version="1",
        summary="Play Splendor, Splendor Duel and Splendor: Marvel with people and the AI;"
        " ask it for moves.",
        lifespan=lifespan,
        # The interactive docs pages load their scripts from a CDN: only the schema is served.
        docs_url=None,
        redoc_url=None,
        responses={
            status: {"model": m.ErrorResponse}
            for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)
        },
    )
    app.state.limits = limits
    app.state.tables = tables
    app.state.server = server
    install_handlers(app)
    app.include_router(page.router)
    app.include_router(service.router)
    app.include_router(games.router)
    app.include_router(seats.router)
    app.add_middleware(BodyLimit, limit=limits.max_body_bytes)
    return app
