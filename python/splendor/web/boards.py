"""What each viewer of a table may see: a seat's view, or a spectator's public one.

A seat sees ``state.to_json(seat)``. A spectator sees only what every seat sees until
the game is over (:data:`splendor.render.PUBLIC`: no deck, no card reserved blind,
whoever reserved it), then everything, every past position included.
"""

from __future__ import annotations

from typing import Any

from splendor import render
from splendor.web.games import Game
from splendor.web.picks import picks_of


def public(game: Game, viewer: int | None) -> bool:
    """Whether ``viewer`` sees only the public information: a spectator (None) while the
    game goes on."""
    return viewer is None and game.current is not None


def _viewer(game: Game, viewer: int | None) -> Any:
    """The viewer to hand to the renderer."""
    return render.PUBLIC if public(game, viewer) else viewer


def view_json(game: Game, state: Any, viewer: int | None) -> str:
    """``viewer``'s view of ``state`` (a position of ``game``)."""
    if public(game, viewer):
        return render.public_view_json(state)
    return str(state.to_json(viewer))


def board_svg(game: Game, state: Any, viewer: int | None, *, step: int | None = None) -> str:
    """``viewer``'s SVG board of ``game`` after ``step`` decisions (``state``; None: the
    current position, with its legal places outlined), the decision that led there marked."""
    legal: list[str] = []
    if step is None and viewer is not None and game.current == viewer:
        legal = picks_of(str(state.variant), [str(a) for a in state.legal_actions()])
    return str(
        render.svg_board(
            state,
            _viewer(game, viewer),
            names=game.names(viewer),
            legal=legal,
            last=game.last(step),
        )
    )


def board_text(game: Game, state: Any, viewer: int | None) -> str:
    return render.text_board(state, _viewer(game, viewer), names=game.names(viewer))
