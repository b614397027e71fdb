"""The Python surface of docs/contract.md, on every engine of ``tests/engines.py``."""

from __future__ import annotations

import copy
import json
import pickle
import threading
import time
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import splendor
import splendor.reference as ref
from engines import ENGINES
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from splendor.reference.rng import SplitMix64

ENGINE_IDS = sorted(ENGINES)


@pytest.fixture(params=ENGINE_IDS)
def engine(request: pytest.FixtureRequest) -> ModuleType:
    return ENGINES[request.param]


def play_random(state: Any, seed: int, max_decisions: int = 100_000) -> int:
    """Plays uniformly random legal actions to the end (as ``random_playout``)."""
    rng = SplitMix64(seed)
    n = 0
    while not state.is_terminal() and n < max_decisions:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        n += 1
    return n


def finished_game(engine: ModuleType, players: int = 2, seed: int = 5) -> Any:
    state = engine.new_game("base", players=players, seed=seed)
    play_random(state, seed)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_basics(engine: ModuleType, players: int) -> None:
    s = engine.new_game("base", players=players, seed=11)
    assert s.variant == "base"
    assert s.num_players == players
    assert s.num_actions == 329
    assert s.current_player == 0
    assert not s.is_terminal()
    assert s.outcome() is None
    assert s.returns() == [0.0] * players
    assert s.scores() == [0] * players
    full = json.loads(s.to_json())
    assert full["variant"] == "base" and full["num_players"] == players
    assert full["viewer"] is None and full["current"] == 0 and full["turn"] == 0


def test_same_seed_same_game_other_seed_other_game(engine: ModuleType) -> None:
    a = engine.new_game("base", seed=3)
    b = engine.new_game("base", seed=3)
    c = engine.new_game("base", seed=4)
    assert a == b
    assert a.to_json() == b.to_json()
    assert a != c


def test_legal_lists_agree(engine: ModuleType) -> None:
    s = engine.new_game("base", players=3, seed=2)
    rng = SplitMix64(9)
    for _ in range(60):
        if s.is_terminal():
            break
        actions = s.legal_actions()
        ids = s.legal_action_ids()
        mask = s.legal_action_mask()
        assert [int(a) for a in actions] == ids
        assert ids == sorted(set(ids)) and ids
        assert isinstance(mask, np.ndarray)
        assert mask.dtype == np.bool_ and mask.shape == (329,)
        assert list(np.flatnonzero(mask)) == ids
        for a in actions:
            assert a.variant == "base"
            assert s.action_from_text(str(a)) == a
            assert s.action_from_text(f"  {str(a).upper()} ") == a
            assert s.action_from_id(int(a)) == a
            assert str(s.action_from_id(a.id)) == a.text
        s.apply(actions[rng.below(len(actions))])


def test_apply_accepts_action_id_and_text(engine: ModuleType) -> None:
    s = engine.new_game("base", seed=8)
    first = s.legal_actions()[0]
    by_action, by_id, by_text = s.clone(), s.clone(), s.clone()
    by_action.apply(first)
    by_id.apply(int(first))
    by_text.apply(str(first))
    assert by_action == by_id == by_text
    assert by_action != s
    assert s.child(first) == by_action


def test_child_and_clone_leave_parent_unchanged(engine: ModuleType) -> None:
    s = engine.new_game("base", seed=1)
    before = s.to_json()
    for a in s.legal_actions():
        c = s.child(a)
        assert s.to_json() == before
        assert c.to_json() != before
    twin = s.clone()
    twin.apply(twin.legal_actions()[-1])
    assert s.to_json() == before


def test_pickle_copy_deepcopy_and_eq(engine: ModuleType) -> None:
    s = engine.new_game("base", players=4, seed=21)
    play_random(s, 3, max_decisions=40)
    assert copy.copy(s) == s
    for other in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), s.clone()):
        assert other == s
        assert other is not s
        assert other.to_json() == s.to_json()
        other.apply(other.legal_actions()[0])
        assert other != s
    assert s != "not a state"
    assert s != 0
    with pytest.raises(TypeError):
        hash(s)


def test_from_json_round_trip(engine: ModuleType) -> None:
    s = engine.new_game("base", players=3, seed=13)
    play_random(s, 13, max_decisions=70)
    text = s.to_json()
    assert engine.from_json(text) == s
    assert type(s).from_json(text) == s
    assert engine.from_json(text).to_json() == text


def test_observation_shape_and_dtype(engine: ModuleType) -> None:
    s = engine.new_game("base", players=3, seed=4)
    for p in range(3):
        obs = s.observation(p)
        assert isinstance(obs, np.ndarray)
        assert obs.dtype == np.float32 and obs.shape == (432,)
    assert not np.array_equal(s.observation(0), s.child(s.legal_actions()[0]).observation(0))
    for bad in (-1, 3):
        with pytest.raises(ConfigError):
            s.observation(bad)


def _blind_reserve_state(engine: ModuleType) -> Any:
    """Seat 0 has reserved blind from deck 1; seat 1 to move."""
    s = engine.new_game("base", players=2, seed=6)
    s.apply("reserve deck 1")
    assert s.current_player == 1
    return s


