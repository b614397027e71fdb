"""The training layer (``splendor.train``): network file, losses, shards, the loop.

Needs the ``train`` extra (PyTorch); ``.ci/run`` installs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
import torch
from safetensors.numpy import save_file
from selfplay_shards import write_run
from splendor import cli
from splendor.errors import NetworkError
from splendor.train import data as data_module
from splendor.train import loop
from splendor.train.data import (
    BatchSampler,
    blend_search_value,
    input_normalization,
    load_runs,
    next_search_values,
    read_shard,
    split_by_game,
)
from splendor.train.errors import ShardError
from splendor.train.losses import policy_loss, value_loss
from splendor.train.model import (
    METADATA_KEYS,
    NetworkShape,
    PolicyValueNet,
    load,
    numpy_forward,
    read_network_file,
)
from splendor.train.plots import PLOT_FILES


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six games in three shards; one more run of two games truncated by a tiny turn cap."""
    return write_run(tmp_path_factory.mktemp("shards") / "run", games=6, seed=1)


@pytest.fixture(scope="module")
def truncated_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("shards") / "trunc", games=2, seed=2, turn_cap=3)


def random_model(
    variant: str = "base",
    players: int = 2,
    hidden: tuple[int, ...] = (32, 16),
    features: str = "raw",
) -> PolicyValueNet:
    state = splendor.new_game(variant, players=players)
    torch.manual_seed(7)
    shape = NetworkShape(
        variant, players, state.observation_size, state.num_actions, hidden, features
    )
    model = PolicyValueNet(shape)
    gen = np.random.default_rng(3)
    model.set_input_normalization(
        gen.normal(size=shape.input_size).astype(np.float32),
        gen.uniform(0.5, 2.0, size=shape.input_size).astype(np.float32),
    )
    return model


def positions(variant: str = "base", players: int = 2, count: int = 40) -> np.ndarray:
    """Observations from greedy games (varied, real positions)."""
    rows: list[np.ndarray] = []
    seed = 0
    while len(rows) < count:
        state = splendor.new_game(variant, players=players, seed=seed)
        bot = splendor.GreedyBot(seed=seed)
        while not state.is_terminal() and len(rows) < count:
            rows.append(state.observation(state.current_player))
            for _ in range(7):
                if state.is_terminal():
                    break
                state.apply(bot.act(state))
        seed += 1
    return np.stack(rows).astype(np.float32)


# --- the network file ---


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_export_load_round_trip_keeps_every_tensor_and_metadata_key(
    tmp_path: Path, variant: str
) -> None:
    model = random_model(variant)
    path = tmp_path / "net.safetensors"
    model.export(path, {"seed": 5, "note": "test"})
    loaded, metadata = load(path)
    assert set(METADATA_KEYS) <= set(metadata)
    state = splendor.new_game(variant)
    assert metadata["format"] == "splendor-net/1"
    assert metadata["variant"] == variant and metadata["players"] == "2"
    assert metadata["obs_size"] == str(state.observation_size)
    assert metadata["num_actions"] == str(state.num_actions)
    assert metadata["hidden"] == "32,16"
    assert json.loads(metadata["provenance"]) == {"note": "test", "seed": 5}
    assert loaded.shape == model.shape
    original = model.state_dict()
    assert set(loaded.state_dict()) == set(original)
    for name, tensor in loaded.state_dict().items():
        assert torch.equal(tensor, original[name]), name


def test_file_tensor_names_and_shapes_follow_the_spec(tmp_path: Path) -> None:
    model = random_model(hidden=(24, 12, 8))
    path = tmp_path / "net.safetensors"
    model.export(path)
    shape, _, tensors = read_network_file(path)
    o, a = shape.obs_size, shape.num_actions
    assert {k: v.shape for k, v in tensors.items()} == {
        "input.shift": (o,),
        "input.scale": (o,),
        "trunk.0.weight": (24, o),
        "trunk.0.bias": (24,),
        "trunk.1.weight": (12, 24),
        "trunk.1.bias": (12,),
        "trunk.2.weight": (8, 12),
        "trunk.2.bias": (8,),
        "policy.weight": (a, 8),
        "policy.bias": (a,),
        "value.weight": (2, 8),
        "value.bias": (2,),
    }
    assert all(v.dtype == np.float32 for v in tensors.values())


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_torch_forward_equals_numpy_forward_of_the_file(tmp_path: Path, variant: str) -> None:
    model = random_model(variant, hidden=(64, 64))
    path = tmp_path / "net.safetensors"
    model.export(path)
    shape, _, tensors = read_network_file(path)
    obs = positions(variant)
    with torch.no_grad():
        policy, value = model(torch.from_numpy(obs))
    np_policy, np_value = numpy_forward(tensors, shape.hidden, obs)
    np.testing.assert_allclose(policy.numpy(), np_policy, atol=1e-5, rtol=0)
    np.testing.assert_allclose(value.numpy(), np_value, atol=1e-5, rtol=0)
    # The check has teeth: a forward pass that skips the input normalisation differs.
    bare = dict(tensors, **{"input.scale": np.ones_like(tensors["input.scale"])})
    assert np.abs(numpy_forward(bare, shape.hidden, obs)[0] - np_policy).max() > 1e-3


def _rewrite(
    path: Path,
    out: Path,
    *,
    metadata: dict[str, str] | None = None,
    tensors: dict[str, np.ndarray | None] | None = None,
) -> Path:
    """A copy of a network file with other metadata or tensors (None: drop the tensor)."""
    _, meta, arrays = read_network_file(path)
    merged: dict[str, np.ndarray | None] = {**arrays, **(tensors or {})}
    save_file(
        {k: v for k, v in merged.items() if v is not None}, str(out), metadata=metadata or meta
    )
    return out


def test_bad_network_files_give_clear_errors(tmp_path: Path) -> None:
    good = tmp_path / "good.safetensors"
    random_model().export(good)
    _, meta, tensors = read_network_file(good)
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}......")
    cases = {
        "no such network file": tmp_path / "missing.safetensors",
        "not a readable safetensors file": garbage,
        "format is 'other/1'": _rewrite(
            good, tmp_path / "f.st", metadata={**meta, "format": "other/1"}
        ),
        "metadata lacks hidden": _rewrite(
            good, tmp_path / "p.st", metadata={k: v for k, v in meta.items() if k != "hidden"}
        ),
        "unknown variant 'chess'": _rewrite(
            good, tmp_path / "v.st", metadata={**meta, "variant": "chess"}
        ),
        "metadata players must be between 1 and 4, got 5": _rewrite(
            good, tmp_path / "pl.st", metadata={**meta, "players": "5"}
        ),
        "obs_size/num_actions 433/329 are not base's 432/329": _rewrite(
            good, tmp_path / "o.st", metadata={**meta, "obs_size": "433"}
        ),
        "metadata players='two'": _rewrite(
            good, tmp_path / "n.st", metadata={**meta, "players": "two"}
        ),
        "missing tensors value.bias": _rewrite(
            good, tmp_path / "m.st", tensors={"value.bias": None}
        ),
        "unexpected tensors extra": _rewrite(
            good, tmp_path / "e.st", tensors={"extra": np.zeros(3, dtype=np.float32)}
        ),
        "tensor policy.bias has shape (5,)": _rewrite(
            good, tmp_path / "s.st", tensors={"policy.bias": np.zeros(5, dtype=np.float32)}
        ),
        "tensor input.scale is float64": _rewrite(
            good,
            tmp_path / "d.st",
            tensors={"input.scale": tensors["input.scale"].astype(np.float64)},
        ),
        "tensor trunk.0.bias holds NaN": _rewrite(
            good,
            tmp_path / "nan.st",
            tensors={"trunk.0.bias": np.full_like(tensors["trunk.0.bias"], np.nan)},
        ),
    }
    for message, path in cases.items():
        with pytest.raises(NetworkError, match=message.replace("(", r"\(").replace(")", r"\)")):
            load(path)
    assert issubclass(NetworkError, splendor.SplendorError)
    # provenance is optional when loading, as in the Rust loader.
    bare = _rewrite(
        good, tmp_path / "b.st", metadata={k: v for k, v in meta.items() if k != "provenance"}
    )
    assert load(bare)[0].shape == load(good)[0].shape


