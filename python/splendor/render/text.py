"""The text board: a :class:`~splendor.render.model.Board` as lines of at most 100 columns.

One layout for every variant: a header (whose turn, what to decide), the legend,
the shared supply (bank or token board and bag), the tiles, the card display
(level 3 first, two cards a line), then one block per seat. Colour is never the
only cue: every token and bonus is a letter, and a caller may add ANSI colour
on top (``colour=True``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping

from splendor.render.model import Board, Card, CardRow, Count, Seat, Slot, Stat, Tile

WIDTH = 100
"""No line of a board is wider."""
CELL = 48
"""Width of one card cell: two cells and their margins fill :data:`WIDTH`."""
LABEL = 4
NAME = 15


def counted(n: int, word: str) -> str:
    """``1 card``, ``2 cards``, ``0 cards``: a number and its noun, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def count_text(counts: Iterable[Count]) -> str:
    """``3w 2u``: amount then letter, as a cost or a requirement reads."""
    return " ".join(f"{c.n}{c.letter}" for c in counts)


def held_text(counts: Iterable[Count]) -> str:
    """``w3 u0 g2``: letter then amount, as holdings read (zeros included)."""
    return " ".join(f"{c.letter}{c.n}" for c in counts)


def bonus_mark(card: Card) -> str:
    """The bonus a card gives: ``W`` (``WW`` for two), ``*`` a joker, ``-`` none."""
    if card.joker:
        return "*"
    if not card.colour or card.bonus == 0:
        return "-"
    return card.colour.upper() * card.bonus


def card_face(card: Card, *, variant: str) -> str:
    """One card on one line: name (Marvel), bonus, points, marks, ability, cost."""
    parts = []
    if variant == "marvel":
        parts.append(card.name[:NAME].ljust(NAME))
    parts.append(bonus_mark(card).ljust(2 if variant == "duel" else 1))
    parts.append(f"{card.points}pt")
    if variant == "duel":
        parts.append(f"{card.crowns}cr" if card.crowns else "   ")
        parts.append("+".join(card.abilities).ljust(9))
    if variant == "marvel":
        marks = (f"A{card.avengers}" if card.avengers else "  ") + (" T" if card.time_stone else "")
        parts.append(marks.ljust(4))
    parts.append("cost " + (count_text(card.cost) or "free"))
    return " ".join(parts)


def slot_text(slot: Slot, *, variant: str) -> str:
    """A labelled slot: its card, ``(empty)``, or a face-down card's level."""
    label = slot.label.ljust(LABEL)
    if slot.card is None:
        if slot.hidden:
            return f"{label}face down: a level {slot.level} card reserved blind"
        return f"{label}(empty)"
    blind = " [blind]" if slot.blind else ""
    return f"{label}{card_face(slot.card, variant=variant)}{blind}"


def tile_text(tile: Tile) -> str:
    """``noble 4: 3pt, needs 4W 4U`` / ``royal 1: 2pt, again``."""
    name = f" {tile.name}" if tile.name else ""
    parts = [f"{tile.points}pt"]
    if tile.requires:
        parts.append("needs " + count_text(tile.requires))
    if tile.abilities:
        parts.append("+".join(tile.abilities))
    return f"{tile.label}{name}: " + ", ".join(parts)


def stat_text(stat: Stat) -> str:
    """``crowns 3/10`` (a target), ``Avengers icons 4``, or a set flag's label. A figure
    past its target reads ``points 16 (target 15)``: the real score, never ``16/15``."""
    if stat.flag:
        return stat.label
    if stat.target is None:
        return f"{stat.label} {stat.value}"
    if stat.value > stat.target:
        return f"{stat.label} {stat.value} (target {stat.target})"
    return f"{stat.label} {stat.value}/{stat.target}"


def flow(head: str, items: list[str], *, sep: str = "   ", indent: int = 4) -> list[str]:
    """``head`` then ``items`` filling lines of :data:`WIDTH`, continued under an indent."""
    lines: list[str] = []
    line = head
    for item in items:
        piece = item if line.endswith(" ") or not line else sep + item
        if len(line) + len(piece) > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = " " * indent + item
        else:
            line += piece
    lines.append(line.rstrip())
    return lines


def _wrap(sentence: str, head: str) -> list[str]:
    return textwrap.wrap(
        sentence,
        WIDTH,
        initial_indent=head,
        subsequent_indent=" " * (len(head) + 2),
        break_long_words=False,
        break_on_hyphens=False,
    )


def seat_name(seat: int, names: Mapping[int, str], viewer: int | None) -> str:
    """``seat 1`` or ``seat 0 (you)``."""
    who = names.get(seat, "you" if seat == viewer else "")
    return f"seat {seat} ({who})" if who else f"seat {seat}"


