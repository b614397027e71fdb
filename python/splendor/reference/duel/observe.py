"""What a player may see: the observation vector (docs/duel.md, Observation) and
determinization (docs/duel.md, Chance)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from splendor.reference.duel.cards import ABILITIES, CARDS
from splendor.reference.duel.rules import DuelRules
from splendor.reference.duel.state import PHASES, DuelCore
from splendor.reference.rng import SplitMix64

OBSERVATION_SIZE = 696


def _card_features(card: int | None) -> list[float]:
    """[present, level, points, crowns, bonus one-hot 7, bonus_count, abilities 5, cost 6]."""
    if card is None:
        return [0.0] * 23
    c = CARDS[card]
    bonus = [0.0] * 7
    bonus[c.bonus] = 1.0
    abilities = [1.0 if a in c.abilities else 0.0 for a in ABILITIES]
    head = [1.0, float(c.level), float(c.points), float(c.crowns)]
    return [*head, *bonus, float(c.bonus_count), *abilities, *(float(x) for x in c.cost)]


def observation(s: DuelRules, me: int) -> npt.NDArray[np.float32]:
    """Float32 vector of length 696 (docs/duel.md, Observation) from seat ``me``."""
    out: list[float] = []
    for k in s.board:
        cell = [0.0] * 7
        if k is not None:
            cell[k] = 1.0
        out += cell
    out += [float(x) for x in s.bag]
    for level in range(3):
        for card in s.pyramid[level]:
            out += _card_features(card)
    out += [float(len(d)) for d in s.decks]
    out += [1.0 if r in s.royals else 0.0 for r in range(4)]
    out.append(float(s.supply()))
    for q in (me, 1 - me):
        pl = s.players[q]
        out += [float(x) for x in pl.tokens]
        out += [float(x) for x in pl.bonuses()]
        out += [float(x) for x in pl.colour_points()]
        out += [float(pl.points()), float(pl.crowns()), float(pl.privileges)]
        out += [1.0 if r in pl.royals else 0.0 for r in range(4)]
        out.append(float(len(pl.cards)))
        for i in range(3):
            if i >= len(pl.reserved):
                out += [0.0] * 24
            elif pl.reserved[i].hidden and q != me:
                out += [0.0, 1.0, float(pl.reserved[i].level)] + [0.0] * 21
            else:
                out += [1.0, *_card_features(pl.reserved[i].card)]
    out += [1.0 if ph == s.phase else 0.0 for ph in PHASES]
    out += [float(s.replenished), float(s.again), float(s.royals_due)]
    pending = s.pending_card
    if pending is None and s.phase == "pay":
        pending = s.buy_card(s.pending_buy or 0)
    out += _card_features(pending)
    out.append(float(s.turn // 2))
    assert len(out) == OBSERVATION_SIZE
    return np.array(out, dtype=np.float32)


def determinize(out: DuelCore, observer: int, rng: SplitMix64) -> None:
    """Resample in place what ``observer`` cannot see (docs/duel.md, Chance).

    Per level, the opponent's blind reserves of that level and the deck are
    pooled, sorted, shuffled with ``rng`` and dealt back (reserves first, then
    the deck from the top); then the bag's chance seed is redrawn.
    """
    opp = out.players[1 - observer]
    for level in range(3):
        slots = [r for r in opp.reserved if r.hidden and r.level == level + 1]
        pool = sorted([r.card for r in slots] + out.decks[level])
        rng.shuffle(pool)
        for r, card in zip(slots, pool[: len(slots)], strict=True):
            r.card = card
        out.decks[level] = pool[len(slots) :]
    out.chance = rng.next_u64()
