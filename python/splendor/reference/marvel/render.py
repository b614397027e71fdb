"""The text picture of a Marvel state (``__str__``), with character names."""

from __future__ import annotations

from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import COLOURS, Card
from splendor.reference.marvel.rules import MarvelRules


def _card_text(card: Card) -> str:
    cost = " ".join(f"{n}{A.LETTERS[c]}" for c, n in enumerate(card.cost) if n)
    extra = f" A{card.avengers}" if card.avengers else ""
    extra += " T" if card.time_stone else ""
    return f"{card.name} [{A.LETTERS[card.bonus]} {card.points}pt{extra}] ({cost})"


def render(s: MarvelRules) -> str:
    """A readable multi-line picture of the state (character names included)."""
    bank = " ".join(f"{A.TOKEN_LETTERS[c]}{n}" for c, n in enumerate(s.bank))
    status = "over" if s.phase == "over" else f"seat {s.current} to play ({s.phase})"
    lines = [f"Splendor: Marvel, turn {s.turn}, {status}", f"bank: {bank}"]
    for lv in (2, 1, 0):
        cells = ["-" if c is None else _card_text(s.data.cards[c]) for c in s.board[lv]]
        lines.append(f"L{lv + 1} ({len(s.decks[lv])} left): " + " | ".join(cells))
    locs = ", ".join(
        f"{s.data.locations[x].name} ("
        + " ".join(f"{n}{A.LETTERS[c]}" for c, n in enumerate(s.data.locations[x].requirement) if n)
        + ")"
        for x in s.locations
    )
    lines.append(f"locations: {locs or '-'}")
    for q, pl in enumerate(s.players):
        toks = " ".join(f"{A.TOKEN_LETTERS[c]}{n}" for c, n in enumerate(pl.tokens) if n)
        bon = " ".join(f"{n}{COLOURS[c][0]}" for c, n in enumerate(s.bonuses(q)) if n)
        tile = " +Avengers" if s.avengers == q else ""
        names = ", ".join(s.data.locations[x].name for x in pl.locations)
        lines.append(
            f"seat {q}: {s.points(q)} IP{tile}, tokens [{toks}], bonuses [{bon}], "
            f"{len(pl.cards)} cards, locations [{names}]"
        )
        for r in pl.reserved:
            hid = " (blind)" if r.hidden else ""
            lines.append(f"    reserved{hid}: {_card_text(s.data.cards[r.card])}")
    o = s.outcome()
    if o is not None:
        lines.append(f"result: {o.reason}, winners {list(o.winners)}")
    return "\n".join(lines)
