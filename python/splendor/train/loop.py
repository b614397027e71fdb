"""The training loop: generate -> train -> export -> gate -> evaluate -> repeat.

A run directory holds everything a run makes and needs to resume::

    run.json                 settings and seeds (written once)
    metrics.jsonl            one record per logged training step and per iteration
    checkpoint.pt            model, optimizer, iteration, phase, sampler and RNG states
    selfplay/gen-NNNN/       self-play shards of iteration N (``splendor.selfplay``)
    nets/candidate-NNNN.safetensors   the network trained in iteration N
    best.safetensors         the current best network (plays the self-play games)
    plots/{loss,gate,strength}.png    learning curves

Each iteration moves through phases; the checkpoint records the last phase
finished, so ``resume`` repeats at most the phase in progress (and inside the
training phase, at most ``checkpoint_every`` steps).
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import math
import os
import random
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn
from tqdm import tqdm

import splendor
from splendor.errors import ConfigError
from splendor.reference.rng import SplitMix64
from splendor.train.data import (
    BatchSampler,
    Samples,
    batches,
    column_statistics,
    input_normalization,
    load_runs,
    read_run_info,
    row_blocks,
    split_rows_by_game,
    variant_sizes,
)
from splendor.train.errors import ShardError
from splendor.train.features import FEATURE_SETS
from splendor.train.losses import points_loss, policy_loss, value_loss
from splendor.train.model import NetworkShape, PolicyValueNet
from splendor.train.model import load as load_network
from splendor.train.plots import plot_metrics
from splendor.train.symmetry import AUGMENTATIONS, COLOUR_NAMES, colour_symmetry

RUN_FORMAT = "splendor-train/1"
PHASES = ("start", "generated", "trained", "gated", "done")
"""The phases of an iteration, in order; the checkpoint holds the last one finished."""


LR_SCHEDULES = ("cosine", "constant")
"""The learning-rate schedules of a training phase (:func:`learning_rate_at`)."""


@dataclass
class TrainConfig:
    """Every setting of a training run (recorded in ``run.json``)."""

    variant: str = "base"
    players: int = 2
    seed: int = 0
    iterations: int = 10
    """Loop iterations (generate, train, export, gate, evaluate)."""
    hidden: tuple[int, ...] = (256, 256)
    features: str = "raw"
    """The network's input feature set: ``raw`` or ``needs`` (``docs/network.md``)."""
    # --- generation ---
    generate: bool = True
    """Play self-play games each iteration (False: train only on ``data``)."""
    games_per_iteration: int = 200
    selfplay_search_iterations: int = 400
    """Search iterations per move in self-play."""
    selfplay_options: dict[str, Any] = field(default_factory=dict)
    """Extra keyword arguments for ``splendor.selfplay`` (exploration settings, ...)."""
    data: tuple[str, ...] = ()
    """Existing self-play run directories, always in the replay pool (oldest first)."""
    window: int = 300_000
    """The replay window: train on the most recent this many samples."""
    value_q_weight: float = 0.0
    """Weight of the search's root value in the value target (0: the game's result only)."""
    init: str | None = None
    """A network file to start from (its weights and input normalisation; same variant,
    players, widths and features): a warm start from an earlier generation. ``None``:
    random weights, the normalisation measured on the first data."""
    points_weight: float = 0.0
    """Weight of an auxiliary head's loss that predicts each seat's final points from the
    trunk (0: no such head). The head is used in training only; the exported network
    has the policy and value heads alone."""
    augment: str = "none"
    """``colours``: show each training sample under a random renaming of the five card
    colours (:mod:`splendor.train.symmetry`); ``none``: as played."""
    # --- training ---
    steps_per_iteration: int = 1000
    batch_size: int = 256
    learning_rate: float = 1e-3
    lr_schedule: str = "cosine"
    """``cosine``: each iteration's training phase decays the learning rate from
    ``learning_rate`` to 0 along half a cosine (docs/training.md measures it against a
    constant rate); ``constant``: ``learning_rate`` throughout."""
    l2: float = 1e-3
    """L2 penalty (Adam's coupled weight decay: adds ``l2 * w`` to each gradient)."""
    validation_fraction: float = 0.05
    """Share of games held out to measure the validation losses."""
    checkpoint_every: int = 250
    log_every: int = 50
    # --- gate ---
    gate_games: int = 200
    """Games of candidate vs best (0: every candidate is accepted)."""
    gate_search_iterations: int = 200
    gate_threshold: float = 0.55
    """The candidate's win rate must reach this ..."""
    gate_min_lower: float = 0.5
    """... and the lower end of its Wilson 95% interval must exceed this."""
    # --- evaluation ---
    eval_every: int = 1
    """Measure the best network against ``eval_opponents`` every this many iterations (0: never)."""
    eval_games: int = 100
    eval_search_iterations: int = 200
    eval_opponents: tuple[str, ...] = ("greedy", "mcts:1000")
    threads: int = 1
    """Threads for self-play and for the games of the gate and the evaluation."""
    torch_threads: int = 1
    """PyTorch's intra-op threads. One: on a shared 2-core machine two threads spin-wait on
    each other and a training step of the 256x2 network took 760 ms instead of 29 ms."""
    turn_cap: int = 100

    def validate(self) -> None:
        """Raises ConfigError on a setting that cannot work."""
        positive = {
            "players": self.players,
            "iterations": self.iterations,
            "batch_size": self.batch_size,
            "window": self.window,
            "checkpoint_every": self.checkpoint_every,
            "log_every": self.log_every,
            "threads": self.threads,
            "torch_threads": self.torch_threads,
            "selfplay_search_iterations": self.selfplay_search_iterations,
            "gate_search_iterations": self.gate_search_iterations,
            "eval_search_iterations": self.eval_search_iterations,
        }
        for name, value in positive.items():
            if value < 1:
                raise ConfigError(f"{name} must be positive, got {value}")
        for name, value in {
            "steps_per_iteration": self.steps_per_iteration,
            "gate_games": self.gate_games,
            "eval_every": self.eval_every,
            "eval_games": self.eval_games,
            "games_per_iteration": self.games_per_iteration,
        }.items():
            if value < 0:
                raise ConfigError(f"{name} must not be negative, got {value}")
        if not self.hidden or min(self.hidden) < 1:
            raise ConfigError(f"hidden widths must be positive, got {self.hidden}")
        if self.learning_rate <= 0 or self.l2 < 0:
            raise ConfigError("learning rate must be positive and l2 not negative")
        if self.lr_schedule not in LR_SCHEDULES:
            raise ConfigError(
                f"lr_schedule must be one of {', '.join(LR_SCHEDULES)}, got {self.lr_schedule!r}"
            )
        if not (math.isfinite(self.points_weight) and self.points_weight >= 0.0):
            raise ConfigError(f"points_weight must be 0 or more, got {self.points_weight}")
        if not 0.0 <= self.value_q_weight <= 1.0:
            raise ConfigError(f"value_q_weight must be between 0 and 1, got {self.value_q_weight}")
        if self.augment not in AUGMENTATIONS:
            raise ConfigError(
                f"augment must be one of {', '.join(AUGMENTATIONS)}, got {self.augment!r}"
            )
        if self.augment == "colours" and self.variant not in COLOUR_NAMES:
            raise ConfigError(
                f"augment='colours' is defined for {', '.join(COLOUR_NAMES)}, not {self.variant}"
            )
        if not 0.0 <= self.validation_fraction < 1.0:
            raise ConfigError("validation_fraction must be in [0, 1)")
        if not self.generate and not self.data:
            raise ConfigError("without generation, give existing shard directories (data)")
        if self.generate and self.games_per_iteration < 1:
            raise ConfigError("games_per_iteration must be positive when generating")
        if self.variant not in splendor.VARIANTS:
            raise ConfigError(f"unknown variant {self.variant!r}")
        if self.features not in FEATURE_SETS:
            raise ConfigError(
                f"features must be one of {', '.join(FEATURE_SETS)}, got {self.features!r}"
            )

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["hidden"] = list(self.hidden)
        out["data"] = list(self.data)
        out["eval_opponents"] = list(self.eval_opponents)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise ConfigError(f"unknown training settings {', '.join(unknown)}")
        kwargs = dict(obj)
        # Runs recorded before the setting existed trained at a constant rate.
        kwargs.setdefault("lr_schedule", "constant")
        # ... and on the samples as played.
        kwargs.setdefault("augment", "none")
        # ... and without a points head, from random weights.
        kwargs.setdefault("points_weight", 0.0)
        kwargs.setdefault("init", None)
        for key in ("hidden", "data", "eval_opponents"):
            if key in kwargs:
                kwargs[key] = tuple(kwargs[key])
        return cls(**kwargs)


