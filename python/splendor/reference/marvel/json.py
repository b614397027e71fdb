"""Marvel JSON: the canonical object of a state or view, and validated loading."""

from __future__ import annotations

from typing import Any

from splendor.errors import InvalidStateError
from splendor.reference.common import range_message
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import MarvelData
from splendor.reference.marvel.rules import MarvelRules
from splendor.reference.marvel.state import (
    GREY_SUPPLY,
    MAX_RESERVED,
    PHASES,
    STONES_PER_PLAYERS,
    TOKEN_LIMIT,
    MarvelCore,
    PlayerState,
    Reserve,
)

KEYS = {
    "avengers",
    "bank",
    "board",
    "card_set",
    "current",
    "deck_sizes",
    "decks",
    "locations",
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
PLAYER_KEYS = {"cards", "locations", "reserved", "tokens"}


def to_obj(s: MarvelCore, viewer: int | None) -> dict[str, Any]:
    """The canonical JSON object (docs/marvel.md section 5)."""
    over = s.phase == "over"
    players = []
    for q, pl in enumerate(s.players):
        players.append(
            {
                "cards": sorted(pl.cards),
                "locations": sorted(pl.locations),
                "reserved": [
                    {
                        "card": None
                        if (viewer is not None and viewer != q and r.hidden)
                        else r.card,
                        "hidden": r.hidden,
                        "level": s.data.cards[r.card].level,
                    }
                    for r in pl.reserved
                ],
                "tokens": list(pl.tokens),
            }
        )
    return {
        "avengers": s.avengers,
        "bank": list(s.bank),
        "board": [list(r) for r in s.board],
        "card_set": s.data.id,
        "current": None if over else s.current,
        "deck_sizes": [len(d) for d in s.decks],
        "decks": None if viewer is not None else [list(d) for d in s.decks],
        "locations": sorted(s.locations),
        "num_players": s.num_players,
        "passes": s.passes,
        "pending": s.pending,
        "phase": s.phase,
        "players": players,
        "turn": s.turn,
        "turn_cap": s.turn_cap,
        "variant": "marvel",
        "version": 1,
        "viewer": viewer,
    }


def _bad(msg: str) -> InvalidStateError:
    return InvalidStateError(f"invalid marvel state: {msg}")


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _bad(f"{what} must be an integer")
    if not lo <= v <= hi:
        raise _bad(range_message(what, lo, hi, v))
    return v


def _list(v: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list")
    if length is not None and len(v) != length:
        raise _bad(f"{what} must have {length} entries, not {len(v)}")
    return v


def _opt_int(v: Any, what: str, lo: int, hi: int) -> int | None:
    return None if v is None else _int(v, what, lo, hi)


def from_obj(obj: dict[str, Any], data: MarvelData, s: MarvelRules) -> None:
    """Fill the blank state ``s`` from a JSON object, validating everything docs/marvel.md lists."""
    if set(obj) != KEYS:
        missing, extra = sorted(KEYS - set(obj)), sorted(set(obj) - KEYS)
        raise _bad(f"keys differ from the format (missing {missing}, unexpected {extra})")
    if obj["variant"] != "marvel":
        raise _bad(f"variant is {obj['variant']!r}, not 'marvel'")
    if type(obj["version"]) is not int or obj["version"] != 1:
        raise _bad(f"version {obj['version']!r} is not supported")
    if obj["viewer"] is not None:
        raise _bad("a player's view cannot be loaded (it hides cards)")
    if type(obj["card_set"]) is not str or obj["card_set"] != data.id:
        raise _bad(
            f"card_set {obj['card_set']!r} does not match the loaded card set ({data.id}); "
            "load it with the same cards/locations files"
        )
    n = _int(obj["num_players"], "num_players", 2, 4)
    s.data = data
    s.num_players = n
    s.turn_cap = _int(obj["turn_cap"], "turn_cap", 1, 10000)
    s.turn = _int(obj["turn"], "turn", 0, s.turn_cap * n)
    s.passes = _int(obj["passes"], "passes", 0, n)
    if obj["phase"] not in PHASES:
        raise _bad(f"unknown phase {obj['phase']!r}")
    s.phase = obj["phase"]
    s.bank = [_int(v, "bank", 0, 99) for v in _list(obj["bank"], "bank", 7)]
    s.avengers = _opt_int(obj["avengers"], "avengers", 0, n - 1)
    seen: set[int] = set()

    def card(v: Any, what: str, level: int | None) -> int:
        c = _int(v, what, 0, len(data.cards) - 1)
        if c in seen:
            raise _bad(f"card {c} appears twice")
        seen.add(c)
        if level is not None and data.cards[c].level != level:
            raise _bad(f"{what}: card {c} is not of level {level}")
        return c

    s.board = []
    for lv, row in enumerate(_list(obj["board"], "board", 3)):
        s.board.append(
            [
                None if v is None else card(v, f"board level {lv + 1}", lv + 1)
                for v in _list(row, f"board level {lv + 1}", 4)
            ]
        )
    decks = _list(obj["decks"], "decks", 3) if obj["decks"] is not None else None
    if decks is None:
        raise _bad("decks are null: a view cannot be loaded")
    s.decks = [
        [card(v, f"deck {lv + 1}", lv + 1) for v in _list(d, f"deck {lv + 1}")]
        for lv, d in enumerate(decks)
    ]
    for lv in range(3):
        if s.decks[lv] and None in s.board[lv]:
            raise _bad(f"deck {lv + 1} is not empty but a board slot of its level is")
    sizes = _list(obj["deck_sizes"], "deck_sizes", 3)
    if any(type(x) is not int for x in sizes) or sizes != [len(d) for d in s.decks]:
        raise _bad("deck_sizes do not match the decks")
    s.players = []
    for q, po in enumerate(_list(obj["players"], "players", n)):
        if not isinstance(po, dict) or set(po) != PLAYER_KEYS:
            raise _bad(f"player {q} must have the keys {sorted(PLAYER_KEYS)}")
        pl = PlayerState()
        pl.tokens = [_int(v, f"player {q} tokens", 0, 99) for v in _list(po["tokens"], "tokens", 7)]
        cards = [card(v, f"player {q} cards", None) for v in _list(po["cards"], "cards")]
        if cards != sorted(cards):
            raise _bad(f"player {q} cards must be ascending")
        pl.cards = cards
        res = _list(po["reserved"], f"player {q} reserved")
        if len(res) > MAX_RESERVED:
            raise _bad(f"player {q} holds {len(res)} reserved cards (at most 3)")
        for r in res:
            if not isinstance(r, dict) or set(r) != {"card", "hidden", "level"}:
                raise _bad(f"player {q} reserve must have keys card, hidden, level")
            if not isinstance(r["hidden"], bool):
                raise _bad(f"player {q} reserve hidden must be a bool")
            lv = _int(r["level"], f"player {q} reserve level", 1, 3)
            pl.reserved.append(Reserve(card(r["card"], f"player {q} reserve", lv), r["hidden"]))
        pl.locations = [
            _int(v, f"player {q} locations", 0, 7) for v in _list(po["locations"], "locations")
        ]
        if pl.locations != sorted(pl.locations):
            raise _bad(f"player {q} locations must be ascending")
        s.players.append(pl)
    if len(seen) != len(data.cards):
        raise _bad(f"{len(data.cards) - len(seen)} cards are missing")
    s.locations = [_int(v, "locations", 0, 7) for v in _list(obj["locations"], "locations")]
    if s.locations != sorted(s.locations):
        raise _bad("displayed locations must be ascending")
    all_locs = s.locations + [x for pl in s.players for x in pl.locations]
    tiles = [x // 2 for x in all_locs]
    if len(set(tiles)) != len(tiles):
        raise _bad("a location (or both sides of one tile) appears twice")
    if len(tiles) != n:
        raise _bad(f"{len(tiles)} location tiles in play, expected {n}")
    stones = STONES_PER_PLAYERS[n]
    for c, total in enumerate([stones] * 5 + [GREY_SUPPLY, n]):
        held = s.bank[c] + sum(pl.tokens[c] for pl in s.players)
        if held != total:
            raise _bad(f"{A.TOKEN_LETTERS[c]} tokens total {held}, expected {total}")
    for q, pl in enumerate(s.players):
        has_time = any(data.cards[c].time_stone for c in pl.cards)
        if pl.tokens[A.GREEN] > 1 or (pl.tokens[A.GREEN] == 1) != has_time:
            raise _bad(f"player {q} green token does not match a recruited Time Stone card")
        bon = s.bonuses(q)
        for loc in pl.locations:
            if any(bon[c] < data.locations[loc].requirement[c] for c in range(5)):
                raise _bad(f"player {q} holds location {loc} without qualifying")
    icons = [s.icons(q) for q in range(n)]
    if s.avengers is None:
        if max(icons) >= 3:
            raise _bad("a player has 3 or more Avengers icons but nobody holds the tile")
    elif icons[s.avengers] < 3 or icons[s.avengers] < max(icons):
        raise _bad(f"player {s.avengers} cannot hold the Avengers tile with {icons[s.avengers]}")
    _check_phase(s, obj, TOKEN_LIMIT)


def _check_phase(s: MarvelRules, obj: dict[str, Any], limit: int) -> None:
    n = s.num_players
    if s.phase == "over":
        if obj["current"] is not None or obj["pending"] is not None:
            raise _bad("an over state has current and pending null")
        s.current = 0
        s.pending = None
        # Tokens are returned before the end checks of a turn.
        for q, pl in enumerate(s.players):
            if sum(pl.tokens) > limit:
                raise _bad(f"player {q} holds more than {limit} tokens in an over state")
        ended = (s.turn % n == 0 and any(s.meets_gauntlet(q) for q in range(n))) or (
            s.passes >= n or s.turn >= s.turn_cap * n
        )
        if s.turn == 0 or not ended:
            raise _bad("phase over does not match the end conditions")
        return
    s.current = _int(obj["current"], "current", 0, n - 1)
    if s.current != s.turn % n:
        raise _bad(f"current {s.current} is not seat turn % players = {s.turn % n}")
    # Mid-turn, the current player may already meet the conditions; nobody
    # else can have gained them since the round ended.
    others_meet = any(
        s.meets_gauntlet(q) and (s.phase == "main" or q != s.current) for q in range(n)
    )
    if s.turn > 0 and s.turn % n == 0 and others_meet:
        raise _bad("the round is complete and a player meets the Gauntlet: the game is over")
    if s.passes >= n or s.turn >= s.turn_cap * n:
        raise _bad("passes or turn say the game is over but the phase is not over")
    for q, pl in enumerate(s.players):
        if q != s.current and sum(pl.tokens) > limit:
            raise _bad(f"player {q} holds more than {limit} tokens")
    total = sum(s.players[s.current].tokens)
    pending = obj["pending"]
    s.pending = None
    if s.phase == "pay":
        s.pending = _int(pending, "pending", A.RECRUIT, A.RETURN - 1)
        if s.pending >= A.RECRUIT_RES:
            mine = s.players[s.current].reserved
            i = s.pending - A.RECRUIT_RES
            if i < len(mine) and mine[i].hidden:
                raise _bad(
                    "the pending recruit is a reserved card that is still hidden: "
                    "a card being recruited is shown (hidden false)"
                )
        c = s._card_at(s.pending)
        if c is None or len(s.payments(c)) < 2:
            raise _bad("phase pay needs a pending recruit with at least two payments")
        if total > limit:
            raise _bad("phase pay with more than 10 tokens")
        return
    if pending is not None:
        raise _bad("pending must be null outside phase pay")
    if s.phase == "return" and total <= limit:
        raise _bad("phase return with 10 tokens or fewer")
    if s.phase in ("main", "location") and total > limit:
        raise _bad(f"phase {s.phase} with more than 10 tokens")
    if s.phase == "location" and len(s.qualifying_locations(s.current)) < 2:
        raise _bad("phase location needs two or more qualifying locations")
