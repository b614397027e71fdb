"""Why a Marvel action is not legal now: the base game's reasons in Marvel's words.

Marvel numbers its actions like the base game up to ``return`` (0..65); its
``location`` ids (66..73), ``pay`` ids (74..325) and ``pass`` (326) are mapped to the
base numbering, and :func:`~splendor.reference.explain.explain_main_game`
gives the reason (docs/contract.md, *Why an action is illegal*).
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.reference.base import actions as B
from splendor.reference.explain import MainGameWords, explain_main_game
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import COLOURS, LETTERS
from splendor.reference.marvel.rules import MarvelRules

MARVEL_WORDS = MainGameWords(
    (*COLOURS, "grey"), LETTERS + "s", "recruit", "location", "several locations can come to you"
)


def base_numbering(a: int) -> int:
    """The base-game id of the same kind of decision as Marvel id ``a``."""
    if a < A.LOCATION:
        return a
    if a < A.PAY:
        return B.NOBLE + (a - A.LOCATION)
    if a < A.PASS:
        return B.PAY + (a - A.PAY)
    return B.PASS


class _MarvelView:
    """:class:`~splendor.reference.explain.MainGame` over a Marvel reference state."""

    def __init__(self, state: MarvelRules) -> None:
        self.s = state
        self.phase = state.phase
        self.me = state.players[state.current]

    def bank_of(self, colour: int) -> int:
        return self.s.bank[colour]

    def tokens_of(self, colour: int) -> int:
        return self.me.tokens[colour]

    def token_total(self) -> int:
        return sum(self.me.tokens)

    def bonuses(self) -> Sequence[int]:
        return self.s.bonuses(self.s.current)

    def reserved_count(self) -> int:
        return len(self.me.reserved)

    def _cost(self, a: int) -> Sequence[int] | None:
        card = self.s._card_at(a)
        return None if card is None else self.s.data.cards[card].cost

    def slot_card_cost(self, level: int, slot: int) -> Sequence[int] | None:
        return self._cost(A.RECRUIT + 4 * level + slot)

    def reserved_card_cost(self, index: int) -> Sequence[int] | None:
        return self._cost(A.RECRUIT_RES + index)

    def pending_text(self) -> str:
        assert self.s.pending is not None
        return A.ALL_TEXT[self.s.pending]

    def pending_cost(self) -> Sequence[int]:
        assert self.s.pending is not None
        cost = self._cost(self.s.pending)
        assert cost is not None
        return cost

    def tile_on_display(self, tile: int) -> bool:
        return tile in self.s.locations


def explain_illegal(state: MarvelRules, a: int) -> str:
    """Why Marvel action id ``a`` is not legal in ``state`` (not over)."""
    tile = a - A.LOCATION if A.LOCATION <= a < A.PAY else None
    return explain_main_game(_MarvelView(state), MARVEL_WORDS, base_numbering(a), tile)
