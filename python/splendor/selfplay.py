"""Self-play data for training: run directories of ``.npz`` shards.

The games are played in Rust (:func:`splendor._core.selfplay_games`, on all
cores with the GIL released); this module keeps the run directory: the
settings in ``run.json``, each finished game stored at once in ``pending/``,
and every ``shard_size`` games gathered into ``shard-NNNNNN.npz``. The format
is specified in ``docs/network.md``. Running the same call again resumes the
run: games already stored are skipped, so an interrupted run loses at most
the games in progress, and no game is stored twice.

A new shard takes the number after the highest one present, so no shard is
ever overwritten. A shard is written (atomically) before its pending games are
deleted; a stop between the two leaves those games in both places, and the
resume deletes the pending copies of games a shard holds. A damaged shard or
pending game (one that does not open as ``.npz`` with its ``game_ids``) is set
aside by the resume, renamed ``<name>.damaged`` with a warning, and its games
are played again; a damaged ``run.json`` is a :class:`~splendor.errors.ConfigError`.
A run directory has one writer at a time (a lock on ``.lock``, released by
the system when its process dies): a second process is refused with a
:class:`~splendor.errors.ConfigError` before it touches anything.
"""

from __future__ import annotations

import json
import os
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from splendor import _core
from splendor._folder_lock import locked_folder
from splendor.errors import ConfigError

if TYPE_CHECKING:
    from splendor._core import _SelfPlayRecord

FORMAT = "splendor-selfplay/1"
SHARD_KEYS = ("obs", "mask", "policy", "returns", "points", "q", "game", "ply", "player")
#: What a damaged shard or pending game is renamed to: ``<name>.damaged``.
DAMAGED = ".damaged"
#: What ``np.load`` raises for a file that is not a complete ``.npz``.
_NPZ_ERRORS = (ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error)


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
    fast_iterations: int = 0
    full_search_fraction: float = 0.25


def with_defaults(settings: dict[str, Any]) -> dict[str, Any]:
    """A ``run.json``'s settings with the fields added since it was written set to
    their defaults (which play the games those runs played): playout-cap
    randomisation off."""
    added = {f.name: f.default for f in fields(SelfPlaySettings) if f.name in _ADDED_SETTINGS}
    return {**added, **settings}


#: Settings added after the first runs were written; their defaults play those runs' games.
_ADDED_SETTINGS = ("fast_iterations", "full_search_fraction")


def _atomic_savez(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Writes ``path`` so that it either exists complete, durably, or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)  # the new name, before any pending game it replaces is deleted
    finally:
        os.close(fd)


class DamagedFile(Exception):
    """A shard or pending game that does not read as one (internal)."""


def read_game_ids(path: Path) -> list[int]:
    """The ``game_ids`` of a shard or pending game.

    Raises:
        DamagedFile: The file is not a complete ``.npz`` holding a 1-d integer
            ``game_ids`` (truncated, overwritten, not a shard).
        OSError: The system refused to open it.
    """
    with open(path, "rb") as f:
        try:
            with np.load(f) as z:
                ids = z["game_ids"]
        except _NPZ_ERRORS as exc:
            raise DamagedFile(f"{type(exc).__name__}: {exc}") from None
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise DamagedFile(f"game_ids is {ids.dtype} of shape {ids.shape}")
    return [int(i) for i in ids]


def set_aside(path: Path, why: str) -> Path:
    """Renames a damaged file ``<name>.damaged`` (replacing an older one), with
    a warning; returns the new path."""
    target = path.with_name(path.name + DAMAGED)
    os.replace(path, target)
    warnings.warn(
        f"{path} is damaged ({why}): set aside as {target.name}; its games will be played again",
        stacklevel=3,
    )
    return target


def shard_number(path: Path) -> int | None:
    """``N`` of ``shard-N.npz`` (or of a set-aside ``shard-N.npz.damaged``)."""
    digits = path.name.removeprefix("shard-").split(".", 1)[0]
    return int(digits) if path.name.startswith("shard-") and digits.isdigit() else None


