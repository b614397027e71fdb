"""pytest-benchmark: the Rust engine vs the reference engine on the same Python calls.

Run with ``make bench`` (``python -m pytest benches --benchmark-enable``). Each
benchmark also asserts its result, so a broken engine cannot post a fast time.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
import splendor
from splendor import reference
from splendor.reference.rng import SplitMix64

ENGINES = {"rust": splendor, "reference": reference}
GAME_SEED = 7


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> ModuleType:
    return ENGINES[request.param]


def _midgame(engine: ModuleType, decisions: int = 20) -> Any:
    s = engine.new_game("base", players=2, seed=GAME_SEED)
    rng = SplitMix64(GAME_SEED)
    for _ in range(decisions):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


def _random_game(engine: ModuleType, seed: int) -> int:
    s = engine.new_game("base", players=2, seed=seed)
    rng = SplitMix64(seed)
    n = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        n += 1
    return n


def test_new_game(benchmark: Any, engine: ModuleType) -> None:
    s = benchmark(engine.new_game, "base", players=2, seed=GAME_SEED)
    assert s.current_player == 0


def test_legal_actions(benchmark: Any, engine: ModuleType) -> None:
    s = _midgame(engine)
    actions = benchmark(s.legal_actions)
    assert actions and [int(a) for a in actions] == s.legal_action_ids()


def test_child(benchmark: Any, engine: ModuleType) -> None:
    s = _midgame(engine)
    a = s.legal_actions()[0]
    c = benchmark(s.child, a)
    assert c != s


def test_to_json(benchmark: Any, engine: ModuleType) -> None:
    s = _midgame(engine)
    text = benchmark(s.to_json)
    assert engine.from_json(text) == s


def test_random_game_via_python_calls(benchmark: Any, engine: ModuleType) -> None:
    seeds = iter(range(10**9))
    decisions = benchmark.pedantic(
        lambda: _random_game(engine, next(seeds)), rounds=5 if engine is reference else 50
    )
    assert decisions > 10


def test_random_playout_one_call(benchmark: Any, engine: ModuleType) -> None:
    # The same Python call on both engines: deal a game and play it to the end.
    seeds = iter(range(10**9))

    def deal_and_play() -> int:
        seed = next(seeds)
        decisions: int = engine.random_playout(engine.new_game("base", seed=seed), seed)
        return decisions

    decisions = benchmark.pedantic(deal_and_play, rounds=5 if engine is reference else 200)
    assert decisions > 10


def test_random_games_one_call(benchmark: Any) -> None:
    n = 2000
    totals = benchmark(splendor.random_games, "base", n, players=2, seed=0)
    assert totals["games"] == n and totals["decisions"] > 10 * n
    benchmark.extra_info["games_per_second"] = n / benchmark.stats.stats.median
