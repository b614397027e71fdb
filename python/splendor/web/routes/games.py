"""The tables: deal or load a game, then each seat acts, asks for hints, undoes, saves,
replays and watches, through its own secret token (:mod:`splendor.web.access`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

import splendor
from splendor.errors import ConfigError
from splendor.render.review import mistake_board
from splendor.review import Review
from splendor.web import models as m
from splendor.web.access import Client, Seat, ServerDep, Viewer
from splendor.web.ai import choose, plan_move
from splendor.web.boards import board_svg
from splendor.web.errors import ApiError, SaveRefused
from splendor.web.events import newer
from splendor.web.games import PLAYERS, Game, check_turn
from splendor.web.seating import check_seating
from splendor.web.snapshots import snapshot, table_links
from splendor.web.tables import event_of

KEEPALIVE_S = 15.0
"""Seconds between the keepalive comments of an idle event stream."""

router = APIRouter(prefix="/api/v1/games", tags=["games"])


@router.post("", response_model=m.NewTable, status_code=201)
async def new_game(req: m.NewGame, srv: ServerDep, client: Client, request: Request) -> m.NewTable:
    """Deal a new table: one secret token (and link) per human seat but the open ones, the
    spectators', the host's, and the invitation's when seats are open.

    The server plays the AI's seats itself.
    """
    if req.players not in PLAYERS[req.variant]:
        raise ConfigError(
            f"{req.variant} is played by {PLAYERS[req.variant]} players, not {req.players}"
        )
    plan_move(req.bot, None, None, srv.tables.limits, (req.variant, req.players))
    game = srv.dealer.deal(req.variant, req.players, req.seed, req.ai_seats, req.bot)
    check_seating(game.players, game.ai_seats, req.open_seats, req.names)
    srv.clients.table_made(client)
    made = await srv.tables.create(game, sorted(set(req.open_seats)), req.names)
    return table_links(game, made, srv.hosting.base(request))


@router.post("/load", response_model=m.NewTable, status_code=201)
async def load(req: m.SavedGame, srv: ServerDep, client: Client, request: Request) -> m.NewTable:
    """Continue a saved game (the JSON of ``GET /api/v1/games/{id}/save``) at a new table."""
    start = json.dumps(req.start)
    first = splendor.from_json(start)  # InvalidStateError for a bad start
    plan_move(req.bot, None, None, srv.tables.limits, (first.variant, first.num_players))
    game = srv.dealer.make(start, req.ai_seats, req.bot, req.actions)
    srv.clients.table_made(client)
    return table_links(game, await srv.tables.create(game), srv.hosting.base(request))


@router.get("/{game_id}", response_model=m.GameSnapshot)
async def get_game(who: Viewer, srv: ServerDep) -> m.GameSnapshot:
    """What the token's seat sees of the game (its legal actions when it is to decide);
    a spectator's token: the public information until the game is over."""
    return snapshot(await srv.tables.game(who.row), who.seat, who.row, who.kind)


@router.post("/{game_id}/actions", response_model=m.GameSnapshot)
async def act(req: m.ActionRequest, me: Seat, srv: ServerDep) -> m.GameSnapshot:
    """Play an action for the token's seat; an illegal one is explained (422)."""

    def play(game: Game) -> None:
        game.apply(me.seat, req.action)

    changed = await srv.tables.change(me.access.row.id, req.version, play)
    return snapshot(changed, me.seat, me.access.row)


@router.post("/{game_id}/hint", response_model=m.HintResponse)
async def hint(req: m.HintRequest, me: Seat, srv: ServerDep, client: Client) -> m.MoveResponse:
    """What the AI would play for the token's seat (to decide), and why: its three most
    visited moves with their win probabilities, visits, words and expected continuation
    (2-3 decisions, searched from the seat's view only); nothing is played."""
    game = await srv.tables.game(me.access.row)
    check_turn(game, me.seat)
    bot = req.bot or game.bot
    plan = plan_move(bot, None, None, srv.tables.limits, (game.state.variant, game.players))
    # The AI searches from the seat's view only, like a client of /move.
    view, seed = game.state.to_json(me.seat), req.seed
    return await srv.searches.run(
        client, lambda: choose(splendor.from_view(view, seed=seed), plan, seed, explain=True)
    )


@router.post("/{game_id}/undo", response_model=m.GameSnapshot)
async def undo(req: m.UndoRequest, me: Seat, srv: ServerDep) -> m.GameSnapshot:
    """Take back the token's seat's last decision and the AI's replies after it, at the
    version the client saw (409 ``game_changed`` at another: a retried undo takes back one
    decision, not two; ``undo_refused`` when another person has moved since; ``game_over``
    once the game is over)."""
    changed = await srv.tables.change(me.access.row.id, req.version, lambda g: g.undo(me.seat))
    return snapshot(changed, me.seat, me.access.row)


@router.get("/{game_id}/save", response_model=m.SavedGame)
async def save(who: Viewer, srv: ServerDep) -> Response:
    """The whole game as a download: its starting state and decisions.

    It holds the hidden cards (as a saved game in a box would): a seat's token may
    save only when it is the table's only human seat, anyone's once the game is over.
    """
    game = await srv.tables.game(who.row)
    humans = [s for s in range(game.players) if s not in game.ai_seats]
    if game.current is not None and not (who.seat is not None and humans == [who.seat]):
        raise SaveRefused(
            "a saved game holds every hidden card: it can be saved by the table's only"
            " person, or by anyone once the game is over"
        )
    body = json.dumps(game.saved(), indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="splendor-{game.game_id}.json"'},
    )


