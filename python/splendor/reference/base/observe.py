"""What a player may see: the observation vector (docs/base.md, Observation) and determinization."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from splendor.reference.base import actions as A
from splendor.reference.base.cards import CARDS, NOBLES, NUM_LEVELS, SLOTS
from splendor.reference.base.state import PHASES, WINNING_POINTS, BaseCore, Reserve
from splendor.reference.rng import SplitMix64

OBSERVATION_SIZE = 432
MAX_SEATS = 4
MAX_NOBLES = 5
PLAYER_BLOCK = 56


def _card_features(card: int) -> list[float]:
    """[level, points, bonus one-hot 5, cost 5]."""
    c = CARDS[card]
    bonus = [0.0] * 5
    bonus[c.bonus] = 1.0
    return [float(c.level), float(c.points), *bonus, *(float(x) for x in c.cost)]


def _reserve_features(r: Reserve | None, known: bool) -> list[float]:
    """[present, known, level, points, bonus one-hot 5, cost 5]."""
    if r is None:
        return [0.0] * 14
    if not known:
        return [1.0, 0.0, float(r.level)] + [0.0] * 11
    return [1.0, 1.0, *_card_features(r.card)]


def observation(state: BaseCore, player: int) -> npt.NDArray[np.float32]:
    """The observation of ``player`` (seats relative to the observer); nothing hidden leaks."""
    n = state.num_players
    out: list[float] = [float(x) for x in state.bank]
    for level in range(NUM_LEVELS):
        for slot in range(SLOTS):
            card = state.board[level][slot]
            # No separate "present" flag: level >= 1 marks a card, all zeros an empty slot.
            out += [0.0] * 12 if card is None else _card_features(card)
    out += [float(len(d)) for d in state.decks]
    for i in range(MAX_NOBLES):
        if i < len(state.nobles):
            out += [1.0, *(float(x) for x in NOBLES[state.nobles[i]].req)]
        else:
            out += [0.0] * 6
    for rel in range(MAX_SEATS):
        if rel >= n:
            out += [0.0] * PLAYER_BLOCK
            continue
        seat = (player + rel) % n
        p = state.players[seat]
        out += [float(x) for x in p.tokens]
        out += [float(x) for x in p.bonuses()]
        out += [float(p.points()), float(len(p.cards)), float(len(p.nobles))]
        for i in range(3):
            r = p.reserved[i] if i < len(p.reserved) else None
            out += _reserve_features(r, r is not None and (seat == player or not r.hidden))
    out += [1.0 if state.phase == ph else 0.0 for ph in PHASES]
    pending = [0.0] * 15
    if state.pending is not None:
        pending[state.pending - A.BUY_UP] = 1.0
    out += pending
    last_round = any(s >= WINNING_POINTS for s in state.scores())
    out += [float(state.turn // n), 1.0 if last_round else 0.0]
    out += [1.0 if n == k else 0.0 for k in (2, 3, 4)]
    assert len(out) == OBSERVATION_SIZE
    return np.array(out, dtype=np.float32)


def determinize(out: BaseCore, observer: int, rng: SplitMix64) -> None:
    """Resample in place what ``observer`` cannot see (docs/contract.md, Randomness)."""
    for level in range(NUM_LEVELS):
        slots = [
            r
            for seat, p in enumerate(out.players)
            if seat != observer
            for r in p.reserved
            if r.hidden and r.level == level + 1
        ]
        pool = sorted([r.card for r in slots] + out.decks[level])
        rng.shuffle(pool)
        for r, card in zip(slots, pool[: len(slots)], strict=True):
            r.card = card
        out.decks[level] = pool[len(slots) :]
