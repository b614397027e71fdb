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
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any, TypeVar

import numpy as np
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import splendor
from splendor import render
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    SplendorError,
)
from splendor.web import models as m
from splendor.web.ai import BudgetError, ServerLimits, choose, plan_move
from splendor.web.games import (
    PLAYERS,
    Game,
    GameChanged,
    GameNotFound,
    GameStore,
    SeatError,
    TooLong,
    hidden_reserves,
    names_hidden,
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
        (404, "game_not_found"),
        (404, "not_found"),
        (405, "method_not_allowed"),
        (409, "wrong_seat"),
        (409, "game_changed"),
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
    (TooLong, 422, "game_too_long"),
    (GameNotFound, 404, "game_not_found"),
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


def create_app(limits: ServerLimits | None = None) -> FastAPI:
    """A new app with its own game store and worker pool."""
    limits = limits or ServerLimits(workers=os.cpu_count() or 1)
    pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="splendor-ai")
    store = GameStore(limits.max_games, limits.max_decisions, limits.max_turn_cap)
    pending = 0

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="splendor",
        version="1",
        summary="Play Splendor, Splendor Duel and Splendor: Marvel against the AI;"
        " ask it for moves.",
        lifespan=lifespan,
        # The interactive docs pages load their scripts from a CDN: only the schema is served.
        docs_url=None,
        redoc_url=None,
        responses={
            400: {"model": m.ErrorResponse},
            404: {"model": m.ErrorResponse},
            409: {"model": m.ErrorResponse},
            413: {"model": m.ErrorResponse},
            422: {"model": m.ErrorResponse},
            503: {"model": m.ErrorResponse},
        },
    )
    app.state.limits = limits
    app.state.store = store

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

    @app.post("/api/v1/games", response_model=m.GameSnapshot, tags=["games"])
    async def new_game(req: m.NewGame, viewer: int = Query(0, ge=0, le=3)) -> m.GameSnapshot:
        """Deal a new game held by the server; returns ``viewer``'s snapshot."""
        if req.players not in PLAYERS[req.variant]:
            raise ConfigError(
                f"{req.variant} is played by {PLAYERS[req.variant]} players, not {req.players}"
            )
        plan_move(req.bot, None, None, limits, (req.variant, req.players))
        game = store.deal(req.variant, req.players, req.seed, req.ai_seats, req.bot)
        return keep(game, viewer)

    @app.post("/api/v1/games/load", response_model=m.GameSnapshot, tags=["games"])
    async def load(req: m.SavedGame, viewer: int = Query(0, ge=0, le=3)) -> m.GameSnapshot:
        """Continue a saved game (the JSON of ``GET /api/v1/games/{id}/save``)."""
        start = json.dumps(req.start)
        first = splendor.from_json(start)  # InvalidStateError for a bad start
        plan_move(req.bot, None, None, limits, (first.variant, first.num_players))
        game = store.make(start, req.ai_seats, req.bot, req.actions)
        return keep(game, viewer)

    @app.get("/api/v1/games/{game_id}", response_model=m.GameSnapshot, tags=["games"])
    async def get_game(game_id: str, viewer: int = Query(ge=0, le=3)) -> m.GameSnapshot:
        """What ``viewer`` sees of the game, and its legal actions when it is to decide."""
        return snapshot(store.get(game_id), viewer)

    @app.post("/api/v1/games/{game_id}/actions", response_model=m.GameSnapshot, tags=["games"])
    async def act(game_id: str, req: m.ActionRequest) -> m.GameSnapshot:
        """Play an action for the seat to decide; an illegal one is explained (422)."""
        game = store.get(game_id)
        check_seat(game, req.seat)
        game.apply(req.seat, req.action)
        return snapshot(game, req.seat)

    @app.post("/api/v1/games/{game_id}/ai", response_model=m.MoveResponse, tags=["games"])
    async def ai_turn(game_id: str, req: m.AiRequest) -> m.MoveResponse:
        """Let the AI decide for the seat to decide, which must be one of the AI's seats."""
        game = store.get(game_id)
        seat = game.current
        if seat is None or seat not in game.ai_seats:
            raise SeatError(
                f"seat {seat} is not played by the AI" if seat is not None else "the game is over"
            )
        version = game.version
        hidden = hidden_reserves(game.state, seat)
        result = await think(game, seat, game.bot, req.seed)
        # The position itself, not the move count: an undo and another move keep the count.
        if game.version != version:
            raise GameChanged(
                "the game changed while the AI was thinking (a move or an undo): ask again"
            )
        game.apply(seat, result.action_id, (result.win_estimate, result.considered))
        # The answer goes to whoever asked, not to the AI's seat: only what every seat sees.
        public = [c for c in result.considered if not names_hidden(c.text, hidden)]
        return result.model_copy(update={"considered": public})

    @app.post("/api/v1/games/{game_id}/hint", response_model=m.MoveResponse, tags=["games"])
    async def hint(game_id: str, req: m.HintRequest) -> m.MoveResponse:
        """What the AI would play for ``seat`` (which must be to decide); nothing is played."""
        game = store.get(game_id)
        check_seat(game, req.seat)
        return await think(game, req.seat, req.bot or game.bot, req.seed)

    @app.post("/api/v1/games/{game_id}/undo", response_model=m.GameSnapshot, tags=["games"])
    async def undo(game_id: str, req: m.SeatRequest) -> m.GameSnapshot:
        """Take back ``seat``'s last decision and the AI's replies after it."""
        game = store.get(game_id)
        game.undo(req.seat)
        return snapshot(game, req.seat)

    @app.get("/api/v1/games/{game_id}/save", response_model=m.SavedGame, tags=["games"])
    async def save(game_id: str) -> Response:
        """The whole game as a download: its starting state and decisions.

        It holds the hidden cards (as a saved game in a box would): keep it to
        yourself. The page never reads it; the browser saves it as a file.
        """
        game = store.get(game_id)
        body = json.dumps(game.saved(), indent=1)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="splendor-{game_id}.json"'},
        )

    @app.get("/api/v1/games/{game_id}/replay", response_model=m.ReplayFrame, tags=["games"])
    async def replay(
        game_id: str, step: int = Query(ge=0), viewer: int = Query(ge=0, le=3)
    ) -> m.ReplayFrame:
        """``viewer``'s board after the first ``step`` decisions (what it saw then)."""
        game = store.get(game_id)
        if viewer >= game.players:
            raise SeatError(f"seat {viewer} is not a seat of this {game.players}-seat game")
        steps = game.steps
        if step > steps:
            raise ConfigError(f"step {step} is past the {steps} decisions of this game")
        state = game.replay(step)
        return m.ReplayFrame(
            step=step,
            steps=steps,
            svg=game.board_svg(viewer, state),
            action=game.texts[step - 1] if step else None,
        )

    async def think(game: Game, seat: int, bot: str, seed: int) -> m.MoveResponse:
        plan = plan_move(bot, None, None, limits, (game.state.variant, game.players))
        # The AI searches from the seat's view only, like a client of /move.
        state = splendor.from_view(game.state.to_json(seat), seed=seed)
        return await in_pool(lambda: choose(state, plan, seed))

    def check_seat(game: Game, seat: int) -> None:
        if not 0 <= seat < game.players:
            raise SeatError(f"seat {seat} is not a seat of this {game.players}-seat game")
        if game.current != seat:
            who = "nobody (the game is over)" if game.current is None else f"seat {game.current}"
            raise SeatError(f"it is {who}'s decision, not seat {seat}'s")

    def keep(game: Game, viewer: int) -> m.GameSnapshot:
        """Store a new game once its answer is made: a refused request stores nothing."""
        answer = snapshot(game, viewer)
        store.add(game)
        return answer

    def snapshot(game: Game, viewer: int) -> m.GameSnapshot:
        if not 0 <= viewer < game.players:
            raise SeatError(f"seat {viewer} is not a seat of this {game.players}-seat game")
        state = game.state
        legal = []
        if game.current == viewer:
            legal = [m.LegalAction(id=int(a), text=str(a)) for a in state.legal_actions()]
        return m.GameSnapshot(
            game_id=game.game_id,
            variant=state.variant,
            players=game.players,
            viewer=viewer,
            ai_seats=game.ai_seats,
            bot=game.bot,
            current=game.current,
            step=game.steps,
            view=json.loads(state.to_json(viewer)),
            svg=game.board_svg(viewer),
            text=render.text_board(state, viewer, names=game.names(viewer)),
            legal=legal,
            result=game.result(),
            log=game.log_for(viewer),
            can_undo=game.can_undo(viewer),
        )

    app.add_middleware(BodyLimit, limit=limits.max_body_bytes)
    return app
