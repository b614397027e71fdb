"""PettingZoo AEC environments over the Rust engine (needs ``pip install 'splendor[rl]'``).

One environment per variant, shaped like PettingZoo's classic board games::

    from splendor.envs import pettingzoo as splendor_pz

    env = splendor_pz.env("base", players=3)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(
            obs["action_mask"]
        )
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}``. An observation is a dict
``{"observation": float32 [obs_size] (that seat's view), "action_mask": int8
[num_actions]}``; the mask is all zeros for an agent not to move. A turn may be
several decisions in a row by the same agent (payments, token returns, noble
or location choices). Rewards come at the end: +1 to each winner, -1 to each
other seat, 0 to all when the turn cap truncates the game. ``env()`` wraps the
raw env like PettingZoo's classic games (an illegal action ends the game with
-1 for the agent that made it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import splendor
from splendor._arguments import typed_errors, typed_methods
from splendor._extras import missing_extra
from splendor.envs._actions import action_id
from splendor.envs._view import render_view
from splendor.envs.spec import observation_spec

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as exc:  # the extra is not installed
    raise missing_extra("splendor.envs.pettingzoo", "rl", exc) from exc

__all__ = ["base_env", "duel_env", "env", "marvel_env", "raw_env"]

Obs = dict[str, npt.NDArray[Any]]


@typed_methods("observation_space", "action_space", "observe", "reset", "step", "render", "close")
class raw_env(AECEnv[str, Obs, int]):
    """An AEC environment for one game of ``variant``.

    Args:
        variant: ``"base"``, ``"duel"`` or ``"marvel"``.
        players: Seats (Duel: 2).
        turn_cap: Rounds before the game is truncated.
        normalize: Observations divided by the spec's scales.
        render_mode: None or ``"ansi"`` (the view of the agent to move).
    """

    metadata = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "name": "splendor_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "base",
        *,
        players: int = 2,
        turn_cap: int = 100,
        normalize: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise splendor.ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.variant = variant
        self.players = players
        self.turn_cap = turn_cap
        self.normalize = normalize
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"splendor_{variant}_v0"}
        self._spec = observation_spec(variant, players)
        self._state: Any = splendor.new_game(variant, players=players, turn_cap=turn_cap)
        self.num_actions: int = self._state.num_actions
        self.possible_agents = [f"player_{p}" for p in range(players)]
        high = self._spec.high(turn_cap=turn_cap, normalize=normalize)
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (self._spec.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Obs:
        seat = self.possible_agents.index(agent)
        obs = self._state.observation(seat)
        if self.normalize:
            obs = self._spec.normalize(obs)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if self._state.current_player == seat:
            mask[self._state.legal_action_ids()] = 1
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new game: from ``seed``, else the next seed of the env's stream."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63))
        self._state = splendor.new_game(
            self.variant, players=self.players, seed=game_seed, turn_cap=self.turn_cap
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._state.current_player]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._state.apply(action_id(action, self.num_actions))
        if self._state.is_terminal():
            outcome = self._state.outcome()
            if outcome.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                winners = set(outcome.winners)
                self.rewards = {a: 1.0 if p in winners else -1.0 for p, a in enumerate(self.agents)}
                self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[self._state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the game as the agent to move sees it."""
        if self.render_mode != "ansi":
            return None
        return render_view(self._state, self.possible_agents.index(self.agent_selection))

    def close(self) -> None:
        pass


class _CheckedActions(wrappers.BaseWrapper[str, Obs, int]):
    """Refuses, with ``InvalidActionError``, an action that is not an id of the action space
    (a float, None, text, an id out of range) for an agent still playing."""

    def step(self, action: Any) -> None:
        agent = self.env.agent_selection
        if not (self.env.terminations[agent] or self.env.truncations[agent]):
            action = action_id(action, self.env.num_actions)
        super().step(action)


@typed_methods("reset", "step", "observe", "state", "render", "agent_iter")
class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper[str, Obs, int]):
    """PettingZoo's order-enforcing wrapper (same name), outermost in :func:`env`, whose
    methods raise ConfigError (not TypeError) for a call with arguments they do not take."""

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo writes its own wrapper: the raw env's name


@typed_errors
def env(variant: str = "base", **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The raw env wrapped as PettingZoo wraps its classic games.

    An illegal action ends the game with -1 for its agent; an action that is not an id of
    the action space raises ``InvalidActionError``.
    """
    wrapped: Any = raw_env(variant, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = _CheckedActions(wrapped)
    return OrderEnforcingWrapper(wrapped)


@typed_errors
def base_env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """Splendor (2-4 players)."""
    return env("base", **kwargs)


@typed_errors
def duel_env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """Splendor Duel."""
    return env("duel", **kwargs)


@typed_errors
def marvel_env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """Splendor: Marvel (2-4 players)."""
    return env("marvel", **kwargs)
