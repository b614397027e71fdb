"""Self-play data for training: run directories of ``.npz`` shards.

The games are played in Rust (:func:`splendor._core.selfplay_games`, on all
cores with the GIL released); this module keeps the run directory: the
settings in ``run.json``, each finished game stored at once in ``pending/``,
and every ``shard_size`` games gathered into ``shard-NNNNNN.npz``. The format
is specified in ``docs/network.md``. Running the same call again resumes the
run: games already stored are skipped, so an interrupted run loses at most
the games in progress, and no game is stored twice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from splendor import _core
from splendor.errors import ConfigError

if TYPE_CHECKING:
    from splendor._core import _SelfPlayRecord

FORMAT = "splendor-selfplay/1"
SHARD_KEYS = ("obs", "mask", "policy", "returns", "q", "game", "ply", "player")


@dataclass(frozen=True)
class SelfPlaySettings:
    """Everything that, with a game's id, decides the game (see ``run.json``)."""

    variant: str
    players: int
    seed: int
    iterations: int
    exploration: float
    prior_temperature: float | None
    rollout_depth: int
    temperature_moves: int
    turn_cap: int
    noise_alpha: float | None = None
    noise_epsilon: float = 0.25
    network: str | None = None
    network_sha256: str | None = None
    format: str = FORMAT


