"""What a player may see: the Marvel observation vector (docs/marvel.md section 6) and
determinization."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import Card
from splendor.reference.marvel.state import PHASES, MarvelCore
from splendor.reference.rng import SplitMix64

OBSERVATION_SIZE = 503
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


def observation(s: MarvelCore, player: int) -> npt.NDArray[np.float32]:
    """The float32 observation of ``player``; reads nothing hidden from them."""
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


def determinize(out: MarvelCore, player: int, rng: SplitMix64) -> None:
    """Resample in place every level's pool (opponents' blind reserves + deck), sorted then
    shuffled."""
    for lv in range(3):
        slots = [
            r
            for q in range(out.num_players)
            if q != player
            for r in out.players[q].reserved
            if r.hidden and out.data.cards[r.card].level == lv + 1
        ]
        pool = sorted([r.card for r in slots] + out.decks[lv])
        rng.shuffle(pool)
        for r in slots:
            r.card = pool.pop(0)
        out.decks[lv] = pool
