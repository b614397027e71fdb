"""Throughput of the RL environments: ``python benches/bench_env.py``.

Every row plays uniformly random legal actions, chosen in NumPy from the action
mask (``splendor.envs.random_legal_actions``), in ``n`` games of one variant
(2 players), and counts environment steps (one decision each) per second,
observation and mask included:

- ``VectorEnv``: the Rust batched env, ``threads`` 1 and 2;
- ``pipelined, 2 half-envs``: two envs of ``n / 2`` games each; one steps in the
  background (``step_async``) while the caller chooses the other's actions, then they
  swap (``step_wait``), so the NumPy choice overlaps the stepping (``threads`` per env);
- ``env alone``: the env's own cost, playing the first legal action (no random choice);
- ``python loop``: the same work through the single-game API
  (``legal_action_mask`` + ``observation`` + ``apply`` per step);
- ``gymnasium vector``: ``SplendorVectorEnv`` over the same Rust env.

Wall and CPU (process) time are both reported: on a shared machine the wall
time includes waiting for a core. The CPU figure of a 2-thread row adds both
threads' time, so compare threads by wall time.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np
import splendor
from splendor.envs import random_legal_actions as random_legal


def timed(run: Callable[[], int], repeats: int) -> tuple[float, float]:
    """Best of ``repeats``: (steps per wall second, steps per CPU second)."""
    best_wall, best_cpu = 0.0, 0.0
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        steps = run()
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        best_wall = max(best_wall, steps / wall)
        best_cpu = max(best_cpu, steps / max(cpu, 1e-9))
    return best_wall, best_cpu


def vector_env(variant: str, n: int, threads: int, steps: int) -> Callable[[], int]:
    env = splendor.VectorEnv(variant, n, threads=threads, seed=1)
    rng = np.random.default_rng(0)
    mask = env.action_mask

    def run() -> int:
        for _ in range(steps):
            env.step(random_legal(mask, rng))
        return steps * n

    return run


def vector_env_pipelined(variant: str, n: int, threads: int, steps: int) -> Callable[[], int]:
    """Two envs of ``n / 2`` games, each stepped in the background (``step_async``)
    while the actions of the other are chosen: the NumPy choice overlaps the stepping."""
    half = n // 2
    a, b = (splendor.VectorEnv(variant, half, threads=threads, seed=s) for s in (1, 2))
    rng = np.random.default_rng(0)
    mask_a, mask_b = a.action_mask, b.action_mask

    def run() -> int:
        a.step_async(random_legal(mask_a, rng))
        for i in range(steps):
            actions_b = random_legal(mask_b, rng)  # while A steps
            a.step_wait()
            b.step_async(actions_b)
            actions_a = random_legal(mask_a, rng)  # while B steps
            b.step_wait()
            if i + 1 < steps:
                a.step_async(actions_a)
        return steps * 2 * half

    return run


def vector_env_first_legal(variant: str, n: int, threads: int, steps: int) -> Callable[[], int]:
    """The env's own cost: the first legal action (``argmax`` of the mask) costs ~4 us."""
    env = splendor.VectorEnv(variant, n, seed=1, threads=threads)
    mask = env.action_mask

    def run() -> int:
        for _ in range(steps):
            env.step(mask.argmax(axis=1))
        return steps * n

    return run


def python_loop(variant: str, n: int, steps: int) -> Callable[[], int]:
    games = [splendor.new_game(variant, seed=i) for i in range(n)]
    rng = np.random.default_rng(0)
    seeds = iter(range(n, 10**9))

    def run() -> int:
        for _ in range(steps):
            for i, state in enumerate(games):
                player = state.current_player
                mask = state.legal_action_mask()
                state.observation(player)
                legal = np.flatnonzero(mask)
                state.apply(int(legal[int(rng.random() * len(legal))]))
                if state.is_terminal():
                    games[i] = splendor.new_game(variant, seed=next(seeds))
        return steps * n

    return run


