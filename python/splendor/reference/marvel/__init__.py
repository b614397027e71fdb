"""Splendor: Marvel, the reference engine (the executable specification).

Format: ``docs/marvel.md``; rules: ``shared/rules/marvel.md``. Written for
clarity, not speed: the Rust engine is checked against it move for move.

The package mirrors ``src/variants/marvel/`` room for room (docs/contract.md, *The
rooms of a variant*): the state and its setup live in
:mod:`~splendor.reference.marvel.state`, the rules in
:mod:`~splendor.reference.marvel.rules`; :class:`MarvelState` adds the checked API of
docs/contract.md (Python surface), each method one call into a room.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from splendor.errors import IllegalActionError, InvalidActionError
from splendor.reference.common import (
    Action,
    action_id,
    check_int,
    dump_json,
    id_argument,
    load_json,
    parse_json,
)
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import (
    COLOURS,
    bundled_data,
    data_by_id,
    intern,
    load_data,
)
from splendor.reference.marvel.eval import heuristic
from splendor.reference.marvel.explain import explain_illegal
from splendor.reference.marvel.json import from_obj, to_obj
from splendor.reference.marvel.observe import OBSERVATION_SIZE, determinize, observation
from splendor.reference.marvel.render import render
from splendor.reference.marvel.rules import MarvelRules
from splendor.reference.marvel.state import PlayerState, Reserve
from splendor.reference.rng import SplitMix64


class MarvelState(MarvelRules):
    """A Splendor: Marvel game state (full information; views via ``to_json``)."""

    variant = "marvel"
    num_actions = A.NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    @property
    def current_player(self) -> int:
        """The seat to decide, -1 when the game is over."""
        return -1 if self.phase == "over" else self.current

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == "over"

    def legal_action_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        return self.legal_ids()

    def legal_actions(self) -> list[Action]:
        """Legal actions, ascending by id."""
        return [Action("marvel", a, A.ALL_TEXT[a]) for a in self.legal_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of length ``num_actions``."""
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
        mask[self.legal_ids()] = True
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

    def apply(self, action: Action | int | str) -> None:
        """Apply a legal action (an Action, id or text); the state is unchanged on error."""
        a = self._resolve(action)
        if self.phase == "over":
            raise IllegalActionError(f"the game is over; `{A.ALL_TEXT[a]}` cannot be played")
        if a not in self.legal_ids():
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

    def returns(self) -> list[float]:
        """One float per seat: 1/k to each of k winners, zeros before the end."""
        o = self.outcome()
        return o.returns() if o is not None else [0.0] * self.num_players

    def heuristic(self, player: int) -> float:
        """A value in [0, 1] for ``player`` (docs/marvel.md section 8)."""
        return heuristic(self, self._check_seat(player))

    # ----- hidden information -----------------------------------------------

    def determinize(self, player: int, *, seed: int) -> MarvelState:
        """A full state consistent with ``player``'s view (contract: sorted pools)."""
        seat = self._check_seat(player)
        rng = SplitMix64(check_int(seed, "seed", 0, 2**64 - 1))
        out = self.clone()
        determinize(out, seat, rng)
        return out

    def _check_seat(self, player: object) -> int:
        return check_int(player, "player", 0, self.num_players - 1)

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``player`` (docs/marvel.md section 6)."""
        return observation(self, self._check_seat(player))

    # ----- JSON ---------------------------------------------------------------

    def to_obj(self, player: int | None = None) -> dict[str, Any]:
        """The JSON object of the full state or of ``player``'s view."""
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
        obj = parse_json(text)
        if cards is None and locations is None:
            # An unknown identity: validation against the bundled set names it.
            data = data_by_id(obj.get("card_set")) or bundled_data()
        else:
            data = load_data(cards, locations)
        state = cls.__new__(cls)
        from_obj(obj, data, state)
        return state

    # ----- Python protocol ------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MarvelState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        return {"json": self.to_json(), "data": self.data}

    def __setstate__(self, st: dict[str, Any]) -> None:
        # Registered again, so that from_json finds the set in this process too.
        from_obj(load_json(st["json"]), intern(st["data"]), self)

    def __repr__(self) -> str:
        return (
            f"<MarvelState players={self.num_players} turn={self.turn} phase={self.phase} "
            f"current={self.current_player} scores={self.scores()}>"
        )

    def __str__(self) -> str:
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
