"""Canonical JSON of a Duel state and its validating loader (docs/duel.md, JSON)."""

from __future__ import annotations

from typing import Any, NoReturn

from splendor.errors import InvalidStateError
from splendor.reference.common import range_message
from splendor.reference.duel import actions as A
from splendor.reference.duel.cards import CARDS, KINDS, SLOTS, TOKEN_TOTALS, WILD
from splendor.reference.duel.rules import DuelRules
from splendor.reference.duel.state import (
    MAX_RESERVED,
    MAX_TURN_CAP,
    PHASES,
    PURCHASE_PHASES,
    DuelCore,
    PlayerState,
    Reserve,
    thresholds,
)

REASONS = ("points", "crowns", "colour", "truncated")


def to_obj(s: DuelCore, viewer: int | None) -> dict[str, Any]:
    """The JSON object of the full state (``viewer`` None) or of ``viewer``'s view."""

    def player(seat: int, p: PlayerState) -> dict[str, Any]:
        def reserve(r: Reserve) -> dict[str, Any]:
            seen = not r.hidden or viewer is None or viewer == seat
            return {"card": r.card if seen else None, "hidden": r.hidden, "level": r.level}

        return {
            "cards": sorted(p.cards),
            "jokers": [[c, p.jokers[c]] for c in sorted(p.jokers)],
            "privileges": p.privileges,
            "reserved": [reserve(r) for r in p.reserved],
            "royals": sorted(p.royals),
            "tokens": list(p.tokens),
        }

    over = s.phase == "over"
    return {
        "again": s.again,
        "bag": list(s.bag),
        "board": [None if k is None else KINDS[k] for k in s.board],
        "chance": None if viewer is not None else s.chance,
        "current": None if over else s.current,
        "deck_sizes": [len(d) for d in s.decks],
        "decks": None if viewer is not None else [list(d) for d in s.decks],
        "num_players": 2,
        "outcome": (
            {"reason": s.outcome_reason, "winners": list(s.outcome_winners)} if over else None
        ),
        "pending_buy": s.pending_buy,
        "pending_card": s.pending_card,
        "phase": s.phase,
        "players": [player(i, p) for i, p in enumerate(s.players)],
        "pyramid": [list(row) for row in s.pyramid],
        "replenished": s.replenished,
        "royals": sorted(s.royals),
        "royals_due": s.royals_due,
        "turn": s.turn,
        "turn_cap": s.turn_cap,
        "variant": "duel",
        "version": 1,
        "viewer": viewer,
    }


def _bad(message: str) -> NoReturn:
    raise InvalidStateError(f"invalid duel state: {message}")


def _get(obj: object, key: str, where: str = "") -> Any:
    if not isinstance(obj, dict):
        _bad(f"{where or 'state'} must be an object")
    if key not in obj:
        _bad(f"missing field `{where}{key}`")
    return obj[key]


def _int(value: object, where: str, hi: int) -> int:
    # bool is an int in Python but never a valid count in the format.
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= hi:
        _bad(range_message(f"`{where}`", 0, hi, repr(value)))
    return value


def _is(value: object, n: int) -> bool:
    # 1.0 == 1 and True == 1 in Python; the format wants the integer itself.
    return type(value) is int and value == n


