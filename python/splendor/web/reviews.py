"""Reviews of finished games (``POST /api/v1/games/{id}/review``): computed once, in the
background, stored with the game.

A review (:func:`splendor.review`, by the default AI at ``review_iterations``, seed 0)
searches every decision of the game, seconds to minutes of CPU. It runs on a pool of its
own with **one** thread, at a lower OS priority than the tables' AI seats (nice 10 on
Linux), so a review never slows a table's AI; at most ``max_reviews`` wait or run at once
(503 ``busy`` beyond). Its progress wakes the game's event streams (``event: review``).
Once done it is stored (the ``reviews`` table) and every later request reads it back; a
server that stops sets the reviews' stop event, so the running search ends at once.

A review is kept here while it waits or runs, in this process only: a review another
process runs, or one cut short by a restart, shows as not started (``none``) until it is
stored, and a new request starts it here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from splendor.errors import GameNotOverError, SplendorError
from splendor.render.review import chart_svg, move_words
from splendor.review import Review, ReviewStopped, review
from splendor.web import models as m
from splendor.web.errors import Busy
from splendor.web.games import Game
from splendor.web.tables import Tables

log = logging.getLogger("splendor.web")

REVIEW_BOT = "default"
"""The AI that reviews: the strongest for the game."""

REVIEW_SEED = 0
"""The seed of every review (the same game and budget give the same review)."""

REVIEW_NICE = 10
"""How much lower the review thread's priority is than the rest of the server's."""

RESULTS_KEPT = 32
"""Reviews kept ready to answer (their words and chart made), least recently read dropped."""


def lower_priority() -> None:
    """Lower the calling thread's OS priority by :data:`REVIEW_NICE` (Linux: a thread is a
    task with its own nice value; elsewhere nothing happens)."""
    get_id = getattr(threading, "get_native_id", None)
    if not hasattr(os, "setpriority") or get_id is None:  # pragma: no cover - not Linux
        return
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, get_id(), REVIEW_NICE)


@dataclass
class Job:
    """A review waiting or running in this process."""

    game_id: str
    state: Literal["pending", "running", "done", "failed"] = "pending"
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> m.ReviewStatus:
        return m.ReviewStatus(
            state=self.state, done=self.done, total=self.total, message=self.error
        )


def result_of(text: str) -> m.ReviewResult:
    """What the page shows of a stored review: every decision (each seat's win probability,
    the grade, the moves played and preferred in words), each seat's summary, the chart."""
    r = Review.from_json(text)

    def words(index: int, preferred: bool) -> str:
        try:
            return move_words(r, index, preferred)
        except SplendorError:  # pragma: no cover - a reviewed move always replays
            d = r.decisions[index]
            return d.preferred if preferred else d.played

    decisions = []
    for d in r.decisions:
        wins: list[float | None] = [None] * r.players
        wins[d.seat] = d.win
        if r.players == 2:
            wins[1 - d.seat] = 1.0 - d.win
        decisions.append(
            m.ReviewedDecision(
                index=d.index,
                turn=d.turn,
                seat=d.seat,
                wins=wins,
                win=d.win,
                grade=d.grade,  # type: ignore[arg-type]  # one of GRADES
                loss=d.loss,
                played=d.played,
                played_value=d.played_value,
                played_says=words(d.index, False),
                preferred=d.preferred,
                preferred_says=words(d.index, True),
                line=[m.LineStep(seat=s, action=a) for s, a in d.line],
                focused=d.focused,
            )
        )
    seats = [
        m.ReviewedSeat(
            seat=s.seat,
            decisions=s.decisions,
            accuracy=s.accuracy,
            average_loss=s.average_loss,
            grades=s.grades,
            worst=list(s.worst),
        )
        for s in r.seats
    ]
    return m.ReviewResult(
        bot=r.bot,
        iterations=r.iterations,
        seed=r.seed,
        decisions=decisions,
        seats=seats,
        chart=chart_svg(r),
    )


class Reviews:
    """The reviews of one server process: its one low-priority thread and its jobs."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.limits = tables.limits
        self.pool = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="splendor-review", initializer=lower_priority
        )
        self.jobs: dict[str, Job] = {}
        self.results: OrderedDict[str, m.ReviewResult] = OrderedDict()
        self.stop = threading.Event()

    def progress(self, game_id: str) -> m.ReviewStatus | None:
        """The review of ``game_id`` running or waiting here, if any (for its streams)."""
        job = self.jobs.get(game_id)
        return None if job is None else job.status()

    async def status(self, game: Game) -> m.ReviewStatus:
        """The review of a finished game: done (with its result), waiting or running here,
        or not started (``none``)."""
        if game.current is not None:
            raise GameNotOverError("the game is not over: only a finished game is reviewed")
        job = self.jobs.get(game.game_id)
        if job is not None and job.state in ("pending", "running"):
            return job.status()
        result = await self.result(game.game_id)
        if result is not None:
            steps = len(result.decisions)
            return m.ReviewStatus(state="done", done=steps, total=steps, review=result)
        return job.status() if job is not None else m.ReviewStatus(state="none")

    async def result(self, game_id: str) -> m.ReviewResult | None:
        """The stored review of ``game_id``, in the page's terms (None when not stored)."""
        found = self.results.get(game_id)
        if found is not None:
            self.results.move_to_end(game_id)
            return found
        text = await self.tables.read(self.tables.store.review, game_id)
        if text is None:
            return None
        found = await asyncio.to_thread(result_of, text)
        self.results[game_id] = found
        while len(self.results) > RESULTS_KEPT:
            self.results.popitem(last=False)
        return found

    async def start(self, game: Game) -> m.ReviewStatus:
        """Start the review of a finished game, once: a review stored, waiting or running
        is answered as it is (503 ``busy`` when ``max_reviews`` already wait or run)."""
        known = await self.status(game)
        if known.state in ("done", "pending", "running"):
            return known
        waiting = sum(j.state in ("pending", "running") for j in self.jobs.values())
        if waiting >= self.limits.max_reviews:
            raise Busy(f"{waiting} reviews are waiting for the review thread; try again later")
        job = Job(game.game_id, total=game.steps)
        self.jobs[game.game_id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job, game.saved()))
        return job.status()

    async def _run(self, job: Job, saved: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()

        def moved(done: int, total: int) -> None:
            job.state, job.done, job.total = "running", done, total
            self.tables.hub.wake(job.game_id)

        def progress(done: int, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the server stops
                loop.call_soon_threadsafe(moved, done, total)

        def work() -> str:
            return review(
                saved,
                REVIEW_BOT,
                iterations=self.limits.review_iterations,
                seed=REVIEW_SEED,
                progress=progress,
                stop=self.stop,
            ).to_json()

        try:
            text = await loop.run_in_executor(self.pool, work)
            await self.tables.call(self.tables.store.save_review, job.game_id, text)
            job.state = "done"  # stored: read back from now on
        except (asyncio.CancelledError, ReviewStopped):
            self.jobs.pop(job.game_id, None)
            raise asyncio.CancelledError from None
        except Exception as exc:
            log.error("the review of game %s failed", job.game_id, exc_info=exc)
            job.state, job.error = "failed", f"the review failed: {type(exc).__name__}: {exc}"
        finally:
            self.tables.hub.wake(job.game_id)

    async def close(self) -> None:
        """The server stops: the running review's searches end at once, none waits."""
        self.stop.set()
        tasks = [j.task for j in self.jobs.values() if j.task is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
