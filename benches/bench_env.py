"""Throughput of the RL environments: ``python benches/bench_env.py``.

Every row plays uniformly random legal actions, chosen in NumPy from the action
mask (``splendor.envs.random_legal_actions``), in ``n`` games of one variant
(2 players), and counts environment steps (one decision each) per second,
observation and mask included:

- ``threads=1``, ``threads=2``: the Rust batched env (``VectorEnv``);
- ``pipelined``: two envs of ``n / 2`` games each (one thread each); one steps in the
  background (``step_async``) while the caller chooses the other's actions, then they
  swap, the caller helping finish the step in ``step_wait``: 2 cores in all;
- ``packed mask``: the same, the actions drawn from ``VectorEnv.packed_mask`` (the
  mask as 64-bit words) rather than the bool ``action_mask``: the same draws, faster;
- ``env alone``: the env's own cost, playing the first legal action (no random choice);
- ``python loop``: the same work through the single-game API
  (``legal_action_mask`` + ``observation`` + ``apply`` per step);
- ``random bot on seat 1`` and ``gymnasium vector, same``: the raw env with seat 1
  played by a random bot inside it, and ``SplendorVectorEnv`` over the same.

The rows are measured interleaved: each round runs every row for ``--steps`` steps,
in a new random order, and each ratio is taken within a round (both of its rows ran
within a second of each other), so that a slow spell of this shared machine hits
both sides of a ratio alike. Reported: the median steps per second (wall) of every
row over the rounds, and the median and quartiles of each ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import splendor
from splendor.envs import random_legal_actions as random_legal

Runner = Callable[[int], int]


def interleaved(
    rows: dict[str, Runner], steps: dict[str, int], rounds: int
) -> dict[str, list[float]]:
    """Steps per wall second of every row in every round, the rows in a new random
    order each round."""
    order = list(rows)
    rng = random.Random(0)
    for name in order:  # warm-up: caches, threads, lazily built tables
        rows[name](max(1, steps[name] // 4))
    rates: dict[str, list[float]] = {name: [] for name in order}
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            start = time.perf_counter()
            done = rows[name](steps[name])
            rates[name].append(done / (time.perf_counter() - start))
    return rates


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, q2, q3 = np.percentile(values, [25, 50, 75])
    return float(q1), float(q2), float(q3)


def mask_of(
    env: splendor.VectorEnv, packed: bool
) -> npt.NDArray[np.bool_] | npt.NDArray[np.uint64]:
    """The mask the actions are drawn from: ``packed_mask`` or ``action_mask``."""
    return env.packed_mask if packed else env.action_mask


def vector_env(variant: str, n: int, threads: int, packed: bool) -> Runner:
    env = splendor.VectorEnv(variant, n, threads=threads, seed=1)
    rng = np.random.default_rng(0)
    mask = mask_of(env, packed)

    def run(steps: int) -> int:
        for _ in range(steps):
            env.step(random_legal(mask, rng))
        return steps * n

    return run


def vector_env_pipelined(variant: str, n: int, threads: int, packed: bool) -> Runner:
    """Two envs of ``n / 2`` games, each stepped in the background (``step_async``)
    while the actions of the other are chosen: the NumPy choice overlaps the stepping,
    and ``step_wait`` helps finish the step."""
    half = n // 2
    a, b = (splendor.VectorEnv(variant, half, threads=threads, seed=s) for s in (1, 2))
    rng = np.random.default_rng(0)
    mask_a, mask_b = mask_of(a, packed), mask_of(b, packed)

    def run(steps: int) -> int:
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


def vector_env_first_legal(variant: str, n: int, threads: int) -> Runner:
    """The env's own cost: the first legal action (``argmax`` of the mask) costs ~4 us."""
    env = splendor.VectorEnv(variant, n, seed=1, threads=threads)
    mask = env.action_mask

    def run(steps: int) -> int:
        for _ in range(steps):
            env.step(mask.argmax(axis=1))
        return steps * n

    return run