# --- losses ---


def test_policy_loss_ignores_illegal_actions() -> None:
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(6, 10, generator=gen)
    mask = torch.rand(6, 10, generator=gen) < 0.5
    mask[:, :2] = True
    target = torch.rand(6, 10, generator=gen) * mask
    target = target / target.sum(dim=1, keepdim=True)
    changed = logits.clone()
    changed[~mask] = torch.randn(int((~mask).sum()), generator=gen) * 100.0
    assert torch.allclose(policy_loss(logits, mask, target), policy_loss(changed, mask, target))
    logits.requires_grad_(True)
    loss = policy_loss(logits, mask, target)
    loss.backward()  # type: ignore[no-untyped-call]
    assert logits.grad is not None
    assert torch.isfinite(logits.grad).all()
    assert (logits.grad[~mask] == 0).all() and (logits.grad[mask] != 0).any()
    # Soft-target cross-entropy over the legal softmax, row by row.
    expected = []
    for row in range(6):
        legal = mask[row]
        log_prior = torch.log_softmax(logits.detach()[row][legal], dim=0)
        expected.append(-(target[row][legal] * log_prior).sum())
    assert torch.allclose(loss, torch.stack(expected).mean())


def test_truncated_games_contribute_no_value_loss() -> None:
    gen = torch.Generator().manual_seed(1)
    logits = torch.randn(5, 3, generator=gen, requires_grad=True)
    returns = torch.tensor([[1.0, 0, 0], [0, 0, 0], [0, 0.5, 0.5], [0, 0, 0], [0, 0, 1.0]])
    loss = value_loss(logits, returns)
    decided = [0, 2, 4]
    expected = (
        -(returns[decided] * torch.log_softmax(logits.detach()[decided], dim=1)).sum(1).mean()
    )
    assert torch.allclose(loss, expected)
    loss.backward()  # type: ignore[no-untyped-call]
    assert logits.grad is not None
    assert (logits.grad[[1, 3]] == 0).all() and (logits.grad[decided] != 0).any()
    only_truncated = torch.zeros(2, 3)
    zero = value_loss(logits[[1, 3]], only_truncated)
    assert float(zero.detach()) == 0.0


# --- shards ---


def test_runs_load_with_a_replay_window_and_split_by_game(
    run_dir: Path, truncated_dir: Path
) -> None:
    samples, info = load_runs([run_dir, truncated_dir])
    assert info.variant == "base" and info.players == 2
    shards = [
        read_shard(p, 432, 329, 2)
        for d in (run_dir, truncated_dir)
        for p in sorted(d.glob("shard-*.npz"))
    ]
    assert len(samples) == sum(s["obs"].shape[0] for s in shards)
    assert samples.truncated.sum() == shards[-1]["obs"].shape[0]  # the tiny-cap run only
    window, _ = load_runs([run_dir, truncated_dir], window=50)
    assert len(window) == 50
    np.testing.assert_array_equal(window.obs, samples.obs[-50:])
    np.testing.assert_array_equal(window.game_key, samples.game_key[-50:])
    train_set, validation = split_by_game(samples, 0.3)
    assert len(train_set) + len(validation) == len(samples)
    assert len(validation) > 0 and len(train_set) > 0
    assert not set(train_set.game_key) & set(validation.game_key)


def test_search_value_blends_into_the_value_target() -> None:
    returns = np.array([[1, 0, 0], [0, 0.5, 0.5], [0, 0, 0], [0, 1, 0]], np.float32)
    q = np.array([0.8, 0.2, 0.6, np.nan], np.float32)
    assert blend_search_value(returns, q, 0.0) is returns
    half = blend_search_value(returns, q, 0.5)
    np.testing.assert_allclose(half[0], [0.9, 0.05, 0.05], rtol=1e-6)
    np.testing.assert_allclose(half[1], [0.1, 0.45, 0.45], rtol=1e-6)
    # A truncated game's row takes the search value alone; a row without one keeps its result.
    np.testing.assert_allclose(half[2], [0.6, 0.2, 0.2], rtol=1e-6)
    np.testing.assert_array_equal(half[3], returns[3])
    np.testing.assert_allclose(half.sum(axis=1), 1.0, rtol=1e-6)
    full = blend_search_value(returns, q, 1.0)
    np.testing.assert_allclose(full[:3, 0], q[:3], rtol=1e-6)


def test_search_value_leaves_the_rest_to_the_seats_that_won() -> None:
    """With three or four seats the search's ``1 - q`` goes to the opponents who won the game,
    not evenly: an even split would tell the value head that a leading and a trailing opponent
    are equally placed. With two seats the target is exactly ``[q, 1 - q]`` as before."""
    returns = np.array([[0, 1, 0]], np.float32)
    full = blend_search_value(returns, np.array([0.3], np.float32), 1.0)
    np.testing.assert_allclose(full[0], [0.3, 0.7, 0.0], rtol=1e-6)
    four = np.array([[0, 0, 1, 0], [0.5, 0, 0.5, 0], [1, 0, 0, 0]], np.float32)
    half = blend_search_value(four, np.array([0.2, 0.4, 0.9], np.float32), 0.5)
    np.testing.assert_allclose(half[0], [0.1, 0.0, 0.9, 0.0], rtol=1e-6)
    np.testing.assert_allclose(half[1], [0.45, 0.0, 0.55, 0.0], rtol=1e-6)
    # The mover won alone: nothing says which opponent was closer, the rest is split evenly.
    np.testing.assert_allclose(half[2], [0.95, 0.05 / 3, 0.05 / 3, 0.05 / 3], rtol=1e-6)
    two = np.array([[1, 0], [0, 1], [0.5, 0.5], [0, 0]], np.float32)
    q2 = np.array([0.7, 0.4, 0.5, 0.6], np.float32)
    np.testing.assert_allclose(
        blend_search_value(two, q2, 1.0), np.stack([q2, 1 - q2], axis=1), rtol=1e-6
    )


def test_each_seat_takes_its_own_next_search_value() -> None:
    """Three seats: the share of ``1 - q`` of each opponent follows that opponent's own search
    value at its next decision, and a seat with no later decision falls back on the result."""
    # Game 7: seats 0, 1, 2, 0, 1 move at plies 0-4 (rows out of order, as after a shuffle);
    # game 9 has one decision of seat 2.
    game = np.array([7, 7, 9, 7, 7, 7], np.int64)
    ply = np.array([0, 1, 0, 4, 2, 3], np.int64)
    player = np.array([0, 1, 2, 1, 2, 0], np.int64)
    q = np.array([0.5, 0.2, 0.6, 0.1, 0.3, 0.7], np.float32)
    seat_q = next_search_values(game, ply, player, q, 3)
    nan = np.nan
    np.testing.assert_allclose(seat_q[0], [0.5, 0.2, 0.3])  # seat 1 at ply 1, seat 2 at ply 2
    np.testing.assert_allclose(seat_q[1], [0.2, 0.3, 0.7])
    np.testing.assert_allclose(seat_q[2], [0.6, nan, nan])  # another game: nothing later
    np.testing.assert_allclose(seat_q[3], [0.1, nan, nan])  # the last decision of game 7
    np.testing.assert_allclose(seat_q[4], [0.3, 0.7, 0.1])
    np.testing.assert_allclose(seat_q[5], [0.7, 0.1, nan])
    returns = np.array([[0, 0, 1]] * 6, np.float32)
    full = blend_search_value(returns, q, 1.0, seat_q)
    np.testing.assert_allclose(full[0], [0.5, 0.5 * 0.2 / 0.5, 0.5 * 0.3 / 0.5], rtol=1e-6)
    # Seat 2 (two places after row 5's mover) has no later decision: it takes its result, 1.
    np.testing.assert_allclose(full[5], [0.7, 0.3 * 0.1 / 1.1, 0.3 * 1.0 / 1.1], rtol=1e-6)
    np.testing.assert_allclose(full.sum(axis=1), 1.0, rtol=1e-6)