def _atomic_savez(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Writes ``path`` so that it either exists complete or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _game_arrays(record: _SelfPlayRecord) -> dict[str, np.ndarray]:
    n = len(record["ply"])
    return {
        "obs": record["obs"],
        "mask": record["mask"],
        "policy": record["policy"],
        "returns": record["returns"],
        "q": record["q"],
        "game": np.full(n, record["game_id"], dtype=np.int64),
        "ply": record["ply"].astype(np.int32),
        "player": record["player"].astype(np.int8),
        "game_ids": np.array([record["game_id"]], dtype=np.int64),
        "game_seeds": np.array([record["game_seed"]], dtype=np.uint64),
    }


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    keys = (*SHARD_KEYS, "game_ids", "game_seeds")
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def shard_files(run_dir: str | os.PathLike[str]) -> list[Path]:
    """The complete shards of a run, in order."""
    return sorted(Path(run_dir).glob("shard-*.npz"))


def stored_game_ids(run_dir: str | os.PathLike[str]) -> set[int]:
    """Ids of the games stored in a run (shards and pending games)."""
    run = Path(run_dir)
    ids: set[int] = set()
    for path in [*shard_files(run), *sorted((run / "pending").glob("game-*.npz"))]:
        with np.load(path) as z:
            ids.update(int(i) for i in z["game_ids"])
    return ids


def load_shards(run_dir: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every sample of a run's shards, concatenated."""
    parts = []
    for path in shard_files(run_dir):
        with np.load(path) as z:
            parts.append({k: z[k] for k in z.files})
    if not parts:
        raise ConfigError(f"{run_dir}: no shard-*.npz files")
    return _concat(parts)


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
    threads: int | None = None,
    shard_size: int = 200,
    network: str | os.PathLike[str] | None = None,
    noise_alpha: float | None = None,
    noise_epsilon: float = 0.25,
    progress: Callable[[int, int], object] | None = None,
) -> Path:
    """Plays games ``first_game .. first_game + games - 1`` of the run seeded
    ``seed`` into ``out_dir`` and returns its path.

    Each decision with two or more legal actions is searched with
    ``iterations`` MCTS iterations; for the first ``temperature_moves``
    decisions of a game the move is sampled in proportion to the visit
    counts. With ``network`` (a network file) the searches are AlphaZero-style
    PUCT guided by it; ``noise_alpha`` adds Dirichlet noise of that
    concentration to the root prior, with weight ``noise_epsilon``. The
    network's path and SHA-256 are recorded in ``run.json``. Resumes an
    existing run with the same settings (games already stored are skipped);
    a directory holding a run with other settings is a
    :class:`~splendor.errors.ConfigError`, raised before any game is played.
    ``progress(done, total)`` is called after each stored game.
    """
    net = None
    if network is not None:
        net = _core.Network.load(network)
    settings = SelfPlaySettings(
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
    )
    if not isinstance(games, int) or games < 0 or isinstance(games, bool):
        raise ConfigError(f"games must be an int >= 0, got {games!r}")
    if not isinstance(first_game, int) or first_game < 0 or isinstance(first_game, bool):
        raise ConfigError(f"first_game must be an int >= 0, got {first_game!r}")
    if not isinstance(shard_size, int) or shard_size < 1 or isinstance(shard_size, bool):
        raise ConfigError(f"shard_size must be an int >= 1, got {shard_size!r}")
    run = Path(out_dir)
    meta_path = run / "run.json"
    wanted = asdict(settings)
    if (run / "manifest.json").exists():
        # Its shards are numbered by chunk; a local shard could take a number
        # that a missing chunk will need.
        raise ConfigError(
            f"{run} holds a distributed run (manifest.json): resume it with "
            "splendor.distributed.selfplay (selfplay --ray), or use another directory"
        )
    if meta_path.exists():
        try:
            have = json.loads(meta_path.read_text())
        except (OSError, ValueError) as e:
            raise ConfigError(f"{meta_path}: not a self-play run file ({e})") from e
        if have != wanted:
            diff = sorted(k for k in wanted.keys() | have.keys() if have.get(k) != wanted.get(k))
            raise ConfigError(
                f"{run} holds a self-play run with other settings ({', '.join(diff)} differ); "
                "use another directory"
            )
    pending_dir = run / "pending"
    pending_dir.mkdir(parents=True, exist_ok=True)
    if not meta_path.exists():
        meta_path.write_text(json.dumps(wanted, indent=2, sort_keys=True) + "\n")

    done = stored_game_ids(run)
    todo = [g for g in range(first_game, first_game + games) if g not in done]
    total = len(todo)
    pending: list[Path] = sorted(pending_dir.glob("game-*.npz"))
    next_shard = len(shard_files(run))
    stored = 0

    def flush(force: bool) -> None:
        nonlocal pending, next_shard
        while len(pending) >= shard_size or (force and pending):
            batch, pending = pending[:shard_size], pending[shard_size:]
            parts = []
            for path in batch:
                with np.load(path) as z:
                    parts.append({k: z[k] for k in z.files})
            _atomic_savez(run / f"shard-{next_shard:06d}.npz", _concat(parts))
            next_shard += 1
            for path in batch:
                path.unlink()

    def on_game(record: _SelfPlayRecord) -> None:
        nonlocal stored
        path = pending_dir / f"game-{record['game_id']:010d}.npz"
        _atomic_savez(path, _game_arrays(record))
        pending.append(path)
        stored += 1
        flush(force=False)
        if progress is not None:
            progress(stored, total)

    flush(force=False)
    # Whatever stops the games (an error, Ctrl-C), what is stored stays
    # valid: finished games wait in pending/ for the next call.
    _core.selfplay_games(
        variant,
        todo,
        on_game,
        players=players,
        seed=seed,
        turn_cap=turn_cap,
        threads=threads if threads is not None else (os.cpu_count() or 1),
        iterations=iterations,
        exploration=exploration,
        prior_temperature=prior_temperature,
        rollout_depth=rollout_depth,
        temperature_moves=temperature_moves,
        network=net,
        noise_alpha=noise_alpha,
        noise_epsilon=noise_epsilon,
    )
    flush(force=True)
    return run


def regenerate(run_dir: str | os.PathLike[str], game_ids: Iterable[int]) -> dict[str, np.ndarray]:
    """Plays the given games of a run again from its ``run.json`` and returns
    their samples (as one shard): equal to what the run stored for them."""
    settings = json.loads((Path(run_dir) / "run.json").read_text())
    net = None
    if settings["network"] is not None:
        net = _core.Network.load(settings["network"])
        if net.sha256 != settings["network_sha256"]:
            raise ConfigError(
                f"{settings['network']} is not the network that played this run "
                f"(SHA-256 {net.sha256}, the run names {settings['network_sha256']})"
            )
    parts: list[dict[str, np.ndarray]] = []
    _core.selfplay_games(
        settings["variant"],
        list(game_ids),
        lambda r: parts.append(_game_arrays(r)),
        players=settings["players"],
        seed=settings["seed"],
        turn_cap=settings["turn_cap"],
        threads=1,
        iterations=settings["iterations"],
        exploration=settings["exploration"],
        prior_temperature=settings["prior_temperature"],
        rollout_depth=settings["rollout_depth"],
        temperature_moves=settings["temperature_moves"],
        network=net,
        noise_alpha=settings["noise_alpha"],
        noise_epsilon=settings["noise_epsilon"],
    )
    if not parts:
        raise ConfigError("no game ids given")
    return _concat(parts)
