"""The tables a server holds: games in the database, seats behind secret tokens, AI seats
played by the server itself.

Every database call runs on a thread pool of its own (one thread for SQLite, which
writes one transaction at a time anyway; several for PostgreSQL), never on the event
loop. A change of a game runs under this process's lock for that game and is committed
with the version check of :meth:`Store.append`, so another server process acting on the
same game at the same time makes one of the two fail (409 ``game_changed``), never a
double move. Replayed games are cached by id and version (at most ``max_games``).
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

import splendor
from splendor.errors import SplendorError
from splendor.web.ai import Plan, ServerLimits, choose, plan_move
from splendor.web.errors import TokenRequired, WrongToken
from splendor.web.events import POLL_S, Hub
from splendor.web.games import Game, GameChanged, TooLong
from splendor.web.models import Considered, GameEvent, MoveResponse
from splendor.web.store import Conflict, GameRow, Store

T = TypeVar("T")
log = logging.getLogger("splendor.web")

AI_STALE_S = 15.0
"""A game whose AI seat has been to decide this long without a change is picked up by any
server process's poller (its own process may have died); a double search costs time only."""

PICKUP_S = 2.0
"""How often the poller looks for such games."""

AI_PICKUP_BATCH = 100
"""Stale games picked up per round after startup (at startup: all of them)."""

