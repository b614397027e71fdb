"""Pictures of a game review (:func:`splendor.review`): the win-probability chart as SVG,
and a self-contained HTML page with the chart, each seat's summary, the graded move list
and the board at each mistake with the move played and the AI's preferred move marked.

Every board is drawn from the mover's view before the decision (``state.to_json(seat)``,
through :func:`splendor.render.svg_board`): what the mover saw when deciding.

>>> import splendor
>>> from splendor.review import review
>>> state = splendor.new_game("base", seed=1)
>>> ids = []
>>> while not state.is_terminal():
...     a = splendor.GreedyBot(seed=1).act(state)
...     ids.append(int(a))
...     state.apply(a)
>>> r = review(splendor.new_game("base", seed=1), "mcts:20", actions=ids)
>>> chart_svg(r).startswith("<svg")
True
"""

from __future__ import annotations

import re
from html import escape, unescape
from typing import TYPE_CHECKING, Any

from splendor import _core
from splendor.errors import SplendorError
from splendor.render import board_of, svg_board
from splendor.render.describe import describe
from splendor.render.last import last_marks
from splendor.render.model import Board

if TYPE_CHECKING:
    from splendor.review import DecisionReview, Review

#: One colour per seat (lines of the chart).
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")

#: The colour of each grade (markers, the move list).
GRADE_COLOURS = {
    "best": "#2e7d32",
    "good": "#7cb342",
    "inaccuracy": "#f9a825",
    "mistake": "#ef6c00",
    "blunder": "#c62828",
}

#: Decisions of the AI's expected line written under a board (the preferred move first).
LINE_SHOWN = 4

#: Most boards drawn in a page (the biggest losses first); the move list has them all.
MAX_BOARDS = 24

# The preferred move's places: dashed green, apart from the played move's orange
# (``last``) and from the dashed blue of a card that replaced a taken one (``replaced``).
_PREFERRED_STYLE = (
    ".preferred>rect:first-of-type{stroke:#1b873f;stroke-width:3;stroke-dasharray:7 3}"
    ".preferred>use{filter:drop-shadow(0 0 3px #1b873f)}"
)
_G_TAG = re.compile(r"<g( [^>]*)>")
_ATTR = re.compile(r' (data-key|data-pick|class)="([^"]*)"')


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def chart_svg(review: Review, *, width: int = 760, height: int = 280) -> str:
    """The chart: each seat's win probability decision by decision, one line per seat,
    the inaccuracies, mistakes and blunders marked (with a tooltip). Each marker and
    point carries ``data-decision`` (its index), for a page that jumps to it."""
    left, right, top, bottom = 46, 14, 30, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(review.decisions) - 1, 1)

    def x(i: int) -> float:
        return left + plot_w * i / n

    def y(p: float) -> float:
        return top + plot_h * (1 - p)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'font-size="12" role="img" aria-label="win probability by decision">',
        f"<title>{escape(_title(review))}</title>",
        f'<rect width="{width}" height="{height}" fill="#fffaf0"/>',
    ]
    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if p in (0.0, 1.0) else ' stroke-dasharray="3 4"'
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(p):.1f}" y2="{y(p):.1f}" '
            f'stroke="#bbb"{dash}/>'
            f'<text x="{left - 6}" y="{y(p) + 4:.1f}" text-anchor="end" fill="#555">'
            f"{_pct(p)}</text>"
        )
    step = max(1, round(n / 10 / 5) * 5) if n > 10 else 1
    for i in range(0, len(review.decisions), step):
        out.append(
            f'<text x="{x(i):.1f}" y="{height - bottom + 16}" text-anchor="middle" '
            f'fill="#555">{i}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" '
        'fill="#333">decision</text>'
    )
    for seat in range(review.players):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = review.series(seat)
        if points:
            path = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in points)
            out.append(
                f'<polyline data-seat="{seat}" points="{path}" fill="none" '
                f'stroke="{colour}" stroke-width="2"/>'
            )
        lx = left + 8 + 110 * seat
        won = " (won)" if seat in review.winners else ""
        out.append(
            f'<rect x="{lx}" y="8" width="14" height="4" fill="{colour}"/>'
            f'<text x="{lx + 18}" y="14" fill="#333">seat {seat}{won}</text>'
        )
    for d in review.decisions:
        colour = SEAT_COLOURS[d.seat % len(SEAT_COLOURS)]
        if d.grade in ("inaccuracy", "mistake", "blunder"):
            r = {"inaccuracy": 3.5, "mistake": 4.5, "blunder": 5.5}[d.grade]
            out.append(
                f'<circle data-decision="{d.index}" cx="{x(d.index):.1f}" cy="{y(d.win):.1f}" '
                f'r="{r}" fill="{GRADE_COLOURS[d.grade]}" stroke="{colour}">'
                f"<title>{escape(_describe(d))}</title></circle>"
            )
        else:
            out.append(
                f'<circle data-decision="{d.index}" cx="{x(d.index):.1f}" cy="{y(d.win):.1f}" '
                f'r="2" fill="{colour}"><title>{escape(_describe(d))}</title></circle>'
            )
    out.append("</svg>")
    return "".join(out)


