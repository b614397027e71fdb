"""Who sits where: open seats claimed through the invitation, links the host gives anew,
display names, and the rematch that moves every seat to its place at a new table.

Tokens are stored hashed, so a lost link cannot be shown again: the host gives the seat a
new token, and the old one stops working at once (its event stream ends too). Every change
of the seats is one conditional update on the game's ``seating`` counter
(:meth:`Store.seat_change`): of two claims racing for the last open seat, exactly one is
written, on SQLite and on PostgreSQL alike, and the other finds no seat left.

A rematch is a new game whose row records, in place of each token's hash, which token of the
game before it is held for (:func:`~splendor.web.tables.held_for`). Each browser asks for its
own place with its old token (``POST .../next``) and gets a token derived from that old one
(:func:`~splendor.web.tables.next_token`): only its holder can have it, asking twice gives the
same one, and no token is ever stored in plain.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from splendor.errors import ConfigError
from splendor.web import models as m
from splendor.web.errors import GameNotOver, NoOpenSeat, NoRematch, SeatTaken, WrongToken
from splendor.web.games import Dealer, GameChanged, SeatError
from splendor.web.store import Conflict, GameRow
from splendor.web.tables import (
    Access,
    Tables,
    held_for,
    new_token,
    next_token,
    token_hash,
)

T = TypeVar("T")

RETRIES = 16
"""How many times a seat change is tried again when another changed the seats first."""


def check_seating(
    players: int, ai_seats: Sequence[int], open_seats: Sequence[int], names: Sequence[str | None]
) -> None:
    """Refuse open seats and names that are not a human seat's (422 ``bad_config``)."""
    bad = sorted({s for s in open_seats if not 0 <= s < players or s in ai_seats})
    if bad:
        raise ConfigError(f"open seat(s) {bad} are not human seats of this {players}-seat table")
    if len(names) > players:
        raise ConfigError(f"{len(names)} names for a {players}-seat table")
    named_ai = [s for s, n in enumerate(names) if n is not None and s in ai_seats]
    if named_ai:
        raise ConfigError(f"seat(s) {named_ai} are the AI's: the boards name them AI")


def open_seats(row: GameRow) -> list[int]:
    """The human seats of ``row`` with no token given out: the invitation claims them."""
    return [s for s in range(row.players) if s not in row.ai_seats and row.tokens[s] is None]


def rotated(seat: int, players: int) -> int:
    """Where the person at ``seat`` sits at the rematch: one seat on, so that the seat after
    the first player's plays first."""
    return (seat - 1) % players


def _names(row: GameRow) -> list[str | None]:
    return [row.name(s) for s in range(row.players)]


