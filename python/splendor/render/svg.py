"""The SVG board: a :class:`~splendor.render.model.Board` as one self-contained SVG picture.

The same board, words and legend as the text board (:mod:`splendor.render.text`),
laid out as a table: the header (whose turn, what to decide), the shared supply
(bank, or Duel's token board, bag and privileges), the tiles (nobles, royals,
locations), the card display (level 3 on top, its deck on the left), one panel
per seat (points and goals, tokens, bonuses, tiles owned, reserve; a card another
seat reserved blind is drawn face down), a key to the gems and the legend.

It looks like the game: every gem is drawn as a gem, each kind its own shape as well as
its colour and its letter (:data:`SHAPES`; white a diamond, blue a hexagon, green an
emerald cut, red a round stone, black an octagon, gold a star, Duel's pearl a drop),
so colour is never the only cue; letters are dark on light fills and white on dark
ones. A token is a gem with its count and letter; a bonus a small card of its colour
with its gem, count and capital letter; a card a rounded card tinted by its bonus,
points large, its bonus gem in the corner and its cost as small gems; a face-down
card shows the back of its level; nobles, royals and locations are tiles.

Every place a player can click carries ``data-pick`` (a card ``2.3``, a deck
``deck 1``, the viewer's reserve ``reserved 1``, a bank token ``token w``, a Duel
cell ``cell a1``, a tile ``noble 4``) and a ``<title>`` tooltip; the web page uses
them to turn clicks into actions. A seat's parts carry ``data-key`` (``seat 1``,
``seat 1 token w``, ``seat 1 bonus W``, ``seat 1 reserved 2``, ``seat 1 owns noble
4``; the Duel bag ``bag w`` and board ``grid``), and the places the last decision
touched (``last=``, :func:`~splendor.render.last.last_marks`) get ``class="last"``, and
the picks playable now (``legal=``) ``class="legal"``.
The gems are ``<symbol>``\\s drawn once and placed with ``<use>``, and the styles are
classes, which keeps the picture small. Pure functions, modelled on ``chess.svg``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape, unescape

from splendor.render.last import last_marks
from splendor.render.model import Board, Card, Seat, Slot, Tile
from splendor.render.text import bonus_mark, counted, seat_name, stat_text

WIDTH = 1120
"""Width of every board in SVG user units (the height follows the content)."""
CARD_W, CARD_H = 112, 132
TOKEN_R = 18

# Fills per variant and letter; capital letters (bonuses) use the same fill.
PALETTE: dict[str, dict[str, str]] = {
    "base": {
        "w": "#f7f7f2",
        "u": "#1f5fbf",
        "g": "#1a7a43",
        "r": "#c8322f",
        "k": "#2b2b2b",
        "y": "#e8b923",
    },
    "duel": {
        "w": "#f7f7f2",
        "u": "#1f5fbf",
        "g": "#1a7a43",
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
        "t": "#1a7a43",
    },
}
LIGHT_FILLS = {"#f7f7f2", "#e8b923", "#eadcf2", "#f2d027", "#8a8f96", "#e8771e"}
NO_COLOUR = "#d9d4c7"

SHAPES: dict[str, dict[str, str]] = {
    "base": {
        "w": "diamond",
        "u": "hexagon",
        "g": "emerald",
        "r": "round",
        "k": "octagon",
        "y": "star",
    },
    "duel": {
        "w": "diamond",
        "u": "hexagon",
        "g": "emerald",
        "r": "round",
        "k": "octagon",
        "p": "drop",
        "y": "star",
    },
    "marvel": {
        "p": "octagon",
        "b": "hexagon",
        "r": "round",
        "o": "diamond",
        "y": "triangle",
        "s": "star",
        "t": "emerald",
    },
}
"""The shape of each kind's gem, per variant: no two kinds of a variant share one. The
shapes with little room inside (diamond, star, triangle, drop) go to light fills, whose
dark letters stay readable where they run over the edge."""

# Outline and sheen in a unit square around (0, 0), and where the letter sits (its
# baseline below the centre, in radii) and how large (in radii): a shape whose middle
# is low (a triangle, a drop) takes its letter lower and smaller.
_OUTLINES: dict[str, tuple[str, str, float, float]] = {
    "diamond": ("M0-1 .82 0 0 1-.82 0Z", "M0-1 .82 0H-.82Z", 0.33, 0.85),
    "hexagon": ("M0-1 .87-.5V.5L0 1-.87.5V-.5Z", "M0-1 .87-.5 0-.2-.87-.5Z", 0.33, 0.9),
    "emerald": (
        "M-.5-.96H.5L.76-.7V.7L.5.96H-.5L-.76.7V-.7Z",
        "M-.5-.96H.5L.76-.7H-.76Z",
        0.33,
        0.85,
    ),
    "round": (
        "M0-.96A.96.96 0 1 1 0 .96 .96.96 0 1 1 0-.96Z",
        "M-.6-.55A.8.8 0 0 1 .6-.55 1.2 1.2 0 0 0-.6-.55Z",
        0.33,
        0.9,
    ),
    "octagon": (
        "M-.38-.92H.38L.92-.38V.38L.38.92H-.38L-.92.38V-.38Z",
        "M-.38-.92H.38L.92-.38H-.92Z",
        0.33,
        0.9,
    ),
    "star": (
        "M0-.96.3-.31.96-.22.49.24.6.9 0 .6-.6.9-.49.24-.96-.22-.3-.31Z",
        "M0-.96.3-.31H-.3Z",
        0.36,
        0.8,
    ),
    "drop": (
        "M0-1C.3-.6.82-.2.82.22A.82.78 0 0 1-.82.22C-.82-.2-.3-.6 0-1Z",
        "M-.45-.05A.5.5 0 0 1 0-.45 .7.7 0 0 0-.45-.05Z",
        0.45,
        0.8,
    ),
    "triangle": ("M0-1 .96.8H-.96Z", "M0-1 .3-.45H-.3Z", 0.5, 0.72),
}
_LEVEL_BACKS = {1: "#2e6b3f", 2: "#8a5f0e", 3: "#27477d"}
# Text classes (prefixed: the styles of an SVG inlined in a page apply to the whole page):
# sbc centred bold, sbe right-aligned, sbb bold, sbm muted, sbk / sbw dark or white ink.
_STYLE = (
    ".sbc{text-anchor:middle;font-weight:700}.sbe{text-anchor:end}.sbb{font-weight:700}"
    ".sbm{fill:#555}.sbk{fill:#111}.sbw{fill:#fff}.pick{cursor:pointer}"
    ".legal>rect:first-of-type{stroke:#e0a800;stroke-width:3}"
    ".last>rect:first-of-type{stroke:#ff6a00;stroke-width:3}"
    ".last>use{filter:drop-shadow(0 0 3px #ff6a00)}"
    ".replaced>rect:first-of-type{stroke:#2b6cb0;stroke-width:3;stroke-dasharray:6 4}"
)


def _fill(variant: str, letter: str) -> str:
    return PALETTE[variant].get(letter.lower(), NO_COLOUR)


def _light(fill: str) -> bool:
    return fill in LIGHT_FILLS or fill == NO_COLOUR or fill.startswith("#f")


def _ink(fill: str) -> str:
    """The text class for a fill: dark letters on light fills, white on dark ones."""
    return "sbk" if _light(fill) else "sbw"


def _mix(fill: str, white: float) -> str:
    """``fill`` lightened: ``white`` is the share of white mixed in (0 to 1)."""
    rgb = [int(fill[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * white):02x}" for c in rgb)


def _shade(fill: str) -> str:
    """``fill`` darkened, for a card's edge."""
    rgb = [int(fill[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * 0.6):02x}" for c in rgb)


def _text(
    x: float, y: float, s: str, *, size: int = 13, cls: str = "", anchor: str = "", **attrs: str
) -> str:
    """A text; ``cls``: style classes (see ``_STYLE``); ``anchor``: ``middle`` or ``end``."""
    if anchor == "middle":
        attrs["text_anchor"] = "middle"
    elif anchor == "end":
        cls = f"{cls} sbe".strip()
    extra = f' class="{cls}"' if cls else ""
    extra += "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}"{extra}>{escape(s)}</text>'


def _n(v: float) -> str:
    """A coordinate, to a tenth of a unit (no more is seen, and it keeps the text short)."""
    return f"{round(v, 1):g}"


def _squeeze(text: str, width: float, size: int) -> dict[str, str]:
    """Attributes that fit a long line into ``width`` (by narrowing it) and leave short ones be."""
    if len(text) * size * 0.58 <= width:
        return {}
    return {"textLength": f"{width:g}", "lengthAdjust": "spacingAndGlyphs"}


def _gem_id(variant: str, letter: str) -> str:
    return f"g{variant[0]}{letter.lower()}"


def _gem(variant: str, x: float, y: float, r: float, letter: str, label: str = "") -> str:
    """A gem of ``letter``'s kind centred on (x, y), radius ``r``, with ``label`` + letter on it.

    The ``<use>`` of the kind's symbol is always followed by the ``<text>`` that ends in
    its letter (``w``, ``3w``, ``2W``).
    """
    fill = _fill(variant, letter)
    shape = SHAPES[variant].get(letter.lower(), "round")
    _, _, drop, scale = _OUTLINES[shape]
    body = f"{label}{letter}"
    size = max(8, round(r * scale * (1.0 if len(body) == 1 else 0.88)))
    use = (
        f'<use href="#{_gem_id(variant, letter)}" x="{_n(x - r)}" y="{_n(y - r)}" '
        f'width="{_n(2 * r)}" height="{_n(2 * r)}"/>'
    )
    return use + _text(x, y + r * drop, body, size=size, cls=f"sbc {_ink(fill)}")


def _gem_defs(variant: str) -> str:
    """One ``<symbol>`` per token kind of ``variant``: outline in its colour and a sheen."""
    out = []
    for letter, shape in SHAPES[variant].items():
        outline, sheen, _, _ = _OUTLINES[shape]
        fill = _fill(variant, letter)
        out.append(
            f'<symbol id="{_gem_id(variant, letter)}" viewBox="-1 -1 2 2" overflow="visible">'
            f'<path d="{outline}" fill="{fill}" stroke="#222" stroke-width=".09" '
            f'stroke-linejoin="round"/><path d="{sheen}" fill="#fff" opacity=".3"/></symbol>'
        )
    return "".join(out)


def _chip(variant: str, x: float, y: float, letter: str, label: str, w: float = 30) -> str:
    """A bonus (or a bonus a tile needs): a small card of its colour, its gem, count and letter."""
    fill = _fill(variant, letter)
    h = w * 1.15
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" fill="{fill}" '
        f'stroke="#444"/>' + f'<use href="#{_gem_id(variant, letter)}" x="{x + 2:g}" y="{y + 2:g}" '
        f'width="{w * 0.42:g}" height="{w * 0.42:g}"/>'
        + _text(
            x + w / 2,
            y + h - w * 0.2,
            f"{label}{letter}",
            size=round(w * 0.43),
            cls=f"sbc {_ink(fill)}",
        )
    )


