"""Why an action is not legal now, in words (docs/contract.md, *Why an action is illegal*).

The base game and Marvel share the rules these explain, so :func:`explain_main_game`
is written once over :class:`MainGameWords` (the names each variant gives its
colours, its wild token, its buy verb and its tiles); the Rust engine mirrors
it word for word (``src/explain.rs``) and the differential tests compare the two.
Each variant's ``explain`` module gives its own words and reads its own state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from splendor.reference.base import actions as A
from splendor.reference.base.cards import SLOTS
from splendor.reference.base.state import MAX_RESERVED

NOT_EXPLAINED = "it is not legal in this position"
"""The reason given for an action that no rule below explains (a legal one)."""


@dataclass(frozen=True)
class MainGameWords:
    """The words of one variant of the base rules."""

    colours: tuple[str, ...]
    """Colour names, wild token last (6)."""
    letters: str
    """Colour letters, wild token last (6)."""
    buy: str
    """``buy`` / ``recruit``."""
    tile: str
    """``noble`` / ``location``."""
    tiles_come: str
    """How a tile choice is put: ``several nobles can visit you``."""


class MainGame(Protocol):
    """What :func:`explain_main_game` reads of a base or Marvel state (mover first)."""

    phase: str

    def bank_of(self, colour: int) -> int: ...
    def tokens_of(self, colour: int) -> int: ...
    def token_total(self) -> int: ...
    def bonuses(self) -> Sequence[int]: ...
    def reserved_count(self) -> int: ...
    def slot_card_cost(self, level: int, slot: int) -> Sequence[int] | None: ...
    def reserved_card_cost(self, index: int) -> Sequence[int] | None: ...
    def pending_text(self) -> str: ...
    def pending_cost(self) -> Sequence[int]: ...
    def tile_on_display(self, tile: int) -> bool: ...


def amounts(letters: str, counts: Sequence[int]) -> str:
    """``2w 1r``: the nonzero counts, amount then letter."""
    return " ".join(f"{n}{letters[c]}" for c, n in enumerate(counts) if n > 0)


def lack_reason(
    letters: str,
    cost: Sequence[int],
    bonuses: Sequence[int],
    held: Sequence[int],
    wild: int,
    wild_name: str,
) -> str | None:
    """``you cannot afford it: ...`` when the tokens missing exceed the wild tokens held.

    ``bonuses`` may be shorter than ``cost`` (Duel's pearls have no bonus).
    """
    lack = [
        max(0, cost[c] - (bonuses[c] if c < len(bonuses) else 0) - held[c])
        for c in range(len(cost))
    ]
    if sum(lack) <= wild:
        return None
    return f"you cannot afford it: you lack {amounts(letters, lack)} and hold {wild} {wild_name}"


def payment_reason(
    words: MainGameWords,
    kinds: int,
    need: Sequence[int],
    held: Sequence[int],
    wild: int,
    vector: Sequence[int],
) -> str:
    """Why a wild-token vector is not a payment of a card needing ``need`` (after bonuses)."""
    name = words.colours[-1]
    if sum(vector) > wild:
        return f"it uses {sum(vector)} {name} and you hold {wild}"
    for c in range(kinds):
        if vector[c] > need[c]:
            return f"it puts {vector[c]} {name} on {words.colours[c]}, which needs only {need[c]}"
        if need[c] - vector[c] > held[c]:
            return (
                f"{words.colours[c]} needs {need[c]} and you hold {held[c]}:"
                f" put at least {need[c] - held[c]} {name} on it"
            )
    return NOT_EXPLAINED


def _phase_task(state: MainGame, words: MainGameWords) -> str:
    if state.phase == "main":
        return f"choose a main action first (take, reserve or {words.buy})"
    if state.phase == "pay":
        return f"first choose how to pay for `{state.pending_text()}`"
    if state.phase == "return":
        return f"you hold {state.token_total()} tokens: return one first (`return x`)"
    return f"{words.tiles_come}: choose one first (`{words.tile} n`)"


def _phase_of(a: int) -> str:
    """Which phase's decisions action ``a`` belongs to (one numbering for base and Marvel).

    Marvel numbers its actions like the base game up to ``location`` (66..73) and
    ``pay`` (74..325); the caller maps Marvel ids to base ids first.
    """
    if a < A.RETURN or a == A.PASS:
        return "main"
    if a < A.NOBLE:
        return "return"
    if a < A.PAY:
        return "tile"
    return "pay"


def explain_main_game(state: MainGame, words: MainGameWords, a: int, tile: int | None) -> str:
    """The reason ``a`` (numbered as in the base game) is illegal in ``state``.

    ``tile`` is the noble / location id a tile action names (its ids differ
    between the variants).
    """
    kind = _phase_of(a)
    phase = state.phase
    if kind != ("tile" if phase in ("noble", "location") else phase):
        return _phase_task(state, words)
    colours, letters = words.colours, words.letters
    wild = state.tokens_of(5)
    if kind == "return":
        c = a - A.RETURN
        return f"you hold no {colours[c]} token"
    if kind == "tile":
        assert tile is not None
        if not state.tile_on_display(tile):
            return f"{words.tile} {tile} is not on display"
        return f"your bonuses do not meet {words.tile} {tile}'s needs"
    if kind == "pay":
        vector = A.GOLD_VECTORS[a - A.PAY]
        cost = state.pending_cost()
        need = [max(0, cost[c] - state.bonuses()[c]) for c in range(5)]
        held = [state.tokens_of(c) for c in range(5)]
        return payment_reason(words, 5, need, held, wild, vector)
    if a == A.PASS:
        return "pass is allowed only when no other action is"
    if a < A.DOUBLE:
        colour_set = (
            A.TRIPLES[a - A.TAKE3]
            if a < A.TAKE2
            else A.PAIRS[a - A.TAKE2]
            if a < A.TAKE1
            else (a - A.TAKE1,)
        )
        for c in colour_set:
            if state.bank_of(c) == 0:
                return f"the bank has no {colours[c]} token"
        left = sum(1 for c in range(5) if state.bank_of(c) > 0)
        return (
            f"the bank has {left} colours: take 3 different ones"
            " (fewer only when fewer than 3 colours are left)"
        )
    if a < A.RESERVE_UP:
        c = a - A.DOUBLE
        return (
            f"the {colours[c]} pile has {state.bank_of(c)} tokens:"
            " taking 2 of one colour needs at least 4"
        )
    if a < A.BUY_UP:
        if state.reserved_count() >= MAX_RESERVED:
            return f"you already hold {MAX_RESERVED} reserved cards"
        if a < A.RESERVE_DECK:
            level, slot = divmod(a - A.RESERVE_UP, SLOTS)
            return f"slot {level + 1}.{slot + 1} is empty"
        return f"the level {a - A.RESERVE_DECK + 1} deck is empty"  # the only other reason
    if a < A.BUY_RESERVED:
        level, slot = divmod(a - A.BUY_UP, SLOTS)
        price = state.slot_card_cost(level, slot)
        if price is None:
            return f"slot {level + 1}.{slot + 1} is empty"
    else:
        index = a - A.BUY_RESERVED
        price = state.reserved_card_cost(index)
        if price is None:
            return f"you have no reserved card {index + 1}"
    held = [state.tokens_of(c) for c in range(5)]
    reason = lack_reason(letters, price, state.bonuses(), held, wild, colours[5])
    return NOT_EXPLAINED if reason is None else reason
