"""The Marvel reference engine: data, setup, actions, invariants, JSON, hidden information."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from splendor.errors import (
    CardDataError,
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from splendor.reference.marvel import OBSERVATION_SIZE, MarvelState, from_json, new_game
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.cards import load_data, parse_cards, parse_locations
from splendor.reference.rng import SplitMix64

DATA = Path(__file__).parents[1] / "python" / "splendor" / "data" / "marvel"
CARDS = (DATA / "cards.csv").read_text()
LOCS = (DATA / "locations.csv").read_text()


def play_random(state: MarvelState, seed: int, check: bool = False) -> int:
    """Play uniformly random legal actions to the end; returns the decision count."""
    rng = SplitMix64(seed)
    k = 0
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply(ids[rng.below(len(ids))])
        k += 1
        if check:
            check_invariants(state)
    return k


def check_invariants(s: MarvelState) -> None:
    """Conservation, limits and derived values (from_json re-validates everything)."""
    text = s.to_json()
    assert from_json(text).to_json() == text
    n = s.num_players
    assert [s.bank[c] + sum(p.tokens[c] for p in s.players) for c in range(7)] == [
        {2: 4, 3: 5, 4: 7}[n]
    ] * 5 + [5, n]
    for q, p in enumerate(s.players):
        assert p.tokens[A.GREEN] <= 1
        assert len(p.reserved) <= 3
        if s.phase != "over" and (q != s.current or s.phase in ("main", "location")):
            assert sum(p.tokens) <= 10
    assert s.legal_action_ids() == sorted(s.legal_action_ids())
    if s.phase == "main":
        for a in range(A.RECRUIT, A.RETURN):
            card = s._card_at(a)
            if card is not None:
                assert s.can_afford(card) == bool(s.payments(card))
    if s.phase != "over":
        ids = s.legal_action_ids()
        assert ids
        assert (A.PASS in ids) == (ids == [A.PASS])


# ----- data ------------------------------------------------------------------------


def test_bundled_identity() -> None:
    assert load_data().id == "dad7c19708885f3100a76bf6321cd8d85bf6c71037a5173cc907cfd74e78f921"


def test_bundled_data_shape() -> None:
    d = load_data()
    assert [sum(1 for c in d.cards if c.level == lv) for lv in (1, 2, 3)] == [40, 30, 20]
    assert sum(c.avengers for c in d.cards) == 35
    assert all(c.time_stone == (c.level == 3) for c in d.cards)
    assert d.cards[77].name == "Gamora" and d.cards[77].cost == (0, 0, 7, 3, 0)
    assert [loc.requirement for loc in d.locations[:2]] == [(0, 4, 0, 0, 4), (4, 0, 4, 0, 0)]


def _replace_row(text: str, row: int, col: int, value: str) -> str:
    lines = text.splitlines()
    fields = lines[row - 1].split(",")
    fields[col] = value
    lines[row - 1] = ",".join(fields)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("row", "col", "value", "message"),
    [
        (5, 2, "x", "row 5 column points"),
        (5, 1, "green", "row 5 column bonus"),
        (7, 0, "2", "row 7 column level"),
        (9, 4, "2", "row 9 column time_stone"),
        (10, 6, "-1", "row 10 column blue"),
        (12, 3, "4", "row 12 column avengers"),
        (3, 10, " ", "row 3 column name"),
    ],
)
def test_malformed_card_file(row: int, col: int, value: str, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        parse_cards(_replace_row(CARDS, row, col, value))


def test_card_file_wrong_shape() -> None:
    with pytest.raises(CardDataError, match="row 1: header"):
        parse_cards(CARDS.replace("time_stone", "time"))
    with pytest.raises(CardDataError, match="row 4: expected 11 columns"):
        parse_cards(_replace_row(CARDS, 4, 10, "a,b"))
    with pytest.raises(CardDataError, match="expected 90 cards"):
        parse_cards("\n".join(CARDS.splitlines()[:-1]))
    with pytest.raises(CardDataError, match="must cost something"):
        parse_cards(CARDS.replace("1,purple,0,0,0,1,2,1,1,0,", "1,purple,0,0,0,0,0,0,0,0,"))


def test_malformed_location_file() -> None:
    with pytest.raises(CardDataError, match="row 3 column side"):
        parse_locations(_replace_row(LOCS, 3, 1, "A"))
    with pytest.raises(CardDataError, match="row 4 column tile"):
        parse_locations(_replace_row(LOCS, 4, 0, "3"))
    with pytest.raises(CardDataError, match="row 2 column yellow"):
        parse_locations(_replace_row(LOCS, 2, 7, "z"))
    with pytest.raises(CardDataError, match="expected 8 locations"):
        parse_locations("\n".join(LOCS.splitlines()[:5]))


def test_custom_card_file_and_card_set_check(tmp_path: Path) -> None:
    # Swap Doctor Strange's and Nova's costs (an uncertain row of the digest).
    custom = CARDS.replace(",6,0,3,3,0,Nova", ",7,0,0,0,0,Nova").replace(
        ",7,0,0,0,0,Doctor Strange", ",6,0,3,3,0,Doctor Strange"
    )
    assert custom != CARDS
    path = tmp_path / "cards.csv"
    path.write_text(custom)
    s = new_game(players=2, seed=1, cards=path)
    assert s.data.cards[79].cost == (7, 0, 0, 0, 0)
    assert s.data.id != load_data().id
    text = s.to_json()
    # Explicitly the bundled files: the recorded identity does not match.
    with pytest.raises(InvalidStateError, match="card_set"):
        from_json(text, cards=CARDS, locations=LOCS)
    assert from_json(text, cards=path).to_json() == text
    # Without files, a set some live state uses is found by its identity ...
    assert from_json(text).to_json() == text
    # ... and an unknown identity is an error naming it.
    with pytest.raises(InvalidStateError, match="card_set '12345'"):
        from_json(text.replace(s.data.id, "12345"))
    assert new_game(players=2, seed=1, cards=custom).data is load_data(custom)


# ----- setup and actions ---------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n: int) -> None:
    s = new_game(players=n, seed=5)
    assert s.bank == [{2: 4, 3: 5, 4: 7}[n]] * 5 + [5, n]
    assert len(s.locations) == n and len({x // 2 for x in s.locations}) == n
    assert [len(d) for d in s.decks] == [36, 26, 16]
    # The documented draw order, replayed by hand.
    rng = SplitMix64(5)
    decks = []
    for lo, hi in ((0, 40), (40, 70), (70, 90)):
        d = list(range(lo, hi))
        rng.shuffle(d)
        decks.append(d)
    tiles = [0, 1, 2, 3]
    rng.shuffle(tiles)
    locs = sorted(2 * t + rng.below(2) for t in tiles[:n])
    assert s.board == [d[:4] for d in decks]
    assert s.decks == [d[4:] for d in decks]
    assert s.locations == locs


def test_bad_config() -> None:
    for bad in (1, 5, True, "2"):
        with pytest.raises(ConfigError):
            new_game(players=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        new_game(seed=-1)
    with pytest.raises(ConfigError):
        new_game(turn_cap=0)


def test_action_text_round_trip() -> None:
    for a in range(A.NUM_ACTIONS):
        assert A.parse_action(A.action_text(a)) == a
    assert A.parse_action("  TAKE ybp ") == A.parse_action("take pby")
    assert A.action_text(A.PAY + A.GREY_INDEX[(2, 0, 1, 0, 0)]) == "pay grey ppr"
    for bad in ("take s", "take t", "take pp p", "return t", "recruit 4.1", "location 8", ""):
        with pytest.raises(InvalidActionError):
            A.parse_action(bad)


def test_bad_input_leaves_state_unchanged() -> None:
    s = new_game(players=3, seed=2)
    before = s.to_json()
    for bad in (-1, A.NUM_ACTIONS, "nonsense", 2.5, None, True):
        with pytest.raises(InvalidActionError):
            s.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        s.apply("recruit 3.1")
    with pytest.raises(IllegalActionError):
        s.apply("pass")
    assert s.to_json() == before
    with pytest.raises(ConfigError):
        s.observation(3)
    with pytest.raises(ConfigError):
        s.determinize(-1, seed=0)


# ----- random play ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_many_random_games(n: int) -> None:
    reasons: dict[str, int] = {}
    for seed in range(100):
        s = new_game(players=n, seed=1000 + seed)
        play_random(s, seed, check=True)
        o = s.outcome()
        assert o is not None
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
        if o.reason == "gauntlet":
            assert all(s.meets_gauntlet(w) for w in o.winners)
            assert sum(s.returns()) == pytest.approx(1.0)
    assert reasons.get("gauntlet", 0) > 50


def test_same_seed_same_game() -> None:
    a, b = new_game(players=4, seed=9), new_game(players=4, seed=9)
    play_random(a, 3)
    play_random(b, 3)
    assert a == b
    assert new_game(players=4, seed=9) != new_game(players=4, seed=10)


# ----- JSON, views, hidden information ---------------------------------------------------------


def _midgame(n: int = 3, seed: int = 4, moves: int = 60) -> MarvelState:
    s = new_game(players=n, seed=seed)
    rng = SplitMix64(seed)
    for _ in range(moves):
        ids = s.legal_action_ids()
        blind = [a for a in ids if A.RESERVE_DECK <= a < A.RECRUIT]
        s.apply(blind[0] if blind and rng.below(3) == 0 else ids[rng.below(len(ids))])
    return s


def test_view_redacts_hidden_cards() -> None:
    s = _midgame()
    hidden = [(q, i) for q, p in enumerate(s.players) for i, r in enumerate(p.reserved) if r.hidden]
    assert hidden
    for viewer in range(s.num_players):
        v = json.loads(s.to_json(viewer))
        assert v["decks"] is None and v["viewer"] == viewer
        for q, i in hidden:
            card = v["players"][q]["reserved"][i]["card"]
            assert (card is None) == (q != viewer)
        with pytest.raises(InvalidStateError, match="view"):
            from_json(s.to_json(viewer))


def test_determinize_depends_only_on_the_view() -> None:
    s = _midgame()
    t = s.clone()
    # Swap hidden information for player 0's observer: reorder the level-1 deck.
    t.decks[0].reverse()
    for viewer in range(3):
        if s.to_json(viewer) != t.to_json(viewer):
            continue
        a, b = s.determinize(viewer, seed=11), t.determinize(viewer, seed=11)
        assert a.to_json() == b.to_json()
        assert a.to_json(viewer) == s.to_json(viewer)
        np.testing.assert_array_equal(s.observation(viewer), t.observation(viewer))


def test_observation_layout() -> None:
    s = _midgame(n=4)
    for p in range(4):
        o = s.observation(p)
        assert o.shape == (OBSERVATION_SIZE,) and o.dtype == np.float32
    assert s.observation(0)[:7].tolist() == [float(x) for x in s.bank]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("card_set", 1, "card_set"),
        ("variant", "base", "variant"),
        ("num_players", 5, "num_players"),
        ("phase", "noble", "phase"),
        ("turn", -1, "turn"),
        ("avengers", 1, "Avengers"),
    ],
)
def test_from_json_rejects(field: str, value: object, message: str) -> None:
    obj = json.loads(new_game(players=2, seed=3).to_json())
    obj[field] = value
    with pytest.raises(InvalidStateError, match=message):
        from_json(json.dumps(obj))


def test_from_json_rejects_tampering() -> None:
    obj = json.loads(new_game(players=2, seed=3).to_json())
    obj["bank"][0] += 1
    with pytest.raises(InvalidStateError, match="tokens total"):
        from_json(json.dumps(obj))
    obj = json.loads(new_game(players=2, seed=3).to_json())
    obj["decks"][0][0] = obj["decks"][0][1]
    with pytest.raises(InvalidStateError, match="twice"):
        from_json(json.dumps(obj))
    obj = json.loads(new_game(players=2, seed=3).to_json())
    obj["players"][0]["tokens"][6] = 1
    obj["bank"][6] -= 1
    with pytest.raises(InvalidStateError, match="green"):
        from_json(json.dumps(obj))
    obj = json.loads(new_game(players=2, seed=3).to_json())
    obj["locations"] = obj["locations"][:1]
    with pytest.raises(InvalidStateError, match="tiles"):
        from_json(json.dumps(obj))
    for junk in ("", "[]", "{", '{"variant":"marvel"}'):
        with pytest.raises(InvalidStateError):
            from_json(junk)


def test_python_protocol() -> None:
    s = _midgame()
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s
    c = s.child(s.legal_actions()[0])
    assert c != s
    assert "Marvel" in str(s) and any(card.name in str(s) for card in s.data.cards)
    assert "MarvelState" in repr(s)
    mask = s.legal_action_mask()
    assert mask.sum() == len(s.legal_actions())


def test_heuristic_in_range_and_terminal() -> None:
    s = new_game(players=3, seed=8)
    rng = SplitMix64(8)
    while not s.is_terminal():
        for p in range(3):
            assert 0.0 <= s.heuristic(p) <= 1.0
        ids = s.legal_action_ids()
        s.apply(ids[rng.below(len(ids))])
    o = s.outcome()
    assert o is not None
    for p in range(3):
        assert s.heuristic(p) == s.returns()[p]


def _pointers(v: Any, path: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            _pointers(x, (*path, k), out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _pointers(x, (*path, i), out)
    out.append(path)


def test_mutated_json_raises_only_invalid_state() -> None:
    rng = SplitMix64(2024)
    junk: list[Any] = [None, True, -1, 0, 1, 3, 255, 70_000, 2**64, 1.5, "x", [], {}]
    accepted = 0
    for i in range(150):
        s = new_game(players=2 + i % 3, seed=i)
        for _ in range(rng.below(120)):
            if s.is_terminal():
                break
            ids = s.legal_action_ids()
            s.apply(ids[rng.below(len(ids))])
        obj = json.loads(s.to_json())
        ptrs: list[tuple[Any, ...]] = []
        _pointers(obj, (), ptrs)
        for _ in range(1 + rng.below(3)):
            path = ptrs[rng.below(len(ptrs))]
            if not path:
                continue
            parent = obj
            try:
                for k in path[:-1]:
                    parent = parent[k]
                old = parent[path[-1]]
            except (KeyError, IndexError, TypeError):
                continue
            if rng.below(2) == 0 or not isinstance(old, int) or isinstance(old, bool):
                parent[path[-1]] = junk[rng.below(len(junk))]
            else:
                parent[path[-1]] = old + rng.below(5) - 2
        try:
            t = from_json(json.dumps(obj))
        except InvalidStateError:
            continue
        accepted += 1
        assert from_json(t.to_json()).to_json() == t.to_json()
        play_random(t, i)
    assert accepted < 150
