"""Colour renamings of training samples (``splendor.train.symmetry``, ``--augment colours``).

Needs the ``train`` extra (PyTorch); ``.ci/run`` installs it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
import torch
from selfplay_shards import write_run
from splendor.train import loop
from splendor.train.data import Samples
from splendor.train.features import NeedsFeatures
from splendor.train.model import load
from splendor.train.symmetry import COLOUR_LETTERS, COLOUR_NAMES, colour_symmetry

VARIANTS = [v for v in ("base", "marvel") if v in splendor.VARIANTS]


def greedy_positions(variant: str, players: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and legal masks of the mover from greedy games."""
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    seed = 0
    while len(observations) < count:
        state = splendor.new_game(variant, players=players, seed=seed)
        bot = splendor.GreedyBot(seed=seed)
        while not state.is_terminal() and len(observations) < count:
            observations.append(state.observation(state.current_player))
            masks.append(state.legal_action_mask())
            state.apply(bot.act(state))
        seed += 1
    return np.stack(observations).astype(np.float32), np.stack(masks)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_renaming_is_a_distinct_permutation_of_the_columns(
    variant: str, players: int
) -> None:
    symmetry = colour_symmetry(variant, players)
    state = splendor.new_game(variant, players=players)
    assert symmetry.observation.shape == (120, state.observation_size)
    assert symmetry.actions.shape == (120, state.num_actions)
    for maps in (symmetry.observation, symmetry.actions):
        assert (maps[0] == np.arange(maps.shape[1])).all()
        assert (np.sort(maps, axis=1) == np.arange(maps.shape[1])).all()
    assert len({row.tobytes() for row in symmetry.observation}) == 120
    assert len({row.tobytes() for row in symmetry.actions}) == 120


def test_a_renaming_moves_features_and_actions_by_name() -> None:
    symmetry = colour_symmetry("base", 4)
    names = [f.name for f in splendor.observation_spec("base", 4).features]
    state = splendor.new_game("base", players=4)
    text = [str(state.action_from_id(i)) for i in range(state.num_actions)]
    # Find the renaming w -> u -> g -> w (r and k kept).
    (k,) = [
        k
        for k in range(120)
        if text[symmetry.actions[k][text.index("take u")]] == "take w"
        and text[symmetry.actions[k][text.index("take g")]] == "take u"
        and text[symmetry.actions[k][text.index("take w")]] == "take g"
        and text[symmetry.actions[k][text.index("take r")]] == "take r"
    ]
    moved_from = {text[j]: text[i] for j, i in enumerate(symmetry.actions[k])}
    assert moved_from["take ugr"] == "take wur"
    assert moved_from["pay gold ggk"] == "pay gold uuk"
    assert moved_from["return u"] == "return w"
    assert moved_from["return y"] == "return y"  # gold is not a card colour
    assert moved_from["reserve 2.3"] == "reserve 2.3"
    features_from = {names[j]: names[i] for j, i in enumerate(symmetry.observation[k])}
    assert features_from["seat2.reserve1.cost.g"] == "seat2.reserve1.cost.u"
    assert features_from["noble3.requirement.u"] == "noble3.requirement.w"
    assert features_from["bank.gold"] == "bank.gold"
    assert features_from["seat0.points"] == "seat0.points"


@pytest.mark.parametrize("variant", VARIANTS)
def test_renamed_positions_keep_their_needs_and_move_bank_and_takes_together(
    variant: str,
) -> None:
    """The needs extras are sums over colours, so a consistent renaming of costs, bonuses
    and tokens leaves them unchanged; and a colour is in some legal ``take`` exactly when
    the bank holds it, before and after renaming, so the observation's and the actions'
    maps rename in the same direction."""
    players = 4
    obs, masks = greedy_positions(variant, players, 60)
    symmetry = colour_symmetry(variant, players)
    names = [f.name for f in splendor.observation_spec(variant, players).features]
    bank = [names.index(f"bank.{c}") for c in COLOUR_NAMES[variant]]
    state = splendor.new_game(variant, players=players)
    takes = {
        i: str(state.action_from_id(i)).removeprefix("take ")
        for i in range(state.num_actions)
        if str(state.action_from_id(i)).startswith("take ")
    }
    needs = NeedsFeatures(variant, players)

    def colours_in_takes(mask: np.ndarray) -> list[bool]:
        legal = [word for i, word in takes.items() if mask[i]]
        return [any(letter in word for word in legal) for letter in COLOUR_LETTERS[variant]]

    checked = 0
    for k in (1, 17, 59, 119):
        renamed_obs = obs[:, symmetry.observation[k]]
        renamed_masks = masks[:, symmetry.actions[k]]
        with torch.no_grad():
            before = needs(torch.from_numpy(obs)).numpy()
            after = needs(torch.from_numpy(renamed_obs)).numpy()
        np.testing.assert_array_equal(after, before)
        assert not np.array_equal(renamed_obs, obs)
        for o, m, ro, rm in zip(obs, masks, renamed_obs, renamed_masks, strict=True):
            if not any(m[i] for i in takes):
                continue  # not the main phase
            assert colours_in_takes(m) == [o[i] > 0 for i in bank]
            assert colours_in_takes(rm) == [ro[i] > 0 for i in bank]
            checked += 1
    assert checked > 100


