"""The places the last decision touched, so a picture can highlight them.

:func:`last_marks` reads a decision's text (``buy 2.3``, ``take a1 b2``, ``noble 4``) as
the seat that made it typed it, and names the places on the board it touched, in the keys
the SVG board gives its parts:

* ``seat N``: the mover's panel (always);
* ``seat N token x`` / ``seat N bonus X``: one kind of token or bonus in a seat's panel;
* ``seat N reserved K``: a card in a seat's reserve (``K`` from 1);
* ``seat N owns LABEL``: a tile a seat owns (``seat 0 owns noble 4``);
* ``replaced 2.3``: the display slot the card bought or reserved came from, which now holds
  the card that replaced it (drawn apart from what the mover gained: class ``replaced``),
  a deck ``deck 1``, a bank token ``token w``, a Duel cell ``cell a1``, the Duel bag
  ``bag w``, the Duel token board ``grid``, a tile still to be claimed ``noble 4``.

A text it does not know marks the mover's panel only.
"""

from __future__ import annotations

import re

from splendor.render.model import Board

_SLOT = re.compile(r"^(?:buy|recruit|reserve) ([123])\.([1-5])$")
_DECK = re.compile(r"^reserve deck ([123])$")
_TAKE = re.compile(r"^take ([a-z]{1,3})$")
_CELLS = re.compile(r"^(take|gold|privilege|token)((?: [a-e][1-5]){1,3})$")
_GIVE = re.compile(r"^(return|discard|steal|joker) ([a-z])$")
_TILE = re.compile(r"^(noble|royal|location) (\d+)$")


def last_marks(board: Board, seat: int, action: str) -> frozenset[str]:
    """The keys of the places ``seat``'s decision ``action`` touched on ``board`` (drawn after it).

    >>> import splendor
    >>> from splendor import render
    >>> state = splendor.new_game("base", seed=1)
    >>> state.apply("take wug")
    >>> sorted(last_marks(render.board_of(state, 0), 0, "take wug"))[:4]
    ['seat 0', 'seat 0 token g', 'seat 0 token u', 'seat 0 token w']
    """
    me = f"seat {seat}"
    out = {me}
    text = " ".join(action.split())
    reserved = next((s.reserved for s in board.seats if s.index == seat), ())
    newest = f"{me} reserved {len(reserved)}" if reserved else None
    if m := _SLOT.match(text):
        out.add(f"replaced {m[1]}.{m[2]}")
        if text.startswith("reserve") and newest:
            out.add(newest)
    elif m := _DECK.match(text):
        out.add(f"deck {m[1]}")
        if newest:
            out.add(newest)
    elif m := _CELLS.match(text):
        out |= {f"cell {cell}" for cell in m[2].split()}
        if m[1] == "gold":
            out.add(f"{me} token y")
    elif m := _TAKE.match(text):
        for letter in m[1]:
            out |= {f"token {letter}", f"{me} token {letter}"}
    elif m := _GIVE.match(text):
        verb, letter = m[1], m[2]
        if verb == "return":
            out.add(f"token {letter}")
        elif verb == "discard":
            out.add(f"bag {letter}")
        elif verb == "steal":
            out.add(f"{me} token {letter}")
            out |= {f"seat {s.index} token {letter}" for s in board.seats if s.index != seat}
        else:
            out.add(f"{me} bonus {letter.upper()}")
    elif m := _TILE.match(text):
        label = f"{m[1]} {m[2]}"
        out |= {label, f"{me} owns {label}"}
    elif text == "replenish":
        out.add("grid")
    return frozenset(out)
