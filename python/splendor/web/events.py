"""Wake-ups for the event streams: every change of a game, made here or by another process.

A change made by this process wakes its watchers at once (:meth:`Hub.notify`). Changes
made by another server process on the same database are seen by the poller (one query
every :data:`POLL_S` seconds over the games someone here watches), which wakes them too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

POLL_S = 0.5
"""How often the poller asks the database for the versions of the watched games."""


class Hub:
    """Per game, the events of the streams watching it."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._known: dict[str, int] = {}
        self.closed = False

    @property
    def watched(self) -> list[str]:
        return list(self._watchers)

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[asyncio.Event]:
        """An event set on every change of ``game_id`` (and when the hub closes)."""
        woken = asyncio.Event()
        self._watchers.setdefault(game_id, set()).add(woken)
        try:
            yield woken
        finally:
            mine = self._watchers.get(game_id)
            if mine is not None:
                mine.discard(woken)
                if not mine:
                    del self._watchers[game_id]
                    self._known.pop(game_id, None)

    def notify(self, game_id: str, version: int | None = None) -> None:
        if version is not None:
            self._known[game_id] = max(version, self._known.get(game_id, -1))
        for woken in self._watchers.get(game_id, ()):
            woken.set()

    def seen(self, versions: dict[str, int]) -> None:
        """The poller's answer: wakes the watchers of every game whose version moved."""
        for game_id, version in versions.items():
            if self._known.get(game_id) != version:
                self.notify(game_id, version)
                self._known[game_id] = version

    def close(self) -> None:
        """The server stops: every stream ends."""
        self.closed = True
        for watchers in self._watchers.values():
            for woken in watchers:
                woken.set()

    async def poll(self, versions: Callable[[Sequence[str]], Awaitable[dict[str, int]]]) -> None:
        """One round of the poller (the caller loops, so that it can do more per round)."""
        ids = self.watched
        if ids:
            self.seen(await versions(ids))
