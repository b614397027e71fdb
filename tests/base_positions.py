"""Positions shared by the base-game tests (built by playing, so valid on every engine)."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from splendor.reference.rng import SplitMix64


def dump(obj: Any) -> str:
    """Canonical JSON text of an edited state object."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def midgame(engine: ModuleType) -> Any:
    """A 3-player position with cards, reserves (one blind) and tokens spread around."""
    state = engine.new_game("base", players=3, seed=3)
    for text in ("take wug", "reserve deck 2", "take urk", "take wgk", "reserve 1.1"):
        state.apply(text)
    rng = SplitMix64(77)
    while json.loads(state.to_json())["turn"] < 24:
        legal = state.legal_action_ids()
        state.apply(legal[rng.below(len(legal))])
    return state
