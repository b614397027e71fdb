"""Wake-ups for the event streams: every change of a game, made here or by another process.

A change made by this process hands the game's new state to its watchers at once
(:meth:`Hub.notify`). Changes made by another server process on the same database are seen
by the poller (one query every :data:`POLL_S` seconds over the games someone here watches),
which hands them over too. So a stream reads the database only when it starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from splendor.web.models import GameEvent

POLL_S = 0.5
"""How often the poller asks the database for the state of the watched games."""


class Hub:
    """Per game, the events of the streams watching it and its latest known state."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._latest: dict[str, GameEvent] = {}
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
                    self._latest.pop(game_id, None)

    def latest(self, game_id: str) -> GameEvent | None:
        """The newest state of a watched game known here."""
        return self._latest.get(game_id)

    def notify(self, game_id: str, state: GameEvent) -> None:
        """``game_id`` is now ``state`` (an older state than one known is ignored)."""
        if game_id not in self._watchers:
            return
        known = self._latest.get(game_id)
        if known is not None and known.version >= state.version:
            return
        self._latest[game_id] = state
        for woken in self._watchers[game_id]:
            woken.set()

    def close(self) -> None:
        """The server stops: every stream ends."""
        self.closed = True
        for watchers in self._watchers.values():
            for woken in watchers:
                woken.set()

    async def poll(
        self, states: Callable[[Sequence[str]], Awaitable[dict[str, GameEvent]]]
    ) -> None:
        """One round of the poller (the caller loops, so that it can do more per round)."""
        ids = self.watched
        if ids:
            for game_id, state in (await states(ids)).items():
                self.notify(game_id, state)
