"""Self-play shards (``docs/network.md``) as training samples.

A run directory holds ``run.json`` and ``shard-NNNNNN.npz`` files. :func:`load_runs`
reads every shard of one or more run directories in order (oldest first), checks
each against the spec, and keeps the most recent ``window`` samples (the replay
window). Samples are split into training and validation by game, so no game
is on both sides.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from splendor.train.errors import ShardError

SHARD_KEYS: dict[str, Any] = {
    "obs": np.float32,
    "mask": np.bool_,
    "policy": np.float32,
    "returns": np.float32,
    "game": np.int64,
    "ply": np.int32,
    "player": np.int8,
    "game_ids": np.int64,
    "game_seeds": np.uint64,
}
"""Every array of a shard and its dtype."""

OPTIONAL_SHARD_KEYS: dict[str, Any] = {"q": np.float32, "points": np.float32}
"""Arrays a shard may lack (shards written before they existed); a missing ``q`` or
``points`` reads as NaN."""

POLICY_SUM_TOLERANCE = 1e-3
"""How far from 1 a policy target or a non-truncated return row may sum."""

MIN_SCALE_STD = 1e-3
"""Features whose standard deviation is below this are only shifted, not scaled."""

NORMALIZATION_BLOCK_ROWS = 65_536
"""Rows per block when measuring input statistics (bounds the float64 working copy)."""


@dataclass
class Samples:
    """Decisions of one or more shards, aligned by row."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    policy: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]
    """The value target: the final returns rotated to the mover, or (see
    :func:`blend_search_value`) their blend with the search's root value."""
    game_key: npt.NDArray[np.int64]
    """A key of the sample's game, unique over all loaded runs (run index and game id)."""
    points: npt.NDArray[np.float32] | None = None
    """Each seat's final points rotated to the mover (an auxiliary target); NaN rows
    for shards from before it was recorded; ``None`` when not loaded."""

    def __len__(self) -> int:
        return int(self.obs.shape[0])

    def subset(self, rows: npt.NDArray[np.int64] | slice) -> Samples:
        """The samples at ``rows``."""
        return Samples(
            self.obs[rows],
            self.mask[rows],
            self.policy[rows],
            self.returns[rows],
            self.game_key[rows],
            None if self.points is None else self.points[rows],
        )

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """Rows of truncated games (all-zero returns): no value target."""
        return np.asarray(~self.returns.any(axis=1))


@dataclass(frozen=True)
class RunInfo:
    """What a run directory's ``run.json`` says about its samples."""

    path: Path
    variant: str
    players: int
    settings: dict[str, Any]


