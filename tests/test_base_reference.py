"""Base game: data, action table, setup, conformance, no-leak, determinize and API tests.

Tests taking an ``engine`` run on every engine of ``tests/engines.py``; the others
test the reference engine's own modules.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import splendor.reference as ref
from base_positions import dump, midgame
from engines import ENGINES
from splendor.errors import (
    InvalidActionError,
)
from splendor.reference.base import actions as base_actions
from splendor.reference.base import cards as base_data
from splendor.reference.rng import SplitMix64

ENGINE_PARAMS = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
GEMS = {2: 4, 3: 5, 4: 7}


def card_level(card: int) -> int:
    return 1 if card < 40 else 2 if card < 70 else 3


# ---------------------------------------------------------------------------- data


def test_card_data_rows_and_checksums() -> None:
    cards, nobles = base_data.load_cards(), base_data.load_nobles()
    assert len(cards) == 90 and len(nobles) == 10
    assert Counter(c.level for c in cards) == {1: 40, 2: 30, 3: 20}
    assert base_data.cards_checksum(cards) == 129012480
    assert base_data.nobles_checksum(nobles) == 20275
    for level in (1, 2, 3):
        assert all(c.level == level for c in cards if c.id in base_data.LEVEL_IDS[level - 1])
    # 8/6/4 cards of each bonus colour per level; every noble worth 3.
    for level, per_colour in ((1, 8), (2, 6), (3, 4)):
        assert Counter(c.bonus for c in cards if c.level == level) == dict.fromkeys(
            range(5), per_colour
        )
    assert {n.points for n in nobles} == {3}


def test_checksum_detects_a_changed_card() -> None:
    cards = list(base_data.load_cards())
    first = cards[0]
    cards[0] = base_data.Card(first.id, first.level, first.bonus, first.points + 1, first.cost)
    assert base_data.cards_checksum(tuple(cards)) != 129012480


# ------------------------------------------------------------------------- actions


def test_action_table_boundaries() -> None:
    expected = {
        0: "take wug",
        9: "take grk",
        10: "take wu",
        19: "take rk",
        20: "take w",
        24: "take k",
        25: "take ww",
        29: "take kk",
        30: "reserve 1.1",
        36: "reserve 2.3",
        41: "reserve 3.4",
        42: "reserve deck 1",
        44: "reserve deck 3",
        45: "buy 1.1",
        56: "buy 3.4",
        57: "buy reserved 1",
        59: "buy reserved 3",
        60: "return w",
        65: "return y",
        66: "noble 0",
        75: "noble 9",
        76: "pay",
        77: "pay gold k",
        81: "pay gold kkkkk",
        82: "pay gold r",
        327: "pay gold wwwww",
        328: "pass",
    }
    for i, text in expected.items():
        assert base_actions.action_text(i) == text
    assert len(base_actions.GOLD_VECTORS) == 252
    assert tuple(sorted(base_actions.GOLD_VECTORS)) == base_actions.GOLD_VECTORS


@ENGINE_PARAMS
def test_every_action_text_round_trips(engine: ModuleType) -> None:
    state = engine.new_game("base")
    for i in range(state.num_actions):
        a = state.action_from_id(i)
        assert int(a) == i
        assert int(state.action_from_text(str(a))) == i
        assert int(state.action_from_text(f"  {str(a).upper()}\t")) == i


@ENGINE_PARAMS
@pytest.mark.parametrize(
    ("text", "i"),
    [
        ("take guw", 0),
        ("TAKE KRG", 9),
        ("take  uw", 10),
        ("pay gold rww", base_actions.PAY_ID[(2, 0, 0, 1, 0)]),
        ("pay gold kwkwk", base_actions.PAY_ID[(2, 0, 0, 0, 3)]),
        ("reserve 01.1", 30),
        ("return Y", 65),
        ("Buy Reserved 3", 59),
    ],
)
def test_action_text_variants(engine: ModuleType, text: str, i: int) -> None:
    assert int(engine.new_game("base").action_from_text(text)) == i


@ENGINE_PARAMS
@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "take",
        "take wy",
        "take yy",
        "take wwu",
        "take www",
        "take wugr",
        "take w u",
        "take x",
        "reserve 4.1",
        "reserve 1.5",
        "reserve 0.1",
        "reserve 1",
        "reserve deck 0",
        "reserve deck 4",
        "buy reserved 0",
        "buy reserved 4",
        "buy 1.1.1",
        "return",
        "return wu",
        "noble 10",
        "noble -1",
        "pay gold",
        "pay gold y",
        "pay gold wwwwww",
        "pass now",
        "passs",
        "take w\u0301ug",
    ],
)
def test_unparsable_text(engine: ModuleType, text: str) -> None:
    state = engine.new_game("base")
    before = state.to_json()
    with pytest.raises(InvalidActionError, match="action"):
        state.action_from_text(text)
    with pytest.raises(InvalidActionError):
        state.apply(text)
    assert state.to_json() == before


# --------------------------------------------------------------------------- setup


def test_setup_follows_the_documented_draw_order() -> None:
    seed = 12345
    rng = SplitMix64(seed)
    decks = []
    for ids in (range(40), range(40, 70), range(70, 90)):
        deck = list(ids)
        rng.shuffle(deck)
        decks.append(deck)
    nobles = list(range(10))
    rng.shuffle(nobles)
    obj = json.loads(ref.new_game("base", players=3, seed=seed).to_json())
    assert obj["board"] == [d[:4] for d in decks]
    assert obj["decks"] == [d[4:] for d in decks]
    assert obj["nobles"] == nobles[:4]


@ENGINE_PARAMS
def test_setup_golden_seed_0(engine: ModuleType) -> None:
    # Pinned so that both engines deal the same game from the same seed.
    obj = json.loads(engine.new_game("base", players=2, seed=0).to_json())
    assert obj["board"] == [[8, 32, 4, 35], [57, 42, 59, 46], [79, 89, 87, 83]]
    assert obj["nobles"] == [1, 8, 7]
    assert obj["decks"][2] == [76, 77, 75, 80, 81, 73, 86, 82, 70, 71, 85, 88, 84, 72, 78, 74]


@ENGINE_PARAMS
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_counts(engine: ModuleType, players: int) -> None:
    state = engine.new_game("base", players=players, seed=7, turn_cap=50)
    obj = json.loads(state.to_json())
    assert obj["bank"] == [GEMS[players]] * 5 + [5]
    assert len(obj["nobles"]) == players + 1
    assert obj["deck_sizes"] == [36, 26, 16]
    assert (obj["turn"], obj["turn_cap"], obj["current"], obj["phase"]) == (0, 50, 0, "main")
    assert state.current_player == 0 and state.num_players == players
    assert state.num_actions == 329 and state.variant == "base"
    assert "pass" not in [str(a) for a in state.legal_actions()]


# --------------------------------------------------------------------- conformance


def check_invariants(engine: ModuleType, state: Any) -> None:
    """Everything that must hold after every decision, read from the full JSON."""
    text = state.to_json()
    obj = json.loads(text)
    n = obj["num_players"]
    players = obj["players"]
    for c in range(6):
        total = obj["bank"][c] + sum(p["tokens"][c] for p in players)
        assert total == (5 if c == 5 else GEMS[n])
        assert obj["bank"][c] >= 0 and all(p["tokens"][c] >= 0 for p in players)
    cards = [c for row in obj["board"] for c in row if c is not None]
    cards += [c for d in obj["decks"] for c in d]
    for p in players:
        cards += p["cards"] + [r["card"] for r in p["reserved"]]
        assert len(p["reserved"]) <= 3
        assert p["cards"] == sorted(p["cards"])
    assert sorted(cards) == list(range(90))
    for level in range(3):
        assert all(card_level(c) == level + 1 for c in obj["decks"][level])
        assert all(c is None or card_level(c) == level + 1 for c in obj["board"][level])
        assert obj["deck_sizes"][level] == len(obj["decks"][level])
    claimed = [x for p in players for x in p["nobles"]]
    assert len(set(claimed + obj["nobles"])) == len(claimed) + len(obj["nobles"]) == n + 1
    assert list(state.scores()) == [
        sum(base_data.CARDS[c].points for c in p["cards"]) + 3 * len(p["nobles"]) for p in players
    ]
    phase, current = obj["phase"], obj["current"]
    mover = obj["turn"] % n
    for seat, p in enumerate(players):
        if not (phase == "return" and seat == mover):
            assert sum(p["tokens"]) <= 10
    legal = state.legal_action_ids()
    assert legal == sorted(set(legal))
    assert list(np.flatnonzero(state.legal_action_mask())) == legal
    if phase == "over":
        assert current is None and state.current_player == -1 and legal == []
        assert state.is_terminal() and state.outcome() is not None
    else:
        assert current == mover == state.current_player and legal
        assert state.outcome() is None and list(state.returns()) == [0.0] * n
        assert 328 not in legal or legal == [328]
        assert (obj["pending"] is not None) == (phase == "pay")
        assert phase != "return" or sum(players[mover]["tokens"]) > 10
    assert engine.from_json(text).to_json() == text


@ENGINE_PARAMS
def test_random_games_keep_every_invariant(engine: ModuleType) -> None:
    reasons: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    for seed in range(200):
        n = 2 + seed % 3
        state = engine.new_game("base", players=n, seed=seed, turn_cap=40 if seed % 10 else 8)
        rng = SplitMix64(1000 + seed)
        check_invariants(engine, state)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            phases[json.loads(state.to_json())["phase"]] += 1
            check_invariants(engine, state)
        outcome = state.outcome()
        reasons[outcome.reason] += 1
        scores = list(state.scores())
        obj = json.loads(state.to_json())
        if outcome.reason == "truncated":
            assert outcome.winners == () and list(state.returns()) == [0.0] * n
        else:
            best = max(scores)
            fewest = min(len(obj["players"][p]["cards"]) for p in range(n) if scores[p] == best)
            assert outcome.winners == tuple(
                p
                for p in range(n)
                if scores[p] == best and len(obj["players"][p]["cards"]) == fewest
            )
            assert sum(state.returns()) == pytest.approx(1.0)
    # The random games reach every phase and the common endings.
    assert set(phases) == {"main", "pay", "return", "noble", "over"}
    assert reasons["points"] > 0 and reasons["truncated"] > 0


def test_random_playout_is_reproducible() -> None:
    a = ref.new_game("base", players=3, seed=5)
    b = ref.new_game("base", players=3, seed=5)
    assert ref.random_playout(a, 9) == ref.random_playout(b, 9) > 0
    assert a == b and a.is_terminal()
    # Pinned: the Rust engine must play the same game from the same seeds.
    c = ref.new_game("base", players=2, seed=0)
    assert ref.random_playout(c, 0) == GOLDEN_PLAYOUT_0
    assert c.scores() == GOLDEN_SCORES_0


GOLDEN_PLAYOUT_0 = 95
GOLDEN_SCORES_0 = [15, 8]


# ----------------------------------------------------------- hidden information


def twin_positions(engine: ModuleType) -> tuple[Any, Any]:
    """Two positions that differ only in what seat 0 cannot see.

    Seat 1 holds a blind level-2 reserve; seat 0 a blind level-3 one (its own).
    The twin swaps seat 1's hidden card with a deck card and reverses every deck.
    """
    state = engine.new_game("base", seed=21)
    for text in ("take wug", "reserve deck 2", "reserve deck 3", "take urk"):
        state.apply(text)
    obj = json.loads(state.to_json())
    hidden = obj["players"][1]["reserved"][0]
    assert hidden["hidden"] and hidden["level"] == 2
    hidden["card"], obj["decks"][1][5] = obj["decks"][1][5], hidden["card"]
    for deck in obj["decks"]:
        deck.reverse()
    return state, engine.from_json(dump(obj))


@ENGINE_PARAMS
def test_hidden_cards_do_not_leak(engine: ModuleType) -> None:
    a, b = twin_positions(engine)
    assert a.to_json() != b.to_json()
    np.testing.assert_array_equal(a.observation(0), b.observation(0))
    assert a.to_json(0) == b.to_json(0)
    for seed in (0, 1, 2**64 - 1):
        assert a.determinize(0, seed=seed).to_json() == b.determinize(0, seed=seed).to_json()
    # The owner of the hidden card does see it: the test could fail.
    assert not np.array_equal(a.observation(1), b.observation(1))
    assert a.to_json(1) != b.to_json(1)


@ENGINE_PARAMS
def test_determinize_keeps_the_view(engine: ModuleType) -> None:
    state = midgame(engine)
    for seat in range(3):
        seen = set()
        for seed in range(5):
            d = state.determinize(seat, seed=seed)
            assert d.to_json(seat) == state.to_json(seat)
            assert engine.from_json(d.to_json()).to_json() == d.to_json()
            assert d.to_json() == state.determinize(seat, seed=seed).to_json()
            seen.add(d.to_json())
        assert len(seen) > 1


def test_determinize_follows_the_contract_order() -> None:
    state = ref.new_game("base", seed=21)
    for text in ("take wug", "reserve deck 2", "reserve deck 3", "take urk"):
        state.apply(text)
    obj = json.loads(state.to_json())
    rng = SplitMix64(99)
    expected = []
    for level in range(3):
        opp = [r for r in obj["players"][1]["reserved"] if r["hidden"] and r["level"] == level + 1]
        pool = sorted([r["card"] for r in opp] + obj["decks"][level])
        rng.shuffle(pool)
        expected.append((pool[: len(opp)], pool[len(opp) :]))
    d = json.loads(state.determinize(0, seed=99).to_json())
    assert d["players"][1]["reserved"][0]["card"] == expected[1][0][0]
    assert d["decks"] == [e[1] for e in expected]
    assert d["players"][0]["reserved"] == obj["players"][0]["reserved"]


# ------------------------------------------------------------- python surface


@ENGINE_PARAMS
def test_observation_layout(engine: ModuleType) -> None:
    a, _ = twin_positions(engine)
    obj = json.loads(a.to_json())
    o0, o1 = a.observation(0), a.observation(1)
    assert o0.shape == (432,) and o0.dtype == np.float32
    assert list(o0[:6]) == obj["bank"]
    players = 6 + 144 + 3 + 30
    assert list(o0[players : players + 6]) == obj["players"][0]["tokens"]
    assert list(o1[players : players + 6]) == obj["players"][1]["tokens"]
    assert list(o0[players + 56 : players + 62]) == obj["players"][1]["tokens"]
    reserve = players + 14
    assert list(o0[reserve : reserve + 3]) == [1, 1, 3]  # own blind reserve: known
    assert list(o0[reserve + 56 : reserve + 56 + 3]) == [1, 0, 2]  # opponent's: level only
    assert not o0[reserve + 56 + 3 : reserve + 56 + 14].any()
    assert list(o0[-3:]) == [1, 0, 0]
    assert not o0[players + 2 * 56 : players + 4 * 56].any()  # absent seats


@ENGINE_PARAMS
def test_copies_and_equality(engine: ModuleType) -> None:
    state = midgame(engine)
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert other == state and other.to_json() == state.to_json()
    child = state.child(state.legal_actions()[0])
    assert child != state and state.to_json() != child.to_json()
    clone = state.clone()
    clone.apply(clone.legal_actions()[-1])
    assert clone != state
    assert "BaseState" in repr(state) and len(str(state).splitlines()) > 5


@ENGINE_PARAMS
def test_bad_observer(engine: ModuleType) -> None:
    state = engine.new_game("base")
    for seat in (-1, 2):
        with pytest.raises(ValueError):
            state.observation(seat)
        with pytest.raises(ValueError):
            state.to_json(seat)
        with pytest.raises(ValueError):
            state.determinize(seat, seed=0)


def test_affordability_matches_the_payment_list() -> None:
    from splendor.reference.base.rules import can_afford, payments

    checked = 0
    for seed in range(6):
        state = ref.new_game("base", players=2, seed=seed)
        rng = SplitMix64(seed)
        while not state.is_terminal():
            me = state.mover()
            for a in range(45, 60):
                card = state.buy_target(a)
                if card is not None:
                    ways = payments(me, card)
                    assert can_afford(me, me.bonuses(), card) == bool(ways)
                    assert ways == sorted(ways) and len(set(ways)) == len(ways)
                    checked += 1
            legal = state.legal_action_ids()
            state.apply(legal[rng.below(len(legal))])
    assert checked > 1000
