"""The public view of a game: what a spectator may see while it is played.

A seat's view (``state.to_json(seat)``) hides the decks and the other seats' blind
reserves but shows that seat's own; the full state (``to_json()``) hides nothing. The
public view hides everything any seat cannot see: it is seat 0's view with seat 0's own
blind reserves taken from seat 1's view (where they are face down), so it is redacted by
the engines' own rules and in their format, for every variant and both engines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def public_view(state: Any) -> dict[str, Any]:
    """The public view of ``state`` as a parsed JSON object (``"viewer": null``, no decks).

    Every seat's blind reserves are ``{"card": null, "hidden": true, "level": L}``, as in
    another seat's view; the decks (and Duel's ``chance``) are ``null``, as in every view.
    """
    view: dict[str, Any] = json.loads(state.to_json(0))
    other = json.loads(state.to_json(1))
    view["players"][0]["reserved"] = other["players"][0]["reserved"]
    for player in view["players"]:
        for entry in player.get("reserved") or []:
            if entry.get("hidden"):
                entry["card"] = None
    view["viewer"] = None
    return view


def public_view_json(state: Any) -> str:
    """The public view of ``state`` as JSON text, in the format of ``state.to_json(seat)``.

    For a spectator's ``view`` while the game is played: the decks are ``null`` and every
    seat's blind reserves are face down (``"card": null``), as in another seat's view;
    ``"viewer"`` is ``null``. (Once the game is over, ``state.to_json()`` shows everything.)
    """
    return json.dumps(public_view(state), separators=(",", ":"), sort_keys=True)


def is_public(view: Mapping[str, Any]) -> bool:
    """Whether a parsed view is a public view (no viewer, and the decks hidden)."""
    return view.get("viewer") is None and view.get("decks") is None
