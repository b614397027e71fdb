"""Boards drawn from a viewer's information only.

:func:`build_board` turns a state's JSON view (``state.to_json(viewer)``) into a
variant-neutral :class:`Board`; :func:`render_text` draws it as text. Every
picture of a game is drawn from a ``Board``, so what a viewer may not see never
reaches it: a hidden card is not in the view, so it is not in the board.

>>> import splendor
>>> from splendor import render
>>> state = splendor.new_game("base", seed=1)
>>> board = render.board_of(state, viewer=0)
>>> board.to_play, board.rows[0].level, len(board.rows[0].slots)
(0, 3, 4)
>>> print(render.text_board(state, viewer=0).splitlines()[0])
Splendor | 2 seats | round 1, turn 1 | seat 0 (you) to play
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from splendor.render.build import build_board
from splendor.render.last import last_marks
from splendor.render.model import (
    PUBLIC,
    Board,
    Card,
    CardRow,
    Count,
    Public,
    Result,
    Seat,
    Slot,
    Stat,
    Tile,
    TokenKind,
    Viewer,
)
from splendor.render.public import public_view, public_view_json
from splendor.render.svg import board_svg
from splendor.render.text import WIDTH, card_face, render_text

__all__ = [
    "PUBLIC",
    "WIDTH",
    "Board",
    "Card",
    "CardRow",
    "Count",
    "Public",
    "Result",
    "Seat",
    "Slot",
    "Stat",
    "SvgBoard",
    "Tile",
    "TokenKind",
    "Viewer",
    "board_of",
    "board_svg",
    "build_board",
    "card_face",
    "last_marks",
    "public_view",
    "public_view_json",
    "register_jupyter",
    "render_text",
    "svg_board",
    "text_board",
]


def board_of(state: Any, viewer: Viewer) -> Board:
    """The board ``viewer`` sees of ``state``.

    ``viewer`` is a seat, :data:`PUBLIC` (a spectator of a game in play: every seat's
    blind reserves face down, no decks) or None (a spectator who sees every card).
    Reads only ``state.to_json(viewer)`` (:func:`public_view` for ``PUBLIC``) and the
    public outcome.
    """
    outcome = state.outcome()
    result = None if outcome is None else Result(tuple(outcome.winners), str(outcome.reason))
    if isinstance(viewer, Public):
        return build_board(public_view(state), result=result)
    return build_board(state.to_json(viewer), result=result)


def text_board(state: Any, viewer: Viewer, *, names: Mapping[int, str] | None = None) -> str:
    """``render_text(board_of(state, viewer))``: the text board of ``viewer``."""
    return render_text(board_of(state, viewer), names=names)


class SvgBoard(str):
    """An SVG board: the SVG text, which shows itself as a picture in Jupyter."""

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


def svg_board(
    state: Any,
    viewer: Viewer,
    *,
    names: Mapping[int, str] | None = None,
    legal: Iterable[str] = (),
    last: tuple[int, str] | None = None,
) -> SvgBoard:
    """``board_svg(board_of(state, viewer), ...)``: the SVG board of ``viewer``.

    ``viewer``: a seat, :data:`PUBLIC` or None (every card). ``legal``: picks to
    highlight as playable. ``last``: ``(seat, action text)`` of the last decision, whose
    places get ``class="last"`` (:func:`last_marks`).
    """
    board = board_of(state, viewer)
    return SvgBoard(board_svg(board, names=names, legal=legal, last=last))


def register_jupyter(viewer: Viewer = None, ipython: Any = None) -> None:
    """Make every state (both engines) show itself as its SVG board in IPython / Jupyter.

    The state classes of the Rust engine are compiled, so they cannot carry a
    ``_repr_svg_`` written here; IPython's display formatter is told instead.
    ``viewer`` is whose information is drawn (None: a spectator sees every card;
    :data:`PUBLIC`: only public information).
    """
    import splendor
    from splendor import reference

    if ipython is None:
        from IPython import get_ipython  # type: ignore[import-not-found, unused-ignore]

        ipython = get_ipython()
    if ipython is None:
        raise RuntimeError("register_jupyter needs a running IPython")
    svg = ipython.display_formatter.formatters["image/svg+xml"]
    for cls in (
        splendor.BaseState,
        splendor.DuelState,
        splendor.MarvelState,
        reference.BaseState,
        reference.DuelState,
        reference.MarvelState,
    ):
        svg.for_type(cls, lambda state: str(svg_board(state, viewer)))
