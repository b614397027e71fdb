"""The Python surface of docs/contract.md, written once for every reference state class.

Each variant's public class (``reference/<variant>/__init__.py``) is its rules class with
this surface on top: the rules give the legal ids, the effect of an action and the outcome,
the variant gives its action text, its parsing and its reasons, and this class turns them
into the checked API, as the Rust engine's bindings do for every variant with one macro
(``src/python/state.rs``). Every method that can fail leaves the state unchanged.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

from splendor.errors import IllegalActionError, InvalidActionError
from splendor.reference.common import Action, Outcome, action_id, check_int, id_argument

_S = TypeVar("_S", bound="Surface")

PUBLIC_METHODS = (
    "action_from_id",
    "action_from_text",
    "apply",
    "child",
    "clone",
    "determinize",
    "from_json",
    "heuristic",
    "is_terminal",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "observation",
    "outcome",
    "returns",
    "scores",
    "to_json",
)
"""The methods of the contract's Python surface (the Rust classes' public methods): each
variant's class is decorated with ``typed_methods(*PUBLIC_METHODS)``, so a call that does
not fit one raises ConfigError naming its signature, as the Rust engine's does."""


class Surface:
    """The checked API every reference state has (docs/contract.md, Python surface)."""

    variant: ClassVar[str]
    num_actions: ClassVar[int]
    observation_size: ClassVar[int]
    num_players: int
    phase: str

    # ----------------------------------------------- what each variant provides

    def legal_ids(self) -> list[int]:
        """The legal action ids, ascending (the variant's rules)."""
        raise NotImplementedError

    def apply_unchecked(self, a: int) -> None:
        """Play a legal action id (the variant's rules)."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None (the variant's rules)."""
        raise NotImplementedError

    def clone(self: _S) -> _S:
        """An independent copy."""
        raise NotImplementedError

    @staticmethod
    def _action_text(a: int) -> str:
        """The canonical text of action id ``a`` (the variant's ``actions`` room)."""
        raise NotImplementedError

    @staticmethod
    def _parse_action(text: str) -> int:
        """The id of action text (InvalidActionError naming the text on failure)."""
        raise NotImplementedError

    def _explain(self, a: int) -> str:
        """Why the well-formed action ``a`` is not legal now (the variant's ``explain``)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ actions

    def _action(self, a: int) -> Action:
        return Action(self.variant, a, self._action_text(a))

    def action_from_id(self, id: int) -> Action:
        """The Action of id ``id`` (InvalidActionError when out of range or not an int)."""
        return self._action(id_argument(id, self.num_actions))

    def action_from_text(self, text: str) -> Action:
        """Parse action text (InvalidActionError naming the text on failure)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a str, not {type(text).__name__}")
        return self._action(self._parse_action(text))

    def _resolve(self, a: Action | int | str) -> int:
        found = action_id(a, self.num_actions, self.variant)
        if found is None:
            assert isinstance(a, str)
            return self._parse_action(a)
        return found

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, ascending."""
        return self.legal_ids()

    def legal_actions(self) -> list[Action]:
        """The legal actions, ascending by id."""
        return [self._action(a) for a in self.legal_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of length ``num_actions``, True where the action is legal."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[self.legal_ids()] = True
        return mask

    def apply(self, action: Action | int | str) -> None:
        """Play an action given as an Action, an id or text; the state is unchanged on error."""
        i = self._resolve(action)
        if self.phase == "over":
            raise IllegalActionError(f"the game is over; `{self._action_text(i)}` cannot be played")
        if i not in self.legal_ids():
            raise IllegalActionError(
                f"`{self._action_text(i)}` is not legal now: {self._explain(i)}"
            )
        self.apply_unchecked(i)

    def child(self: _S, action: Action | int | str) -> _S:
        """A new state with ``action`` applied (this one is unchanged)."""
        out = self.clone()
        out.apply(action)
        return out

    # ------------------------------------------------------------------ queries

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == "over"

    def returns(self) -> list[float]:
        """One float per seat: 1/k to each of k winners, zeros before the end."""
        outcome = self.outcome()
        return [0.0] * self.num_players if outcome is None else outcome.returns()

    def _seat(self, player: object) -> int:
        return check_int(player, "player", 0, self.num_players - 1)

    # ------------------------------------------------------------------ dunders

    def __copy__(self: _S) -> _S:
        # A shallow copy would share the players' token lists with this state.
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state, or of ``player``'s view (the variant's ``json``)."""
        raise NotImplementedError
