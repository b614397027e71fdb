"""Why a base-game action is not legal now: the shared main-game reasons
(:mod:`splendor.reference.explain`) read from a base state, in the base game's words."""

from __future__ import annotations

from collections.abc import Sequence

from splendor.reference.base import actions as A
from splendor.reference.base.cards import COLOURS, LETTERS, NOBLES
from splendor.reference.base.rules import BaseRules
from splendor.reference.explain import MainGameWords, explain_main_game

BASE_WORDS = MainGameWords(
    (*COLOURS, "gold"), LETTERS + "y", "buy", "noble", "several nobles can visit you"
)


class _BaseView:
    """:class:`MainGame` over a base reference state."""

    def __init__(self, state: BaseRules) -> None:
        self.s = state
        self.phase = state.phase
        self.me = state.mover()

    def bank_of(self, colour: int) -> int:
        return self.s.bank[colour]

    def tokens_of(self, colour: int) -> int:
        return self.me.tokens[colour]

    def token_total(self) -> int:
        return sum(self.me.tokens)

    def bonuses(self) -> Sequence[int]:
        return self.me.bonuses()

    def reserved_count(self) -> int:
        return len(self.me.reserved)

    def slot_card_cost(self, level: int, slot: int) -> Sequence[int] | None:
        card = self.s.buy_target(A.slot_id(A.BUY_UP, level + 1, slot))
        return None if card is None else card.cost

    def reserved_card_cost(self, index: int) -> Sequence[int] | None:
        card = self.s.buy_target(A.BUY_RESERVED + index)
        return None if card is None else card.cost

    def pending_text(self) -> str:
        assert self.s.pending is not None
        return A.action_text(self.s.pending)

    def pending_cost(self) -> Sequence[int]:
        assert self.s.pending is not None
        card = self.s.buy_target(self.s.pending)
        assert card is not None
        return card.cost

    def tile_on_display(self, tile: int) -> bool:
        return tile in self.s.nobles and tile < len(NOBLES)


def explain_illegal(state: BaseRules, a: int) -> str:
    """Why action id ``a`` is not legal in the base-game ``state`` (not over)."""
    tile = a - A.NOBLE if A.NOBLE <= a < A.PAY else None
    return explain_main_game(_BaseView(state), BASE_WORDS, a, tile)
