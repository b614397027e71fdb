"""pytest-benchmark: Marvel on the Rust engine vs the reference, from Python.

``python -m pytest benches/test_bench_marvel.py --benchmark-enable``. The same
seeded random games are played by both engines through the same Python calls
(``legal_action_ids`` + ``apply``); ``random_games`` plays them inside Rust in
one call. Each benchmark asserts its result.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
import splendor
from splendor import reference
from splendor.reference.rng import SplitMix64

ENGINES = {"rust": splendor, "reference": reference}


def _random_game(engine: ModuleType, seed: int) -> int:
    s = engine.new_game("marvel", players=3, seed=seed)
    rng = SplitMix64(seed)
    n = 0
    while not s.is_terminal():
        ids = s.legal_action_ids()
        s.apply(ids[rng.below(len(ids))])
        n += 1
    return n


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_marvel_random_game_via_python_calls(benchmark: Any, name: str) -> None:
    engine = ENGINES[name]
    decisions = benchmark.pedantic(
        lambda: sum(_random_game(engine, seed) for seed in range(4)),
        rounds=3 if engine is reference else 30,
    )
    assert decisions == sum(_random_game(splendor, seed) for seed in range(4))
    benchmark.extra_info["decisions_per_round"] = decisions


def test_marvel_random_games_one_call(benchmark: Any) -> None:
    n = 2000
    totals = benchmark(splendor.random_games, "marvel", n, players=3, seed=0)
    assert totals["games"] == n and totals["decisions"] > 50 * n
    benchmark.extra_info["decisions_per_game"] = totals["decisions"] / n
