"""Bot-versus-bot matches: a progress bar and a results table around ``splendor.match``.

The games themselves run in Rust (:func:`splendor._core.match`) with the GIL
released, several at a time; this module only draws the progress bar and formats
the table (bot lists are read by :func:`splendor.bots.parse_bots`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from splendor import _core
from splendor.bots import BotLike, match
from splendor.bots import parse_bots as parse_bots


class ProgressBar:
    """A one-line progress bar (games done, or ``unit``, rate, time left) on a text stream.

    On a terminal the line is redrawn in place; otherwise a line is printed
    at every tenth of the match, so logs stay short.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30, unit: str = "games") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.unit = unit
        self.start = time.monotonic()
        self.tty = self.stream.isatty()
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        unit = self.unit
        line = f"[{bar}] {done}/{total} {unit}  {rate:.1f} {unit}/s  ETA {_clock(left)}"
        if self.tty:
            end = "\n" if done == total else ""
            self.stream.write("\r" + line + end)
            self.stream.flush()
        else:
            tenth = 10 * done // max(total, 1)
            if tenth != self._last_tenth:
                self._last_tenth = tenth
                self.stream.write(line + "\n")
                self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def run_match(
    bots: Sequence[BotLike],
    *,
    variant: str = "base",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    threads: int = 1,
    turn_cap: int = 100,
    progress: Callable[[int, int], object] | None = None,
) -> _core.MatchResult:
    """Plays a match; see :func:`splendor.bots.match` for the arguments."""
    return match(
        list(bots),
        variant=variant,
        players=players,
        games=games,
        seed=seed,
        threads=threads,
        turn_cap=turn_cap,
        progress=progress,
    )


def format_table(result: _core.MatchResult) -> str:
    """The results as a plain-text table, one row per bot, then the totals."""
    rows = [("bot", "games", "wins", "win rate", "95% CI (Wilson)")]
    for b in result.bots:
        rows.append(
            (
                str(b["name"]),
                str(b["games"]),
                f"{b['wins']:g}",
                f"{100 * b['win_rate']:.1f}%",
                f"[{100 * b['ci_low']:.1f}%, {100 * b['ci_high']:.1f}%]",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for k, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    reasons = ", ".join(f"{k} {v}" for k, v in result.reasons.items() if v)
    lines.append("")
    lines.append(
        f"{result.variant}, {result.players} players, {result.games} games: "
        f"draws {result.draws}, truncated {result.truncated}, stalled {result.stalled}"
    )
    lines.append(
        f"average length: {result.avg_decisions:.1f} decisions, {result.avg_turns:.1f} turns"
    )
    lines.append(f"end reasons: {reasons or 'none'}")
    return "\n".join(lines)
