"""The Rust engine (PyO3 bindings): state classes, actions, outcomes and batch play."""

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import (
    Any,
    Final,
    Literal,
    SupportsIndex,
    TypeAlias,
    TypedDict,
    final,
    overload,
    type_check_only,
)

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

__all__ = [
    "VARIANTS",
    "Action",
    "BaseState",
    "BotSpec",
    "DuelState",
    "GreedyBot",
    "MarvelState",
    "MatchResult",
    "MctsBot",
    "Network",
    "Outcome",
    "RandomBot",
    "SearchResult",
    "VectorEnv",
    "_live_marvel_card_sets",
    "_observation_spec",
    "_restore_match_result",
    "_restore_search_result",
    "from_json",
    "match",
    "new_game",
    "parse_bot_spec",
    "random_games",
    "random_playout",
    "search",
    "selfplay_games",
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
        id: The action id, between 0 and ``num_actions - 1`` of that variant.

    Raises:
        ConfigError: The variant is unknown or not a str.
        InvalidActionError: The id is not an integer or out of range.
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
        winners: The winning seats (several: a shared win; none: the turn cap
            ended the game).
        reason: Why the game ended: ``points``, ``crowns``, ``colour``,
            ``gauntlet``, ``stalled`` or ``truncated``.
        num_players: Number of seats (1 to 4).

    Raises:
        ConfigError: A seat out of range or repeated, an unknown reason, or
            winners of a truncated game.
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
            Exactly ``1/k`` (a float64: 0.3333333333333333 for three) for each
            of ``k`` winners and 0 for everyone else (all zeros when truncated).
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@type_check_only
class _State:
    """What every state class shares (a name for the stubs only: at run time
    each state class defines these itself)."""

    __hash__: None  # type: ignore[assignment]
    def __new__(cls, *_args: object, **_kwargs: object) -> Self:
        """No constructor: raises ``ConfigError`` (use ``new_game`` or ``from_json``)."""

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

    def child(self, action: Action | SupportsIndex | str) -> Self:
        """The state after ``action``; this one is unchanged.

        Args:
            action: An ``Action``, an int id or the action text.

        Returns:
            A new state.

        Raises:
            IllegalActionError: The action is not legal now.
            InvalidActionError: The action is malformed.
        """

    def clone(self) -> Self:
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
        """The variant name: ``"base"``, ``"duel"`` or ``"marvel"``."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def returns(self) -> list[float]:
        """One return per seat: the outcome's exact returns, zeros before the end."""

    def scores(self) -> list[int]:
        """Current points of each seat (Duel: prestige points, of cards and royals)."""

    def heuristic(self, player: int) -> float:
        """Value in ``[0, 1]`` of the position for ``player`` (docs/base.md and
        docs/duel.md, *Heuristic*; docs/marvel.md §8).

        The player's return once the game is over. The search scores rollout
        cut-offs and sets move priors with it; ``GreedyBot`` maximises it.

        Raises:
            ConfigError: ``player`` is not a seat.
        """

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The float32 encoding of what ``player`` can see (layout in the
        variant's ``docs/<variant>.md``).

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

    def determinize(self, player: int, *, seed: int) -> Self:
        """A full state consistent with ``player``'s view, hidden cards resampled.

        Args:
            player: The observing seat.
            seed: Seed of the SplitMix64 stream that reshuffles the hidden cards.

        Raises:
            ConfigError: Bad seat or seed (an int between 0 and 2**64 - 1).
        """

    def action_from_text(self, text: str) -> Action:
        """Parses action text (case-insensitive).

        Raises:
            InvalidActionError: The text does not parse, or is not a str.
        """

    def action_from_id(self, id: SupportsIndex) -> Action:
        """The action with id ``id``.

        Raises:
            InvalidActionError: The id is out of range.
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any, /) -> Self: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class BaseState(_State):
    """A Splendor (base game) state; mutable, ``child`` and ``clone`` copy it.

    The action table, JSON format and observation layout are in ``docs/base.md``.
    States compare equal when their full JSON is equal; they are not hashable.
    ``str(state)`` draws the board; pickle and ``copy.deepcopy`` work.
    """

    @staticmethod
    def from_json(text: str) -> BaseState:
        """Loads and validates a full state.

        Args:
            text: JSON text as written by ``to_json()``.

        Returns:
            The state.

        Raises:
            InvalidStateError: The JSON is malformed, a view, or inconsistent
                (the message names the problem), or ``text`` is not a str.
        """

@final
class DuelState(_State):
    """A Splendor Duel state (2 players); mutable, ``child`` and ``clone`` copy it.

    The action table, JSON format and observation layout are in ``docs/duel.md``.
    States compare equal when their full JSON is equal; they are not hashable.
    ``str(state)`` draws the board; pickle and ``copy.deepcopy`` work.
    """

    @staticmethod
    def from_json(text: str) -> DuelState:
        """Loads and validates a full state.

        Args:
            text: JSON text as written by ``to_json()``.

        Returns:
            The state.

        Raises:
            InvalidStateError: The JSON is malformed, a view, or inconsistent
                (the message names the problem), or ``text`` is not a str.
        """

@final
class MarvelState(_State):
    """A Splendor: Marvel state; mutable, ``child`` and ``clone`` copy it.

    The action table, JSON format and observation layout are in ``docs/marvel.md``.
    The state records its card set's identity (``"card_set"``, the SHA-256 of the
    set's canonical CSV text); ``from_json`` finds the bundled set or a set some
    live state uses by that identity, or loads the set from ``cards=`` /
    ``locations=`` files. A pickle of a state on a custom set carries the set, so
    it loads in a process that never saw the files.
    States compare equal when their full JSON is equal; they are not hashable.
    ``str(state)`` draws the board; pickle and ``copy.deepcopy`` work.
    """

    @staticmethod
    def from_json(
        text: str,
        *,
        cards: str | os.PathLike[str] | None = None,
        locations: str | os.PathLike[str] | None = None,
    ) -> MarvelState:
        """Loads and validates a full state.

        Args:
            text: JSON text as written by ``to_json()``.
            cards: The card file of a custom set (a path or the CSV text), as
                given to ``new_game``; ``None`` (with ``locations`` also
                ``None``): the set is found by the identity the JSON records.
            locations: The location file, likewise (``None``: the bundled one
                when ``cards`` is given).

        Returns:
            The state.

        Raises:
            InvalidStateError: The JSON is malformed, a view, or inconsistent
                (the message names the problem), or its ``card_set`` is not
                the set given, the bundled set or a set a live state uses.
            CardDataError: A card or location file is unreadable or malformed.
        """

_AnyState: TypeAlias = BaseState | DuelState | MarvelState
"""A state of any variant of this engine (a name for the stubs only)."""

@overload
def new_game(
    variant: Literal["base"],
    *,
    players: int | None = 2,
    seed: int = 0,
    turn_cap: int | None = 100,
    cards: None = None,
    locations: None = None,
) -> BaseState: ...
@overload
def new_game(
    variant: Literal["duel"],
    *,
    players: int | None = 2,
    seed: int = 0,
    turn_cap: int | None = 100,
    cards: None = None,
    locations: None = None,
) -> DuelState: ...
@overload
def new_game(
    variant: Literal["marvel"],
    *,
    players: int | None = 2,
    seed: int = 0,
    turn_cap: int | None = 100,
    cards: str | os.PathLike[str] | None = None,
    locations: str | os.PathLike[str] | None = None,
) -> MarvelState: ...
@overload
def new_game(
    variant: str,
    *,
    players: int | None = 2,
    seed: int = 0,
    turn_cap: int | None = 100,
    cards: str | os.PathLike[str] | None = None,
    locations: str | os.PathLike[str] | None = None,
) -> _AnyState:
    """Deals a new game.

    Args:
        variant: One of ``VARIANTS``, e.g. ``"base"``.
        players: Number of seats (2 to 4; Duel: 2). None: 2.
        seed: Seed of the SplitMix64 stream that deals the game (an int
            between 0 and 2**64 - 1).
        turn_cap: Rounds after which the game ends as truncated. None: 100.
        cards: Marvel only: a corrected card file, as a path or the CSV text
            (None: the bundled file). See ``docs/marvel.md`` section 7.
        locations: Marvel only: a corrected location file, likewise.

    Returns:
        The variant's state class (``BaseState``, ``DuelState`` or ``MarvelState``;
        a literal variant name gives type checkers the exact class).

    Raises:
        ConfigError: Unknown variant, bad player count, seed or turn cap, or
            card files for a variant other than marvel.
        CardDataError: A card or location file is malformed or unreadable.
    """

def from_json(text: str) -> _AnyState:
    """Loads a full state of any variant, dispatching on its ``"variant"`` field.

    Raises:
        InvalidStateError: The JSON is malformed, a view, or inconsistent, or
            ``text`` is not a str.
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
    variant: str,
    n: int,
    *,
    players: int | None = 2,
    seed: int = 0,
    turn_cap: int | None = 100,
) -> _RandomGames:
    """Plays ``n`` uniformly random games in Rust with the GIL released.

    Game ``i`` is dealt from seed ``seed + i`` and played by choosing
    ``SplitMix64(seed + i).below(len(legal))`` among the ascending legal list
    each decision, so the reference engine can replay any of them.

    Ctrl-C stops the batch and raises ``KeyboardInterrupt`` within a fraction
    of a second.

    Args:
        variant: One of ``VARIANTS``.
        n: Number of games (an int between 0 and 2**64 - 1).
        players: Number of seats.
        seed: Seed of the first game.
        turn_cap: Rounds after which a game ends as truncated.

    Returns:
        Totals: ``games``, ``decisions``, ``turns``, ``truncated``, ``stalled``,
        ``shared`` (games with several winners), ``wins`` (games won per seat,
        shared wins included) and ``elapsed`` (seconds of play).

    Raises:
        ConfigError: Unknown variant or bad options.
        KeyboardInterrupt: Ctrl-C during the games.
    """

