"""The SVG board: a :class:`~splendor.render.model.Board` as one self-contained SVG picture.

The same board, words and legend as the text board (:mod:`splendor.render.text`),
laid out as a table: the header (whose turn, what to decide), the shared supply
(bank, or Duel's token board, bag and privileges), the tiles (nobles, royals,
locations), the card display (level 3 on top, its deck on the left), one panel
per seat (points and goals, tokens, bonuses, reserve; a card another seat reserved
blind is drawn face down) and the legend. Colour is never the only cue: every
token, pip and bonus carries its letter, and the palette keeps dark letters on
light fills and light letters on dark ones.

Every place a player can click carries ``data-pick`` (a card ``2.3``, a deck
``deck 1``, the viewer's reserve ``reserved 1``, a bank token ``token w``, a Duel
cell ``cell a1``, a tile ``noble 4``) and a ``<title>`` tooltip; the web page uses
them to turn clicks into actions. Pure functions, modelled on ``chess.svg``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape, unescape

from splendor.render.last import last_marks
from splendor.render.model import Board, Card, Count, Seat, Slot, Tile
from splendor.render.text import bonus_mark, seat_name, stat_text

WIDTH = 1120
"""Width of every board in SVG user units (the height follows the content)."""
CARD_W, CARD_H = 112, 132
TOKEN_R = 17

# Fills per variant and letter; capital letters (bonuses) use the same fill.
PALETTE: dict[str, dict[str, str]] = {
    "base": {
        "w": "#f7f7f2",
        "u": "#1f5fbf",
        "g": "#1f8a4c",
        "r": "#c8322f",
        "k": "#2b2b2b",
        "y": "#e8b923",
    },
    "duel": {
        "w": "#f7f7f2",
        "u": "#1f5fbf",
        "g": "#1f8a4c",
        "r": "#c8322f",
        "k": "#2b2b2b",
        "p": "#eadcf2",
        "y": "#e8b923",
    },
    "marvel": {
        "p": "#6f3596",
        "b": "#1f5fbf",
        "r": "#c8322f",
        "o": "#e8771e",
        "y": "#f2d027",
        "s": "#8a8f96",
        "t": "#1f8a4c",
    },
}
LIGHT_FILLS = {"#f7f7f2", "#e8b923", "#eadcf2", "#f2d027", "#8a8f96", "#e8771e"}
NO_COLOUR = "#d9d4c7"


def _fill(variant: str, letter: str) -> str:
    return PALETTE[variant].get(letter.lower(), NO_COLOUR)


def _ink(fill: str) -> str:
    return "#111" if fill in LIGHT_FILLS or fill == NO_COLOUR else "#fff"


def _text(
    x: float, y: float, s: str, *, size: int = 13, anchor: str = "start", **attrs: str
) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(s)}</text>"
    )


def _squeeze(text: str, width: float, size: int) -> dict[str, str]:
    """Attributes that fit a long line into ``width`` (by narrowing it) and leave short ones be."""
    if len(text) * size * 0.58 <= width:
        return {}
    return {"textLength": f"{width:g}", "lengthAdjust": "spacingAndGlyphs"}


def _pip(variant: str, x: float, y: float, r: float, letter: str, label: str = "") -> str:
    """A token or cost pip: a circle in the kind's colour with its letter (and an amount)."""
    fill = _fill(variant, letter)
    body = f"{label}{letter}" if label else letter
    return f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="#555"/>' + _text(
        x,
        y + r * 0.38,
        body,
        size=int(r * 1.05),
        anchor="middle",
        fill=_ink(fill),
        font_weight="bold",
    )


def _square(variant: str, x: float, y: float, s: float, letter: str, label: str) -> str:
    """A bonus: a square (not a circle, so shape tells it from a token) with letter and count."""
    fill = _fill(variant, letter)
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{s:g}" height="{s:g}" rx="3" fill="{fill}" '
        f'stroke="#555"/>'
        + _text(
            x + s / 2,
            y + s * 0.68,
            f"{label}{letter}",
            size=int(s * 0.5),
            anchor="middle",
            fill=_ink(fill),
            font_weight="bold",
        )
    )