def read_settings(run_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The settings in a run's ``run.json``; ``None`` when there is none.

    Raises:
        ConfigError: ``run.json`` is not a JSON object (damaged or not a run's).
    """
    return read_json_object(Path(run_dir) / "run.json", "a self-play run file")


def read_json_object(path: Path, what: str) -> dict[str, Any] | None:
    """The JSON object in ``path``; ``None`` when there is no such file.

    Raises:
        ConfigError: ``path`` cannot be read or is not a JSON object: "not ``what``".
    """
    if not path.exists():
        return None
    try:
        have = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not {what} ({exc})") from None
    if not isinstance(have, dict):
        raise ConfigError(f"{path}: not {what} (a JSON {type(have).__name__}, not an object)")
    return have


def _game_arrays(record: _SelfPlayRecord) -> dict[str, np.ndarray]:
    n = len(record["ply"])
    return {
        "obs": record["obs"],
        "mask": record["mask"],
        "policy": record["policy"],
        "returns": record["returns"],
        "points": record["points"],
        "q": record["q"],
        "game": np.full(n, record["game_id"], dtype=np.int64),
        "ply": record["ply"].astype(np.int32),
        "player": record["player"].astype(np.int8),
        "game_ids": np.array([record["game_id"]], dtype=np.int64),
        "game_seeds": np.array([record["game_seed"]], dtype=np.uint64),
    }


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    keys = (*SHARD_KEYS, "game_ids", "game_seeds")
    for p in parts:
        if "points" not in p:
            # A game stored by a version from before the column, in a resumed run.
            p["points"] = np.full(p["returns"].shape, np.nan, dtype=np.float32)
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def shard_files(run_dir: str | os.PathLike[str]) -> list[Path]:
    """The complete shards of a run, in order."""
    return sorted(Path(run_dir).glob("shard-*.npz"))


def _damaged_error(path: Path, why: str) -> ConfigError:
    return ConfigError(
        f"{path} is damaged ({why}); resuming the run (the same selfplay call) sets it "
        f"aside as {path.name}{DAMAGED} and plays its games again"
    )


def stored_game_ids(run_dir: str | os.PathLike[str]) -> set[int]:
    """Ids of the games stored in a run (shards and pending games).

    Raises:
        ConfigError: A damaged shard or pending game (see the module's notes).
    """
    run = Path(run_dir)
    ids: set[int] = set()
    for path in [*shard_files(run), *sorted((run / "pending").glob("game-*.npz"))]:
        try:
            ids.update(read_game_ids(path))
        except DamagedFile as exc:
            raise _damaged_error(path, str(exc)) from None
    return ids


def load_shards(run_dir: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every sample of a run's shards, concatenated.

    Raises:
        ConfigError: No shard, or a damaged one.
    """
    parts = []
    for path in shard_files(run_dir):
        with open(path, "rb") as f:
            try:
                with np.load(f) as z:
                    parts.append({k: z[k] for k in z.files})
            except _NPZ_ERRORS as exc:
                raise _damaged_error(path, f"{type(exc).__name__}: {exc}") from None
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
    fast_iterations: int = 0,
    full_search_fraction: float = 0.25,
    progress: Callable[[int, int], object] | None = None,
) -> Path:
    """Plays games ``first_game .. first_game + games - 1`` of the run seeded
    ``seed`` into ``out_dir`` and returns its path.

    Each decision with two or more legal actions is searched with
    ``iterations`` MCTS iterations; for the first ``temperature_moves``
    decisions of a game the move is sampled in proportion to the visit
    counts. With ``network`` (a network file) the searches are AlphaZero-style
    PUCT guided by it; ``noise_alpha`` adds Dirichlet noise of that
    concentration to the root prior, with weight ``noise_epsilon``. With
    ``fast_iterations`` > 0 (playout-cap randomisation) only a random
    ``full_search_fraction`` of the decisions get the full search and become
    samples; the others are searched with ``fast_iterations``, without noise,
    and not stored. The
    network's path and SHA-256 are recorded in ``run.json``. Resumes an
    existing run with the same settings (games already stored are skipped;
    the network must have the same SHA-256, wherever its file now lies);
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
        fast_iterations=fast_iterations,
        full_search_fraction=full_search_fraction,
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
    # Two processes in one run would take the same shard numbers and delete
    # each other's pending games.
    busy = f"another process is writing the self-play run in {run}: wait for it or stop it"
    with locked_folder(run, busy):
        have = read_settings(run)
        if have is not None:
            have = with_defaults(have)
        # The games depend on the network's weights, not on where its file lies:
        # a run resumed from another directory or machine names the same network
        # by another path, and its SHA-256 is what must match.
        diff = (
            []
            if have is None
            else sorted(
                k
                for k in wanted.keys() | have.keys()
                if k != "network" and have.get(k) != wanted.get(k)
            )
        )
        if diff:
            raise ConfigError(
                f"{run} holds a self-play run with other settings ({', '.join(diff)} differ); "
                "use another directory"
            )
        pending_dir = run / "pending"
        pending_dir.mkdir(parents=True, exist_ok=True)
        if have is None:
            tmp = meta_path.with_name("run.json.tmp")
            tmp.write_text(json.dumps(wanted, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, meta_path)  # never a torn run.json

        done, pending, next_shard = _recover(run)
        todo = [g for g in range(first_game, first_game + games) if g not in done]
        total = len(todo)
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
            fast_iterations=fast_iterations,
            full_search_fraction=full_search_fraction,
        )
        flush(force=True)
    return run


def _recover(run: Path) -> tuple[set[int], list[Path], int]:
    """What a run holds, made consistent for a resume: the ids of its stored
    games, its pending games still to gather (those no shard holds) and the
    number of the next shard (after the highest present, set-aside ones
    included, so no shard is ever overwritten). A damaged shard or pending
    game is set aside (see the module's notes); a pending game a shard already
    holds (a stop between writing the shard and deleting its pending games) is
    deleted."""
    in_shards: set[int] = set()
    numbers = [-1]
    for path in sorted(run.glob("shard-*")):
        number = shard_number(path)
        if number is None:
            continue
        numbers.append(number)
        if path.name.endswith(".npz"):
            try:
                in_shards.update(read_game_ids(path))
            except DamagedFile as exc:
                set_aside(path, str(exc))
    done = set(in_shards)
    pending: list[Path] = []
    for path in sorted((run / "pending").glob("game-*.npz")):
        try:
            ids = read_game_ids(path)
        except DamagedFile as exc:
            set_aside(path, str(exc))
            continue
        if in_shards.issuperset(ids):
            path.unlink()
        else:
            pending.append(path)
            done.update(ids)
    return done, pending, max(numbers) + 1


def regenerate(run_dir: str | os.PathLike[str], game_ids: Iterable[int]) -> dict[str, np.ndarray]:
    """Plays the given games of a run again from its ``run.json`` and returns
    their samples (as one shard): equal to what the run stored for them.

    Raises:
        ConfigError: No ``run.json``, or a damaged one; no game ids.
        NetworkError: The run's network file is missing, bad or another one.
    """
    have = read_settings(run_dir)
    if have is None:
        raise ConfigError(f"{run_dir}: no run.json (not a self-play run)")
    have = with_defaults(have)
    if set(have) != {f.name for f in fields(SelfPlaySettings)}:
        raise ConfigError(f"{Path(run_dir) / 'run.json'}: not this version's self-play settings")
    settings = have
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
        fast_iterations=settings["fast_iterations"],
        full_search_fraction=settings["full_search_fraction"],
    )
    if not parts:
        raise ConfigError("no game ids given")
    return _concat(parts)
