"""The seats of a table: the host's view and links, the invitation, names and the rematch
(:mod:`splendor.web.seating`); each through the one door of :mod:`splendor.web.access`."""

from __future__ import annotations

from fastapi import APIRouter, Path, Request

from splendor.web import models as m
from splendor.web.access import Host, Invitee, Player, Seat, ServerDep, Viewer
from splendor.web.seating import Seating
from splendor.web.snapshots import link, snapshot

router = APIRouter(prefix="/api/v1/games", tags=["seats"])


def seating(srv: ServerDep) -> Seating:
    return Seating(srv.tables, srv.dealer)


@router.get("/{game_id}/host", response_model=m.HostView)
async def host_view(who: Host, srv: ServerDep) -> m.HostView:
    """Every seat's state (`open`, `taken`, `connected`, `ai`) and name, for the host."""
    return seating(srv).host_view(who.row)


@router.post("/{game_id}/seats/{seat}/link", response_model=m.SeatToken)
async def relink(
    who: Host, srv: ServerDep, request: Request, seat: int = Path(ge=0, lt=4)
) -> m.SeatToken:
    """A new link for a human seat (the host's way to show a lost one again: tokens are
    stored hashed, so a link can only be given anew). The seat's old token stops working at
    once, its event stream too; an open seat is taken by the new link."""
    token = await seating(srv).relink(who, seat)
    base = srv.hosting.base(request)
    return m.SeatToken(
        game_id=who.row.id, seat=seat, token=token, link=link(base, who.row.id, token)
    )


@router.post("/{game_id}/invite", response_model=m.TokenLink)
async def reinvite(who: Host, srv: ServerDep, request: Request) -> m.TokenLink:
    """A new invitation's link (the old one stops working)."""
    token = await seating(srv).reinvite(who)
    return m.TokenLink(token=token, link=link(srv.hosting.base(request), who.row.id, token))


@router.get("/{game_id}/invite", response_model=m.InviteView)
async def invite_view(who: Invitee, srv: ServerDep) -> m.InviteView:
    """The table as the invitation shows it: its game, its seats, how many are open."""
    return seating(srv).invite_view(who.row)


@router.post("/{game_id}/claim", response_model=m.SeatToken)
async def claim(req: m.NameRequest, who: Invitee, srv: ServerDep, request: Request) -> m.SeatToken:
    """The first open seat, under the display name ``name`` (at most 24 characters): its
    own token and link. One claim per seat: when two claim the last one at once, exactly
    one gets it, the other 409 ``no_open_seat``."""
    seat, token = await seating(srv).claim(who, req.name)
    base = srv.hosting.base(request)
    return m.SeatToken(
        game_id=who.row.id, seat=seat, token=token, link=link(base, who.row.id, token)
    )


@router.post("/{game_id}/name", response_model=m.GameSnapshot)
async def rename(req: m.NameRequest, me: Seat, srv: ServerDep) -> m.GameSnapshot:
    """Set the token's seat's display name; answers its snapshot."""
    await seating(srv).rename(me.access, me.seat, req.name)
    row = await srv.tables.row(me.access.row.id) or me.access.row
    return snapshot(await srv.tables.game(row), me.seat, row)


@router.post("/{game_id}/rematch", response_model=m.NextLink)
async def rematch(who: Player, srv: ServerDep, request: Request) -> m.NextLink:
    """Once the game is over, a seat or the host deals the rematch (or finds the one dealt
    already): the same people and AIs, each person one seat on, so the first seat rotates.
    Answers the caller's own place there, as ``next`` does; the event stream tells every
    other page (``next``), and each asks for its own."""
    await seating(srv).rematch(who)
    return await _follow(who, srv, request)


@router.post("/{game_id}/next", response_model=m.NextLink)
async def follow(who: Viewer, srv: ServerDep, request: Request) -> m.NextLink:
    """The token's own place at the rematch: a seat's new seat, the spectators' or the
    host's link there, with a token derived from this one (the same if asked again); 409
    ``no_rematch`` before anyone asked for one."""
    return await _follow(who, srv, request)


async def _follow(who: Viewer, srv: ServerDep, request: Request) -> m.NextLink:
    answer, token = await seating(srv).follow(who)
    answer.link = link(srv.hosting.base(request), answer.game_id, token)
    return answer