@router.get("/{game_id}/replay", response_model=m.ReplayFrame)
async def replay(who: Viewer, srv: ServerDep, step: int = Query(ge=0)) -> m.ReplayFrame:
    """The token's board after the first ``step`` decisions (what it saw then)."""
    game = await srv.tables.game(who.row)
    steps = game.steps
    if step > steps:
        raise ConfigError(f"step {step} is past the {steps} decisions of this game")
    # A spectator sees the public boards until the game is over, then everything.
    svg = board_svg(game, game.replay(step), who.seat, step=step)
    return m.ReplayFrame(
        step=step, steps=steps, svg=svg, action=game.texts[step - 1] if step else None
    )


@router.post("/{game_id}/review", response_model=m.ReviewStatus)
async def start_review(who: Viewer, srv: ServerDep) -> m.ReviewStatus:
    """Review the finished game (any token of the table): every decision searched by the
    default AI from the mover's information and graded. Started once, in the background on
    the server's low-priority review thread; a review stored, waiting or running is
    answered as it is. Progress comes over the event stream (``event: review``); 409
    ``game_not_over`` while the game goes on, 503 ``busy`` when ``max_reviews`` wait."""
    return await srv.reviews.start(await srv.tables.game(who.row))


@router.get("/{game_id}/review", response_model=m.ReviewStatus)
async def get_review(who: Viewer, srv: ServerDep) -> m.ReviewStatus:
    """The finished game's review: ``none`` (not started here), ``pending``, ``running``
    (``done`` of ``total`` decisions), ``done`` with the review, or ``failed``."""
    return await srv.reviews.status(await srv.tables.game(who.row))


@router.get("/{game_id}/review/board", response_model=m.ReplayFrame)
async def review_board(who: Viewer, srv: ServerDep, decision: int = Query(ge=0)) -> m.ReplayFrame:
    """The board before a reviewed decision, from the mover's view: the move played
    marked in orange (``class="last"``), the AI's preferred move in dashed green
    (``class="preferred"``). The game is over: every seat may see it."""
    game = await srv.tables.game(who.row)
    status = await srv.reviews.status(game)
    if status.review is None:
        raise ApiError(
            409,
            "no_review",
            "the game has no review yet: ask for it (POST .../review) and wait until it is done",
        )
    if decision >= game.steps:
        raise ConfigError(f"decision {decision} is past the {game.steps} decisions of this game")
    text = await srv.tables.read(srv.tables.store.review, game.game_id)
    svg = await asyncio.to_thread(lambda: mistake_board(Review.from_json(str(text)), decision))
    return m.ReplayFrame(step=decision, steps=game.steps, svg=svg, action=game.texts[decision])


class HeldStream(StreamingResponse):
    """An event stream that gives its client's stream slot back however it ends."""

    def __init__(self, content: AsyncIterator[str], release: Any, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


@router.get(
    "/{game_id}/events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def events(who: Viewer, srv: ServerDep, client: Client) -> StreamingResponse:
    """Server-sent events: ``event: game`` with ``{version, step, current, over,
    thinking, seating, next, connected}`` at once and after every change of the game or
    its seats (made by any server process) and when a seat's stream opens or ends here,
    ``event: review`` with ``{state, done, total}`` as a review of the game runs in this
    process, and a ``: keepalive`` comment every 15 s. Refetch the snapshot when ``version`` or
    ``seating`` changed; ``next``, once set, is the rematch (``POST .../next``). A stream
    whose token is replaced ends. A client may hold ``max_streams_per_client`` streams at
    once (429 beyond)."""
    tables, reviews, game_id = srv.tables, srv.reviews, who.row.id
    slot = srv.clients.stream(client)
    slot.__enter__()  # 429 here, before the response starts, when the client holds too many

    async def stream() -> AsyncIterator[str]:
        sent = ""
        review_sent: m.ReviewStatus | None = None
        state: m.GameEvent = event_of(who.row)
        checked = state.seating
        async with tables.hub.watch(game_id, who.seat) as woken:
            while not tables.hub.closed:
                if state.seating != checked:
                    # The seats changed: a token replaced since loses its stream at once.
                    checked = state.seating
                    if not await tables.still_valid(who):
                        return
                now = state.model_copy(update={"connected": tables.hub.connected(game_id)})
                data = now.model_dump_json()
                if data != sent:
                    sent = data
                    yield f"event: game\ndata: {data}\n\n"
                review = reviews.progress(game_id)
                if review is not None and review != review_sent:
                    review_sent = review
                    yield f"event: review\ndata: {review.model_dump_json()}\n\n"
                try:
                    await asyncio.wait_for(woken.wait(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keepalive\n\n"
                woken.clear()
                latest = tables.hub.latest(game_id)
                if latest is not None:
                    state = newer(state, latest)

    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            slot.__exit__(None, None, None)

    return HeldStream(
        stream(),
        release,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