def _live_marvel_card_sets() -> int:
    """The number of custom Marvel card sets alive in this process (for memory tests).

    A custom set is freed with the last state that uses it.
    """

def random_playout(state: _AnyState, seed: int) -> int:
    """Plays ``state`` to the end in place with uniformly random legal actions.

    Each decision picks ``SplitMix64(seed).below(len(legal))`` from the
    ascending legal list, exactly as ``splendor.reference.random_playout``.
    One game takes microseconds, so the GIL is kept.

    Args:
        state: A state of any variant (of this engine).
        seed: Seed of the SplitMix64 stream (an int between 0 and 2**64 - 1).

    Returns:
        The number of decisions played.

    Raises:
        InvalidStateError: ``state`` is not a state of this engine.
        ConfigError: Bad seed.
    """

# --- search, bots and matches (src/python/search.rs) ---
#
# Bots and ``search`` take the states of this engine only: a reference-engine
# state raises InvalidStateError (convert it with ``from_json(state.to_json())``).

@final
class RandomBot:
    """Plays a uniformly random legal action; seeded, so reproducible.

    Bots pickle and deep-copy with their random stream as it stands, so a copy
    plays on exactly as the original.

    Args:
        seed: Seeds the bot's own random stream (an int between 0 and 2**64 - 1).
    """

    def __new__(cls, seed: int = 0) -> RandomBot: ...
    def act(self, state: _AnyState) -> Action:
        """The action this bot plays in ``state``, a state of any variant.

        Safe to call from several threads at once (calls are taken in turn).

        Raises:
            ConfigError: ``state`` is finished.
            InvalidStateError: ``state`` is not a state of this engine.
        """

    def __reduce__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: int, /) -> None:
        """Restores the random stream saved by ``__reduce__``.

        Raises:
            InvalidStateError: ``state`` is not an int between 0 and 2**64 - 1.
        """

