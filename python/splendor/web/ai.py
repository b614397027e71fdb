"""The AI's choice of a move, bounded by the server's limits; runs in a worker thread.

Everything here is blocking and releases the GIL inside the engine (``splendor.search``
and the bots' ``act``), so the app runs it in a bounded thread pool, never on the
event loop.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import splendor
from splendor.bots import make_bot, resolve_bot_spec
from splendor.errors import ConfigError
from splendor.nets import (
    DEFAULT_EXPLORATION,
    SHIPPED_NET_ITERATIONS,
    TreePolicy,
    shipped_leaf_batch,
    shipped_network_path,
    shipped_tree_policy,
)
from splendor.render import board_of
from splendor.render.describe import describe
from splendor.web.models import Considered, HintResponse, LineStep, MoveResponse, TopMove

CONSIDERED = 8
"""Moves listed in a move's statistics."""

HINT_TOP = 3
"""Moves a hint explains."""

HINT_LINE = 3
"""Decisions of a hinted move's expected continuation (the move first)."""


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
    max_decisions: int = 2000
    """Decisions one server-held game may hold (bounds its memory)."""
    max_turn_cap: int = 100
    """The highest turn cap of a loaded game (the games the server deals use 100)."""
    workers: int = 2
    """Threads that play the tables' AI seats."""
    search_workers: int = 2
    """Threads for the searches clients ask for (``/api/v1/move``, hints): a pool apart from
    the AI seats', so a table's AI never waits behind them."""
    max_pending: int = 64
    """Searches queued or running on that pool, from all clients (beyond it: 503 ``busy``)."""
    max_searches_per_client: int = 4
    """Searches one client may have queued or running at once (beyond it: 429)."""
    max_streams_per_client: int = 64
    """Event streams one client may hold open (beyond it: 429)."""
    max_tables_per_minute: int = 30
    """Tables one client may make in a minute (beyond it: 429)."""
    review_iterations: int | None = None
    """Iterations per position of a game's review (``POST /api/v1/games/{id}/review``, by
    the default AI); None: the default AI's own budget for the game."""
    max_reviews: int = 8
    """Reviews queued or running at once, on their one low-priority thread (beyond: 503
    ``busy``)."""


@dataclass(frozen=True)
class Plan:
    """What to run: a search (``mcts``, ``net`` or ``default``, with stats) or another
    bot spec. A search with neither budget runs its game's default iterations."""

    spec: str
    iterations: int | None = None
    time_limit: float | None = None
    rollout_iterations: int = 1000
    """The default iterations of the rollout search (the server's ``default_iterations``)."""
    max_iterations: int = 100_000
    """The server's limit, which a network search's default budget must respect too."""
    leaf_batch: int | None = None
    """Leaves per forward pass of a network search (``net:N:batch=B``); None: the
    shipped network's own."""
    tree_policy: TreePolicy | None = None
    """The tree policy the spec gives (``:c=C``, ``:fpu=R``, ``:ptemp=P``, ``:stop=S``);
    None: a network search takes the default AI's
    (:func:`splendor.nets.shipped_tree_policy`)."""


def _tree_policy_of(spec: splendor.BotSpec) -> TreePolicy | None:
    """The tree policy a spec spells out (any option given: the others at their
    defaults), or None when it gives none."""
    given = (spec.exploration, spec.fpu_reduction, spec.policy_temperature, spec.early_stop)
    if all(option is None for option in given):
        return None
    return TreePolicy(
        exploration=spec.exploration or DEFAULT_EXPLORATION,
        fpu_reduction=spec.fpu_reduction or 0.0,
        policy_temperature=spec.policy_temperature or 1.0,
        early_stop=spec.early_stop or 0.0,
    )


def plan_move(
    bot: str,
    iterations: int | None,
    time_limit: float | None,
    limits: ServerLimits,
    game: tuple[str, int] | None = None,
) -> Plan:
    """Check ``bot`` and the budget against ``limits`` (and, given the ``game``'s
    variant and player count, that a ``net`` search has a network for it).

    ``bot`` is read by :func:`splendor.parse_bot_spec`, the one parser of the engine,
    the command line and this server, and the limits are checked on the budget it
    parsed, whatever its spelling (``mcts: 150000`` is ``mcts:150000``). A budget in
    the spec replaces the request's.

    Raises:
        BudgetError: The budget is over the limits.
        ConfigError: Not a bot spec (the parser's message, which lists the forms), a
            network file path (the server searches only with the networks it ships),
            or ``net`` for a game with none.
    """
    spec = splendor.parse_bot_spec(bot)
    if spec.network is not None:
        # A client must not make the server open files of its choosing.
        raise ConfigError(
            f"bot {bot!r} names a file: this server only searches with the networks it"
            " ships (net, net:N or net:Ts)"
        )
    if spec.iterations is not None or spec.time_limit is not None:
        iterations, time_limit = spec.iterations, spec.time_limit
    if spec.kind == "level":
        # A level is its own search (splendor.bots.LEVELS), with no budget but its own.
        if game is not None:
            resolve_bot_spec(str(spec), *game)  # ConfigError when it cannot be built
        plan = Plan(str(spec), iterations, time_limit)
    elif spec.kind in ("mcts", "net", "default"):
        if spec.kind == "net" and game is not None:
            shipped_network_path(*game)  # ConfigError when none is shipped
        plan = Plan(
            spec.kind,
            iterations,
            time_limit,
            limits.default_iterations,
            limits.max_iterations,
            spec.leaf_batch,
            _tree_policy_of(spec),
        )
    else:
        # random or greedy: no search, but a budget asked for is still checked.
        plan = Plan(spec.kind, iterations, time_limit)
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


