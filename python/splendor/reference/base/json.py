"""The base game's JSON form (docs/base.md, JSON): writing, and validating on load.

Loading checks everything ``from_json`` must reject before a state is built, and
names the problem in the InvalidStateError message.
"""

from __future__ import annotations

from typing import Any, NoReturn

from splendor.errors import InvalidStateError
from splendor.reference.base import actions as A
from splendor.reference.base.cards import CARDS, NOBLES, NUM_LEVELS, SLOTS
from splendor.reference.base.rules import BaseRules, payments
from splendor.reference.base.state import (
    GEMS_PER_COLOUR,
    GOLD_TOKENS,
    MAX_RESERVED,
    MAX_TURN_CAP,
    PHASES,
    TOKEN_LIMIT,
    WINNING_POINTS,
    BaseCore,
    PlayerState,
    Reserve,
)
from splendor.reference.common import range_message

VERSION = 1
KEYS = {
    "bank",
    "board",
    "current",
    "deck_sizes",
    "decks",
    "nobles",
    "num_players",
    "passes",
    "pending",
    "phase",
    "players",
    "turn",
    "turn_cap",
    "variant",
    "version",
    "viewer",
}
PLAYER_KEYS = {"cards", "nobles", "reserved", "tokens"}
RESERVE_KEYS = {"card", "hidden", "level"}


def to_obj(state: BaseCore, viewer: int | None) -> dict[str, Any]:
    """The JSON object of the full state (``viewer`` None) or of ``viewer``'s view."""

    def reserve(seat: int, r: Reserve) -> dict[str, Any]:
        seen = viewer is None or seat == viewer or not r.hidden
        return {"card": r.card if seen else None, "hidden": r.hidden, "level": r.level}

    return {
        "bank": list(state.bank),
        "board": [list(row) for row in state.board],
        "current": state.current,
        "deck_sizes": [len(d) for d in state.decks],
        "decks": [list(d) for d in state.decks] if viewer is None else None,
        "nobles": list(state.nobles),
        "num_players": state.num_players,
        "passes": state.passes,
        "pending": state.pending,
        "phase": state.phase,
        "players": [
            {
                "cards": list(p.cards),
                "nobles": list(p.nobles),
                "reserved": [reserve(seat, r) for r in p.reserved],
                "tokens": list(p.tokens),
            }
            for seat, p in enumerate(state.players)
        ],
        "turn": state.turn,
        "turn_cap": state.turn_cap,
        "variant": "base",
        "version": VERSION,
        "viewer": viewer,
    }


def _bad(message: str) -> NoReturn:
    raise InvalidStateError(f"invalid base state: {message}")