def test_views_hide_decks_and_blind_reserves(engine: ModuleType) -> None:
    s = _blind_reserve_state(engine)
    full = json.loads(s.to_json())
    hidden_card = full["players"][0]["reserved"][0]["card"]
    assert isinstance(hidden_card, int)
    assert full["players"][0]["reserved"][0]["hidden"] is True
    mine = json.loads(s.to_json(0))
    theirs = json.loads(s.to_json(1))
    for view, seat in ((mine, 0), (theirs, 1)):
        assert view["viewer"] == seat
        assert view["decks"] is None
        assert view["deck_sizes"] == full["deck_sizes"]
        assert view["board"] == full["board"]
    assert mine["players"][0]["reserved"][0]["card"] == hidden_card
    assert theirs["players"][0]["reserved"][0]["card"] is None
    assert theirs["players"][0]["reserved"][0]["level"] == 1
    with pytest.raises(InvalidStateError):
        engine.from_json(s.to_json(1))


def test_views_and_observations_do_not_leak_hidden_cards(engine: ModuleType) -> None:
    s = _blind_reserve_state(engine)
    for seed in range(5):
        d = s.determinize(1, seed=seed)
        assert d.to_json(1) == s.to_json(1)
        assert np.array_equal(d.observation(1), s.observation(1))
    # Seat 0 knows its own card: determinizing for it keeps that card.
    own = json.loads(s.to_json())["players"][0]["reserved"][0]["card"]
    d0 = json.loads(s.determinize(0, seed=1).to_json())
    assert d0["players"][0]["reserved"][0]["card"] == own