@functools.lru_cache(maxsize=16)
def shipped_network(variant: str, players: int) -> splendor.Network | None:
    """The network shipped for the game, loaded once; ``None`` when there is none."""
    try:
        path = shipped_network_path(variant, players)
    except ConfigError:
        return None
    return splendor.Network.load(path)


def move_says(state: Any, seat: int, action: Any) -> str:
    """``action`` of ``seat`` in ``state`` in words, from the seat's view; its text for a
    blind reserve (``state`` is a determinization: the card it would draw is made up)."""
    text = str(action)
    if " deck " in f" {text} ":
        return text
    try:
        after = state.child(action)
        return describe(board_of(state, seat), board_of(after, seat), seat, text)
    except splendor.SplendorError:  # pragma: no cover - a legal move always replays
        return text


def choose(state: Any, plan: Plan, seed: int, *, explain: bool = False) -> MoveResponse:
    """The move ``plan`` chooses for the player to move in ``state`` (blocking).

    ``explain``: a hint: the answer is a :class:`HintResponse` whose ``top`` names the
    search's :data:`HINT_TOP` most visited moves, each with its words and expected line
    (``SearchResult.lines``, from the same search, so in the seat's information). A hint's
    search spends its whole budget (no early stop), so the moves it explains beside the best
    are searched as far as a full search takes them.

    ``state`` must hold nothing the player may not see beyond what the search
    determinizes itself (a state loaded with ``from_view``, or a server game's
    state: MCTS resamples every hidden card at every iteration).
    """
    player = state.current_player
    start = time.perf_counter()
    if plan.spec in ("mcts", "net", "default"):
        game = (state.variant, state.num_players)
        network = None if plan.spec == "mcts" else shipped_network(*game)
        if plan.spec == "net" and network is None:
            shipped_network_path(*game)  # raises the ConfigError that says so
        kind = "mcts" if network is None else "net"
        iterations = plan.iterations
        if iterations is None and plan.time_limit is None:
            iterations = plan.rollout_iterations
            if network is not None:
                # At most about the time of the server's default rollout budget: the
                # shipped figures are the default AI's iterations, which take at most the
                # time of 1,000 rollout ones.
                per_thousand = SHIPPED_NET_ITERATIONS.get(game, 1000)
                iterations = round(plan.rollout_iterations * per_thousand / 1000)
                iterations = max(1, min(iterations, plan.max_iterations))
        leaf_batch = 1
        tree = plan.tree_policy or TreePolicy()
        if network is not None:
            leaf_batch = plan.leaf_batch or shipped_leaf_batch(*game)
            # This server's `net` and `default` are both the default AI's search, at the
            # budget asked: its batch and its tree policy, unless the spec gives its own.
            tree = plan.tree_policy or shipped_tree_policy(*game)
        result = splendor.search(
            state,
            iterations=iterations,
            time_limit=plan.time_limit,
            seed=seed,
            network=network,
            leaf_batch=leaf_batch,
            exploration=tree.exploration,
            fpu_reduction=tree.fpu_reduction,
            policy_temperature=tree.policy_temperature,
            early_stop=0.0 if explain else tree.early_stop,
        )
        elapsed = time.perf_counter() - start
        ranked = sorted(result.visits, key=lambda a: (-result.visits[a], int(a)))
        considered = [
            Considered(id=int(a), text=str(a), visits=result.visits[a], value=result.values[a])
            for a in ranked[:CONSIDERED]
        ]
        answer = MoveResponse(
            action_id=int(result.action),
            action=str(result.action),
            player=player,
            bot=kind,
            win_estimate=result.values[result.action],
            iterations=result.iterations,
            nodes=result.nodes,
            considered=considered,
            elapsed=elapsed,
        )
        if not explain:
            return answer
        top = [
            TopMove(
                id=int(a),
                text=str(a),
                visits=result.visits[a],
                value=result.values[a],
                says=move_says(state, player, a),
                line=[
                    LineStep(seat=seat, action=str(x)) for seat, x in result.lines[a][:HINT_LINE]
                ],
            )
            for a in ranked[:HINT_TOP]
        ]
        return HintResponse(**answer.model_dump(), top=top)
    action = make_bot(plan.spec, seed, state.variant, state.num_players).act(state)
    kind_of = HintResponse if explain else MoveResponse
    return kind_of(
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