def _group(
    pick: str | None, title: str, body: str, *, legal_class: str = "", key: str | None = None
) -> str:
    """A group with a tooltip; ``pick``: what a click names; ``key``: its name for ``last``."""
    attrs = f' data-key="{escape(key)}"' if key else ""
    attrs += f' data-pick="{escape(pick)}" class="pick{legal_class}"' if pick else ""
    return f"<g{attrs}><title>{escape(title)}</title>{body}</g>"


def _keyed(key: str, body: str) -> str:
    return f'<g data-key="{escape(key)}">{body}</g>'


def _card_title(card: Card, variant: str) -> str:
    parts = [card.name] if card.name else []
    parts.append(f"level {card.level}, bonus {bonus_mark(card)}, {card.points} points")
    if card.crowns:
        parts.append(f"{card.crowns} crowns")
    if card.abilities:
        parts.append("ability " + "+".join(card.abilities))
    if card.avengers:
        parts.append(f"{card.avengers} Avengers icons")
    if card.time_stone:
        parts.append("Time stone")
    cost = " ".join(f"{c.n}{c.letter}" for c in card.cost) or "free"
    parts.append(f"cost {cost}")
    return ", ".join(parts)


def card_svg(
    card: Card, x: float, y: float, *, variant: str, w: float = CARD_W, h: float = CARD_H
) -> str:
    """One card face: bonus band with letter, points, crowns / abilities / name, cost pips."""
    band = _fill(variant, card.colour) if card.colour else NO_COLOUR
    out = [
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="7" fill="#fffdf6" '
        f'stroke="#6b5d45" stroke-width="1.5"/>',
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="30" rx="7" fill="{band}" '
        f'stroke="#6b5d45"/>',
        _text(
            x + 8,
            y + 22,
            str(card.points) if card.points else "",
            size=20,
            fill=_ink(band),
            font_weight="bold",
        ),
        _text(
            x + w - 8,
            y + 21,
            bonus_mark(card),
            size=16,
            anchor="end",
            fill=_ink(band),
            font_weight="bold",
        ),
    ]
    line_y = y + 46
    if card.name:
        out.append(_text(x + w / 2, line_y, card.name[:16], size=11, anchor="middle"))
        line_y += 14
    marks = []
    if card.crowns:
        marks.append(f"{card.crowns} crown" + ("s" if card.crowns > 1 else ""))
    marks += list(card.abilities)
    if card.avengers:
        marks.append(f"A{card.avengers}")
    if card.time_stone:
        marks.append("T stone")
    if marks:
        out.append(
            _text(x + w / 2, line_y, " ".join(marks), size=11, anchor="middle", fill="#5a3d00")
        )
    step = (w - 6) / 3
    r = min(15.0, step / 2 - 1)
    for i, c in enumerate(card.cost):
        col, row = i % 3, i // 3
        cx = x + 3 + step / 2 + col * step
        out.append(_pip(variant, cx, y + h - r - 4 - row * (2 * r + 4), r, c.letter, str(c.n)))
    return "".join(out)


