"""Server-side games for the web page: the full state stays here, seats get their views.

A game is its starting state and its list of decisions, so undo and replay are a
replay of a prefix; the database (:mod:`splendor.web.store`) holds exactly that, and a
:class:`Game` is its replayed form, kept in a bounded cache. A game holds at most
``max_decisions`` decisions, and its history is held compactly (an action id, a seat
byte and a shared text per decision; a packed note per AI move).
"""

from __future__ import annotations

import json
import re
import secrets
import struct
import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import Any

import splendor
from splendor import render
from splendor.render.describe import describe
from splendor.web.models import Considered, LogEntry, ResultModel, Standing
from splendor.web.store import DecisionRow, GameRow, Position

PLAYERS = {name: list(v.players) for name, v in splendor.variant_info().items()}
"""The player counts of each variant (from :func:`splendor.variant_info`)."""


class SeatError(ValueError):
    """A seat that may not act now (not its turn, not an AI seat, not in the game)."""


class GameChanged(RuntimeError):
    """The game is not at the version a client (or the AI) acted on (409)."""


class UndoRefused(RuntimeError):
    """An undo that would take back another person's move (or there is nothing to undo)."""


class GameOver(RuntimeError):
    """A move, undo or hint asked for once the game is over (409 ``game_over``): every hidden
    card has been shown to all by then, so nothing may go back into play."""


class TooLong(ValueError):
    """A game over the server's bounds: too many decisions, or too high a turn cap."""


_AI = 0x80
"""Marks a decision made by the AI in ``Game.marks`` (the low bits are the seat)."""
_RESERVED = re.compile(r"\breserved (\d+)\b")
_CONSIDERED = struct.Struct("<IId")


