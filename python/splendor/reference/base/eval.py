"""The base game's heuristic (docs/base.md, Heuristic): how close a seat is to winning.

The search uses it to score a position where a rollout stops and to set its move
priors; :class:`~splendor.GreedyBot` plays the move that maximises it. The Rust engine
computes it in float32, so the two agree within 1e-5, not bit for bit.
"""

from __future__ import annotations

import math

from splendor.reference.base.cards import CARDS, GOLD, NOBLES
from splendor.reference.base.rules import can_afford
from splendor.reference.base.state import BaseCore


def position_value(state: BaseCore, seat: int) -> float:
    """Progress of ``seat`` in rough "points" units."""
    player = state.players[seat]
    bonuses = player.bonuses()
    tokens = player.tokens
    value = float(player.points())
    # The first bonuses of a colour cut every later cost; more of them count
    # mostly through nobles and reachable cards.
    for k in bonuses:
        value += 0.8 * min(k, 2.5) + 0.2 * max(k - 2.5, 0.0)
    value += 0.08 * min(sum(tokens[:5]), 10) + 0.12 * tokens[GOLD]
    value -= 0.12 * len(player.reserved)
    for n in state.nobles:
        req = NOBLES[n].req
        total = sum(req)
        missing = sum(max(0, req[c] - bonuses[c]) for c in range(5))
        done = (total - missing) / total
        value += 1.8 * done * done
    # The best card this seat could buy next turn, or nearly.
    reach = 0.0
    candidates = [c for row in state.board for c in row if c is not None]
    candidates += [r.card for r in player.reserved]
    for c in candidates:
        card = CARDS[c]
        need = [max(0, card.cost[k] - bonuses[k]) for k in range(5)]
        short = sum(max(0, need[k] - tokens[k]) for k in range(5)) - tokens[GOLD]
        worth = card.points + 0.5
        if can_afford(player, bonuses, card):
            reach = max(reach, worth * 0.3)
        else:
            reach = max(reach, worth * 0.3 / (1.0 + max(short, 0)))
    return value + reach


def heuristic(state: BaseCore, player: int, returns: list[float] | None) -> float:
    """``returns[player]`` once the game is over, else a logistic squash of the
    lead of ``player`` over the best opponent (4 "points" of lead ≈ 0.73)."""
    if returns is not None:
        return returns[player]
    mine = position_value(state, player)
    best_other = max(position_value(state, q) for q in range(state.num_players) if q != player)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 4.0))
