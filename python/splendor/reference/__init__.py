"""The pure-Python reference engines: the executable specification.

Same public API and exceptions as :mod:`splendor`, the same game from the same
seed, written for clarity. Never imports ``splendor._core``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, overload

from splendor._arguments import typed_errors as _typed_errors
from splendor.errors import ConfigError, InvalidStateError
from splendor.reference.base import BaseState, new_base_game
from splendor.reference.common import Action, Outcome, parse_json
from splendor.reference.duel import DuelState, new_duel_game
from splendor.reference.marvel import MarvelState, new_marvel_game
from splendor.reference.rng import SplitMix64
from splendor.reference.view import complete_view

VARIANTS = ("base", "duel", "marvel")

AnyState = BaseState | DuelState | MarvelState


@overload
def new_game(
    variant: Literal["base"],
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: None = None,
    locations: None = None,
) -> BaseState: ...


@overload
def new_game(
    variant: Literal["duel"],
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: None = None,
    locations: None = None,
) -> DuelState: ...


@overload
def new_game(
    variant: Literal["marvel"],
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: str | Path | None = None,
    locations: str | Path | None = None,
) -> MarvelState: ...


@overload
def new_game(
    variant: str,
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: str | Path | None = None,
    locations: str | Path | None = None,
) -> AnyState: ...


def new_game(
    variant: str,
    *,
    players: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
    cards: str | Path | None = None,
    locations: str | Path | None = None,
) -> AnyState:
    """Deal a new game of ``variant`` (ConfigError for an unknown variant or bad option).

    ``cards``/``locations`` (marvel only) name corrected card files: a path or the CSV text.
    ``None`` for ``players`` or ``turn_cap`` means the default, as in the Rust engine.
    """
    players = 2 if players is None else players
    turn_cap = 100 if turn_cap is None else turn_cap
    if (cards is not None or locations is not None) and variant != "marvel":
        raise ConfigError(
            f"cards= and locations= apply to the marvel variant only, not {variant!r}"
        )
    if variant == "base":
        return new_base_game(players, seed, turn_cap)
    if variant == "duel":
        return new_duel_game(players, seed, turn_cap)
    if variant == "marvel":
        return new_marvel_game(players, seed, turn_cap, cards, locations)
    raise ConfigError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")


def from_json(text: str) -> AnyState:
    """Load a full-state JSON of any variant, dispatching on its ``"variant"`` field."""
    variant = parse_json(text).get("variant")
    if variant == "base":
        return BaseState.from_json(text)
    if variant == "duel":
        return DuelState.from_json(text)
    if variant == "marvel":
        return MarvelState.from_json(text)
    raise InvalidStateError(f"unknown variant {variant!r} in state JSON")


def from_view(text: str, *, seed: int = 0) -> AnyState:
    """Load one determinization of a player's view (``complete_view``); a full state as is."""
    return from_json(complete_view(text, seed=seed))


def random_playout(state: AnyState, seed: int) -> int:
    """Play uniformly random legal actions until the game ends; return the decision count.

    Each choice is ``SplitMix64(seed).below(len(legal))`` from one stream, so the
    Rust engine plays the same game from the same state and seed.
    """
    rng = SplitMix64(seed)
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply_unchecked(legal[rng.below(len(legal))])
        decisions += 1
    return decisions


# A call with arguments a function does not take (`new_game("base", 2)`) raises ConfigError
# naming the signature, as in the Rust engine (`splendor.new_game`), not TypeError.
for _name in ("from_json", "from_view", "new_game", "random_playout"):
    globals()[_name] = _typed_errors(globals()[_name])
    globals()[_name].__module__ = __name__
del _name

__all__ = [
    "VARIANTS",
    "Action",
    "BaseState",
    "DuelState",
    "MarvelState",
    "Outcome",
    "from_json",
    "from_view",
    "new_game",
    "random_playout",
]