def test_shards_without_search_values_load_with_their_results(
    run_dir: Path, tmp_path: Path
) -> None:
    """Shards written before ``q`` existed still load; their value target stays the result."""
    old = _corrupt(run_dir, tmp_path, q=None)
    plain, _ = load_runs([old])
    blended, _ = load_runs([old], value_q_weight=0.7)
    np.testing.assert_array_equal(plain.returns, blended.returns)
    with_q, _ = load_runs([run_dir], value_q_weight=0.7)
    assert not np.array_equal(with_q.returns[: len(plain)], plain.returns)


def test_input_normalization_standardises_and_leaves_constants_alone() -> None:
    gen = np.random.default_rng(0)
    obs = np.stack([gen.normal(3.0, 2.0, 500), np.full(500, 7.0)], axis=1).astype(np.float32)
    shift, scale = input_normalization(obs)
    normalized = (obs - shift) * scale
    assert abs(normalized[:, 0].mean()) < 1e-5 and abs(normalized[:, 0].std() - 1) < 1e-4
    assert scale[1] == 1.0 and shift[1] == 7.0


def test_input_normalization_in_blocks_matches_one_float64_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Measured block by block (so a large window needs no float64 copy of itself), the
    # statistics must be those of the whole array at once.
    monkeypatch.setattr(data_module, "NORMALIZATION_BLOCK_ROWS", 64)
    gen = np.random.default_rng(1)
    obs = np.concatenate([gen.normal(5.0, 3.0, (1000, 3)), np.full((1000, 1), 2.0)], axis=1).astype(
        np.float32
    )
    whole = obs.astype(np.float64)
    shift, scale = input_normalization(obs)
    np.testing.assert_allclose(shift, whole.mean(axis=0), rtol=1e-6)
    np.testing.assert_allclose(scale[:3], 1.0 / whole.std(axis=0)[:3], rtol=1e-6)
    assert scale[3] == 1.0


def test_trainer_measures_the_training_rows_and_their_features_block_by_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The trainer measures the inputs of the training rows of the one loaded copy, the
    # `needs` extras computed a block at a time; the statistics must be those of a
    # copied training set and its extras measured whole.
    monkeypatch.setattr(data_module, "NORMALIZATION_BLOCK_ROWS", 5)
    obs = positions("base", players=3, count=21)
    rows = np.array([0, 2, 3, 5, 8, 9, 11, 12, 13, 17, 20], dtype=np.int64)
    num_actions = splendor.new_game("base", players=3, seed=0).num_actions
    trainer = object.__new__(loop.Trainer)
    trainer.model = PolicyValueNet(
        NetworkShape("base", 3, obs.shape[1], num_actions, (8,), "needs")
    )
    shift, scale = trainer.input_normalization(obs, rows)
    assert trainer.model.extras is not None
    with torch.no_grad():
        extras = trainer.model.extras(torch.from_numpy(obs[rows])).numpy()
    whole = np.concatenate([obs[rows], extras], axis=1).astype(np.float64)
    std = whole.std(axis=0)
    np.testing.assert_allclose(shift, whole.mean(axis=0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(scale, np.where(std > 1e-3, 1.0 / std, 1.0), rtol=1e-5)


def test_batch_sampler_is_seeded_and_resumable() -> None:
    a = BatchSampler(10, 4, seed=3)
    b = BatchSampler(10, 4, seed=3)
    first = [a.next_rows() for _ in range(3)]
    assert all(np.array_equal(x, b.next_rows()) for x in first)
    epoch = np.concatenate(first[:2])
    assert len(set(epoch)) == 8  # no row twice within an epoch
    c = BatchSampler(10, 4, seed=3)
    c.load_state_dict(a.state_dict())
    assert all(np.array_equal(a.next_rows(), c.next_rows()) for _ in range(4))
    assert not np.array_equal(BatchSampler(10, 4, seed=4).next_rows(), first[0])


def _corrupt(run_dir: Path, tmp_path: Path, **changes: Any) -> Path:
    out = tmp_path / "bad"
    out.mkdir()
    (out / "run.json").write_text((run_dir / "run.json").read_text())
    with np.load(run_dir / "shard-000000.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    for key, value in changes.items():
        if value is None:
            del arrays[key]
        else:
            arrays[key] = value(arrays[key]) if callable(value) else value
    np.savez_compressed(out / "shard-000000.npz", **arrays)
    return out


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"policy": None}, "missing array 'policy'"),
        ({"obs": lambda x: x.astype(np.float64)}, "'obs' is float64, expected float32"),
        ({"obs": lambda x: x[:, :-1]}, r"'obs' has shape \(\d+, 431\), expected"),
        ({"returns": lambda x: np.zeros((x.shape[0], 3), np.float32)}, "'returns' has shape"),
        (
            {"mask": lambda m: np.where(np.arange(m.shape[1]) == 0, False, m)},
            "policy mass on an illegal",
        ),
        ({"policy": lambda p: p * 2}, "policy does not sum to 1"),
        ({"returns": lambda r: r * 0.5}, "returns sum to 0.5"),
        ({"game": lambda g: g + 100}, "not among the shard's 'game_ids'"),
        ({"game_seeds": lambda s: s[:1]}, "'game_ids' and 'game_seeds'"),
        ({"player": lambda s: s.astype(np.int64)}, "'player' is int64, expected int8"),
        ({"player": None}, "missing array 'player'"),
        ({"player": lambda s: s + 2}, "'player' must hold seats between 0 and 1"),
        ({"obs": lambda x: np.where(x == x.max(), np.nan, x).astype(np.float32)}, "NaN"),
        (
            {"q": lambda g: np.full(g.shape, 1.5, np.float32)},
            "'q' holds values that are not between 0 and 1",
        ),
        ({"q": lambda g: np.zeros(3, np.float32)}, "'q' has shape"),
    ],
)
def test_bad_shards_give_clear_errors(
    run_dir: Path, tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    if "mask" in changes:
        # Put policy mass on action 0 of the first row, then make action 0 illegal.
        with np.load(run_dir / "shard-000000.npz") as npz:
            policy = npz["policy"].copy()
        policy[0] = 0
        policy[0, 0] = 1
        changes = {**changes, "policy": policy}
    bad = _corrupt(run_dir, tmp_path, **changes)
    with pytest.raises(ShardError, match=message):
        load_runs([bad])


def test_bad_run_directories_give_clear_errors(run_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ShardError, match="not a directory"):
        load_runs([tmp_path / "nowhere"])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ShardError, match=r"no run\.json"):
        load_runs([empty])
    (empty / "run.json").write_text('{"variant": "base", "players": 2}')
    with pytest.raises(ShardError, match="no shards"):
        load_runs([empty])
    (empty / "shard-000000.npz").write_bytes(b"this is not a zip file")
    with pytest.raises(ShardError, match=r"not a readable \.npz shard"):
        load_runs([empty])
    (empty / "run.json").write_text("[1, 2]")
    with pytest.raises(ShardError, match="expected a JSON object"):
        load_runs([empty])
    duel = write_run(tmp_path / "duel", variant="duel", games=1)
    with pytest.raises(ShardError, match="differs from"):
        load_runs([run_dir, duel])


# --- the loop ---


def tiny_config(shards: Path, **changes: Any) -> loop.TrainConfig:
    settings: dict[str, Any] = {
        "seed": 11,
        "iterations": 2,
        "hidden": (16, 16),
        "generate": False,
        "data": (str(shards),),
        "steps_per_iteration": 5,
        "batch_size": 32,
        "checkpoint_every": 2,
        "log_every": 2,
        "gate_games": 0,
        "eval_games": 0,
        "validation_fraction": 0.2,
    }
    settings.update(changes)
    return loop.TrainConfig(**settings)


def test_data_of_another_game_is_refused_before_the_run_starts(
    run_dir: Path, tmp_path: Path
) -> None:
    duel = write_run(tmp_path / "duel", variant="duel", games=1)
    out = tmp_path / "run"
    with pytest.raises(ShardError, match=r"its games are duel with 2 players, this run is base"):
        loop.train(tiny_config(duel), out, progress=False)
    assert not out.exists()
    with pytest.raises(ShardError, match="--variant base --players 2"):
        loop.train(tiny_config(run_dir, variant="duel"), out, progress=False)
    assert not out.exists()


