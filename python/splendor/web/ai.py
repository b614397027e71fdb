"""The AI's choice of a move, bounded by the server's limits; runs in a worker thread.

Everything here is blocking and releases the GIL inside the engine (``splendor.search``
and the bots' ``act``), so the app runs it in a bounded thread pool, never on the
event loop.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import splendor
from splendor.play import make_bot
from splendor.web.models import Considered, MoveResponse

CONSIDERED = 8
"""Moves listed in a move's statistics."""
_MCTS = re.compile(r"^mcts(?::(?:(?P<n>\d+)|(?P<t>\d+(?:\.\d+)?)s))?$")
_NUMBER = re.compile(r":(?P<n>\d+)(?P<s>s?)$")


class BudgetError(ValueError):
    """A budget over the server's limits (a 422, not a crash)."""


@dataclass(frozen=True)
class ServerLimits:
    """Bounds on what one request may cost."""

    max_iterations: int = 100_000
    max_time_limit: float = 10.0
    default_iterations: int = 1000
    max_body_bytes: int = 256 * 1024
    max_games: int = 1000
    workers: int = 2
    max_pending: int = 512


@dataclass(frozen=True)
class Plan:
    """What to run: an MCTS search (with stats) or another bot spec."""

    spec: str
    iterations: int | None = None
    time_limit: float | None = None


def plan_move(
    bot: str, iterations: int | None, time_limit: float | None, limits: ServerLimits
) -> Plan:
    """Check ``bot`` and the budget against ``limits``.

    Raises:
        BudgetError: The budget is over the limits.
        ConfigError: An unknown bot spec.
    """
    spec = bot.strip().lower()
    m = _MCTS.match(spec)
    if m is not None:
        if m.group("n") is not None:
            iterations = int(m.group("n"))
        if m.group("t") is not None:
            time_limit = float(m.group("t"))
        if iterations is None and time_limit is None:
            iterations = limits.default_iterations
        plan = Plan("mcts", iterations, time_limit)
    else:
        # Any other spec (greedy, random, net:N ...): its own budget is checked if it has one.
        n = _NUMBER.search(spec)
        if n is not None:
            if n.group("s"):
                time_limit = float(n.group("n"))
            else:
                iterations = int(n.group("n"))
        plan = Plan(spec, iterations, time_limit)
        make_bot(spec, 0)  # raises ConfigError for an unknown spec
    if plan.iterations is not None and not 1 <= plan.iterations <= limits.max_iterations:
        raise BudgetError(
            f"iterations {plan.iterations} is over this server's limit of {limits.max_iterations}"
        )
    if plan.time_limit is not None and not 0 < plan.time_limit <= limits.max_time_limit:
        raise BudgetError(
            f"time_limit {plan.time_limit} s is over this server's limit of"
            f" {limits.max_time_limit} s"
        )
    return plan


def choose(state: Any, plan: Plan, seed: int) -> MoveResponse:
    """The move ``plan`` chooses for the player to move in ``state`` (blocking).

    ``state`` must hold nothing the player may not see beyond what the search
    determinizes itself (a state loaded with ``from_view``, or a server game's
    state: MCTS resamples every hidden card at every iteration).
    """
    player = state.current_player
    start = time.perf_counter()
    if plan.spec == "mcts":
        result = splendor.search(
            state, iterations=plan.iterations, time_limit=plan.time_limit, seed=seed
        )
        elapsed = time.perf_counter() - start
        ranked = sorted(result.visits, key=lambda a: (-result.visits[a], int(a)))
        considered = [
            Considered(id=int(a), text=str(a), visits=result.visits[a], value=result.values[a])
            for a in ranked[:CONSIDERED]
        ]
        return MoveResponse(
            action_id=int(result.action),
            action=str(result.action),
            player=player,
            bot="mcts",
            win_estimate=result.values[result.action],
            iterations=result.iterations,
            nodes=result.nodes,
            considered=considered,
            elapsed=elapsed,
        )
    action = make_bot(plan.spec, seed).act(state)
    return MoveResponse(
        action_id=int(action),
        action=str(action),
        player=player,
        bot=plan.spec,
        win_estimate=None,
        iterations=None,
        nodes=None,
        considered=[],
        elapsed=time.perf_counter() - start,
    )
