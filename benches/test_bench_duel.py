"""pytest-benchmark for Splendor Duel: the Rust engine vs the reference engine.

Run with ``python -m pytest benches/test_bench_duel.py --benchmark-enable``. Each
benchmark asserts its result (a broken engine cannot post a fast time) and records
decisions per second in ``extra_info``; the speed-up of the Rust engine over the
reference is the ratio of ``decisions_per_second`` between the one-call Rust batch
and the reference playout (and, for the per-call API, between the two
``random_game_via_python_calls`` rows).
"""

from __future__ import annotations

import random
from typing import Any

import splendor
from splendor import reference


def _mean_seconds(benchmark: Any) -> float | None:
    """Mean time per round, or None when benchmarks are disabled (a plain test run)."""
    return None if benchmark.stats is None else float(benchmark.stats.stats.mean)


def _random_game(engine: Any, seed: int) -> int:
    # random.Random (C) rather than the pure-Python SplitMix64, so the driver's own
    # cost does not hide the engines' difference.
    s = engine.new_game("duel", seed=seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_terminal():
        ids = s.legal_action_ids()
        s.apply(ids[rng.randrange(len(ids))])
        n += 1
    return n


def test_duel_reference_random_playout(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    games = []

    def one() -> int:
        state = reference.new_game("duel", seed=next(seeds))
        n = reference.random_playout(state, 0)
        games.append(n)
        return n

    decisions = benchmark.pedantic(one, rounds=8, iterations=1)
    assert decisions > 20
    seconds = _mean_seconds(benchmark)
    if seconds is not None:
        benchmark.extra_info["decisions_per_second"] = sum(games) / len(games) / seconds


def test_duel_rust_random_games_one_call(benchmark: Any) -> None:
    n = 2000
    totals = benchmark(splendor.random_games, "duel", n, seed=0)
    assert totals["games"] == n and totals["decisions"] > 20 * n
    assert totals["truncated"] < n
    benchmark.extra_info["decisions_per_game"] = totals["decisions"] / n
    benchmark.extra_info["turns_per_game"] = totals["turns"] / n
    seconds = _mean_seconds(benchmark)
    if seconds is not None:
        benchmark.extra_info["decisions_per_second"] = totals["decisions"] / seconds
        benchmark.extra_info["games_per_second"] = n / seconds


def _via_python_calls(benchmark: Any, engine: Any, rounds: int) -> None:
    seeds = iter(range(10**9))
    games: list[int] = []

    def one() -> int:
        games.append(_random_game(engine, next(seeds)))
        return games[-1]

    assert benchmark.pedantic(one, rounds=rounds, iterations=1) > 20
    seconds = _mean_seconds(benchmark)
    if seconds is not None:
        benchmark.extra_info["decisions_per_second"] = sum(games) / len(games) / seconds


def test_duel_rust_random_game_via_python_calls(benchmark: Any) -> None:
    _via_python_calls(benchmark, splendor, 40)


def test_duel_reference_random_game_via_python_calls(benchmark: Any) -> None:
    _via_python_calls(benchmark, reference, 5)


def test_duel_engines_agree_on_the_benchmarked_games() -> None:
    # The batch above plays game i from seed i with SplitMix64(i): the reference replays it.
    totals = splendor.random_games("duel", 3, seed=0)
    expected = sum(
        reference.random_playout(reference.new_game("duel", seed=s), s) for s in range(3)
    )
    assert totals["decisions"] == expected
