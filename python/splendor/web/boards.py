"""What each viewer of a table may see: a seat's view, or a spectator's public one.

A seat sees ``state.to_json(seat)``. A spectator sees only what every seat sees until
the game is over (no deck, no card reserved blind, whoever reserved it), then everything.
The public view and board come from :mod:`splendor.render` (``render.PUBLIC``,
``render.public_view_json``); where the installed render module predates them, the
public view is a seat's view with that seat's own blind reserves turned face down.
"""

from __future__ import annotations

import functools
import inspect
import json
from typing import Any

from splendor import render
from splendor.web.games import Game, hidden_reserves, picks_of


def public_view_json(state: Any) -> str:
    """What every seat of ``state`` sees (decks hidden, every blind reserve face down)."""
    made = getattr(render, "public_view_json", None)
    if made is not None:
        return str(made(state))
    view = json.loads(state.to_json(0))
    reserved = view["players"][0].get("reserved") or []
    for k in hidden_reserves(state, 0):
        reserved[k - 1]["card"] = None
    return json.dumps(view)


def public(game: Game, viewer: int | None) -> bool:
    """Whether ``viewer`` sees only the public information: a spectator (None) while the
    game goes on; once it is over, a spectator sees everything, every past position too."""
    return viewer is None and game.current is not None


def view_json(game: Game, state: Any, viewer: int | None) -> str:
    """``viewer``'s view of ``state`` (a position of ``game``): a seat's own, or (None) the
    public one while the game goes on and the whole state once it is over."""
    if viewer is not None:
        return str(state.to_json(viewer))
    if public(game, viewer):
        return public_view_json(state)
    return str(state.to_json())


@functools.cache
def _takes_last() -> bool:
    return "last" in inspect.signature(render.svg_board).parameters


def _render_viewer(game: Game, viewer: int | None) -> Any:
    """The viewer to hand to the renderer (``render.PUBLIC`` for a spectator in play)."""
    if public(game, viewer):
        return getattr(render, "PUBLIC", _PUBLIC_FALLBACK)
    return viewer


_PUBLIC_FALLBACK = object()


def board_svg(game: Game, state: Any, viewer: int | None, *, live: bool) -> str:
    """``viewer``'s SVG board of ``state`` (a position of ``game``); ``live``: it is the
    game's current position (its legal places outlined, its last move marked)."""
    legal: list[str] = []
    last = game.last() if live else None
    if live and viewer is not None and game.current == viewer:
        legal = picks_of([str(a) for a in state.legal_actions()])
    names = game.names(viewer)
    who = _render_viewer(game, viewer)
    if who is _PUBLIC_FALLBACK:
        board = render.build_board(public_view_json(state))
        return str(render.board_svg(board, names=names, legal=legal))
    if _takes_last():
        return str(render.svg_board(state, who, names=names, legal=legal, last=last))
    return str(render.svg_board(state, who, names=names, legal=legal))


def board_text(game: Game, state: Any, viewer: int | None) -> str:
    names = game.names(viewer)
    who = _render_viewer(game, viewer)
    if who is _PUBLIC_FALLBACK:
        return render.render_text(render.build_board(public_view_json(state)), names=names)
    return render.text_board(state, who, names=names)
