"""Self-play shards: format, regeneration from seeds, resume, errors, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
import pytest
import splendor
from splendor import selfplay as sp
from splendor.errors import ConfigError


class Fast(TypedDict):
    iterations: int
    temperature_moves: int


FAST: Fast = {"iterations": 30, "temperature_moves": 6}


def by_game(data: dict[str, np.ndarray]) -> dict[int, dict[str, np.ndarray]]:
    """The samples of each game, keyed by game id."""
    games: dict[int, dict[str, np.ndarray]] = {}
    for g in np.unique(data["game"]):
        rows = data["game"] == g
        games[int(g)] = {k: data[k][rows] for k in sp.SHARD_KEYS}
    return games


def assert_same_games(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    ga, gb = by_game(a), by_game(b)
    assert ga.keys() == gb.keys()
    for g in ga:
        for k in sp.SHARD_KEYS:
            np.testing.assert_array_equal(ga[g][k], gb[g][k], err_msg=f"game {g}, {k}")


@pytest.mark.parametrize(
    ("variant", "players"), [("base", 2), ("base", 3), ("duel", 2), ("marvel", 4)]
)
def test_shards_follow_the_format(tmp_path: Path, variant: str, players: int) -> None:
    run = sp.selfplay(variant, tmp_path, games=3, players=players, seed=5, threads=2, **FAST)
    meta = json.loads((run / "run.json").read_text())
    assert meta["variant"] == variant and meta["players"] == players and meta["seed"] == 5
    data = sp.load_shards(run)
    state = splendor.new_game(variant, players=players)
    n = len(data["game"])
    assert n > 0
    assert data["obs"].shape == (n, len(state.observation(0))) and data["obs"].dtype == np.float32
    assert data["mask"].shape == (n, state.num_actions) and data["mask"].dtype == np.bool_
    assert data["policy"].shape == (n, state.num_actions)
    assert data["returns"].shape == (n, players) and data["returns"].dtype == np.float32
    assert sorted(data["game_ids"].tolist()) == [0, 1, 2]
    # The search's root value for the mover: a reward in [0, 1], one per sample.
    assert data["q"].shape == (n,) and data["q"].dtype == np.float32
    assert ((data["q"] >= 0) & (data["q"] <= 1)).all()
    assert len(np.unique(data["q"])) > 1
    # Every sample is a real choice: two or more legal actions.
    assert (data["mask"].sum(axis=1) >= 2).all()
    # The policy is a distribution over the legal actions.
    np.testing.assert_allclose(data["policy"].sum(axis=1), 1.0, rtol=1e-5)
    assert (data["policy"][~data["mask"]] == 0).all()
    # Returns: 1/k to each of k winners, or all zero (truncated).
    sums = data["returns"].sum(axis=1)
    assert np.isin(np.round(sums, 5), [0.0, 1.0]).all()
    for g, seed in zip(data["game_ids"], data["game_seeds"], strict=True):
        assert int(seed) == sp_game_seed(5, int(g))


def sp_game_seed(run_seed: int, game_id: int) -> int:
    """docs/network.md: SplitMix64(run_seed ^ (id * golden)).next_u64()."""
    from splendor.reference.rng import SplitMix64

    mixed = run_seed ^ ((game_id * 0x9E3779B97F4A7C15) & (2**64 - 1))
    return SplitMix64(mixed).next_u64()


def test_returns_are_rotated_to_the_mover() -> None:
    """Column k of `returns` is the return of the seat k places after the mover."""
    records: list[Any] = []
    splendor._core.selfplay_games("base", [0, 1, 2], records.append, players=3, seed=9, **FAST)
    assert len(records) == 3
    for r in records:
        full = np.zeros(3)
        for w in r["winners"]:
            full[w] = 1 / len(r["winners"])
        assert len(set(r["player"].tolist())) == 3
        for row, mover in zip(r["returns"], r["player"], strict=True):
            np.testing.assert_allclose(row, np.roll(full, -int(mover)), rtol=1e-6)


def test_a_game_regenerates_from_its_seed(tmp_path: Path) -> None:
    run = sp.selfplay("duel", tmp_path, games=3, seed=11, threads=2, **FAST)
    stored = sp.load_shards(run)
    again = sp.regenerate(run, [2, 0, 1])
    assert_same_games(stored, again)


def test_results_do_not_depend_on_threads_or_order(tmp_path: Path) -> None:
    one = sp.load_shards(sp.selfplay("base", tmp_path / "a", games=4, seed=3, threads=1, **FAST))
    two = sp.load_shards(sp.selfplay("base", tmp_path / "b", games=4, seed=3, threads=2, **FAST))
    assert_same_games(one, two)


def test_other_seeds_give_other_games(tmp_path: Path) -> None:
    a = sp.load_shards(sp.selfplay("base", tmp_path / "a", games=1, seed=1, **FAST))
    b = sp.load_shards(sp.selfplay("base", tmp_path / "b", games=1, seed=2, **FAST))
    assert not np.array_equal(a["obs"][:5], b["obs"][:5])


class Stop(Exception):
    pass


def test_an_interrupted_run_resumes_without_loss_or_duplicates(tmp_path: Path) -> None:
    full = sp.load_shards(sp.selfplay("base", tmp_path / "full", games=7, seed=4, **FAST))
    run = tmp_path / "run"

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise Stop

    with pytest.raises(Stop):
        sp.selfplay("base", run, games=7, seed=4, shard_size=2, progress=stop_after_three, **FAST)
    assert sp.stored_game_ids(run) == {0, 1, 2} or len(sp.stored_game_ids(run)) == 3
    calls: list[int] = []
    sp.selfplay(
        "base", run, games=7, seed=4, shard_size=2, progress=lambda d, t: calls.append(t), **FAST
    )
    assert calls and calls[-1] == 4  # only the four missing games were played
    resumed = sp.load_shards(run)
    assert sorted(resumed["game_ids"].tolist()) == list(range(7))
    assert_same_games(full, resumed)
    assert not list((run / "pending").glob("*.npz"))


def test_a_directory_of_another_run_is_refused_before_any_game(tmp_path: Path) -> None:
    sp.selfplay("base", tmp_path, games=1, seed=1, **FAST)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(ConfigError, match="seed"):
        sp.selfplay("base", tmp_path, games=2, seed=2, **FAST)
    with pytest.raises(ConfigError, match="iterations"):
        sp.selfplay("base", tmp_path, games=2, seed=1, iterations=31, temperature_moves=6)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


_HOLDER = """
import sys
from splendor import selfplay as sp

