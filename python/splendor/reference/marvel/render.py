"""The text picture of a Marvel state (``__str__``), in the layout every variant shares
(:mod:`splendor.reference.picture`), with character and location names."""

from __future__ import annotations

from splendor.reference import picture
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import Card
from splendor.reference.marvel.rules import MarvelRules


def _card_text(card: Card) -> str:
    """``Thor R 3pt A2 T cost 5p 3b 3r 3y``: name, bonus colour, points, Avengers icons,
    Time stone, cost."""
    text = f"{card.name} {A.LETTERS[card.bonus].upper()} {card.points}pt"
    text += f" A{card.avengers}" if card.avengers else ""
    text += " T" if card.time_stone else ""
    return f"{text} cost {picture.cost(A.LETTERS, card.cost)}"


def render(s: MarvelRules) -> str:
    """A readable multi-line picture of the state (character names included)."""
    to_play = None if s.phase == "over" else (s.current, s.phase)
    p = picture.Picture("Splendor: Marvel", s.num_players, s.turn, to_play)
    p.line(f"bank: {picture.tokens(A.TOKEN_LETTERS, s.bank, True)}")
    p.list(
        "locations",
        [
            f"{loc.name} {loc.points}pt ({picture.cost(A.LETTERS, loc.requirement)})"
            for loc in (s.data.locations[x] for x in s.locations)
        ],
    )
    for lv in (2, 1, 0):
        row = [None if c is None else _card_text(s.data.cards[c]) for c in s.board[lv]]
        p.card_row(lv + 1, len(s.decks[lv]), row)
    for q, pl in enumerate(s.players):
        tile = " +Avengers" if s.avengers == q else ""
        names = ", ".join(s.data.locations[x].name for x in pl.locations)
        p.seat(
            q,
            [
                f"{s.points(q)} points{tile}",
                f"tokens [{picture.tokens(A.TOKEN_LETTERS, pl.tokens, False)}]",
                f"bonuses [{picture.bonuses(A.LETTERS, s.bonuses(q))}]",
                f"{len(pl.cards)} cards",
                f"locations [{names}]",
            ],
        )
        for r in pl.reserved:
            p.reserved(_card_text(s.data.cards[r.card]), r.hidden)
    o = s.outcome()
    if o is not None:
        p.result(o.reason, o.winners)
    return p.finish()
