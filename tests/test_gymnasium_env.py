"""The Gymnasium environments (splendor.envs.gymnasium)."""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
import splendor
from splendor.envs.gymnasium import SplendorEnv, SplendorVectorEnv

IDS = ("splendor/Base-v0", "splendor/Duel-v0", "splendor/Marvel-v0")


def random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.cumsum(counts) - counts
    actions: npt.NDArray[np.int64] = cols[starts + (rng.random(mask.shape[0]) * counts).astype(int)]
    return actions


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, render_mode="ansi")
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("splendor/Base-v0", {"players": 3, "opponent": "greedy", "seat": 1}),
        ("splendor/Duel-v0", {"opponent": "random", "normalize": True}),
        ("splendor/Marvel-v0", {"players": 4, "opponent": "random", "seat": 3}),
    ],
)
def test_episodes_with_the_mask(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
            total += float(reward)
            done = terminated or truncated
        assert not obs["action_mask"].any()
        assert 0.0 <= total <= 1.0
        assert float(reward) == float(info["returns"][kwargs.get("seat", 0)])


def test_make_with_the_module_prefix() -> None:
    env = gymnasium.make("splendor.envs.gymnasium:splendor/Duel-v0", opponent="greedy")
    assert env.unwrapped.variant == "duel"  # type: ignore[attr-defined]


def test_reset_seeds() -> None:
    env = SplendorEnv("base")
    a, _ = env.reset(seed=5)
    b, _ = env.reset(seed=5)
    np.testing.assert_array_equal(a["observation"], b["observation"])
    c, _ = env.reset()
    assert not np.array_equal(a["observation"], c["observation"])


def test_illegal_actions() -> None:
    env = SplendorEnv("base", illegal_action="raise")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(~obs["action_mask"])[0])
    with pytest.raises(splendor.IllegalActionError):
        env.step(bad)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    lose = SplendorEnv("base")
    lose.reset(seed=1)
    _, reward, terminated, truncated, info = lose.step(bad)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(splendor.ConfigError, match="reset"):
        lose.step(0)
    with pytest.raises(splendor.ConfigError):
        SplendorEnv("base", illegal_action="ignore")
    with pytest.raises(splendor.ConfigError):
        SplendorEnv("base", seat=2)


def test_ansi_render_shows_nothing_hidden() -> None:
    env = SplendorEnv("base", render_mode="ansi", opponent="random")
    core = env._env
    obs, _ = env.reset(seed=3)
    # The opponent reserves blind as soon as it can: find a game where it does.
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = core.state(0)
        hidden = [
            r
            for p in json.loads(state.to_json())["players"][1:]
            for r in p["reserved"]
            if r.get("hidden")
        ]
        if hidden:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    text = env.render()
    assert isinstance(text, str) and "seat 0's view" in text
    view = json.loads(state.to_json(player=0))
    assert all(f"{key}: " in text for key in view)
    assert "decks: null" in text
    if hidden:
        assert '"card": null' in text
    assert SplendorEnv("base").render() is None


# --- the vector env, tested the way Gymnasium tests its own vector envs ---


@pytest.mark.parametrize("env_id", IDS)
def test_vector_spaces_and_shapes(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=6, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, SplendorVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.num_envs == 6
    single = envs.single_observation_space
    assert envs.observation_space == gymnasium.vector.utils.batch_space(single, 6)
    assert envs.action_space == gymnasium.vector.utils.batch_space(envs.single_action_space, 6)
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs, rewards, terminations, truncations, info = envs.step(
            random_legal(obs["action_mask"], rng)
        )
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminations.shape == truncations.shape == (6,)
        assert terminations.dtype == truncations.dtype == np.bool_
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
    envs.close()


def rollout(envs: Any, seed: int | None, steps: int) -> list[Any]:
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(7)
    out = [obs["observation"].copy()]
    for _ in range(steps):
        obs, rewards, terminations, truncations, _ = envs.step(
            random_legal(obs["action_mask"], rng)
        )
        out.extend([obs["observation"].copy(), rewards, terminations, truncations])
    return out


def test_vector_seeding() -> None:
    envs = SplendorVectorEnv("base", 4)
    first = rollout(envs, 123, 50)
    again = rollout(SplendorVectorEnv("base", 4, threads=2), 123, 50)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    other = rollout(envs, 124, 1)
    assert not np.array_equal(first[0], other[0])
    # Reset without a seed continues the seeded stream: new games, reproducibly.
    envs.reset(seed=9)
    x = envs.reset()[0]["observation"].copy()
    envs.reset(seed=9)
    np.testing.assert_array_equal(envs.reset()[0]["observation"], x)
    with pytest.raises(splendor.ConfigError):
        envs.reset(seed=[1, 2, 3, 4])


def test_vector_autoreset_same_step() -> None:
    envs = SplendorVectorEnv("duel", 8, opponent="greedy")
    spec = splendor.observation_spec("duel")
    rounds = spec.offset("rounds")
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        obs, rewards, terminations, truncations, info = envs.step(
            random_legal(obs["action_mask"], rng)
        )
        done = terminations | truncations
        if not done.any():
            assert "final_obs" not in info
            continue
        ended += int(done.sum())
        np.testing.assert_array_equal(info["_final_obs"], done)
        for i in range(8):
            if done[i]:
                final = info["final_obs"][i]
                assert envs.single_observation_space.contains(final)
                assert final["observation"][spec.offset("phase.over")] == 1
                # The returned observation is already the next game's first.
                assert obs["observation"][i, rounds] == 0
                assert rewards[i] == info["final_info"]["returns"][i, 0]
            else:
                assert info["final_obs"][i] is None
        assert (rewards[~done] == 0).all()
    assert ended > 0


def test_vector_illegal_action_raises() -> None:
    envs = SplendorVectorEnv("marvel", 3)
    obs, _ = envs.reset(seed=0)
    actions = random_legal(obs["action_mask"], np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(~obs["action_mask"][2])[0])
    with pytest.raises(splendor.IllegalActionError, match="env 2"):
        envs.step(actions)


def test_vector_step_async_returns_what_step_does() -> None:
    sync, piped = SplendorVectorEnv("duel", 6, threads=2), SplendorVectorEnv("duel", 6, threads=2)
    obs, _ = sync.reset(seed=4)
    piped.reset(seed=4)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(150):
        actions = random_legal(obs["action_mask"], rng)
        piped.step_async(actions)
        with pytest.raises(splendor.InvalidStateError, match="in flight"):
            piped.step(actions)
        got = piped.step_wait()
        want = sync.step(actions)
        obs = want[0]
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(got[0][key], want[0][key])
        for a, b in zip(got[1:4], want[1:4], strict=True):
            np.testing.assert_array_equal(a, b)
        assert got[4].keys() == want[4].keys()
        if "final_info" in want[4]:
            ended += 1
            np.testing.assert_array_equal(
                got[4]["final_info"]["returns"], want[4]["final_info"]["returns"]
            )
    assert ended > 0
    actions = random_legal(obs["action_mask"], rng)
    actions[0] = int(np.flatnonzero(~obs["action_mask"][0])[0])
    with pytest.raises(splendor.IllegalActionError, match="env 0"):
        piped.step_async(actions)


def test_vector_render() -> None:
    envs = SplendorVectorEnv("base", 2, render_mode="ansi")
    envs.reset(seed=0)
    frames = envs.render()
    assert frames is not None and len(frames) == 2 and all("seat 0's view" in f for f in frames)