_NO_GAME = hashlib.sha256(b"no such game").hexdigest()

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id can be (the server makes them with ``secrets.token_urlsafe``): anything
else is no game's, answered like an unknown id without asking the database (where a NUL,
say, is an error of its own in PostgreSQL)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(header: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if header is None:
        raise TokenRequired("this needs the seat's token: Authorization: Bearer <token>")
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise TokenRequired("the Authorization header must be 'Bearer <token>'")
    return token


Kind = Literal["seat", "spectator", "host", "invite"]


@dataclass(frozen=True, slots=True)
class Access:
    """Who a token is: a seat (``seat``), or with ``seat is None`` a spectator, the host
    (who watches as a spectator does and manages the seats) or the invitation."""

    row: GameRow
    seat: int | None
    kind: Kind = "seat"
    token: str = field(default="", repr=False)
    """The token itself, for the rematch's tokens derived from it (never stored)."""

    @property
    def role(self) -> str:
        """``seat N``'s place in a rematch is found by its seat; the others' by their kind."""
        return str(self.seat) if self.kind == "seat" else self.kind


@dataclass(frozen=True, slots=True)
class NewTokens:
    seats: list[str | None]
    spectator: str
    host: str
    invite: str | None = None


def new_token() -> str:
    return secrets.token_urlsafe(32)


def next_token(old: str, next_id: str, role: str) -> str:
    """The token of ``role`` (a seat's number, ``spectator``, ``host``) at the rematch
    ``next_id`` for the holder of ``old``: derived, so only that holder can have it, asking
    twice gives the same one (a retry, two browsers on one seat), and the server never holds
    it: the rematch's row holds the marker :func:`held_for` until it is first asked for, then
    the token's hash."""
    mac = hmac.new(old.encode("utf-8", "surrogatepass"), digestmod=hashlib.sha256)
    mac.update(f"splendor-next|{next_id}|{role}".encode())
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def held_for(role: str) -> str:
    """The marker a rematch's row holds, in place of a hash, for the token of ``role`` of the
    game before (no token's hash can equal it: hashes are hex)."""
    return f"from:{role}"


def event_of(row: GameRow) -> GameEvent:
    """What an event stream says of a game's row."""
    return GameEvent(
        version=row.version,
        step=row.steps,
        current=row.current,
        over=row.over,
        thinking=row.ai_to_move,
        seating=row.seating,
        next=row.next_game,
    )


def think(view: str, plan: Plan, seed: int) -> MoveResponse:
    """The AI's move from a seat's ``view`` (blocking: runs on a worker)."""
    return choose(splendor.from_view(view, seed=seed), plan, seed)


def _ai_plays(
    seat: int, action: int, note: tuple[float | None, list[Considered]], game: Game
) -> None:
    game.apply(seat, action, note)


class Tables:
    """The games of one database as this process serves them."""

    def __init__(self, store: Store, limits: ServerLimits, ai_pool: ThreadPoolExecutor) -> None:
        self.store = store
        self.limits = limits
        self.ai_pool = ai_pool
        # SQLite writes one transaction at a time: one writer thread; its readers (WAL) and
        # PostgreSQL's connections work side by side. An in-memory database is one
        # connection, so one thread does everything.
        self.db = ThreadPoolExecutor(
            max_workers=1 if store.sqlite else 8, thread_name_prefix="splendor-db"
        )
        self.db_read = (
            self.db
            if store.memory
            else ThreadPoolExecutor(max_workers=4, thread_name_prefix="splendor-db-read")
        )
        self.cache: OrderedDict[str, Game] = OrderedDict()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self.hub = Hub()
        self.ai_tasks: dict[str, asyncio.Task[None]] = {}
        self._poller: asyncio.Task[None] | None = None
        self.ai_stuck: dict[str, int] = {}
        """Games whose AI could not move, and at which version (not picked up again there)."""
        self.ai_moves = 0
        """AI moves this process committed (tests and the load bench read it)."""

    # ---- plumbing ------------------------------------------------------------------

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the blocking write ``fn(*args)`` on the database's writer thread(s)."""
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the blocking read ``fn(*args)`` on the database's reader threads."""
        return await asyncio.get_running_loop().run_in_executor(self.db_read, fn, *args)

    @asynccontextmanager
    async def locked(self, game_id: str) -> AsyncIterator[None]:
        """This process's lock on ``game_id`` (changes of one game run one at a time)."""
        lock, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    def remember(self, game: Game) -> None:
        old = self.cache.get(game.game_id)
        if old is not None and old.version > game.version:
            return
        self.cache[game.game_id] = game
        self.cache.move_to_end(game.game_id)
        while len(self.cache) > self.limits.max_games:
            self.cache.popitem(last=False)

    async def game(self, row: GameRow) -> Game:
        """The game at ``row``'s version: from the cache, or read back and replayed."""
        cached = self.cache.get(row.id)
        if cached is not None and cached.version == row.version:
            self.cache.move_to_end(row.id)
            cached.seat_names = row.names
            return cached

        def read() -> Game:
            return Game.restore(
                row.id,
                row.start,
                list(row.ai_seats),
                row.bot,
                self.limits.max_decisions,
                row.version,
                self.store.decisions(row.id, row.steps),
            )

        game = await self.read(read)
        self.remember(game)
        game.seat_names = row.names  # they change without a move: the row read now has them
        return game

    async def row(self, game_id: str) -> GameRow | None:
        return await self.read(self.store.game, game_id)

    async def access(self, game_id: str, authorization: str | None) -> Access:
        """Who the request's token is at ``game_id`` (401 without one, 403 if it is wrong)."""
        token = bearer(authorization)
        row = await self.row(game_id) if GAME_ID.fullmatch(game_id) else None
        hashes: list[str | None] = (
            [_NO_GAME] if row is None else [*row.tokens, row.spectator, row.host, row.invite]
        )
        given = token_hash(token)
        found: int | None = None
        # Every hash compared, in constant time, whatever matches.
        for i, h in enumerate(hashes):
            if h is not None and hmac.compare_digest(h, given):
                found = i
        if row is None or found is None:
            raise WrongToken("this token is not one of this game's (or there is no such game)")
        if found < row.players:
            return Access(row, found, "seat", token)
        kinds: tuple[Kind, ...] = ("spectator", "host", "invite")
        return Access(row, None, kinds[found - row.players], token)

    async def still_valid(self, who: Access) -> bool:
        """Whether ``who``'s token is still its game's (the host may have replaced it)."""
        row = await self.row(who.row.id)
        if row is None:  # pragma: no cover - games are never deleted
            return False
        kept = {
            "seat": row.tokens[who.seat] if who.seat is not None else None,
            "spectator": row.spectator,
            "host": row.host,
            "invite": row.invite,
        }[who.kind]
        return kept is not None and hmac.compare_digest(kept, token_hash(who.token))

    # ---- changes --------------------------------------------------------------------

    async def create(
        self,
        game: Game,
        open_seats: Sequence[int] = (),
        names: Sequence[str | None] = (),
    ) -> NewTokens:
        """Store a new game (dealt or loaded) with fresh tokens: one per human seat but the
        ``open_seats`` (claimed later through the invitation's token, made when there is
        one), the spectators', the host's; ``names``: the seats' display names. The AI
        starts if it is to."""
        seats: list[str | None] = [
            None if s in game.ai_seats or s in open_seats else new_token()
            for s in range(game.players)
        ]
        spectator, host = new_token(), new_token()
        invite = new_token() if open_seats else None
        hashes = tuple(None if t is None else token_hash(t) for t in seats)
        row = replace(
            game.row(hashes, token_hash(spectator)),
            host=token_hash(host),
            invite=None if invite is None else token_hash(invite),
            names=tuple(list(names) + [None] * (game.players - len(names))),
        )
        moves = [game.decision(i) for i in range(game.steps)]
        await self.call(self.store.create, row, moves)
        game.version = 0
        game.seat_names = row.names
        self.remember(game)
        self.after_change(game, row)
        return NewTokens(seats, spectator, host, invite)

    async def change(
        self, game_id: str, seen: int | None, act: Callable[[Game], int | None]
    ) -> Game:
        """Apply ``act`` to the game and commit it (``act`` returns the decisions it kept
        after an undo, None after a move); ``seen``: the version the client acted on."""
        async with self.locked(game_id):
            row = await self.row(game_id)
            if row is None:  # pragma: no cover - games are never deleted
                raise WrongToken("no such game")
            if seen is not None and seen != row.version:
                raise GameChanged(
                    f"the game is at version {row.version}, not {seen}: it changed since"
                )
            game = await self.game(row)
            kept = act(game)  # raises (nothing changed) or changes the game in memory
            try:
                if kept is None:
                    await self.call(
                        self.store.append,
                        game_id,
                        row.version,
                        game.decision(game.steps - 1),
                        game.position(),
                    )
                else:
                    await self.call(
                        self.store.truncate, game_id, row.version, kept, game.position()
                    )
            except Conflict:
                self.cache.pop(game_id, None)
                raise GameChanged(
                    "the game changed (another server process moved first): nothing was played"
                ) from None
            except BaseException:
                self.cache.pop(game_id, None)  # the commit's fate is unknown: read it back
                raise
            game.version = row.version + 1
            self.remember(game)
        self.after_change(game, row)
        return game

    def after_change(self, game: Game, row: GameRow) -> None:
        """Tell the streams of ``game``'s new position (``row``: its row before the change,
        whose seats it kept); the AI plays if it is to."""
        where = game.position()
        self.hub.notify(
            game.game_id,
            GameEvent(
                version=game.version,
                step=where.steps,
                current=where.current,
                over=where.over,
                thinking=where.ai_to_move,
                seating=row.seating,
                next=row.next_game,
            ),
        )
        if game.thinking:
            self.schedule_ai(game.game_id)

    def seats_changed(self, row: GameRow) -> None:
        """Tell the streams of a game whose seats changed (``row``: as it is now)."""
        self.hub.notify(row.id, event_of(row))

    # ---- the AI's seats -------------------------------------------------------------

    def schedule_ai(self, game_id: str, version: int | None = None) -> None:
        """Play the game's AI seats while one is to decide (one task per game here)."""
        if self.hub.closed:
            return
        task = self.ai_tasks.get(game_id)
        if task is not None and not task.done():
            return
        if version is not None and self.ai_stuck.get(game_id) == version:
            return
        task = asyncio.get_running_loop().create_task(self._play_ai(game_id))
        self.ai_tasks[game_id] = task
        task.add_done_callback(lambda t: self._ai_done(game_id, t))

    def _ai_done(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self.ai_tasks.get(game_id) is task:
            del self.ai_tasks[game_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("the AI of game %s failed", game_id, exc_info=task.exception())

    async def _play_ai(self, game_id: str) -> None:
        while not self.hub.closed:
            row = await self.row(game_id)
            if row is None or not row.ai_to_move:
                return
            game = await self.game(row)
            seat = game.current
            if seat is None or seat not in game.ai_seats:  # pragma: no cover - row says so
                return
            plan = plan_move(game.bot, None, None, self.limits, (row.variant, row.players))
            view, seed = game.state.to_json(seat), row.version
            # The AI searches from its seat's view only, like a client of /move.
            result = await asyncio.get_running_loop().run_in_executor(
                self.ai_pool, think, view, plan, seed
            )
            play = functools.partial(
                _ai_plays, seat, result.action_id, (result.win_estimate, result.considered)
            )
            try:
                await self.change(game_id, row.version, play)
            except GameChanged:
                continue  # someone else moved (an undo, another process): think again
            except (SplendorError, TooLong) as exc:
                # A move the game refuses (past max_decisions): the table waits for a person
                # (an undo), and the poller does not pick it up again at this version.
                log.error("the AI cannot move in game %s: %s", game_id, exc)
                self.ai_stuck[game_id] = row.version
                return
            self.ai_moves += 1

    # ---- the poller -----------------------------------------------------------------

    async def _states(self, ids: Sequence[str]) -> dict[str, GameEvent]:
        rows = await self.read(self.store.states, ids)
        return {game_id: event_of(row) for game_id, row in rows.items()}

    def start(self) -> None:
        self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        """Wake the streams of games changed by other processes; pick up AI seats that no
        process plays (at once at startup, then those unchanged for ``AI_STALE_S``)."""
        stale = 0.0
        last_pickup = -PICKUP_S
        while not self.hub.closed:
            try:
                await self.hub.poll(self._states)
                if time.monotonic() - last_pickup >= PICKUP_S:
                    last_pickup = time.monotonic()
                    # At startup every waiting game at once (a restart resumes them all);
                    # then, round by round, those no process has touched for a while.
                    limit = None if stale == 0 else AI_PICKUP_BATCH
                    waiting = await self.read(self.store.ai_waiting, stale, limit)
                    for game_id, version in waiting:
                        self.schedule_ai(game_id, version)
                    stale = AI_STALE_S
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - a database hiccup: try again next round
                log.exception("the poller's query failed")
            await asyncio.sleep(POLL_S)

    async def close(self) -> None:
        self.hub.close()
        tasks = [t for t in (self._poller, *self.ai_tasks.values()) if t is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.db.shutdown(wait=True)
        self.db_read.shutdown(wait=True)
        self.store.close()
