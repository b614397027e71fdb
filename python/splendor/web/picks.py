"""Which places of the board an action names: the ``data-pick`` values of the SVG board
(:mod:`splendor.render.svg`) that a click chooses it by.

The server knows the action texts' grammar; the page only matches places, so it never
parses an action's text.
"""

from __future__ import annotations

import re

from splendor.variants import variant_info

_CELL = re.compile(r"^[a-e][1-5]$")
_TILE_WORDS = ("noble", "royal", "location")
"""Choices named by a tile's own label (``noble 2``, ``royal 0``, ``location 3``)."""
_SELECTIONS = ("token ", "cell ")
"""Places picked one by one and confirmed together (a take), not chosen by one click."""


def action_picks(variant: str, text: str) -> list[str]:
    """The board places the action ``text`` of ``variant`` names, in its order.

    A card, a deck or a reserved card for a buy or a reserve (``["2.3"]``,
    ``["deck 1"]``, ``["reserved 1"]``); the tile for a noble, royal or location choice;
    one ``token X`` per token taken in base and Marvel (``take wwu`` names ``token w``
    twice); one ``cell C`` per board cell in Duel (a take, a privilege, a gold or an
    ability's token). Choices that are no place of the board (a payment, a return, a
    replenish, a pass) name none.
    """
    words = text.split()
    if not words:
        return []
    verb, rest = words[0], words[1:]
    info = variant_info().get(variant)
    if variant == "duel" and rest and all(_CELL.match(c) for c in rest):
        return [f"cell {c}" for c in rest]
    if info is not None and verb == info.verbs.take and len(rest) == 1 and variant != "duel":
        return [f"token {letter}" for letter in rest[0]]
    if info is not None and verb in (info.verbs.buy, info.verbs.reserve) and rest:
        return [" ".join(rest)]
    if verb in _TILE_WORDS:
        return [text]
    return []


def picks_of(variant: str, texts: list[str]) -> list[str]:
    """The places (``data-pick`` values) that some action of ``texts`` chooses with one
    click (a card, a deck, a tile), sorted: the board outlines them as playable. Tokens
    and cells, picked one by one, are not outlined."""
    return sorted(
        {p for t in texts for p in action_picks(variant, t) if not p.startswith(_SELECTIONS)}
    )