def wait_after_first(done: int, total: int) -> None:
    if done == 1:
        print("ready", flush=True)
        sys.stdin.readline()

sp.selfplay("base", sys.argv[1], games=3, seed=1, iterations=30, temperature_moves=6,
            threads=1, progress=wait_after_first)
"""


def test_a_run_that_another_process_is_writing_is_refused_and_left_alone(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(run)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "ready"
        before = sorted(p.relative_to(run).as_posix() for p in run.rglob("*"))
        with pytest.raises(ConfigError, match="another process is writing"):
            sp.selfplay("base", run, games=3, seed=1, threads=1, **FAST)
        assert sorted(p.relative_to(run).as_posix() for p in run.rglob("*")) == before
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.wait(timeout=120) == 0
    finally:
        holder.kill()
    # The lock went with its process: the run resumes (nothing left to play).
    calls: list[int] = []
    sp.selfplay("base", run, games=3, seed=1, progress=lambda d, t: calls.append(t), **FAST)
    assert calls == []
    assert sorted(sp.stored_game_ids(run)) == [0, 1, 2]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": -1},
        {"games": 1, "iterations": 0},
        {"games": 1, "players": 5},
        {"games": 1, "threads": 0},
        {"games": 1, "shard_size": 0},
        {"games": 1, "temperature_moves": -1},
        {"games": 1, "exploration": float("nan")},
    ],
)
def test_bad_settings_are_config_errors(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        sp.selfplay("base", tmp_path / "r", **kwargs)


def test_bad_arguments_of_selfplay_games_are_named_before_any_game() -> None:
    played: list[object] = []
    cases: list[tuple[dict[str, Any], str]] = [
        ({"on_game": "not callable"}, "on_game must be a callable, not str"),
        ({"game_ids": "01"}, "game_ids must be a list, not str"),
        ({"game_ids": [0, -1]}, "a game id must be between 0 and 18446744073709551615, got -1"),
        ({"game_ids": 7}, "game_ids must be a list, not int"),
        ({"players": None}, "players must be an integer, got None"),
        ({"iterations": 2**63}, "iterations must be between 1 and 9223372036854775807"),
        ({"noise_epsilon": 1.5}, "noise_epsilon must be between 0 and 1, got 1.5"),
        ({"noise_alpha": 0.0}, "noise_alpha must be a finite number > 0, got 0"),
        ({"exploration": "0.7"}, "exploration must be a number, got '0.7'"),
        ({"network": 3}, "network must be a splendor.Network, a path or None, not int"),
        ({"variant": b"base"}, "variant must be a str, not bytes"),
    ]
    for change, message in cases:
        kwargs: dict[str, Any] = {
            "variant": "base",
            "game_ids": [0],
            "on_game": played.append,
            "iterations": 8,
            **change,
        }
        with pytest.raises(ConfigError) as info:
            splendor._core.selfplay_games(
                kwargs.pop("variant"), kwargs.pop("game_ids"), kwargs.pop("on_game"), **kwargs
            )
        assert message in str(info.value), (change, str(info.value))
    assert played == []


def test_an_iterable_of_ids_that_raises_is_a_config_error_but_ctrl_c_passes() -> None:
    def ids(exc: BaseException) -> Iterator[int]:
        yield 0
        raise exc

    played: list[object] = []
    with pytest.raises(ConfigError, match="game_ids could not be read: ValueError: broken"):
        splendor._core.selfplay_games("base", ids(ValueError("broken")), played.append)
    with pytest.raises(KeyboardInterrupt):
        splendor._core.selfplay_games("base", ids(KeyboardInterrupt()), played.append)
    assert played == []


def test_selfplay_games_reads_any_sequence_of_integer_ids() -> None:
    def run(ids: Any) -> list[int]:
        got: list[int] = []
        splendor._core.selfplay_games(
            "base", ids, lambda r: got.append(r["game_id"]), iterations=8, temperature_moves=2
        )
        return sorted(got)

    assert run([3, 1]) == run(np.array([1, 3])) == run((np.uint64(3), 1)) == run({1, 3}) == [1, 3]
    assert run([]) == []


def test_unknown_variant_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown variant"):
        sp.selfplay("chess", tmp_path, games=1)


def test_a_corrupt_run_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(ConfigError, match=r"run\.json"):
        sp.selfplay("base", tmp_path, games=1, **FAST)


def test_load_shards_of_an_empty_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no shard"):
        sp.load_shards(tmp_path)


def test_ctrl_c_stops_selfplay_quickly_and_keeps_finished_games(tmp_path: Path) -> None:
    script = (
        "import sys, time, splendor.selfplay as sp\n"
        "def progress(done, total):\n"
        "    print('stored', done, flush=True)\n"
        "try:\n"
        f"    sp.selfplay('base', {str(tmp_path)!r}, games=10000, iterations=400, threads=2,\n"
        "                shard_size=1000, progress=progress)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic(), flush=True)\n"
        "    sys.exit(130)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("stored"), line
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130, out
    stopped = float(out.strip().splitlines()[-1].split()[1])
    assert stopped - sent < 0.5, f"KeyboardInterrupt {stopped - sent:.3f} s after SIGINT"
    stored = sp.stored_game_ids(tmp_path)
    assert len(stored) >= 1
    # What was stored is complete and valid: resuming finishes those games' ids.
    for path in (tmp_path / "pending").glob("game-*.npz"):
        with np.load(path) as z:
            assert len(z["obs"]) == len(z["policy"]) > 0


def test_cli_selfplay_writes_a_run(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    proc = subprocess.run(
        [
            sys.executable, "-m", "splendor.cli", "selfplay", "--games", "2", "--out", str(out),
            "--iterations", "20", "--threads", "1", "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert sorted(sp.load_shards(out)["game_ids"].tolist()) == [0, 1]


def write_random_network(path: Path, variant: str, players: int) -> Path:
    from test_network import encode, random_tensors

    meta, tensors = random_tensors(variant, players, (32,), seed=3)
    path.write_bytes(encode(meta, tensors))
    return path


def test_selfplay_with_a_network_and_noise_records_and_regenerates(tmp_path: Path) -> None:
    net = write_random_network(tmp_path / "net.safetensors", "base", 2)
    run = sp.selfplay(
        "base", tmp_path / "run", games=2, seed=1, network=net, noise_alpha=0.3, **FAST
    )
    meta = json.loads((run / "run.json").read_text())
    assert meta["network"] == str(net)
    assert meta["network_sha256"] == splendor.Network.load(net).sha256
    assert meta["noise_alpha"] == 0.3
    stored = sp.load_shards(run)
    assert_same_games(stored, sp.regenerate(run, [0, 1]))
    # The network and the noise change the games.
    plain = sp.load_shards(sp.selfplay("base", tmp_path / "plain", games=2, seed=1, **FAST))
    noisy = sp.load_shards(
        sp.selfplay("base", tmp_path / "noise", games=2, seed=1, noise_alpha=0.3, **FAST)
    )
    assert not np.array_equal(plain["policy"][:3], stored["policy"][:3])
    assert not np.array_equal(plain["policy"][:3], noisy["policy"][:3])
    # Another file under the recorded name is refused on regeneration.
    write_random_network(net, "base", 2).write_bytes(net.read_bytes()[:-4] + b"\x00\x00\x80\x3f")
    with pytest.raises(splendor.SplendorError):
        sp.regenerate(run, [0])


def test_a_run_resumes_with_its_network_moved_but_not_with_another(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    first = write_random_network(tmp_path / "a" / "net.safetensors", "base", 2)
    whole = sp.load_shards(
        sp.selfplay("base", tmp_path / "whole", games=3, seed=1, network=first, **FAST)
    )
    sp.selfplay("base", tmp_path / "run", games=1, seed=1, network=first, **FAST)
    moved = tmp_path / "b" / "renamed.safetensors"
    moved.parent.mkdir()
    moved.write_bytes(first.read_bytes())
    sp.selfplay("base", tmp_path / "run", games=3, seed=1, network=moved, **FAST)
    assert_same_games(whole, sp.load_shards(tmp_path / "run"))
    other = tmp_path / "b" / "other.safetensors"
    other.write_bytes(first.read_bytes()[:-4] + b"\x00\x00\x80\x3f")
    with pytest.raises(ConfigError, match="network_sha256"):
        sp.selfplay("base", tmp_path / "run", games=4, seed=1, network=other, **FAST)
    with pytest.raises(ConfigError, match="network_sha256"):
        sp.selfplay("base", tmp_path / "run", games=4, seed=1, **FAST)
    assert sorted(sp.load_shards(tmp_path / "run")["game_ids"].tolist()) == [0, 1, 2]


def test_a_network_for_another_game_is_refused(tmp_path: Path) -> None:
    net = write_random_network(tmp_path / "duel.safetensors", "duel", 2)
    with pytest.raises(splendor.SplendorError, match="duel"):
        sp.selfplay("base", tmp_path / "run", games=1, network=net, **FAST)


def stored_once(run: Path, games: int) -> dict[str, np.ndarray]:
    """The run's samples, checked to hold games 0..games-1 each exactly once,
    every shard consistent and no pending game left."""
    data = sp.load_shards(run)
    assert sorted(data["game_ids"].tolist()) == list(range(games))
    assert sorted(np.unique(data["game"]).tolist()) == list(range(games))
    assert not list((run / "pending").glob("*.npz"))
    return data


def test_a_resume_after_a_lost_shard_overwrites_nothing_and_replays_its_games(
    tmp_path: Path,
) -> None:
    run = sp.selfplay("base", tmp_path / "run", games=6, seed=4, shard_size=2, threads=1, **FAST)
    full = stored_once(run, 6)
    assert [p.name for p in sp.shard_files(run)] == [f"shard-00000{i}.npz" for i in range(3)]
    lost = sp.read_game_ids(run / "shard-000001.npz")
    kept = {p.name: p.read_bytes() for p in sp.shard_files(run) if p.name != "shard-000001.npz"}
    (run / "shard-000001.npz").unlink()
    totals: list[int] = []
    sp.selfplay(
        "base", run, games=6, seed=4, shard_size=2, threads=1,
        progress=lambda d, t: totals.append(t), **FAST,
    )  # fmt: skip
    assert totals == [2, 2]  # exactly the lost games were played again
    for name, data in kept.items():
        assert (run / name).read_bytes() == data, f"{name} was overwritten"
    assert sp.read_game_ids(run / "shard-000003.npz") == lost
    assert_same_games(full, stored_once(run, 6))


class StopAt:
    """Raises Stop at the ``k``-th step of storing (after a file is written,
    or before a pending game is deleted): a stop at that point."""

    def __init__(self, k: int, monkeypatch: pytest.MonkeyPatch) -> None:
        self.k, self.steps = k, 0
        write, unlink = sp._atomic_savez, Path.unlink

        def counted_write(path: Path, arrays: dict[str, np.ndarray]) -> None:
            write(path, arrays)
            self.step()

        def counted_unlink(path: Path, missing_ok: bool = False) -> None:
            if path.parent.name == "pending":
                self.step()
            unlink(path, missing_ok)

        monkeypatch.setattr(sp, "_atomic_savez", counted_write)
        monkeypatch.setattr(Path, "unlink", counted_unlink)

    def step(self) -> None:
        self.steps += 1
        if self.steps == self.k:
            raise Stop


# 5 games in shards of 2: 5 pending writes, 3 shard writes and 5 deletions,
# 13 steps; a stop after step 3 lies between shard 0 and its deletions.
@pytest.mark.parametrize("k", range(1, 14))
def test_a_stop_at_any_step_of_storing_leaves_every_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, k: int
) -> None:
    run = tmp_path / "run"
    with monkeypatch.context() as m:
        stop = StopAt(k, m)
        with pytest.raises(Stop):
            sp.selfplay("base", run, games=5, seed=4, shard_size=2, threads=1, **FAST)
        assert stop.steps == k
    sp.selfplay("base", run, games=5, seed=4, shard_size=2, threads=1, **FAST)
    stored_once(run, 5)


def test_a_stop_between_a_shard_and_its_deletions_keeps_one_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    with monkeypatch.context() as m:
        StopAt(3, m)  # pending 0, pending 1, shard 0: stop
        with pytest.raises(Stop):
            sp.selfplay("base", run, games=4, seed=4, shard_size=2, threads=1, **FAST)
    assert sp.read_game_ids(run / "shard-000000.npz") == [0, 1]
    assert len(list((run / "pending").glob("game-*.npz"))) == 2  # the same games, twice
    totals: list[int] = []
    sp.selfplay(
        "base", run, games=4, seed=4, shard_size=2, threads=1,
        progress=lambda d, t: totals.append(t), **FAST,
    )  # fmt: skip
    assert totals == [2, 2]
    stored_once(run, 4)


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def test_a_damaged_shard_is_set_aside_and_its_games_played_again(tmp_path: Path) -> None:
    run = sp.selfplay("base", tmp_path / "run", games=6, seed=4, shard_size=2, threads=1, **FAST)
    full = stored_once(run, 6)
    lost = sp.read_game_ids(run / "shard-000001.npz")
    truncate(run / "shard-000001.npz")
    for read in (sp.load_shards, sp.stored_game_ids):
        with pytest.raises(ConfigError, match=r"shard-000001\.npz is damaged .*sets it aside"):
            read(run)
    with pytest.warns(UserWarning, match=r"shard-000001\.npz is damaged .*set aside"):
        sp.selfplay("base", run, games=6, seed=4, shard_size=2, threads=1, **FAST)
    assert (run / "shard-000001.npz.damaged").exists()
    assert sp.read_game_ids(run / "shard-000003.npz") == lost
    assert_same_games(full, stored_once(run, 6))
    # The number of a set-aside shard is not taken again either.
    (run / "shard-000003.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.warns(UserWarning, match="shard-000003"):
        sp.selfplay("base", run, games=6, seed=4, shard_size=2, threads=1, **FAST)
    assert sp.read_game_ids(run / "shard-000004.npz") == lost
    assert_same_games(full, stored_once(run, 6))


def test_a_damaged_pending_game_is_set_aside_and_played_again(tmp_path: Path) -> None:
    run = tmp_path / "run"

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise Stop

    with pytest.raises(Stop):
        sp.selfplay(
            "base", run, games=5, seed=4, shard_size=10, threads=1,
            progress=stop_after_three, **FAST,
        )  # fmt: skip
    pending = sorted((run / "pending").glob("game-*.npz"))
    assert len(pending) == 3
    pending[1].write_bytes(b"")
    with pytest.warns(UserWarning, match=r"game-0000000001\.npz is damaged"):
        sp.selfplay("base", run, games=5, seed=4, shard_size=10, threads=1, **FAST)
    stored_once(run, 5)


@pytest.mark.parametrize("text", ["[]", "3", '"run"', "{not json", ""])
def test_a_damaged_run_json_is_a_config_error(tmp_path: Path, text: str) -> None:
    run = sp.selfplay("base", tmp_path / "run", games=1, seed=4, threads=1, **FAST)
    (run / "run.json").write_text(text)
    with pytest.raises(ConfigError, match=r"run\.json: not a self-play run file"):
        sp.selfplay("base", run, games=2, seed=4, threads=1, **FAST)
    with pytest.raises(ConfigError, match=r"run\.json: not a self-play run file"):
        sp.regenerate(run, [0])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "splendor.cli", "selfplay", *args, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_selfplay_over_a_damaged_run(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    common = ("--games", "4", "--out", str(out), "--iterations", "20", "--threads", "1")
    assert run_cli(*common, "--shard-size", "2").returncode == 0
    truncate(out / "shard-000000.npz")
    proc = run_cli(*common, "--shard-size", "2")
    assert proc.returncode == 0, proc.stderr
    assert "shard-000000.npz is damaged" in proc.stderr and "Traceback" not in proc.stderr
    stored_once(out, 4)
    (out / "run.json").write_text("[]")
    proc = run_cli(*common, "--shard-size", "2")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("splendor selfplay: error: ") and "run.json" in proc.stderr
