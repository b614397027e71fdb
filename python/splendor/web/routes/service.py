"""The AI service: the server's facts and the AI's move for a player's view."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request

import splendor
from splendor.bots import LEVELS
from splendor.errors import ConfigError, InvalidStateError
from splendor.web import models as m
from splendor.web.access import Client, ServerDep
from splendor.web.ai import choose, plan_move
from splendor.web.games import SeatError

router = APIRouter(prefix="/api/v1", tags=["service"])


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


@router.get("", response_model=m.ServerInfo)
async def info(request: Request) -> m.ServerInfo:
    """The variants (title, player counts, verbs: `splendor.variant_info()`) and this
    server's limits."""
    limits = request.app.state.limits
    return m.ServerInfo(
        version=splendor.__version__,
        variants=[
            m.VariantInfo(
                name=v.name,
                title=v.title,
                players=list(v.players),
                verbs=m.Verbs(buy=v.verbs.buy, reserve=v.verbs.reserve, take=v.verbs.take),
            )
            for v in splendor.variant_info().values()
        ],
        levels=[m.LevelInfo(spec=level.spec, name=level.name) for level in LEVELS],
        limits=m.Limits(**limits.__dict__),
    )


@router.post("/move", response_model=m.MoveResponse)
async def move(req: m.MoveRequest, srv: ServerDep, client: Client) -> m.MoveResponse:
    """The AI's move for the player whose view this is (the player to decide).

    The view is a state's ``to_json(player)``: hidden cards stay hidden, the server
    fills them with a determinization drawn from ``seed``, and the search
    resamples them at every iteration. Searches are bounded per client and in all.
    """
    limits = srv.tables.limits
    plan = plan_move(req.bot, req.budget.iterations, req.budget.time_limit, limits)
    view = req.view
    # Loading the view is CPU work too: it runs on the worker, off the event loop.
    return await srv.searches.run(client, lambda: choose(load_view(view, req.seed), plan, req.seed))
