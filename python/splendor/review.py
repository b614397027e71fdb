"""Game review: every decision of a finished game graded against the AI's search.

:func:`review` replays a finished game and, at every decision, searches the position
**from the mover's own information**: the search starts from
``splendor.from_view(state.to_json(mover), seed=...)``, a state that agrees with what
the mover could see then and fills the rest (the decks' order, the opponents' blind
reserves, Duel's bag) at random, and the search draws those again at every iteration.
So a card revealed later in the game never informs the grade of an earlier decision:
the review grades decisions, not luck.

For each decision the review records:

* ``win``: the mover's win probability before the decision, the search's value of the
  move it prefers (its most visited move);
* ``preferred``: that move, and ``line``, the continuation the search expects after it
  (:attr:`splendor.SearchResult.lines`, the most visited replies);
* ``played``: the move made, and its value ``played_value`` from the same search. A
  move the search visited fewer than :data:`MIN_VISITS_SHARE` of its iterations has a
  noisy value (or none), so it gets a *focused* estimate instead: a search of that move
  alone at the same root (``splendor.search(..., root_action=played)``) with a quarter
  of the budget (:data:`FOCUS_SHARE`), and ``focused`` is true;
* ``loss``: ``max(0, win - played_value)``, 0 when the played move is the preferred one;
* ``grade``: ``best`` (the preferred move), else by the loss (:data:`GRADES`): ``good``
  below 0.05, ``inaccuracy`` below 0.10, ``mistake`` below 0.20, ``blunder`` from 0.20.

Per seat (:class:`SeatReview`): the average loss, an accuracy from 0 to 100 (the mean
over the seat's decisions of ``100 * exp(-loss / ACCURACY_SCALE)``: 100 for a move as
good as the AI's, 61 for a loss of 0.05, 37 for 0.10, 14 for 0.20), the count of each
grade and the three biggest losses with the better move.

A review is deterministic for a seed: each position's search has its own seed derived
from ``seed`` and the decision's index, so ``threads`` (positions reviewed at once, in a
thread pool: the engine releases the GIL while it searches) changes the time, never
the result.

>>> import splendor
>>> state = splendor.new_game("base", seed=1)
>>> actions = []
>>> while not state.is_terminal():
...     action = splendor.GreedyBot(seed=len(actions)).act(state)
...     actions.append(int(action))
...     state.apply(action)
>>> r = review(splendor.new_game("base", seed=1), actions=actions, bot="mcts:50")
>>> len(r.decisions) == len(actions)
True
>>> r.decisions[0].grade in GRADES
True
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import math
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from splendor import _core
from splendor._arguments import typed_errors
from splendor.bots import resolve_bot_spec
from splendor.errors import (
    ConfigError,
    GameNotOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    SplendorError,
)
from splendor.reference.rng import SplitMix64
from splendor.view import from_view

#: The grades, best first.
GRADES: tuple[str, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

#: ``(grade, bound)``: a move that is not the preferred one gets the first grade whose
#: bound its loss is below; ``blunder`` from the last bound up.
GRADE_BOUNDS: tuple[tuple[str, float], ...] = (
    ("good", 0.05),
    ("inaccuracy", 0.10),
    ("mistake", 0.20),
)

#: Accuracy of one decision: ``100 * exp(-loss / ACCURACY_SCALE)``.
ACCURACY_SCALE = 0.10

#: A played move with fewer visits than this share of the iterations gets a focused
#: estimate (a search of it alone).
MIN_VISITS_SHARE = 0.05

#: The focused estimate's budget, as a share of the review's iterations.
FOCUS_SHARE = 0.25

#: The most biggest mistakes listed per seat.
WORST = 3

#: The JSON format of a saved web game (``GET /api/v1/games/{id}/save``).
WEB_GAME_FORMAT = "splendor-web-game"


class ReviewStopped(SplendorError):
    """The review was stopped through its ``stop`` event before it was done (a server
    shutting down): no review is returned."""


def grade_of(loss: float, preferred: bool) -> str:
    """The grade of a decision with ``loss``; ``preferred``: the move was the AI's choice.

    >>> grade_of(0.0, True), grade_of(0.01, False), grade_of(0.12, False), grade_of(0.5, False)
    ('best', 'good', 'mistake', 'blunder')
    """
    if preferred:
        return "best"
    for grade, bound in GRADE_BOUNDS:
        if loss < bound:
            return grade
    return "blunder"


def accuracy_of(losses: Iterable[float]) -> float:
    """Accuracy from 0 to 100 of decisions with these losses (100 when there are none).

    >>> accuracy_of([0.0, 0.0]), round(accuracy_of([0.1]), 1)
    (100.0, 36.8)
    """
    values = [100.0 * math.exp(-loss / ACCURACY_SCALE) for loss in losses]
    return sum(values) / len(values) if values else 100.0


@dataclass(frozen=True)
class DecisionReview:
    """One decision of the game, graded."""

    index: int
    """Its place in the game, from 0."""
    turn: int
    """The game's turn counter when it was made."""
    seat: int
    """The mover."""
    legal: int
    """How many legal moves the mover had."""
    played: str
    """The move made (its text)."""
    played_id: int
    played_value: float
    """The played move's value for the mover (win probability)."""
    played_visits: int
    """The played move's visits in the position's search."""
    focused: bool
    """True when ``played_value`` is the focused estimate (see the module's text)."""
    preferred: str
    """The search's preferred move (most visited)."""
    preferred_id: int
    preferred_visits: int
    win: float
    """The mover's win probability before the decision (the preferred move's value)."""
    loss: float
    """``max(0, win - played_value)``; 0 when the preferred move was played."""
    grade: str
    """One of :data:`GRADES`."""
    line: tuple[tuple[int, str], ...]
    """The continuation the search expects after the preferred move, ``(seat, text)``
    pairs, the preferred move first."""


