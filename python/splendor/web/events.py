"""Wake-ups for the event streams: every change of a game, made here or by another process.

A change made by this process hands the game's new state to its watchers at once
(:meth:`Hub.notify`). Changes made by another server process on the same database are seen
by the poller (one query every :data:`POLL_S` seconds over the games someone here watches),
which hands them over too. So a stream reads the database only when it starts, and when
the seats change (a seat whose link was replaced loses its stream).

The hub also knows which seats have a stream open here (``connected``): a stream's arrival
or end wakes the game's other streams, so the host sees who is at the table. With several
server processes, each knows its own streams only.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from splendor.web.models import GameEvent

POLL_S = 0.5
"""How often the poller asks the database for the state of the watched games."""


def newer(a: GameEvent, b: GameEvent) -> GameEvent:
    """The later of two states of one game (``a`` when they are the same): the version
    counts the moves and undos, ``seating`` the changes of the seats."""
    return b if (b.version, b.seating) > (a.version, a.seating) else a


class Hub:
    """Per game, the events of the streams watching it and its latest known state."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._latest: dict[str, GameEvent] = {}
        self._present: dict[str, Counter[int]] = {}
        self.closed = False

    @property
    def watched(self) -> list[str]:
        return list(self._watchers)

    @asynccontextmanager
    async def watch(self, game_id: str, seat: int | None = None) -> AsyncIterator[asyncio.Event]:
        """An event set on every change of ``game_id`` (and when the hub closes); ``seat``:
        the watcher's seat (None: a spectator or the host), counted as connected."""
        woken = asyncio.Event()
        self._watchers.setdefault(game_id, set()).add(woken)
        if seat is not None:
            self._arrive(game_id, seat, +1)
        try:
            yield woken
        finally:
            mine = self._watchers.get(game_id)
            if mine is not None:
                mine.discard(woken)
                if not mine:
                    del self._watchers[game_id]
                    self._latest.pop(game_id, None)
            if seat is not None:
                self._arrive(game_id, seat, -1)

    def _arrive(self, game_id: str, seat: int, step: int) -> None:
        present = self._present.setdefault(game_id, Counter())
        present[seat] += step
        if present[seat] <= 0:
            del present[seat]
        if not present:
            del self._present[game_id]
        if present[seat] == (1 if step > 0 else 0):  # the seat came or went: tell the others
            for woken in self._watchers.get(game_id, ()):
                woken.set()

    def connected(self, game_id: str) -> list[int]:
        """The seats of ``game_id`` with a stream open here."""
        return sorted(self._present.get(game_id, ()))

    def latest(self, game_id: str) -> GameEvent | None:
        """The newest state of a watched game known here."""
        return self._latest.get(game_id)

    def notify(self, game_id: str, state: GameEvent) -> None:
        """``game_id`` is now ``state`` (an older state than one known is ignored)."""
        if game_id not in self._watchers:
            return
        known = self._latest.get(game_id)
        if known is not None and newer(known, state) is known:
            return
        self._latest[game_id] = state
        for woken in self._watchers[game_id]:
            woken.set()

    def wake(self, game_id: str) -> None:
        """Wake ``game_id``'s streams without a change of the game (a review's progress)."""
        for woken in self._watchers.get(game_id, ()):
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
