"""Text of a game as one seat sees it, for the adapters' ``ansi`` render."""

from __future__ import annotations

import json
from typing import Any


def render_view(state: Any, seat: int) -> str:
    """The game as ``seat`` sees it: one line per field of its JSON view.

    Built from ``to_json(player=seat)``, where everything hidden from the seat
    (deck order, other players' blind reserves) is already redacted.
    """
    view = json.loads(state.to_json(player=seat))
    lines = [f"splendor {state.variant}: seat {seat}'s view"]
    lines.extend(f"{key}: {json.dumps(value)}" for key, value in view.items())
    return "\n".join(lines) + "\n"
