"""Self-play on a Ray cluster: one shard per chunk of games.

The output folder is an ordinary self-play run (``run.json`` and
``shard-NNNNNN.npz``, ``docs/network.md``), so :func:`splendor.selfplay.load_shards`,
:func:`splendor.selfplay.regenerate` and training read it as they read a local
run; ``manifest.json`` adds how the games are cut into chunks. Shard ``c``
holds chunk ``c``: games ``first_game + c * chunk_size`` onwards, in id order.
A worker compresses its shard itself, so the driver only writes bytes. A
damaged shard (one that does not open as ``.npz`` with its ``game_ids``) is set
aside by the resume, renamed ``shard-NNNNNN.npz.damaged`` with a warning, and
its chunk is played again.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

import splendor
from splendor import _core
from splendor.distributed import cluster
from splendor.distributed.store import RunFolder, atomic_write
from splendor.errors import ConfigError
from splendor.selfplay import (
    DamagedFile,
    SelfPlaySettings,
    _concat,
    _game_arrays,
    read_game_ids,
    read_settings,
    set_aside,
    with_defaults,
)

#: Games per chunk (one Ray task, one shard) unless told; see
#: docs/distributed.md for the measurements behind it.
SELFPLAY_CHUNK = 50


def _play_arguments(settings: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``_core.selfplay_games`` that ``run.json`` fixes."""
    settings = with_defaults(settings)
    return {
        "players": settings["players"],
        "seed": settings["seed"],
        "turn_cap": settings["turn_cap"],
        "iterations": settings["iterations"],
        "exploration": settings["exploration"],
        "prior_temperature": settings["prior_temperature"],
        "rollout_depth": settings["rollout_depth"],
        "temperature_moves": settings["temperature_moves"],
        "noise_alpha": settings["noise_alpha"],
        "noise_epsilon": settings["noise_epsilon"],
        "fast_iterations": settings["fast_iterations"],
        "full_search_fraction": settings["full_search_fraction"],
    }


def play_chunk(
    settings: dict[str, Any], network: _core.Network | None, game_ids: list[int]
) -> bytes:
    """Plays the games ``game_ids`` of the run (one thread) and returns their
    shard, compressed (``.npz`` bytes), the games in id order."""
    parts: list[dict[str, np.ndarray]] = []
    _core.selfplay_games(
        settings["variant"],
        game_ids,
        lambda record: parts.append(_game_arrays(record)),
        threads=1,
        network=network,
        **_play_arguments(settings),
    )
    parts.sort(key=lambda p: int(p["game_ids"][0]))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **_concat(parts))  # type: ignore[arg-type]
    return buffer.getvalue()


def _chunk_ids(first_game: int, games: int, chunk_size: int, c: int) -> list[int]:
    start = first_game + c * chunk_size
    return list(range(start, min(start + chunk_size, first_game + games)))


def shard_path(out_dir: Path, chunk: int) -> Path:
    """Where chunk ``chunk`` of a run is stored."""
    return out_dir / f"shard-{chunk:06d}.npz"


def _finished(folder: Path, first_game: int, games: int, chunk_size: int, chunks: int) -> set[int]:
    """The chunks whose shard is stored, each checked to hold its games; a
    damaged shard is set aside (its chunk is not finished)."""
    done = set()
    for path in sorted(folder.glob("shard-*.npz")):
        stem = path.stem.removeprefix("shard-")
        c = int(stem) if stem.isdigit() else -1
        if not 0 <= c < chunks or path != shard_path(folder, c):
            raise ConfigError(f"{path} is not a shard of this run ({chunks} chunks)")
        try:
            ids = read_game_ids(path)
        except DamagedFile as exc:
            set_aside(path, str(exc))
            continue
        if ids != _chunk_ids(first_game, games, chunk_size, c):
            raise ConfigError(f"{path} does not hold the games of chunk {c} of this run")
        done.add(c)
    return done