class Seating:
    """The seat changes of the tables of one :class:`Tables`."""

    def __init__(self, tables: Tables, dealer: Dealer) -> None:
        self.tables, self.dealer = tables, dealer

    async def _change(
        self, game_id: str, change: Callable[[GameRow], tuple[dict[str, Any], T]]
    ) -> T:
        """Apply ``change`` (from the game's row: the columns to set, and what to answer) as
        one conditional update, reading the row again as long as another change wins."""
        tables = self.tables
        for _ in range(RETRIES):
            row = await tables.row(game_id)
            if row is None:  # pragma: no cover - games are never deleted
                raise WrongToken("no such game")
            values, answer = change(row)  # raises (nothing written) when it may not be made
            try:
                write = functools.partial(tables.store.seat_change, **values)
                await tables.call(write, game_id, row.seating)
            except Conflict:
                continue
            tables.seats_changed(replace(row, seating=row.seating + 1, **values))
            return answer
        raise GameChanged("the seats of this table kept changing: nothing was changed, try again")

    # ---- the invitation -------------------------------------------------------------

    async def claim(self, who: Access, name: str) -> tuple[int, str]:
        """The first open seat, with ``name``, for the invitation's holder: its seat and its
        new token."""
        token = new_token()

        def change(row: GameRow) -> tuple[dict[str, Any], tuple[int, str]]:
            free = open_seats(row)
            if not free:
                raise NoOpenSeat(
                    "every seat of this table is taken: ask the host for a seat's link"
                )
            seat = free[0]
            tokens, names = list(row.tokens), _names(row)
            tokens[seat], names[seat] = token_hash(token), name
            return {"tokens": tuple(tokens), "names": tuple(names)}, (seat, token)

        return await self._change(who.row.id, change)

    def invite_view(self, row: GameRow) -> m.InviteView:
        free = open_seats(row)
        return m.InviteView(
            game_id=row.id,
            variant=row.variant,
            players=row.players,
            over=row.over,
            seats=[
                m.InviteSeat(
                    seat=s,
                    role="ai" if s in row.ai_seats else "human",
                    name=None if s in row.ai_seats else row.name(s),
                    open=s in free,
                )
                for s in range(row.players)
            ],
            open_seats=len(free),
        )

    # ---- the host -------------------------------------------------------------------

    def host_view(self, row: GameRow) -> m.HostView:
        connected = set(self.tables.hub.connected(row.id))
        free = open_seats(row)

        def state(s: int) -> Any:
            if s in row.ai_seats:
                return "ai"
            if s in free:
                return "open"
            return "connected" if s in connected else "taken"

        return m.HostView(
            game_id=row.id,
            variant=row.variant,
            players=row.players,
            over=row.over,
            next=row.next_game,
            invite=row.invite is not None,
            seats=[
                m.HostSeat(
                    seat=s,
                    role="ai" if s in row.ai_seats else "human",
                    name=None if s in row.ai_seats else row.name(s),
                    state=state(s),
                )
                for s in range(row.players)
            ],
        )

    async def relink(self, who: Access, seat: int) -> str:
        """A new token for the human ``seat`` (open or not): the old one stops working."""
        token = new_token()

        def change(row: GameRow) -> tuple[dict[str, Any], str]:
            if not 0 <= seat < row.players or seat in row.ai_seats:
                raise SeatError(f"seat {seat} is not a human seat of this table")
            tokens = list(row.tokens)
            tokens[seat] = token_hash(token)
            return {"tokens": tuple(tokens)}, token

        return await self._change(who.row.id, change)

    async def reinvite(self, who: Access) -> str:
        """A new invitation's token (the old one stops working)."""
        token = new_token()
        return await self._change(who.row.id, lambda _: ({"invite": token_hash(token)}, token))

    async def rename(self, who: Access, seat: int, name: str) -> None:
        def change(row: GameRow) -> tuple[dict[str, Any], None]:
            names = _names(row)
            names[seat] = name
            return {"names": tuple(names)}, None

        await self._change(who.row.id, change)

    # ---- the rematch ----------------------------------------------------------------

    async def rematch(self, who: Access) -> str:
        """The id of the game's rematch, dealt now unless someone did before: the same
        people (each at the seat after theirs) and AIs, the same AI, a new deal."""
        tables = self.tables
        row = await tables.row(who.row.id)
        if row is None:  # pragma: no cover - games are never deleted
            raise WrongToken("no such game")
        if row.next_game is not None:
            return row.next_game
        if not row.over:
            raise GameNotOver("the game goes on: a rematch is dealt once it is over")
        n = row.players
        ai_seats = sorted(rotated(s, n) for s in row.ai_seats)
        game = self.dealer.deal(row.variant, n, None, ai_seats, row.bot)
        tokens: list[str | None] = [None] * n
        names: list[str | None] = [None] * n
        for s in range(n):
            if s not in row.ai_seats and row.tokens[s] is not None:
                tokens[rotated(s, n)] = held_for(str(s))
            names[rotated(s, n)] = None if s in row.ai_seats else row.name(s)
        new = replace(
            game.row(tuple(tokens), held_for("spectator")),
            host=None if row.host is None else held_for("host"),
            names=tuple(names),
        )
        try:
            await tables.call(tables.store.rematch, row.id, new)
        except Conflict:  # another seat asked at the same moment, and dealt first
            again = await tables.row(row.id)
            assert again is not None and again.next_game is not None
            return again.next_game
        game.version, game.seat_names = 0, new.names
        tables.remember(game)
        tables.after_change(game, new)
        tables.seats_changed(replace(row, seating=row.seating + 1, next_game=game.game_id))
        return game.game_id

    async def follow(self, who: Access) -> tuple[m.NextLink, str]:
        """``who``'s own token at the rematch (and its kind there): derived from its token
        here, written the first time it is asked for. Returns the answer without its link
        (the route adds it) and the token."""
        tables = self.tables
        row = await tables.row(who.row.id)
        if row is None or row.next_game is None:
            raise NoRematch("nobody has asked for a rematch of this game yet")
        next_id = row.next_game
        seat = None if who.seat is None else rotated(who.seat, row.players)
        role = who.kind if seat is None else str(seat)
        token = next_token(who.token, next_id, role)
        want, marker = token_hash(token), held_for(who.role)

        def change(nxt: GameRow) -> tuple[dict[str, Any], bool]:
            if seat is not None:
                held = nxt.tokens[seat]
            else:
                held = nxt.spectator if who.kind == "spectator" else nxt.host
            if held == want:
                raise _AlreadyThere
            if held != marker:
                raise SeatTaken(
                    "the host has given this place at the rematch to someone else's link:"
                    " ask them for it"
                )
            if seat is None:
                return {who.kind: want}, True
            tokens = list(nxt.tokens)
            tokens[seat] = want
            return {"tokens": tuple(tokens)}, True

        # Asked for before (a retry, another browser of the same seat): the same token.
        with contextlib.suppress(_AlreadyThere):
            await self._change(next_id, change)
        kind: Any = "seat" if seat is not None else who.kind
        return m.NextLink(game_id=next_id, role=kind, seat=seat, token=token, link=""), token


class _AlreadyThere(Exception):
    """The token asked for at the rematch is there already: nothing to write."""
