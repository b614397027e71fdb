"""Splendor: Marvel, the reference engine (the executable specification).

Format: ``docs/marvel.md``; rules: ``shared/rules/marvel.md``. Written for
clarity, not speed: the Rust engine is checked against it move for move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from splendor.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from splendor.reference import marvel_actions as A
from splendor.reference.common import (
    Action,
    Outcome,
    action_id,
    check_int,
    dump_json,
    id_argument,
    load_json,
)
from splendor.reference.marvel_data import COLOURS, MarvelData, load_data
from splendor.reference.marvel_explain import explain_illegal
from splendor.reference.rng import SplitMix64

STONES_PER_PLAYERS = {2: 4, 3: 5, 4: 7}
GREY_SUPPLY = 5
TOKEN_LIMIT = 10
MAX_RESERVED = 3
GAUNTLET_POINTS = 16
AVENGERS_ICONS = 3
AVENGERS_POINTS = 3
OBSERVATION_SIZE = 503
PHASES = ("main", "pay", "return", "location", "over")


@dataclass
class Reserve:
    """A reserved card; ``hidden`` when reserved blind from a deck."""

    card: int
    hidden: bool


@dataclass
class PlayerState:
    """One seat's tokens, recruited cards, locations and reserves."""

    tokens: list[int] = field(default_factory=lambda: [0] * 7)
    cards: list[int] = field(default_factory=list)
    locations: list[int] = field(default_factory=list)
    reserved: list[Reserve] = field(default_factory=list)