def _group(pick: str | None, title: str, body: str, *, key: str | None = None) -> str:
    """A group with a tooltip; ``pick``: what a click names; ``key``: its name for ``last``."""
    attrs = f' data-key="{escape(key)}"' if key else ""
    attrs += f' data-pick="{escape(pick)}" class="pick"' if pick else ""
    return f"<g{attrs}><title>{escape(title)}</title>{body}</g>"


def _keyed(key: str, body: str) -> str:
    return f'<g data-key="{escape(key)}">{body}</g>'


def _card_title(card: Card, variant: str) -> str:
    parts = [card.name] if card.name else []
    parts.append(f"level {card.level}, bonus {bonus_mark(card)}, {counted(card.points, 'point')}")
    if card.crowns:
        parts.append(counted(card.crowns, "crown"))
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
    """One card face: a rounded card tinted by its bonus colour, points large at the top left,
    the bonus gem(s) in the top right corner, crowns / abilities / name, cost as small gems."""
    fill = _fill(variant, card.colour) if card.colour else NO_COLOUR
    band = 34 if h > 120 else 30
    out = [
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="{_mix(fill, 0.86)}" '
        f'stroke="{_shade(fill)}" stroke-width="1.5"/>',
        f'<path d="M{x:g} {y + band:g}V{y + 8:g}a8 8 0 0 1 8-8H{x + w - 8:g}a8 8 0 0 1 8 8'
        f'V{y + band:g}Z" fill="{_mix(fill, 0.45)}"/>',
    ]
    if card.points:
        out.append(_text(x + 9, y + band - 8, str(card.points), size=24, cls="sbb sbk"))
    gem_r = band / 2 - 4
    if card.colour and card.bonus and not card.joker:
        for i in range(card.bonus):
            gx = x + w - gem_r - 6 - i * (2 * gem_r + 2)
            out.append(_gem(variant, gx, y + band / 2, gem_r, card.colour.upper()))
    else:
        out.append(_text(x + w - 10, y + band - 9, bonus_mark(card), size=18, cls="sbb sbk sbe"))
    line_y = y + band + 15
    top = y + band + 2  # the words end here
    if card.name:
        name = card.name[:18]
        out.append(
            _text(x + w / 2, line_y, name, size=11, anchor="middle", **_squeeze(name, w - 8, 11))
        )
        top = line_y + 3
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
        line = " ".join(marks)
        out.append(
            _text(
                x + w / 2,
                line_y,
                line,
                size=11,
                anchor="middle",
                fill="#5a3d00",
                **_squeeze(line, w - 8, 11),
            )
        )
        top = line_y + 3
    # Cost gems: rows of three from the bottom up, as large as the room below the words
    # allows; when two rows do not fit (a small card with a name and marks), one row.
    n = len(card.cost)
    per_row = 3
    r = min(14.0, (w - 6) / 6 - 2)
    if -(-n // 3) * (2 * r + 3) + 4 > y + h - top:
        per_row = max(n, 1)
        r = min(r, (w - 6) / per_row / 2 - 1)
    step = (w - 6) / per_row
    for i, c in enumerate(card.cost):
        col, row = i % per_row, i // per_row
        cx = x + 3 + step / 2 + col * step
        out.append(_gem(variant, cx, y + h - r - 5 - row * (2 * r + 3), r, c.letter, str(c.n)))
    return "".join(out)


def face_down_svg(
    level: int, x: float, y: float, note: str, *, w: float = CARD_W, h: float = CARD_H
) -> str:
    """A card this viewer cannot see: the back of its level (its colour, striped), and a note."""
    back = _LEVEL_BACKS.get(level, "#5b4a8a")
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="{back}" '
        f'stroke="#3a3022" stroke-width="1.5"/>'
        f'<rect x="{x + 5:g}" y="{y + 5:g}" width="{w - 10:g}" height="{h - 10:g}" rx="5" '
        f'fill="url(#back)" stroke="#fff" stroke-opacity=".5"/>'
        + _text(x + w / 2, y + h / 2 - 4, f"level {level}", size=14, cls="sbc sbw")
        + _text(x + w / 2, y + h / 2 + 14, note, size=11, anchor="middle", cls="sbw")
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
        cls="sbm",
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
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="none" '
        f'stroke="#bbb" stroke-dasharray="5 4"/>'
    )
    return label + (_keyed(key, empty) if key else empty)