def read_run_info(run_dir: str | os.PathLike[str]) -> RunInfo:
    """Reads ``run.json`` of a self-play run directory.

    Raises:
        ShardError: The directory or its ``run.json`` is missing or lacks
            ``variant`` / ``players``.
    """
    path = Path(run_dir)
    if not path.is_dir():
        raise ShardError(f"{path}: not a directory of self-play shards")
    meta = path / "run.json"
    try:
        settings = json.loads(meta.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ShardError(f"{path}: no run.json (not a self-play run directory)") from None
    except json.JSONDecodeError as exc:
        raise ShardError(f"{meta}: not valid JSON ({exc})") from None
    if not isinstance(settings, dict):
        raise ShardError(f"{meta}: expected a JSON object")
    variant = settings.get("variant")
    players = settings.get("players")
    if not isinstance(variant, str) or not isinstance(players, int):
        raise ShardError(f"{meta}: needs a string 'variant' and an integer 'players'")
    return RunInfo(path, variant, players, settings)


def shard_paths(run_dir: str | os.PathLike[str]) -> list[Path]:
    """The shards of a run directory in order."""
    return sorted(Path(run_dir).glob("shard-*.npz"))


def _check_shard(
    path: Path, arrays: dict[str, Any], obs_size: int, num_actions: int, players: int
) -> None:
    for key, dtype in {**SHARD_KEYS, **OPTIONAL_SHARD_KEYS}.items():
        if key not in arrays:
            raise ShardError(f"{path}: missing array '{key}'")
        if arrays[key].dtype != dtype:
            raise ShardError(
                f"{path}: array '{key}' is {arrays[key].dtype}, expected {np.dtype(dtype)}"
            )
    n = arrays["obs"].shape[0]
    if n and (arrays["player"].min() < 0 or arrays["player"].max() >= players):
        raise ShardError(f"{path}: array 'player' must hold seats between 0 and {players - 1}")
    want = {
        "obs": (n, obs_size),
        "mask": (n, num_actions),
        "policy": (n, num_actions),
        "returns": (n, players),
        "points": (n, players),
        "q": (n,),
        "game": (n,),
        "ply": (n,),
        "player": (n,),
    }
    for key, shape in want.items():
        if arrays[key].shape != shape:
            raise ShardError(
                f"{path}: array '{key}' has shape {arrays[key].shape}, expected {shape}"
            )
    g = arrays["game_ids"].shape
    if len(g) != 1 or arrays["game_seeds"].shape != g:
        raise ShardError(f"{path}: 'game_ids' and 'game_seeds' must be 1-D of equal length")
    if not np.isin(arrays["game"], arrays["game_ids"]).all():
        raise ShardError(f"{path}: a sample's 'game' is not among the shard's 'game_ids'")
    if not np.isfinite(arrays["obs"]).all():
        raise ShardError(f"{path}: 'obs' holds NaN or infinite values")
    mask, policy, returns = arrays["mask"], arrays["policy"], arrays["returns"]
    legal = mask.sum(axis=1)
    if n and legal.min() < 2:
        row = int(np.argmin(legal))
        raise ShardError(f"{path}: sample {row} has {legal[row]} legal actions (need two or more)")
    if not np.isfinite(policy).all() or (policy < 0).any():
        raise ShardError(f"{path}: 'policy' holds negative, NaN or infinite values")
    off_mask = np.flatnonzero((policy * ~mask).any(axis=1))
    if off_mask.size:
        raise ShardError(f"{path}: sample {off_mask[0]} has policy mass on an illegal action")
    bad_sum = np.flatnonzero(np.abs(policy.sum(axis=1) - 1.0) > POLICY_SUM_TOLERANCE)
    if bad_sum.size:
        raise ShardError(f"{path}: sample {bad_sum[0]}'s policy does not sum to 1")
    if not np.isfinite(returns).all() or (returns < 0).any():
        raise ShardError(f"{path}: 'returns' holds negative, NaN or infinite values")
    points = arrays["points"]
    if (points < 0).any() or np.isinf(points).any():
        raise ShardError(f"{path}: 'points' holds negative or infinite values")
    q = arrays["q"]
    if ((q < 0) | (q > 1) | np.isinf(q)).any():
        raise ShardError(f"{path}: 'q' holds values that are not between 0 and 1")
    sums = returns.sum(axis=1)
    bad_returns = np.flatnonzero((sums != 0) & (np.abs(sums - 1.0) > POLICY_SUM_TOLERANCE))
    if bad_returns.size:
        raise ShardError(
            f"{path}: sample {bad_returns[0]}'s returns sum to {sums[bad_returns[0]]}, "
            "expected 1 (or all zero for a truncated game)"
        )


def read_shard(
    path: str | os.PathLike[str], obs_size: int, num_actions: int, players: int
) -> dict[str, Any]:
    """Reads one shard and checks it against the spec.

    Raises:
        ShardError: Unreadable file, a missing array, a wrong dtype or shape, or
            targets that are not distributions over the legal actions.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
    except FileNotFoundError:
        raise ShardError(f"{path}: no such shard") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ShardError(f"{path}: not a readable .npz shard ({exc})") from None
    if "q" not in arrays and "obs" in arrays:
        # A shard from before the search value was recorded.
        arrays["q"] = np.full(arrays["obs"].shape[0], np.nan, dtype=np.float32)
    if "points" not in arrays and "obs" in arrays:
        # ... or the final points.
        arrays["points"] = np.full((arrays["obs"].shape[0], players), np.nan, dtype=np.float32)
    _check_shard(path, arrays, obs_size, num_actions, players)
    return arrays


def variant_sizes(variant: str, players: int) -> tuple[int, int]:
    """``(OBSERVATION_SIZE, NUM_ACTIONS)`` of a variant at a player count."""
    import splendor

    state = splendor.new_game(variant, players=players, seed=0)
    return int(state.observation_size), int(state.num_actions)


def next_search_values(
    game_key: npt.NDArray[np.int64],
    ply: npt.NDArray[np.int64],
    player: npt.NDArray[np.int64],
    q: npt.NDArray[np.float32],
    players: int,
) -> npt.NDArray[np.float32]:
    """Each seat's search value at or after each decision, rotated to the mover.

    Column ``k`` of row ``i`` is ``q`` of the next decision (at the same ply or
    later, in the same game) taken by the seat ``k`` places after row ``i``'s
    mover: that seat's own search's estimate of its chances, a few moves on.
    Column 0 is the row's own ``q``. NaN where the seat has no later decision in
    the game (or its ``q`` is unknown).
    """
    n = q.shape[0]
    out = np.full((n, players), np.nan, dtype=np.float32)
    if n == 0:
        return out
    order = np.lexsort((ply, game_key))
    g, who, qs = game_key[order], player[order], q[order]
    rows = np.arange(n)
    sentinel = n
    for seat in range(players):
        # The smallest sorted row >= i whose mover is `seat`: a reversed running minimum.
        candidate = np.where(who == seat, rows, sentinel)
        nxt = np.minimum.accumulate(candidate[::-1])[::-1]
        found = nxt < sentinel
        same_game = np.zeros(n, dtype=bool)
        same_game[found] = g[nxt[found]] == g[found]
        value = np.full(n, np.nan, dtype=np.float32)
        value[same_game] = qs[nxt[same_game]]
        column = (seat - who) % players
        out[order, column] = value
    return out


def blend_search_value(
    returns: npt.NDArray[np.float32],
    q: npt.NDArray[np.float32],
    weight: float,
    seat_q: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """The value target ``(1 - weight) * returns + weight * search``.

    ``search`` gives the mover the search's root value ``q`` and shares ``1 - q``
    among the other seats. With two players that is exactly ``1 - q`` for the
    other seat. With three or four, an even split would teach the value head that
    every opponent is equally placed whatever the board says, and the search, which
    backs up each seat's value, could not tell a leading opponent from a trailing
    one. So the share of each other seat follows ``seat_q`` (see
    :func:`next_search_values`: that seat's own search value at its next decision)
    where known, else what the seat won in a decided game; evenly when neither
    says anything. Rows without a search value (NaN ``q``, from older shards) keep
    their returns; rows of truncated games (all-zero returns) take the search value
    alone, so they gain a target. Every row still sums to 1 (or 0 when it has
    neither).
    """
    if weight == 0.0:
        return returns
    players = returns.shape[1]
    known = ~np.isnan(q)
    search = np.empty_like(returns)
    search[:, 0] = np.where(known, q, 0.0)
    decided = returns.sum(axis=1) > 0
    if players > 1:
        others = returns[:, 1:].astype(np.float64)
        if seat_q is not None:
            # A decided game's result fills in for a seat with no later decision.
            later = seat_q[:, 1:].astype(np.float64)
            others = np.where(np.isnan(later), others, later)
            others = np.where(np.isnan(others), 0.0, others)
        total = others.sum(axis=1, keepdims=True)
        share = np.where(total > 0, others / np.where(total > 0, total, 1.0), 1.0 / (players - 1))
        search[:, 1:] = np.where(known, 1.0 - q, 0.0)[:, None] * share
    blended = np.where(decided[:, None], (1.0 - weight) * returns + weight * search, search)
    return np.asarray(np.where(known[:, None], blended, returns), dtype=np.float32)


def load_runs(
    run_dirs: Sequence[str | os.PathLike[str]],
    *,
    window: int | None = None,
    value_q_weight: float = 0.0,
) -> tuple[Samples, RunInfo]:
    """Loads every shard of ``run_dirs`` (oldest first) and keeps the last ``window`` samples.

    All runs must be of one variant and player count. ``value_q_weight`` blends
    the search's root value into the value target (:func:`blend_search_value`).

    Returns:
        The samples and the first run's information.

    Raises:
        ShardError: No runs, runs of different variants, or a bad shard.
    """
    if not run_dirs:
        raise ShardError("no self-play run directories given")
    infos = [read_run_info(d) for d in run_dirs]
    first = infos[0]
    for info in infos[1:]:
        if (info.variant, info.players) != (first.variant, first.players):
            raise ShardError(
                f"{info.path}: {info.variant}/{info.players} players differs from "
                f"{first.path}: {first.variant}/{first.players} players"
            )
    obs_size, num_actions = variant_sizes(first.variant, first.players)
    parts: list[dict[str, Any]] = []
    for run_index, info in enumerate(infos):
        for path in shard_paths(info.path):
            arrays = read_shard(path, obs_size, num_actions, first.players)
            arrays["game_key"] = (np.int64(run_index) << np.int64(40)) + arrays["game"]
            parts.append(arrays)
    if not parts:
        raise ShardError(f"no shards in {', '.join(str(i.path) for i in infos)}")
    total = sum(p["obs"].shape[0] for p in parts)
    # Drop whole old shards first so the window never copies more than it keeps.
    if window is not None and window < total:
        while parts and total - parts[0]["obs"].shape[0] >= window:
            total -= parts.pop(0)["obs"].shape[0]

    def gather(key: str) -> npt.NDArray[Any]:
        # Each shard's copy is let go as soon as it is joined, so loading peaks near one
        # copy of the data plus its largest array, not two copies.
        joined = np.concatenate([p[key] for p in parts])
        for p in parts:
            del p[key]
        return joined

    obs, mask, policy = gather("obs"), gather("mask"), gather("policy")
    q = gather("q")
    game_key = gather("game_key")
    samples = Samples(
        obs=obs,
        mask=mask,
        policy=policy,
        returns=blend_search_value(
            gather("returns"),
            q,
            value_q_weight,
            next_search_values(
                game_key,
                gather("ply").astype(np.int64),
                gather("player").astype(np.int64),
                q,
                first.players,
            ),
        ),
        game_key=game_key,
        points=gather("points"),
    )
    if window is not None and len(samples) > window:
        samples = samples.subset(slice(len(samples) - window, None))
    if len(samples) == 0:
        raise ShardError(f"the shards of {', '.join(str(i.path) for i in infos)} hold no samples")
    return samples, first


def _mix(x: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser: a well-spread hash of each key."""
    z = x.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.asarray(z ^ (z >> np.uint64(31)))


def split_rows_by_game(
    game_key: npt.NDArray[np.int64], validation_fraction: float
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rows for training and rows held out for validation; a game's rows all go to one side.

    The side of a game depends only on its key, so it does not change when the
    replay window moves.
    """
    if not 0.0 <= validation_fraction < 1.0:
        raise ValueError(f"validation fraction must be in [0, 1), got {validation_fraction}")
    with np.errstate(over="ignore"):
        bucket = _mix(game_key) % np.uint64(1_000_000)
    held_out = bucket < np.uint64(int(validation_fraction * 1_000_000))
    return np.flatnonzero(~held_out), np.flatnonzero(held_out)


def split_by_game(samples: Samples, validation_fraction: float) -> tuple[Samples, Samples]:
    """Training and validation samples (copies of the rows of :func:`split_rows_by_game`)."""
    train_rows, validation_rows = split_rows_by_game(samples.game_key, validation_fraction)
    return samples.subset(train_rows), samples.subset(validation_rows)


def row_blocks(
    array: npt.NDArray[Any], rows: npt.NDArray[np.int64] | None = None
) -> Iterator[npt.NDArray[Any]]:
    """``array`` (or its ``rows``) in blocks of :data:`NORMALIZATION_BLOCK_ROWS` rows."""
    count = array.shape[0] if rows is None else rows.shape[0]
    for start in range(0, count, NORMALIZATION_BLOCK_ROWS):
        stop = start + NORMALIZATION_BLOCK_ROWS
        yield array[start:stop] if rows is None else array[rows[start:stop]]


def column_statistics(
    blocks: Callable[[], Iterable[npt.NDArray[np.float32]]],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Shift (the mean) and scale (1 / standard deviation) of each column of the rows
    that ``blocks()`` yields, in two passes, accumulated in float64.

    Measuring block by block means a large window needs no float64 copy of itself
    (nor of the features computed from it). A column that is (nearly) constant gets
    scale 1, so a value never seen in training is not blown up.
    """
    count = 0
    total: npt.NDArray[np.float64] | None = None
    for block in blocks():
        part = block.sum(axis=0, dtype=np.float64)
        total = part if total is None else total + part
        count += block.shape[0]
    if total is None or count == 0:
        raise ValueError("input statistics need at least one row")
    mean = total / count
    squares = np.zeros_like(mean)
    for block in blocks():
        squares += np.square(block.astype(np.float64) - mean).sum(axis=0)
    std = np.sqrt(squares / count)
    scale = np.where(std > MIN_SCALE_STD, 1.0 / np.maximum(std, MIN_SCALE_STD), 1.0)
    return mean.astype(np.float32), scale.astype(np.float32)


def input_normalization(
    obs: npt.NDArray[np.float32], rows: npt.NDArray[np.int64] | None = None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Input shift and scale of each feature of ``obs`` (or of its ``rows``); see
    :func:`column_statistics`."""
    return column_statistics(lambda: row_blocks(obs, rows))


class BatchSampler:
    """Minibatches over a sample set: shuffled epochs from a seeded generator.

    Its state (generator state, current permutation, position) is part of a
    checkpoint, so a resumed run draws the same batches it would have drawn.
    """

    def __init__(self, size: int, batch_size: int, seed: int) -> None:
        if size < 1 or batch_size < 1:
            raise ValueError("a batch sampler needs samples and a positive batch size")
        self.size = size
        self.batch_size = min(batch_size, size)
        self.generator = torch.Generator().manual_seed(seed)
        self.order = torch.randperm(size, generator=self.generator)
        self.position = 0

    def next_rows(self) -> npt.NDArray[np.int64]:
        """The rows of the next minibatch."""
        if self.position + self.batch_size > self.size:
            self.order = torch.randperm(self.size, generator=self.generator)
            self.position = 0
        rows = self.order[self.position : self.position + self.batch_size]
        self.position += self.batch_size
        return np.asarray(rows.numpy(), dtype=np.int64)

    def state_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "generator": self.generator.get_state(),
            "order": self.order.clone(),
            "position": self.position,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state["size"] != self.size:
            raise ValueError("the checkpoint's sampler is for a different number of samples")
        self.generator.set_state(state["generator"])
        self.order = state["order"]
        self.position = int(state["position"])


def batches(samples: Samples, batch_size: int) -> Iterator[Samples]:
    """Consecutive minibatches in order (for evaluation)."""
    for start in range(0, len(samples), batch_size):
        yield samples.subset(slice(start, start + batch_size))