class MarvelState:
    """A Splendor: Marvel game state (full information; views via ``to_json``)."""

    variant = "marvel"
    num_actions = A.NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    data: MarvelData
    num_players: int
    turn_cap: int
    turn: int
    passes: int
    phase: str
    current: int
    pending: int | None
    bank: list[int]
    board: list[list[int | None]]
    decks: list[list[int]]
    locations: list[int]
    avengers: int | None
    players: list[PlayerState]

    def __init__(
        self,
        players: int = 2,
        seed: int = 0,
        turn_cap: int = 100,
        data: MarvelData | None = None,
    ) -> None:
        players = check_int(players, "players", 2, 4)
        seed = check_int(seed, "seed", 0, 2**64 - 1)
        turn_cap = check_int(turn_cap, "turn_cap", 1, 10000)
        self.data = data if data is not None else load_data()
        self.num_players = players
        self.turn_cap = turn_cap
        rng = SplitMix64(seed)
        decks: list[list[int]] = []
        for level in (1, 2, 3):
            deck = [c.id for c in self.data.cards if c.level == level]
            rng.shuffle(deck)
            decks.append(deck)
        tiles = [0, 1, 2, 3]
        rng.shuffle(tiles)
        self.locations = sorted(2 * t + rng.below(2) for t in tiles[:players])
        self.board = [list[int | None](d[:4]) for d in decks]
        self.decks = [d[4:] for d in decks]
        stones = STONES_PER_PLAYERS[players]
        self.bank = [stones] * 5 + [GREY_SUPPLY, players]
        self.players = [PlayerState() for _ in range(players)]
        self.avengers = None
        self.turn = 0
        self.passes = 0
        self.phase = "main"
        self.current = 0
        self.pending = None

    # ----- derived values -------------------------------------------------

    def bonuses(self, p: int) -> list[int]:
        """Recruited cards per colour."""
        out = [0] * 5
        for c in self.players[p].cards:
            out[self.data.cards[c].bonus] += 1
        return out

    def icons(self, p: int) -> int:
        """Avengers icons on recruited cards."""
        return sum(self.data.cards[c].avengers for c in self.players[p].cards)

    def points(self, p: int) -> int:
        """Infinity points: cards, locations and the Avengers tile."""
        pl = self.players[p]
        pts = sum(self.data.cards[c].points for c in pl.cards)
        pts += sum(self.data.locations[loc].points for loc in pl.locations)
        return pts + (AVENGERS_POINTS if self.avengers == p else 0)

    def meets_gauntlet(self, p: int) -> bool:
        """16 points, a bonus of every colour and the green token."""
        return (
            self.points(p) >= GAUNTLET_POINTS
            and min(self.bonuses(p)) >= 1
            and self.players[p].tokens[A.GREEN] == 1
        )

    def scores(self) -> list[int]:
        """Infinity points of every seat."""
        return [self.points(p) for p in range(self.num_players)]

    @property
    def current_player(self) -> int:
        """The seat to decide, -1 when the game is over."""
        return -1 if self.phase == "over" else self.current

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == "over"

    # ----- legal actions --------------------------------------------------

    def _card_at(self, a: int) -> int | None:
        """The card a reserve/recruit action refers to, or None."""
        pl = self.players[self.current]
        if A.RECRUIT <= a < A.RECRUIT_RES:
            k = a - A.RECRUIT
            return self.board[k // 4][k % 4]
        if A.RECRUIT_RES <= a < A.RETURN:
            k = a - A.RECRUIT_RES
            return pl.reserved[k].card if k < len(pl.reserved) else None
        return None

    def payments(self, card: int) -> list[int]:
        """Indices into GREY_VECTORS of the ways the current player can pay ``card``."""
        tokens = self.players[self.current].tokens
        bon = self.bonuses(self.current)
        need = [max(0, self.data.cards[card].cost[c] - bon[c]) for c in range(5)]
        out = []
        for i, g in enumerate(A.GREY_VECTORS):
            if sum(g) > tokens[A.GREY]:
                continue
            if all(g[c] <= need[c] and need[c] - g[c] <= tokens[c] for c in range(5)):
                out.append(i)
        return out

    def can_afford(self, card: int) -> bool:
        """Whether the current player can pay ``card``: grey covers every shortfall."""
        tokens = self.players[self.current].tokens
        bon = self.bonuses(self.current)
        cost = self.data.cards[card].cost
        short = sum(max(0, cost[c] - bon[c] - tokens[c]) for c in range(5))
        return short <= tokens[A.GREY]

    def qualifying_locations(self, p: int) -> list[int]:
        """Displayed locations whose requirement the bonuses of ``p`` meet."""
        bon = self.bonuses(p)
        return [
            loc
            for loc in self.locations
            if all(bon[c] >= self.data.locations[loc].requirement[c] for c in range(5))
        ]

    def legal_action_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        if self.phase == "over":
            return []
        pl = self.players[self.current]
        if self.phase == "pay":
            assert self.pending is not None
            card = self._card_at(self.pending)
            assert card is not None
            return [A.PAY + i for i in self.payments(card)]
        if self.phase == "return":
            return [A.RETURN + c for c in range(6) if pl.tokens[c] > 0]
        if self.phase == "location":
            return [A.LOCATION + loc for loc in self.qualifying_locations(self.current)]
        out: list[int] = []
        avail = [c for c in range(5) if self.bank[c] > 0]
        if len(avail) >= 3:
            out += [A.TAKE3 + i for i, t in enumerate(A.TRIPLES) if all(c in avail for c in t)]
        else:
            out += [A.TAKE2D + i for i, t in enumerate(A.PAIRS) if all(c in avail for c in t)]
            out += [A.TAKE1 + c for c in avail]
        out += [A.TAKE2S + c for c in range(5) if self.bank[c] >= 4]
        if len(pl.reserved) < MAX_RESERVED:
            out += [A.RESERVE + k for k in range(12) if self.board[k // 4][k % 4] is not None]
            out += [A.RESERVE_DECK + lv for lv in range(3) if self.decks[lv]]
        for a in range(A.RECRUIT, A.RETURN):
            card = self._card_at(a)
            if card is not None and self.can_afford(card):
                out.append(a)
        if not out:
            out.append(A.PASS)
        return out

    def legal_actions(self) -> list[Action]:
        """Legal actions, ascending by id."""
        return [Action("marvel", a, A.ALL_TEXT[a]) for a in self.legal_action_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of length ``num_actions``."""
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
        mask[self.legal_action_ids()] = True
        return mask

    # ----- applying actions -----------------------------------------------

    def action_from_text(self, text: str) -> Action:
        """Parse action text (InvalidActionError when it does not parse)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a str, not {type(text).__name__}")
        a = A.parse_action(text)
        return Action("marvel", a, A.ALL_TEXT[a])

    def action_from_id(self, a: int) -> Action:
        """The Action of an id (InvalidActionError when out of range)."""
        i = id_argument(a, A.NUM_ACTIONS)
        return Action("marvel", i, A.ALL_TEXT[i])

    def _resolve(self, action: Action | int | str) -> int:
        a = action_id(action, A.NUM_ACTIONS, "marvel")
        if a is None:
            assert isinstance(action, str)
            return A.parse_action(action)
        return a

    def apply_unchecked(self, a: int) -> None:
        """Play a legal action id (no check: for playouts)."""
        self._apply(a)

    def apply(self, action: Action | int | str) -> None:
        """Apply a legal action (an Action, id or text); the state is unchanged on error."""
        a = self._resolve(action)
        if self.phase == "over":
            raise IllegalActionError(f"the game is over; `{A.ALL_TEXT[a]}` cannot be played")
        if a not in self.legal_action_ids():
            raise IllegalActionError(
                f"`{A.ALL_TEXT[a]}` is not legal now: {explain_illegal(self, a)}"
            )
        self._apply(a)

    def child(self, action: Action | int | str) -> MarvelState:
        """A new state with ``action`` applied."""
        c = self.clone()
        c.apply(action)
        return c

    def clone(self) -> MarvelState:
        """A deep copy (the card data is shared: it is immutable)."""
        c = object.__new__(MarvelState)
        c.__dict__.update(self.__dict__)
        c.bank = list(self.bank)
        c.board = [list(r) for r in self.board]
        c.decks = [list(d) for d in self.decks]
        c.locations = list(self.locations)
        c.players = [
            PlayerState(
                list(p.tokens),
                list(p.cards),
                list(p.locations),
                [Reserve(r.card, r.hidden) for r in p.reserved],
            )
            for p in self.players
        ]
        return c

    def __deepcopy__(self, memo: dict[int, Any]) -> MarvelState:
        return self.clone()

    def __copy__(self) -> MarvelState:
        # A shallow copy would share the players' token lists with this state.
        return self.clone()

    def _apply(self, a: int) -> None:
        p = self.current
        pl = self.players[p]
        if self.phase == "pay":
            assert self.pending is not None
            self._recruit(self.pending, A.GREY_VECTORS[a - A.PAY])
            return
        if self.phase == "return":
            pl.tokens[a - A.RETURN] -= 1
            self.bank[a - A.RETURN] += 1
            self._continue_turn()
            return
        if self.phase == "location":
            self._take_location(a - A.LOCATION)
            self._end_turn(passed=False)
            return
        if a < A.TAKE2D:
            self._take(A.TRIPLES[a])
        elif a < A.TAKE1:
            self._take(A.PAIRS[a - A.TAKE2D])
        elif a < A.TAKE2S:
            self._take((a - A.TAKE1,))
        elif a < A.RESERVE:
            self._take((a - A.TAKE2S, a - A.TAKE2S))
        elif a < A.RECRUIT:
            if a < A.RESERVE_DECK:
                k = a - A.RESERVE
                card = self.board[k // 4][k % 4]
                assert card is not None
                self._refill(k)
                pl.reserved.append(Reserve(card, False))
            else:
                pl.reserved.append(Reserve(self.decks[a - A.RESERVE_DECK].pop(0), True))
            if self.bank[A.GREY] > 0:
                self.bank[A.GREY] -= 1
                pl.tokens[A.GREY] += 1
            self._continue_turn()
        elif a < A.RETURN:
            card = self._card_at(a)
            assert card is not None
            pays = self.payments(card)
            if len(pays) == 1:
                self._recruit(a, A.GREY_VECTORS[pays[0]])
            else:
                self.phase = "pay"
                self.pending = a
                if a >= A.RECRUIT_RES:
                    # The card is shown as it is recruited: a blind reserve is public now.
                    i = a - A.RECRUIT_RES
                    pl.reserved[i] = Reserve(pl.reserved[i].card, hidden=False)
        else:
            self._end_turn(passed=True)

    def _take(self, colours: tuple[int, ...]) -> None:
        for c in colours:
            self.bank[c] -= 1
            self.players[self.current].tokens[c] += 1
        self._continue_turn()

    def _refill(self, k: int) -> None:
        lv, s = divmod(k, 4)
        self.board[lv][s] = self.decks[lv].pop(0) if self.decks[lv] else None

    def _recruit(self, a: int, grey: tuple[int, ...]) -> None:
        p = self.current
        pl = self.players[p]
        if a < A.RECRUIT_RES:
            k = a - A.RECRUIT
            card = self.board[k // 4][k % 4]
            assert card is not None
            self._refill(k)
        else:
            card = pl.reserved.pop(a - A.RECRUIT_RES).card
        info = self.data.cards[card]
        bon = self.bonuses(p)
        for c in range(5):
            paid = max(0, info.cost[c] - bon[c]) - grey[c]
            pl.tokens[c] -= paid
            self.bank[c] += paid
        pl.tokens[A.GREY] -= sum(grey)
        self.bank[A.GREY] += sum(grey)
        pl.cards.append(card)
        pl.cards.sort()
        if info.time_stone and pl.tokens[A.GREEN] == 0:
            pl.tokens[A.GREEN] = 1
            self.bank[A.GREEN] -= 1
        mine = self.icons(p)
        if self.avengers is None:
            if mine >= AVENGERS_ICONS:
                self.avengers = p
        elif self.avengers != p and mine > self.icons(self.avengers):
            self.avengers = p
        self.pending = None
        self._continue_turn()

    def _take_location(self, loc: int) -> None:
        self.locations.remove(loc)
        pl = self.players[self.current]
        pl.locations.append(loc)
        pl.locations.sort()

    def _continue_turn(self) -> None:
        """End-of-turn steps after the main action: returns, then a location."""
        if sum(self.players[self.current].tokens) > TOKEN_LIMIT:
            self.phase = "return"
            return
        q = self.qualifying_locations(self.current)
        if len(q) >= 2:
            self.phase = "location"
            return
        if q:
            self._take_location(q[0])
        self._end_turn(passed=False)

    def _end_turn(self, passed: bool) -> None:
        n = self.num_players
        self.turn += 1
        self.passes = self.passes + 1 if passed else 0
        self.pending = None
        if (
            (self.turn % n == 0 and any(self.meets_gauntlet(p) for p in range(n)))
            or self.passes >= n
            or self.turn >= self.turn_cap * n
        ):
            self.phase = "over"
        else:
            self.phase = "main"
            self.current = self.turn % n

    # ----- the end ----------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        if self.phase != "over":
            return None
        n = self.num_players
        meets = [p for p in range(n) if self.meets_gauntlet(p)]
        if self.turn % n == 0 and meets:
            reason = "gauntlet"
        elif self.passes >= n:
            reason = "stalled"
        else:
            return Outcome((), "truncated", n)
        pool = meets or list(range(n))

        def key(p: int) -> tuple[int, int, int]:
            return (self.points(p), int(self.avengers == p), -len(self.players[p].cards))

        best = max(key(p) for p in pool)
        return Outcome(tuple(p for p in pool if key(p) == best), reason, n)

    def returns(self) -> list[float]:
        """One float per seat: 1/k to each of k winners, zeros before the end."""
        o = self.outcome()
        return o.returns() if o is not None else [0.0] * self.num_players

    def heuristic(self, player: int) -> float:
        """A value in [0, 1] for ``player`` (docs/marvel.md section 8)."""
        from splendor.reference.marvel_observe import heuristic

        player = self._check_seat(player)
        return heuristic(self, player)

    # ----- hidden information -----------------------------------------------

    def determinize(self, player: int, *, seed: int) -> MarvelState:
        """A full state consistent with ``player``'s view (contract: sorted pools)."""
        from splendor.reference.marvel_observe import determinize

        seat = self._check_seat(player)
        return determinize(self, seat, check_int(seed, "seed", 0, 2**64 - 1))

    def _check_seat(self, player: object) -> int:
        return check_int(player, "player", 0, self.num_players - 1)

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``player`` (docs/marvel.md section 6)."""
        from splendor.reference.marvel_observe import observation

        player = self._check_seat(player)
        return observation(self, player)

    # ----- JSON ---------------------------------------------------------------

    def to_obj(self, player: int | None = None) -> dict[str, Any]:
        """The JSON object of the full state or of ``player``'s view."""
        from splendor.reference.marvel_json import to_obj

        if player is not None:
            player = self._check_seat(player)
        return to_obj(self, player)

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state (or of ``player``'s view)."""
        return dump_json(self.to_obj(player))

    @classmethod
    def from_json(
        cls,
        text: str,
        *,
        cards: str | Path | None = None,
        locations: str | Path | None = None,
    ) -> MarvelState:
        """Load and validate a full-state JSON (InvalidStateError when corrupt)."""
        from splendor.reference.marvel_data import bundled_data, data_by_id
        from splendor.reference.marvel_json import from_obj

        try:
            obj = load_json(text)
        except RecursionError:
            raise InvalidStateError("state JSON does not parse: nested too deeply") from None
        if cards is None and locations is None:
            # An unknown identity: validation against the bundled set names it.
            found = data_by_id(obj.get("card_set")) if isinstance(obj, dict) else None
            return from_obj(obj, found or bundled_data())
        return from_obj(obj, load_data(cards, locations))

    # ----- Python protocol ------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MarvelState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        return {"json": self.to_json(), "data": self.data}

    def __setstate__(self, st: dict[str, Any]) -> None:
        from splendor.reference.marvel_data import intern
        from splendor.reference.marvel_json import from_obj

        # Registered again, so that from_json finds the set in this process too.
        other = from_obj(load_json(st["json"]), intern(st["data"]))
        self.__dict__.update(other.__dict__)

    def __repr__(self) -> str:
        return (
            f"<MarvelState players={self.num_players} turn={self.turn} phase={self.phase} "
            f"current={self.current_player} scores={self.scores()}>"
        )

    def __str__(self) -> str:
        from splendor.reference.marvel_observe import render

        return render(self)


def new_game(
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: str | Path | None = None,
    locations: str | Path | None = None,
) -> MarvelState:
    """Deal a Marvel game; ``cards``/``locations`` may name corrected files."""
    return MarvelState(players, seed, turn_cap, load_data(cards, locations))


new_marvel_game = new_game


def from_json(
    text: str, *, cards: str | Path | None = None, locations: str | Path | None = None
) -> MarvelState:
    """Load a Marvel state from its full JSON."""
    return MarvelState.from_json(text, cards=cards, locations=locations)


__all__ = [
    "COLOURS",
    "OBSERVATION_SIZE",
    "MarvelState",
    "from_json",
    "new_game",
    "new_marvel_game",
]
