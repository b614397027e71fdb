"""pytest-benchmark for Splendor Duel: the Rust engine vs the reference engine.

Run with ``python -m pytest benches/test_bench_duel.py --benchmark-enable``. Each
benchmark asserts its result (a broken engine cannot post a fast time) and records
decisions per second in ``extra_info``; the speed-up of the Rust engine over the
reference is the ratio of ``decisions_per_second`` between the one-call Rust batch
and the reference playout (and, for the per-call API, between the two
``random_game_via_python_calls`` rows).
"""

from __future__ import annotations

from typing import Any

import splendor
from splendor import reference
from splendor.reference.rng import SplitMix64


def _random_game(engine: Any, seed: int) -> int:
    s = engine.new_game("duel", seed=seed)
    rng = SplitMix64(seed)
    n = 0
    while not s.is_terminal():
        ids = s.legal_action_ids()
        s.apply(ids[rng.below(len(ids))])
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
    mean = sum(games) / len(games)
    benchmark.extra_info["decisions_per_second"] = mean / benchmark.stats.stats.mean


def test_duel_rust_random_games_one_call(benchmark: Any) -> None:
    n = 2000
    totals = benchmark(splendor.random_games, "duel", n, seed=0)
    assert totals["games"] == n and totals["decisions"] > 20 * n
    assert totals["truncated"] < n
    per_call = benchmark.stats.stats.mean
    benchmark.extra_info["decisions_per_second"] = totals["decisions"] / per_call
    benchmark.extra_info["games_per_second"] = n / per_call
    benchmark.extra_info["decisions_per_game"] = totals["decisions"] / n
    benchmark.extra_info["turns_per_game"] = totals["turns"] / n


def test_duel_rust_random_game_via_python_calls(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    decisions = benchmark.pedantic(lambda: _random_game(splendor, next(seeds)), rounds=40)
    assert decisions > 20


def test_duel_reference_random_game_via_python_calls(benchmark: Any) -> None:
    seeds = iter(range(10**9))
    decisions = benchmark.pedantic(lambda: _random_game(reference, next(seeds)), rounds=5)
    assert decisions > 20


def test_duel_engines_agree_on_the_benchmarked_games() -> None:
    # The batch above plays game i from seed i with SplitMix64(i): the reference replays it.
    totals = splendor.random_games("duel", 3, seed=0)
    expected = sum(
        reference.random_playout(reference.new_game("duel", seed=s), s) for s in range(3)
    )
    assert totals["decisions"] == expected