def _tile_title(tile: Tile) -> str:
    requires = " ".join(f"{c.n}{c.letter}" for c in tile.requires)
    title = f"{tile.label} {tile.name}".strip() + f": {counted(tile.points, 'point')}"
    if requires:
        title += f", needs bonuses {requires}"
    if tile.abilities:
        title += ", " + "+".join(tile.abilities)
    return title


def _tile(tile: Tile, x: float, y: float, variant: str) -> str:
    """A noble, royal or location tile: points large, its label, name or ability, and the
    bonuses it needs as small cards of their colours."""
    w, h = 150, 76
    body = [
        f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="8" fill="#eadbb4" '
        f'stroke="#8a6d3b" stroke-width="1.5"/>',
        f'<rect x="{x + 3:g}" y="{y + 3:g}" width="{w - 6}" height="{h - 6}" rx="6" '
        f'fill="none" stroke="#fff" stroke-opacity=".6"/>',
        _text(x + 9, y + 27, str(tile.points), size=24, cls="sbb"),
        _text(x + w - 8, y + 17, tile.label, size=11, anchor="end", cls="sbm"),
    ]
    if tile.name:
        body.append(
            _text(x + 30, y + 33, tile.name[:20], size=11, **_squeeze(tile.name[:20], 112, 11))
        )
    if tile.abilities:
        body.append(_text(x + w / 2, y + 56, "+".join(tile.abilities), size=13, anchor="middle"))
    for i, c in enumerate(tile.requires):
        body.append(_chip(variant, x + 36 + i * 28, y + h - 34, c.letter, str(c.n), w=25))
    return _group(tile.label, _tile_title(tile), "".join(body))


