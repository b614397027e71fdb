"""What a decision did, in words, from one viewer's information: the log's line.

:func:`describe` compares the viewer's board before and after a seat's decision and says
what changed for that seat: the card it bought, recruited or reserved (its level, colour,
points and cost, or only its level when the viewer cannot see it: a blind reserve stays
hidden from the other seats), the tokens it took, paid and returned, the noble, royal or
location that came, privileges, crowns and the Avengers tile. Every variant's decisions
are read the same way, from the boards (:mod:`splendor.render.model`), so the page, the
terminal game and the review say the same thing.

>>> import splendor
>>> from splendor import render
>>> state = splendor.new_game("base", seed=1)
>>> before = render.board_of(state, 1)
>>> state.apply("take wug")
>>> describe(before, render.board_of(state, 1), 0, "take wug")
'took 1 white, 1 blue, 1 green'
"""

from __future__ import annotations

import re

from splendor.render.model import Board, Card, Count, Seat, Slot, Tile

_FROM_SLOT = re.compile(r"^(?:buy|recruit|reserve) ([123])\.([1-5])$")
_FROM_RESERVE = re.compile(r"^(?:buy|recruit) reserved (\d+)$")
_FROM_DECK = re.compile(r"^reserve deck ([123])$")


def _names(board: Board) -> dict[str, str]:
    """Token and bonus letters to colour names (bonus letters are the upper case)."""
    names = {k.letter: k.name for k in board.kinds}
    names |= {k.letter.upper(): k.name for k in board.kinds}
    return names


def _counts(counts: tuple[Count, ...], names: dict[str, str]) -> str:
    return ", ".join(f"{c.n} {names.get(c.letter, c.letter)}" for c in counts if c.n)


def card_words(card: Card, board: Board) -> str:
    """``a level-2 blue card (2 points; cost 3 white, 2 red)``, Marvel's name first."""
    names = _names(board)
    colour = names.get(card.colour, "") if card.colour else ""
    kind = "joker" if card.joker else f"{colour} card" if colour else "card"
    who = f"{card.name}, " if card.name else ""
    points = f"{card.points} point{'s' if card.points != 1 else ''}"
    extras = []
    if card.crowns:
        extras.append(f"{card.crowns} crown{'s' if card.crowns != 1 else ''}")
    if card.bonus > 1:
        extras.append(f"{card.bonus} bonuses")
    if card.abilities:
        extras.append("ability: " + ", ".join(card.abilities))
    if card.avengers:
        extras.append(f"{card.avengers} Avengers icon{'s' if card.avengers != 1 else ''}")
    cost = _counts(card.cost, names) or "free"
    more = "; ".join([points, *extras, f"cost {cost}"])
    return f"{who}a level-{card.level} {kind} ({more})"


def _tile_words(tile: Tile) -> str:
    name = f" {tile.name}" if tile.name else f" {tile.id}"
    points = f" ({tile.points} point{'s' if tile.points != 1 else ''})" if tile.points else ""
    return f"the {tile.kind}{name}{points}"


def _seat(board: Board, seat: int) -> Seat | None:
    return next((s for s in board.seats if s.index == seat), None)


def _delta(before: tuple[Count, ...], after: tuple[Count, ...]) -> dict[str, int]:
    old = {c.letter: c.n for c in before}
    return {c.letter: c.n - old.get(c.letter, 0) for c in after if c.n != old.get(c.letter, 0)}


def _slot_of(before: Board, seat: int, action: str) -> Slot | None:
    """The card place a buy, recruit or reserve names, on the board before it."""
    text = " ".join(action.split())
    if m := _FROM_SLOT.match(text):
        label = f"{m[1]}.{m[2]}"
        return next((s for row in before.rows for s in row.slots if s.label == label), None)
    if m := _FROM_RESERVE.match(text):
        mine = _seat(before, seat)
        k = int(m[1])
        if mine is not None and 1 <= k <= len(mine.reserved):
            return mine.reserved[k - 1]
    return None


def describe(before: Board, after: Board, seat: int, action: str) -> str:
    """What ``seat``'s decision ``action`` did, as the viewer of both boards may know it.

    ``before`` and ``after`` are the same viewer's boards around the decision. The words
    name only what that viewer sees: a card reserved blind is "a level-N card from the
    deck" to the other seats, and its face to its owner.
    """
    b, a = _seat(before, seat), _seat(after, seat)
    if b is None or a is None:
        return action
    names = _names(after)
    parts: list[str] = []
    text = " ".join(action.split())
    gained_card = a.cards > b.cards
    slot = _slot_of(before, seat, text)
    if gained_card:
        card = slot.card if slot is not None else None
        if card is None and before.pending is not None:
            card = before.pending.card  # paid for over several decisions (Duel, Marvel)
        verb = "recruited" if text.startswith("recruit") or after.variant == "marvel" else "bought"
        if card is not None:
            parts.append(f"{verb} {card_words(card, after)}")
        else:
            # A card this viewer never saw (reserved blind by another seat): its level, and
            # the colour its bonus shows now that it is in the open.
            grew = [k for k, n in _delta(b.bonuses, a.bonuses).items() if n > 0]
            colour = f", a {names.get(grew[0], grew[0])} card" if len(grew) == 1 else ""
            level = f"level-{slot.level} " if slot is not None else ""
            parts.append(f"{verb} the {level}card it had reserved face down{colour}")
    elif len(a.reserved) > len(b.reserved):
        new = a.reserved[-1]
        where = ""
        if m := _FROM_DECK.match(text):
            where = f" from the level-{m[1]} deck"
        if new.card is not None:
            parts.append(f"reserved {card_words(new.card, after)}{where}")
        else:
            parts.append(f"reserved a level-{new.level} card{where or ' face down'}")
    tokens = _delta(b.tokens, a.tokens)
    took = tuple(Count(k, n) for k, n in tokens.items() if n > 0)
    gave = tuple(Count(k, -n) for k, n in tokens.items() if n < 0)
    if took:
        parts.append(f"took {_counts(took, names)}")
    if gave:
        verb = "paid" if gained_card else "returned" if text.startswith("return") else "gave up"
        if text.startswith("discard"):
            verb = "discarded"
        parts.append(f"{verb} {_counts(gave, names)}")
    if text.startswith("joker"):
        parts.append(f"joined the joker to {names.get(text.split()[-1], text.split()[-1])}")
    owned = {t.label for t in b.tiles}
    for tile in a.tiles:
        if tile.label not in owned:
            parts.append(f"{_tile_words(tile)} came")
    stats_before = {s.key: s.value for s in b.stats}
    for stat in a.stats:
        change = stat.value - stats_before.get(stat.key, stat.value)
        if stat.key == "privileges" and change:
            parts.append(
                f"{'gained' if change > 0 else 'used'} {abs(change)} privilege"
                f"{'s' if abs(change) != 1 else ''}"
            )
        elif stat.key == "avengers" and change > 0:
            parts.append("took the Avengers tile")
    if text == "replenish":
        parts.append("refilled the token board")
    if a.points != b.points:
        parts.append(f"now {a.points} point{'s' if a.points != 1 else ''}")
    return "; ".join(parts) if parts else text
