"""The heuristic (docs/duel.md, Heuristic): how close each player is to one of the three
ways to win."""

from __future__ import annotations

import numpy as np

from splendor.reference.duel.state import DuelCore


def heuristic(s: DuelCore, p: int) -> float:
    """Value in [0, 1] for seat ``p`` (docs/duel.md, Heuristic)."""
    if s.phase == "over":
        if not s.outcome_winners:
            return 0.5
        return 1.0 if p in s.outcome_winners else 0.0

    def progress(q: int) -> float:
        pl = s.players[q]
        pts = min(1.0, pl.points() / 20)
        crowns = min(1.0, pl.crowns() / 10)
        colour = min(1.0, max(pl.colour_points()) / 10)
        gold = pl.tokens[6]
        gems = sum(pl.tokens) - gold
        return (
            max(pts, crowns, colour)
            + 0.3 * (pts + crowns + colour) / 3
            + 0.03 * sum(pl.bonuses())
            + 0.004 * gems
            + 0.008 * gold
            + 0.01 * pl.privileges
        )

    value = 0.5 + 0.5 * (progress(p) - progress(1 - p))
    return float(np.float32(min(0.99, max(0.01, value))))