def _title(review: Review) -> str:
    who = " and ".join(f"seat {w}" for w in review.winners) or "nobody"
    return (
        f"{review.variant}, {review.players} players: won by {who} ({review.reason});"
        f" reviewed by {review.bot}"
    )


def _describe(d: DecisionReview) -> str:
    text = (
        f"decision {d.index}, seat {d.seat}: {d.grade}, played {d.played} ({_pct(d.played_value)})"
    )
    if d.played_id != d.preferred_id:
        text += f", the AI prefers {d.preferred} ({_pct(d.win)})"
    return text


def _pick(action: str) -> str | None:
    """The board place (``data-pick``) an action names, if any: ``buy 2.3`` -> ``2.3``."""
    words = action.split()
    if len(words) >= 2 and words[0] in ("buy", "recruit", "reserve"):
        return " ".join(words[1:])
    if words and words[0] in ("noble", "royal", "location"):
        return action
    return None


def _places(board: Board, seat: int, action: str, *, panel: bool) -> set[str]:
    """The keys and picks of the places ``action`` touches on ``board``, drawn *before* it:
    a display slot is the card about to be taken (:func:`last_marks` names it ``replaced
    SLOT``, the card that replaces it on a board drawn after the move). ``panel``: keep
    the mover's own panel."""
    places = {key.removeprefix("replaced ") for key in last_marks(board, seat, action)}
    if not panel:
        places.discard(f"seat {seat}")
    pick = _pick(action)
    if pick is not None:
        places.add(pick)
    return places


def _mark(svg: str, places: set[str], cls: str) -> str:
    """``svg`` with ``cls`` added to every group whose key or pick is in ``places``."""

    def one(m: re.Match[str]) -> str:
        attrs = dict(_ATTR.findall(m[1]))
        keys = {unescape(attrs.get("data-key", "")), unescape(attrs.get("data-pick", ""))}
        if not keys & places:
            return m[0]
        if "class" in attrs:
            old = attrs["class"]
            return m[0].replace(f' class="{old}"', f' class="{old} {cls}"')
        return f'<g{m[1]} class="{cls}">'

    return _G_TAG.sub(one, svg)


def _state_before(review: Review, index: int) -> Any:
    state = _core.from_json(review.start)
    for a in review.actions[:index]:
        state.apply(a)
    return state


def _rest_of_turn(state: Any, seat: int, steps: list[int | str]) -> Any:
    """``state`` after those of ``steps`` that ``seat`` still plays in the same turn (a
    payment, a token returned, a noble chosen), stopping at the first it cannot play."""
    for step in steps:
        if state.is_terminal() or state.current_player != seat:
            break
        try:
            state = state.child(step)
        except SplendorError:
            break
    return state


def move_words(review: Review, index: int, preferred: bool = False) -> str:
    """What decision ``index`` did, or (``preferred``) what the AI's move would have done,
    in the log's words (:func:`splendor.render.describe.describe`, from the mover's view),
    the rest of the mover's turn included: the moves played after it, or the AI's line."""
    d = review.decisions[index]
    state = _state_before(review, index)
    rest: list[int | str]
    if preferred:
        first, rest = d.preferred, [text for _, text in d.line[1:]]
    else:
        first, rest = d.played, list(review.actions[index + 1 :])
    after = _rest_of_turn(state.child(first), d.seat, rest)
    return describe(board_of(state, d.seat), board_of(after, d.seat), d.seat, first)


def mistake_board(review: Review, index: int) -> str:
    """The board before decision ``index``, from the mover's view: the places the move
    played touches in orange (``class="last"``), those of the AI's preferred move in
    dashed green (``class="preferred"``)."""
    d = review.decisions[index]
    state = _state_before(review, index)
    board = board_of(state, d.seat)
    svg = _mark(str(svg_board(state, d.seat)), _places(board, d.seat, d.played, panel=True), "last")
    if d.played_id != d.preferred_id:
        preferred = _places(board, d.seat, d.preferred, panel=False)
        svg = _mark(svg, preferred, "preferred")
    return svg.replace("</style>", _PREFERRED_STYLE + "</style>", 1)


