"""Builds the :class:`~splendor.render.model.Board` of one viewer from a state's JSON view.

The only inputs are the JSON a state gives that viewer (``state.to_json(viewer)``;
``to_json()`` for a spectator who sees everything), the public outcome, and the
printed faces of the cards keyed by their ids. A card whose id the view hides
(``"card": null``) is drawn face down: there is nothing else to draw it from.
Token, bonus and point totals are derived from the public cards, as a player
at the table would count them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from splendor.errors import InvalidStateError
from splendor.render import tables
from splendor.render.model import (
    Board,
    Card,
    CardRow,
    Result,
    Seat,
    Slot,
    Stat,
    Tile,
    TokenKind,
)
from splendor.render.public import is_public
from splendor.variants import variant_info

TOKEN_LIMIT = 10
LINE_WIDTH = 100
BASE_BUY, BASE_BUY_RESERVED = 45, 57
DUEL_BUY, DUEL_BUY_RESERVED = 211, 223
DUEL_SLOT_OFFSET = (0, 5, 9)
DUEL_ABILITIES = {
    "again": "play another turn",
    "token": "take a token of its colour from the board",
    "steal": "take one (not gold) from the opponent",
    "privilege": "take a privilege",
}


def build_board(view: str | Mapping[str, Any], *, result: Result | None = None) -> Board:
    """The board of the viewer named in ``view`` (a state's ``to_json(viewer)``).

    Args:
        view: The JSON text or its parsed object. A full state
            (``"viewer": null``) gives a spectator's board that shows every card; a
            public view (``"viewer": null`` and ``"decks": null``,
            :func:`~splendor.render.public.public_view_json`) the public board.
        result: The outcome once the game is over (public); Duel views carry
            their own.

    Raises:
        InvalidStateError: ``view`` is not a state's JSON.
    """
    obj = json.loads(view) if isinstance(view, str) else view
    try:
        builder = _BUILDERS[obj["variant"]]
        return builder(obj, result)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise InvalidStateError(f"not a state's JSON view: {exc!r}") from None


# ---------------------------------------------------------------------- shared


def _slot_label(level: int, slot: int) -> str:
    return f"{level}.{slot + 1}"


def _turn_and_round(obj: Mapping[str, Any], rounds: bool) -> tuple[int, int | None]:
    done = int(obj["turn"])
    over = obj["current"] is None
    turn = max(done, 1) if over else done + 1
    n = int(obj["num_players"])
    return turn, ((turn - 1) // n + 1 if rounds else None)


def _reserve(entries: list[Mapping[str, Any]], face: Callable[[int], Card]) -> tuple[Slot, ...]:
    out = []
    for i, r in enumerate(entries):
        card = None if r["card"] is None else face(int(r["card"]))
        out.append(
            Slot(
                f"R{i + 1}",
                int(r["level"]),
                card,
                hidden=card is None,
                blind=bool(r["hidden"]),
            )
        )
    return tuple(out)


def _rows(
    board: list[list[int | None]], decks: list[int], face: Callable[[int], Card]
) -> tuple[CardRow, ...]:
    rows = []
    for lv in (3, 2, 1):
        slots = tuple(
            Slot(_slot_label(lv, s), lv, None if c is None else face(int(c)))
            for s, c in enumerate(board[lv - 1])
        )
        rows.append(CardRow(lv, int(decks[lv - 1]), slots))
    return tuple(rows)


def _bonuses(cards: list[Card], letters: str) -> list[int]:
    out = [0] * len(letters)
    for c in cards:
        if c.colour:
            out[letters.index(c.colour)] += c.bonus
    return out


def _result(obj: Mapping[str, Any], result: Result | None) -> Result | None:
    if obj["current"] is not None:
        return None
    return result


def _legend(kinds: tuple[TokenKind, ...], extra: tuple[str, ...]) -> tuple[str, ...]:
    """The token sentence, then the variant's own sentences (a renderer wraps them)."""
    words = [f"{k.letter} {k.name}" + (f" ({k.note})" if k.note else "") for k in kinds]
    return ("tokens " + ", ".join(words), *extra)


def _seat(
    obj: Mapping[str, Any],
    i: int,
    player: Mapping[str, Any],
    face: Callable[[int], Card],
    *,
    token_letters: str,
    bonuses: list[int],
    tiles: tuple[Tile, ...],
    points: int,
    stats: tuple[Stat, ...],
) -> Seat:
    """One seat, drawn alike in every variant: what differs is passed in."""
    return Seat(
        index=i,
        is_viewer=i == obj["viewer"],
        to_play=i == obj["current"],
        points=points,
        tokens=tables.counts(token_letters, player["tokens"], nonzero=False),
        bonuses=tables.counts(token_letters[:5].upper(), bonuses, nonzero=False),
        cards=len(player["cards"]),
        reserved=_reserve(player["reserved"], face),
        tiles=tiles,
        stats=stats,
    )


def _board(
    obj: Mapping[str, Any], result: Result | None, *, title: str, rounds: bool, **fields: Any
) -> Board:
    """The board of a view: the fields every variant fills alike, then the variant's own."""
    turn, rnd = _turn_and_round(obj, rounds)
    return Board(
        variant=obj["variant"],
        title=title,
        viewer=obj["viewer"],
        num_players=int(obj["num_players"]),
        turn=turn,
        round=rnd,
        to_play=obj["current"],
        phase=obj["phase"],
        result=_result(obj, result),
        public=is_public(obj),
        **fields,
    )


def _cards_legend(verb: str) -> str:
    """The legend line that names the card labels, with the variant's buy verb."""
    return (
        f"cards: 2.3 = level 2 slot 3 (`{verb} 2.3`), R1 = your reserved card 1"
        f" (`{verb} reserved 1`)"
    )


def _main_pending(
    pending: int | None, buy: int, buy_reserved: int, rows: tuple[CardRow, ...], seat: Seat | None
) -> Slot | None:
    """The card a pending buy/recruit action id (base and Marvel numbering) names."""
    if pending is None:
        return None
    if pending < buy_reserved:
        k = pending - buy
        level, slot = k // 4 + 1, k % 4
        return next(r for r in rows if r.level == level).slots[slot]
    if seat is None:
        return None
    i = pending - buy_reserved
    return seat.reserved[i] if i < len(seat.reserved) else None


# ------------------------------------------------------------------------ base


def _build_base(obj: Mapping[str, Any], result: Result | None) -> Board:
    current = obj["current"]
    seats = []
    for i, p in enumerate(obj["players"]):
        cards = [tables.base_card(int(c)) for c in p["cards"]]
        nobles = tuple(tables.base_noble(int(x)) for x in p["nobles"])
        points = sum(c.points for c in cards) + sum(t.points for t in nobles)
        seats.append(
            _seat(
                obj,
                i,
                p,
                tables.base_card,
                token_letters="wugrky",
                bonuses=_bonuses(cards, "wugrk"),
                tiles=nobles,
                points=points,
                stats=(Stat("points", "points", points, 15),),
            )
        )
    rows = _rows(obj["board"], obj["deck_sizes"], tables.base_card)
    mover = seats[current] if current is not None else None
    pending = _main_pending(obj["pending"], BASE_BUY, BASE_BUY_RESERVED, rows, mover)
    return _board(
        obj,
        result,
        title=variant_info()["base"].title,
        rounds=True,
        task=_base_task(obj["phase"], pending, mover, "buy", "gold", "noble to visit you"),
        goal="15 points ends the game at the end of that round; most points wins, "
        "then fewest cards",
        kinds=tables.BASE_KINDS,
        bank=tables.counts("wugrky", obj["bank"], nonzero=False),
        rows=rows,
        tiles=tuple(tables.base_noble(int(x)) for x in obj["nobles"]),
        tiles_title="nobles",
        tiles_note="3 points; one visits you at the end of your turn when your bonuses meet"
        " its needs",
        seats=tuple(seats),
        pending=pending,
        legend=_legend(
            tables.BASE_KINDS,
            (
                _cards_legend("buy"),
                "a card: bonus colour (capital), points (pt), cost; each bonus pays 1 token of"
                " its colour",
            ),
        ),
    )


def _base_task(
    phase: str, pending: Slot | None, mover: Seat | None, buy: str, wild: str, tile: str
) -> str:
    if phase == "main":
        return f"main action: take tokens, reserve a card or {buy} a card"
    if phase == "pay":
        what = pending.label if pending is not None else "the card"
        return f"choose how to pay for {what} (which colours your {wild} covers)"
    if phase == "return":
        held = mover.tokens_total if mover is not None else 0
        return f"return a token: you hold {held}, the limit is {TOKEN_LIMIT}"
    if phase in ("noble", "location"):
        return f"choose the {tile} (several qualify)"
    return "game over"


# ------------------------------------------------------------------------ duel


def _build_duel(obj: Mapping[str, Any], result: Result | None) -> Board:
    current = obj["current"]
    letters = "wugrk"
    seats = []
    for i, p in enumerate(obj["players"]):
        cards = [tables.duel_card(int(c)) for c in p["cards"]]
        bonuses = _bonuses(cards, letters)
        colour_points = [0] * 5
        for c in cards:
            if c.colour:
                colour_points[letters.index(c.colour)] += c.points
        for card_id, colour in p["jokers"]:
            bonuses[int(colour)] += 1
            colour_points[int(colour)] += tables.duel_card(int(card_id)).points
        royals = tuple(tables.duel_royal(int(r)) for r in p["royals"])
        points = sum(c.points for c in cards) + sum(r.points for r in royals)
        crowns = sum(c.crowns for c in cards)
        best = max(range(5), key=lambda k: (colour_points[k], -k))
        seats.append(
            _seat(
                obj,
                i,
                p,
                tables.duel_card,
                token_letters="wugrkpy",
                bonuses=bonuses,
                tiles=royals,
                points=points,
                stats=(
                    Stat("points", "points", points, 20),
                    Stat("crowns", "crowns", crowns, 10),
                    Stat(
                        "colour_points",
                        f"best colour {letters[best].upper()}",
                        colour_points[best],
                        10,
                    ),
                    Stat("privileges", "privileges", int(p["privileges"]), 3),
                ),
            )
        )
    rows = _rows(obj["pyramid"], obj["deck_sizes"], tables.duel_card)
    mover = seats[current] if current is not None else None
    pending = _duel_pending(obj, rows, mover)
    outcome = obj.get("outcome")
    if outcome is not None:
        result = Result(tuple(int(w) for w in outcome["winners"]), str(outcome["reason"]))
    cells = obj["board"]
    grid = tuple(tuple(cells[r * 5 + c] or "" for c in range(5)) for r in range(5))
    held = sum(int(p["privileges"]) for p in obj["players"])
    return _board(
        obj,
        result,
        title=variant_info()["duel"].title,
        rounds=False,
        task=_duel_task(obj, pending, mover),
        goal="win at the end of your turn with 20 points, 10 crowns or 10 points in one colour",
        kinds=tables.DUEL_KINDS,
        bank=(),
        rows=rows,
        tiles=tuple(tables.duel_royal(int(r)) for r in obj["royals"]),
        tiles_title="royals",
        tiles_note="take one when your crowns reach 3, another at 6",
        seats=tuple(seats),
        grid=grid,
        bag=tables.counts("wugrkpy", obj["bag"], nonzero=False),
        pending=pending,
        supply=(Stat("privileges", "privileges in the supply", 3 - held, 3),),
        legend=_legend(
            tables.DUEL_KINDS,
            (
                "cells a1 to e5 (column, row; . = empty): `take a1 b2 c3` takes a line of up to"
                " 3 tokens; to reserve, `gold c3` then `reserve 2.3`",
                _cards_legend("buy"),
                "a card: bonus (capital; WW two, * joker, - none), points (pt), crowns (cr),"
                " ability, cost",
                "abilities: "
                + "; ".join(f"{name}: {what}" for name, what in DUEL_ABILITIES.items()),
            ),
        ),
    )


def _duel_pending(
    obj: Mapping[str, Any], rows: tuple[CardRow, ...], mover: Seat | None
) -> Slot | None:
    if obj["pending_buy"] is not None:
        buy = int(obj["pending_buy"])
        if buy < DUEL_BUY_RESERVED:
            k = buy - DUEL_BUY
            level = next(lv for lv in (3, 2, 1) if k >= DUEL_SLOT_OFFSET[lv - 1])
            slot = k - DUEL_SLOT_OFFSET[level - 1]
            return next(r for r in rows if r.level == level).slots[slot]
        if mover is None:
            return None
        i = buy - DUEL_BUY_RESERVED
        return mover.reserved[i] if i < len(mover.reserved) else None
    card = obj["pending_card"]
    if card is None:
        return None
    face = tables.duel_card(int(card))
    return Slot("", face.level, face)  # in the tableau now: no label to type


def _duel_task(obj: Mapping[str, Any], pending: Slot | None, mover: Seat | None) -> str:
    phase = obj["phase"]
    if phase == "main":
        first = "" if obj["replenished"] else "first, if you like: use privileges, replenish; "
        return f"{first}then take tokens in a line, take a gold to reserve, or buy a card"
    if phase == "reserve":
        return "choose the card to reserve (you took a gold)"
    if phase == "pay":
        what = pending.label if pending is not None else "the card"
        return f"choose how to pay for {what} (which gems your gold covers)"
    if phase == "joker":
        return "choose the colour of the joker you bought (a colour of your cards)"
    if phase == "token":
        colour = pending.card.colour if pending is not None and pending.card else ""
        return f"take a {colour or 'matching'} token from the board (the card's ability)"
    if phase == "steal":
        return "take a token from the opponent (steal)"
    if phase == "royal":
        return "choose a royal card (your crowns reached 3 or 6)"
    if phase == "discard":
        held = mover.tokens_total if mover is not None else 0
        return f"discard a token: you hold {held}, the limit is {TOKEN_LIMIT}"
    return "game over"


# ---------------------------------------------------------------------- marvel


def _build_marvel(obj: Mapping[str, Any], result: Result | None) -> Board:
    faces = tables.marvel_set(obj["card_set"])

    def face(card_id: int) -> Card:
        return faces.cards[card_id]

    current = obj["current"]
    holder = obj["avengers"]
    seats = []
    for i, p in enumerate(obj["players"]):
        cards = [face(int(c)) for c in p["cards"]]
        locations = tuple(faces.locations[int(x)] for x in p["locations"])
        bonuses = _bonuses(cards, "pbroy")
        tile = 3 if holder == i else 0
        points = sum(c.points for c in cards) + sum(t.points for t in locations) + tile
        seats.append(
            _seat(
                obj,
                i,
                p,
                face,
                token_letters="pbroyst",
                bonuses=bonuses,
                tiles=locations,
                points=points,
                stats=(
                    Stat("points", "points", points, 16),
                    Stat("colours", "colours", sum(1 for b in bonuses if b > 0), 5),
                    Stat("green", "green token", int(p["tokens"][6]), 1),
                    Stat("icons", "Avengers icons", sum(c.avengers for c in cards)),
                    Stat("avengers", "holds the Avengers tile", int(holder == i), flag=True),
                ),
            )
        )
    rows = _rows(obj["board"], obj["deck_sizes"], face)
    mover = seats[current] if current is not None else None
    pending = _main_pending(obj["pending"], BASE_BUY, BASE_BUY_RESERVED, rows, mover)
    who = "nobody" if holder is None else f"seat {holder}"
    return _board(
        obj,
        result,
        title=variant_info()["marvel"].title,
        rounds=True,
        task=_base_task(
            obj["phase"], pending, mover, variant_info()["marvel"].verbs.buy, "grey", "location"
        ),
        goal="16 points, a card of each colour and the green token end the game at the end"
        " of that round; most points wins",
        kinds=tables.MARVEL_KINDS,
        bank=tables.counts("pbroyst", obj["bank"], nonzero=False),
        rows=rows,
        tiles=tuple(faces.locations[int(x)] for x in obj["locations"]),
        tiles_title="locations",
        tiles_note="one comes to you at the end of your turn when your bonuses meet its needs",
        seats=tuple(seats),
        pending=pending,
        supply=(
            Stat(
                "avengers",
                f"Avengers tile (3 points; to the first with 3 icons, then to whoever has more):"
                f" {who}",
                int(holder is not None),
                1,
            ),
        ),
        legend=_legend(
            tables.MARVEL_KINDS,
            (
                _cards_legend("recruit"),
                "a card: name, bonus colour (capital), points (pt), A2 = 2 Avengers icons,"
                " T = Time stone, cost",
            ),
        ),
    )


_BUILDERS: dict[str, Callable[[Mapping[str, Any], Result | None], Board]] = {
    "base": _build_base,
    "duel": _build_duel,
    "marvel": _build_marvel,
}