@dataclass(frozen=True, slots=True)
class AiNote:
    """What the AI reported for one of its moves, packed: ``considered`` is ``(id, visits,
    value)`` per move, ``texts`` the moves' (shared) texts, ``public`` the bit mask of the
    moves every other seat may see (a move naming a card reserved blind is not one)."""

    win_estimate: float | None
    texts: tuple[str, ...]
    considered: bytes
    public: int

    @classmethod
    def of(
        cls, win_estimate: float | None, considered: list[Considered], hidden: set[int]
    ) -> AiNote:
        public = 0
        for i, c in enumerate(considered):
            if not names_hidden(c.text, hidden):
                public |= 1 << i
        packed = b"".join(_CONSIDERED.pack(c.id, c.visits, c.value) for c in considered)
        return cls(win_estimate, tuple(sys.intern(c.text) for c in considered), packed, public)

    def to_json(self) -> str:
        """The note as the database stores it."""
        return json.dumps(
            {
                "win_estimate": self.win_estimate,
                "considered": [
                    [id_, text, visits, value]
                    for text, (id_, visits, value) in zip(
                        self.texts, _CONSIDERED.iter_unpack(self.considered), strict=True
                    )
                ],
                "public": self.public,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> AiNote:
        obj = json.loads(text)
        considered = obj["considered"]
        return cls(
            obj["win_estimate"],
            tuple(sys.intern(c[1]) for c in considered),
            b"".join(_CONSIDERED.pack(c[0], c[2], c[3]) for c in considered),
            int(obj["public"]),
        )

    def considered_for(self, mover: bool) -> list[Considered]:
        """The moves a seat may see: all of them for the AI's own seat, else the public ones."""
        out = []
        for i, (text, (id_, visits, value)) in enumerate(
            zip(self.texts, _CONSIDERED.iter_unpack(self.considered), strict=True)
        ):
            if mover or self.public >> i & 1:
                out.append(Considered(id=id_, text=text, visits=visits, value=value))
        return out


def hidden_reserves(state: Any, seat: int) -> set[int]:
    """The numbers K of ``seat``'s reserved cards (``reserved K``) that some other seat cannot
    see (the ones reserved blind)."""
    hidden: set[int] = set()
    for viewer in range(int(state.num_players)):
        if viewer == seat:
            continue
        reserved = json.loads(state.to_json(viewer))["players"][seat].get("reserved") or []
        hidden |= {k for k, card in enumerate(reserved, 1) if card.get("card") is None}
    return hidden


def names_hidden(text: str, hidden: set[int]) -> bool:
    """Whether the action ``text`` names one of the ``hidden`` reserved cards."""
    return any(int(k) in hidden for k in _RESERVED.findall(text))


@dataclass
class Game:
    """One game: its deal, its decisions, the AI's seats and notes on the AI's moves.

    ``version`` counts every change (a move, an undo): two equal versions are the same
    position, which a move count is not (an undo then another move has the same count).
    It is the database row's version.
    """

    game_id: str
    start: str
    ai_seats: list[int]
    bot: str
    max_decisions: int = 2000
    actions: array[int] = field(default_factory=lambda: array("I"))
    marks: bytearray = field(default_factory=bytearray)
    """One byte per decision: its seat, ``_AI`` added when the AI made it."""
    texts: list[str] = field(default_factory=list)
    """The decisions' texts (interned: the same text is one string for every game)."""
    notes: dict[int, AiNote] = field(default_factory=dict)
    says: list[tuple[str, str]] = field(default_factory=list)
    """Per decision, what it did in words: as its mover knows it, and as everyone else does
    (they differ only where the mover saw a card the others did not: a blind reserve)."""
    version: int = 0
    state: Any = None
    seat_names: tuple[str | None, ...] = ()
    """The seats' display names (the table's row holds them; None: none chosen)."""

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.replay(len(self.actions))

    @classmethod
    def restore(
        cls,
        game_id: str,
        start: str,
        ai_seats: list[int],
        bot: str,
        max_decisions: int,
        version: int,
        rows: list[DecisionRow],
    ) -> Game:
        """A game as the database holds it: its start and its decision rows, replayed."""
        game = cls(game_id, start, ai_seats, bot, max_decisions, state=splendor.from_json(start))
        for row in rows:
            before = boards_around(game.state, row.seat, row.text)
            game.state.apply(row.action)
            game.says.append(said(before, game.state, row.seat, row.text))
            game.actions.append(row.action)
            game.marks.append(row.seat | (_AI if row.by_ai else 0))
            game.texts.append(sys.intern(row.text))
            if row.note is not None:
                game.notes[row.idx] = AiNote.from_json(row.note)
        game.version = version
        return game

    def decision(self, i: int) -> DecisionRow:
        """Decision ``i`` as the database stores it."""
        note = self.notes.get(i)
        return DecisionRow(
            idx=i,
            action=self.actions[i],
            seat=self.marks[i] & ~_AI,
            by_ai=bool(self.marks[i] & _AI),
            text=self.texts[i],
            note=None if note is None else note.to_json(),
        )

    def position(self) -> Position:
        """The fields of the game's row that follow its state."""
        current = self.current
        return Position(
            steps=self.steps,
            current=current,
            ai_to_move=current is not None and current in self.ai_seats,
            over=current is None,
        )

    def row(self, tokens: tuple[str | None, ...], spectator: str) -> GameRow:
        """The game's database row at version 0, with its token hashes."""
        now = time.time()
        where = self.position()
        return GameRow(
            id=self.game_id,
            variant=str(self.state.variant),
            players=self.players,
            start=self.start,
            bot=self.bot,
            ai_seats=tuple(self.ai_seats),
            tokens=tokens,
            spectator=spectator,
            version=0,
            steps=where.steps,
            current=where.current,
            ai_to_move=where.ai_to_move,
            over=where.over,
            created=now,
            updated=now,
        )

    def replay(self, steps: int) -> Any:
        """The state after the first ``steps`` decisions."""
        state = splendor.from_json(self.start)
        for a in self.actions[:steps]:
            state.apply(a)
        return state

    @property
    def players(self) -> int:
        return int(self.state.num_players)

    @property
    def current(self) -> int | None:
        return None if self.state.is_terminal() else int(self.state.current_player)

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def thinking(self) -> bool:
        """Whether an AI seat is to decide (the server plays it)."""
        return self.current is not None and self.current in self.ai_seats

    def result(self) -> ResultModel | None:
        outcome = self.state.outcome()
        if outcome is None:
            return None
        table, decided_by = standings(self.state, outcome)
        return ResultModel(
            winners=list(outcome.winners),
            reason=str(outcome.reason),
            returns=outcome.returns(),
            standings=[s.model_copy(update={"name": self.name(s.seat)}) for s in table],
            decided_by=decided_by,
        )

    def apply(
        self,
        seat: int,
        action: int | str,
        note: tuple[float | None, list[Considered]] | None = None,
    ) -> None:
        """Play ``action`` for ``seat`` (raises the engine's errors; nothing changes on error).

        ``note``: the AI's win estimate and the moves it considered, when the AI played.
        """
        check_turn(self, seat)
        if self.steps >= self.max_decisions:
            raise TooLong(
                f"this game has reached this server's limit of {self.max_decisions} decisions"
            )
        if isinstance(action, str):
            played = self.state.action_from_text(action)
        else:
            played = self.state.action_from_id(action)
        hidden = hidden_reserves(self.state, seat) if note is not None else set()
        before = boards_around(self.state, seat, str(played))
        self.state.apply(played)
        self.says.append(said(before, self.state, seat, str(played)))
        self.actions.append(int(played))
        self.marks.append(seat | (_AI if note is not None else 0))
        self.texts.append(sys.intern(str(played)))
        if note is not None:
            self.notes[self.steps - 1] = AiNote.of(note[0], note[1], hidden)
        self.version += 1

    def log_for(self, viewer: int | None) -> list[LogEntry]:
        """The decisions as ``viewer`` may see them (None: a spectator): the AI's notes on
        another seat's moves leave out the moves that name a card hidden from ``viewer``."""
        out = []
        for i, (mark, text) in enumerate(zip(self.marks, self.texts, strict=True)):
            seat = mark & ~_AI
            note = self.notes.get(i)
            out.append(
                LogEntry(
                    index=i,
                    seat=seat,
                    action=text,
                    by_ai=bool(mark & _AI),
                    says=self.said_to(i, viewer),
                    win_estimate=None if note is None else note.win_estimate,
                    considered=[] if note is None else note.considered_for(seat == viewer),
                )
            )
        return out

    def said_to(self, i: int, viewer: int | None) -> str:
        """Decision ``i`` in words for ``viewer`` (None: a spectator, who sees every card
        once the game is over)."""
        if i >= len(self.says):
            return self.texts[i]
        own, public = self.says[i]
        mover = self.marks[i] & ~_AI
        return own if viewer == mover or (viewer is None and self.current is None) else public

    def undo_point(self, seat: int) -> int | None:
        """Where ``seat``'s undo goes back to: its last decision, when every decision after
        it was the AI's (None: nothing to take back, or another person moved since)."""
        mine = [i for i, mark in enumerate(self.marks) if mark == seat]
        if not mine:
            return None
        keep = mine[-1]
        if any(not mark & _AI and mark != seat for mark in self.marks[keep:]):
            return None
        return keep

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last decision and everything after it; returns the decisions
        kept.

        Raises:
            GameOver: the game is over (its hidden cards are known to all: no going back).
            UndoRefused: nothing of ``seat``'s to take back, or another person moved since.
        """
        if self.current is None:
            raise GameOver("the game is over: no decision can be taken back")
        keep = self.undo_point(seat)
        if keep is None:
            raise UndoRefused(
                f"seat {seat} has no decision of its own to take back"
                if seat not in self.marks
                else f"another person has moved since seat {seat}'s last decision"
            )
        del self.actions[keep:]
        del self.marks[keep:]
        del self.texts[keep:]
        del self.says[keep:]
        self.notes = {i: n for i, n in self.notes.items() if i < keep}
        self.state = self.replay(keep)
        self.version += 1
        return keep

    def can_undo(self, seat: int | None) -> bool:
        return seat is not None and self.current is not None and self.undo_point(seat) is not None

    def saved(self) -> dict[str, Any]:
        return {
            "format": "splendor-web-game",
            "version": 1,
            "start": json.loads(self.start),
            "actions": list(self.actions),
            "ai_seats": list(self.ai_seats),
            "bot": self.bot,
        }

    def name(self, seat: int) -> str | None:
        """The display name of ``seat`` (None: none chosen, or an AI seat)."""
        if seat in self.ai_seats or seat >= len(self.seat_names):
            return None
        return self.seat_names[seat]

    def names(self, viewer: int | None) -> dict[int, str]:
        """How the boards name the seats: every AI seat "AI" (the viewer's too, when the
        page watches the AI play itself); a person by their display name (``Ann, you`` for
        the viewer's own seat); when several people play, the others without one
        "human". The renderers draw them as text, never as markup."""
        out: dict[int, str] = {}
        for s in range(self.players):
            name = self.name(s)
            if s in self.ai_seats:
                out[s] = "AI"
            elif name is not None:
                out[s] = f"{name}, you" if s == viewer else name
            elif s != viewer:
                out[s] = "human"
        return out

    def last(self, steps: int | None = None) -> tuple[int, str] | None:
        """The seat and text of the last of the first ``steps`` decisions (default: all of
        them): what the boards highlight."""
        steps = self.steps if steps is None else steps
        if not steps:
            return None
        return self.marks[steps - 1] & ~_AI, self.texts[steps - 1]

    def is_ai(self, i: int) -> bool:
        return bool(self.marks[i] & _AI)


_ENDS = {
    "crowns": "ten crowns",
    "colour": "ten points in one colour",
    "gauntlet": "the Infinity Gauntlet (the points, the Time stone and every colour)",
    "stalled": "no one could move any more",
    "truncated": "the turn cap was reached",
}


def boards_around(state: Any, seat: int, text: str) -> tuple[Any, Any | None]:
    """The boards of ``seat`` and of the public before ``seat``'s decision ``text`` (see
    :func:`said`); the public one only when the two can tell the decision apart: when the
    mover holds a card reserved blind or reserves one now."""
    own = render.board_of(state, seat)
    mine = next(s for s in own.seats if s.index == seat)
    blind = text.startswith("reserve deck") or any(slot.blind for slot in mine.reserved)
    return own, render.board_of(state, render.PUBLIC) if blind else None


def said(before: tuple[Any, Any | None], after: Any, seat: int, text: str) -> tuple[str, str]:
    """What ``seat``'s decision ``text`` did: in the words of its mover and of everyone else."""
    # Interned: the same words (a take, a return) recur across decisions and games.
    own = sys.intern(describe(before[0], render.board_of(after, seat), seat, text))
    if before[1] is None:
        return own, own
    public = sys.intern(describe(before[1], render.board_of(after, render.PUBLIC), seat, text))
    return own, public


def standings(state: Any, outcome: Any) -> tuple[list[Standing], str]:
    """A finished game's seats, best first (the winners, then by points, then by fewer
    cards), and how the winner was decided, in words."""
    full = json.loads(state.to_json())
    points = [int(p) for p in state.scores()]
    cards = [len(p.get("cards") or []) for p in full["players"]]
    winners = set(outcome.winners)

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat in winners else 1, -points[seat], cards[seat])

    order = sorted(range(len(points)), key=key)
    table: list[Standing] = []
    for place, seat in enumerate(order):
        same = table and key(order[place - 1]) == key(seat)
        rank = table[-1].rank if same else place + 1
        table.append(Standing(rank=rank, seat=seat, points=points[seat], cards=cards[seat]))
    reason = str(outcome.reason)
    best = max(points)
    level = [s for s in range(len(points)) if points[s] == best]
    if reason == "points" and len(level) > 1 and len(winners) < len(level):
        decided_by = f"{len(level)} seats level on {best} points: the fewest cards won"
    elif reason == "points" and len(winners) > 1:
        decided_by = f"level on {best} points and on cards: a shared win"
    elif reason == "points" and full.get("variant") == "duel":
        decided_by = "twenty points"
    elif reason == "points":
        decided_by = f"the most points ({best})"
    else:
        decided_by = _ENDS.get(reason, reason)
    return table, decided_by


def check_turn(game: Game, seat: int) -> None:
    """Raise unless ``seat`` is to decide in ``game``: :class:`GameOver` once it is over,
    :class:`SeatError` on another seat's turn."""
    if game.current is None:
        raise GameOver("the game is over: no move, hint or undo can be made")
    if game.current != seat:
        raise SeatError(f"it is seat {game.current}'s decision, not seat {seat}'s")


class Dealer:
    """Makes games within the server's bounds: each game at most ``max_decisions``
    decisions, with a turn cap of at most ``max_turn_cap``.

    ``deal`` and ``make`` build a game without storing it: a request stores its game
    only once everything else about it was checked.
    """

    def __init__(self, max_decisions: int = 2000, max_turn_cap: int = 100) -> None:
        self.max_decisions = max_decisions
        self.max_turn_cap = max_turn_cap

    def deal(
        self, variant: str, players: int, seed: int | None, ai_seats: list[int], bot: str
    ) -> Game:
        if seed is None:
            seed = secrets.randbits(63)
        state = splendor.new_game(variant, players=players, seed=seed)
        return self.make(state.to_json(), ai_seats, bot, [])

    def make(self, start: str, ai_seats: list[int], bot: str, actions: list[int]) -> Game:
        """A game from its start and decisions (checked against the bounds before replaying)."""
        first = splendor.from_json(start)  # InvalidStateError for a bad start
        turn_cap = json.loads(first.to_json())["turn_cap"]
        if turn_cap > self.max_turn_cap:
            raise TooLong(f"turn_cap {turn_cap} is over this server's limit of {self.max_turn_cap}")
        if len(actions) > self.max_decisions:
            raise TooLong(
                f"{len(actions)} decisions are over this server's limit of {self.max_decisions}"
            )
        seats = sorted(set(ai_seats))
        players = int(first.num_players)
        bad = [s for s in seats if not 0 <= s < players]
        if bad:
            raise SeatError(f"AI seat(s) {bad} are not seats of a {players}-seat game")
        # The engine's own text of the start: nothing a client added to it is kept.
        game = Game(
            secrets.token_urlsafe(12), first.to_json(), seats, bot, self.max_decisions, state=first
        )
        # Replayed decisions are logged as the seats' own (the notes of the AI are not saved).
        state = first
        for a in actions:
            seat = int(state.current_player)
            played = state.action_from_id(a)
            before = boards_around(state, seat, str(played))
            state.apply(played)
            game.says.append(said(before, state, seat, str(played)))
            game.actions.append(int(played))
            game.marks.append(seat | (_AI if seat in seats else 0))
            game.texts.append(sys.intern(str(played)))
        return game
