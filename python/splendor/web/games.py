"""Server-side games for the web page: the full state stays here, seats get their views.

A game is its starting state and its list of decisions, so undo and replay are a
replay of a prefix. The store is bounded: past ``max_games`` the game touched
longest ago is dropped (the page can save a game to keep it).
"""

from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import splendor
from splendor import render
from splendor.web.models import LogEntry, ResultModel

PLAYERS = {"base": [2, 3, 4], "duel": [2], "marvel": [2, 3, 4]}


class GameNotFound(LookupError):
    """No game with that id (never made, or dropped from the bounded store)."""


class SeatError(ValueError):
    """A seat that may not act now (not its turn, not an AI seat, not in the game)."""


@dataclass
class Game:
    """One game: its deal, its decisions, the AI's seats and notes on the AI's moves."""

    game_id: str
    start: str
    ai_seats: list[int]
    bot: str
    actions: list[int] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    state: Any = None

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.replay(len(self.actions))

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

    def result(self) -> ResultModel | None:
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return ResultModel(
            winners=list(outcome.winners), reason=str(outcome.reason), returns=outcome.returns()
        )

    def apply(self, seat: int, action: int | str, note: LogEntry | None = None) -> None:
        """Play ``action`` for ``seat`` (raises the engine's errors; nothing changes on error)."""
        if seat != self.current:
            who = "nobody (the game is over)" if self.current is None else f"seat {self.current}"
            raise SeatError(f"it is {who}'s decision, not seat {seat}'s")
        if isinstance(action, str):
            played = self.state.action_from_text(action)
        else:
            played = self.state.action_from_id(action)
        self.state.apply(played)
        self.actions.append(int(played))
        self.log.append(
            note
            if note is not None
            else LogEntry(index=len(self.log), seat=seat, action=str(played), by_ai=False)
        )

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision and everything after it."""
        mine = [i for i, e in enumerate(self.log) if e.seat == seat and not e.by_ai]
        if not mine:
            raise SeatError(f"seat {seat} has no decision of its own to take back")
        keep = mine[-1]
        del self.actions[keep:]
        del self.log[keep:]
        self.state = self.replay(keep)

    def can_undo(self, seat: int) -> bool:
        return any(e.seat == seat and not e.by_ai for e in self.log)

    def saved(self) -> dict[str, Any]:
        return {
            "format": "splendor-web-game",
            "version": 1,
            "start": json.loads(self.start),
            "actions": list(self.actions),
            "ai_seats": list(self.ai_seats),
            "bot": self.bot,
        }

    def board_svg(self, viewer: int, state: Any = None) -> str:
        state = self.state if state is None else state
        names = {s: "AI" for s in self.ai_seats if s != viewer}
        legal: list[str] = []
        if state is self.state and self.current == viewer:
            legal = picks_of([str(a) for a in state.legal_actions()])
        return str(render.svg_board(state, viewer, names=names, legal=legal))


def picks_of(texts: list[str]) -> list[str]:
    """The board places (``data-pick`` values) that some legal action names."""
    picks: set[str] = set()
    for t in texts:
        words = t.split()
        if len(words) >= 2 and words[0] in ("buy", "recruit", "reserve"):
            rest = " ".join(words[1:])
            picks.add(rest)
        elif words and words[0] in ("noble", "royal", "location"):
            picks.add(t)
    return sorted(picks)


class GameStore:
    """At most ``max_games`` games, the one touched longest ago dropped first."""

    def __init__(self, max_games: int) -> None:
        self.max_games = max_games
        self._games: OrderedDict[str, Game] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def add(self, game: Game) -> Game:
        self._games[game.game_id] = game
        while len(self._games) > self.max_games:
            self._games.popitem(last=False)
        return game

    def new(
        self, variant: str, players: int, seed: int | None, ai_seats: list[int], bot: str
    ) -> Game:
        if seed is None:
            seed = secrets.randbits(63)
        state = splendor.new_game(variant, players=players, seed=seed)
        return self.add(self.make(state.to_json(), ai_seats, bot, []))

    def make(self, start: str, ai_seats: list[int], bot: str, actions: list[int]) -> Game:
        game = Game(secrets.token_urlsafe(12), start, sorted(set(ai_seats)), bot, list(actions))
        bad = [s for s in game.ai_seats if not 0 <= s < game.players]
        if bad:
            raise SeatError(f"AI seat(s) {bad} are not seats of a {game.players}-seat game")
        # Replayed decisions are logged as the seats' own (the notes of the AI are not saved).
        game.log = [
            LogEntry(index=i, seat=seat, action=text, by_ai=seat in game.ai_seats)
            for i, (seat, text) in enumerate(_decisions(start, actions))
        ]
        return game

    def get(self, game_id: str) -> Game:
        try:
            game = self._games[game_id]
        except KeyError:
            raise GameNotFound(f"no game {game_id!r} on this server (or it expired)") from None
        self._games.move_to_end(game_id)
        return game


def _decisions(start: str, actions: list[int]) -> list[tuple[int, str]]:
    state = splendor.from_json(start)
    out = []
    for a in actions:
        seat = state.current_player
        action = state.action_from_id(a)
        state.apply(action)
        out.append((seat, str(action)))
    return out
