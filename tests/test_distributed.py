"""Matches and self-play on a real local Ray cluster (``splendor.distributed``).

A Ray cluster with two CPUs is started on localhost once for the module and
shut down after it. On it: a match cut into chunks gives exactly the local
match's result; a worker killed in the middle of a chunk, or a driver killed in
the middle of a run and started again, loses no game and counts none twice;
self-play shards equal the local generator's. Bad configurations fail before
any work starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray
import splendor
from splendor import selfplay as sp
from splendor.distributed import ClusterError, load_results, match, selfplay
from splendor.distributed import match_chunks as dmatch
from splendor.distributed.cluster import check_reachable, connected, parse_address
from splendor.errors import ConfigError, NetworkError
from test_selfplay import FAST, assert_same_games

#: The module's tests share one Ray cluster; .ci/run runs them as their own step
#: (``pytest -n 0 -m ray``), so that one cluster runs at a time.
pytestmark = pytest.mark.ray

#: Bots whose games take a fraction of a second: long enough that a chunk is
#: still running when a test kills its worker or its driver.
SLOW_BOTS = ["mcts:1000", "greedy"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray cluster (two CPUs); yields its address for other drivers."""
    ray.init(
        num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def chunk_lines(out: Path) -> list[dict[str, Any]]:
    return load_results(out)


# ---------------------------------------------------------------------------
# Chunks add up to the whole (no Ray needed for the arithmetic).


@pytest.mark.parametrize(
    ("variant", "bots", "players", "games", "size", "turn_cap"),
    [
        ("base", ["mcts:20", "random"], 2, 11, 3, 100),
        ("base", ["mcts:20", "random", "greedy"], 3, 14, 4, 100),
        ("base", ["greedy", "random"], 4, 13, 5, 100),
        ("base", ["random"], 3, 30, 7, 12),  # truncated games, shared seats
        ("duel", ["greedy", "random"], 2, 9, 2, 100),
        ("marvel", ["random", "greedy"], 3, 10, 4, 100),
    ],
)
def test_chunks_merge_to_the_local_match(
    variant: str, bots: list[str], players: int, games: int, size: int, turn_cap: int
) -> None:
    local = splendor.match(
        bots, variant=variant, players=players, games=games, seed=9, turn_cap=turn_cap, threads=2
    )
    lines = [
        dmatch.play_chunk(c, bots, variant, players, 9, turn_cap, a, min(size, games - a))
        for c, a in enumerate(range(0, games, size))
    ]
    merged = dmatch.merge(list(reversed(lines)), variant, players)
    assert merged == local
    assert merged.to_json() == local.to_json()


def test_first_game_plays_the_same_games_as_the_whole_match() -> None:
    """``splendor.match(first_game=a)``: games a.. of the match, not a new one."""
    whole = splendor.match(["mcts:30", "greedy"], games=8, seed=4)
    halves = [splendor.match(["mcts:30", "greedy"], games=4, seed=4, first_game=a) for a in (0, 4)]
    assert sum(h.games for h in halves) == whole.games
    assert sum(h.bots[0]["wins"] for h in halves) == whole.bots[0]["wins"]
    other = splendor.match(["mcts:30", "greedy"], games=4, seed=4)
    assert other == halves[0]
    with pytest.raises(ConfigError, match="first_game"):
        splendor.match(["random"], games=2, first_game=2**64 - 1)
    with pytest.raises(ConfigError, match="first_game"):
        splendor.match(["random"], games=2, first_game=-1)


def test_the_wilson_interval_matches_the_engine() -> None:
    for wins, n in [(0.0, 0), (0.0, 7), (3.5, 7), (7.0, 7), (1 / 3, 1), (123.25, 400)]:
        ours = dmatch.wilson_interval(wins, n)
        assert 0.0 <= ours[0] <= ours[1] <= 1.0
    local = splendor.match(["greedy", "random"], games=6, seed=2)
    for b in local.bots:
        assert dmatch.wilson_interval(b["wins"], b["games"]) == (b["ci_low"], b["ci_high"])


# ---------------------------------------------------------------------------
# On the cluster.


def test_a_chunked_match_gives_the_local_totals(cluster: str, tmp_path: Path) -> None:
    bots = ["mcts:40", "greedy", "random"]
    local = splendor.match(bots, players=3, games=15, seed=7, threads=2)
    seen: list[tuple[int, int]] = []
    out = tmp_path / "m"
    result = match(
        bots,
        out,
        players=3,
        games=15,
        seed=7,
        chunk_size=4,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert result == local
    lines = chunk_lines(out)
    assert sorted(r["chunk"] for r in lines) == [0, 1, 2, 3]
    assert [r["games"] for r in sorted(lines, key=lambda r: r["chunk"])] == [4, 4, 4, 3]
    # Progress as chunks are stored (chunks finishing together are stored together).
    assert seen[-1] == (15, 15) and 1 <= len(seen) <= 4 and seen == sorted(seen)
    assert json.loads((out / "result.json").read_text()) == json.loads(local.to_json())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "match" and manifest["chunks"] == 4 and manifest["bots"] == bots
    # The same call again finds every chunk done: it plays nothing, stores nothing.
    seen.clear()
    again = match(
        bots,
        out,
        players=3,
        games=15,
        seed=7,
        chunk_size=4,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert again == local
    assert seen == [] and len(chunk_lines(out)) == 4


def _descends_from_us(pid: int) -> bool:
    """Whether ``pid`` is a descendant of this process (a worker of the cluster
    this test started, not of anyone else's)."""
    me = os.getpid()
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # the parent's pid
        if pid == me:
            return True
    return False


def ray_workers_running(task: str) -> list[int]:
    """Pids of our cluster's Ray worker processes executing ``task`` now (Ray
    titles a worker process ``ray::<task>`` while it runs one)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (entry / "cmdline").read_bytes().startswith(f"ray::{task}".encode()):
                pids.append(int(entry.name))
    return [pid for pid in pids if _descends_from_us(pid)]


class WorkerKiller(threading.Thread):
    """Kills the first worker found running a chunk, once."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.killed: int | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for pid in ray_workers_running("play_chunk"):
                time.sleep(0.05)  # into the chunk (one takes about half a second)
                if pid in ray_workers_running("play_chunk"):  # still in it
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        self.killed = pid
                        return
            time.sleep(0.01)


@pytest.mark.parametrize("retries", [3, 0])
def test_a_killed_worker_loses_nothing(cluster: str, tmp_path: Path, retries: int) -> None:
    """With retries, Ray plays the killed worker's chunk again and the totals are
    exact; without, the run stops with a ClusterError, keeps what finished,
    and the same call resumes it to the same totals."""
    local = splendor.match(SLOW_BOTS, games=8, seed=3, threads=2)
    out = tmp_path / "m"
    killer = WorkerKiller()
    killer.start()
    try:
        if retries:
            result = match(SLOW_BOTS, out, games=8, seed=3, chunk_size=2, max_retries=retries)
        else:
            with pytest.raises(ClusterError, match="resume"):
                match(SLOW_BOTS, out, games=8, seed=3, chunk_size=2, max_retries=0)
            assert len(chunk_lines(out)) < 4
            result = match(SLOW_BOTS, out, games=8, seed=3, chunk_size=2, max_retries=0)
    finally:
        killer.stop.set()
        killer.join()
    assert killer.killed is not None, "no worker was caught running a chunk"
    assert result == local
    assert sorted(r["chunk"] for r in chunk_lines(out)) == [0, 1, 2, 3]


def cli_match(address: str, out: Path, games: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "splendor.cli",
        "match",
        "--bots",
        ",".join(SLOW_BOTS),
        "--games",
        str(games),
        "--seed",
        "5",
        "--ray",
        address,
        "--out",
        str(out),
        "--chunk-size",
        "1",
        "--no-progress",
    ]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_driver_resumes_without_loss_or_repeats(
    cluster: str, tmp_path: Path, how: signal.Signals
) -> None:
    out = tmp_path / "m"
    games = 10
    driver = subprocess.Popen(
        cli_match(cluster, out, games), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 90
        while len(load_results(out) if out.exists() else []) < 2:
            assert driver.poll() is None, driver.communicate()
            assert time.monotonic() < deadline, "no chunk finished in time"
            time.sleep(0.05)
        driver.send_signal(how)
        driver.wait(timeout=30)
    finally:
        driver.kill()
    stopped = chunk_lines(out)
    assert 2 <= len(stopped) < games
    again = subprocess.run(
        cli_match(cluster, out, games), capture_output=True, text=True, timeout=150, check=False
    )
    assert again.returncode == 0, again.stderr
    lines = chunk_lines(out)
    assert sorted(r["chunk"] for r in lines) == list(range(games))  # each game once
    assert lines[: len(stopped)] == stopped  # nothing stored was rewritten
    local = splendor.match(SLOW_BOTS, games=games, seed=5, threads=2)
    assert dmatch.merge(lines, "base", 2) == local
    assert json.loads((out / "result.json").read_text()) == json.loads(local.to_json())
    assert again.stdout.startswith("bot ")
    assert f"base, 2 players, {games} games" in again.stdout


def test_a_torn_last_line_is_played_again(cluster: str, tmp_path: Path) -> None:
    """A driver killed while appending leaves part of a line: the next start
    drops it and plays that chunk again."""
    out = tmp_path / "m"
    local = match(["greedy", "random"], out, games=6, seed=1, chunk_size=2)
    results = out / "results.jsonl"
    data = results.read_bytes()
    cut = data.rfind(b"\n", 0, len(data) - 1) + 1 + 20
    results.write_bytes(data[:cut])  # the last line, torn after 20 bytes
    assert len(load_results(out)) == 2
    assert match(["greedy", "random"], out, games=6, seed=1, chunk_size=2) == local
    assert len(load_results(out)) == 3 and results.read_bytes().endswith(b"\n")


def test_selfplay_shards_equal_the_local_ones(cluster: str, tmp_path: Path) -> None:
    run = selfplay("base", tmp_path / "ray", games=5, seed=6, chunk_size=2, **FAST)
    local = sp.selfplay("base", tmp_path / "local", games=5, seed=6, threads=2, **FAST)
    assert json.loads((run / "run.json").read_text()) == json.loads(
        (local / "run.json").read_text()
    )
    assert_same_games(sp.load_shards(run), sp.load_shards(local))
    # One shard per chunk, its games in id order.
    shards = sp.shard_files(run)
    assert [p.name for p in shards] == [f"shard-00000{c}.npz" for c in range(3)]
    for c, path in enumerate(shards):
        with np.load(path) as z:
            assert z["game_ids"].tolist() == list(range(2 * c, min(2 * c + 2, 5)))
            assert (np.diff(z["game"]) >= 0).all()
    assert_same_games(sp.load_shards(run), sp.regenerate(run, [4, 0, 2, 1, 3]))
    # Resuming a finished run plays nothing; a local run refuses the folder.
    calls: list[int] = []
    selfplay(
        "base", run, games=5, seed=6, chunk_size=2, progress=lambda d, t: calls.append(d), **FAST
    )
    assert calls == []
    with pytest.raises(ConfigError, match="distributed run"):
        sp.selfplay("base", run, games=5, seed=6, **FAST)


def test_selfplay_with_a_network_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    """The network is read on the driver and reaches the workers through Ray."""
    from test_network import encode, random_tensors

    net = tmp_path / "net.safetensors"
    net.write_bytes(encode(*random_tensors("base", 2, (8,), seed=1)))
    args: dict[str, Any] = {"games": 3, "seed": 2, "network": str(net), "noise_alpha": 0.3}
    run = selfplay("base", tmp_path / "ray", chunk_size=2, **args, **FAST)
    local = sp.selfplay("base", tmp_path / "local", threads=1, **args, **FAST)
    assert_same_games(sp.load_shards(run), sp.load_shards(local))
    assert json.loads((run / "run.json").read_text())["network_sha256"] == (
        splendor.Network.load(net).sha256
    )


def test_a_cluster_run_resumes_with_its_network_moved_but_not_with_another(
    cluster: str, tmp_path: Path
) -> None:
    from test_network import encode, random_tensors

    first = tmp_path / "a.safetensors"
    first.write_bytes(encode(*random_tensors("base", 2, (8,), seed=1)))
    run = selfplay(
        "base", tmp_path / "ray", games=4, seed=2, network=str(first), chunk_size=2, **FAST
    )
    (run / "shard-000001.npz").unlink()  # a chunk lost: the resume plays it again
    moved = tmp_path / "moved" / "b.safetensors"
    moved.parent.mkdir()
    moved.write_bytes(first.read_bytes())
    selfplay("base", run, games=4, seed=2, network=str(moved), chunk_size=2, **FAST)
    local = sp.selfplay(
        "base", tmp_path / "local", games=4, seed=2, network=first, threads=1, **FAST
    )
    assert_same_games(sp.load_shards(run), sp.load_shards(local))
    other = tmp_path / "other.safetensors"
    other.write_bytes(encode(*random_tensors("base", 2, (8,), seed=2)))
    with pytest.raises(ConfigError, match=r"holds another run \(settings differ\)"):
        selfplay("base", run, games=4, seed=2, network=str(other), chunk_size=2, **FAST)


# ---------------------------------------------------------------------------
# Bad configuration: a clear, typed error before any work.


def test_bad_addresses_fail_fast() -> None:
    for bad in ["", "nonsense", "host:", ":6379", "host:0", "host:70000", "ray://", 6379]:
        with pytest.raises(ConfigError, match="address"):
            parse_address(bad)  # type: ignore[arg-type]
    assert parse_address("ray://10.0.0.5:10001") == ("10.0.0.5", 10001)
    assert parse_address("[::1]:6379") == ("::1", 6379)
    assert parse_address(None) is None and parse_address("auto") is None

    start = time.monotonic()
    with pytest.raises(ConfigError, match="cannot connect"):
        check_reachable("127.0.0.1:1", timeout=5)
    # A port that accepts but never answers: given up after the timeout.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    with pytest.raises(ConfigError, match="no answer within 1 s"):
        check_reachable(f"127.0.0.1:{silent.getsockname()[1]}", timeout=1)
    silent.close()
    # A port that answers, but not as Ray's gRPC does.
    web = socket.socket()
    web.bind(("127.0.0.1", 0))
    web.listen()

    def answer() -> None:
        conn, _ = web.accept()
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        conn.close()

    threading.Thread(target=answer, daemon=True).start()
    with pytest.raises(ConfigError, match="not Ray"):
        check_reachable(f"127.0.0.1:{web.getsockname()[1]}", timeout=5)
    web.close()
    assert time.monotonic() - start < 10


def test_bad_configuration_fails_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No cluster is started or joined, no folder created, for a bad bot, a bad
    address or bad numbers."""
    from splendor.distributed import cluster as ray_cluster

    def no_ray() -> None:
        raise AssertionError("Ray was reached")

    monkeypatch.setattr(ray_cluster, "_ray", no_ray)
    out = tmp_path / "new"
    cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"bots": ["mcts:100", "nonsense"]}, ConfigError, "unknown bot"),
        ({"bots": "greedy"}, ConfigError, "list of specs"),
        ({"bots": [splendor.RandomBot()]}, ConfigError, "bot specs"),
        ({"bots": ["random"] * 3}, ConfigError, "number of bots"),
        ({"bots": ["net:10@/no/such.safetensors"]}, NetworkError, "such"),
        ({"variant": "chess"}, ConfigError, "chess"),
        ({"players": 5}, ConfigError, "players"),
        ({"games": 0}, ConfigError, "games"),
        ({"chunk_size": 0}, ConfigError, "chunk_size"),
        ({"max_retries": -1}, ConfigError, "max_retries"),
        ({"address": "nonsense"}, ConfigError, "bad Ray address"),
        ({"address": "127.0.0.1:1"}, ConfigError, "cannot connect"),
    ]
    for change, error, message in cases:
        args: dict[str, Any] = {"bots": ["greedy", "random"], "games": 4, **change}
        bots = args.pop("bots")
        with pytest.raises(error, match=message):
            match(bots, out, **args)
        assert not out.exists(), change
    from test_network import encode, random_tensors

    duel = tmp_path / "duel.safetensors"
    duel.write_bytes(encode(*random_tensors("duel", 2, (8,), seed=1)))
    with pytest.raises(NetworkError, match="for duel with 2 players, not base with 2"):
        match([f"net:10@{duel}"], out, games=2)
    selfplay_cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"network": str(duel)}, NetworkError, "for duel with 2 players, not base with 2"),
        ({"iterations": 0}, ConfigError, "iterations"),
        ({"exploration": -1.0}, ConfigError, "exploration"),
        ({"network": str(tmp_path / "missing.safetensors")}, NetworkError, "missing"),
        ({"address": "127.0.0.1:1"}, ConfigError, "cannot connect"),
    ]
    for change, error, message in selfplay_cases:
        with pytest.raises(error, match=message):
            selfplay("base", out, games=2, **change)
        assert not out.exists(), change
    with pytest.raises(ConfigError, match="unknown host"):
        check_reachable("no.such.host.invalid:6379", timeout=5)


def test_a_folder_holding_another_run_is_refused(cluster: str, tmp_path: Path) -> None:
    out = tmp_path / "m"
    match(["greedy", "random"], out, games=4, seed=1, chunk_size=2)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    for change in [{"seed": 2}, {"games": 6}, {"chunk_size": 1}, {"turn_cap": 50}]:
        args: dict[str, Any] = {"games": 4, "seed": 1, "chunk_size": 2, **change}
        key = next(iter(change))
        with pytest.raises(ConfigError, match=f"holds another run \\(.*{key}.* differ"):
            match(["greedy", "random"], out, **args)
    with pytest.raises(ConfigError, match="holds another run"):
        match(["random", "greedy"], out, games=4, seed=1, chunk_size=2)
    with pytest.raises(ConfigError, match="holds another run"):
        selfplay("base", out, games=4, seed=1, chunk_size=2, **FAST)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # The same path to a network file whose content changed: another run.
    from test_network import encode, random_tensors

    net = tmp_path / "net.safetensors"
    net.write_bytes(encode(*random_tensors("base", 2, (8,), seed=1)))
    match([f"net:2@{net}", "random"], tmp_path / "n", games=2, chunk_size=1)
    net.write_bytes(encode(*random_tensors("base", 2, (8,), seed=2)))
    with pytest.raises(ConfigError, match=r"holds another run \(networks differ\)"):
        match([f"net:2@{net}", "random"], tmp_path / "n", games=2, chunk_size=1)
    # A local self-play run, any other files, a file in the folder's place.
    local = sp.selfplay("base", tmp_path / "local", games=1, **FAST)
    with pytest.raises(ConfigError, match=r"holds no manifest\.json"):
        selfplay("base", local, games=1, **FAST)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="is a file"):
        match(["random"], tmp_path / "file", games=2)
    with pytest.raises(ConfigError, match="not a writable folder"):
        match(["random"], tmp_path / "file" / "under", games=2)


def test_a_folder_in_use_by_another_driver_is_refused(cluster: str, tmp_path: Path) -> None:
    out = tmp_path / "m"
    match(["random"], out, games=2, chunk_size=1)
    fd = os.open(out / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ConfigError, match="another driver"):
            match(["random"], out, games=2, chunk_size=1)
    finally:
        os.close(fd)


def test_ray_missing_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ConfigError, match=r"pip install 'splendor\[ray\]'"), connected(None):
        pass


def test_import_splendor_does_not_import_ray() -> None:
    code = (
        "import sys, splendor, splendor.distributed, splendor.cli\n"
        "splendor.cli.build_parser()\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_cli_ray_options_are_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from splendor import cli

    base = ["match", "--games", "2", "--bots", "random", "--no-progress"]
    for args, message in [
        ([*base, "--out", str(tmp_path)], "--out is an option of a --ray run"),
        ([*base, "--chunk-size", "3"], "--chunk-size is an option of a --ray run"),
        ([*base, "--ray", "127.0.0.1:1"], "--ray needs --out DIR"),
        ([*base, "--ray", "--out", str(tmp_path / "x"), "--threads", "2"], "--threads"),
        (
            ["selfplay", "--games", "1", "--out", str(tmp_path), "--max-retries", "1"],
            "--max-retries",
        ),
        (
            ["selfplay", "--games", "1", "--out", str(tmp_path), "--ray", "--shard-size", "2"],
            "--chunk-size",
        ),
    ]:
        assert cli.main(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and message in err, (args, err)
    assert list(tmp_path.iterdir()) == []


def test_stored_chunks_are_checked_before_resuming(cluster: str, tmp_path: Path) -> None:
    """Whatever else edited the folder is refused, not trusted or overwritten."""
    out = tmp_path / "m"
    match(["greedy", "random"], out, games=6, seed=1, chunk_size=2)
    results = out / "results.jsonl"
    good = results.read_bytes()
    first = good.splitlines(keepends=True)[0]
    for damaged, message in [
        (good + first, "twice"),
        (good + b"not json\n", "damaged"),
        (good.replace(b'"first_game":0', b'"first_game":1'), "does not hold this run's games"),
        (good.replace(b'"chunk":0', b'"chunk":7'), "not one of this run's 3"),
    ]:
        results.write_bytes(damaged)
        with pytest.raises(ConfigError, match=message):
            match(["greedy", "random"], out, games=6, seed=1, chunk_size=2)
        assert results.read_bytes() == damaged
    results.write_bytes(good)
    run = selfplay("base", tmp_path / "s", games=4, seed=1, chunk_size=2, **FAST)
    shard = (run / "shard-000000.npz").read_bytes()
    (run / "shard-000001.npz").write_bytes(shard)
    with pytest.raises(ConfigError, match="does not hold the games of chunk 1"):
        selfplay("base", run, games=4, seed=1, chunk_size=2, **FAST)
    (run / "shard-000001.npz").unlink()
    (run / "shard-000009.npz").write_bytes(shard)
    with pytest.raises(ConfigError, match="not a shard of this run"):
        selfplay("base", run, games=4, seed=1, chunk_size=2, **FAST)


def test_a_damaged_selfplay_folder_resumes_or_fails_cleanly(cluster: str, tmp_path: Path) -> None:
    """A truncated shard is set aside and its chunk played again; a damaged
    run.json is a ConfigError; never a traceback of an internal exception."""
    run = selfplay("base", tmp_path / "s", games=5, seed=1, chunk_size=2, **FAST)
    full = sp.load_shards(run)
    shard = run / "shard-000001.npz"
    shard.write_bytes(shard.read_bytes()[:100])
    calls: list[int] = []
    with pytest.warns(UserWarning, match=r"shard-000001\.npz is damaged .*set aside"):
        selfplay(
            "base", run, games=5, seed=1, chunk_size=2,
            progress=lambda d, t: calls.append(t), **FAST,
        )  # fmt: skip
    assert calls == [2]
    assert (run / "shard-000001.npz.damaged").exists()
    assert sp.read_game_ids(shard) == [2, 3]
    assert_same_games(full, sp.load_shards(run))
    for text in ("[]", "{not json"):
        (run / "run.json").write_text(text)
        with pytest.raises(ConfigError, match=r"run\.json: not a self-play run file"):
            selfplay("base", run, games=5, seed=1, chunk_size=2, **FAST)


def test_workers_must_run_the_drivers_splendor(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(splendor, "__version__", "0.0.0-elsewhere")
    with pytest.raises(ConfigError, match=r"runs splendor .*, this driver 0\.0\.0-elsewhere"):
        match(["random"], tmp_path / "m", games=2)
    assert not (tmp_path / "m").exists()


def test_an_error_in_a_chunk_stops_the_run_with_that_error(cluster: str) -> None:
    """A chunk fails the same way on every attempt: its SplendorError comes back
    as it was raised on the worker."""
    from splendor.distributed import cluster as ray_cluster

    stored: list[Any] = []
    with pytest.raises(ConfigError, match="unknown bot `nonsense`"):
        ray_cluster.run_chunks(
            dmatch.play_chunk,
            [(0, (0, ["nonsense"], "base", 2, 0, 100, 0, 2))],
            stored.append,
            max_retries=3,
        )
    assert stored == []
