"""The games as OpenSpiel Python games (needs ``pip install 'splendor[openspiel]'``).

Importing this module registers ``python_splendor_base``, ``python_splendor_duel``
and ``python_splendor_marvel`` with ``pyspiel``::

    import pyspiel
    import splendor.envs.openspiel  # registers the games

    game = pyspiel.load_game("python_splendor_base", {"players": 3, "seed": 7})

They are sequential, imperfect-information, sampled-stochastic games: the
engine deals and draws from its seeded decks, so there are no chance nodes.
Parameters: ``players``, ``turn_cap`` and ``seed`` (the game's stream of deals:
each ``new_initial_state()`` deals the next game of it). Returns at the end are
the engine's (1 to a winner, ``1/k`` to each of ``k`` sharing a win, 0 to the
others and to everyone when the turn cap truncates the game).

Observation tensors are the engine's observation vectors
(``splendor.observation_spec``); observation strings are the player's JSON view
(hidden cards redacted), and information-state strings add the public history
of action ids. ``resample_from_infostate`` is the engine's ``determinize``, so
OpenSpiel's ISMCTS bot can search these games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import splendor
from splendor._arguments import typed_methods
from splendor._extras import missing_extra
from splendor.envs._actions import action_id
from splendor.envs.spec import observation_spec

try:
    import pyspiel
except ModuleNotFoundError as exc:  # the extra is not installed
    raise missing_extra("splendor.envs.openspiel", "openspiel", exc) from exc

__all__ = ["GAMES", "SplendorGame", "SplendorObserver", "SplendorState"]

#: OpenSpiel short name -> variant.
GAMES = {
    "python_splendor_base": "base",
    "python_splendor_duel": "duel",
    "python_splendor_marvel": "marvel",
}
#: Decisions per player per round never exceed this (a turn is a main action
#: plus payment, token-return, noble/location/royal choices and Duel's extra turns).
_DECISIONS_PER_TURN_BOUND = 16


def _game_type(short_name: str, variant: str) -> Any:
    info = splendor.variant_info()[variant]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.players),
        min_num_players=min(info.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "turn_cap": 100, "seed": 0},
    )


@typed_methods("new_initial_state", "make_py_observer")
class SplendorGame(pyspiel.Game):
    """One variant as an OpenSpiel game."""

    variant = "base"
    short_name = "python_splendor_base"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": 2, "turn_cap": 100, "seed": 0, **(params or {})}
        players, turn_cap = int(params["players"]), int(params["turn_cap"])
        probe = splendor.new_game(self.variant, players=players, turn_cap=turn_cap)
        self.players, self.turn_cap = players, turn_cap
        self.spec = observation_spec(self.variant, players)
        super().__init__(
            _game_type(self.short_name, self.variant),
            pyspiel.GameInfo(
                num_distinct_actions=probe.num_actions,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=_DECISIONS_PER_TURN_BOUND * turn_cap * players,
            ),
            params,
        )
        self._deals = np.random.default_rng(int(params["seed"]))

    def new_initial_state(self) -> SplendorState:
        """Deals the next game of the game's seeded stream."""
        seed = int(self._deals.integers(0, 2**63))
        engine = splendor.new_game(
            self.variant, players=self.players, seed=seed, turn_cap=self.turn_cap
        )
        return SplendorState(self, engine)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SplendorObserver:
        """The observer for observation (or, with perfect recall, information-state) queries."""
        return SplendorObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.spec.size
        )


@typed_methods(
    "current_player", "apply_action", "is_terminal", "returns", "resample_from_infostate"
)
class SplendorState(pyspiel.State):
    """A game in progress; the engine state is ``engine``."""

    def __init__(self, game: SplendorGame, engine: Any) -> None:
        super().__init__(game)
        self.engine = engine

    def current_player(self) -> int:
        if self.engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.engine.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.engine.current_player:
            return []
        return [int(a) for a in self.engine.legal_action_ids()]

    def apply_action(self, action: Any) -> None:
        """Plays ``action``: an int id in ``0..num_distinct_actions() - 1`` (anything else
        raises ``InvalidActionError``, an illegal id ``IllegalActionError``)."""
        super().apply_action(action_id(action, self.engine.num_actions))

    def _apply_action(self, action: int) -> None:
        self.engine.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.engine.action_from_id(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.engine.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.engine.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SplendorState:
        """A state ``player_id`` cannot tell from this one: the engine's ``determinize``.

        Everything hidden from the player (deck order, other players' blind
        reserves) is redealt from a seed drawn from ``probability_sampler``.
        """
        seed = int(probability_sampler() * 2**53)
        resampled: SplendorState = self.clone()
        resampled.engine = self.engine.determinize(player_id, seed=seed)
        return resampled

    def __str__(self) -> str:
        return str(self.engine)


@typed_methods("set_from", "string_from")
class SplendorObserver:
    """Observation tensor and strings of one player (OpenSpiel's PyObserver interface)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, size: int) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or (
            not iig_obs_type.public_info
        ):
            raise ValueError(
                "only the player's own observation (public info and its private info) is provided"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SplendorState, player: int) -> None:
        self.tensor[:] = state.engine.observation(player)

    def string_from(self, state: SplendorState, player: int) -> str:
        view = str(state.engine.to_json(player=player))
        if not self.perfect_recall:
            return view
        # Every action id is public (a blind reserve names the deck, not the card).
        return view + " history " + " ".join(str(a) for a in state.history())


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for short_name, variant in GAMES.items():
        game_class = type(
            f"Splendor{variant.capitalize()}Game",
            (SplendorGame,),
            {"variant": variant, "short_name": short_name},
        )
        if short_name not in registered:
            pyspiel.register_game(_game_type(short_name, variant), game_class)


_register()
