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
from splendor.render.model import (
    Board,
    Card,
    CardRow,
    Count,
    Result,
    Seat,
    Slot,
    Stat,
    Tile,
    TokenKind,
)
from splendor.render.svg import board_svg
from splendor.render.text import WIDTH, card_face, render_text

__all__ = [
    "WIDTH",
    "Board",
    "Card",
    "CardRow",
    "Count",
    "Result",
    "Seat",
    "Slot",
    "Stat",
    "SvgBoard",
    "Tile",
    "TokenKind",
    "board_of",
    "board_svg",
    "build_board",
    "card_face",
    "register_jupyter",
    "render_text",
    "svg_board",
    "text_board",
]


def board_of(state: Any, viewer: int | None) -> Board:
    """The board ``viewer`` sees of ``state`` (None: a spectator who sees every card).

    Reads only ``state.to_json(viewer)`` and the public outcome.
    """
    outcome = state.outcome()
    result = None if outcome is None else Result(tuple(outcome.winners), str(outcome.reason))
    return build_board(state.to_json(viewer), result=result)


def text_board(state: Any, viewer: int | None, *, names: Mapping[int, str] | None = None) -> str:
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
    viewer: int | None,
    *,
    names: Mapping[int, str] | None = None,
    legal: Iterable[str] = (),
) -> SvgBoard:
    """``board_svg(board_of(state, viewer))``: the SVG board of ``viewer`` (None: spectator)."""
    return SvgBoard(board_svg(board_of(state, viewer), names=names, legal=legal))


def register_jupyter(viewer: int | None = None, ipython: Any = None) -> None:
    """Make every state (both engines) show itself as its SVG board in IPython / Jupyter.

    The state classes of the Rust engine are compiled, so they cannot carry a
    ``_repr_svg_`` written here; IPython's display formatter is told instead.
    ``viewer`` is whose information is drawn (None: a spectator sees every card).
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
