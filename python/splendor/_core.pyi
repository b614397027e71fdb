"""The Rust engine (PyO3 bindings): state classes, actions, outcomes and batch play."""

from typing import Any, Final, SupportsIndex, TypedDict, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "VARIANTS",
    "Action",
    "BaseState",
    "DuelState",
    "Outcome",
    "from_json",
    "new_game",
    "random_games",
    "random_playout",
]

VARIANTS: Final[tuple[str, ...]]
"""The variant names this build supports, e.g. ``("base",)``."""

@final
class Action:
    """An action of one variant: a stable integer id and its text form.

    ``int(action)`` is the id and ``str(action)`` the canonical text. Actions
    compare equal when variant and id are equal, and are hashable.

    Args:
        variant: The variant name, e.g. ``"base"``.
        id: The action id, in ``0..num_actions`` of that variant.

    Raises:
        ConfigError: The variant is unknown.
        InvalidActionError: The id is out of range.
    """

    def __new__(cls, variant: str, id: int) -> Action: ...
    @property
    def variant(self) -> str:
        """The variant this action belongs to."""

    @property
    def id(self) -> int:
        """The stable integer id."""

    @property
    def text(self) -> str:
        """The canonical text form (same as ``str(action)``)."""

    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class Outcome:
    """The result of a finished game.

    Args:
        winners: The winning seats.
        reason: Why the game ended.
        num_players: Number of seats.
    """

    def __new__(cls, winners: list[int], reason: str, num_players: int) -> Outcome: ...
    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats, ascending (several: a shared win; none: truncated)."""

    @property
    def reason(self) -> str:
        """``points``, ``crowns``, ``colour``, ``gauntlet``, ``stalled`` or ``truncated``."""

    @property
    def num_players(self) -> int:
        """Number of seats."""

    @property
    def truncated(self) -> bool:
        """True when the turn cap ended the game."""

    @property
    def stalled(self) -> bool:
        """True when every player had to pass for a full round."""

    def returns(self) -> list[float]:
        """Returns per seat.

        Returns:
            ``1/k`` for each of ``k`` winners and 0 for everyone else (all zeros
            when truncated).
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class BaseState:
    """A Splendor (base game) state; mutable, ``child`` and ``clone`` copy it.

    The action table, JSON format and observation layout are in ``docs/base.md``.
    States compare equal when their full JSON is equal; they are not hashable.
    ``str(state)`` draws the board; pickle and ``copy.deepcopy`` work.
    """

    __hash__: None  # type: ignore[assignment]

    @staticmethod
    def from_json(text: str) -> BaseState:
        """Loads and validates a full state.

        Args:
            text: JSON text as written by ``to_json()``.

        Returns:
            The state.

        Raises:
            InvalidStateError: The JSON is malformed, a view, or inconsistent
                (the message names the problem).
        """

    def legal_actions(self) -> list[Action]:
        """The legal actions, ascending by id (empty once the game is over)."""

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, ascending."""

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of length ``num_actions``, true at the legal ids."""

    def apply(self, action: Action | SupportsIndex | str) -> None:
        """Plays an action in place.

        Args:
            action: An ``Action``, an int id or the action text.

        Raises:
            IllegalActionError: The action is not legal now (the state is unchanged).
            InvalidActionError: The text does not parse, the id is out of
                range, or the argument has the wrong type.
        """

    def child(self, action: Action | SupportsIndex | str) -> BaseState:
        """The state after ``action``; this one is unchanged.

        Args:
            action: An ``Action``, an int id or the action text.

        Returns:
            A new state.

        Raises:
            IllegalActionError: The action is not legal now.
            InvalidActionError: The action is malformed.
        """

    def clone(self) -> BaseState:
        """An independent copy."""

    @property
    def current_player(self) -> int:
        """The seat to decide, or -1 once the game is over."""

    @property
    def num_players(self) -> int:
        """Number of seats."""

    @property
    def num_actions(self) -> int:
        """Size of the action space (ids are ``0..num_actions``)."""

    @property
    def observation_size(self) -> int:
        """Length of ``observation()``."""

    @property
    def variant(self) -> str:
        """The variant name, ``"base"``."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def returns(self) -> list[float]:
        """One return per seat: the outcome's returns, zeros before the end."""

    def scores(self) -> list[int]:
        """Current points of each seat."""

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The float32 encoding of what ``player`` can see (layout in ``docs/base.md``).

        Args:
            player: The observing seat.

        Raises:
            ConfigError: ``player`` is not a seat of this game.
        """

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON (compact, keys sorted).

        Args:
            player: None for the full state, or the seat whose view (hidden
                cards redacted) to write.

        Raises:
            ConfigError: ``player`` is not a seat of this game.
        """

    def determinize(self, player: int, *, seed: int) -> BaseState:
        """A full state consistent with ``player``'s view, hidden cards resampled.

        Args:
            player: The observing seat.
            seed: Seed of the SplitMix64 stream that reshuffles the hidden cards.

        Raises:
            ConfigError: Bad seat or seed.
        """

    def action_from_text(self, text: str) -> Action:
        """Parses action text (case-insensitive).

        Raises:
            InvalidActionError: The text does not parse.
        """

    def action_from_id(self, id: SupportsIndex) -> Action:
        """The action with id ``id``.

        Raises:
            InvalidActionError: The id is out of range.
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __copy__(self) -> BaseState: ...
    def __deepcopy__(self, memo: Any, /) -> BaseState: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class DuelState:
    """A Splendor Duel state (2 players); mutable, ``child`` and ``clone`` copy it.

    The action table, JSON format and observation layout are in ``docs/duel.md``.
    States compare equal when their full JSON is equal; they are not hashable.
    ``str(state)`` draws the board; pickle and ``copy.deepcopy`` work.
    """

    __hash__: None  # type: ignore[assignment]

    @staticmethod
    def from_json(text: str) -> DuelState:
        """Loads and validates a full state.

        Args:
            text: JSON text as written by ``to_json()``.

        Returns:
            The state.

        Raises:
            InvalidStateError: The JSON is malformed, a view, or inconsistent
                (the message names the problem).
        """

    def legal_actions(self) -> list[Action]:
        """The legal actions, ascending by id (empty once the game is over)."""

    def legal_action_ids(self) -> list[int]:
        """The legal action ids, ascending."""

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of length ``num_actions``, true at the legal ids."""

    def apply(self, action: Action | SupportsIndex | str) -> None:
        """Plays an action in place.

        Args:
            action: An ``Action``, an int id or the action text.

        Raises:
            IllegalActionError: The action is not legal now (the state is unchanged).
            InvalidActionError: The text does not parse, the id is out of
                range, or the argument has the wrong type.
        """

    def child(self, action: Action | SupportsIndex | str) -> DuelState:
        """The state after ``action``; this one is unchanged.

        Args:
            action: An ``Action``, an int id or the action text.

        Returns:
            A new state.

        Raises:
            IllegalActionError: The action is not legal now.
            InvalidActionError: The action is malformed.
        """

    def clone(self) -> DuelState:
        """An independent copy."""

    @property
    def current_player(self) -> int:
        """The seat to decide, or -1 once the game is over."""

    @property
    def num_players(self) -> int:
        """Number of seats."""

    @property
    def num_actions(self) -> int:
        """Size of the action space (ids are ``0..num_actions``)."""

    @property
    def observation_size(self) -> int:
        """Length of ``observation()``."""

    @property
    def variant(self) -> str:
        """The variant name, ``"duel"``."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def returns(self) -> list[float]:
        """One return per seat: the outcome's returns, zeros before the end."""

    def scores(self) -> list[int]:
        """Current prestige points of each seat (cards and royals)."""

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The float32 encoding of what ``player`` can see (layout in ``docs/duel.md``).

        Args:
            player: The observing seat.

        Raises:
            ConfigError: ``player`` is not a seat of this game.
        """

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON (compact, keys sorted).

        Args:
            player: None for the full state, or the seat whose view (hidden
                cards redacted) to write.

        Raises:
            ConfigError: ``player`` is not a seat of this game.
        """

    def determinize(self, player: int, *, seed: int) -> DuelState:
        """A full state consistent with ``player``'s view, hidden cards resampled.

        Args:
            player: The observing seat.
            seed: Seed of the SplitMix64 stream that reshuffles the hidden cards.

        Raises:
            ConfigError: Bad seat or seed.
        """

    def action_from_text(self, text: str) -> Action:
        """Parses action text (case-insensitive).

        Raises:
            InvalidActionError: The text does not parse.
        """

    def action_from_id(self, id: SupportsIndex) -> Action:
        """The action with id ``id``.

        Raises:
            InvalidActionError: The id is out of range.
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __copy__(self) -> DuelState: ...
    def __deepcopy__(self, memo: Any, /) -> DuelState: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def new_game(variant: str, *, players: int = 2, seed: int = 0, turn_cap: int = 100) -> Any:
    """Deals a new game.

    Args:
        variant: One of ``VARIANTS``, e.g. ``"base"``.
        players: Number of seats.
        seed: Seed of the SplitMix64 stream that deals the game (``0..2**64``).
        turn_cap: Rounds after which the game ends as truncated.

    Returns:
        The variant's state class (``BaseState`` for ``"base"``, ``DuelState`` for ``"duel"``).

    Raises:
        ConfigError: Unknown variant, bad player count, seed or turn cap.
    """

def from_json(text: str) -> Any:
    """Loads a full state of any variant, dispatching on its ``"variant"`` field.

    Raises:
        InvalidStateError: The JSON is malformed, a view, or inconsistent.
    """

class _RandomGames(TypedDict):
    """Totals returned by :func:`random_games`."""

    variant: str
    players: int
    games: int
    decisions: int
    turns: int
    truncated: int
    stalled: int
    shared: int
    wins: list[int]
    elapsed: float

def random_games(
    variant: str, n: int, *, players: int = 2, seed: int = 0, turn_cap: int = 100
) -> _RandomGames:
    """Plays ``n`` uniformly random games in Rust with the GIL released.

    Game ``i`` is dealt from seed ``seed + i`` and played by choosing
    ``SplitMix64(seed + i).below(len(legal))`` among the ascending legal list
    each decision, so the reference engine can replay any of them.

    Args:
        variant: One of ``VARIANTS``.
        n: Number of games.
        players: Number of seats.
        seed: Seed of the first game.
        turn_cap: Rounds after which a game ends as truncated.

    Returns:
        Totals: ``games``, ``decisions``, ``turns``, ``truncated``, ``stalled``,
        ``shared`` (games with several winners), ``wins`` (games won per seat,
        shared wins included) and ``elapsed`` (seconds of play).

    Raises:
        ConfigError: Unknown variant or bad options.
    """

def random_playout(state: BaseState, seed: int) -> int:
    """Plays ``state`` to the end in place with uniformly random legal actions.

    Each decision picks ``SplitMix64(seed).below(len(legal))`` from the
    ascending legal list, exactly as ``splendor.reference.random_playout``.

    Args:
        state: A state of any variant.
        seed: Seed of the SplitMix64 stream (``0..2**64``).

    Returns:
        The number of decisions played.

    Raises:
        TypeError: ``state`` is not a splendor state.
        ConfigError: Bad seed.
    """
