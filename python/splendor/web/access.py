"""One door per seat: the FastAPI dependencies every table endpoint takes its caller from.

A route of a table declares what it needs — :func:`viewer` (a seat's, the spectators' or
the host's token), :func:`seat` (a seat's token only), :func:`host` (the host's),
:func:`invitee` (the invitation's) or :func:`player` (a seat's or the host's) — and gets it
checked the same way as every other route: the token read from the ``Authorization``
header only, a missing one 401, a wrong one (or an id that is no game's, however
malformed) the one 403 ``wrong_token``, a token of the game that may not do this a 403 that
says which is needed (``spectator``, ``host_only``, ``invite_only``, ``invitation``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request

from splendor.web.clients import ClientBounds, Searches
from splendor.web.errors import HostOnly, InvitationOnly, InviteOnly, SpectatorOnly
from splendor.web.games import Dealer
from splendor.web.hosting import Hosting
from splendor.web.reviews import Reviews
from splendor.web.tables import Access, Tables


@dataclass(frozen=True)
class Server:
    """What the routes share: the tables, the dealer, the search pool, the client bounds and
    the reviews."""

    tables: Tables
    dealer: Dealer
    searches: Searches
    clients: ClientBounds
    hosting: Hosting
    reviews: Reviews


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
    """Who the token is at ``game_id``: a seat, or a spectator or the host (``seat is
    None``; the host watches as a spectator does)."""
    who = await srv.tables.access(game_id, authorization)
    if who.kind == "invite":
        raise InvitationOnly(
            "an invitation's token can claim a seat (POST .../claim), nothing else: claim one first"
        )
    return who


async def any_token(
    game_id: str,
    srv: Annotated[Server, Depends(server)],
    authorization: str | None = Authorization,
) -> Access:
    """Any token of the game's, the invitation's included."""
    return await srv.tables.access(game_id, authorization)


@dataclass(frozen=True, slots=True)
class SeatAccess:
    """A seat's token: its game's row and its seat."""

    access: Access
    seat: int


async def seat(who: Annotated[Access, Depends(viewer)]) -> SeatAccess:
    """A seat's token (a spectator's is 403 ``spectator``)."""
    if who.seat is None:
        whose = "the host's" if who.kind == "host" else "a spectator's"
        raise SpectatorOnly(f"{whose} token can watch the game, not act in it")
    return SeatAccess(who, who.seat)


async def host(who: Annotated[Access, Depends(any_token)]) -> Access:
    """The host's token (any other of the game's is 403 ``host_only``)."""
    if who.kind != "host":
        raise HostOnly("this needs the table's host link (its token), which its maker got")
    return who


async def invitee(who: Annotated[Access, Depends(any_token)]) -> Access:
    """The invitation's token (any other of the game's is 403 ``invite_only``)."""
    if who.kind != "invite":
        raise InviteOnly("this needs the table's invitation link (its token)")
    return who


async def player(who: Annotated[Access, Depends(viewer)]) -> Access:
    """A seat's or the host's token (a spectator's is 403 ``spectator``)."""
    if who.kind == "spectator":
        raise SpectatorOnly("a spectator's token can watch the game, not ask for a rematch")
    return who


Viewer = Annotated[Access, Depends(viewer)]
Host = Annotated[Access, Depends(host)]
Invitee = Annotated[Access, Depends(invitee)]
Player = Annotated[Access, Depends(player)]
Seat = Annotated[SeatAccess, Depends(seat)]
ServerDep = Annotated[Server, Depends(server)]
Client = Annotated[str, Depends(client_of)]
