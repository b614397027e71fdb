"""Throughput and per-chunk overhead of ``splendor.distributed``:
``python benches/bench_distributed.py``.

Each row starts a fresh local Ray cluster with the given CPUs (its start-up
time is reported apart, not counted), runs one distributed match or self-play
run into a new folder, and reports wall time, games per second and chunks per
second. The rows:

The CPU column is per game: this process's CPU time for the local rows, the
workers' CPU time in their chunks (``cpu_seconds`` of each JSON line) for a
Ray match; it does not count waiting for a core, so it is the figure to plan
capacity with on a shared machine.

- ``overhead``: random bots (a game takes about a millisecond) cut into chunks
  of 1 .. all games, so the difference in wall time between chunk sizes is the
  cost of a chunk: a Ray task, its JSON line and its ``fsync``;
- ``match``: ``mcts:200`` against ``greedy`` (``--match-games``), chunks of 1 and
  of the default size, with 1 and 2 CPUs, next to the
  single-machine ``splendor.match`` with as many threads;
- ``selfplay``: self-play at ``--iterations`` per decision in chunks of the
  default size, with 1 and 2 CPUs, and the bytes of shard per game (what a
  cluster writes per game).

On a shared machine the wall time includes waiting for a core: report
``uptime`` with the figures.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ray
import splendor
from splendor import distributed
from splendor import selfplay as local_selfplay


def worker_pid() -> int:
    return os.getpid()


@contextmanager
def local_cluster(cpus: int) -> Iterator[float]:
    """A fresh local Ray cluster with ``cpus`` CPUs; yields its start-up time."""
    start = time.perf_counter()
    ray.init(
        num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False
    )
    # A first task starts the workers, so the rows do not pay for it.
    ray.get([ray.remote(worker_pid).remote() for _ in range(cpus)])
    try:
        yield time.perf_counter() - start
    finally:
        ray.shutdown()


def timed(run: Callable[..., object], *args: Any, **kwargs: Any) -> tuple[float, float]:
    """Wall and CPU seconds (this process, every thread) of ``run(*args, **kwargs)``."""
    start, cpu = time.perf_counter(), time.process_time()
    run(*args, **kwargs)
    return time.perf_counter() - start, time.process_time() - cpu


def row(
    what: str, cpus: int, chunk: int | str, games: int, chunks: int, seconds: float, cpu: float
) -> None:
    print(
        f"| {what} | {cpus} | {chunk} | {games} | {seconds:.2f} | {games / seconds:.1f} "
        f"| {chunks / seconds:.1f} | {1000 * cpu / games:.1f} |",
        flush=True,
    )


def worker_cpu(out: Path) -> float:
    """CPU seconds the workers spent in a distributed match's chunks."""
    return sum(float(r["cpu_seconds"]) for r in distributed.load_results(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--overhead-games", type=int, default=1000)
    parser.add_argument("--match-games", type=int, default=200)
    parser.add_argument("--selfplay-games", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=800, help="self-play iterations")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-distributed-"))
    try:
        print("| run | CPUs | chunk | games | wall s | games/s | chunks/s | CPU ms/game |")
        print("|---|---|---|---|---|---|---|---|")
        n = args.overhead_games
        for cpus in (1, 2):
            with local_cluster(cpus) as startup:
                print(f"| (cluster start-up) | {cpus} | | | {startup:.2f} | | | |", flush=True)
                for chunk in (1, 10, 100, n):
                    out = work / f"overhead-{cpus}-{chunk}"
                    chunks = -(-n // chunk)
                    seconds, _ = timed(
                        distributed.match, ["random", "random"], out, games=n, chunk_size=chunk
                    )
                    row("overhead", cpus, chunk, n, chunks, seconds, worker_cpu(out))
        bots = ["mcts:200", "greedy"]
        m = args.match_games
        for cpus in (1, 2):
            seconds, cpu = timed(splendor.match, bots, games=m, threads=cpus)
            row("match, local", cpus, "-", m, 1, seconds, cpu)
            with local_cluster(cpus):
                for chunk in (1, distributed.MATCH_CHUNK):
                    out = work / f"match-{cpus}-{chunk}"
                    seconds, _ = timed(distributed.match, bots, out, games=m, chunk_size=chunk)
                    chunks = -(-m // chunk)
                    row("match, Ray", cpus, chunk, m, chunks, seconds, worker_cpu(out))
        s = args.selfplay_games
        iterations = args.iterations
        for cpus in (1, 2):
            out = work / f"selfplay-local-{cpus}"
            seconds, cpu = timed(
                local_selfplay.selfplay, "base", out, games=s, threads=cpus, iterations=iterations
            )
            row("selfplay, local", cpus, "-", s, 1, seconds, cpu)
            with local_cluster(cpus):
                out = work / f"selfplay-{cpus}"
                chunk = distributed.SELFPLAY_CHUNK
                seconds, _ = timed(
                    distributed.selfplay,
                    "base",
                    out,
                    games=s,
                    chunk_size=chunk,
                    iterations=iterations,
                )
                row("selfplay, Ray", cpus, chunk, s, -(-s // chunk), seconds, float("nan"))
            size = sum(p.stat().st_size for p in local_selfplay.shard_files(out))
            data = local_selfplay.load_shards(out)
            print(
                f"| shard bytes per game: {size / s:.0f}; samples per game: "
                f"{len(data['game']) / s:.1f} | | | | | | | |",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