def selfplay(
    variant: str,
    out_dir: str | os.PathLike[str],
    *,
    games: int,
    players: int = 2,
    seed: int = 0,
    first_game: int = 0,
    iterations: int = 800,
    exploration: float = 0.7,
    prior_temperature: float | None = 0.02,
    rollout_depth: int = 24,
    temperature_moves: int = 20,
    turn_cap: int = 100,
    network: str | os.PathLike[str] | None = None,
    noise_alpha: float | None = None,
    noise_epsilon: float = 0.25,
    fast_iterations: int = 0,
    full_search_fraction: float = 0.25,
    chunk_size: int = SELFPLAY_CHUNK,
    address: str | None = None,
    connect_timeout: float = 10.0,
    max_retries: int = 3,
    progress: Callable[[int, int], object] | None = None,
) -> Path:
    """Plays games ``first_game .. first_game + games - 1`` of the self-play
    run seeded ``seed`` (the settings of :func:`splendor.selfplay.selfplay`) on
    the Ray cluster at ``address``, ``chunk_size`` games per Ray task, and
    returns ``out_dir``.

    Every game equals the one the single-machine generator plays for the same
    id and settings. Each finished chunk is stored as one shard, written
    atomically; running the same call again resumes (stored chunks are
    skipped, no game is stored twice), and a chunk whose worker dies is retried
    up to ``max_retries`` times. The network, if any, is read here and sent to
    the workers, so it needs to exist on this machine only. ``address`` and
    ``progress`` are as in :func:`splendor.distributed.match`.

    Raises:
        ConfigError: A bad setting; an output folder holding another run, a
            local run or a run in use; Ray missing or the address unreachable
            within ``connect_timeout`` seconds. All before any game is played.
        NetworkError: A bad network file.
        ClusterError: A chunk lost more than ``max_retries`` times.
    """
    for name, value, lo, hi in (
        ("games", games, 1, 10**12),
        ("first_game", first_game, 0, 10**15),
        ("chunk_size", chunk_size, 1, 10**9),
        ("max_retries", max_retries, 0, 1000),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ConfigError(f"{name} must be an integer between {lo} and {hi}, got {value!r}")
    net = None if network is None else _core.Network.load(network)
    settings = asdict(
        SelfPlaySettings(
            network=None if network is None else str(network),
            network_sha256=None if net is None else net.sha256,
            noise_alpha=noise_alpha,
            noise_epsilon=noise_epsilon,
            variant=variant,
            players=players,
            seed=seed,
            iterations=iterations,
            exploration=exploration,
            prior_temperature=prior_temperature,
            rollout_depth=rollout_depth,
            temperature_moves=temperature_moves,
            turn_cap=turn_cap,
            fast_iterations=fast_iterations,
            full_search_fraction=full_search_fraction,
        )
    )
    # The engine checks every setting on an empty list of games, at once,
    # before any work; and the network against the game with a one-iteration
    # search of the opening.
    _core.selfplay_games(
        variant, [], lambda record: None, threads=1, network=net, **_play_arguments(settings)
    )
    if net is not None:
        _core.search(_core.new_game(variant, players=players), iterations=1, network=net)
    cluster.parse_address(address)
    chunks = -(-games // chunk_size)
    folder = RunFolder(
        out_dir,
        {
            "kind": "selfplay",
            "splendor": splendor.__version__,
            "settings": settings,
            "first_game": first_game,
            "games": games,
            "chunk_size": chunk_size,
            "chunks": chunks,
        },
    )
    folder.check()
    run = folder.path
    with cluster.connected(address, connect_timeout=connect_timeout), folder.opened():
        _write_run_json(run, settings)
        done = _finished(run, first_game, games, chunk_size, chunks)
        calls = [
            (c, (settings, net, _chunk_ids(first_game, games, chunk_size, c)))
            for c in range(chunks)
            if c not in done
        ]
        sizes = {c: len(args[2]) for c, args in calls}
        total, played = sum(sizes.values()), 0
        if net is not None and calls:
            # One copy in the object store for every task, not one per task.
            ref = cluster._ray().put(net)
            calls = [(c, (s, ref, ids)) for c, (s, _, ids) in calls]

        def store(batch: list[tuple[int, bytes]]) -> None:
            nonlocal played
            for chunk, shard in batch:
                atomic_write(shard_path(run, chunk), shard)
                played += sizes[chunk]
            if progress is not None:
                progress(played, total)

        cluster.run_chunks(play_chunk, calls, store, max_retries=max_retries)
    return run


def _write_run_json(run: Path, settings: dict[str, Any]) -> None:
    """``run.json`` as the local generator writes it."""
    path = run / "run.json"
    have = read_settings(run)
    if have is None:
        text = json.dumps(settings, indent=2, sort_keys=True) + "\n"
        atomic_write(path, text.encode())
    elif {k: v for k, v in have.items() if k != "network"} != {
        k: v for k, v in settings.items() if k != "network"
    }:  # the network is compared by its SHA-256, wherever its file now lies
        raise ConfigError(f"{path} does not hold this run's settings (edited by hand?)")