def derive_seed(seed: int, purpose: str, iteration: int = 0) -> int:
    """A seed for one use in one iteration.

    It is ``SplitMix64(seed ^ hash(purpose) ^ iteration * 0x9E3779B97F4A7C15).next_u64()``.

    ``hash(purpose)`` is the first 8 bytes (little-endian) of the SHA-256 of the
    purpose string, so the derivation is the same on every machine.
    """
    tag = int.from_bytes(hashlib.sha256(purpose.encode()).digest()[:8], "little")
    mixed = (seed ^ tag ^ (iteration * 0x9E3779B97F4A7C15)) & 0xFFFF_FFFF_FFFF_FFFF
    return SplitMix64(mixed).next_u64()


def sha256_file(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class LossTotals:
    """Running sums of the losses over training steps."""

    policy: float = 0.0
    value: float = 0.0
    steps: int = 0

    def add(self, policy: float, value: float) -> None:
        self.policy += policy
        self.value += value
        self.steps += 1

    def means(self) -> tuple[float | None, float | None]:
        if not self.steps:
            return None, None
        return self.policy / self.steps, self.value / self.steps


def evaluate_losses(
    model: PolicyValueNet, samples: Samples, batch_size: int = 4096
) -> tuple[float | None, float | None]:
    """Mean policy and value loss of ``model`` over ``samples`` (value: decided games only)."""
    if len(samples) == 0:
        return None, None
    model.eval()
    policy_sum = 0.0
    value_sum = 0.0
    decided_total = 0
    with torch.no_grad():
        for batch in batches(samples, batch_size):
            policy_logits, value_logits = model(torch.from_numpy(batch.obs))
            n = len(batch)
            policy_sum += (
                float(
                    policy_loss(
                        policy_logits, torch.from_numpy(batch.mask), torch.from_numpy(batch.policy)
                    )
                )
                * n
            )
            decided = int((~batch.truncated).sum())
            if decided:
                value_sum += (
                    float(value_loss(value_logits, torch.from_numpy(batch.returns))) * decided
                )
                decided_total += decided
    model.train()
    return policy_sum / len(samples), (value_sum / decided_total if decided_total else None)


def learning_rate_at(config: TrainConfig, step: int) -> float:
    """The learning rate of training step ``step`` (0-based) of an iteration.

    A pure function of the step, so a resumed run takes up the schedule where it stopped.
    """
    if config.lr_schedule == "constant" or config.steps_per_iteration == 0:
        return config.learning_rate
    progress = step / config.steps_per_iteration
    return config.learning_rate * 0.5 * (1.0 + math.cos(math.pi * progress))


def train_step(
    model: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    batch: Samples,
    points_head: nn.Linear | None = None,
    points_weight: float = 0.0,
) -> tuple[float, float]:
    """One Adam step on a minibatch; returns its policy and value losses.

    With ``points_head``, its squared error on the batch's final points, times
    ``points_weight``, is added to the loss (an auxiliary target for the trunk).
    """
    x = model.trunk_output(torch.from_numpy(batch.obs))
    policy_logits, value_logits = model.policy(x), model.value(x)
    p_loss = policy_loss(
        policy_logits, torch.from_numpy(batch.mask), torch.from_numpy(batch.policy)
    )
    v_loss = value_loss(value_logits, torch.from_numpy(batch.returns))
    loss = p_loss + v_loss
    if points_head is not None and batch.points is not None:
        loss = loss + points_weight * points_loss(points_head(x), torch.from_numpy(batch.points))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()  # type: ignore[no-untyped-call]
    optimizer.step()
    return float(p_loss.detach()), float(v_loss.detach())


def _rng_states() -> dict[str, Any]:
    return {
        "torch": torch.get_rng_state(),
        "numpy": np.random.get_state(),
        "python": random.getstate(),
    }


def _set_rng_states(states: dict[str, Any]) -> None:
    torch.set_rng_state(states["torch"])
    np.random.set_state(states["numpy"])
    random.setstate(states["python"])


def _match_progress(desc: str, show: bool) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    bar: tqdm[Any] | None = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if not show:
            return
        if bar is None:
            bar = tqdm(total=total, desc=desc, unit="game", leave=False)
        bar.n = done
        bar.refresh()

    def close() -> None:
        if bar is not None:
            bar.close()

    return update, close


def _bot_summary(result: Any, index: int) -> dict[str, Any]:
    bot = result.bots[index]
    return {
        "games": int(bot["games"]),
        "wins": float(bot["wins"]),
        "win_rate": float(bot["win_rate"]),
        "ci_low": float(bot["ci_low"]),
        "ci_high": float(bot["ci_high"]),
    }


class Trainer:
    """One training run in one run directory; see the module docstring."""

    def __init__(self, run_dir: Path, config: TrainConfig, *, progress: bool = True) -> None:
        self.run_dir = run_dir
        self.config = config
        self.progress = progress
        obs_size, num_actions = variant_sizes(config.variant, config.players)
        self.shape = NetworkShape(
            config.variant, config.players, obs_size, num_actions, config.hidden, config.features
        )
        torch.set_num_threads(config.torch_threads)
        torch.manual_seed(derive_seed(config.seed, "init"))
        self.model = PolicyValueNet(self.shape)
        self.points_head = (
            nn.Linear(config.hidden[-1], config.players) if config.points_weight > 0 else None
        )
        parameters = list(self.model.parameters())
        if self.points_head is not None:
            parameters += list(self.points_head.parameters())
        self.optimizer = torch.optim.Adam(
            parameters, lr=config.learning_rate, weight_decay=config.l2
        )
        self.init_sha256: str | None = None
        self.normalized = False
        if config.init is not None:
            self.start_from(config.init)
        self.iteration = 0
        self.phase = "start"
        self.step = 0
        """Training steps over the whole run."""
        self.iteration_step = 0
        """Training steps done in the current iteration."""
        self.best: str | None = None
        """The current best network: its candidate file, relative to the run directory.

        Self-play, gate and evaluation name that file, never the ``best.safetensors``
        copy, which later candidates overwrite: a generation's ``run.json`` must keep
        naming the network that played it, so it can be regenerated."""
        self.pending: dict[str, Any] = {}
        """The current iteration's metrics so far."""
        self.sampler_state: dict[str, Any] | None = None
        self.totals = LossTotals()

    # --- paths ---
    @property
    def checkpoint_path(self) -> Path:
        return self.run_dir / "checkpoint.pt"

    @property
    def metrics_path(self) -> Path:
        return self.run_dir / "metrics.jsonl"

    def selfplay_dir(self, iteration: int) -> Path:
        return self.run_dir / "selfplay" / f"gen-{iteration:04d}"

    def candidate_path(self, iteration: int) -> Path:
        return self.run_dir / "nets" / f"candidate-{iteration:04d}.safetensors"

    @property
    def best_path(self) -> Path:
        return self.run_dir / "best.safetensors"

    # --- persistence ---
    def save_checkpoint(self) -> None:
        state = {
            "format": RUN_FORMAT,
            "model": self.model.state_dict(),
            "points_head": None if self.points_head is None else self.points_head.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "iteration": self.iteration,
            "phase": self.phase,
            "step": self.step,
            "iteration_step": self.iteration_step,
            "normalized": self.normalized,
            "best": self.best,
            "pending": self.pending,
            "sampler": self.sampler_state,
            "totals": dataclasses.asdict(self.totals),
            "rng": _rng_states(),
        }
        tmp = self.checkpoint_path.with_suffix(".pt.tmp")
        torch.save(state, tmp)
        os.replace(tmp, self.checkpoint_path)

    def load_checkpoint(self) -> None:
        state = torch.load(self.checkpoint_path, weights_only=False)
        if state.get("format") != RUN_FORMAT:
            raise ConfigError(f"{self.checkpoint_path}: not a checkpoint of this trainer")
        self.model.load_state_dict(state["model"])
        if self.points_head is not None:
            self.points_head.load_state_dict(state["points_head"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.iteration = state["iteration"]
        self.phase = state["phase"]
        self.step = state["step"]
        self.iteration_step = state["iteration_step"]
        self.normalized = state["normalized"]
        self.best = state["best"]
        self.pending = state["pending"]
        self.sampler_state = state["sampler"]
        self.totals = LossTotals(**state["totals"])
        _set_rng_states(state["rng"])

    def start_from(self, path: str) -> None:
        """Loads the weights and input normalisation of network file ``path``.

        Raises:
            NetworkError: A bad network file.
            ConfigError: A network of another shape than this run's.
        """
        net, _ = load_network(path)
        if net.shape != self.shape:
            raise ConfigError(
                f"{path}: a {net.shape.variant} network for {net.shape.players} players, "
                f"hidden {','.join(map(str, net.shape.hidden))}, features {net.shape.features}; "
                f"this run trains {self.shape.variant} for {self.shape.players} players, "
                f"hidden {','.join(map(str, self.shape.hidden))}, features {self.shape.features}"
            )
        self.model.load_state_dict(net.state_dict())
        self.model.train()
        self.normalized = True  # the network's own, which its weights were trained under
        self.init_sha256 = sha256_file(path)

    def log(self, record: dict[str, Any]) -> None:
        with open(self.metrics_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")

    def provenance(self, iteration: int) -> dict[str, Any]:
        return {
            "trainer": RUN_FORMAT,
            "run": self.run_dir.name,
            "iteration": iteration,
            "step": self.step,
            "settings": self.config.to_json(),
            "selfplay": [str(p.relative_to(self.run_dir)) for p in self.selfplay_dirs(iteration)],
            "data": list(self.config.data),
            "init_sha256": self.init_sha256,
        }

    # --- phases ---
    def selfplay_dirs(self, up_to: int) -> list[Path]:
        if not self.config.generate:
            return []
        return [self.selfplay_dir(i) for i in range(up_to + 1)]

    def generate(self) -> None:
        """Self-play games of this iteration with the current best network (none: plain MCTS)."""
        config = self.config
        out = self.selfplay_dir(self.iteration)
        network = str(self.run_dir / self.best) if self.best else None
        seed = derive_seed(config.seed, "selfplay", self.iteration)
        update, close = _match_progress(f"self-play {self.iteration}", self.progress)
        started = time.monotonic()
        try:
            run_selfplay(
                out,
                variant=config.variant,
                players=config.players,
                games=config.games_per_iteration,
                seed=seed,
                network=network,
                iterations=config.selfplay_search_iterations,
                threads=config.threads,
                turn_cap=config.turn_cap,
                progress=update,
                **config.selfplay_options,
            )
        finally:
            close()
        self.pending["selfplay"] = {
            "dir": str(out.relative_to(self.run_dir)),
            "seed": seed,
            "network": self.best,
            "games": config.games_per_iteration,
            "seconds": time.monotonic() - started,
        }

    def input_normalization(
        self, obs: npt.NDArray[np.float32], rows: npt.NDArray[np.int64] | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Shift and scale of every input of the trunk over ``obs`` (or its ``rows``): the
        observation's columns, then the extras' (each column's statistics are its own, so
        the two parts are measured apart; the extras are computed block by block and never
        held for the whole window)."""
        shift, scale = input_normalization(obs, rows)
        extras = self.model.extras
        if extras is None:
            return shift, scale

        def extra_blocks() -> Iterator[npt.NDArray[np.float32]]:
            with torch.no_grad():
                for block in row_blocks(obs, rows):
                    yield extras(torch.from_numpy(np.ascontiguousarray(block))).numpy()

        extra_shift, extra_scale = column_statistics(extra_blocks)
        return np.concatenate([shift, extra_shift]), np.concatenate([scale, extra_scale])

    def train(self) -> None:
        """``steps_per_iteration`` Adam steps on the replay window, checkpointing as it goes."""
        config = self.config
        dirs = [*config.data, *(str(p) for p in self.selfplay_dirs(self.iteration))]
        samples, _ = load_runs(dirs, window=config.window, value_q_weight=config.value_q_weight)
        # Training batches are drawn through the training rows of the one loaded copy (a
        # copy of the training set would double the memory of a large window); only the
        # small validation set is copied out.
        train_rows, validation_rows = split_rows_by_game(
            samples.game_key, config.validation_fraction
        )
        validation_set = samples.subset(validation_rows)
        if len(train_rows) == 0:
            raise ConfigError("no training samples left after holding out validation games")
        if not self.normalized:
            # Fixed once, from the first data the network sees: later iterations keep
            # training the same weights, which a moving normalisation would undercut.
            shift, scale = self.input_normalization(samples.obs, train_rows)
            self.model.set_input_normalization(shift, scale)
            self.normalized = True
        sampler = BatchSampler(
            len(train_rows), config.batch_size, derive_seed(config.seed, "shuffle", self.iteration)
        )
        symmetry = (
            colour_symmetry(config.variant, config.players) if config.augment == "colours" else None
        )
        if self.sampler_state is not None and self.iteration_step > 0:
            sampler.load_state_dict(self.sampler_state)
        self.model.train()
        bar = tqdm(
            total=config.steps_per_iteration,
            initial=self.iteration_step,
            desc=f"train {self.iteration}",
            unit="step",
            disable=not self.progress,
            leave=False,
        )
        window = LossTotals()
        started = time.monotonic()
        first_step = self.iteration_step
        while self.iteration_step < config.steps_per_iteration:
            for group in self.optimizer.param_groups:
                group["lr"] = learning_rate_at(config, self.iteration_step)
            batch = samples.subset(train_rows[sampler.next_rows()])
            if symmetry is not None:
                # Seeded by the step, so a resumed run renames as the uninterrupted one would.
                rng = np.random.default_rng(derive_seed(config.seed, "augment", self.step))
                batch = symmetry.augment(batch, rng)
            p, v = train_step(
                self.model, self.optimizer, batch, self.points_head, config.points_weight
            )
            self.totals.add(p, v)
            window.add(p, v)
            self.step += 1
            self.iteration_step += 1
            bar.update(1)
            if self.step % config.log_every == 0:
                mean_p, mean_v = window.means()
                self.log(
                    {
                        "kind": "train",
                        "iteration": self.iteration,
                        "step": self.step,
                        "policy_loss": mean_p,
                        "value_loss": mean_v,
                    }
                )
                bar.set_postfix(policy=f"{mean_p:.3f}", value=f"{mean_v:.3f}")
                window = LossTotals()
            if self.iteration_step % config.checkpoint_every == 0:
                self.sampler_state = sampler.state_dict()
                self.save_checkpoint()
        bar.close()
        steps_done = self.iteration_step - first_step
        seconds = time.monotonic() - started
        mean_p, mean_v = self.totals.means()
        val_p, val_v = evaluate_losses(self.model, validation_set)
        self.pending.update(
            {
                "samples": len(samples),
                "train_samples": len(train_rows),
                "validation_samples": len(validation_set),
                "train_policy_loss": mean_p,
                "train_value_loss": mean_v,
                "validation_policy_loss": val_p,
                "validation_value_loss": val_v,
                "step": self.step,
                "train_seconds_per_step": seconds / steps_done if steps_done else None,
                "parameters": self.model.parameter_count(),
            }
        )
        candidate = self.candidate_path(self.iteration)
        candidate.parent.mkdir(parents=True, exist_ok=True)
        self.model.export(candidate, self.provenance(self.iteration))
        self.pending["candidate"] = str(candidate.relative_to(self.run_dir))

    def gate(self) -> None:
        """Candidate vs best over paired, seat-rotated deals; the winner becomes the best."""
        config = self.config
        candidate = self.candidate_path(self.iteration)
        gate: dict[str, Any] | None = None
        if self.best is None or config.gate_games == 0:
            accepted = True
        else:
            seed = derive_seed(config.seed, "gate", self.iteration)
            n = config.gate_search_iterations
            update, close = _match_progress(f"gate {self.iteration}", self.progress)
            try:
                result = splendor.match(
                    [f"net:{n}@{candidate}", f"net:{n}@{self.run_dir / self.best}"],
                    variant=config.variant,
                    players=config.players,
                    games=config.gate_games,
                    seed=seed,
                    threads=config.threads,
                    turn_cap=config.turn_cap,
                    progress=update,
                )
            finally:
                close()
            gate = _bot_summary(result, 0)
            accepted = (
                gate["win_rate"] >= config.gate_threshold and gate["ci_low"] > config.gate_min_lower
            )
            gate.update({"seed": seed, "threshold": config.gate_threshold, "accepted": accepted})
        if accepted:
            shutil.copyfile(candidate, self.best_path.with_suffix(".tmp"))
            os.replace(self.best_path.with_suffix(".tmp"), self.best_path)
            self.best = str(candidate.relative_to(self.run_dir))
            self.pending["best_from"] = self.iteration
        self.pending["gate"] = gate
        self.pending["accepted"] = accepted

    def evaluate(self) -> None:
        """The best network against each fixed opponent."""
        config = self.config
        if not config.eval_every or not config.eval_games or self.best is None:
            return
        if (self.iteration + 1) % config.eval_every and self.iteration + 1 != config.iterations:
            return
        strength = {}
        n = config.eval_search_iterations
        for k, opponent in enumerate(config.eval_opponents):
            seed = derive_seed(config.seed, f"eval:{opponent}", self.iteration)
            update, close = _match_progress(f"vs {opponent}", self.progress)
            try:
                result = splendor.match(
                    [f"net:{n}@{self.run_dir / self.best}", opponent],
                    variant=config.variant,
                    players=config.players,
                    games=config.eval_games,
                    seed=seed + k,
                    threads=config.threads,
                    turn_cap=config.turn_cap,
                    progress=update,
                )
            finally:
                close()
            strength[opponent] = {**_bot_summary(result, 0), "seed": seed + k}
        self.pending["strength"] = strength

    # --- the loop ---
    def run(self) -> Path:
        """Runs (or resumes) the loop to the end; returns the best network's path."""
        config = self.config
        while self.iteration < config.iterations:
            if self.phase == "start":
                if config.generate:
                    self.generate()
                self.phase = "generated"
                self.save_checkpoint()
            if self.phase == "generated":
                self.train()
                self.phase = "trained"
                self.sampler_state = None
                self.save_checkpoint()
            if self.phase == "trained":
                self.gate()
                self.phase = "gated"
                self.save_checkpoint()
            if self.phase == "gated":
                self.evaluate()
                self.log({"kind": "iteration", "iteration": self.iteration, **self.pending})
                plot_metrics(self.metrics_path, self.run_dir / "plots")
                self.phase = "done"
                self.save_checkpoint()
            self.iteration += 1
            self.iteration_step = 0
            self.totals = LossTotals()
            self.pending = {}
            self.phase = "start"
            self.save_checkpoint()
        return self.best_path


def run_selfplay(out: Path, *, variant: str, network: str | None, **kwargs: Any) -> None:
    """Plays self-play games into ``out`` with ``splendor.selfplay`` (resuming a partial run)."""
    from splendor.selfplay import selfplay

    if network is not None:
        if "network" not in inspect.signature(selfplay).parameters:
            raise ConfigError(
                "this build's splendor.selfplay cannot play with a network; train from "
                "existing shards (--data DIR --no-generate)"
            )
        kwargs["network"] = network
    selfplay(variant, out, **kwargs)


def train(config: TrainConfig, run_dir: str | os.PathLike[str], *, progress: bool = True) -> Path:
    """Starts a training run in a new (or empty) directory and runs it to the end.

    Returns:
        The path of the best network.

    Raises:
        ConfigError: Bad settings, or ``run_dir`` already holds a run.
        ShardError: A ``data`` directory is not a self-play run directory, or holds
            games of another variant or player count than ``config``.
    """
    config.validate()
    for data in config.data:
        # A missing, foreign or other game's directory fails before the run starts.
        info = read_run_info(data)
        if (info.variant, info.players) != (config.variant, config.players):
            raise ShardError(
                f"{info.path}: its games are {info.variant} with {info.players} players, "
                f"this run is {config.variant} with {config.players} "
                f"(give --variant {info.variant} --players {info.players})"
            )
    path = Path(run_dir)
    if (path / "run.json").exists():
        raise ConfigError(f"{path} already holds a run; continue it with resume({str(path)!r})")
    path.mkdir(parents=True, exist_ok=True)
    record = {
        "format": RUN_FORMAT,
        "settings": config.to_json(),
        "seeds": {
            "run": config.seed,
            "init": derive_seed(config.seed, "init"),
            "derivation": "derive_seed(run, purpose, iteration) for purpose in "
            "selfplay, shuffle, gate, eval:<opponent>; derive_seed(run, 'augment', step) "
            "renames a training step's samples",
        },
        "splendor": splendor.__version__,
        "torch": torch.__version__,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (path / "run.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    trainer = Trainer(path, config, progress=progress)
    trainer.save_checkpoint()
    return trainer.run()


def resume(run_dir: str | os.PathLike[str], *, progress: bool = True) -> Path:
    """Continues an interrupted run from its checkpoint.

    Raises:
        ConfigError: ``run_dir`` holds no run or no checkpoint.
    """
    path = Path(run_dir)
    try:
        record = json.loads((path / "run.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path} holds no training run (no run.json)") from None
    config = TrainConfig.from_json(record["settings"])
    trainer = Trainer(path, config, progress=progress)
    if not trainer.checkpoint_path.exists():
        raise ConfigError(f"{path} has no checkpoint.pt to resume from")
    trainer.load_checkpoint()
    return trainer.run()


def parse_hidden(text: str) -> tuple[int, ...]:
    """``"256,256"`` -> ``(256, 256)``."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"bad hidden widths {text!r}: expected e.g. 256,256") from None
    if not widths or min(widths) < 1:
        raise ConfigError(f"bad hidden widths {text!r}: expected e.g. 256,256")
    return widths


def data_dirs(paths: Sequence[str]) -> tuple[str, ...]:
    """Run directories among ``paths``: each path itself if it holds ``run.json``,
    else its subdirectories that do (sorted), so a folder of runs can be given."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if (path / "run.json").exists() or not path.is_dir():
            out.append(str(path))
        else:
            out.extend(str(d) for d in sorted(path.iterdir()) if (d / "run.json").exists())
    return tuple(out)