def _seat(
    board: Board, seat: Seat, x: float, y: float, names: Mapping[int, str]
) -> tuple[str, float]:
    w = WIDTH - x - 10
    v = board.variant
    me = f"seat {seat.index}"
    name = seat_name(seat.index, names, board.viewer)
    cards = counted(seat.cards, "card")
    header = f"{'> ' if seat.to_play else ''}{name}   {cards}   tokens {seat.tokens_total}/10"
    stats = "   ".join(stat_text(s) for s in seat.stats if s.value or not s.flag)
    out = [
        _text(x + 10, y + 20, header, size=15, cls="sbb"),
        _text(x + 10, y + 38, stats, size=12, **_squeeze(stats, w - 20, 12)),
        _text(x + 10, y + 62, "tokens", size=11, cls="sbm"),
    ]
    tokens = [
        _keyed(f"{me} token {c.letter}", _gem(v, x + 90 + i * 40, y + 58, 16, c.letter, str(c.n)))
        for i, c in enumerate(seat.tokens)
    ]
    out.append(
        _group(
            None,
            "tokens held: " + " ".join(f"{c.letter}{c.n}" for c in seat.tokens),
            "".join(tokens),
        )
    )
    out.append(_text(x + 10, y + 98, "bonuses", size=11, cls="sbm"))
    bonuses = [
        _keyed(f"{me} bonus {c.letter}", _chip(v, x + 90 + i * 40 - 15, y + 79, c.letter, str(c.n)))
        for i, c in enumerate(seat.bonuses)
    ]
    out.append(
        _group(
            None, "bonuses: " + " ".join(f"{c.letter}{c.n}" for c in seat.bonuses), "".join(bonuses)
        )
    )
    line = y + 122
    if seat.tiles:
        out.append(_text(x + 10, line + 15, "owns", size=11, cls="sbm"))
        tx = x + 70.0
        for tile in seat.tiles:
            label = f"{tile.label} {tile.name}".strip()[:24] + f"  {tile.points} pt"
            tw = len(label) * 6.6 + 14
            if tx + tw > x + w - 6 and tx > x + 70:
                tx, line = x + 70.0, line + 26
            chip = (
                f'<rect x="{tx:g}" y="{line:g}" width="{tw:g}" height="21" rx="5" fill="#eadbb4" '
                f'stroke="#8a6d3b"/>' + _text(tx + 7, line + 15, label, size=11)
            )
            out.append(_group(None, _tile_title(tile), chip, key=f"{me} owns {tile.label}"))
            tx += tw + 6
        line += 28
    if seat.reserved:
        out.append(_text(x + 10, line + 12, "reserved", size=11, cls="sbm"))
        for i, slot in enumerate(seat.reserved):
            pick = f"reserved {i + 1}" if seat.is_viewer else None
            key = f"{me} reserved {i + 1}"
            sx = x + 70 + i * 100
            out.append(_slot(slot, sx, line + 18, variant=v, pick=pick, w=92, h=108, key=key))
        line += 132
    h = line - y + 8
    border = "#b8860b" if seat.to_play else "#bbb"
    frame = (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="10" fill="#fbf8ef" '
        f'stroke="{border}" stroke-width="{3 if seat.to_play else 1}"/>'
    )
    return f'<g class="seat" data-key="{me}">{frame}{"".join(out)}</g>', h