def test_tiny_training_run_produces_a_valid_network_file(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    best = loop.train(tiny_config(run_dir), out, progress=False)
    assert best == out / "best.safetensors"
    shape, metadata, tensors = read_network_file(best)
    assert shape.hidden == (16, 16) and shape.variant == "base"
    provenance = json.loads(metadata["provenance"])
    assert provenance["settings"]["seed"] == 11 and provenance["iteration"] == 1
    assert provenance["data"] == [str(run_dir)]
    samples, _ = load_runs([run_dir])
    train_set, _ = split_by_game(samples, 0.2)
    shift, scale = input_normalization(train_set.obs)
    np.testing.assert_array_equal(tensors["input.shift"], shift)
    np.testing.assert_array_equal(tensors["input.scale"], scale)
    record = json.loads((out / "run.json").read_text())
    assert record["settings"]["seed"] == 11 and record["seeds"]["run"] == 11
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    iterations = [r for r in records if r["kind"] == "iteration"]
    assert [r["iteration"] for r in iterations] == [0, 1]
    assert [r["step"] for r in records if r["kind"] == "train"] == [2, 4, 6, 8, 10]
    for r in iterations:
        assert r["validation_policy_loss"] > 0 and r["validation_value_loss"] > 0
        assert r["accepted"] is True
    for name in PLOT_FILES:
        png = (out / "plots" / name).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 1000
    with pytest.raises(splendor.ConfigError, match="already holds a run"):
        loop.train(tiny_config(run_dir), out, progress=False)


def test_training_reduces_the_loss(run_dir: Path, tmp_path: Path) -> None:
    config = tiny_config(run_dir, iterations=1, steps_per_iteration=60, learning_rate=3e-3)
    loop.train(config, tmp_path / "run", progress=False)
    steps = [
        json.loads(line)
        for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
        if '"train"' in line
    ]
    assert steps[-1]["policy_loss"] < steps[0]["policy_loss"]
    assert steps[-1]["value_loss"] < steps[0]["value_loss"]


def test_learning_rate_follows_the_schedule_in_every_iteration(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[float] = []
    real_step = loop.train_step

    def recording_step(
        model: Any, optimizer: torch.optim.Optimizer, batch: Any, *points: Any
    ) -> tuple[float, float]:
        seen.append(optimizer.param_groups[0]["lr"])
        return real_step(model, optimizer, batch, *points)

    monkeypatch.setattr(loop, "train_step", recording_step)
    config = tiny_config(run_dir, iterations=2, steps_per_iteration=4, learning_rate=2e-3)
    assert config.lr_schedule == "cosine"  # the default
    loop.train(config, tmp_path / "cosine", progress=False)
    # Half a cosine from 2e-3 towards 0 over the 4 steps, restarted each iteration:
    # 2e-3 * (1 + cos(pi * k / 4)) / 2 for k = 0..3.
    one_phase = [2e-3, 2e-3 * (2 + 2**0.5) / 4, 1e-3, 2e-3 * (2 - 2**0.5) / 4]
    assert seen == pytest.approx(one_phase * 2, rel=1e-12)
    seen.clear()
    constant = tiny_config(run_dir, iterations=1, steps_per_iteration=3, lr_schedule="constant")
    loop.train(constant, tmp_path / "constant", progress=False)
    assert seen == [constant.learning_rate] * 3


def test_runs_recorded_before_the_schedule_resume_at_a_constant_rate(run_dir: Path) -> None:
    settings = tiny_config(run_dir).to_json()
    assert settings.pop("lr_schedule") == "cosine"
    assert loop.TrainConfig.from_json(settings).lr_schedule == "constant"


def test_runs_are_reproducible_and_resume_after_an_interruption(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tiny_config(run_dir)
    loop.train(config, tmp_path / "straight", progress=False)
    expected, _ = load(tmp_path / "straight" / "best.safetensors")

    real_step = loop.train_step
    calls = 0

    def failing_step(*args: Any) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        if calls == 8:  # mid-way through iteration 1, after the checkpoint at its step 2
            raise KeyboardInterrupt
        return real_step(*args)

    monkeypatch.setattr(loop, "train_step", failing_step)
    with pytest.raises(KeyboardInterrupt):
        loop.train(config, tmp_path / "resumed", progress=False)
    monkeypatch.setattr(loop, "train_step", real_step)
    checkpoint = torch.load(tmp_path / "resumed" / "checkpoint.pt", weights_only=False)
    assert (checkpoint["iteration"], checkpoint["iteration_step"]) == (1, 2)
    loop.resume(tmp_path / "resumed", progress=False)
    resumed, _ = load(tmp_path / "resumed" / "best.safetensors")
    for name, tensor in expected.state_dict().items():
        assert torch.equal(resumed.state_dict()[name], tensor), name
    with pytest.raises(splendor.ConfigError, match="no training run"):
        loop.resume(tmp_path / "nothing", progress=False)


def test_bad_settings_are_refused(run_dir: Path, tmp_path: Path) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"batch_size": 0}, "batch_size must be positive"),
        ({"hidden": ()}, "hidden widths"),
        ({"data": ()}, "without generation"),
        ({"variant": "chess"}, "unknown variant"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"lr_schedule": "step"}, "lr_schedule must be one of cosine, constant"),
    ]
    for changes, message in cases:
        with pytest.raises(splendor.ConfigError, match=message):
            loop.train(tiny_config(run_dir, **changes), tmp_path / "x", progress=False)
    assert not (tmp_path / "x").exists()
    with pytest.raises(splendor.ConfigError, match="bad hidden widths"):
        loop.parse_hidden("256,x")


def test_seeds_derive_stably() -> None:
    # Pinned: changing the derivation would silently change every documented run.
    assert loop.derive_seed(0, "init") == loop.derive_seed(0, "init")
    assert loop.derive_seed(0, "selfplay", 1) != loop.derive_seed(0, "selfplay", 2)
    assert loop.derive_seed(0, "gate", 1) != loop.derive_seed(0, "selfplay", 1)
    assert loop.derive_seed(1, "init") != loop.derive_seed(0, "init")


def test_cli_trains_from_existing_shards(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli-run"
    args = [
        "train",
        str(out),
        "--no-generate",
        "--data",
        str(run_dir),
        "--iterations",
        "1",
        "--steps",
        "3",
        "--hidden",
        "8",
        "--batch-size",
        "16",
        "--gate-games",
        "0",
        "--eval-games",
        "0",
        "--seed",
        "4",
        "--quiet",
        "--selfplay-option",
        "temperature_moves=12",
        "--selfplay-option",
        "prior_temperature=null",
    ]
    assert cli.main(args) == 0
    assert capsys.readouterr().out.strip() == str(out / "best.safetensors")
    shape, _, _ = read_network_file(out / "best.safetensors")
    assert shape.hidden == (8,)
    assert json.loads((out / "run.json").read_text())["settings"]["seed"] == 4
    assert cli.main(["train", "--resume", str(out), "--quiet"]) == 0  # already finished: no-op
    assert json.loads((out / "run.json").read_text())["settings"]["selfplay_options"] == {
        "temperature_moves": 12,
        "prior_temperature": None,
    }
    assert cli.main([*args[:1], str(tmp_path / "z"), *args[2:], "--selfplay-option", "x"]) == 2
    assert "expected KEY=VALUE" in capsys.readouterr().err
    assert cli.main(["train"]) == 2
    assert "give RUN_DIR" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "train",
                str(tmp_path / "y"),
                "--data",
                str(tmp_path / "none"),
                "--no-generate",
                "--quiet",
            ]
        )
        == 2
    )
    assert "not a directory" in capsys.readouterr().err
    assert not (tmp_path / "y").exists()