@final
class GreedyBot:
    """One ply greedy: the action whose result has the best heuristic for the mover.

    Ties are broken by the seeded random stream. Pickles and deep-copies like
    :class:`RandomBot`.

    Args:
        seed: Seeds the tie-breaks (an int between 0 and 2**64 - 1).
    """

    def __new__(cls, seed: int = 0) -> GreedyBot: ...
    def act(self, state: _AnyState) -> Action:
        """The action this bot plays in ``state``, a state of any variant.

        Safe to call from several threads at once (calls are taken in turn).

        Raises:
            ConfigError: ``state`` is finished.
            InvalidStateError: ``state`` is not a state of this engine.
        """

    def __reduce__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: int, /) -> None:
        """Restores the random stream saved by ``__reduce__``.

        Raises:
            InvalidStateError: ``state`` is not an int between 0 and 2**64 - 1.
        """

@final
class MctsBot:
    """Information-set MCTS with determinization (reads nothing hidden).

    Pickles and deep-copies with its settings and its stream of per-move seeds
    as it stands, so a copy plays on exactly as the original.

    Args:
        iterations: Total iteration budget per move over all threads.
            ``None``: 1000, or no iteration limit when ``time_limit`` is given.
        time_limit: Seconds per move (a finite number >= 0), or ``None``. With
            both budgets the first reached stops the search. ``0`` runs the
            least search there is: the clock is read every 8 iterations, so 8
            iterations per thread.
        threads: Root-parallel search trees (one per thread, 1 to 256), merged
            at the root.
        seed: Seeds the bot's stream of per-move search seeds.
        max_nodes: Node cap per tree (2 to 2**31 - 1); once reached the tree
            stops growing.
        rollout_depth: Rollout decisions before the heuristic cut. Rollouts play
            the variant's fast playout policy (base game) or move averages
            (MAST), with 30% uniform moves.
        exploration: Weight of the prior in the PUCT rule (rewards are in
            ``[0, 1]``; a finite number >= 0): a child scores ``mean +
            exploration * prior * sqrt(n) / (1 + visits)``, the prior being a
            softmax over the one-ply heuristic of each move. With
            ``prior_temperature=None``, the UCT constant: ``mean + exploration *
            sqrt(ln(n) / visits)``.
        prior_temperature: Temperature (> 0) of that softmax, in heuristic
            units: lower trusts the heuristic more. ``None``: plain UCT, no
            prior. A temperature so small that its reciprocal overflows
            (below about 3e-39, e.g. 1e-320) is the softmax's limit: the whole
            prior on the best move(s).

        network: A :class:`Network`, or the path of a network file, or
            ``None``. With a network the search is AlphaZero's PUCT: a leaf is
            expanded on its first visit with the network's prior over the legal
            actions and the network's value is backed up; no rollouts
            (``rollout_depth`` and ``prior_temperature`` are unused). The
            network reads only the mover's observation of each
            determinization, so it sees nothing hidden.
        leaf_batch: Leaves evaluated per forward pass of the network (1 to
            256; unused without a network). Above 1 each tree selects that many
            leaves one after the other, each path taking a virtual loss, and
            evaluates them in one batched pass: more iterations per second,
            slightly staler selections (docs/network.md, "Batched leaf
            evaluation"). ``1`` is the plain search.
        move_temperature: How the move is chosen from the root's visits (a finite
            number >= 0): ``0`` plays the most visited action; ``T > 0`` draws an
            action with probability proportional to ``visits ** (1 / T)`` (1: in
            proportion to the visits, above 1 flatter), from a stream seeded by the
            move's search seed, so a seeded bot stays reproducible. Only actions the
            search visited can be drawn. The AI levels (``level:1`` ...) play so.
        fpu_reduction: First-play urgency reduction of PUCT (a finite number
            >= 0; unused by plain UCT): a move never tried is scored as if its
            mean were that of the tried moves less ``fpu_reduction * sqrt(m)``,
            ``m`` being the prior mass of the tried moves, so a small budget
            goes deeper into the moves the prior likes instead of trying every
            move once. ``0``: the tried moves' mean as it is
            (docs/network.md, "Tree policy settings").
        policy_temperature: Temperature of the network's prior (a finite number
            > 0; unused without a network): the prior is a softmax of the policy
            logits divided by it, so above 1 it is flatter and the search checks
            more of the moves the network ranks below its favourite. ``1``: the
            network's prior as trained.
        early_stop: Stops a search with an iteration budget early (a finite
            number >= 0): once its most visited move leads the runner-up by more
            than ``early_stop`` times the iterations left (read every 8
            iterations). ``0``: never. ``1``: exactly when the runner-up could
            no longer catch up, so the move is the full budget's in less time;
            below 1 sooner (docs/network.md, "Early stop"). Unused with a time
            limit alone.

    Raises:
        ConfigError: A bad argument (the message names it and its range), or a
            ``network`` that is neither a Network nor a path.
        NetworkError: The network file is unreadable or bad. A network for
            another variant or player count is refused by :meth:`act`.
    """

    def __new__(
        cls,
        iterations: int | None = None,
        time_limit: float | None = None,
        threads: int = 1,
        seed: int = 0,
        max_nodes: int = 1048576,
        rollout_depth: int = 24,
        exploration: float = 0.7,
        prior_temperature: float | None = 0.02,
        network: Network | str | os.PathLike[str] | None = None,
        leaf_batch: int = 1,
        move_temperature: float = 0.0,
        fpu_reduction: float = 0.0,
        policy_temperature: float = 1.0,
        early_stop: float = 0.0,
    ) -> MctsBot: ...
    @property
    def iterations(self) -> int:
        """The iteration budget per move (0: time only)."""

    @property
    def time_limit(self) -> float | None:
        """Seconds per move, if limited by time."""

    @property
    def threads(self) -> int:
        """Search threads."""

    @property
    def leaf_batch(self) -> int:
        """Leaves evaluated per forward pass of the network (1: one at a time)."""

    @property
    def move_temperature(self) -> float:
        """The temperature of the move's choice (0: the most visited action)."""

    @property
    def exploration(self) -> float:
        """The weight of the prior in the PUCT rule (the UCT constant without a
        prior)."""

    @property
    def fpu_reduction(self) -> float:
        """The first-play urgency reduction of the tree policy (0: none)."""

    @property
    def policy_temperature(self) -> float:
        """The temperature of the network's prior (1: as the network gives it)."""

    @property
    def early_stop(self) -> float:
        """The early stop of a search with an iteration budget (0: none)."""

    @property
    def network_sha256(self) -> str | None:
        """SHA-256 (hex) of the network file, or ``None`` for the rollout search."""

    def act(self, state: _AnyState) -> Action:
        """Searches ``state`` (GIL released) and returns the chosen action.

        Ctrl-C stops the search and raises ``KeyboardInterrupt`` within a
        fraction of a second. Safe to call from several threads at once: each
        call draws its own seed from the bot's stream and searches in parallel
        with the others.

        Raises:
            ConfigError: ``state`` is finished.
            InvalidStateError: ``state`` is not a state of this engine.
            KeyboardInterrupt: Ctrl-C during the search.
        """

    def __reduce__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: int, /) -> None:
        """Restores the stream of per-move seeds saved by ``__reduce__``.

        Raises:
            InvalidStateError: ``state`` is not an int between 0 and 2**64 - 1.
        """