def _supply(board: Board, x: float, y: float) -> tuple[str, float]:
    v = board.variant
    out = []
    if board.bank:
        out.append(_text(x, y + 26, "bank", size=13, cls="sbb"))
        for i, c in enumerate(board.bank):
            kind = next(k for k in board.kinds if k.letter == c.letter)
            cx = x + 70 + i * 52
            body = (
                f'<rect x="{cx - 24:g}" y="{y:g}" width="48" height="64" rx="6" '
                f'fill="transparent"/>'
                + _gem(v, cx, y + 22, TOKEN_R, c.letter)
                + _text(cx, y + 58, str(c.n), size=14, cls="sbc")
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
    out.append(_text(x, y + 14, "token board", size=13, cls="sbb"))
    for col in range(5):
        out.append(
            _text(x + 30 + col * cell + cell / 2, y + 32, "abcde"[col], size=12, anchor="middle")
        )
    cells = [
        f'<rect x="{x + 26:g}" y="{y + 36:g}" width="{5 * cell + 8}" height="{5 * cell + 8}" '
        f'rx="8" fill="#d8c9a3" stroke="#8a6d3b"/>'
    ]
    for r, row in enumerate(board.grid):
        cells.append(
            _text(x + 16, y + 40 + r * cell + cell / 2 + 4, str(r + 1), size=12, anchor="middle")
        )
        for col, letter in enumerate(row):
            name = f"{'abcde'[col]}{r + 1}"
            cx, cy = x + 30 + col * cell, y + 40 + r * cell
            body = (
                f'<rect x="{cx}" y="{cy}" width="{cell}" height="{cell}" rx="4" fill="#efe6cf" '
                f'stroke="#b9a77a"/>'
            )
            if letter:
                body += _gem(v, cx + cell / 2, cy + cell / 2, 15, letter)
                title = f"cell {name}: {next(k.name for k in board.kinds if k.letter == letter)}"
            else:
                title = f"cell {name}: empty"
            cells.append(_group(f"cell {name}", title, body))
    out.append(_keyed("grid", "".join(cells)))
    bx = x + 260
    out.append(_text(bx, y + 54, "bag", size=13, cls="sbb"))
    for i, c in enumerate(board.bag):
        cx = bx + 17 + i * 42
        body = _gem(v, cx, y + 80, 16, c.letter) + _text(cx, y + 112, str(c.n), size=13, cls="sbc")
        out.append(_keyed(f"bag {c.letter}", body))
    for i, s in enumerate(board.supply):
        out.append(_text(bx, y + 140 + i * 16, stat_text(s), size=12))
    return "".join(out), 40 + 5 * cell + 10


def _gem_key(board: Board, x: float, y: float) -> str:
    """The key to the gems: each kind's gem (its shape and colour), letter and name."""
    out = []
    cx = x
    for kind in board.kinds:
        shape = SHAPES[board.variant].get(kind.letter, "")
        words = f"{kind.name} ({shape})"
        out.append(_gem(board.variant, cx + 11, y, 11, kind.letter))
        out.append(_text(cx + 27, y + 4, words, size=12))
        cx += 34 + len(words) * 7
    return "".join(out)


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
    marks: frozenset[str] = frozenset() if last is None else last_marks(board, *last)
    names = dict(names or {})
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
        _text(14, 28, f"{board.title}  |  {board.num_players} seats  |  {turn}", size=20, cls="sbb")
    )
    # Marked, so a page that states the result in its own words can leave this line out.
    out.append(_text(14, 50, status, size=14, data_role="status"))

    left_x, y = 14.0, 70.0
    supply, h = _supply(board, left_x, y)
    out.append(supply)
    y += h + 8
    if board.tiles:
        out.append(_text(left_x, y + 12, board.tiles_title[:110], size=12, cls="sbm"))
        for i, tile in enumerate(board.tiles):
            tx = left_x + (i % 4) * 158
            ty = y + 20 + (i // 4) * 84
            out.append(_tile(tile, tx, ty, v))
        y += 20 + ((len(board.tiles) + 3) // 4) * 84
    y += 10
    for row in board.rows:
        deck_pick = f"deck {row.level}"
        deck_body = (
            face_down_svg(row.level, left_x, y + 14, f"{row.deck} in the deck", w=84)
            if row.deck
            else f'<rect x="{left_x}" y="{y + 14}" width="84" height="{CARD_H}" rx="8" fill="none" '
            f'stroke="#bbb" stroke-dasharray="5 4"/>'
        )
        out.append(
            _group(deck_pick, f"level {row.level} deck: {counted(row.deck, 'card')}", deck_body)
        )
        for i, slot in enumerate(row.slots):
            sx = left_x + 96 + i * (CARD_W + 8)
            out.append(_slot(slot, sx, y + 14, variant=v, pick=slot.label if slot.card else None))
        y += CARD_H + 22
    left_bottom = y

    seat_x, sy = 14.0 + 96 + 5 * (CARD_W + 8) + 14, 70.0
    if board.pending is not None:
        out.append(_text(seat_x, sy + 12, "being bought / resolved", size=12, cls="sbm"))
        out.append(_slot(board.pending, seat_x, sy + 20, variant=v, pick=None))
        sy += CARD_H + 32
    for seat in board.seats:
        g, h = _seat(board, seat, seat_x, sy, names)
        out.append(g)
        sy += h + 10
    y = max(left_bottom, sy) + 6
    out.append(_gem_key(board, 14, y + 12))
    y += 26
    out.append(_text(14, y + 14, board.goal, size=12, fill="#333"))
    for i, line in enumerate(board.legend):
        out.append(_text(14, y + 32 + i * 16, line, size=12, fill="#333"))
    height = y + 32 + len(board.legend) * 16 + 6
    if board.viewer is not None:
        viewer = f"seat {board.viewer}"
    else:
        viewer = "a spectator (public)" if board.public else "a spectator"
    defs = (
        '<defs><pattern id="back" width="9" height="9" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="3" height="9" fill="#fff" opacity=".16"/>'
        f"</pattern>{_gem_defs(v)}<style>{_STYLE}</style></defs>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:g}" '
        f'width="{WIDTH}" height="{height:g}" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'role="img" aria-label="{escape(board.title)} board seen by {viewer}">'
        f"<title>{escape(board.title)}: {escape(status)}</title>{defs}"
        f'<rect width="{WIDTH}" height="{height:g}" fill="#fffaf0"/>'
        + _classify("".join(out), frozenset(legal), marks)
        + "</svg>"
    )


_G_TAG = re.compile(r"<g( [^>]*)>")
_ATTR = re.compile(r' (data-key|data-pick|class)="([^"]*)"')


def _classify(svg: str, legal: frozenset[str], marks: frozenset[str]) -> str:
    """``svg`` with ``legal`` added to the class of every group whose pick is in ``legal``,
    ``last`` to every group whose key or pick is in ``marks``, and ``replaced`` to a display
    slot marked ``replaced SLOT`` (the new card where the one taken was)."""
    if not legal and not marks:
        return svg

    def one(m: re.Match[str]) -> str:
        attrs = dict(_ATTR.findall(m[1]))
        pick = unescape(attrs.get("data-pick", ""))
        keys = {unescape(attrs.get("data-key", "")), pick}
        classes = attrs.get("class", "").split()
        if pick and pick in legal and "legal" not in classes:
            classes.append("legal")
        if keys & marks:
            classes.append("last")
        if {f"replaced {k}" for k in keys} & marks:
            classes.append("replaced")
        if classes == attrs.get("class", "").split():
            return m[0]
        cls = f' class="{" ".join(classes)}"'
        if "class" in attrs:
            return m[0].replace(f' class="{attrs["class"]}"', cls)
        return f"<g{m[1]}{cls}>"

    return _G_TAG.sub(one, svg)
