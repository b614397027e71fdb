"""The PettingZoo AEC environments (splendor.envs.pettingzoo).

PettingZoo's max-cycles test does not apply: it needs a parallel env with a
``max_cycles`` argument, and these are turn-based AEC games (their cap is
``turn_cap``, checked below).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import splendor
from pettingzoo.test import api_test, seed_test
from splendor.envs import pettingzoo as splendor_pz

CASES = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)]


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_api(variant: str, players: int) -> None:
    api_test(splendor_pz.env(variant, players=players), num_cycles=300)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_seed(variant: str, players: int) -> None:
    seed_test(lambda: splendor_pz.env(variant, players=players), num_cycles=300)


def play(env: splendor_pz.raw_env, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += float(reward)
        if termination or truncation:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        state = env._state
        assert state.current_player == env.possible_agents.index(agent)
        np.testing.assert_array_equal(mask.astype(bool), state.legal_action_mask())
        np.testing.assert_array_equal(
            obs["observation"], state.observation(env.possible_agents.index(agent))
        )
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_games_and_rewards(variant: str, players: int) -> None:
    raw = splendor_pz.raw_env(variant, players=players)
    for seed in range(3):
        totals = play(raw, seed)
        outcome = raw._state.outcome()
        if outcome.truncated:
            assert set(totals.values()) == {0.0}
        else:
            for p, agent in enumerate(raw.possible_agents):
                assert totals[agent] == (1.0 if p in outcome.winners else -1.0)


def test_turn_cap_truncates() -> None:
    raw = splendor_pz.raw_env("base", turn_cap=1)
    totals = play(raw, 0)
    assert raw._state.outcome().truncated and all(raw.truncations.values())
    assert set(totals.values()) == {0.0}


def test_illegal_action_ends_the_game() -> None:
    env = splendor_pz.env("base")
    env.reset(seed=1)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1
    with pytest.raises(splendor.IllegalActionError):
        raw = splendor_pz.raw_env("base")
        raw.reset(seed=1)
        raw.step(bad)


def test_normalized_and_render() -> None:
    raw = splendor_pz.raw_env("marvel", normalize=True, render_mode="ansi")
    raw.reset(seed=4)
    spec = splendor.observation_spec("marvel")
    np.testing.assert_allclose(
        raw.observe("player_1")["observation"], spec.normalize(raw._state.observation(1))
    )
    text = raw.render()
    assert text is not None and "seat 0's view" in text
    assert json.loads(raw._state.to_json(player=0))["viewer"] == 0
    with pytest.raises(splendor.ConfigError):
        splendor_pz.raw_env("base", render_mode="human")