def _int(value: object, where: str, lo: int, hi: int) -> int:
    # bool is an int in Python but never a valid count in the format.
    if not isinstance(value, int) or isinstance(value, bool):
        _bad(f"{where} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        _bad(range_message(where, lo, hi, value))
    return value


def _list(value: object, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        _bad(f"{where} must be a list, got {value!r}")
    if length is not None and len(value) != length:
        _bad(f"{where} must have {length} entries, got {len(value)}")
    return value


def _dict(value: object, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        _bad(f"{where} must be an object")
    if set(value) != keys:
        missing = sorted(keys - set(value))
        extra = sorted(set(value) - keys)
        _bad(f"{where} has missing keys {missing} / unknown keys {extra}")
    return value


def _card(value: object, where: str) -> int:
    return _int(value, f"card id in {where}", 0, len(CARDS) - 1)


def _load_players(obj: dict[str, Any], n: int) -> list[PlayerState]:
    players = []
    for seat, raw in enumerate(_list(obj["players"], "players", n)):
        where = f"players[{seat}]"
        p = _dict(raw, where, PLAYER_KEYS)
        tokens = [
            _int(t, f"{where}.tokens[{c}]", 0, 99)
            for c, t in enumerate(_list(p["tokens"], f"{where}.tokens", 6))
        ]
        cards = [_card(c, f"{where}.cards") for c in _list(p["cards"], f"{where}.cards")]
        if cards != sorted(cards):
            _bad(f"{where}.cards must be in ascending order")
        nobles = [
            _int(x, f"{where}.nobles", 0, len(NOBLES) - 1)
            for x in _list(p["nobles"], f"{where}.nobles")
        ]
        reserved = []
        raw_reserved = _list(p["reserved"], f"{where}.reserved")
        if len(raw_reserved) > MAX_RESERVED:
            _bad(f"{where} has {len(raw_reserved)} reserved cards (at most {MAX_RESERVED})")
        for i, raw_r in enumerate(raw_reserved):
            rw = f"{where}.reserved[{i}]"
            r = _dict(raw_r, rw, RESERVE_KEYS)
            if r["card"] is None:
                _bad(f"{rw}.card is null: this is a player's view, which cannot be loaded")
            card = _card(r["card"], f"{rw}.card")
            if not isinstance(r["hidden"], bool):
                _bad(f"{rw}.hidden must be true or false")
            level = _int(r["level"], f"{rw}.level", 1, NUM_LEVELS)
            if CARDS[card].level != level:
                _bad(f"{rw}: level {level} does not match card {card} (level {CARDS[card].level})")
            reserved.append(Reserve(card, r["hidden"]))
        players.append(PlayerState(tokens, cards, nobles, reserved))
    return players


def from_obj(obj: dict[str, Any], state: BaseRules) -> None:
    """Validate a full-state JSON object and fill ``state`` from it."""
    if obj.get("variant") != "base":
        _bad(f"variant must be 'base', got {obj.get('variant')!r}")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        _bad(f"version must be {VERSION}, got {version!r}")
    _dict(obj, "the state", KEYS)
    if obj["viewer"] is not None:
        _bad("this is a player's view (viewer is not null), which cannot be loaded")
    if obj["decks"] is None:
        _bad("decks is null: this is a player's view, which cannot be loaded")
    n = _int(obj["num_players"], "num_players", 2, 4)
    turn_cap = _int(obj["turn_cap"], "turn_cap", 1, MAX_TURN_CAP)
    turn = _int(obj["turn"], "turn", 0, turn_cap * n)
    passes = _int(obj["passes"], "passes", 0, n)
    phase = obj["phase"]
    if phase not in PHASES:
        _bad(f"phase must be one of {', '.join(PHASES)}, got {phase!r}")
    bank = [_int(t, f"bank[{c}]", 0, 99) for c, t in enumerate(_list(obj["bank"], "bank", 6))]
    board: list[list[int | None]] = []
    for level, row in enumerate(_list(obj["board"], "board", NUM_LEVELS)):
        board.append(
            [
                None if c is None else _card(c, f"board[{level}][{s}]")
                for s, c in enumerate(_list(row, f"board[{level}]", SLOTS))
            ]
        )
    decks = [
        [_card(c, f"decks[{level}]") for c in _list(d, f"decks[{level}]")]
        for level, d in enumerate(_list(obj["decks"], "decks", NUM_LEVELS))
    ]
    sizes = [
        _int(s, f"deck_sizes[{i}]", 0, len(CARDS))
        for i, s in enumerate(_list(obj["deck_sizes"], "deck_sizes", NUM_LEVELS))
    ]
    if sizes != [len(d) for d in decks]:
        _bad(f"deck_sizes {sizes} do not match the decks")
    nobles = [_int(x, "nobles", 0, len(NOBLES) - 1) for x in _list(obj["nobles"], "nobles")]
    players = _load_players(obj, n)

    _check_tokens(bank, players, n)
    _check_cards(board, decks, players)
    _check_nobles(nobles, players, n)

    state.num_players, state.turn_cap, state.turn, state.passes = n, turn_cap, turn, passes
    state.phase, state.bank, state.board, state.decks = phase, bank, board, decks
    state.nobles, state.players = nobles, players
    state.pending = None
    pending = obj["pending"]
    if phase == "pay":
        state.pending = _check_pending(state, pending)
    elif pending is not None:
        _bad(f"pending must be null outside the pay phase (phase {phase})")
    _check_phase(state, obj["current"])


def _check_tokens(bank: list[int], players: list[PlayerState], n: int) -> None:
    for c in range(6):
        total = bank[c] + sum(p.tokens[c] for p in players)
        expected = GOLD_TOKENS if c == 5 else GEMS_PER_COLOUR[n]
        if total != expected:
            _bad(f"tokens of colour {'wugrky'[c]} total {total}, expected {expected}")


def _check_cards(
    board: list[list[int | None]], decks: list[list[int]], players: list[PlayerState]
) -> None:
    seen: dict[int, str] = {}

    def see(card: int, where: str) -> None:
        if card in seen:
            _bad(f"card {card} appears twice ({seen[card]} and {where})")
        seen[card] = where

    for level in range(NUM_LEVELS):
        for s, card in enumerate(board[level]):
            if card is None:
                if decks[level]:
                    _bad(f"board[{level}][{s}] is empty while deck {level + 1} is not")
                continue
            see(card, f"board[{level}][{s}]")
            if CARDS[card].level != level + 1:
                _bad(f"card {card} (level {CARDS[card].level}) is in board row {level + 1}")
        for card in decks[level]:
            see(card, f"deck {level + 1}")
            if CARDS[card].level != level + 1:
                _bad(f"card {card} (level {CARDS[card].level}) is in deck {level + 1}")
    for seat, p in enumerate(players):
        for card in p.cards:
            see(card, f"players[{seat}].cards")
        for r in p.reserved:
            see(r.card, f"players[{seat}].reserved")
    missing = sorted(set(range(len(CARDS))) - set(seen))
    if missing:
        _bad(f"cards {missing} are missing")


def _check_nobles(nobles: list[int], players: list[PlayerState], n: int) -> None:
    everyone = nobles + [x for p in players for x in p.nobles]
    if len(set(everyone)) != len(everyone):
        _bad(f"nobles are not distinct: {everyone}")
    if len(everyone) > n + 1:
        _bad(f"{len(everyone)} nobles in play, at most {n + 1} for {n} players")
    for seat, p in enumerate(players):
        bonuses = p.bonuses()
        for x in p.nobles:
            if any(NOBLES[x].req[c] > bonuses[c] for c in range(5)):
                _bad(f"players[{seat}] holds noble {x} without the bonuses it requires")


def _check_pending(state: BaseRules, pending: object) -> int:
    if pending is None:
        _bad("phase pay needs a pending buy")
    a = _int(pending, "pending", 0, A.NUM_ACTIONS - 1)
    card = state.buy_target(a) if A.BUY_UP <= a < A.RETURN else None
    if card is None:
        _bad(f"pending = {a} is not a buy of an existing card")
    if a >= A.BUY_RESERVED and state.mover().reserved[a - A.BUY_RESERVED].hidden:
        _bad(
            f"pending = {a} buys a reserved card that is still hidden: "
            "a card being bought is shown (hidden false)"
        )
    if len(payments(state.mover(), card)) < 2:
        _bad(f"pending buy `{A.action_text(a)}` does not have two or more payments")
    return a


def _check_phase(state: BaseRules, current: object) -> None:
    n, phase = state.num_players, state.phase
    if phase == "over":
        if current is not None:
            _bad("current must be null when the game is over")
    elif not isinstance(current, int) or isinstance(current, bool) or current != state.turn % n:
        _bad(f"current must be {state.turn % n} (turn {state.turn} mod {n}), got {current!r}")
    mover = state.turn % n
    for seat, p in enumerate(state.players):
        if p.num_tokens() > TOKEN_LIMIT and not (phase == "return" and seat == mover):
            _bad(f"players[{seat}] holds {p.num_tokens()} tokens in phase {phase}")
    if phase == "return" and state.mover().num_tokens() <= TOKEN_LIMIT:
        _bad(f"phase return with {state.mover().num_tokens()} tokens (needs more than 10)")
    if phase == "noble" and len(state.qualifying_nobles()) < 2:
        _bad("phase noble needs two or more nobles the player qualifies for")
    if phase in ("pay", "return") and state.passes != 0:
        _bad(f"passes must be 0 in phase {phase} (the main action was not a pass)")
    if phase == "over":
        if state.turn == 0 or state.end_reason() is None:
            _bad("phase over but no end condition holds")
        return
    if phase != "noble" and state.passes >= n:
        _bad(f"passes = {state.passes}: the game should have ended as stalled")
    if state.turn >= state.turn_cap * n:
        _bad(f"turn {state.turn} has reached the turn cap: the game should be over")
    if state.turn > 0 and state.turn % n == 0:
        # The mover's points may have grown during this turn only by a buy before
        # a noble choice; everyone else's are as they were when the round ended.
        for seat, points in enumerate(state.scores()):
            if points >= WINNING_POINTS and not (phase == "noble" and seat == mover):
                _bad(f"players[{seat}] has {points} points after a full round: should be over")