_PAGE_STYLE = """
body{font-family:DejaVu Sans,Verdana,sans-serif;margin:1.5em auto;max-width:1100px;
color:#222;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;font-size:.9em}
td,th{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right}
.grade{font-weight:700}
.board svg{max-width:100%;height:auto}
.note{color:#555;font-size:.9em}
"""


def review_html(review: Review) -> str:
    """A self-contained HTML page of the review (no script, no outside file)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Review: {escape(_title(review))}</title>",
        f"<style>{_PAGE_STYLE}</style></head><body>",
        f"<h1>Game review: {escape(_title(review))}</h1>",
        '<p class="note">Each decision was searched from the mover\'s own information'
        " (what that seat could see then, never the cards revealed later), so the grades"
        " judge decisions, not luck. Win probability: the value of the AI's preferred move;"
        f" {review.iterations} iterations per position, seed {review.seed}.</p>",
        "<h2>Summary</h2>",
        _summary_table(review),
        "<h2>Win probability</h2>",
        f'<div class="chart">{chart_svg(review)}</div>',
        _boards(review),
        "<h2>Every decision</h2>",
        _move_list(review),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _summary_table(review: Review) -> str:
    from splendor.review import GRADES

    head = "".join(f"<th>{g}</th>" for g in GRADES)
    rows = []
    for s in review.seats:
        won = " (won)" if s.seat in review.winners else ""
        counts = "".join(f'<td class="n">{s.grades[g]}</td>' for g in GRADES)
        worst = "; ".join(
            f'<a href="#d{i}">{i}: {escape(review.decisions[i].played)} &rarr; '
            f"{escape(review.decisions[i].preferred)}</a>"
            for i in s.worst
        )
        rows.append(
            f'<tr><td>seat {s.seat}{won}</td><td class="n">{s.accuracy:.0f}</td>'
            f'<td class="n">{s.average_loss:.3f}</td>{counts}<td>{worst}</td></tr>'
        )
    return (
        f"<table><tr><th>seat</th><th>accuracy</th><th>average loss</th>{head}"
        f"<th>biggest mistakes (played &rarr; better)</th></tr>{''.join(rows)}</table>"
    )


def _boards(review: Review) -> str:
    bad = [d for d in review.decisions if d.grade in ("mistake", "blunder")]
    if not bad:
        return "<h2>Mistakes</h2><p>No mistake and no blunder.</p>"
    shown = sorted(bad, key=lambda d: (-d.loss, d.index))[:MAX_BOARDS]
    shown.sort(key=lambda d: d.index)
    out = [
        "<h2>Mistakes</h2>",
        '<p class="note">The board before each mistake or blunder, as the mover saw it:'
        " the move played in orange, the AI's preferred move in dashed green.",
    ]
    if len(bad) > len(shown):
        out.append(f" The {len(shown)} biggest of {len(bad)} are drawn.")
    out.append("</p>")
    for d in shown:
        line = ", ".join(f"seat {seat}: {escape(text)}" for seat, text in d.line[:LINE_SHOWN])
        out.append(
            f'<div class="board" id="board{d.index}"><h3>Decision {d.index} (turn {d.turn}),'
            f" seat {d.seat}: {d.grade}</h3><p>Played <b>{escape(d.played)}</b>"
            f" ({escape(move_words(review, d.index))}; {_pct(d.played_value)});"
            f" the AI prefers <b>{escape(d.preferred)}</b>"
            f" ({escape(move_words(review, d.index, preferred=True))}; {_pct(d.win)}),"
            f" expecting {line}.</p>{mistake_board(review, d.index)}</div>"
        )
    return "".join(out)


def _move_list(review: Review) -> str:
    rows = []
    for d in review.decisions:
        colour = GRADE_COLOURS[d.grade]
        better = "" if d.played_id == d.preferred_id else escape(d.preferred)
        estimate = " *" if d.focused else ""
        rows.append(
            f'<tr id="d{d.index}"><td class="n">{d.index}</td><td class="n">{d.turn}</td>'
            f"<td>{d.seat}</td><td>{escape(d.played)}</td>"
            f'<td class="grade" style="color:{colour}">{d.grade}</td>'
            f'<td class="n">{_pct(d.win)}</td><td class="n">{_pct(d.played_value)}{estimate}</td>'
            f'<td class="n">{d.loss:.3f}</td><td>{better}</td></tr>'
        )
    return (
        "<table><tr><th>#</th><th>turn</th><th>seat</th><th>played</th><th>grade</th>"
        "<th>win before</th><th>played</th><th>loss</th><th>AI's move</th></tr>"
        + "".join(rows)
        + '</table><p class="note">* the played move was hardly searched: its value is a'
        " search of that move alone.</p>"
    )