def _header(board: Board, names: Mapping[int, str]) -> list[str]:
    when = f"round {board.round}, turn {board.turn}" if board.round else f"turn {board.turn}"
    head = f"{board.title} | {board.num_players} seats | {when}"
    if board.result is not None:
        return [f"{head} | game over", "result: " + result_text(board, names)]
    if board.viewer is not None:
        view = ""
    elif board.public:
        view = " | spectator view: public information"
    else:
        view = " | spectator view: every card shown"
    who = seat_name(board.to_play, names, board.viewer) if board.to_play is not None else ""
    return [f"{head} | {who} to play{view}", *_wrap(board.task, "  to do: ")]


def result_text(board: Board, names: Mapping[int, str]) -> str:
    """Who won and why, in words."""
    assert board.result is not None
    winners = [seat_name(w, names, board.viewer) for w in board.result.winners]
    if not winners:
        return f"nobody wins ({board.result.reason}: the turn cap was reached)"
    if len(winners) == 1:
        return f"{winners[0]} wins ({board.result.reason})"
    return f"shared win: {', '.join(winners)} ({board.result.reason})"


def _supply(board: Board) -> list[str]:
    lines: list[str] = []
    if board.bank:
        lines.append(f"bank     {held_text(board.bank)}")
    if board.grid:
        side = [
            f"bag (refills the board at a replenish): {held_text(board.bag)}"
            f" ({sum(c.n for c in board.bag)})",
            *(stat_text(s) for s in board.supply),
        ]
        lines.append("token board    a b c d e")
        for r, row in enumerate(board.grid):
            cells = " ".join(c or "." for c in row)
            note = side[r] if r < len(side) else ""
            lines.append(f"            {r + 1}  {cells}    {note}".rstrip())
    else:
        lines += [s.label for s in board.supply]
    return lines


def _rows(rows: Iterable[CardRow], variant: str) -> list[str]:
    lines: list[str] = []
    for row in rows:
        lines.append(f"level {row.level} ({row.deck} in the deck)")
        cells = [slot_text(s, variant=variant) for s in row.slots]
        for i in range(0, len(cells), 2):
            pair = cells[i : i + 2]
            lines.append(("  " + "  ".join(c.ljust(CELL) for c in pair)).rstrip())
    return lines


def _seat(board: Board, seat: Seat, names: Mapping[int, str]) -> list[str]:
    mark = ">" if seat.to_play else " "
    name = seat_name(seat.index, names, board.viewer)
    points = next((stat_text(s) for s in seat.stats if s.key == "points"), "")
    first = (
        f"{mark} {name}  {points}  cards {seat.cards}  "
        f"tokens {held_text(seat.tokens)} ({seat.tokens_total}/10)"
    )
    extra = [stat_text(s) for s in seat.stats if s.key != "points" and (s.value or not s.flag)]
    lines = [first, *flow(f"    bonuses {held_text(seat.bonuses)}", extra, indent=4)]
    if seat.tiles:
        lines += flow("    owns: ", [tile_text(t) for t in seat.tiles], sep="; ")
    lines += ["    " + slot_text(s, variant=board.variant) for s in seat.reserved]
    return lines


def render_text(
    board: Board, *, names: Mapping[int, str] | None = None, legend: bool = True
) -> str:
    """The board as text, every line at most :data:`WIDTH` columns.

    Args:
        board: What to draw (its viewer decides what is face down).
        names: Optional words after a seat number (``{1: "bot"}``); the
            viewer's seat reads ``you`` unless named here.
        legend: Include the goal and the key to the letters (a caller that
            redraws the board may show them once).
    """
    names = dict(names or {})
    out = _header(board, names)
    if legend:
        out += _wrap(board.goal, "goal: ")
        for i, sentence in enumerate(board.legend):
            out += _wrap(sentence, "key:  " if i == 0 else "      ")
    out.append("")
    out += _supply(board)
    if board.tiles:
        out += _wrap(f"{board.tiles_title} ({board.tiles_note}):", "")
        out += flow("  ", [tile_text(t) for t in board.tiles], indent=2)
    else:
        out.append(f"{board.tiles_title}: none left")
    out += _rows(board.rows, board.variant)
    if board.pending is not None and board.result is None:
        doing = "paying for" if board.phase == "pay" else "just bought"
        out.append(f"{doing}: {slot_text(board.pending, variant=board.variant)}")
    out.append("")
    for seat in board.seats:
        out += _seat(board, seat, names)
    return "\n".join(out) + "\n"