def _list(value: object, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        _bad(f"`{where}` must be a list")
    if length is not None and len(value) != length:
        _bad(f"`{where}` must have {length} entries, not {len(value)}")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        _bad(f"`{where}` must be true or false")
    return value


def _counts(value: object, where: str) -> list[int]:
    return [_int(x, where, TOKEN_TOTALS[k]) for k, x in enumerate(_list(value, where, 7))]


def _card(value: object, where: str) -> int:
    return _int(value, where, len(CARDS) - 1)


class _Cards:
    """Checks that every card appears exactly once, in the right level where it matters."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def claim(self, card: int, level: int | None, where: str) -> None:
        if card in self.seen:
            _bad(f"card {card} appears twice (again in {where})")
        self.seen.add(card)
        if level is not None and CARDS[card].level != level:
            _bad(f"card {card} in {where} is not a level-{level} card")


def from_obj(obj: dict[str, Any], s: DuelRules) -> None:
    """Validate ``obj`` and fill ``s`` from it (InvalidStateError naming the problem)."""
    if _get(obj, "viewer") is not None:
        _bad("a player's view has hidden information removed and cannot be loaded")
    if _get(obj, "variant") != "duel":
        _bad('`variant` must be "duel"')
    if not _is(_get(obj, "version"), 1):
        _bad("`version` must be 1")
    if not _is(_get(obj, "num_players"), 2):
        _bad("`num_players` must be 2 in Splendor Duel")
    s.turn_cap = _int(_get(obj, "turn_cap"), "turn_cap", MAX_TURN_CAP)
    if s.turn_cap == 0:
        _bad(range_message("`turn_cap`", 1, MAX_TURN_CAP, 0))
    s.turn = _int(_get(obj, "turn"), "turn", 2 * s.turn_cap)
    s.chance = _int(_get(obj, "chance"), "chance", 2**64 - 1)
    phase = _get(obj, "phase")
    if phase not in PHASES:
        _bad("`phase` is not a Duel phase")
    s.phase = phase
    s.bag = _counts(_get(obj, "bag"), "bag")
    s.royals_due = _int(_get(obj, "royals_due"), "royals_due", 2)
    s.again = _bool(_get(obj, "again"), "again")
    s.replenished = _bool(_get(obj, "replenished"), "replenished")
    cards = _Cards()
    s.board = []
    for v in _list(_get(obj, "board"), "board", 25):
        if v is not None and (not isinstance(v, str) or len(v) != 1 or v not in KINDS):
            _bad("`board` cells must be one of w u g r k p y or null")
        s.board.append(None if v is None else KINDS.index(v))
    rows = _list(_get(obj, "pyramid"), "pyramid", 3)
    s.pyramid = []
    for level in range(3):
        row: list[int | None] = []
        for v in _list(rows[level], "pyramid", SLOTS[level]):
            if v is None:
                row.append(None)
            else:
                card = _card(v, "pyramid")
                cards.claim(card, level + 1, "the pyramid")
                row.append(card)
        s.pyramid.append(row)
    decks = _list(_get(obj, "decks"), "decks", 3)
    sizes = _list(_get(obj, "deck_sizes"), "deck_sizes", 3)
    s.decks = []
    for level in range(3):
        deck = _list(decks[level], "decks")
        if len(deck) > 25 or not _is(sizes[level], len(deck)):
            _bad("`deck_sizes` must match the decks")
        ids = [_card(v, "decks") for v in deck]
        for card in ids:
            cards.claim(card, level + 1, "a deck")
        s.decks.append(ids)
    s.players = []
    royal_seen: set[int] = set()
    raw_players = _list(_get(obj, "players"), "players", 2)
    for pj in raw_players:
        p = PlayerState()
        p.tokens = _counts(_get(pj, "tokens", "players[]."), "tokens")
        p.privileges = _int(_get(pj, "privileges", "players[]."), "privileges", 3)
        for v in _list(_get(pj, "cards", "players[]."), "cards"):
            card = _card(v, "cards")
            cards.claim(card, None, "a tableau")
            p.cards.add(card)
        reserved = _list(_get(pj, "reserved", "players[]."), "reserved")
        if len(reserved) > MAX_RESERVED:
            _bad("a player holds more than 3 reserved cards")
        for r in reserved:
            card = _card(_get(r, "card", "reserved[]."), "reserved card")
            level = _int(_get(r, "level", "reserved[]."), "level", 3)
            if level != CARDS[card].level:
                _bad(f"reserved card {card} is not level {level}")
            cards.claim(card, None, "a reserve")
            p.reserved.append(Reserve(card, _bool(_get(r, "hidden", "reserved[]."), "hidden")))
        for v in _list(_get(pj, "royals", "players[]."), "royals"):
            royal = _int(v, "royals", 3)
            if royal in royal_seen:
                _bad(f"royal {royal} appears twice")
            royal_seen.add(royal)
            p.royals.add(royal)
        s.players.append(p)
    s.royals = set()
    for v in _list(_get(obj, "royals"), "royals"):
        royal = _int(v, "royals", 3)
        if royal in royal_seen:
            _bad(f"royal {royal} appears twice")
        royal_seen.add(royal)
        s.royals.add(royal)
    if royal_seen != {0, 1, 2, 3}:
        _bad("every royal must be available or owned exactly once")
    if len(cards.seen) != len(CARDS):
        _bad("some cards are missing (each of the 67 must appear exactly once)")
    for k in range(7):
        n = s.bag[k] + s.board.count(k) + s.players[0].tokens[k] + s.players[1].tokens[k]
        if n != TOKEN_TOTALS[k]:
            _bad(f"there must be {TOKEN_TOTALS[k]} `{KINDS[k]}` tokens in all, found {n}")
    if s.players[0].privileges + s.players[1].privileges > 3:
        _bad("the players hold more than 3 privileges")
    _load_turn(obj, s)
    _load_jokers(raw_players, s)
    _check_phase(s)


def _load_turn(obj: dict[str, Any], s: DuelCore) -> None:
    current = _get(obj, "current")
    outcome = _get(obj, "outcome")
    s.outcome_reason, s.outcome_winners, s.current = None, (), 0
    if s.phase == "over":
        if current is not None:
            _bad("`current` must be null when the game is over")
        reason = _get(outcome, "reason", "outcome.")
        if reason not in REASONS:
            _bad("`outcome.reason` must be points, crowns, colour or truncated")
        s.outcome_reason = reason
        winners = {_int(w, "winners", 1) for w in _list(_get(outcome, "winners", "outcome."), "w")}
        s.outcome_winners = tuple(sorted(winners))
    else:
        s.current = _int(current, "current", 1)
        if outcome is not None:
            _bad("`outcome` must be null while the game goes on")
    pending_buy = _get(obj, "pending_buy")
    s.pending_buy = None
    if pending_buy is not None:
        s.pending_buy = _int(pending_buy, "pending_buy", A.BUY_RESERVED + 2)
        if s.pending_buy < A.BUY:
            _bad("`pending_buy` must be a buy action id")
    pending_card = _get(obj, "pending_card")
    s.pending_card = None if pending_card is None else _card(pending_card, "pending_card")


def _load_jokers(raw_players: list[Any], s: DuelCore) -> None:
    placed: set[int] = set()
    for seat, pj in enumerate(raw_players):
        p = s.players[seat]
        real = p.real_colours()
        for e in _list(_get(pj, "jokers", "players[]."), "jokers"):
            pair = _list(e, "jokers", 2)
            card = _card(pair[0], "jokers")
            colour = _int(pair[1], "jokers colour", 4)
            if CARDS[card].bonus != WILD or card not in p.cards:
                _bad(f"jokers lists card {card}, which is not a joker of this player")
            if card in placed:
                _bad(f"joker {card} is placed twice")
            if colour not in real:
                _bad(f"joker {card} is on a colour without a real card")
            placed.add(card)
            p.jokers[card] = colour
        for card in p.cards:
            pending = s.phase == "joker" and s.pending_card == card
            if CARDS[card].bonus == WILD and (card not in p.jokers) != pending:
                _bad(f"joker {card} must be placed (only the joker being bought may be unplaced)")


def _check_phase(s: DuelRules) -> None:
    p = s.current
    o = 1 - p
    me, opp = s.players[p], s.players[o]
    buying = s.phase in PURCHASE_PHASES
    if (s.pending_buy is not None) != (s.phase == "pay"):
        _bad("`pending_buy` is set exactly in phase `pay`")
    if (s.pending_card is not None) != buying:
        _bad("`pending_card` is set exactly in phases joker, token, steal and royal")
    if buying and s.pending_card not in me.cards:
        _bad("`pending_card` must be owned by the current player")
    for q, pl in enumerate(s.players):
        due = s.royals_due if q == p else 0
        if len(pl.royals) + due != thresholds(pl.crowns()):
            _bad(f"player {q} must hold one royal per crown threshold crossed")
    if s.royals_due > 0 and not buying:
        _bad("`royals_due` is non-zero only while a purchase resolves")
    if s.phase != "over" and sum(opp.tokens) > 10:
        _bad("the player not on turn holds more than 10 tokens")
    # Discards come before the victory check: a finished game has nobody over 10 tokens.
    if s.phase == "over" and max(sum(me.tokens), sum(opp.tokens)) > 10:
        _bad("a player holds more than 10 tokens in an over state")
    if s.phase != "over" and s.turn >= 2 * s.turn_cap:
        _bad("`turn` has reached the turn cap but the game is not over")
    pc = s.pending_card if s.pending_card is not None else 0
    if s.phase == "main":
        ok = sum(me.tokens) <= 13
    elif s.phase == "reserve":
        ok = len(me.reserved) < MAX_RESERVED and s.can_reserve_something()
    elif s.phase == "pay":
        # A card being bought is shown: a pending buy of a still-hidden reserve is unreachable.
        buy = s.pending_buy or 0
        i = buy - A.BUY_RESERVED
        shown = i < 0 or i >= len(me.reserved) or not me.reserved[i].hidden
        card = s.buy_card(buy)
        ok = shown and card is not None and s.can_buy(p, card) and len(s.payments(p, card)) > 1
    elif s.phase == "joker":
        ok = CARDS[pc].bonus == WILD and len(me.real_colours()) >= 2
    elif s.phase == "token":
        colour = CARDS[pc].bonus % 5
        ok = "token" in CARDS[pc].abilities and s.board.count(colour) >= 2
    elif s.phase == "steal":
        ok = sum(1 for k in range(6) if opp.tokens[k] > 0) >= 2
    elif s.phase == "royal":
        ok = s.royals_due > 0 and len(s.royals) >= 2
    elif s.phase == "discard":
        ok = sum(me.tokens) > 10
    else:
        ok = _check_over(s)
    if not ok:
        _bad(f"the state is not consistent with phase `{s.phase}`")


def _check_over(s: DuelCore) -> bool:
    winners = s.outcome_winners
    if s.outcome_reason == "truncated":
        return not winners and s.turn >= 2 * s.turn_cap
    if len(winners) != 1:
        return False
    w = s.players[winners[0]]
    if s.outcome_reason == "points":
        return w.points() >= 20
    if s.outcome_reason == "crowns":
        return w.crowns() >= 10
    return max(w.colour_points()) >= 10
