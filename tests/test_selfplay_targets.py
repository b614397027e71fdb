"""Issue 40's training ideas, end to end: playout-cap randomisation in self-play and
the auxiliary final-points head in training (docs/training.md, *Playout caps and a
points head*)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
import torch
from splendor import cli
from splendor import selfplay as sp
from splendor.errors import ConfigError
from splendor.train import loop
from splendor.train.data import load_runs
from splendor.train.losses import POINTS_SCALE, points_loss
from splendor.train.model import read_network_file

FAST: dict[str, Any] = {"iterations": 30, "temperature_moves": 6}
CAPPED: dict[str, Any] = {**FAST, "fast_iterations": 6, "full_search_fraction": 0.3}


def assert_same_rows(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    """The same samples, game by game (runs on two threads store games as they finish)."""
    rows_a, rows_b = np.argsort(a["game"], kind="stable"), np.argsort(b["game"], kind="stable")
    for key in sp.SHARD_KEYS:
        np.testing.assert_array_equal(a[key][rows_a], b[key][rows_b], err_msg=key)


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sp.selfplay("base", tmp_path_factory.mktemp("sp") / "plain", games=4, seed=3, **FAST)


@pytest.fixture(scope="module")
def capped_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sp.selfplay("base", tmp_path_factory.mktemp("sp") / "capped", games=4, seed=3, **CAPPED)


@pytest.mark.parametrize(("variant", "players"), [("base", 3), ("duel", 2), ("marvel", 2)])
def test_points_are_the_final_scores_rotated_to_the_mover(variant: str, players: int) -> None:
    records: list[Any] = []
    splendor._core.selfplay_games(
        variant, [0, 1], records.append, players=players, seed=4, threads=1, **FAST
    )
    for r in records:
        assert r["points"].shape == (len(r["ply"]), players)
        assert r["points"].dtype == np.float32
        # The row of the first mover, read seat by seat, is the final score line.
        first = int(r["player"][0])
        scores = np.roll(r["points"][0], first)
        for row, mover in zip(r["points"], r["player"], strict=True):
            np.testing.assert_array_equal(row, np.roll(scores, -int(mover)))
        if r["reason"] != "truncated":
            # A winner's score is never below a loser's in base and Marvel; Duel has
            # other ways to win, but its scores are still each seat's points.
            assert (scores >= 0).all() and scores.max() > 0
            if variant != "duel":
                assert all(scores[w] == scores.max() for w in r["winners"])


def test_a_plain_run_stores_points_and_no_setting_changes_its_games(
    plain_run: Path, tmp_path: Path
) -> None:
    data = sp.load_shards(plain_run)
    assert data["points"].shape == data["returns"].shape
    settings = json.loads((plain_run / "run.json").read_text())
    assert settings["fast_iterations"] == 0
    # A run.json from before the setting existed plays and resumes the same games.
    old = tmp_path / "old"
    old.mkdir()
    del settings["fast_iterations"], settings["full_search_fraction"]
    (old / "run.json").write_text(json.dumps(settings))
    for shard in sp.shard_files(plain_run):
        (old / shard.name).write_bytes(shard.read_bytes())
    assert_same_rows(sp.regenerate(old, [0, 1, 2, 3]), data)
    sp.selfplay("base", old, games=5, seed=3, **FAST)  # resumes: one more game
    assert sorted(sp.load_shards(old)["game_ids"].tolist()) == [0, 1, 2, 3, 4]


def test_a_resumed_run_gathers_pending_games_from_before_the_points_column(
    tmp_path: Path,
) -> None:
    run = sp.selfplay("base", tmp_path / "run", games=3, seed=2, shard_size=10, **FAST)
    # As an older version leaves an interrupted run: finished games in pending/,
    # without the points column.
    (shard,) = sp.shard_files(run)
    data = sp.load_shards(run)
    for g in data["game_ids"]:
        rows = data["game"] == g
        arrays = {k: data[k][rows] for k in sp.SHARD_KEYS if k != "points"}
        arrays["game_ids"] = np.array([g], dtype=np.int64)
        arrays["game_seeds"] = data["game_seeds"][data["game_ids"] == g]
        np.savez_compressed(run / "pending" / f"game-{int(g):010d}.npz", **arrays)
    shard.unlink()
    sp.selfplay("base", run, games=4, seed=2, shard_size=10, **FAST)
    data = sp.load_shards(run)
    assert sorted(data["game_ids"].tolist()) == [0, 1, 2, 3]
    old = np.isin(data["game"], [0, 1, 2])
    assert np.isnan(data["points"][old]).all() and not np.isnan(data["points"][~old]).any()


def test_playout_caps_store_only_a_share_of_the_decisions(
    plain_run: Path, capped_run: Path
) -> None:
    plain, capped = sp.load_shards(plain_run), sp.load_shards(capped_run)
    # About 30% of the decisions are searched in full; only those are stored.
    assert 0.1 * len(plain["game"]) < len(capped["game"]) < 0.6 * len(plain["game"])
    settings = json.loads((capped_run / "run.json").read_text())
    assert (settings["fast_iterations"], settings["full_search_fraction"]) == (6, 0.3)
    # Every stored row is a real choice with a policy over the legal actions.
    assert (capped["mask"].sum(axis=1) >= 2).all()
    np.testing.assert_allclose(capped["policy"].sum(axis=1), 1.0, rtol=1e-5)
    # The games regenerate bit for bit from run.json.
    assert_same_rows(sp.regenerate(capped_run, [3, 1, 0, 2]), capped)


def test_a_run_with_other_caps_is_refused(capped_run: Path) -> None:
    with pytest.raises(ConfigError, match="fast_iterations"):
        sp.selfplay("base", capped_run, games=4, seed=3, **{**CAPPED, "fast_iterations": 7})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"fast_iterations": 30}, "fast_iterations .30. must be below iterations .30."),
        ({"fast_iterations": 5, "full_search_fraction": 0.0}, "full_search_fraction"),
        ({"fast_iterations": 5, "full_search_fraction": 1.5}, "full_search_fraction"),
        ({"fast_iterations": -1}, "fast_iterations"),
    ],
)
def test_bad_caps_are_config_errors_before_any_game(
    tmp_path: Path, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        sp.selfplay("base", tmp_path / "run", games=1, **{**FAST, **kwargs})
    assert not sp.shard_files(tmp_path / "run") if (tmp_path / "run").exists() else True


def test_cli_selfplay_takes_the_caps(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ["selfplay", "--games", "2", "--out", str(out), "--iterations", "20"]
    args += ["--fast-iterations", "4", "--full-search-fraction", "0.5", "--no-progress"]
    assert cli.main(args) == 0
    settings = json.loads((out / "run.json").read_text())
    assert (settings["fast_iterations"], settings["full_search_fraction"]) == (4, 0.5)


def test_points_loss_is_the_squared_error_of_known_rows() -> None:
    predicted = torch.tensor([[0.5, 0.25], [0.0, 0.0], [1.0, 1.0]])
    points = torch.tensor([[10.0, 5.0], [float("nan"), float("nan")], [20.0, 0.0]])
    # Row 0: zero error; row 2: (1 - 1)^2 + (1 - 0)^2 = 1; row 1 unknown.
    assert float(points_loss(predicted, points)) == pytest.approx(0.5)
    assert POINTS_SCALE == 20.0
    none = torch.full((2, 2), float("nan"))
    loss = points_loss(predicted[:2].requires_grad_(), none)
    assert float(loss.detach()) == 0.0
    loss.backward()  # type: ignore[no-untyped-call]


def test_shards_without_points_load_as_unknown(plain_run: Path, tmp_path: Path) -> None:
    old = tmp_path / "nopoints"
    old.mkdir()
    (old / "run.json").write_text((plain_run / "run.json").read_text())
    for shard in sp.shard_files(plain_run):
        with np.load(shard) as z:
            arrays = {k: z[k] for k in z.files if k != "points"}
        np.savez_compressed(old / shard.name, **arrays)
    samples, _ = load_runs([old])
    assert samples.points is not None and np.isnan(samples.points).all()
    fresh, _ = load_runs([plain_run])
    assert fresh.points is not None and not np.isnan(fresh.points).any()
    assert samples.subset(np.arange(3)).points is not None


def _train(run_dir: Path, data: Path, points_weight: float, steps: int = 6) -> Path:
    config = loop.TrainConfig(
        variant="base",
        players=2,
        seed=1,
        iterations=1,
        hidden=(16, 8),
        generate=False,
        data=(str(data),),
        steps_per_iteration=steps,
        batch_size=32,
        gate_games=0,
        eval_every=0,
        points_weight=points_weight,
        checkpoint_every=2,
    )
    return loop.train(config, run_dir, progress=False)


def test_a_points_head_trains_the_trunk_and_is_not_exported(
    capped_run: Path, tmp_path: Path
) -> None:
    with_head = _train(tmp_path / "head", capped_run, points_weight=1.0)
    without = _train(tmp_path / "plain", capped_run, points_weight=0.0)
    shape_a, meta_a, tensors_a = read_network_file(with_head)
    shape_b, _, tensors_b = read_network_file(without)
    # The same file layout: the engine loads it like any network.
    assert shape_a == shape_b and tensors_a.keys() == tensors_b.keys()
    splendor.Network.load(with_head)
    assert json.loads(meta_a["provenance"])["settings"]["points_weight"] == 1.0
    # The extra target moved the shared trunk (same seed, same batches otherwise).
    assert not np.array_equal(tensors_a["trunk.0.weight"], tensors_b["trunk.0.weight"])
    np.testing.assert_array_equal(tensors_a["input.shift"], tensors_b["input.shift"])


def test_a_points_head_resumes_from_its_checkpoint(
    capped_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    straight = read_network_file(_train(tmp_path / "straight", capped_run, 0.5))[2]
    real_step = loop.train_step
    calls = 0

    def failing_step(*args: Any) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        if calls == 4:  # after the checkpoint at step 2
            raise KeyboardInterrupt
        return real_step(*args)

    monkeypatch.setattr(loop, "train_step", failing_step)
    with pytest.raises(KeyboardInterrupt):
        _train(tmp_path / "resumed", capped_run, 0.5)
    monkeypatch.setattr(loop, "train_step", real_step)
    checkpoint = torch.load(tmp_path / "resumed" / "checkpoint.pt", weights_only=False)
    assert checkpoint["points_head"] is not None
    resumed = read_network_file(loop.resume(tmp_path / "resumed", progress=False))[2]
    # Without the head's own weights and moments restored, the trunk would differ.
    for name, tensor in straight.items():
        np.testing.assert_array_equal(resumed[name], tensor, err_msg=name)


def test_a_negative_points_weight_is_a_config_error(capped_run: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="points_weight"):
        _train(tmp_path / "bad", capped_run, points_weight=-1.0)
    with pytest.raises(ConfigError, match="points_weight"):
        _train(tmp_path / "nan", capped_run, points_weight=float("nan"))


def test_a_warm_start_begins_from_the_networks_weights(capped_run: Path, tmp_path: Path) -> None:
    first = _train(tmp_path / "first", capped_run, points_weight=0.0)
    config = loop.TrainConfig(
        variant="base",
        players=2,
        iterations=1,
        hidden=(16, 8),
        generate=False,
        data=(str(capped_run),),
        steps_per_iteration=0,
        gate_games=0,
        eval_every=0,
        init=str(first),
    )
    # No training step: the exported network is the starting one, normalisation included.
    same = loop.train(config, tmp_path / "warm", progress=False)
    _, meta, tensors = read_network_file(same)
    for name, tensor in read_network_file(first)[2].items():
        np.testing.assert_array_equal(tensors[name], tensor, err_msg=name)
    provenance = json.loads(meta["provenance"])
    assert provenance["init_sha256"] == loop.sha256_file(first)
    assert provenance["settings"]["init"] == str(first)
    # A few steps move on from there, not from random weights.
    moved = loop.train(
        dataclasses.replace(config, steps_per_iteration=3, batch_size=16),
        tmp_path / "on",
        progress=False,
    )
    moved_tensors = read_network_file(moved)[2]
    assert not np.array_equal(moved_tensors["trunk.0.weight"], tensors["trunk.0.weight"])
    assert np.abs(moved_tensors["trunk.0.weight"] - tensors["trunk.0.weight"]).max() < 0.05


def test_a_warm_start_from_another_shape_is_refused(capped_run: Path, tmp_path: Path) -> None:
    first = _train(tmp_path / "first", capped_run, points_weight=0.0)
    config = loop.TrainConfig(
        variant="base",
        players=2,
        iterations=1,
        hidden=(16, 16),
        generate=False,
        data=(str(capped_run),),
        gate_games=0,
        eval_every=0,
        init=str(first),
    )
    with pytest.raises(ConfigError, match="hidden 16,8, features raw; this run trains base"):
        loop.train(config, tmp_path / "other", progress=False)
    with pytest.raises(splendor.NetworkError):
        loop.train(
            dataclasses.replace(config, init=str(tmp_path / "missing.safetensors")),
            tmp_path / "missing",
            progress=False,
        )