@dataclass(frozen=True)
class SeatReview:
    """One seat's decisions, summed up."""

    seat: int
    decisions: int
    average_loss: float
    accuracy: float
    """Between 0 and 100 (:func:`accuracy_of`)."""
    grades: dict[str, int]
    """How many decisions got each grade (every grade of :data:`GRADES` is a key)."""
    worst: tuple[int, ...]
    """Indices (into :attr:`Review.decisions`) of the seat's biggest losses, at most
    :data:`WORST`, biggest first; decisions with no loss are left out."""


@dataclass(frozen=True)
class Review:
    """The review of one game: every decision graded, and each seat's summary."""

    variant: str
    players: int
    bot: str
    """The search that reviewed the game, in its one spelling (its network file's
    name only, not its path)."""
    iterations: int
    seed: int
    start: str
    """The full starting state (JSON)."""
    actions: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    decisions: tuple[DecisionReview, ...]
    seats: tuple[SeatReview, ...]

    def series(self, seat: int) -> list[tuple[int, float]]:
        """``(decision index, win probability)`` of ``seat`` for the chart: at its own
        decisions the search's estimate; with 2 players also at the other seat's, as
        one minus that seat's (the values of a 2-player game add up to 1)."""
        points = []
        for d in self.decisions:
            if d.seat == seat:
                points.append((d.index, d.win))
            elif self.players == 2:
                points.append((d.index, 1.0 - d.win))
        return points

    def to_dict(self) -> dict[str, Any]:
        """The review as plain data (what :meth:`to_json` writes)."""
        data = asdict(self)
        data["format"] = "splendor-review"
        data["version"] = 1
        data["start"] = json.loads(self.start)
        return data

    def to_json(self) -> str:
        """The review as JSON text (``format: "splendor-review"``)."""
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Review:
        """The review :meth:`to_json` wrote (a review stored with its game is read back,
        not computed again); equal to the one written.

        Raises:
            InvalidStateError: Not a review's JSON (another format or version, a field
                missing or of the wrong type, a start that is not a state, decisions
                that do not match the actions).
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise InvalidStateError(f"not a review: not JSON ({exc})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Review:
        """The review :meth:`to_dict` made; see :meth:`from_json`."""
        if not isinstance(data, Mapping) or data.get("format") != "splendor-review":
            raise InvalidStateError("not a review: expected format 'splendor-review'")
        if data.get("version") != 1:
            raise InvalidStateError(f"review version {data.get('version')!r} is not 1")
        fields = {k: v for k, v in data.items() if k not in ("format", "version")}
        try:
            # The engine's own text of the start (InvalidStateError for a bad state).
            fields["start"] = _core.from_json(json.dumps(fields["start"])).to_json()
            fields["decisions"] = tuple(
                DecisionReview(**{**d, "line": tuple((int(p), str(a)) for p, a in d["line"])})
                for d in fields["decisions"]
            )
            fields["seats"] = tuple(
                SeatReview(**{**s, "grades": dict(s["grades"]), "worst": tuple(s["worst"])})
                for s in fields["seats"]
            )
            for name in ("actions", "winners", "scores"):
                fields[name] = tuple(fields[name])
            review = cls(**fields)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidStateError):
                raise
            raise InvalidStateError(f"not a review: {type(exc).__name__}: {exc}") from None
        if len(review.decisions) != len(review.actions) or any(
            d.index != k or d.played_id != a
            for k, (d, a) in enumerate(zip(review.decisions, review.actions, strict=True))
        ):
            raise InvalidStateError("not a review: its decisions do not match its actions")
        return review

    def summary(self) -> str:
        """A few lines of text: the result, then each seat's accuracy, average loss,
        grades and biggest mistakes."""
        who = " and ".join(f"seat {w}" for w in self.winners) or "nobody"
        lines = [
            f"{self.variant}, {self.players} players, {len(self.decisions)} decisions:"
            f" won by {who} ({self.reason}); reviewed by {self.bot}"
            f" at {self.iterations} iterations, seed {self.seed}"
        ]
        for s in self.seats:
            counts = ", ".join(f"{s.grades[g]} {g}" for g in GRADES if s.grades[g])
            lines.append(
                f"seat {s.seat}: accuracy {s.accuracy:.0f}, average loss {s.average_loss:.3f}"
                f" over {s.decisions} decisions ({counts})"
            )
            for i in s.worst:
                d = self.decisions[i]
                lines.append(
                    f"  decision {d.index} (turn {d.turn}): {d.grade} {d.played!r}"
                    f" ({d.played_value:.0%}), better {d.preferred!r} ({d.win:.0%})"
                )
        return "\n".join(lines)


@dataclass(frozen=True)
class _Plan:
    """The search of the review: bot spec, budget, network."""

    spec: str
    iterations: int
    network: _core.Network | None
    leaf_batch: int


@dataclass(frozen=True)
class _Position:
    index: int
    turn: int
    seat: int
    view: str
    played: int


@functools.lru_cache(maxsize=8)
def _network(path: str) -> _core.Network:
    return _core.Network.load(path)


def _plan(bot: str, variant: str, players: int, iterations: int | None) -> _Plan:
    if not isinstance(bot, str):
        raise ConfigError(f"bot must be a bot spec (str), not {type(bot).__name__}")
    resolved = resolve_bot_spec(bot, variant, players)
    parsed = _core.parse_bot_spec(resolved)
    if parsed.kind not in ("mcts", "net"):
        raise ConfigError(
            f"a review needs a search to grade the moves: bot {bot!r} is {parsed.kind};"
            " give default, mcts:N or net:N"
        )
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ConfigError(f"iterations must be a positive integer, got {iterations!r}")
        budget = iterations
    elif parsed.iterations is not None:
        budget = parsed.iterations
    else:
        raise ConfigError(
            f"bot {bot!r} has a time budget: a review's result would depend on the"
            " machine's speed; give iterations (mcts:1000, net:800)"
        )
    network = _network(parsed.network) if parsed.network is not None else None
    shown = str(parsed).split("@", 1)[0]
    if parsed.network is not None:
        shown += f"@{Path(parsed.network).name}"
    if iterations is not None:
        shown += f" (reviewed at {iterations} iterations)"
    return _Plan(shown, budget, network, parsed.leaf_batch or 1)


def _read_record(game: str | os.PathLike[str] | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(game, Mapping):
        return game
    if isinstance(game, str) and game.lstrip()[:1] in ("{", "["):
        text = game
        where = "the game"
    elif isinstance(game, (str, os.PathLike)):
        where = os.fspath(game)
        try:
            text = Path(game).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"cannot review {where}: not a saved game (not UTF-8 text)") from None
        except (OSError, ValueError) as exc:
            # A missing file, a folder, a name the system cannot take (a NUL byte).
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise ConfigError(f"cannot read {where!r}: {why}") from None
    else:
        raise ConfigError(
            "game must be a saved game (a path, its JSON text or its parsed dict) or a start"
            f" state with actions=..., not {type(game).__name__}"
        )
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"cannot review {where}: not JSON ({exc})") from None
    if not isinstance(record, Mapping):
        raise ConfigError(f"cannot review {where}: expected a JSON object")
    return record


def load_game(game: Any, actions: Sequence[Any] | None = None) -> tuple[Any, list[int]]:
    """The start state (Rust engine) and the action ids of a game given to :func:`review`.

    ``game``: a saved web game (``{"format": "splendor-web-game", "start": ...,
    "actions": [...]}``, as a dict, its JSON text or a file's path), any mapping with
    ``start`` (a full state, as a dict or JSON text) and ``actions`` (ids or texts), or a
    start state with ``actions``.

    Raises:
        ConfigError: Not one of those forms, a file that cannot be read, or ``actions``
            given twice.
        InvalidStateError: The start is not a valid full state.
        InvalidActionError, IllegalActionError: An action that does not parse, or is
            not legal where it is played (the message names the decision).
    """
    if hasattr(game, "legal_actions") and hasattr(game, "to_json"):
        if actions is None:
            raise ConfigError("a start state needs its actions: review(state, actions=[...])")
        start = _core.from_json(game.to_json())
        moves: Any = actions
    else:
        if actions is not None:
            raise ConfigError("actions=... goes with a start state; a saved game holds its own")
        record = _read_record(game)
        fmt = record.get("format", WEB_GAME_FORMAT)
        if fmt != WEB_GAME_FORMAT:
            raise ConfigError(f"not a saved game: format {fmt!r} (expected {WEB_GAME_FORMAT!r})")
        if "start" not in record or "actions" not in record:
            raise ConfigError("a saved game needs 'start' (the first state) and 'actions'")
        first = record["start"]
        if isinstance(first, Mapping):
            first = json.dumps(first)
        if not isinstance(first, str):
            raise InvalidStateError("the saved game's 'start' is not a state")
        start = _core.from_json(first)
        moves = record["actions"]
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise ConfigError(
            f"actions must be a list of action ids or texts, not {type(moves).__name__}"
        )
    ids: list[int] = []
    state = start.clone()
    for k, a in enumerate(moves):
        if state.is_terminal():
            raise IllegalActionError(f"decision {k}: the game is already over")
        if isinstance(a, bool) or not isinstance(a, (int, str, _core.Action)):
            raise InvalidActionError(
                f"decision {k}: an action is an id or a text, not {type(a).__name__}"
            )
        try:
            action = state.action_from_text(a) if isinstance(a, str) else a
            state.apply(action)
        except (IllegalActionError, InvalidActionError) as exc:
            raise type(exc)(f"decision {k}: {exc}") from None
        ids.append(int(action))
    return start, ids


def _position_seed(seed: int, index: int) -> int:
    """Each decision's own search seed: a function of the review's seed and the index."""
    return SplitMix64((seed + 0x9E3779B97F4A7C15 * (index + 1)) % 2**64).next_u64()


def _search_position(
    pos: _Position, plan: _Plan, seed: int, stop: threading.Event | None = None
) -> DecisionReview | None:
    """The review of one decision (blocking; the searches release the GIL); None when
    ``stop`` was set meanwhile (the searches end early, their results unused)."""
    root = from_view(pos.view, seed=seed)
    options: dict[str, Any] = {
        "seed": seed,
        "network": plan.network,
        "leaf_batch": plan.leaf_batch,
        "stop": stop,
    }
    result = _core.search(root, iterations=plan.iterations, **options)
    by_id = {int(a): a for a in result.visits}
    played = by_id[pos.played]
    preferred = result.action
    win = result.values[preferred]
    played_visits = result.visits[played]
    played_value = result.values[played]
    focused = False
    if played != preferred and played_visits < MIN_VISITS_SHARE * plan.iterations:
        budget = max(1, round(FOCUS_SHARE * plan.iterations))
        alone = _core.search(root, iterations=budget, root_action=played, **options)
        played_value = alone.values[played]
        focused = True
    if stop is not None and stop.is_set():
        return None
    loss = 0.0 if played == preferred else max(0.0, win - played_value)
    return DecisionReview(
        index=pos.index,
        turn=pos.turn,
        seat=pos.seat,
        legal=len(result.visits),
        played=str(played),
        played_id=int(played),
        played_value=played_value,
        played_visits=played_visits,
        focused=focused,
        preferred=str(preferred),
        preferred_id=int(preferred),
        preferred_visits=result.visits[preferred],
        win=win,
        loss=loss,
        grade=grade_of(loss, played == preferred),
        line=tuple((seat, str(a)) for seat, a in result.lines[preferred]),
    )


def _seat_review(seat: int, decisions: Sequence[DecisionReview]) -> SeatReview:
    mine = [d for d in decisions if d.seat == seat]
    losses = [d.loss for d in mine]
    worst = sorted((d for d in mine if d.loss > 0), key=lambda d: (-d.loss, d.index))[:WORST]
    return SeatReview(
        seat=seat,
        decisions=len(mine),
        average_loss=sum(losses) / len(losses) if losses else 0.0,
        accuracy=accuracy_of(losses),
        grades={g: sum(d.grade == g for d in mine) for g in GRADES},
        worst=tuple(d.index for d in worst),
    )


def _run(
    positions: list[_Position],
    plan: _Plan,
    seed: int,
    threads: int,
    progress: Callable[[int, int], object] | None,
    stop: threading.Event | None = None,
) -> list[DecisionReview]:
    """Each position's review, in order; ``threads`` of them at once.

    Ctrl-C (KeyboardInterrupt in the calling thread): positions not started are
    dropped, the searches under way in the other threads are stopped (``search``'s
    ``stop`` event: Python's signal handlers run only on the main thread) and waited
    for, a fraction of a second, and the interrupt is raised again: nothing is left
    running.

    ``stop`` (set by another thread): the searches under way end early, the positions
    not started are dropped, and :class:`ReviewStopped` is raised.
    """
    total = len(positions)
    done: list[DecisionReview | None] = [None] * total
    if progress is not None:
        progress(0, total)
    if threads == 1:
        for k, pos in enumerate(positions):
            if stop is not None and stop.is_set():
                break
            done[k] = _search_position(pos, plan, _position_seed(seed, pos.index), stop)
            if progress is not None and done[k] is not None:
                progress(k + 1, total)
        return _finished(done, stop)
    outer = stop
    stop = threading.Event()

    def one(k: int) -> tuple[int, DecisionReview | None]:
        if stop.is_set():
            return k, None
        pos = positions[k]
        return k, _search_position(pos, plan, _position_seed(seed, pos.index), stop)

    pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="splendor-review")
    try:
        pending = {pool.submit(one, k) for k in range(total)}
        finished = 0
        while pending:
            # A short wait, so that the calling thread runs Python's signal handlers.
            ready, pending = concurrent.futures.wait(
                pending, timeout=0.1, return_when=concurrent.futures.FIRST_COMPLETED
            )
            if outer is not None and outer.is_set():
                stop.set()
            for f in ready:
                k, d = f.result()
                done[k] = d
                if d is None:
                    continue  # stopped: not reviewed, not counted
                finished += 1
                if progress is not None:
                    progress(finished, total)
    except BaseException:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return _finished(done, outer)


def _finished(
    done: list[DecisionReview | None], stop: threading.Event | None
) -> list[DecisionReview]:
    """Every decision's review, or :class:`ReviewStopped` when ``stop`` cut it short."""
    if (stop is not None and stop.is_set()) or any(d is None for d in done):
        raise ReviewStopped("the review was stopped before it was done")
    return [d for d in done if d is not None]


@typed_errors
def review(
    game: Any,
    bot: str = "default",
    *,
    actions: Sequence[Any] | None = None,
    iterations: int | None = None,
    seed: int = 0,
    threads: int = 1,
    progress: Callable[[int, int], object] | None = None,
    stop: threading.Event | None = None,
) -> Review:
    """Reviews a finished game: every decision searched from the mover's information,
    graded by its loss against the AI's preferred move (see :mod:`splendor.review`).

    Args:
        game: A saved web game (the JSON of ``GET /api/v1/games/{id}/save``: a path,
            its text or its dict), any mapping with ``start`` and ``actions``, or a
            start state (either engine) with ``actions``.
        bot: The search that grades the moves: ``default`` (the default AI of the
            game), ``mcts:N``, ``net:N`` or ``net:N@PATH`` (an iteration budget: a time
            budget would make the review depend on the machine).
        actions: With a start state: the game's actions (ids, texts or Actions).
        iterations: Iterations per position instead of the bot's own budget.
        seed: The review's seed: the same game, bot and seed give the same review.
        threads: Positions searched at once (the result does not depend on it).
        progress: Called as ``progress(done, total)`` before the first position and
            after each one.
        stop: A ``threading.Event``: set from another thread, it stops the review
            within a fraction of a second (each search polls it), which then raises
            :class:`ReviewStopped` (a server shutting down stops its reviews so).

    Raises:
        GameNotOverError: The game is not finished (a live game is not reviewed).
        ConfigError: A bad argument, bot spec or saved-game form, or a file that cannot
            be read.
        InvalidStateError: The start is not a valid state.
        InvalidActionError, IllegalActionError: An action that does not parse or is
            not legal where it is played.
        NetworkError: A bad network file.
        KeyboardInterrupt: Ctrl-C; the searches under way are stopped and waited for
            (a fraction of a second), none is left running.
        ReviewStopped: ``stop`` was set before the review was done.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be an integer between 0 and 2**64 - 1, got {seed!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise ConfigError(f"threads must be an integer between 1 and 256, got {threads!r}")
    if progress is not None and not callable(progress):
        raise ConfigError("progress must be callable as progress(done, total)")
    if stop is not None and not isinstance(stop, threading.Event):
        raise ConfigError(f"stop must be a threading.Event, not {type(stop).__name__}")
    start, ids = load_game(game, actions)
    state = start.clone()
    positions = []
    for k, a in enumerate(ids):
        seat = state.current_player
        turn = int(json.loads(state.to_json(seat))["turn"])
        positions.append(_Position(k, turn, seat, state.to_json(seat), a))
        state.apply(a)
    outcome = state.outcome()
    if outcome is None:
        raise GameNotOverError(
            f"the game is not over ({len(ids)} decisions, seat {state.current_player} to"
            " play): only a finished game is reviewed"
        )
    plan = _plan(bot, start.variant, start.num_players, iterations)
    decisions = _run(positions, plan, seed, threads, progress, stop)
    return Review(
        variant=start.variant,
        players=start.num_players,
        bot=plan.spec,
        iterations=plan.iterations,
        seed=seed,
        start=start.to_json(),
        actions=tuple(ids),
        winners=tuple(outcome.winners),
        reason=str(outcome.reason),
        scores=tuple(state.scores()),
        decisions=tuple(decisions),
        seats=tuple(_seat_review(p, decisions) for p in range(start.num_players)),
    )


@dataclass(frozen=True)
class MoveHint:
    """One of the AI's top moves in a position."""

    action: str
    action_id: int
    win: float
    """Its value for the player to move (win probability)."""
    visits: int
    line: tuple[tuple[int, str], ...]
    """The continuation the search expects, ``(seat, text)`` pairs, this move first."""


@typed_errors
def hint(
    state: Any,
    bot: str = "default",
    *,
    count: int = 3,
    iterations: int | None = None,
    seed: int = 0,
) -> list[MoveHint]:
    """The AI's ``count`` most visited moves for the player to move in ``state``, best
    first, each with its win probability, visits and expected continuation.

    The search starts from the mover's view (``state.to_json(mover)``), so nothing the
    mover cannot see informs it, whatever ``state`` holds.

    Raises:
        ConfigError: A finished game, a bad count or bot spec (see :func:`review`).
        InvalidStateError: ``state`` is not a state.
    """
    if not (hasattr(state, "to_json") and hasattr(state, "current_player")):
        raise InvalidStateError(f"expected a game state, not {type(state).__name__}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ConfigError(f"count must be a positive integer, got {count!r}")
    if state.is_terminal():
        raise ConfigError("the game is over: there is no move to hint")
    mover = state.current_player
    root = from_view(state.to_json(mover), seed=seed)
    plan = _plan(bot, root.variant, root.num_players, iterations)
    result = _core.search(
        root,
        iterations=plan.iterations,
        seed=seed,
        network=plan.network,
        leaf_batch=plan.leaf_batch,
    )
    ranked = sorted(result.visits, key=lambda a: (-result.visits[a], -result.values[a], int(a)))
    return [
        MoveHint(
            action=str(a),
            action_id=int(a),
            win=result.values[a],
            visits=result.visits[a],
            line=tuple((seat, str(x)) for seat, x in result.lines[a]),
        )
        for a in ranked[:count]
    ]


__all__ = [
    "GRADES",
    "DecisionReview",
    "MoveHint",
    "Review",
    "ReviewStopped",
    "SeatReview",
    "accuracy_of",
    "grade_of",
    "hint",
    "load_game",
    "review",
]
