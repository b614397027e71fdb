"""Bounds per client address: what one client may hold of the server at once.

A client is its address as the server sees it (behind a reverse proxy named by
``--forwarded-allow-ips``, the address the proxy forwards). Three things are bounded, each by
a :class:`~splendor.web.ai.ServerLimits` field and answered past it with 429 ``too_many``:
tables made in the last minute, event streams open, and searches (``/api/v1/move``, hints)
queued or running. Searches are also bounded in all (503 ``busy``) and run on a pool of their
own, apart from the AI seats of the tables, which never wait behind them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from splendor.web.ai import ServerLimits
from splendor.web.errors import Busy, TooMany

T = TypeVar("T")

TABLE_WINDOW_S = 60.0
"""The window over which tables made by one client are counted."""


class ClientBounds:
    """The tables, streams and searches of each client, against the server's limits."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._tables: dict[str, deque[float]] = {}
        self._streams: Counter[str] = Counter()

    def table_made(self, client: str) -> None:
        """Count a new table of ``client``'s (raises :class:`TooMany`, counting nothing, past
        ``max_tables_per_minute``)."""
        now = time.monotonic()
        made = self._tables.setdefault(client, deque())
        while made and made[0] <= now - TABLE_WINDOW_S:
            made.popleft()
        if len(made) >= self.limits.max_tables_per_minute:
            raise TooMany(
                f"this client made {len(made)} tables in the last minute, this server's limit;"
                " try again later"
            )
        made.append(now)
        # Forget the clients with nothing in the window, so the map stays small.
        if len(self._tables) > 1024:
            for key in [k for k, v in self._tables.items() if not v or v[-1] <= now - 60]:
                del self._tables[key]

    @contextmanager
    def stream(self, client: str) -> Iterator[None]:
        """Hold one of ``client``'s event streams while the block runs."""
        if self._streams[client] >= self.limits.max_streams_per_client:
            raise TooMany(
                f"this client has {self._streams[client]} event streams open, this server's"
                " limit; close one first"
            )
        self._streams[client] += 1
        try:
            yield
        finally:
            self._streams[client] -= 1
            if not self._streams[client]:
                del self._streams[client]

    def streams(self, client: str) -> int:
        return self._streams[client]


class Searches:
    """The pool for the searches clients ask for (``/move``, hints): bounded in all
    (``max_pending``, 503 ``busy``) and per client (``max_searches_per_client``, 429).

    The AI seats of the tables run on a pool of their own, so however many searches wait
    here, a table's AI starts at once.
    """

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.pool = ThreadPoolExecutor(
            max_workers=limits.search_workers, thread_name_prefix="splendor-search"
        )
        self.pending = 0
        self._by_client: Counter[str] = Counter()

    async def run(self, client: str, fn: Callable[[], T]) -> T:
        """``fn()`` on a worker of this pool, counted against ``client``'s share."""
        if self.pending >= self.limits.max_pending:
            raise Busy(
                f"{self.pending} searches are waiting for {self.limits.search_workers} workers;"
                " try again later"
            )
        if self._by_client[client] >= self.limits.max_searches_per_client:
            raise TooMany(
                f"this client has {self._by_client[client]} searches queued or running, this"
                " server's limit; wait for one to finish"
            )
        self.pending += 1
        self._by_client[client] += 1
        loop = asyncio.get_running_loop()

        def release() -> None:
            # A RuntimeError: the loop closed, the server stopped; nothing is left to count.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._release, client)

        # The share is given back when the worker is done with it, not when the client
        # stops waiting: a client that hangs up cannot queue more work than its share.
        def work() -> T:
            try:
                return fn()
            finally:
                release()

        future = self.pool.submit(work)
        future.add_done_callback(lambda f: release() if f.cancelled() else None)
        return await asyncio.wrap_future(future)

    def _release(self, client: str) -> None:
        self.pending -= 1
        self._by_client[client] -= 1
        if not self._by_client[client]:
            del self._by_client[client]

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
