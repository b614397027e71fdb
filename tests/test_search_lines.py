"""``SearchResult.lines`` / ``principal_variation`` and ``search(root_action=...)``."""

from __future__ import annotations

import pickle

import pytest
import splendor


@pytest.mark.parametrize(("variant", "players"), [("base", 3), ("duel", 2), ("marvel", 2)])
def test_each_action_has_its_expected_line(variant: str, players: int) -> None:
    state = splendor.new_game(variant, players=players, seed=4)
    result = splendor.search(state, iterations=1500, seed=2)
    assert set(result.lines) == set(result.visits)
    mover = state.current_player
    for action, line in result.lines.items():
        assert line[0] == (mover, action)
        assert 1 <= len(line) <= 8
        assert all(0 <= seat < players for seat, _ in line)
    assert result.principal_variation == result.lines[result.action]
    # 1,500 iterations see past the first decision of the chosen move.
    assert len(result.principal_variation) >= 2
    assert pickle.loads(pickle.dumps(result)) == result


def test_the_line_reads_only_the_movers_information() -> None:
    """Two fillings of one seat's view (different hidden cards) give the same lines."""
    state = splendor.new_game("base", players=2, seed=9)
    for _ in range(6):
        state.apply(splendor.search(state, iterations=50, seed=1).action)
    view = state.to_json(state.current_player)
    a = splendor.from_view(view, seed=1)
    b = splendor.from_view(view, seed=2)
    assert a.to_json() != b.to_json()
    ra = splendor.search(a, iterations=800, seed=3)
    rb = splendor.search(b, iterations=800, seed=3)
    assert ra.lines == rb.lines and ra == rb


def test_a_root_action_gets_the_whole_budget() -> None:
    state = splendor.new_game("base", seed=3)
    full = splendor.search(state, iterations=600, seed=1)
    rare = min(full.visits, key=lambda a: (full.visits[a], int(a)))
    for spelling in (rare, int(rare), str(rare)):
        only = splendor.search(state, iterations=300, seed=1, root_action=spelling)
        assert only.action == rare
        assert only.visits[rare] == 300
        assert sum(only.visits.values()) == 300
        assert 0.0 <= only.values[rare] <= 1.0


def test_a_bad_root_action_is_a_typed_error() -> None:
    state = splendor.new_game("base", seed=3)
    with pytest.raises(splendor.IllegalActionError, match="root_action"):
        splendor.search(state, iterations=10, root_action="buy 3.1")
    with pytest.raises(splendor.InvalidActionError):
        splendor.search(state, iterations=10, root_action="fly away")
    with pytest.raises(splendor.InvalidActionError):
        splendor.search(state, iterations=10, root_action=1.5)  # type: ignore[arg-type]
    duel = splendor.new_game("duel", seed=1)
    with pytest.raises(splendor.InvalidActionError):
        splendor.search(state, iterations=10, root_action=duel.legal_actions()[0])
