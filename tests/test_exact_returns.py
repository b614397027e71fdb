"""Returns are exact float64 fractions on both engines: a win shared by ``k`` players
is worth exactly ``1/k`` (0.3333333333333333 for three, not float32's
0.3333333432674408), in ``state.returns()``, ``outcome().returns()`` and a match's
``wins``."""

from __future__ import annotations

import splendor
import splendor.reference as ref

# (variant, players, seed): random_playout(new_game(variant, players, seed), seed)
# ends in a shared win by these seats (found by trying seeds in order).
SHARED_WINS: list[tuple[str, int, int, tuple[int, ...]]] = [
    ("base", 2, 420, (0, 1)),
    ("base", 3, 21717, (0, 1, 2)),
    ("base", 4, 34299, (1, 2, 3)),
    ("marvel", 2, 6850, (0, 1)),
    ("marvel", 3, 355, (0, 1, 2)),
    ("marvel", 4, 3191, (0, 3)),
]


def _exact(winners: tuple[int, ...], players: int) -> list[float]:
    return [1 / len(winners) if p in winners else 0.0 for p in range(players)]


def test_shared_wins_return_exact_fractions_on_both_engines() -> None:
    for variant, players, seed, winners in SHARED_WINS:
        for engine in (splendor, ref):
            s = engine.new_game(variant, players=players, seed=seed)
            engine.random_playout(s, seed)
            outcome = s.outcome()
            assert outcome is not None and outcome.winners == winners, (variant, seed)
            want = _exact(winners, players)
            # ``==`` on floats: exact, not approximately equal.
            assert s.returns() == want, (engine.__name__, variant, players, s.returns())
            assert outcome.returns() == want
            assert all(type(r) is float for r in s.returns())
            assert sum(s.returns()) == 1.0
    three = splendor.new_game("marvel", players=3, seed=355)
    splendor.random_playout(three, 355)
    assert repr(three.returns()[0]) == "0.3333333333333333"


def test_every_variant_returns_exact_values_at_the_end() -> None:
    # Duel has no shared win (one player reaches a goal, or a pass-free end has a
    # single winner): its returns are exactly 1 and 0.
    for variant in splendor.VARIANTS:
        for seed in range(5):
            s = splendor.new_game(variant, seed=seed)
            splendor.random_playout(s, seed)
            outcome = s.outcome()
            assert outcome is not None
            assert s.returns() == _exact(outcome.winners, s.num_players)
    assert splendor.Outcome([0, 1], "points", 2).returns() == [0.5, 0.5]
    assert splendor.Outcome([0, 2, 3], "stalled", 4).returns() == [1 / 3, 0.0, 1 / 3, 1 / 3]


def test_match_wins_count_shared_games_exactly() -> None:
    # Random play in a 3-player game shares a win now and then; each share is
    # 1/k exactly, so the wins of all bots add up to the games with a winner.
    r = splendor.match(["random"], players=3, games=300, seed=4)
    assert r.draws > 0
    total = sum(b["wins"] for b in r.bots)
    assert abs(total - (r.games - r.truncated)) < 1e-9
