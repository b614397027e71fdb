"""The heuristic (docs/marvel.md section 8): how close each seat is to winning."""

from __future__ import annotations

from splendor.reference.marvel import actions as A
from splendor.reference.marvel.rules import MarvelRules


def heuristic(s: MarvelRules, player: int) -> float:
    """``0.5 + 0.5 * (v(player) - max over others of v)``; the returns once over."""
    outcome = s.outcome()
    if outcome is not None:
        return outcome.returns()[player]

    def v(p: int) -> float:
        bon = s.bonuses(p)
        return (
            0.55 * min(s.points(p), 16) / 16
            + 0.25 * sum(1 for b in bon if b > 0) / 5
            + 0.1 * s.players[p].tokens[A.GREEN]
            + 0.1 * min(sum(bon), 15) / 15
        )

    best_other = max(v(q) for q in range(s.num_players) if q != player)
    return 0.5 + 0.5 * (v(player) - best_other)
