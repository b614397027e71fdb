"""Why a Splendor Duel action is not legal now, in words.

The reasons and their order are specified in docs/contract.md (*Why an action is
illegal*) and mirrored word for word by the Rust engine; the differential tests
compare the two.
"""

from __future__ import annotations

from splendor.reference.duel import actions as A
from splendor.reference.duel.board import LINES, cell_name
from splendor.reference.duel.cards import CARDS, COLOURS, GOLD, KINDS, WILD
from splendor.reference.duel.rules import DuelRules
from splendor.reference.duel.state import MAX_RESERVED
from splendor.reference.explain import NOT_EXPLAINED, lack_reason

KIND_NAMES = (*COLOURS, "pearl", "gold")


def slot_name(slot: int) -> str:
    """``2.3`` for pyramid slot index ``slot`` (level-major)."""
    level, number = A.LEVEL_SLOT[slot]
    return f"{level}.{number}"


def phase_of(a: int) -> str:
    """The phase whose decisions include action ``a``."""
    if a < A.RESERVE or A.BUY <= a < A.PAY or a == A.PASS:
        return "main"
    if a < A.BUY:
        return "reserve"
    if a < A.TOKEN:
        return "pay"
    if a < A.STEAL:
        return "token"
    if a < A.JOKER:
        return "steal"
    if a < A.ROYAL:
        return "joker"
    if a < A.DISCARD:
        return "royal"
    return "discard"


def _phase_task(s: DuelRules, a: int) -> str:
    phase = s.phase
    if phase == "main":
        if phase_of(a) == "reserve":
            return "take a gold token first (`gold <cell>`): reserving starts with it"
        return "choose a main action first (take, gold or buy)"
    if phase == "reserve":
        return "choose the card to reserve first (`reserve L.s` or `reserve deck L`)"
    if phase == "pay":
        assert s.pending_buy is not None
        return f"first choose how to pay for `{A.action_text(s.pending_buy)}`"
    if phase == "joker":
        return "choose the colour of your joker first (`joker x`)"
    if phase == "token":
        colour = KIND_NAMES[CARDS[s.pending_card or 0].bonus]
        return f"take a {colour} token with the card's ability first (`token <cell>`)"
    if phase == "steal":
        return "steal a token first (`steal x`)"
    if phase == "royal":
        return "choose a royal card first (`royal n`)"
    held = sum(s.players[s.current].tokens)
    return f"you hold {held} tokens: discard one first (`discard x`)"


def _buy_reason(s: DuelRules, card: int | None, empty: str) -> str:
    me = s.players[s.current]
    if card is None:
        return empty
    if CARDS[card].bonus == WILD and not me.real_colours():
        return "a joker joins the colour of one of your cards, and you have none"
    reason = lack_reason(KINDS, CARDS[card].cost, me.bonuses(), me.tokens, me.tokens[GOLD], "gold")
    return NOT_EXPLAINED if reason is None else reason


def _payment_reason(s: DuelRules, vector: tuple[int, ...]) -> str:
    me = s.players[s.current]
    card = s.buy_card(s.pending_buy or 0)
    assert card is not None
    need = s.need(s.current, card)
    gold = me.tokens[GOLD]
    if sum(vector) > gold:
        return f"it uses {sum(vector)} gold and you hold {gold}"
    for k in range(6):
        if vector[k] > need[k]:
            return f"it puts {vector[k]} gold on {KIND_NAMES[k]}, which needs only {need[k]}"
        if need[k] - vector[k] > me.tokens[k]:
            return (
                f"{KIND_NAMES[k]} needs {need[k]} and you hold {me.tokens[k]}:"
                f" put at least {need[k] - me.tokens[k]} gold on it"
            )
    return NOT_EXPLAINED


def _main_reason(s: DuelRules, a: int) -> str:
    me = s.players[s.current]
    if a < A.PRIVILEGE:
        for cell in sorted(LINES[a]):
            if s.board[cell] is None:
                return f"{cell_name(cell)} is empty"
            if s.board[cell] == GOLD:
                return (
                    f"{cell_name(cell)} holds gold: gold is taken only with"
                    f" `gold {cell_name(cell)}`, to reserve a card"
                )
        return NOT_EXPLAINED
    if a < A.REPLENISH:
        cell = a - A.PRIVILEGE
        if me.privileges == 0:
            return "you hold no privilege"
        if s.replenished:
            return "privileges are used before replenishing, and you replenished this turn"
        if s.board[cell] is None:
            return f"{cell_name(cell)} is empty"
        return "a privilege cannot take gold"
    if a == A.REPLENISH:
        if s.replenished:
            return "you already replenished this turn"
        return "the bag is empty"
    if a < A.RESERVE:
        cell = a - A.GOLD
        if s.board[cell] != GOLD:
            return f"{cell_name(cell)} holds no gold"
        if len(me.reserved) >= MAX_RESERVED:
            return f"you already hold {MAX_RESERVED} reserved cards"
        return "there is no card left to reserve"
    if a == A.PASS:
        return "pass is allowed only when no other action is"
    if a < A.BUY_RESERVED:
        slot = a - A.BUY
        return _buy_reason(s, s.slot_card(slot), f"slot {slot_name(slot)} is empty")
    index = a - A.BUY_RESERVED
    return _buy_reason(s, s.buy_card(a), f"you have no reserved card {index + 1}")


def explain_illegal(s: DuelRules, a: int) -> str:
    """Why action id ``a`` is not legal in the Duel state ``s`` (not over)."""
    kind = phase_of(a)
    if kind != s.phase:
        return _phase_task(s, a)
    if kind == "main":
        return _main_reason(s, a)
    if kind == "reserve":
        if a < A.RESERVE_DECK:
            return f"slot {slot_name(a - A.RESERVE)} is empty"
        return f"the level {a - A.RESERVE_DECK + 1} deck is empty"
    if kind == "pay":
        return _payment_reason(s, A.PAYMENTS[a - A.PAY])
    if kind == "token":
        colour = KIND_NAMES[CARDS[s.pending_card or 0].bonus]
        return f"{cell_name(a - A.TOKEN)} holds no {colour} token"
    if kind == "steal":
        return f"seat {1 - s.current} holds no {KIND_NAMES[a - A.STEAL]} token"
    if kind == "joker":
        return f"you own no {COLOURS[a - A.JOKER]} card for the joker to join"
    if kind == "royal":
        return f"royal {a - A.ROYAL} is already taken"
    return f"you hold no {KIND_NAMES[a - A.DISCARD]} token"
