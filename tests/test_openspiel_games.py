"""The OpenSpiel Python games (splendor.envs.openspiel)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
import pytest
import splendor
from open_spiel.python.algorithms import ismcts, mcts
from splendor.envs import openspiel as splendor_spiel

CASES = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)]


def load(variant: str, players: int, seed: int = 0) -> Any:
    return pyspiel.load_game(f"python_splendor_{variant}", {"players": players, "seed": seed})


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_random_simulation(variant: str, players: int) -> None:
    game = load(variant, players)
    game_type = game.get_type()
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def random_state(variant: str, players: int, decisions: int, seed: int) -> Any:
    game = load(variant, players, seed)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_observations_and_information_states(variant: str, players: int) -> None:
    state = random_state(variant, players, 40, 1)
    for p in range(players):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p), np.float32), state.engine.observation(p)
        )
        assert state.observation_string(p) == state.engine.to_json(player=p)
        info = state.information_state_string(p)
        assert info.startswith(state.observation_string(p))
        assert info.endswith(" ".join(str(a) for a in state.history()))
        # The view is the engine's redacted one: no deck order.
        view = json.loads(state.observation_string(p))
        assert view["viewer"] == p and view.get("decks") is None


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_resample_from_infostate(variant: str, players: int) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(4):
        state = random_state(variant, players, 60, seed)
        if state.is_terminal():
            continue
        p = state.current_player()
        for _ in range(5):
            other = state.resample_from_infostate(p, sampler)
            assert isinstance(other, splendor_spiel.SplendorState)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
            assert other.history() == state.history()
            changed += other.engine != state.engine
            assert state.engine == random_state(variant, players, 60, seed).engine
    assert changed > 0, "resampling never changed the hidden cards"


def test_seed_parameter_deals() -> None:
    a = load("base", 2, seed=3).new_initial_state()
    b = load("base", 2, seed=3).new_initial_state()
    c = load("base", 2, seed=4).new_initial_state()
    assert a.engine == b.engine and a.engine != c.engine


def test_bad_parameters() -> None:
    with pytest.raises(splendor.ConfigError):
        load("duel", 3)
    with pytest.raises(ValueError, match="own observation"):
        load("base", 2).make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def test_ismcts_plays_a_game_against_mcts_bot() -> None:
    game = load("base", 2)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=0.7,
        max_simulations=8,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    ours = splendor.MctsBot(iterations=20, seed=0)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = int(bot.step(state))
        else:
            action = int(ours.act(state.engine))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 20
    assert sum(state.returns()) in (0.0, 1.0)
