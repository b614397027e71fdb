"""Loading a player's view as a starting point for search (Rust engine).

``from_view(state.to_json(player), seed=s)`` is a full state that agrees with
everything ``player`` can see, the rest drawn from ``SplitMix64(s)``; see
:func:`splendor.reference.view.complete_view` for the rule. A client that only
knows its own view (a program asking the AI for a move over HTTP) never has to
reveal hidden cards: the search determinizes them again at every iteration.
"""

from __future__ import annotations

from typing import Any

from splendor._arguments import typed_errors
from splendor._core import from_json
from splendor.reference.view import complete_view


@typed_errors
def from_view(text: str, *, seed: int = 0) -> Any:
    """The Rust state of one determinization of the view ``text`` (a full state loads as is).

    Raises:
        InvalidStateError: Malformed, tampered or inconsistent view.
    """
    return from_json(complete_view(text, seed=seed))
