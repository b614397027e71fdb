"""Gymnasium environments over the Rust engine (needs ``pip install 'splendor[rl]'``).

Importing this module registers ``splendor/Base-v0``, ``splendor/Duel-v0`` and
``splendor/Marvel-v0``::

    import gymnasium
    import splendor.envs.gymnasium  # registers the ids

    env = gymnasium.make("splendor/Base-v0", players=2, opponent="greedy")
    vec = gymnasium.make_vec(
        "splendor/Base-v0", num_envs=1024, vectorization_mode="vector_entry_point"
    )

The agent plays ``seat``; every other seat is played inside the engine by
``opponent`` (``random``, ``greedy`` or ``mcts:N``). An observation is a dict
``{"observation": float32 [obs_size], "action_mask": bool [num_actions]}``; the
mask is also in ``info["action_mask"]``. The reward is the agent's return when a
game ends (1 for a win, ``1/k`` for a win shared by ``k``, 0 for a loss or the
turn cap) and 0 before.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

import splendor
from splendor._arguments import typed_errors, typed_methods
from splendor._extras import missing_extra
from splendor.envs._actions import action_id
from splendor.envs._view import render_view
from splendor.envs.spec import observation_spec

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ModuleNotFoundError as exc:  # the extra is not installed
    raise missing_extra("splendor.envs.gymnasium", "rl", exc) from exc

__all__ = ["SplendorEnv", "SplendorVectorEnv", "observation_space"]

Obs = dict[str, npt.NDArray[Any]]
IDS = {"base": "splendor/Base-v0", "duel": "splendor/Duel-v0", "marvel": "splendor/Marvel-v0"}
ILLEGAL_ACTION_MODES = ("lose", "raise")


@typed_errors
def observation_space(
    variant: str, players: int = 2, *, normalize: bool = False, turn_cap: int = 100
) -> spaces.Dict:
    """The observation space of one game: the observation vector and the action mask.

    Each feature is bounded below by 0 and above by ``ObservationSpec.high``: its scale
    (1 when normalised) where the spec gives a hard maximum, ``turn_cap`` for the rounds
    played, else 16 times its typical scale. Every bound is finite.
    """
    spec = observation_spec(variant, players)
    high = spec.high(turn_cap=turn_cap, normalize=normalize)
    num_actions = splendor.new_game(variant, players=players).num_actions
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, (spec.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.bool_),
        }
    )


def _opponents(players: int, seat: int, opponent: str) -> list[str | None]:
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise splendor.ConfigError(f"seat must be between 0 and {players - 1}, got {seat!r}")
    return [None if p == seat else opponent for p in range(players)]


def _draw_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63))


@typed_methods("reset", "step", "action_masks", "render")
class SplendorEnv(gymnasium.Env[Obs, np.int64]):
    """One game against built-in opponents, as a Gymnasium environment.

    Args:
        variant: ``"base"``, ``"duel"`` or ``"marvel"``.
        players: Seats (Duel: 2).
        opponent: The bot playing every seat but ``seat``.
        seat: The agent's seat.
        turn_cap: Rounds before a game is truncated.
        normalize: Observations divided by the spec's scales.
        illegal_action: ``"lose"`` (an illegal action, or an id out of range, ends the
            game with reward -1, so that random exploration and ``check_env`` work) or
            ``"raise"`` (``IllegalActionError``, ``InvalidActionError`` for an id out of
            range; nothing changes). An action that is not an int id (a float, None,
            text) raises ``InvalidActionError`` in either mode.
        render_mode: None or ``"ansi"`` (the agent's view: nothing hidden from it).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "base",
        *,
        players: int = 2,
        opponent: str = "random",
        seat: int = 0,
        turn_cap: int = 100,
        normalize: bool = False,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise splendor.ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise splendor.ConfigError(
                f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}"
            )
        self._env = splendor.VectorEnv(
            variant,
            1,
            players=players,
            turn_cap=turn_cap,
            opponents=_opponents(players, seat, opponent),
            normalize=normalize,
        )
        self.variant = variant
        self.players = players
        self.seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.num_actions = self._env.num_actions
        self.observation_space = observation_space(  # type: ignore[assignment]
            variant, players, normalize=normalize, turn_cap=turn_cap
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self._done = True

    def _obs(self) -> Obs:
        return {
            "observation": self._env.observation[0].copy(),
            "action_mask": self._env.action_mask[0].copy(),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deals a new game (from ``seed``, else the next seed of the env's stream)."""
        super().reset(seed=seed)
        self._env.reset(seed=_draw_seed(self.np_random))
        self._done = False
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"].copy()}

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays the agent's action, then the opponents' until the agent is to move again."""
        if self._done:
            raise splendor.ConfigError("the game is over: call reset() first")
        mask = self._env.action_mask[0]
        # Not an int id at all (a float, None, text): InvalidActionError in either mode.
        a = action_id(action)
        if not (0 <= a < mask.size and mask[a]):
            if self.illegal_action == "raise":
                action_id(a, mask.size)  # out of range: InvalidActionError
                self._env.step(np.array([a], dtype=np.int64))  # raises, naming the action
            self._done = True
            obs = {
                "observation": self._env.observation[0].copy(),
                "action_mask": np.zeros_like(mask),
            }
            return obs, -1.0, True, False, {"action_mask": obs["action_mask"], "illegal": True}
        self._env.step(np.array([a], dtype=np.int64))
        terminated = bool(self._env.terminated[0])
        truncated = bool(self._env.truncated[0])
        if terminated or truncated:
            self._done = True
            obs = {
                "observation": self._env.final_observation[0].copy(),
                "action_mask": np.zeros_like(mask),
            }
            reward = float(self._env.rewards[0, self.seat])
            info = {
                "action_mask": obs["action_mask"].copy(),
                "returns": self._env.rewards[0].copy(),
                "episode_length": int(self._env.episode_length[0]),
            }
            return obs, reward, terminated, truncated, info
        obs = self._obs()
        return obs, 0.0, False, False, {"action_mask": obs["action_mask"].copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        if self._done:
            return np.zeros(self.num_actions, dtype=np.bool_)
        mask: npt.NDArray[np.bool_] = self._env.action_mask[0].copy()
        return mask

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the agent's view of the game as text."""
        if self.render_mode != "ansi":
            return None
        return render_view(self._env.state(0), self.seat)


@typed_methods("reset", "step", "step_async", "step_wait", "render")
class SplendorVectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """``num_envs`` games stepped by the Rust batched environment.

    Autoreset is same-step (``metadata["autoreset_mode"]``): when a game ends,
    the step returns the next game's observation, and ``info["final_obs"]`` /
    ``info["_final_obs"]`` hold the ended game's last observation. Observations
    are the env's own arrays (``copy=False``, the default): copy them before the
    next step if you keep them. Illegal actions raise ``IllegalActionError``
    naming the env (nothing changes). Other arguments as :class:`SplendorEnv`.
    """

    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        variant: str = "base",
        num_envs: int = 1,
        *,
        players: int = 2,
        opponent: str = "random",
        seat: int = 0,
        turn_cap: int = 100,
        normalize: bool = False,
        threads: int = 1,
        copy: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise splendor.ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self._env = splendor.VectorEnv(
            variant,
            num_envs,
            players=players,
            turn_cap=turn_cap,
            opponents=_opponents(players, seat, opponent),
            normalize=normalize,
            threads=threads,
        )
        self.variant = variant
        self.seat = seat
        self.copy = copy
        self.render_mode = render_mode
        self.num_envs = num_envs
        self.single_observation_space = observation_space(
            variant, players, normalize=normalize, turn_cap=turn_cap
        )
        self.num_actions = self._env.num_actions
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()

    def _obs(self) -> Obs:
        obs, mask = self._env.observation, self._env.action_mask
        if self.copy:
            obs, mask = obs.copy(), mask.copy()
        return {"observation": obs, "action_mask": mask}

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deals new games in every env: from ``seed``, else from the wrapper's seed stream."""
        if isinstance(seed, list):
            raise splendor.ConfigError("seed must be one int for all envs (or None), not a list")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._env.reset(seed=_draw_seed(self._rng))
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One action per env; returns ``(obs, rewards, terminations, truncations, info)``."""
        return self._step_result(*self._env.step(actions)[3:])

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Starts :meth:`step` on the Rust env's own thread and returns at once.

        The actions are checked first (a bad one raises as :meth:`step` would, and
        nothing starts). Until :meth:`step_wait` returns, the observation arrays are
        being written, and any other call on this env raises ``InvalidStateError``.
        """
        self._env.step_async(actions)

    def step_wait(
        self,
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Waits for the step :meth:`step_async` started; returns what :meth:`step` does."""
        return self._step_result(*self._env.step_wait()[3:])

    def _step_result(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        obs = self._obs()
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        done = terminated | truncated
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_mask = np.zeros(self.num_actions, dtype=np.bool_)
            for i in np.flatnonzero(done):
                final_obs[i] = {
                    "observation": self._env.final_observation[i].copy(),
                    "action_mask": final_mask,
                }
            info["final_obs"] = final_obs
            info["_final_obs"] = done.copy()
            info["final_info"] = {
                "returns": rewards.copy(),
                "episode_length": self._env.episode_length.copy(),
                "_returns": done.copy(),
                "_episode_length": done.copy(),
            }
        return (
            obs,
            rewards[:, self.seat].copy(),
            terminated.copy(),
            truncated.copy(),
            info,
        )

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``: each env's game as the agent sees it."""
        if self.render_mode != "ansi":
            return None
        return tuple(render_view(self._env.state(i), self.seat) for i in range(self.num_envs))


@typed_errors
def register() -> None:
    """Registers the three ids with Gymnasium (done once on import)."""
    for variant, env_id in IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=SplendorEnv,  # type: ignore[arg-type]
            vector_entry_point=SplendorVectorEnv,  # type: ignore[arg-type]
            kwargs={"variant": variant},
            disable_env_checker=False,
        )


register()
