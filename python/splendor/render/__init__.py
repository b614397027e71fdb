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

from collections.abc import Mapping
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
    "Tile",
    "TokenKind",
    "board_of",
    "build_board",
    "card_face",
    "render_text",
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