def python_loop(variant: str, n: int) -> Runner:
    games = [splendor.new_game(variant, seed=i) for i in range(n)]
    rng = np.random.default_rng(0)
    seeds = iter(range(n, 10**9))

    def run(steps: int) -> int:
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


def gymnasium_vector(variant: str, n: int) -> Runner:
    from splendor.envs.gymnasium import SplendorVectorEnv

    # A Gymnasium env is single-agent: seat 1 is a random bot inside the env, so
    # it is compared with the raw env under the same opponent.
    envs = SplendorVectorEnv(variant, n, opponent="random")
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)

    def run(steps: int) -> int:
        mask = obs["action_mask"]
        for _ in range(steps):
            envs.step(random_legal(mask, rng))
        return steps * n

    return run


def raw_with_opponent(variant: str, n: int) -> Runner:
    env = splendor.VectorEnv(variant, n, opponents=[None, "random"], seed=1)
    rng = np.random.default_rng(0)
    mask = env.action_mask

    def run(steps: int) -> int:
        for _ in range(steps):
            env.step(random_legal(mask, rng))
        return steps * n

    return run


RATIOS = [
    ("2 threads / 1 thread", "threads=2", "threads=1"),
    ("pipelined / 1 thread", "pipelined, 2 half-envs", "threads=1"),
    ("2 threads / 1 (packed)", "threads=2, packed mask", "threads=1, packed mask"),
    ("pipelined / 1 (packed)", "pipelined, packed mask", "threads=1, packed mask"),
    ("env alone: 2 threads / 1", "env alone threads=2", "env alone threads=1"),
    ("1 thread / python loop", "threads=1", "python loop"),
    ("2 threads / python loop", "threads=2", "python loop"),
    ("pipelined / python loop", "pipelined, 2 half-envs", "python loop"),
    ("1 thread packed / python loop", "threads=1, packed mask", "python loop"),
    ("2 threads packed / python loop", "threads=2, packed mask", "python loop"),
    ("pipelined packed / python loop", "pipelined, packed mask", "python loop"),
    ("gymnasium overhead (raw / gym)", "random bot on seat 1", "gymnasium vector, same"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60, help="steps per row per round")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--variants", default="base,duel,marvel")
    args = parser.parse_args()
    n = args.n
    print(
        f"load average before {os.getloadavg()}, n = {n}, {args.steps} steps per row "
        f"per round, {args.rounds} rounds"
    )
    for variant in args.variants.split(","):
        rows: dict[str, Runner] = {
            "threads=1": vector_env(variant, n, 1, packed=False),
            "threads=2": vector_env(variant, n, 2, packed=False),
            "pipelined, 2 half-envs": vector_env_pipelined(variant, n, 1, packed=False),
            "threads=1, packed mask": vector_env(variant, n, 1, packed=True),
            "threads=2, packed mask": vector_env(variant, n, 2, packed=True),
            "pipelined, packed mask": vector_env_pipelined(variant, n, 1, packed=True),
            "env alone threads=1": vector_env_first_legal(variant, n, 1),
            "env alone threads=2": vector_env_first_legal(variant, n, 2),
            "python loop": python_loop(variant, n),
            "random bot on seat 1": raw_with_opponent(variant, n),
            "gymnasium vector, same": gymnasium_vector(variant, n),
        }
        # The Python loop is ~15x slower: a twentieth of the steps (still ~3,000
        # decisions a round) keeps a round's rows about as long as each other.
        steps = {name: args.steps for name in rows}
        steps["python loop"] = max(1, args.steps // 20)
        rates = interleaved(rows, steps, args.rounds)
        print(f"{'variant':<8} {'row':<34} {'M steps/s (median)':>18}")
        for name, values in rates.items():
            print(f"{variant:<8} {name:<34} {float(np.median(values)) / 1e6:>18.3f}")
        for label, top, bottom in RATIOS:
            per_round = [t / b for t, b in zip(rates[top], rates[bottom], strict=True)]
            q1, q2, q3 = quartiles(per_round)
            print(f"{variant:<8} {label:<34} {q2:>6.2f}x  (quartiles {q1:.2f}-{q3:.2f})")
    print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