def test_determinize_is_seeded_and_resamples(engine: ModuleType) -> None:
    s = engine.new_game("base", seed=30)
    a = s.determinize(0, seed=1)
    assert a == s.determinize(0, seed=1)
    assert a.to_json(0) == s.to_json(0)
    decks = {json.dumps(json.loads(s.determinize(0, seed=k).to_json())["decks"]) for k in range(4)}
    assert len(decks) > 1
    with pytest.raises(ConfigError):
        s.determinize(2, seed=0)
    with pytest.raises(ConfigError):
        s.determinize(0, seed=-1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finished_game(engine: ModuleType, players: int) -> None:
    s = finished_game(engine, players, seed=40 + players)
    assert s.is_terminal()
    assert s.current_player == -1
    assert s.legal_actions() == [] and s.legal_action_ids() == []
    assert not s.legal_action_mask().any()
    o = s.outcome()
    assert o is not None
    assert o.reason in ("points", "stalled", "truncated")
    assert o.truncated == (o.reason == "truncated")
    assert o.stalled == (o.reason == "stalled")
    assert isinstance(o.winners, tuple)
    assert list(o.winners) == sorted(set(o.winners))
    r = s.returns()
    assert r == o.returns() and len(r) == players
    if o.truncated:
        assert o.winners == () and sum(r) == 0
    else:
        assert o.winners and sum(r) == pytest.approx(1.0)
        best = max(s.scores())
        assert all(s.scores()[w] == best for w in o.winners)
    with pytest.raises(IllegalActionError):
        s.apply(0)
    assert json.loads(s.to_json())["current"] is None


def test_str_and_repr(engine: ModuleType) -> None:
    s = engine.new_game("base", seed=2)
    text = str(s)
    assert text.count("\n") >= 5
    assert "BaseState" in repr(s)
    a = s.legal_actions()[0]
    assert str(a) == a.text
    assert str(a.id) in repr(a) and a.text in repr(a)


def test_new_game_rejects_bad_config(engine: ModuleType) -> None:
    with pytest.raises(ConfigError):
        engine.new_game("chess")
    for players in (0, 1, 5, -2):
        with pytest.raises(ConfigError):
            engine.new_game("base", players=players)
    with pytest.raises(ConfigError):
        engine.new_game("base", seed=-1)
    with pytest.raises(ConfigError):
        engine.new_game("base", turn_cap=0)


def test_protocol_is_satisfied(engine: ModuleType) -> None:
    s = engine.new_game("base")
    assert isinstance(s, splendor.GameState)


# ---------------------------------------------------------------- Rust only


def test_rust_action_values() -> None:
    s = splendor.new_game("base", seed=1)
    a = s.legal_actions()[0]
    assert isinstance(a, splendor.Action)
    b = splendor.Action("base", int(a))
    assert a == b and hash(a) == hash(b) and a is not b
    assert {a, b} == {a}
    assert pickle.loads(pickle.dumps(a)) == a
    assert a != int(a)
    assert [0, 1, 2][a] == int(a)
    with pytest.raises(splendor.InvalidActionError):
        splendor.Action("base", 329)
    with pytest.raises(ConfigError):
        splendor.Action("chess", 0)


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_copy_is_independent(engine: ModuleType, variant: str) -> None:
    s = engine.new_game(variant, seed=2)
    other = copy.copy(s)
    other.apply(other.legal_actions()[0])
    assert other != s


def test_rust_apply_accepts_numpy_integer_ids() -> None:
    s = splendor.new_game("base", seed=8)
    ids = np.flatnonzero(s.legal_action_mask())
    assert s.child(ids[0]) == s.child(int(ids[0]))
    with pytest.raises(splendor.InvalidActionError):
        s.apply(np.float64(ids[0]))


def test_rust_outcome_values() -> None:
    o = splendor.Outcome([1], "points", 2)
    assert o.winners == (1,) and o.returns() == [0.0, 1.0]
    assert o == pickle.loads(pickle.dumps(o))
    assert hash(o) == hash(splendor.Outcome([1], "points", 2))
    assert repr(o) == "Outcome(winners=(1,), reason='points', num_players=2)"
    shared = splendor.Outcome([0, 2], "stalled", 3)
    assert shared.stalled and shared.returns() == [0.5, 0.0, 0.5]
    assert splendor.Outcome([], "truncated", 2).returns() == [0.0, 0.0]


def test_rust_actions_of_another_variant_are_rejected() -> None:
    s = splendor.new_game("base")
    for variant in splendor.VARIANTS:
        if variant != "base":
            with pytest.raises(splendor.InvalidActionError, match=variant):
                s.apply(splendor.Action(variant, 0))


def test_random_games_replays_reference_playouts() -> None:
    from splendor import reference

    seed, n = 1000, 6
    totals = splendor.random_games("base", n, players=3, seed=seed)
    decisions = 0
    wins = [0, 0, 0]
    truncated = 0
    for i in range(n):
        s = reference.new_game("base", players=3, seed=seed + i)
        decisions += reference.random_playout(s, seed + i)
        o = s.outcome()
        assert o is not None
        truncated += o.truncated
        for w in o.winners:
            wins[w] += 1
    assert totals["games"] == n
    assert totals["decisions"] == decisions
    assert totals["wins"] == wins
    assert totals["truncated"] == truncated
    assert totals["turns"] >= totals["games"]
    assert totals["elapsed"] >= 0


@pytest.mark.parametrize("players", [2, 4])
def test_random_playout_same_game_on_both_engines(engine: ModuleType, players: int) -> None:
    s = engine.new_game("base", players=players, seed=77)
    twin = engine.new_game("base", players=players, seed=77)
    n = engine.random_playout(s, 5)
    assert s.is_terminal() and n == play_random(twin, 5)
    assert s == twin


def test_rust_random_playout_rejects_non_states() -> None:
    with pytest.raises(splendor.InvalidStateError, match="state"):
        splendor.random_playout("base", 0)  # type: ignore[arg-type]
    reference_state = ref.new_game("base", seed=1)
    with pytest.raises(splendor.InvalidStateError, match="from_json"):
        splendor.random_playout(reference_state, 0)  # type: ignore[arg-type]
    assert not reference_state.is_terminal()


def test_random_games_bad_arguments() -> None:
    with pytest.raises(ConfigError):
        splendor.random_games("chess", 1)
    with pytest.raises(ConfigError):
        splendor.random_games("base", -1)
    with pytest.raises(ConfigError):
        splendor.random_games("base", 1, players=7)
    assert splendor.random_games("base", 0)["games"] == 0


def test_random_games_releases_the_gil() -> None:
    """While Rust plays, the main Python thread keeps running."""
    games = 200
    while True:
        t0 = time.perf_counter()
        splendor.random_games("base", games)
        if time.perf_counter() - t0 > 0.3 or games > 10**7:
            break
        games *= 4
    ticks = 0
    worker = threading.Thread(target=splendor.random_games, args=("base", games))
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        ticks += 1
    worker.join()
    assert ticks >= 20


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_heuristic_range_seats_and_terminal_values(engine: ModuleType, variant: str) -> None:
    s = engine.new_game(variant, seed=8)
    rng = SplitMix64(8)
    values = set()
    while not s.is_terminal():
        for p in range(s.num_players):
            h = s.heuristic(p)
            assert isinstance(h, float) and 0.0 <= h <= 1.0
            values.add(round(h, 6))
        ids = s.legal_action_ids()
        s.apply(ids[rng.below(len(ids))])
    # It moves with the game, and at the end it is the outcome.
    assert len(values) > 10
    assert [s.heuristic(p) for p in range(s.num_players)] == s.returns()
    before = s.to_json()
    for bad in (-1, s.num_players, 7):
        with pytest.raises(ConfigError, match=str(bad)):
            s.heuristic(bad)
    assert s.to_json() == before


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_action_id_arguments_are_read_alike(engine: ModuleType, variant: str) -> None:
    # NumPy integers (an RL policy's argmax) are ids on every engine and
    # variant; action_from_id takes nothing but an int id.
    s = engine.new_game(variant, seed=1)
    a = s.legal_actions()[0]
    i = int(a)
    for arg in (np.int64(i), np.int32(i), np.uint16(i)):
        assert str(s.action_from_id(arg)) == str(a)
        assert s.child(arg) == s.child(i)
    before = s.to_json()
    for bad in (a, True, str(a), float(i), s.num_actions, -1):
        with pytest.raises(InvalidActionError):
            s.action_from_id(bad)
    assert s.to_json() == before