def gymnasium_vector(variant: str, n: int, steps: int) -> Callable[[], int]:
    from splendor.envs.gymnasium import SplendorVectorEnv

    # A Gymnasium env is single-agent: seat 1 is a random bot inside the env, so
    # it is compared with the raw env under the same opponent.
    envs = SplendorVectorEnv(variant, n, opponent="random")
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)

    def run() -> int:
        mask = obs["action_mask"]
        for _ in range(steps):
            envs.step(random_legal(mask, rng))
        return steps * n

    return run


def raw_with_opponent(variant: str, n: int, steps: int) -> Callable[[], int]:
    env = splendor.VectorEnv(variant, n, opponents=[None, "random"], seed=1)
    rng = np.random.default_rng(0)
    mask = env.action_mask

    def run() -> int:
        for _ in range(steps):
            env.step(random_legal(mask, rng))
        return steps * n

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--variants", default="base,duel,marvel")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load}, n = {args.n}, {args.steps} steps, best of {args.repeats}")
    row = "{:<8} {:<34} {:>14} {:>14}"
    print(row.format("variant", "what", "M steps/s wall", "M steps/s CPU"))
    for variant in args.variants.split(","):
        results: dict[str, tuple[float, float]] = {}
        for threads in (1, 2):
            key = f"VectorEnv threads={threads}"
            results[key] = timed(vector_env(variant, args.n, threads, args.steps), args.repeats)
        for threads in (1, 2):
            key = f"pipelined, 2 half-envs threads={threads}"
            results[key] = timed(
                vector_env_pipelined(variant, args.n, threads, args.steps), args.repeats
            )
        for threads in (1, 2):
            results[f"env alone (first legal) threads={threads}"] = timed(
                vector_env_first_legal(variant, args.n, threads, args.steps), args.repeats
            )
        # A twentieth of the steps (a run is still about 10,000 decisions), best of
        # as many runs as the env rows: its best is as well sampled as theirs.
        loop_steps = max(1, args.steps // 20)
        results["python loop"] = timed(python_loop(variant, args.n, loop_steps), args.repeats)
        results["VectorEnv, random bot on seat 1"] = timed(
            raw_with_opponent(variant, args.n, args.steps), args.repeats
        )
        results["gymnasium vector, same"] = timed(
            gymnasium_vector(variant, args.n, args.steps), args.repeats
        )
        for key, (wall, cpu) in results.items():
            print(row.format(variant, key, f"{wall / 1e6:.3f}", f"{cpu / 1e6:.3f}"))
        one, two = results["VectorEnv threads=1"], results["VectorEnv threads=2"]
        alone1 = results["env alone (first legal) threads=1"]
        alone2 = results["env alone (first legal) threads=2"]
        loop = results["python loop"]
        piped1 = results["pipelined, 2 half-envs threads=1"]
        piped2 = results["pipelined, 2 half-envs threads=2"]
        raw, gym = results["VectorEnv, random bot on seat 1"], results["gymnasium vector, same"]
        print(
            f"{variant}: 2 threads / 1 thread {two[0] / one[0]:.2f}x (wall), "
            f"env alone {alone2[0] / alone1[0]:.2f}x; "
            f"VectorEnv / python loop {one[1] / loop[1]:.1f}x (CPU), "
            f"{one[0] / loop[0]:.1f}x (wall); "
            f"gymnasium overhead {raw[1] / gym[1]:.2f}x (CPU), {raw[0] / gym[0]:.2f}x (wall)"
        )
        print(
            f"{variant}: pipelined (wall) / VectorEnv threads=1 (wall): "
            f"threads=1 {piped1[0] / one[0]:.2f}x, threads=2 {piped2[0] / one[0]:.2f}x; "
            f"pipelined / python loop (wall): {piped1[0] / loop[0]:.1f}x, "
            f"{piped2[0] / loop[0]:.1f}x"
        )


if __name__ == "__main__":
    main()