def face_down_svg(
    level: int, x: float, y: float, note: str, *, w: float = CARD_W, h: float = CARD_H
) -> str:
    """A card this viewer cannot see: only its level, hatched."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="7" fill="url(#back)" '
        f'stroke="#6b5d45" stroke-width="1.5"/>'
        + _text(
            x + w / 2,
            y + h / 2 - 4,
            f"level {level}",
            size=14,
            anchor="middle",
            font_weight="bold",
            fill="#fff",
        )
        + _text(x + w / 2, y + h / 2 + 14, note, size=11, anchor="middle", fill="#fff")
    )


def _slot(
    slot: Slot,
    x: float,
    y: float,
    *,
    variant: str,
    pick: str | None,
    w: float = CARD_W,
    h: float = CARD_H,
    key: str | None = None,
) -> str:
    label = _text(
        x + 2,
        y - 4,
        slot.label + (" (blind)" if slot.blind and slot.card else ""),
        size=11,
        fill="#444",
    )
    if slot.card is not None:
        return label + _group(
            pick,
            f"{slot.label}: {_card_title(slot.card, variant)}",
            card_svg(slot.card, x, y, variant=variant, w=w, h=h),
            key=key,
        )
    if slot.hidden:
        return label + _group(
            None,
            f"{slot.label}: a level {slot.level} card reserved blind",
            face_down_svg(slot.level, x, y, "face down", w=w, h=h),
            key=key,
        )
    empty = (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="7" fill="none" '
        f'stroke="#bbb" stroke-dasharray="5 4"/>'
    )
    return label + (_keyed(key, empty) if key else empty)


def _tile(tile: Tile, x: float, y: float, variant: str) -> str:
    w, h = 150, 74
    body = [
        f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="6" fill="#f3ead2" '
        f'stroke="#8a6d3b"/>',
        _text(x + 8, y + 18, f"{tile.label}", size=12, font_weight="bold"),
        _text(x + w - 8, y + 18, f"{tile.points} pt", size=12, anchor="end"),
    ]
    if tile.name:
        body.append(_text(x + 8, y + 33, tile.name[:22], size=11))
    if tile.abilities:
        body.append(_text(x + 8, y + 50, "+".join(tile.abilities), size=12))
    for i, c in enumerate(tile.requires):
        body.append(_square(variant, x + 8 + i * 34, y + h - 34, 28, c.letter, str(c.n)))
    requires = " ".join(f"{c.n}{c.letter}" for c in tile.requires)
    title = f"{tile.label} {tile.name}".strip() + f": {tile.points} points"
    if requires:
        title += f", needs bonuses {requires}"
    if tile.abilities:
        title += ", " + "+".join(tile.abilities)
    return _group(tile.label, title, "".join(body))


def _counts_line(
    variant: str, counts: Iterable[Count], x: float, y: float, *, kind: str, key: str
) -> str:
    out = []
    for i, c in enumerate(counts):
        cx = x + i * 42
        if kind == "token":
            pip = _pip(variant, cx + 17, y + 17, 17, c.letter)
            count = _text(cx + 17, y + 48, str(c.n), size=13, anchor="middle")
            out.append(_keyed(f"{key} {c.letter}", pip + count))
        else:
            out.append(_square(variant, cx + 3, y, 30, c.letter, str(c.n)))
    return "".join(out)


def _seat(
    board: Board, seat: Seat, x: float, y: float, names: Mapping[int, str]
) -> tuple[str, float]:
    w = WIDTH - x - 10
    v = board.variant
    name = seat_name(seat.index, names, board.viewer)
    header = (
        f"{'> ' if seat.to_play else ''}{name}   {seat.cards} cards   tokens {seat.tokens_total}/10"
    )
    stats = "   ".join(stat_text(s) for s in seat.stats if s.value or not s.flag)
    out = [
        _text(x + 10, y + 20, header, size=15, font_weight="bold"),
        _text(x + 10, y + 38, stats, size=12, **_squeeze(stats, w - 20, 12)),
    ]
    out.append(_text(x + 10, y + 62, "tokens", size=11, fill="#555"))
    tokens = []
    for i, c in enumerate(seat.tokens):
        cx = x + 90 + i * 40
        tokens.append(
            _keyed(
                f"seat {seat.index} token {c.letter}", _pip(v, cx, y + 58, 15, c.letter, str(c.n))
            )
        )
    out.append(
        _group(
            None,
            "tokens held: " + " ".join(f"{c.letter}{c.n}" for c in seat.tokens),
            "".join(tokens),
        )
    )
    out.append(_text(x + 10, y + 96, "bonuses", size=11, fill="#555"))
    bonuses = [
        _keyed(
            f"seat {seat.index} bonus {c.letter}",
            _square(v, x + 90 + i * 40 - 14, y + 80, 28, c.letter, str(c.n)),
        )
        for i, c in enumerate(seat.bonuses)
    ]
    out.append(
        _group(
            None, "bonuses: " + " ".join(f"{c.letter}{c.n}" for c in seat.bonuses), "".join(bonuses)
        )
    )
    line = y + 118
    if seat.tiles:
        owned = "has: " + ", ".join(
            f"{t.label}{' ' + t.name if t.name else ''} ({t.points} pt)" for t in seat.tiles
        )
        out.append(_text(x + 10, line + 12, owned, size=12, **_squeeze(owned, w - 20, 12)))
        line += 20
    if seat.reserved:
        out.append(_text(x + 10, line + 12, "reserved", size=11, fill="#555"))
        for i, slot in enumerate(seat.reserved):
            pick = f"reserved {i + 1}" if seat.is_viewer else None
            key = f"seat {seat.index} reserved {i + 1}"
            sx = x + 70 + i * 100
            out.append(_slot(slot, sx, line + 18, variant=v, pick=pick, w=92, h=108, key=key))
        line += 132
    h = line - y + 8
    border = "#b8860b" if seat.to_play else "#bbb"
    frame = (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="#fbf8ef" '
        f'stroke="{border}" stroke-width="{3 if seat.to_play else 1}"/>'
    )
    return frame + "".join(out), h


def _supply(board: Board, x: float, y: float) -> tuple[str, float]:
    v = board.variant
    out = []
    if board.bank:
        out.append(_text(x, y + 14, "bank", size=13, font_weight="bold"))
        for i, c in enumerate(board.bank):
            kind = next(k for k in board.kinds if k.letter == c.letter)
            cx = x + 70 + i * 52
            body = _pip(v, cx, y + 22, TOKEN_R, c.letter) + _text(
                cx, y + 56, str(c.n), size=14, anchor="middle"
            )
            out.append(
                _group(f"token {c.letter}", f"{kind.name} ({c.letter}): {c.n} in the bank", body)
            )
        h = 66.0
        for i, s in enumerate(board.supply):
            out.append(_text(x, y + h + 16 + i * 16, stat_text(s), size=12))
        return "".join(out), h + 16 * len(board.supply) + 6
    # Duel: the 5x5 token board, the bag and the privileges.
    cell = 40
    out.append(_text(x, y + 14, "token board", size=13, font_weight="bold"))
    for col in range(5):
        out.append(
            _text(x + 30 + col * cell + cell / 2, y + 32, "abcde"[col], size=12, anchor="middle")
        )
    cells = []
    for r, row in enumerate(board.grid):
        cells.append(
            _text(x + 18, y + 40 + r * cell + cell / 2 + 4, str(r + 1), size=12, anchor="middle")
        )
        for col, letter in enumerate(row):
            name = f"{'abcde'[col]}{r + 1}"
            cx, cy = x + 30 + col * cell, y + 40 + r * cell
            body = (
                f'<rect x="{cx}" y="{cy}" width="{cell}" height="{cell}" fill="#efe6cf" '
                f'stroke="#b9a77a"/>'
            )
            if letter:
                body += _pip(v, cx + cell / 2, cy + cell / 2, 15, letter)
                title = f"cell {name}: {next(k.name for k in board.kinds if k.letter == letter)}"
            else:
                title = f"cell {name}: empty"
            cells.append(_group(f"cell {name}", title, body))
    out.append(_keyed("grid", "".join(cells)))
    bx = x + 250
    out.append(_text(bx, y + 54, "bag", size=13, font_weight="bold"))
    out.append(_counts_line(v, board.bag, bx, y + 62, kind="token", key="bag"))
    for i, s in enumerate(board.supply):
        out.append(_text(bx, y + 140 + i * 16, stat_text(s), size=12))
    return "".join(out), 40 + 5 * cell + 10


def board_svg(
    board: Board,
    *,
    names: Mapping[int, str] | None = None,
    legal: Iterable[str] = (),
    last: tuple[int, str] | None = None,
) -> str:
    """The SVG picture of ``board`` (a ``render.Board``), one string.

    Args:
        board: The board of one viewer.
        names: Optional names of seats (``{1: "AI"}``); the viewer's is "you".
        legal: Picks (``data-pick`` values) to highlight as playable now.
        last: ``(seat, action text)`` of the last decision: the places it touched
            (:func:`~splendor.render.last.last_marks`) get ``class="last"``.
    """
    marks = frozenset() if last is None else last_marks(board, last[0], last[1])
    names = dict(names or {})
    legal_set = set(legal)
    v = board.variant
    out: list[str] = []
    turn = f"round {board.round}, turn {board.turn}" if board.round else f"turn {board.turn}"
    if board.result is not None:
        winners = ", ".join(seat_name(s, names, board.viewer) for s in board.result.winners)
        status = f"game over ({board.result.reason}): " + (
            f"won by {winners}" if winners else "no winner"
        )
    elif board.to_play is not None:
        status = f"{seat_name(board.to_play, names, board.viewer)} to play: {board.task}"
    else:
        status = "game over"
    out.append(
        _text(
            14,
            28,
            f"{board.title}  |  {board.num_players} seats  |  {turn}",
            size=20,
            font_weight="bold",
        )
    )
    out.append(_text(14, 50, status, size=14))

    left_x, y = 14.0, 70.0
    supply, h = _supply(board, left_x, y)
    out.append(supply)
    y += h + 8
    if board.tiles:
        out.append(_text(left_x, y + 12, board.tiles_title[:110], size=12, fill="#444"))
        for i, tile in enumerate(board.tiles):
            tx = left_x + (i % 4) * 158
            ty = y + 20 + (i // 4) * 82
            out.append(
                _tile(tile, tx, ty, v).replace(
                    'class="pick"',
                    'class="pick legal"' if tile.label in legal_set else 'class="pick"',
                )
            )
        y += 20 + ((len(board.tiles) + 3) // 4) * 82
    y += 10
    for row in board.rows:
        deck_pick = f"deck {row.level}"
        deck_body = (
            face_down_svg(row.level, left_x, y + 14, f"{row.deck} in the deck", w=84)
            if row.deck
            else f'<rect x="{left_x}" y="{y + 14}" width="84" height="{CARD_H}" rx="7" fill="none" '
            f'stroke="#bbb" stroke-dasharray="5 4"/>'
        )
        out.append(
            _group(
                deck_pick,
                f"level {row.level} deck: {row.deck} cards",
                deck_body,
                legal_class=" legal" if deck_pick in legal_set else "",
            )
        )
        for i, slot in enumerate(row.slots):
            sx = left_x + 96 + i * (CARD_W + 8)
            g = _slot(slot, sx, y + 14, variant=v, pick=slot.label if slot.card else None)
            if slot.label in legal_set:
                g = g.replace('class="pick"', 'class="pick legal"')
            out.append(g)
        y += CARD_H + 22
    left_bottom = y

    seat_x, sy = 14.0 + 96 + 5 * (CARD_W + 8) + 14, 70.0
    if board.pending is not None:
        out.append(_text(seat_x, sy + 12, "being bought / resolved", size=12, fill="#444"))
        out.append(_slot(board.pending, seat_x, sy + 20, variant=v, pick=None))
        sy += CARD_H + 32
    for seat in board.seats:
        g, h = _seat(board, seat, seat_x, sy, names)
        g = f'<g class="seat" data-key="seat {seat.index}">{g}</g>'
        if seat.is_viewer:
            for i in range(len(seat.reserved)):
                pick = f"reserved {i + 1}"
                if pick in legal_set:
                    g = g.replace(
                        f'data-pick="{pick}" class="pick"', f'data-pick="{pick}" class="pick legal"'
                    )
        out.append(g)
        sy += h + 10
    y = max(left_bottom, sy) + 6
    out.append(_text(14, y + 14, board.goal, size=12, fill="#333"))
    for i, line in enumerate(board.legend):
        out.append(_text(14, y + 32 + i * 16, line, size=12, fill="#333"))
    height = y + 32 + len(board.legend) * 16 + 6
    if board.viewer is not None:
        viewer = f"seat {board.viewer}"
    else:
        viewer = "a spectator (public)" if board.public else "a spectator"
    defs = (
        '<defs><pattern id="back" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="10" height="10" fill="#5b4a8a"/>'
        '<rect width="4" height="10" fill="#4a3b75"/></pattern>'
        "<style>.pick{cursor:pointer}.legal&gt;rect:first-of-type{stroke:#e0a800;stroke-width:3}</style>"
        "</defs>"
    ).replace("&gt;", ">")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:g}" '
        f'width="{WIDTH}" height="{height:g}" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'role="img" aria-label="{escape(board.title)} board seen by {viewer}">'
        f"<title>{escape(board.title)}: {escape(status)}</title>{defs}"
        f'<rect width="{WIDTH}" height="{height:g}" fill="#fffaf0"/>'
        + _mark("".join(out), marks)
        + "</svg>"
    )


_G_TAG = re.compile(r"<g( [^>]*)>")
_ATTR = re.compile(r' (data-key|data-pick|class)="([^"]*)"')


def _mark(svg: str, marks: frozenset[str]) -> str:
    """``svg`` with ``last`` added to the class of every group whose key or pick is marked."""
    if not marks:
        return svg

    def one(m: re.Match[str]) -> str:
        attrs = dict(_ATTR.findall(m[1]))
        key = attrs.get("data-key") or attrs.get("data-pick")
        if key is None or unescape(key) not in marks:
            return m[0]
        if "class" in attrs:
            return m[0].replace(f' class="{attrs["class"]}"', f' class="{attrs["class"]} last"')
        return f'<g{m[1]} class="last">'

    return _G_TAG.sub(one, svg)