def test_import_splendor_does_not_import_torch() -> None:
    code = (
        "import sys, splendor, splendor.cli; "
        "print('torch' in sys.modules, 'matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


class FakeMatch:
    """Stands in for ``splendor.match``: scripted win rates for the first bot, calls recorded."""

    def __init__(self, rates: list[tuple[float, float]]) -> None:
        self.rates = rates
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def __call__(self, bots: list[str], **kwargs: Any) -> Any:
        self.calls.append((list(bots), kwargs))
        gates = sum(1 for b, _ in self.calls if b[1].startswith("net:"))
        rate, low = self.rates[gates - 1] if bots[1].startswith("net:") else (0.9, 0.8)
        games = kwargs["games"]
        row = {
            "games": games,
            "wins": rate * games,
            "win_rate": rate,
            "ci_low": low,
            "ci_high": 1.0,
        }
        return type("Result", (), {"bots": [row, {**row, "win_rate": 1 - rate}]})()


def test_loop_generates_with_the_best_network_and_gates_candidates(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generation gets no network first, then the best; the gate's rule decides what is best."""
    generated: list[tuple[Path, dict[str, Any]]] = []

    def fake_selfplay(out: Path, **kwargs: Any) -> None:
        generated.append((out, kwargs))
        write_run(out, games=2, seed=kwargs["seed"] % 1000)

    # Iteration 1: 60% but the interval reaches below 0.5 -> rejected; iteration 2: 58% with
    # the interval above 0.5 -> accepted; iteration 3: 54%, under the threshold -> rejected.
    gate = FakeMatch([(0.60, 0.49), (0.58, 0.51), (0.54, 0.52)])
    monkeypatch.setattr(loop, "run_selfplay", fake_selfplay)
    monkeypatch.setattr(splendor, "match", gate)
    config = tiny_config(
        run_dir,
        generate=True,
        data=(),
        iterations=4,
        games_per_iteration=2,
        gate_games=10,
        gate_search_iterations=7,
        selfplay_search_iterations=9,
        eval_every=2,
        eval_games=4,
        eval_search_iterations=5,
        eval_opponents=("greedy",),
    )
    out = tmp_path / "run"
    loop.train(config, out, progress=False)
    candidate = [str(out / "nets" / f"candidate-{i:04d}.safetensors") for i in range(4)]
    # The best is candidate 0, then candidate 2 from iteration 3 on.
    assert [kwargs["network"] for _, kwargs in generated] == [
        None,
        *candidate[0:1] * 2,
        candidate[2],
    ]
    assert [p for p, _ in generated] == [out / "selfplay" / f"gen-{i:04d}" for i in range(4)]
    assert {kwargs["iterations"] for _, kwargs in generated} == {9}
    assert len({kwargs["seed"] for _, kwargs in generated}) == 4
    gate_calls = [bots for bots, _ in gate.calls if bots[1].startswith("net:")]
    assert gate_calls == [
        [f"net:7@{candidate[1]}", f"net:7@{candidate[0]}"],
        [f"net:7@{candidate[2]}", f"net:7@{candidate[0]}"],
        [f"net:7@{candidate[3]}", f"net:7@{candidate[2]}"],
    ]
    eval_calls = [bots for bots, _ in gate.calls if bots[1] == "greedy"]
    # Evaluated at iterations 1 and 3.
    assert eval_calls == [[f"net:5@{candidate[0]}", "greedy"], [f"net:5@{candidate[2]}", "greedy"]]
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    iterations = [r for r in records if r["kind"] == "iteration"]
    assert [r["accepted"] for r in iterations] == [True, False, True, False]
    assert ["strength" in r for r in iterations] == [False, True, False, True]
    assert iterations[3]["strength"]["greedy"]["win_rate"] == 0.9
    assert [r["gate"]["win_rate"] for r in iterations[1:]] == [0.60, 0.58, 0.54]
    best = (out / "best.safetensors").read_bytes()
    assert best == (out / "nets" / "candidate-0002.safetensors").read_bytes()
    # Later generations train on every generation so far.
    assert iterations[3]["samples"] > iterations[0]["samples"]


def test_tiny_end_to_end_run_with_real_self_play(tmp_path: Path) -> None:
    """A few real self-play games (plain MCTS, the bootstrap generation), a few steps."""
    config = loop.TrainConfig(
        seed=3,
        iterations=1,
        hidden=(16,),
        games_per_iteration=3,
        selfplay_search_iterations=16,
        steps_per_iteration=4,
        batch_size=16,
        log_every=2,
        gate_games=0,
        eval_games=0,
        validation_fraction=0.3,
        selfplay_options={"temperature_moves": 4},
    )
    out = tmp_path / "run"
    best = loop.train(config, out, progress=False)
    shape, metadata, _ = read_network_file(best)
    assert shape.variant == "base" and shape.hidden == (16,)
    generation = out / "selfplay" / "gen-0000"
    settings = json.loads((generation / "run.json").read_text())
    assert settings["seed"] == loop.derive_seed(3, "selfplay", 0)
    assert settings["iterations"] == 16 and settings["temperature_moves"] == 4
    samples, _ = load_runs([generation])
    record = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()][-1]
    assert record["samples"] == len(samples) > 0
    assert json.loads(metadata["provenance"])["selfplay"] == ["selfplay/gen-0000"]


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_rust_evaluation_equals_torch_on_stored_positions(tmp_path: Path, variant: str) -> None:
    """The exported file gives the same outputs in Rust (``splendor.Network``) as in PyTorch."""
    model = random_model(variant, hidden=(64, 32))
    path = tmp_path / "net.safetensors"
    model.export(path, {"test": "rust agreement"})
    network = splendor.Network.load(path)
    assert (network.variant, network.players, network.hidden) == (variant, 2, [64, 32])
    obs = positions(variant)
    with torch.no_grad():
        logits, value_logits = model(torch.from_numpy(obs))
        value = torch.softmax(value_logits, dim=1)
    for row, observation in enumerate(obs):
        rust_logits, rust_value = network.evaluate(observation)
        np.testing.assert_allclose(rust_logits, logits[row].numpy(), atol=1e-4, rtol=0)
        np.testing.assert_allclose(rust_value, value[row].numpy(), atol=1e-4, rtol=0)


def test_trained_network_agrees_in_rust_and_plays_the_gate(tmp_path: Path) -> None:
    """Two real iterations: the second generation is played by the first network in Rust,
    and its candidate is gated against it with ``net:`` bots in ``splendor.match``."""
    config = loop.TrainConfig(
        seed=5,
        iterations=2,
        hidden=(16,),
        games_per_iteration=2,
        selfplay_search_iterations=8,
        steps_per_iteration=3,
        batch_size=16,
        log_every=3,
        gate_games=2,
        gate_search_iterations=4,
        gate_threshold=0.0,
        gate_min_lower=-1.0,
        eval_games=2,
        eval_search_iterations=4,
        eval_opponents=("random",),
        validation_fraction=0.0,
    )
    out = tmp_path / "run"
    best = loop.train(config, out, progress=False)
    second = json.loads((out / "selfplay" / "gen-0001" / "run.json").read_text())
    first_net = out / "nets" / "candidate-0000.safetensors"
    assert second["network"] == str(first_net)
    assert second["network_sha256"] == splendor.Network.load(first_net).sha256
    records = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    final = records[-1]
    assert final["gate"]["games"] == 2 and final["accepted"] is True
    assert final["strength"]["random"]["games"] == 2
    model, _ = load(best)
    obs = positions("base", count=10)
    with torch.no_grad():
        logits, _ = model(torch.from_numpy(obs))
    network = splendor.Network.load(best)
    for row, observation in enumerate(obs):
        np.testing.assert_allclose(network.evaluate(observation)[0], logits[row].numpy(), atol=1e-4)


# --- the needs features (metadata ``features``) ---


def needs_position() -> tuple[Any, np.ndarray]:
    """Base, 2 players, seed 3, after four moves; player 0 to move.

    Player 0 took w,u,g then u,g,r: tokens w1 u2 g2 r1. Player 1 took g,r,k and
    reserved the face-up level-1 card in slot 3 (cost w1 r1 k3), getting a gold:
    tokens g1 r1 k1 gold1. Nobody has a bonus yet, so a card's need is its cost.
    Board level 1: slot 1 costs u2 k2, slot 2 g2 r1, slot 4 u1 g2 r1 k1; level 2
    slot 1 costs r5.
    """
    state = splendor.new_game("base", players=2, seed=3)
    for text in ("take wug", "take grk", "take ugr", "reserve 1.3"):
        (action,) = [a for a in state.legal_actions() if a.text == text]
        state.apply(action)
    assert state.current_player == 0
    return state, state.observation(0)


def test_needs_extras_on_a_hand_checked_position() -> None:
    from splendor.reference.base.cards import load_nobles
    from splendor.train.features import NeedsFeatures

    state, obs = needs_position()
    with torch.no_grad():
        extras = NeedsFeatures("base", 2)(torch.from_numpy(obs[None, :]))[0].numpy()
    assert extras.shape == (118,)
    # Per seat (mover first) 59 floats: need_sum[18], missing[18], affordable[18], noble_need[5];
    # cards: board l1.0-3, l2.0-3, l3.0-3, seat0.reserve0-2, seat1.reserve0-2.
    seat0, seat1 = extras[:59], extras[59:]
    need, missing, affordable, nobles = (seat0[:18], seat0[18:36], seat0[36:54], seat0[54:])
    # Player 0 (w1 u2 g2 r1, no gold).
    assert need[[0, 1, 3, 4]].tolist() == [4, 3, 5, 5]
    assert missing[[0, 1, 3, 4]].tolist() == [2, 0, 1, 4]  # lacks k2; -; k1; r4
    assert affordable[[0, 1, 3, 4]].tolist() == [0, 1, 0, 0]
    # Player 1's face-up reserve is visible to player 0: w1 r1 k3, player 0 lacks k3.
    assert (need[15], missing[15], affordable[15]) == (5, 3, 0)
    # No other reserved card: those slots are all zero.
    for block in (need, missing, affordable):
        assert not block[[12, 13, 14, 16, 17]].any()
    # Player 1 (g1 r1 k1 and a gold): slot 2 (g2 r1) lacks g1, which the gold pays.
    need1, missing1, affordable1 = seat1[:18], seat1[18:36], seat1[36:54]
    assert (need1[1], missing1[1], affordable1[1]) == (3, 0, 1)
    assert (missing1[0], missing1[15]) == (2, 2)  # u2 k1 less a gold; w1 k2 less a gold
    # Three nobles in play for two players; with no bonus, a noble needs its whole requirement.
    dealt = json.loads(state.to_json())["nobles"]
    want = [sum(load_nobles()[n].req) for n in dealt] + [0, 0]
    assert nobles.tolist() == want == seat1[54:].tolist()
    assert all(w >= 8 for w in want[:3])


def duel_needs_position() -> tuple[Any, np.ndarray]:
    """Duel, player 0 to move, built from the scenario position of the joker rule.

    Pyramid: level 1 holds jokers 25 (k4 pearl1) and 26 (w4 pearl1), then card 2 (u2 g2
    pearl1), 3 (r2 k2), 4 (g2 r3); level 2 slot 3 is card 32 (w4 k2 pearl1).
    Player 0 owns only the points-only card 29 (3 points, no bonus), holds w4 pearl1 and
    reserved card 37 (g5 r2) blind. Player 1 owns cards 1 (white, 1 crown), 33 (white,
    double bonus, 1 point) and 54 (white, 3 points, 2 crowns), so bonus w4, 4 points on
    white and 3 crowns, and royal 3 (3 points); it holds k3 pearl1 gold1 and reserved card
    35 (g4 k3) from the pyramid and card 57 blind.
    """
    scenarios = json.loads((Path(__file__).parent / "data" / "duel" / "scenarios.json").read_text())
    (scenario,) = [s for s in scenarios["scenarios"] if s["name"] == DUEL_JOKER]
    state = scenario["state"]
    state["pyramid"] = [[25, 26, 2, 3, 4], [30, 31, 32, 34], [55, 56, 58]]
    state["royals"] = [0, 1, 2]
    state["board"][0] = None  # the white token now in player 0's hand
    state["bag"] = [0, 3, 4, 4, 1, 0, 2]
    first, second = state["players"]
    first.update(
        cards=[29],
        tokens=[4, 0, 0, 0, 0, 1, 0],
        reserved=[{"card": 37, "hidden": True, "level": 2}],
    )
    second.update(
        cards=[1, 33, 54],
        royals=[3],
        tokens=[0, 0, 0, 0, 3, 1, 1],
        reserved=[
            {"card": 35, "hidden": False, "level": 2},
            {"card": 57, "hidden": True, "level": 3},
        ],
    )
    used = {c for row in state["pyramid"] for c in row} | {29, 1, 33, 54, 37, 35, 57}
    state["decks"] = [[c for c in deck if c not in used] for deck in state["decks"]]
    state["deck_sizes"] = [len(deck) for deck in state["decks"]]
    position = splendor.from_json(json.dumps(state))
    assert position.current_player == 0
    return position, position.observation(0)


DUEL_JOKER = "joker_needs_a_coloured_card"
"""The Duel scenario (``tests/data/duel/scenarios.json``) whose position this test builds on."""


def test_needs_extras_on_a_hand_checked_duel_position() -> None:
    from splendor.train.features import NeedsFeatures

    state, obs = duel_needs_position()
    with torch.no_grad():
        extras = NeedsFeatures("duel", 2)(torch.from_numpy(obs[None, :]))[0].numpy()
    assert extras.shape == (116,)
    # Per seat (mover first) 58 floats: need_sum[18], missing[18], affordable[18], goals[4];
    # cards: pyramid 0-11, seat0.reserve0-2, seat1.reserve0-2.
    for seat, block in enumerate((extras[:58], extras[58:])):
        need, missing, affordable, goals = block[:18], block[18:36], block[36:54], block[54:]
        if seat == 0:
            # No bonus, w4 pearl1, no gold. Joker 26 is paid for, but player 0 has no
            # coloured card to put it on: not affordable. Pearls count in the need.
            assert need[[0, 1, 2, 3, 4, 7]].tolist() == [5, 5, 5, 4, 5, 7]
            assert missing[[0, 1, 2, 3, 4, 7]].tolist() == [4, 0, 4, 4, 5, 2]
            assert (
                not affordable.any()
                and state.legal_actions()
                and not any(str(a).startswith("buy") for a in state.legal_actions())
            )
            # Its own blind reserve (g5 r2) is visible to it.
            assert (need[12], missing[12]) == (7, 7)
            # 20 - 3 points, 10 crowns, 10 points on a colour (the points-only card is on
            # none), 3 crowns to the first royal.
            assert goals.tolist() == [17, 10, 10, 3]
        else:
            # Bonus w4, k3 pearl1 gold1: joker 25 lacks k1, which the gold pays; joker 26
            # lacks only its pearl, held. Card 32 lacks w0 k0: buyable.
            assert need[[0, 1, 2, 3, 7]].tolist() == [5, 1, 5, 4, 3]
            assert missing[[0, 1, 2, 3, 7]].tolist() == [0, 0, 3, 1, 0]
            assert affordable.nonzero()[0].tolist() == [0, 1, 7]
            # Player 0's blind reserve (g5 r2): 7 short less a gold.
            assert (need[12], missing[12]) == (7, 6)
            assert goals.tolist() == [20 - 7, 10 - 3, 10 - 4, 6 - 3]
        # Player 1's face-up reserve (g4 k3) is seen; its blind one is not: all zero.
        assert need[15] == 7 and need[16] == missing[16] == affordable[16] == 0
        assert not need[[13, 14, 17]].any()


def marvel_needs_position() -> tuple[Any, np.ndarray]:
    """Marvel, 2 players (seed 1's deal), player 0 to move.

    Board level 1: Moon Knight (yellow 3), Kraven (blue 3), Crystal (purple 2, orange 2),
    Silver Sable (purple 3). Locations in play: Hell's Kitchen (orange 4, yellow 4) and
    Atlantis (purple 3, blue 3, red 3).
    Player 0 recruited Lizard, Elektra, Electro and Hulk (level 3: 3 points, 2 Avengers, the
    green Time Stone): bonus purple 2, blue 1, red 1. It holds purple 1, red 2, yellow 1, a
    grey and the green, and reserved Miles Morales (purple 5) blind.
    Player 1 recruited America Chavez, Valkyrie, Wasp and Hawkeye (4 Avengers: it holds the
    Avengers tile, 3 points): bonus purple 1, blue 2, orange 1. It holds blue 2, and reserved
    Quicksilver (purple 3, red 3, yellow 2) face up and Iron Fist blind.
    """
    state = json.loads(splendor.new_game("marvel", players=2, seed=1).to_json())
    first, second = state["players"]
    first.update(
        cards=[3, 9, 17, 70],
        tokens=[1, 0, 2, 0, 1, 1, 1],
        reserved=[{"card": 50, "hidden": True, "level": 2}],
    )
    second.update(
        cards=[5, 13, 14, 29],
        tokens=[0, 2, 0, 0, 0, 0, 0],
        reserved=[
            {"card": 46, "hidden": False, "level": 2},
            {"card": 75, "hidden": True, "level": 3},
        ],
    )
    state["avengers"] = 1
    state["bank"] = [3, 2, 2, 4, 3, 4, 1]
    used = {3, 9, 17, 70, 50, 5, 13, 14, 29, 46, 75}
    state["decks"] = [[c for c in deck if c not in used] for deck in state["decks"]]
    state["deck_sizes"] = [len(deck) for deck in state["decks"]]
    position = splendor.from_json(json.dumps(state))
    assert json.loads(position.to_json())["locations"] == [2, 6]
    return position, position.observation(0)


def test_needs_extras_on_a_hand_checked_marvel_position() -> None:
    from splendor.train.features import NeedsFeatures

    state, obs = marvel_needs_position()
    with torch.no_grad():
        extras = NeedsFeatures("marvel", 2)(torch.from_numpy(obs[None, :]))[0].numpy()
    assert extras.shape == (122,)
    # Per seat 61 floats: need_sum[18], missing[18], affordable[18], location_need[4], then
    # avengers_short, ip_short, stones_missing.
    seat0, seat1 = extras[:61], extras[61:]
    need, missing, affordable = seat0[:18], seat0[18:36], seat0[36:54]
    # Moon Knight lacks y2 after y1, the grey pays one; Silver Sable lacks p1, held.
    assert need[:4].tolist() == [3, 2, 2, 1]
    assert missing[:4].tolist() == [1, 1, 1, 0]
    # Recruitable: Silver Sable only (player 1's face-up Quicksilver, slot 15, is paid for
    # too, but only its owner may recruit it).
    assert affordable.nonzero()[0].tolist() == [3, 15]
    assert [str(a) for a in state.legal_actions() if str(a).startswith("recruit")] == [
        "recruit 1.4"
    ]
    assert (need[12], missing[12]) == (3, 1)  # its own blind Miles Morales, p5
    assert (need[15], missing[15]) == (5, 0)  # Quicksilver p3 r3 y2: lacks y1, the grey's
    assert need[16] == 0  # player 1's blind reserve is unseen
    # Locations: Hell's Kitchen o4 y4; Atlantis p3-2 b3-1 r3-1. The tile holder has 4 icons:
    # 5 needed, 2 held. 16 - 3 IP. Missing orange and yellow; the green is held.
    assert seat0[54:].tolist() == [8, 5, 0, 0, 3, 13, 2]
    need1, missing1, affordable1 = seat1[:18], seat1[18:36], seat1[36:54]
    assert need1[:4].tolist() == [3, 1, 2, 2]
    assert missing1[:4].tolist() == [3, 0, 2, 2]
    assert affordable1.nonzero()[0].tolist() == [1]  # Kraven: b3 - b2 bonus, b2 held
    assert (need1[12], missing1[12]) == (4, 4)
    assert (need1[15], missing1[15]) == (7, 7)
    # The holder needs no icons; its 3 IP are the tile's; missing red, yellow and the green.
    assert seat1[54:].tolist() == [7, 6, 0, 0, 0, 13, 3]


NEEDS_GOALS = {"base": 5, "duel": 4, "marvel": 4 + 3}
"""Goals per seat after the card blocks: base nobles; Duel's four thresholds; Marvel's four
locations and three Gauntlet and Avengers goals."""


NEEDS_GAMES = [("base", 2), ("base", 3), ("base", 4), ("duel", 2)] + [
    ("marvel", p) for p in (2, 3, 4)
]


@pytest.mark.parametrize(("variant", "players"), NEEDS_GAMES)
def test_rust_and_torch_extras_agree_on_real_games(
    variant: str, players: int, tmp_path: Path
) -> None:
    model = random_model(variant, players, hidden=(8,), features="needs")
    path = tmp_path / "needs.safetensors"
    model.export(path)
    network = splendor.Network.load(path)
    assert network.features == "needs" and "features='needs'" in repr(network).replace('"', "'")
    obs = positions(variant, players, count=150)
    with torch.no_grad():
        torch_input = model.input_features(torch.from_numpy(obs)).numpy()
    rust_input = np.stack([network.input_features(o) for o in obs])
    k = 12 + 3 * players
    per_seat = 3 * k + NEEDS_GOALS[variant]
    assert rust_input.shape == (150, obs.shape[1] + players * per_seat)
    np.testing.assert_array_equal(rust_input, torch_input)
    extras = rust_input[:, obs.shape[1] :].reshape(150, players, per_seat)
    assert (extras != 0).sum() > 150 * 10  # real information, not zeros
    assert set(np.unique(extras[:, :, 2 * k : 3 * k])) == {0, 1}
    # Every goal in play varies over the positions (base deals players + 1 nobles, Marvel
    # players locations; the rest of the 5 or 4 slots are absent, always 0).
    goals = extras[:, :, 3 * k :].reshape(-1, NEEDS_GOALS[variant])
    varies = goals.max(axis=0) > goals.min(axis=0)
    in_play = {"base": players + 1, "duel": 0, "marvel": players}[variant]
    requirements = {"base": 5, "duel": 0, "marvel": 4}[variant]
    assert varies[:in_play].all() and varies[requirements:].all()
    assert not goals[:, in_play:requirements].any()


def test_needs_network_agrees_in_rust_and_torch(tmp_path: Path) -> None:
    model = random_model("base", 2, hidden=(64, 32), features="needs")
    path = tmp_path / "needs.safetensors"
    model.export(path)
    shape, metadata, tensors = read_network_file(path)
    assert metadata["features"] == "needs" and shape.features == "needs"
    assert tensors["input.shift"].shape == (shape.obs_size + 118,)
    assert tensors["trunk.0.weight"].shape == (64, shape.obs_size + 118)
    assert shape.obs_size == splendor.new_game("base").observation_size
    network = splendor.Network.load(path)
    obs = positions("base", 2)
    with torch.no_grad():
        logits, value_logits = model(torch.from_numpy(obs))
        value = torch.softmax(value_logits, dim=1)
    inputs = np.stack([network.input_features(o) for o in obs])
    np_logits, _ = numpy_forward(tensors, shape.hidden, inputs)
    np.testing.assert_allclose(logits.numpy(), np_logits, atol=1e-5, rtol=0)
    for row, observation in enumerate(obs):
        rust_logits, rust_value = network.evaluate(observation)
        np.testing.assert_allclose(rust_logits, logits[row].numpy(), atol=1e-4, rtol=0)
        np.testing.assert_allclose(rust_value, value[row].numpy(), atol=1e-4, rtol=0)
    # The extras matter: the same weights without them evaluate differently.
    bare = numpy_forward(
        {**tensors, "input.scale": np.concatenate([tensors["input.scale"][:-118], np.zeros(118)])},
        shape.hidden,
        inputs,
    )[0]
    assert np.abs(bare - np_logits).max() > 1e-3
    loaded, _ = load(path)
    assert loaded.shape == model.shape and "extras.ok" not in loaded.state_dict()


def test_features_key_errors_in_both_loaders(tmp_path: Path) -> None:
    good = tmp_path / "raw.safetensors"
    random_model("duel").export(good)
    _, meta, _ = read_network_file(good)
    assert meta["features"] == "raw"
    # Duel seats two: `needs` does not fit a 3-player Duel file; `needs` is not defined for a
    # variant the engine does not know.
    needs_duel3 = _rewrite(
        good, tmp_path / "nd3.st", metadata={**meta, "features": "needs", "players": "3"}
    )
    needs_chess = _rewrite(
        good, tmp_path / "nc.st", metadata={**meta, "features": "needs", "variant": "chess"}
    )
    odd = _rewrite(good, tmp_path / "odd.st", metadata={**meta, "features": "fancy"})
    for path, python_message, rust_message in (
        (needs_duel3, "features='needs' does not fit duel with 3 players", "duel with 3 players"),
        (
            needs_chess,
            "features='needs' is defined for the base, duel, marvel variants, not chess",
            '`features` = "needs" is defined for the base, duel, marvel variants, not chess',
        ),
        (odd, "features must be one of raw, needs, got 'fancy'", "must be one of raw, needs"),
    ):
        with pytest.raises(NetworkError, match=python_message):
            read_network_file(path)
        with pytest.raises(NetworkError, match=rust_message):
            splendor.Network.load(path)
    with pytest.raises(ValueError, match="does not fit duel with 3 players"):
        NetworkShape("duel", 3, 1, 1, (8,), "needs")
    with pytest.raises(ValueError, match="not chess"):
        NetworkShape("chess", 2, 1, 1, (8,), "needs")
    # The file the refused ones were made from loads, and so does its `needs` twin.
    assert splendor.Network.load(good).features == "raw"
    twin = tmp_path / "needs.safetensors"
    random_model("duel", features="needs").export(twin)
    assert splendor.Network.load(twin).features == "needs"


def test_a_raw_file_without_the_features_key_loads_as_before(tmp_path: Path) -> None:
    with_key = tmp_path / "with.safetensors"
    random_model(hidden=(16,)).export(with_key)
    _, meta, _ = read_network_file(with_key)
    del meta["features"]
    without = _rewrite(with_key, tmp_path / "without.safetensors", metadata=meta)
    shape, metadata, _ = read_network_file(without)
    assert "features" not in metadata and shape.features == "raw"
    a, b = splendor.Network.load(with_key), splendor.Network.load(without)
    assert a != b and a.features == b.features == "raw"
    for observation in positions("base", 2, count=10):
        assert all(
            np.array_equal(x, y)
            for x, y in zip(a.evaluate(observation), b.evaluate(observation), strict=True)
        )
        assert np.array_equal(b.input_features(observation), observation)
    # A reader that ignores the key (as one older than it does) refuses a needs file by the
    # width of its input instead of mis-evaluating it.
    needs = tmp_path / "needs.safetensors"
    random_model(hidden=(16,), features="needs").export(needs)
    _, meta, _ = read_network_file(needs)
    del meta["features"]
    blind = _rewrite(needs, tmp_path / "blind.safetensors", metadata=meta)
    with pytest.raises(NetworkError, match=r"input\.shift"):
        splendor.Network.load(blind)
    with pytest.raises(NetworkError, match=r"input\.shift has shape \(550,\)"):
        read_network_file(blind)


def test_cli_trains_a_needs_network_that_plays(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "needs-run"
    args = ["train", str(out), "--no-generate", "--data", str(run_dir), "--iterations", "1"]
    args += ["--steps", "4", "--hidden", "8", "--batch-size", "16", "--gate-games", "0"]
    args += ["--eval-games", "0", "--seed", "4", "--quiet", "--features", "needs"]
    assert cli.main(args) == 0
    best = out / "best.safetensors"
    assert capsys.readouterr().out.strip() == str(best)
    shape, metadata, tensors = read_network_file(best)
    assert shape.features == "needs" and metadata["features"] == "needs"
    assert json.loads(metadata["provenance"])["settings"]["features"] == "needs"
    assert json.loads((out / "run.json").read_text())["settings"]["features"] == "needs"
    # The input normalisation covers the extras, measured on the training data.
    samples, _ = load_runs([run_dir])
    train_set, _ = split_by_game(samples, 0.05)
    model, _ = load(best)
    with torch.no_grad():
        inputs = model.input_features(torch.from_numpy(train_set.obs)).numpy()
    shift, scale = input_normalization(inputs)
    np.testing.assert_array_equal(tensors["input.shift"], shift)
    np.testing.assert_array_equal(tensors["input.scale"], scale)
    assert (tensors["input.shift"][shape.obs_size :] > 0).any()
    # Resuming keeps the run's setting.
    assert loop.TrainConfig.from_json(
        json.loads((out / "run.json").read_text())["settings"]
    ).features == ("needs")
    assert cli.main(["train", "--resume", str(out), "--quiet"]) == 0
    assert read_network_file(best)[0].features == "needs"
    # The exported network plays.
    network = splendor.Network.load(best)
    state = splendor.new_game("base", seed=9)
    bot = splendor.MctsBot(iterations=30, seed=1, network=network)
    assert bot.act(state) in state.legal_actions()
    with pytest.raises(splendor.ConfigError, match="features must be one of raw, needs"):
        loop.train(tiny_config(run_dir, features="fancy"), tmp_path / "f", progress=False)


def test_cli_trains_a_duel_needs_network_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Self-play, training and export; the second iteration's self-play and gate search
    # with the first network, whose needs extras Rust computes.
    out = tmp_path / "duel-needs"
    args = ["train", str(out), "--variant", "duel", "--features", "needs", "--iterations", "2"]
    args += ["--games", "2", "--selfplay-search", "8", "--steps", "4", "--hidden", "8"]
    args += ["--batch-size", "16", "--gate-games", "2", "--gate-search", "4", "--eval-games", "0"]
    args += ["--seed", "5", "--quiet"]
    assert cli.main(args) == 0
    best = out / "best.safetensors"
    assert capsys.readouterr().out.strip() == str(best)
    shape, metadata, tensors = read_network_file(best)
    assert (shape.variant, shape.features, metadata["features"]) == ("duel", "needs", "needs")
    assert tensors["input.shift"].shape == (shape.obs_size + 116,)
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    second = [m for m in metrics if m.get("kind") == "iteration" and m["iteration"] == 1]
    assert second and second[0]["selfplay"]["network"] is not None
    assert second[0]["gate"] is not None
    network = splendor.Network.load(best)
    state = splendor.new_game("duel", seed=9)
    bot = splendor.MctsBot(iterations=30, seed=1, network=network)
    assert bot.act(state) in state.legal_actions()


def test_training_a_marvel_needs_network_for_three_players(tmp_path: Path) -> None:
    data = write_run(tmp_path / "marvel3", variant="marvel", players=3, games=2)
    config = tiny_config(data, variant="marvel", players=3, features="needs", iterations=1)
    best = loop.train(config, tmp_path / "run", progress=False)
    shape, _, tensors = read_network_file(best)
    assert (shape.variant, shape.players, shape.features) == ("marvel", 3, "needs")
    assert tensors["trunk.0.weight"].shape == (16, shape.obs_size + 210)
    network = splendor.Network.load(best)
    state = splendor.new_game("marvel", players=3, seed=2)
    bot = splendor.MctsBot(iterations=20, seed=1, network=network)
    assert bot.act(state) in state.legal_actions()


def test_the_training_reader_refuses_what_the_engine_refuses(tmp_path: Path) -> None:
    """Weights that can overflow a forward pass, and paths that are not regular
    files within 1 GiB: read_network_file refuses them as Network.load does."""
    import contextlib
    import os
    import threading

    from test_network import encode, random_tensors

    meta, t = random_tensors("base", 2, (8, 8), seed=1)
    good = tmp_path / "good.safetensors"
    good.write_bytes(encode(meta, t))
    assert read_network_file(good)[1]["variant"] == "base"
    for name, value in (("trunk.0.weight", 3e38), ("value.weight", 3e38), ("trunk.1.weight", 1e24)):
        path = tmp_path / f"{name}.safetensors"
        path.write_bytes(encode(meta, {**t, name: np.full_like(t[name], value)}))
        for read in (read_network_file, splendor.Network.load):
            with pytest.raises(NetworkError, match="the weights are too large"):
                read(path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate((1 << 30) + 1)
    stop = threading.Event()

    def unblock() -> None:
        # Opening the FIFO for reading blocked for ever before: a reader stuck
        # on it is let go (an empty read), so that a regression fails, not hangs.
        while not stop.wait(0.2):
            with contextlib.suppress(OSError):  # no reader: nothing is blocked
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    helper = threading.Thread(target=unblock, daemon=True)
    helper.start()
    try:
        for path, message in (
            (fifo, "not a regular file"),
            (Path("/dev/zero"), "not a regular file"),
            (tmp_path, "it is a folder"),
            (big, "over the limit of 1073741824"),
        ):
            for read in (read_network_file, splendor.Network.load):
                with pytest.raises(NetworkError, match=message):
                    read(path)
    finally:
        stop.set()
        helper.join()