@final
class BotSpec:
    """A bot spec, parsed (what :func:`parse_bot_spec` returns): what it names and the
    budget it gives, nothing loaded yet.

    ``str(spec)`` is the spec in its one spelling, which parses back to an equal spec;
    specs compare and hash by it, and pickle.

    Args:
        text: The spec; see :func:`parse_bot_spec`.

    Raises:
        ConfigError: ``text`` is not a spec (the message lists the forms).
    """

    def __new__(cls, text: str) -> BotSpec: ...
    @property
    def kind(self) -> Literal["default", "level", "random", "greedy", "mcts", "net"]:
        """What the spec names: "default", "level", "random", "greedy", "mcts" or
        "net"."""

    @property
    def iterations(self) -> int | None:
        """N of ``mcts:N`` / ``net:N``; None when the spec gives no iteration count."""

    @property
    def time_limit(self) -> float | None:
        """T of ``mcts:Ts`` / ``net:Ts`` (seconds per move); None when the spec gives no
        time."""

    @property
    def network(self) -> str | None:
        """PATH of ``net:N@PATH`` / ``net:Ts@PATH``; None when the spec names no file."""

    @property
    def leaf_batch(self) -> int | None:
        """B of ``net:...:batch=B`` (leaves per forward pass of the network); None when
        the spec gives none."""

    @property
    def move_temperature(self) -> float | None:
        """T of ``...:temp=T`` (the ``move_temperature`` of :class:`MctsBot`); None when
        the spec gives none (the most visited move)."""

    @property
    def exploration(self) -> float | None:
        """C of ``...:c=C`` (the ``exploration`` of :class:`MctsBot`); None when the
        spec gives none (0.7)."""

    @property
    def fpu_reduction(self) -> float | None:
        """R of ``...:fpu=R`` (the ``fpu_reduction`` of :class:`MctsBot`); None when
        the spec gives none (0)."""

    @property
    def policy_temperature(self) -> float | None:
        """P of ``net:...:ptemp=P`` (the ``policy_temperature`` of :class:`MctsBot`);
        None when the spec gives none (1)."""

    @property
    def early_stop(self) -> float | None:
        """S of ``...:stop=S`` (the ``early_stop`` of :class:`MctsBot`); None when the
        spec gives none (0: no early stop)."""

    @property
    def level(self) -> int | None:
        """L of ``level:L`` (1 to 10); None for the other kinds."""

    def build(self, seed: int = 0) -> RandomBot | GreedyBot | MctsBot:
        """A fresh bot of what the spec names, seeded with ``seed``: a
        :class:`RandomBot`, :class:`GreedyBot` or :class:`MctsBot` (a ``net`` spec's
        network file is read now).

        Only a spec the engine can build: ``default``, ``level:L`` and a ``net`` spec
        without its file name the network shipped for a game, which the Python package
        finds (:func:`splendor.bots.make_bot` resolves, then builds).

        >>> bot = parse_bot_spec("mcts:50:temp=0.5").build(seed=3)
        >>> bot.iterations, bot.move_temperature
        (50, 0.5)

        Raises:
            ConfigError: A spec that names the shipped network, or a bad seed.
            NetworkError: The network file is unreadable or bad.
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def parse_bot_spec(text: str) -> BotSpec:
    """Parses a bot spec: the one parser of the engine, ``splendor.match``, the command
    line and the web server, so a spec means the same everywhere.

    The forms: ``default`` (the package's default AI for the game), ``level:1`` to
    ``level:10`` (the AI levels, weakest first, ``level:10`` being the default AI; see
    :data:`splendor.bots.LEVELS`), ``random``,
    ``greedy``, ``mcts`` (1000 iterations), ``mcts:N`` (N iterations), ``mcts:Ts`` (T
    seconds per move), ``net``, ``net:N``, ``net:Ts`` (the search guided by the network
    shipped for the game), ``net:N@PATH``, ``net:Ts@PATH`` (the network file at PATH);
    a ``net`` budget may be followed by ``:batch=B`` (``net:900:batch=4@PATH``: B leaves,
    between 1 and 256, per forward pass of the network, the ``leaf_batch`` of
    :class:`MctsBot`), an ``mcts`` or ``net`` budget by ``:c=C`` after any batch
    (``net:3500:batch=4:c=0.5``: the ``exploration`` of :class:`MctsBot`, a number > 0
    spelled as T), then by ``:fpu=R`` (``net:1000:batch=4:fpu=0.2``: the
    ``fpu_reduction`` of :class:`MctsBot`, a number > 0 spelled as T), a ``net``
    budget then by ``:ptemp=P`` (the ``policy_temperature`` of :class:`MctsBot`,
    spelled as T), either then by ``:stop=S`` (``net:4500:batch=4:stop=1``: the
    ``early_stop`` of :class:`MctsBot`, spelled as T) and by ``:temp=T`` after those
    (``mcts:100:temp=0.5``,
    ``net:40:batch=4:temp=1@PATH``: the ``move_temperature`` of :class:`MctsBot`, a
    number > 0 spelled as T).
    N, B and L are digits only (1 or more); T is digits with an optional decimal part (``0.5``,
    ``2``), more than 0: no sign, exponent, underscore, ``inf`` or ``nan``. Keywords may
    be in any case; spaces around the text and its parts are ignored (``mcts: 500`` is
    ``mcts:500``). Nothing is loaded or checked against a game: a limit on the budget is
    checked on the result.

    >>> spec = parse_bot_spec("mcts: 500")
    >>> spec.kind, spec.iterations, str(spec)
    ('mcts', 500, 'mcts:500')

    Raises:
        ConfigError: ``text`` is not one of the forms (the message lists them, in the
            words of every bad spec's error).
    """

@final
class SearchResult:
    """What :func:`search` found.

    Results compare equal when every field is equal; they pickle and deep-copy.
    """

    def __new__(cls, *_args: object, **_kwargs: object) -> SearchResult:
        """No constructor: raises ``ConfigError`` (results come from :func:`search`)."""

    @property
    def action(self) -> Action:
        """The most visited action (ties: higher value, then lower id)."""

    @property
    def visits(self) -> dict[Action, int]:
        """Visits of each legal action, summed over threads."""

    @property
    def values(self) -> dict[Action, float]:
        """Mean reward in ``[0, 1]`` of each legal action for the player to move."""

    @property
    def iterations(self) -> int:
        """Iterations run over all threads."""

    @property
    def nodes(self) -> int:
        """Tree nodes over all threads."""

    @property
    def lines(self) -> dict[Action, list[tuple[int, Action]]]:
        """The expected line of each legal action, as ``(seat, action)`` pairs: the
        action by the player to move, then the most visited reply in the search tree,
        its most visited reply, and so on (at most 8 decisions; with several threads,
        the line of the tree that visited the action most). The tree holds only what
        the player to move could see, so the line does too; a later action may name a
        card slot whose card the player cannot know yet."""

    @property
    def principal_variation(self) -> list[tuple[int, Action]]:
        """The expected line of the chosen action (``lines[action]``)."""

    __hash__: None  # type: ignore[assignment]
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def search(
    state: _AnyState,
    *,
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int = 0,
    max_nodes: int = 1048576,
    rollout_depth: int = 24,
    exploration: float = 0.7,
    prior_temperature: float | None = 0.02,
    network: Network | str | os.PathLike[str] | None = None,
    leaf_batch: int = 1,
    root_action: Action | int | str | None = None,
    stop: threading.Event | None = None,
    move_temperature: float = 0.0,
    fpu_reduction: float = 0.0,
    policy_temperature: float = 1.0,
    early_stop: float = 0.0,
) -> SearchResult:
    """Searches ``state`` for the player to move, with the GIL released.

    Reproducible for a fixed seed, thread count and iteration budget. The
    arguments are those of :class:`MctsBot`, and ``root_action`` (an action
    legal in ``state``, its id or its text): search only that move at the
    root, so that its value gets the whole budget (a game review's estimate of
    a move played that the full search hardly tried), and ``stop`` (a
    ``threading.Event``): once it is set, the search ends within a fraction of
    a second with what it found so far, as when a time limit is reached (a
    thread that is not Python's main thread, which Ctrl-C does not reach, is
    stopped this way). Ctrl-C stops the search (in every thread) and raises
    ``KeyboardInterrupt`` within a fraction of a second.

    Raises:
        ConfigError: Bad arguments (``stop`` without ``is_set()``) or a finished game.
        InvalidActionError: ``root_action`` is not an action of this variant.
        IllegalActionError: ``root_action`` is not legal in ``state``.
        NetworkError: A bad network file, or a network for another variant or
            player count.
        InvalidStateError: ``state`` is not a state of this engine.
        KeyboardInterrupt: Ctrl-C during the search.
    """

@final
class Network:
    """A policy/value network file (safetensors, format ``splendor-net/1``),
    evaluated in Rust. Pickles by its bytes; equal when the files are.

    Raises (``load``, ``from_bytes``):
        ConfigError: ``path`` is not a path, ``data`` not bytes.
        NetworkError: Not a network file (truncated, wrong metadata, a missing,
            extra or misshapen tensor, a non-F32 dtype, a non-finite weight,
            weights too large for float32), or sizes that do not match its variant.
    """

    def __new__(cls, *_args: object, **_kwargs: object) -> Network:
        """No constructor: raises ``ConfigError`` (use :meth:`load` or :meth:`from_bytes`)."""

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Network:
        """Reads a network file.

        Raises:
            ConfigError: ``path`` is not a str or os.PathLike.
            NetworkError: The file cannot be read, is not a regular file (a
                folder, a FIFO, a device), is over 1 GiB, or is not a network file.
        """

    @staticmethod
    def from_bytes(data: bytes) -> Network:
        """Reads a network from the bytes of a file.

        Raises:
            ConfigError: ``data`` is not bytes.
            NetworkError: Not a network file.
        """

    def to_bytes(self) -> bytes:
        """The bytes of the file it was read from."""

    @property
    def variant(self) -> str:
        """The variant it was trained for."""

    @property
    def players(self) -> int:
        """The player count it was trained for."""

    @property
    def hidden(self) -> list[int]:
        """Hidden widths of the trunk."""

    @property
    def obs_size(self) -> int:
        """Length of the observation it reads."""

    @property
    def num_actions(self) -> int:
        """Number of policy logits (the variant's action count)."""

    @property
    def features(self) -> str:
        """The input feature set: ``raw`` (the observation) or ``needs`` (the
        observation, then each seat's needs; every variant)."""

    @property
    def provenance(self) -> str:
        """How it was trained (free text, JSON by convention)."""

    @property
    def sha256(self) -> str:
        """SHA-256 of the file, lower-case hex."""

    def evaluate(
        self, observation: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(policy_logits, value)`` for ``state.observation(p)``: one logit per
        action id, and the softmax value per seat rotated to ``p`` (index 0 is
        ``p``, index ``k`` the seat ``k`` places after).

        Raises:
            ConfigError: Not a 1-d float32 NumPy array, or a value not finite
                or beyond ±65536.
            NetworkError: The observation's length is not ``obs_size``.
        """

    def input_features(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The trunk's input before the input normalisation: the observation, then
        the extras of ``features`` (``obs_size`` values for ``raw``, ``obs_size + E``
        for ``needs``).

        Raises:
            ConfigError: Not a 1-d float32 NumPy array.
            NetworkError: The observation's length is not ``obs_size``.
        """

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[bytes], Network], tuple[bytes]]: ...

class _BotResult(TypedDict):
    name: str
    games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float

@final
class MatchResult:
    """The results of :func:`match`.

    Results compare equal when every field is equal; they pickle and deep-copy.
    """

    def __new__(cls, *_args: object, **_kwargs: object) -> MatchResult:
        """No constructor: raises ``ConfigError`` (results come from :func:`match`)."""

    @property
    def variant(self) -> str:
        """The variant played."""

    @property
    def players(self) -> int:
        """Seats per game."""

    @property
    def games(self) -> int:
        """Games played (finished)."""

    @property
    def bots(self) -> list[_BotResult]:
        """Per bot in the order given: wins (a win shared by ``k`` players counts
        exactly ``1/k``), win rate and its Wilson 95% interval."""

    @property
    def draws(self) -> int:
        """Games won by more than one player."""

    @property
    def truncated(self) -> int:
        """Games ended by the turn cap."""

    @property
    def stalled(self) -> int:
        """Games ended because every player had to pass."""

    @property
    def avg_decisions(self) -> float:
        """Mean decisions per game."""

    @property
    def avg_turns(self) -> float:
        """Mean completed turns per game."""

    @property
    def reasons(self) -> dict[str, int]:
        """Games per end reason (points, crowns, colour, gauntlet, stalled, truncated)."""

    def to_json(self) -> str:
        """The results as compact JSON with sorted keys."""

    __hash__: None  # type: ignore[assignment]
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def match(
    bots: Sequence[RandomBot | GreedyBot | MctsBot | str],
    *,
    variant: str = "base",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    threads: int = 1,
    turn_cap: int = 100,
    progress: Callable[[int, int], object] | None = None,
    first_game: int = 0,
) -> MatchResult:
    """Plays ``games`` games between ``bots``, ``threads`` at a time, GIL released.

    Games come in groups of ``players`` sharing one deal, with the bots rotated
    through the seats. Fewer bots than seats: the last one fills the rest.
    Bots may be given as specs, read by :func:`parse_bot_spec`: ``random``,
    ``greedy``, ``mcts``, ``mcts:N``, ``mcts:Ts``, ``net:N@PATH``, ``net:Ts@PATH``
    (the search with the network file at PATH; :func:`splendor.match` also resolves
    ``default``, ``net``, ``net:N`` and ``net:Ts`` to the network shipped for the
    variant and player count). A bot object
    contributes its kind and settings; the seeds of the games' bots derive
    from ``seed``.

    ``first_game``: the call plays games ``first_game .. first_game + games - 1``
    of the match seeded ``seed``, each exactly as a match from game 0 plays it,
    so chunks of a match played apart add up to the whole (wins are counted
    exactly: ``wins * 12`` is an integer).

    ``progress(done, total)`` is called on the calling thread after each
    finished game; an exception in it stops the match and is re-raised, and
    ``progress`` is never called again.

    Ctrl-C stops every game in flight (searches included) within a fraction of
    a second and raises :class:`splendor.errors.MatchInterrupted` (a
    ``KeyboardInterrupt``) whose ``result`` holds the games finished so far.

    Raises:
        ConfigError: A bad bot, variant, player count, game or thread count.
        NetworkError: A bad network file, or one for another game.
        MatchInterrupted: Ctrl-C during the match.
    """

def _restore_search_result(payload: tuple[Any, ...]) -> SearchResult:
    """Rebuilds a :class:`SearchResult` from its pickle (``__reduce__``).

    Raises:
        InvalidStateError: The payload is not one ``__reduce__`` wrote.
    """

def _restore_match_result(payload: tuple[Any, ...]) -> MatchResult:
    """Rebuilds a :class:`MatchResult` from its pickle (``__reduce__``).

    Raises:
        InvalidStateError: The payload is not one ``__reduce__`` wrote.
    """

class _SelfPlayRecord(TypedDict):
    game_id: int
    game_seed: int
    decisions: int
    reason: str
    winners: list[int]
    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    policy: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]
    points: npt.NDArray[np.float32]
    q: npt.NDArray[np.float32]
    ply: npt.NDArray[np.uint32]
    player: npt.NDArray[np.uint8]

def selfplay_games(
    variant: str,
    game_ids: Iterable[int],
    on_game: Callable[[_SelfPlayRecord], object],
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    threads: int = 1,
    iterations: int = 800,
    exploration: float = 0.7,
    prior_temperature: float | None = 0.02,
    rollout_depth: int = 24,
    temperature_moves: int = 20,
    network: Network | str | os.PathLike[str] | None = None,
    noise_alpha: float | None = None,
    noise_epsilon: float = 0.25,
    fast_iterations: int = 0,
    full_search_fraction: float = 0.25,
) -> int:
    """Plays self-play games ``game_ids`` of the run seeded ``seed`` in Rust.

    ``threads`` games at a time, GIL released. Each finished game is handed to
    ``on_game`` as a dict of NumPy arrays (one row per decision with two or
    more legal actions; see ``docs/network.md``). Use
    :func:`splendor.selfplay.selfplay`, which stores them as shards. With a
    ``network`` the searches are guided by it (no rollouts); ``noise_alpha``
    mixes Dirichlet noise into the root prior with weight ``noise_epsilon``
    (between 0 and 1). With ``fast_iterations`` > 0 (playout-cap
    randomisation, below ``iterations``) a decision is searched in full and
    recorded with probability ``full_search_fraction`` (in (0, 1]), and
    otherwise searched with ``fast_iterations``, without noise, and not
    recorded. ``points`` holds each seat's final score, rotated like
    ``returns``.

    Returns:
        The number of games handed to ``on_game``.

    Raises:
        ConfigError: A bad variant or setting (the message names it and its
            range), or an ``on_game`` that is not callable.
        NetworkError: A network file that cannot be read or does not fit.
        KeyboardInterrupt: Ctrl-C; every thread stops within about 50 ms.
    """

# --- reinforcement learning (src/python/env.rs) ---

def _observation_spec(variant: str, players: int = 2) -> list[tuple[str, int, float, bool]]:
    """``(name, offset, scale, bounded)`` per feature; ``splendor.observation_spec`` wraps it."""

@final
class VectorEnv:
    """``num_envs`` games of one variant stepped together in Rust, GIL released.

    ``step`` and ``reset`` write into arrays the env owns and return those same
    objects (no per-step copy): read or copy them before the next call. A game
    that ends is replaced by the env's next game (its own seeded stream) within
    the same step; that step's ``rewards``, ``terminated``, ``truncated``,
    ``final_observation`` and ``episode_length`` describe the game that ended.
    ``opponents`` gives one entry per seat: None for a seat the caller plays,
    or a bot (``random``, ``greedy``, ``mcts:N``) that plays it inside the env.
    The arrays depend only on the seed and the actions, whatever ``threads``.
    ``step_async(actions)`` starts a step on a thread of the env's own and returns at
    once; ``step_wait()`` collects it (helping to finish it), so the caller can work
    meanwhile (on another env's actions, say).

    Raises:
        ConfigError: A bad variant, count, player count, bot, thread count or flag.
    """

    def __new__(
        cls,
        variant: str,
        num_envs: int,
        *,
        players: int = 2,
        seed: int = 0,
        turn_cap: int = 100,
        opponents: Sequence[str | None] | None = None,
        threads: int = 1,
        normalize: bool = False,
    ) -> VectorEnv: ...
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
        """Restarts every env (from ``seed``, else the last seed).

        Returns ``(obs, mask, player)``.

        Raises:
            ConfigError: A seed that is not an integer between 0 and 2**64 - 1.
        """

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Plays one action id per env.

        Returns ``(obs, mask, player, rewards, terminated, truncated)``. ``actions`` is
        read in place when it is a contiguous int64 array; other integer arrays and
        sequences of integers are converted first.

        Raises:
            IllegalActionError: An action not legal in its env (the message names the env).
            InvalidActionError: An id out of range, or actions that are not a 1-D array
                of integers.
            ConfigError: Not one action per env.
        Nothing changes when it raises.
        """

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Starts ``step(actions)`` on a thread of the env's own and returns at once.

        ``step_wait()`` returns its result. The actions are checked and copied first.
        Until ``step_wait`` returns, the env's arrays are being written (do not read
        them, nor arrays returned earlier, which are the same objects), and every other
        call on the env raises ``InvalidStateError``.

        Raises:
            IllegalActionError: An action not legal in its env (the message names the env).
            InvalidActionError: An id out of range, or actions that are not a 1-D array
                of integers.
            ConfigError: Not one action per env.
            InvalidStateError: A step is already in flight.
        Nothing changes when it raises.
        """

    def step_wait(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Waits for the step ``step_async`` started; returns what ``step`` does.

        Rather than wait idle, the calling thread first helps play the step's remaining
        games beside the env's threads (not when a seat is played by a search bot, whose
        games are long), so a caller alternating two envs keeps two cores busy. The GIL
        is released while it waits. Ctrl-C raises ``KeyboardInterrupt`` and
        leaves the step in flight (call ``step_wait`` again to collect it).

        Raises:
            InvalidStateError: No step in flight.
        """

    def state(self, i: int) -> Any:
        """A copy of env ``i``'s current game as a state object.

        Raises:
            ConfigError: ``i`` is not an env index.
        """

    @property
    def variant(self) -> str: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def normalize(self) -> bool: ...
    @property
    def opponents(self) -> list[str | None]: ...
    @property
    def observation(self) -> npt.NDArray[np.float32]:
        """float32 ``[n, observation_size]``: observation of the player to move."""

    @property
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """bool ``[n, num_actions]``: legal actions of the player to move."""

    @property
    def packed_mask(self) -> npt.NDArray[np.uint64]:
        """uint64 ``[n, ceil(num_actions / 64)]``: the same mask packed, bit ``a % 64`` of
        word ``a // 64`` set when action ``a`` is legal (what ``np.packbits(mask, axis=1,
        bitorder="little")`` gives, in 64-bit words). ``splendor.envs.random_legal_actions``
        draws from it faster."""

    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """int32 ``[n]``: the player to move."""

    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """float32 ``[n, players]``: each seat's return in a game that ended in the last step."""

    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """bool ``[n]``: the game ended (not by the turn cap) in the last step."""

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """bool ``[n]``: the game reached the turn cap in the last step."""

    @property
    def final_observation(self) -> npt.NDArray[np.float32]:
        """float32 ``[n, observation_size]``: last observation of the ended games.

        Seen by the seat that acted; rows of games that did not end are stale.
        """

    @property
    def episode_length(self) -> npt.NDArray[np.int64]:
        """int64 ``[n]``: decisions in the games that ended in the last step, else 0."""

# The version and what the build was made with (src/python/build_info.rs).
__all__ += ["__version__", "build_info"]

__version__: Final[str]
"""The package version: Cargo.toml's ``version`` (pyproject.toml reads it too)."""

def build_info() -> dict[str, str]:
    """What this build of the extension was made with.

    Returns:
        A dict of strings: ``version`` (the package version), ``rustc`` (the
        compiler's ``--version``), ``target`` (the target triple), ``profile``
        ("release" or "debug"), ``features`` (the cargo features, comma-separated),
        ``target_features`` (the CPU features the code is compiled for,
        comma-separated) and ``kernels`` (the network kernels this CPU runs:
        "avx2+fma", picked at run time where the CPU has both, else "portable").
    """
