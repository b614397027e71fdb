"""Marvel observation vector (docs/marvel.md section 6) and the text picture."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from splendor.reference import marvel_actions as A
from splendor.reference.marvel_data import COLOURS, Card

if TYPE_CHECKING:
    from splendor.reference.marvel import MarvelState

PLAYER_BLOCK = 66


def _card_features(card: Card) -> list[float]:
    bonus = [0.0] * 5
    bonus[card.bonus] = 1.0
    return [
        float(card.level),
        float(card.points),
        float(card.avengers),
        float(card.time_stone),
        *bonus,
        *(float(c) for c in card.cost),
    ]


def observation(s: MarvelState, player: int) -> npt.NDArray[np.float32]:
    """The float32 observation of ``player``; reads nothing hidden from them."""
    from splendor.reference.marvel import OBSERVATION_SIZE, PHASES

    v: list[float] = [float(x) for x in s.bank]
    for lv in range(3):
        for c in s.board[lv]:
            v += [0.0] * 15 if c is None else [1.0, *_card_features(s.data.cards[c])]
    v += [float(len(d)) for d in s.decks]
    for i in range(4):
        if i < len(s.locations):
            v += [1.0, *(float(x) for x in s.data.locations[s.locations[i]].requirement)]
        else:
            v += [0.0] * 6
    n = s.num_players
    for k in range(4):
        if k >= n:
            v += [0.0] * PLAYER_BLOCK
            continue
        q = (player + k) % n
        pl = s.players[q]
        bon = s.bonuses(q)
        v += [float(x) for x in pl.tokens] + [float(x) for x in bon]
        v += [
            float(s.points(q)),
            float(len(pl.cards)),
            float(len(pl.locations)),
            float(s.icons(q)),
            float(s.avengers == q),
            float(s.meets_gauntlet(q)),
        ]
        for i in range(3):
            if i >= len(pl.reserved):
                v += [0.0] * 16
                continue
            r = pl.reserved[i]
            card = s.data.cards[r.card]
            if r.hidden and q != player:
                v += [1.0, 0.0, float(card.level)] + [0.0] * 13
            else:
                v += [1.0, 1.0, *_card_features(card)]
    v += [float(s.phase == ph) for ph in PHASES]
    pend = [0.0] * 15
    if s.pending is not None:
        pend[s.pending - A.RECRUIT] = 1.0
    v += pend
    v += [float(s.turn // n), float(any(s.meets_gauntlet(q) for q in range(n)))]
    v += [float(n == k) for k in (2, 3, 4)]
    assert len(v) == OBSERVATION_SIZE
    return np.array(v, dtype=np.float32)


def _card_text(card: Card) -> str:
    cost = " ".join(f"{n}{A.LETTERS[c]}" for c, n in enumerate(card.cost) if n)
    extra = f" A{card.avengers}" if card.avengers else ""
    extra += " T" if card.time_stone else ""
    return f"{card.name} [{A.LETTERS[card.bonus]} {card.points}pt{extra}] ({cost})"


def render(s: MarvelState) -> str:
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