def test_augment_renames_each_row_and_keeps_targets_legal() -> None:
    obs, masks = greedy_positions("base", 3, 50)
    policy = masks / masks.sum(axis=1, keepdims=True)
    returns = np.tile(np.array([[1.0, 0.0, 0.0]], dtype=np.float32), (len(obs), 1))
    batch = Samples(obs, masks, policy.astype(np.float32), returns, np.arange(len(obs)))
    symmetry = colour_symmetry("base", 3)
    out = symmetry.augment(batch, np.random.default_rng(5))
    assert not (out.policy[~out.mask] != 0).any()
    np.testing.assert_allclose(out.policy.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_array_equal(out.returns, returns)
    renamed = 0
    for row in range(len(obs)):
        matches = [
            k for k in range(120) if np.array_equal(out.obs[row], obs[row, symmetry.observation[k]])
        ]
        assert any(np.array_equal(out.mask[row], masks[row, symmetry.actions[k]]) for k in matches)
        renamed += not np.array_equal(out.obs[row], obs[row])
    assert renamed > len(obs) // 2
    again = symmetry.augment(batch, np.random.default_rng(5))
    np.testing.assert_array_equal(again.obs, out.obs)


def test_training_with_colour_augmentation_resumes_exactly_and_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shards = write_run(tmp_path / "run", games=3, seed=4, players=3)
    config = loop.TrainConfig(
        players=3,
        seed=2,
        iterations=1,
        hidden=(16, 16),
        generate=False,
        data=(str(shards),),
        steps_per_iteration=6,
        batch_size=32,
        checkpoint_every=2,
        gate_games=0,
        eval_games=0,
        validation_fraction=0.2,
        augment="colours",
    )
    expected, _ = load(loop.train(config, tmp_path / "straight", progress=False))
    real_step = loop.train_step
    calls = 0

    def failing_step(*args: Any) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        if calls == 4:  # after the checkpoint at step 2: steps 3 and 4 are replayed
            raise KeyboardInterrupt
        return real_step(*args)

    monkeypatch.setattr(loop, "train_step", failing_step)
    with pytest.raises(KeyboardInterrupt):
        loop.train(config, tmp_path / "resumed", progress=False)
    monkeypatch.setattr(loop, "train_step", real_step)
    resumed, _ = load(loop.resume(tmp_path / "resumed", progress=False))
    plain, _ = load(
        loop.train(dataclasses.replace(config, augment="none"), tmp_path / "plain", progress=False)
    )
    for name, tensor in expected.state_dict().items():
        assert torch.equal(resumed.state_dict()[name], tensor), name
    assert any(
        not torch.equal(plain.state_dict()[name], tensor)
        for name, tensor in expected.state_dict().items()
    )
    assert json.loads((tmp_path / "straight" / "run.json").read_text())["settings"]["augment"] == (
        "colours"
    )


def test_bad_augmentations_are_refused(tmp_path: Path) -> None:
    for changes, message in (
        ({"augment": "mirror"}, "augment must be one of none, colours"),
        ({"augment": "colours", "variant": "duel"}, "augment='colours' is defined for base"),
    ):
        config = loop.TrainConfig(generate=False, data=("x",), **changes)  # type: ignore[arg-type]
        with pytest.raises(splendor.ConfigError, match=message):
            config.validate()
    old = loop.TrainConfig().to_json()
    del old["augment"]
    assert loop.TrainConfig.from_json(old).augment == "none"
