"""Every error the web API answers: its exception, its status and its stable code, in one place.

Every error is JSON of one shape, ``{"error": {"code", "message", "status"}}``. A new
endpoint raises one of the exceptions below (or the engine's :mod:`splendor.errors`); the
table :data:`ERROR_CODES` is the one docs/web.md shows, and a test checks every answer
against it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from splendor.errors import (
    ConfigError,
    GameNotOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    SplendorError,
)
from splendor.web import models as m
from splendor.web.ai import BudgetError
from splendor.web.games import GameChanged, GameOver, SeatError, TooLong, UndoRefused

RETRY_AFTER_S = 5
"""What a 503 (busy, storage) tells a client to wait before it tries again."""


class ApiError(Exception):
    """An error with its status and stable code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class TokenRequired(PermissionError):
    """No token, or not one the server could read (401)."""


class WrongToken(PermissionError):
    """Not a token of this game, or no such game: one answer for both (403)."""


class SpectatorOnly(PermissionError):
    """A spectator's token where a seat's is needed (403)."""


class HostOnly(PermissionError):
    """Another token of the game where the host's is needed (403)."""


class InviteOnly(PermissionError):
    """Another token of the game where the invitation's is needed: a claim (403)."""


class InvitationOnly(PermissionError):
    """The invitation's token where a seat's, a spectator's or the host's is needed: it can
    claim a seat, nothing else (403)."""


class NoOpenSeat(RuntimeError):
    """A claim when every seat is taken (the last one may have just gone to another) (409)."""


class GameNotOver(RuntimeError):
    """A rematch asked for while the game goes on (409)."""


class NoRematch(RuntimeError):
    """``next`` before anyone asked for a rematch (409)."""


class SeatTaken(RuntimeError):
    """``next`` for a seat of the rematch whose link the host has given out anew (409)."""


class SaveRefused(PermissionError):
    """The save holds the hidden cards: only the table's only person, or anyone after (403)."""


class Busy(RuntimeError):
    """Too many searches waiting for a worker, in all or from this client (503)."""


class TooMany(RuntimeError):
    """One client over its share: tables made, event streams open or searches queued (429)."""


class StorageUnavailable(RuntimeError):
    """The database could not take or give the data (full disk, lost connection): a 503 that
    says to retry. Nothing the server answered as accepted is lost."""


ERROR_CODES: frozenset[tuple[int, str]] = frozenset(
    {
        (400, "malformed_json"),
        (400, "bad_request"),
        (401, "token_required"),
        (403, "wrong_token"),
        (403, "spectator"),
        (403, "save_refused"),
        (403, "host_only"),
        (403, "invite_only"),
        (403, "invitation"),
        (404, "not_found"),
        (405, "method_not_allowed"),
        (409, "wrong_seat"),
        (409, "game_changed"),
        (409, "undo_refused"),
        (409, "game_over"),
        (409, "no_open_seat"),
        (409, "game_not_over"),
        (409, "no_rematch"),
        (409, "seat_taken"),
        (409, "no_review"),
        (413, "body_too_large"),
        (422, "invalid_request"),
        (422, "illegal_action"),
        (422, "invalid_action"),
        (422, "invalid_state"),
        (422, "bad_config"),
        (422, "bad_request"),
        (422, "budget_too_large"),
        (422, "game_too_long"),
        (429, "too_many"),
        (500, "internal"),
        (503, "busy"),
        (503, "storage_unavailable"),
    }
)
"""Every (status, code) an error answer can have: the table of docs/web.md, tested."""

_MAPPED: list[tuple[type[Exception], int, str]] = [
    (IllegalActionError, 422, "illegal_action"),
    (InvalidActionError, 422, "invalid_action"),
    (InvalidStateError, 422, "invalid_state"),
    (GameNotOverError, 409, "game_not_over"),
    (ConfigError, 422, "bad_config"),
    (SplendorError, 422, "bad_request"),
    (BudgetError, 422, "budget_too_large"),
    (SeatError, 409, "wrong_seat"),
    (GameChanged, 409, "game_changed"),
    (UndoRefused, 409, "undo_refused"),
    (GameOver, 409, "game_over"),
    (TooLong, 422, "game_too_long"),
    (TokenRequired, 401, "token_required"),
    (WrongToken, 403, "wrong_token"),
    (SpectatorOnly, 403, "spectator"),
    (SaveRefused, 403, "save_refused"),
    (HostOnly, 403, "host_only"),
    (InviteOnly, 403, "invite_only"),
    (InvitationOnly, 403, "invitation"),
    (NoOpenSeat, 409, "no_open_seat"),
    (GameNotOver, 409, "game_not_over"),
    (NoRematch, 409, "no_rematch"),
    (SeatTaken, 409, "seat_taken"),
    (TooMany, 429, "too_many"),
    (Busy, 503, "busy"),
    (StorageUnavailable, 503, "storage_unavailable"),
]


def error_response(status: int, code: str, message: str) -> JSONResponse:
    body = m.ErrorResponse(error=m.ErrorBody(code=code, message=message, status=status))
    headers = {"Retry-After": str(RETRY_AFTER_S)} if status in (429, 503) else None
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def _handler(status: int, code: str) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(_: Request, exc: Exception) -> Response:
        return error_response(status, code, str(exc))

    return handler


def storage_error(exc: SQLAlchemyError | OSError) -> StorageUnavailable:
    """The 503 for a database failure: its kind in words, never its SQL or its URL."""
    cause = getattr(exc, "orig", None) or exc
    first = (str(cause).splitlines() or [""])[0][:200]
    kind = "the database is unreachable" if isinstance(exc, DBAPIError) else "a storage error"
    return StorageUnavailable(
        f"the games database could not complete the request ({kind}: {type(cause).__name__}"
        f" {first}); nothing was changed, try again"
    )


def install_handlers(app: FastAPI) -> None:
    """Make every error above, and FastAPI's own, an answer of the one shape."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    for exc_type, status, code in _MAPPED:
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

    @app.exception_handler(SQLAlchemyError)
    async def storage(_: Request, exc: SQLAlchemyError) -> JSONResponse:
        # A handled error, not a crash: the client gets a retryable answer on its kept-alive
        # connection, and the log a line instead of a traceback.
        err = storage_error(exc)
        return error_response(503, "storage_unavailable", str(err))

    @app.exception_handler(Exception)
    async def crash(_: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return error_response(500, "internal", f"internal error: {type(exc).__name__}")
