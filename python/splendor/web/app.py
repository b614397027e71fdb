"""The ASGI app: the page, and the versioned JSON API under ``/api/v1``.

Searches run in a bounded thread pool (the engine releases the GIL), never on the
event loop; at most ``max_pending`` moves wait for it, beyond that a 503. Every
error is JSON of one shape, ``{"error": {"code", "message", "status"}}``, and no
input gets a 500: malformed JSON, unknown variants, illegal actions, tampered
views, oversized budgets and bodies are all 4xx, and leave games as they were.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any, TypeVar

import numpy as np
from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import splendor
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    SplendorError,
)
from splendor.web import models as m
from splendor.web.ai import BudgetError, ServerLimits, choose, plan_move
from splendor.web.boards import board_svg, board_text, view_json
from splendor.web.games import (
    PLAYERS,
    Dealer,
    Game,
    GameChanged,
    SeatError,
    TooLong,
    UndoRefused,
)
from splendor.web.store import Store
from splendor.web.tables import (
    Access,
    NewTokens,
    SaveRefused,
    SpectatorOnly,
    Tables,
    TokenRequired,
    WrongToken,
    event_of,
)

T = TypeVar("T")
STATIC = files("splendor.web") / "static"
STATIC_FILES = {
    "app.js": "text/javascript",
    "style.css": "text/css",
    "favicon.svg": "image/svg+xml",
}


class Busy(RuntimeError):
    """Too many moves waiting for a worker."""


class ApiError(Exception):
    """An error with its status and stable code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


ERROR_CODES: frozenset[tuple[int, str]] = frozenset(
    {
        (400, "malformed_json"),
        (400, "bad_request"),
        (401, "token_required"),
        (403, "wrong_token"),
        (403, "spectator"),
        (403, "save_refused"),
        (404, "not_found"),
        (405, "method_not_allowed"),
        (409, "wrong_seat"),
        (409, "game_changed"),
        (409, "undo_refused"),
        (413, "body_too_large"),
        (422, "invalid_request"),
        (422, "illegal_action"),
        (422, "invalid_action"),
        (422, "invalid_state"),
        (422, "bad_config"),
        (422, "bad_request"),
        (422, "budget_too_large"),
        (422, "game_too_long"),
        (500, "internal"),
        (503, "busy"),
    }
)
"""Every (status, code) an error answer can have: the table of docs/web.md, tested."""


def error_response(status: int, code: str, message: str) -> JSONResponse:
    body = m.ErrorResponse(error=m.ErrorBody(code=code, message=message, status=status))
    return JSONResponse(body.model_dump(), status_code=status)


_SPLENDOR_ERRORS: list[tuple[type[Exception], int, str]] = [
    (IllegalActionError, 422, "illegal_action"),
    (InvalidActionError, 422, "invalid_action"),
    (InvalidStateError, 422, "invalid_state"),
    (ConfigError, 422, "bad_config"),
    (SplendorError, 422, "bad_request"),
    (BudgetError, 422, "budget_too_large"),
    (SeatError, 409, "wrong_seat"),
    (GameChanged, 409, "game_changed"),
    (UndoRefused, 409, "undo_refused"),
    (TooLong, 422, "game_too_long"),
    (TokenRequired, 401, "token_required"),
    (WrongToken, 403, "wrong_token"),
    (SpectatorOnly, 403, "spectator"),
    (SaveRefused, 403, "save_refused"),
    (Busy, 503, "busy"),
]


MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects a request body may have (a view nests about 5)."""

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def json_depth(body: bytes) -> int:
    """How deep ``body``'s arrays and objects nest, brackets inside strings not counted.

    Checked before parsing: whether the parser itself gives up on a deep body depends on
    the interpreter's recursion limit and on how deep its stack already is, which vary
    from process to process, so the limit is the server's own.
    """
    bytes_ = np.frombuffer(_JSON_STRING.sub(b'""', body), dtype=np.uint8)
    step = np.isin(bytes_, (ord("["), ord("{"))).astype(np.int32)
    step -= np.isin(bytes_, (ord("]"), ord("}")))
    return int(np.cumsum(step).max(initial=0))


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with a 413, declared or streamed, and one
    nesting deeper than :data:`MAX_JSON_DEPTH` with a 400 ``malformed_json``.

    The body is read here, whole, before the app sees it (it is at most ``limit`` bytes):
    so a streamed body over the limit is a 413 too, never a parse error of the app's.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        too_big = error_response(
            413, "body_too_large", f"request bodies are limited to {self.limit} bytes"
        )
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await too_big(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body: nobody to answer
            body += message.get("body", b"")
            if len(body) > self.limit:
                await too_big(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        # Fewer brackets than the limit cannot nest deeper than it: most bodies stop here.
        brackets = body.count(b"[") + body.count(b"{")
        if brackets > MAX_JSON_DEPTH and json_depth(bytes(body)) > MAX_JSON_DEPTH:
            too_deep = error_response(
                400, "malformed_json", f"the request body nests deeper than {MAX_JSON_DEPTH} levels"
            )
            await too_deep(scope, receive, send)
            return
        whole: Message | None = {"type": "http.request", "body": bytes(body), "more_body": False}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()

        await self.app(scope, replay, send)


def load_view(view: dict[str, Any], seed: int) -> Any:
    """The state to search for the player whose view this is (that player must be to decide)."""
    viewer = view.get("viewer")
    if viewer is None:
        raise InvalidStateError("send the player's view (to_json(player)), not a full state")
    state = splendor.from_view(json.dumps(view), seed=seed)
    if state.is_terminal():
        raise ConfigError("the game is over: there is no move to make")
    if state.current_player != viewer:
        raise SeatError(
            f"this is seat {viewer}'s view but seat {state.current_player} is to decide"
        )
    return state


def _handler(status: int, code: str) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(_: Request, exc: Exception) -> Response:
        return error_response(status, code, str(exc))

    return handler


KEEPALIVE_S = 15.0
"""Seconds between the keepalive comments of an idle event stream."""


def create_app(limits: ServerLimits | None = None, db: str | Store = "sqlite://") -> FastAPI:
    """A new app with its own worker pool, on the database ``db``: a SQLite path or URL
    (the default, ``sqlite://``, is an in-memory database: for tests), a PostgreSQL URL, or
    a :class:`Store`."""
    limits = limits or ServerLimits(workers=os.cpu_count() or 1)
    pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="splendor-ai")
    store = db if isinstance(db, Store) else Store(db)
    tables = Tables(store, limits, pool)
    dealer = Dealer(limits.max_decisions, limits.max_turn_cap)
    pending = 0

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        tables.start()
        yield
        await tables.close()
        pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="splendor",
        version="1",
        summary="Play Splendor, Splendor Duel and Splendor: Marvel with people and the AI;"
        " ask it for moves.",
        lifespan=lifespan,
        # The interactive docs pages load their scripts from a CDN: only the schema is served.
        docs_url=None,
        redoc_url=None,
        responses={
            400: {"model": m.ErrorResponse},
            401: {"model": m.ErrorResponse},
            403: {"model": m.ErrorResponse},
            404: {"model": m.ErrorResponse},
            409: {"model": m.ErrorResponse},
            413: {"model": m.ErrorResponse},
            422: {"model": m.ErrorResponse},
            503: {"model": m.ErrorResponse},
        },
    )
    app.state.limits = limits
    app.state.tables = tables

    async def in_pool(fn: Callable[[], T]) -> T:
        """Run ``fn`` on a worker; a 503 when ``max_pending`` calls already wait."""
        nonlocal pending
        if pending >= limits.max_pending:
            raise Busy(f"{pending} moves are waiting for {limits.workers} workers; try again later")
        pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn)
        finally:
            pending -= 1

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    for exc_type, status, code in _SPLENDOR_ERRORS:
        app.add_exception_handler(exc_type, _handler(status, code))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "malformed_json", "the request body is not valid JSON")
        parts = []
        for e in errors[:5]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
        return error_response(422, "invalid_request", "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # A body the JSON parser gave up on (e.g. nested deeper than it goes).
            return error_response(
                400, "malformed_json", f"the request body could not be read as JSON: {exc.detail}"
            )
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code)
        if code is None:
            return error_response(400, "bad_request", str(exc.detail))
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def crash(_: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return error_response(500, "internal", f"internal error: {type(exc).__name__}")

    # ---- the page ----------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # Browsers ask for it whatever the page links: the same picture.
        return await static("favicon.svg")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        if name not in STATIC_FILES:
            raise ApiError(404, "not_found", f"no static file {name!r}")
        return Response((STATIC / name).read_text(encoding="utf-8"), media_type=STATIC_FILES[name])

    # ---- the service --------------------------------------------------------------------

    @app.get("/api/v1", response_model=m.ServerInfo, tags=["service"])
    async def info() -> m.ServerInfo:
        """Variants, player counts and this server's limits."""
        return m.ServerInfo(
            version=splendor.__version__,
            variants=[m.VariantInfo(name=v, players=p) for v, p in PLAYERS.items()],
            limits=m.Limits(**limits.__dict__),
        )

    @app.post("/api/v1/move", response_model=m.MoveResponse, tags=["service"])
    async def move(req: m.MoveRequest) -> m.MoveResponse:
        """The AI's move for the player whose view this is (the player to decide).

        The view is a state's ``to_json(player)``: hidden cards stay hidden, the server
        fills them with a determinization drawn from ``seed``, and the search
        resamples them at every iteration.
        """
        plan = plan_move(req.bot, req.budget.iterations, req.budget.time_limit, limits)
        view = req.view
        # Loading the view is CPU work too: it runs on the worker, off the event loop.
        return await in_pool(lambda: choose(load_view(view, req.seed), plan, req.seed))

    # ---- tables ---------------------------------------------------------------------------

    Auth = Header(
        default=None,
        alias="Authorization",
        description="`Bearer <token>`: a seat's or the spectators' token of the game",
    )

    @app.post("/api/v1/games", response_model=m.NewTable, status_code=201, tags=["games"])
    async def new_game(req: m.NewGame) -> m.NewTable:
        """Deal a new table: one secret token (and link) per human seat, and the spectators'.

        The server plays the AI's seats itself.
        """
        if req.players not in PLAYERS[req.variant]:
            raise ConfigError(
                f"{req.variant} is played by {PLAYERS[req.variant]} players, not {req.players}"
            )
        plan_move(req.bot, None, None, limits, (req.variant, req.players))
        game = dealer.deal(req.variant, req.players, req.seed, req.ai_seats, req.bot)
        return table(game, await tables.create(game))

    @app.post("/api/v1/games/load", response_model=m.NewTable, status_code=201, tags=["games"])
    async def load(req: m.SavedGame) -> m.NewTable:
        """Continue a saved game (the JSON of ``GET /api/v1/games/{id}/save``) at a new table."""
        start = json.dumps(req.start)
        first = splendor.from_json(start)  # InvalidStateError for a bad start
        plan_move(req.bot, None, None, limits, (first.variant, first.num_players))
        game = dealer.make(start, req.ai_seats, req.bot, req.actions)
        return table(game, await tables.create(game))

    @app.get("/api/v1/games/{game_id}", response_model=m.GameSnapshot, tags=["games"])
    async def get_game(game_id: str, authorization: str | None = Auth) -> m.GameSnapshot:
        """What the token's seat sees of the game (its legal actions when it is to decide);
        a spectator's token: the public information until the game is over."""
        who = await tables.access(game_id, authorization)
        return snapshot(await tables.game(who.row), who.seat)

    @app.post("/api/v1/games/{game_id}/actions", response_model=m.GameSnapshot, tags=["games"])
    async def act(
        game_id: str, req: m.ActionRequest, authorization: str | None = Auth
    ) -> m.GameSnapshot:
        """Play an action for the token's seat; an illegal one is explained (422)."""
        seat = seat_of(await tables.access(game_id, authorization))

        def play(game: Game) -> None:
            check_seat(game, seat)
            game.apply(seat, req.action)

        return snapshot(await tables.change(game_id, req.version, play), seat)

    @app.post("/api/v1/games/{game_id}/hint", response_model=m.MoveResponse, tags=["games"])
    async def hint(
        game_id: str, req: m.HintRequest, authorization: str | None = Auth
    ) -> m.MoveResponse:
        """What the AI would play for the token's seat (to decide); nothing is played."""
        who = await tables.access(game_id, authorization)
        seat = seat_of(who)
        game = await tables.game(who.row)
        check_seat(game, seat)
        bot = req.bot or game.bot
        plan = plan_move(bot, None, None, limits, (game.state.variant, game.players))
        # The AI searches from the seat's view only, like a client of /move.
        view, seed = game.state.to_json(seat), req.seed
        return await in_pool(lambda: choose(splendor.from_view(view, seed=seed), plan, seed))

    @app.post("/api/v1/games/{game_id}/undo", response_model=m.GameSnapshot, tags=["games"])
    async def undo(
        game_id: str, req: m.UndoRequest, authorization: str | None = Auth
    ) -> m.GameSnapshot:
        """Take back the token's seat's last decision and the AI's replies after it (409
        ``undo_refused`` when another person has moved since)."""
        seat = seat_of(await tables.access(game_id, authorization))
        return snapshot(await tables.change(game_id, None, lambda g: g.undo(seat)), seat)

    @app.get("/api/v1/games/{game_id}/save", response_model=m.SavedGame, tags=["games"])
    async def save(game_id: str, authorization: str | None = Auth) -> Response:
        """The whole game as a download: its starting state and decisions.

        It holds the hidden cards (as a saved game in a box would): a seat's token may
        save only when it is the table's only human seat, anyone's once the game is over.
        """
        who = await tables.access(game_id, authorization)
        game = await tables.game(who.row)
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
            headers={"Content-Disposition": f'attachment; filename="splendor-{game_id}.json"'},
        )

    @app.get("/api/v1/games/{game_id}/replay", response_model=m.ReplayFrame, tags=["games"])
    async def replay(
        game_id: str, step: int = Query(ge=0), authorization: str | None = Auth
    ) -> m.ReplayFrame:
        """The token's board after the first ``step`` decisions (what it saw then)."""
        who = await tables.access(game_id, authorization)
        game = await tables.game(who.row)
        steps = game.steps
        if step > steps:
            raise ConfigError(f"step {step} is past the {steps} decisions of this game")
        # A spectator sees the public boards until the game is over, then everything.
        svg = board_svg(game, game.replay(step), who.seat, step=step)
        return m.ReplayFrame(
            step=step, steps=steps, svg=svg, action=game.texts[step - 1] if step else None
        )

    @app.get(
        "/api/v1/games/{game_id}/events",
        tags=["games"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    async def events(game_id: str, authorization: str | None = Auth) -> StreamingResponse:
        """Server-sent events: ``event: game`` with ``{version, step, current, over,
        thinking}`` at once and after every change of the game (made by any server
        process), and a ``: keepalive`` comment every 15 s. Refetch the snapshot on each."""
        who = await tables.access(game_id, authorization)

        async def stream() -> AsyncIterator[str]:
            sent: int | None = None
            state: m.GameEvent | None = event_of(who.row)
            async with tables.hub.watch(game_id) as woken:
                while not tables.hub.closed:
                    if state is not None and state.version != sent:
                        sent = state.version
                        yield f"event: game\ndata: {state.model_dump_json()}\n\n"
                    try:
                        await asyncio.wait_for(woken.wait(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": keepalive\n\n"
                    woken.clear()
                    state = tables.hub.latest(game_id) or state

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    def seat_of(who: Access) -> int:
        if who.seat is None:
            raise SpectatorOnly("a spectator's token can watch the game, not act in it")
        return who.seat

    def check_seat(game: Game, seat: int) -> None:
        if game.current != seat:
            who = "nobody (the game is over)" if game.current is None else f"seat {game.current}"
            raise SeatError(f"it is {who}'s decision, not seat {seat}'s")

    def table(game: Game, tokens: NewTokens) -> m.NewTable:
        def link(token: str) -> str:
            return f"/#game={game.game_id}&token={token}"

        return m.NewTable(
            game_id=game.game_id,
            seats=[
                m.SeatLink(
                    seat=s,
                    role="human" if t is not None else "ai",
                    token=t,
                    link=None if t is None else link(t),
                )
                for s, t in enumerate(tokens.seats)
            ],
            spectator=m.SpectatorLink(token=tokens.spectator, link=link(tokens.spectator)),
        )

    def snapshot(game: Game, viewer: int | None) -> m.GameSnapshot:
        state = game.state
        legal = []
        if viewer is not None and game.current == viewer:
            legal = [m.LegalAction(id=int(a), text=str(a)) for a in state.legal_actions()]
        last = None
        if game.steps:
            i = game.steps - 1
            seat, text = game.last() or (0, "")
            last = m.LastMove(index=i, seat=seat, action=text, by_ai=game.is_ai(i))
        return m.GameSnapshot(
            game_id=game.game_id,
            variant=state.variant,
            players=game.players,
            viewer=viewer,
            seat=viewer,
            seats=[
                m.SeatRole(seat=s, role="ai" if s in game.ai_seats else "human")
                for s in range(game.players)
            ],
            version=game.version,
            ai_seats=game.ai_seats,
            bot=game.bot,
            current=game.current,
            step=game.steps,
            thinking=game.thinking,
            last=last,
            view=json.loads(view_json(game, state, viewer)),
            svg=board_svg(game, state, viewer),
            text=board_text(game, state, viewer),
            legal=legal,
            result=game.result(),
            log=game.log_for(viewer),
            can_undo=game.can_undo(viewer),
        )

    app.add_middleware(BodyLimit, limit=limits.max_body_bytes)
    return app
