"""Learning curves of a training run, drawn from its ``metrics.jsonl`` as PNG files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

PLOT_FILES = ("loss.png", "gate.png", "strength.png")
"""The files :func:`plot_metrics` writes."""


def read_metrics(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a metrics file, in order (a torn last line is skipped)."""
    records: list[dict[str, Any]] = []
    file = Path(path)
    if not file.exists():
        return records
    for line in file.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def _loss_figure(records: list[dict[str, Any]]) -> Figure:
    fig = Figure(figsize=(9, 4), layout="constrained")
    axes = fig.subplots(1, 2)
    steps = [r for r in records if r.get("kind") == "train"]
    iterations = [r for r in records if r.get("kind") == "iteration"]
    for ax, head in zip(axes, ("policy", "value"), strict=True):
        ax.plot(
            [r["step"] for r in steps],
            [r[f"{head}_loss"] for r in steps],
            label="training (running mean)",
            linewidth=1,
        )
        validated = [r for r in iterations if r.get(f"validation_{head}_loss") is not None]
        ax.plot(
            [r["step"] for r in validated],
            [r[f"validation_{head}_loss"] for r in validated],
            "o-",
            label="validation (held-out games)",
        )
        ax.set_title(f"{head} loss (cross-entropy)")
        ax.set_xlabel("training step")
        ax.grid(alpha=0.3)
        ax.legend()
    return fig


def _gate_figure(records: list[dict[str, Any]]) -> Figure:
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.subplots()
    gates = [r for r in records if r.get("kind") == "iteration" and r.get("gate")]
    xs = [r["iteration"] for r in gates]
    rates = [r["gate"]["win_rate"] for r in gates]
    low = [max(0.0, r["gate"]["win_rate"] - r["gate"]["ci_low"]) for r in gates]
    high = [max(0.0, r["gate"]["ci_high"] - r["gate"]["win_rate"]) for r in gates]
    ax.errorbar(xs, rates, yerr=[low, high], fmt="o", capsize=3, label="candidate vs best")
    accepted = [r for r in gates if r["gate"]["accepted"]]
    ax.plot(
        [r["iteration"] for r in accepted],
        [r["gate"]["win_rate"] for r in accepted],
        "g*",
        markersize=12,
        label="accepted",
    )
    if gates:
        ax.axhline(gates[-1]["gate"]["threshold"], color="grey", linestyle="--", label="threshold")
    ax.axhline(0.5, color="black", linewidth=0.5)
    ax.set_ylim(0, 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("gate: win rate with Wilson 95% interval")
    ax.set_xlabel("iteration")
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


def _strength_figure(records: list[dict[str, Any]]) -> Figure:
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.subplots()
    series: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for r in records:
        if r.get("kind") == "iteration":
            for opponent, result in (r.get("strength") or {}).items():
                series.setdefault(opponent, []).append((r["iteration"], result))
    for opponent, points in series.items():
        ax.errorbar(
            [i for i, _ in points],
            [p["win_rate"] for _, p in points],
            yerr=[
                [max(0.0, p["win_rate"] - p["ci_low"]) for _, p in points],
                [max(0.0, p["ci_high"] - p["win_rate"]) for _, p in points],
            ],
            fmt="o-",
            capsize=3,
            label=f"vs {opponent}",
        )
    ax.axhline(0.5, color="black", linewidth=0.5)
    ax.set_ylim(0, 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("best network vs fixed opponents (Wilson 95%)")
    ax.set_xlabel("iteration")
    ax.grid(alpha=0.3)
    if series:
        ax.legend()
    return fig


def plot_metrics(metrics: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Draws ``loss.png``, ``gate.png`` and ``strength.png`` from a metrics file.

    Returns:
        The files written.
    """
    records = read_metrics(metrics)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in zip(PLOT_FILES, (_loss_figure, _gate_figure, _strength_figure), strict=True):
        path = out / name
        draw(records).savefig(path, dpi=100)
        written.append(path)
    return written
