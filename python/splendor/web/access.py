"""One door per seat: the FastAPI dependencies every table endpoint takes its caller from.

A route of a table declares what it needs — :func:`viewer` (a seat's or the spectators'
token) or :func:`seat` (a seat's token only) — and gets it checked the same way as every
other route: the token read from the ``Authorization`` header only, a missing one 401, a
wrong one (or an id that is no game's, however malformed) the one 403 ``wrong_token``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request

from splendor.web.clients import ClientBounds, Searches
from splendor.web.errors import SpectatorOnly
from splendor.web.games import Dealer
from splendor.web.tables import Access, Tables


@dataclass(frozen=True)
class Server:
    """What the routes share: the tables, the dealer, the search pool and the client bounds."""

    tables: Tables
    dealer: Dealer
    searches: Searches
    clients: ClientBounds


def server(request: Request) -> Server:
    found: Server = request.app.state.server
    return found


def client_of(request: Request) -> str:
    """The client's address (the proxy's forwarded one when the proxy is trusted)."""
    return request.client.host if request.client is not None else "unknown"


Authorization = Header(
    default=None,
    alias="Authorization",
    description="`Bearer <token>`: a seat's or the spectators' token of the game",
)


async def viewer(
    game_id: str,
    srv: Annotated[Server, Depends(server)],
    authorization: str | None = Authorization,
) -> Access:
    """Who the token is at ``game_id``: a seat, or a spectator (``seat is None``)."""
    return await srv.tables.access(game_id, authorization)


@dataclass(frozen=True, slots=True)
class SeatAccess:
    """A seat's token: its game's row and its seat."""

    access: Access
    seat: int


async def seat(who: Annotated[Access, Depends(viewer)]) -> SeatAccess:
    """A seat's token (a spectator's is 403 ``spectator``)."""
    if who.seat is None:
        raise SpectatorOnly("a spectator's token can watch the game, not act in it")
    return SeatAccess(who, who.seat)


Viewer = Annotated[Access, Depends(viewer)]
Seat = Annotated[SeatAccess, Depends(seat)]
ServerDep = Annotated[Server, Depends(server)]
Client = Annotated[str, Depends(client_of)]
