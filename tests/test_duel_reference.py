"""Splendor Duel: data, action table, setup, conformance, bad input and no-leak tests.

Tests taking an ``engine`` run on every engine of ``tests/engines.py``; the others
test the reference engine's own modules.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations, pairwise
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import splendor.reference as ref
from engines import ENGINES
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from splendor.reference.duel import actions as duel_actions
from splendor.reference.duel import board as duel_board
from splendor.reference.duel import cards as duel_data
from splendor.reference.rng import SplitMix64

ENGINE_PARAMS = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))


def dump(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def play_random(state: Any, rng: SplitMix64, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_action_ids()
        state.apply(legal[rng.below(len(legal))])


# ---------------------------------------------------------------------------- data


def test_card_data_matches_the_digest() -> None:
    cards, royals = duel_data.CARDS, duel_data.ROYALS
    assert Counter(c.level for c in cards) == {1: 30, 2: 24, 3: 13}
    assert sum(c.points for c in cards) == 92
    assert sum(c.crowns for c in cards) == 28
    for k in range(5):
        assert sum(c.cost[k] for c in cards) == 81
    assert sum(c.cost[5] for c in cards) == 29
    assert [r.points for r in royals] == [2, 2, 2, 3]
    assert [r.abilities for r in royals] == [("steal",), ("again",), ("privilege",), ()]
    # rules §6.1: the data errors found in public repositories are not in ours.
    assert cards[26].cost == (4, 0, 0, 0, 0, 1) and cards[26].crowns == 1
    assert cards[34].bonus_count == 1 and cards[34].crowns == 1
    assert cards[66].cost == (8, 0, 0, 0, 0, 0) and cards[66].points == 6
    assert [c.id for c in cards if c.bonus_count == 2] == [33, 37, 41, 45, 49]
    assert [c.id for c in cards if c.abilities == ("wild", "again")] == [64]
    assert len(duel_data.JOKERS) == 9


def test_colour_wheel_symmetry() -> None:
    # Rotating a white card one step along the wheel gives the next colour's card.
    for level in (1, 2, 3):
        by_colour = [
            [c for c in duel_data.CARDS if c.level == level and c.bonus == k] for k in range(5)
        ]
        for k in range(5):
            for a, b in zip(by_colour[k], by_colour[(k + 1) % 5], strict=True):
                rotated = (*tuple(a.cost[(j - 1) % 5] for j in range(5)), a.cost[5])
                assert rotated == b.cost
                assert (a.points, a.crowns, a.abilities) == (b.points, b.crowns, b.abilities)


# ------------------------------------------------------------------------- actions


def test_lines_match_brute_force() -> None:
    def is_line(cells: tuple[int, ...]) -> bool:
        if len(cells) == 1:
            return True
        steps = {(b // 5 - a // 5, b % 5 - a % 5) for a, b in pairwise(cells)}
        if len(steps) != 1:
            return False
        dr, dc = steps.pop()
        return max(abs(dr), abs(dc)) == 1

    brute = {frozenset(c) for n in (1, 2, 3) for c in combinations(range(25), n) if is_line(c)}
    assert len(brute) == 145 == len(duel_board.LINES)
    assert {frozenset(c) for c in duel_board.LINES} == brute
    assert Counter(len(c) for c in duel_board.LINES) == {1: 25, 2: 72, 3: 48}


def test_every_action_id_round_trips() -> None:
    texts = set()
    for a in range(duel_actions.NUM_ACTIONS):
        text = duel_actions.action_text(a)
        texts.add(text)
        assert duel_actions.parse_action(text) == a
        assert duel_actions.parse_action(f"  {text.upper()} ") == a
    assert len(texts) == duel_actions.NUM_ACTIONS == 358
    assert duel_actions.parse_action("take c3 a1 b2") == duel_actions.parse_action("take a1 b2 c3")
    assert duel_actions.action_text(duel_actions.PAY + 1) == "pay gold p"


@pytest.mark.parametrize(
    "junk", ["", "take", "take a1 c1", "take a1 a1", "take f1", "buy 1.6", "pay gold y", "royal 4"]
)
def test_bad_action_text(junk: str) -> None:
    with pytest.raises(InvalidActionError):
        duel_actions.parse_action(junk)


# --------------------------------------------------------------------------- setup


def test_setup_follows_the_documented_draw_order() -> None:
    seed = 1234
    state = ref.new_game("duel", seed=seed)
    full = json.loads(state.to_json())
    rng = SplitMix64(seed)
    decks = []
    for level in range(3):
        deck = list(duel_data.LEVEL_IDS[level])
        rng.shuffle(deck)
        decks.append(deck)
    bag = [k for k in range(7) for _ in range(duel_data.TOKEN_TOTALS[k])]
    rng.shuffle(bag)
    board: list[str | None] = [None] * 25
    for pos, kind in enumerate(bag):
        board[duel_board.SPIRAL[pos]] = duel_data.KINDS[kind]
    assert full["pyramid"] == [decks[0][:5], decks[1][:4], decks[2][:3]]
    assert full["decks"] == [decks[0][5:], decks[1][4:], decks[2][3:]]
    assert full["board"] == board
    assert full["chance"] == rng.next_u64()
    assert [p["privileges"] for p in full["players"]] == [0, 1]
    assert full["current"] == 0 and full["royals"] == [0, 1, 2, 3] and full["bag"] == [0] * 7


@ENGINE_PARAMS
def test_bad_config(engine: ModuleType) -> None:
    for kwargs in ({"players": 3}, {"players": 1}, {"turn_cap": 0}, {"seed": -1}):
        with pytest.raises(ConfigError):
            engine.new_game("duel", **kwargs)
    assert engine.new_game("duel", players=2).num_players == 2


# --------------------------------------------------------------------- conformance


def check_invariants(state: Any) -> None:
    full = json.loads(state.to_json())
    counts = list(full["bag"])
    for cell in full["board"]:
        if cell is not None:
            counts["wugrkpy".index(cell)] += 1
    cards = sum(len(d) for d in full["decks"]) + sum(
        c is not None for row in full["pyramid"] for c in row
    )
    royals = len(full["royals"])
    privileges = 0
    for seat, p in enumerate(full["players"]):
        counts = [a + b for a, b in zip(counts, p["tokens"], strict=True)]
        cards += len(p["cards"]) + len(p["reserved"])
        royals += len(p["royals"])
        privileges += p["privileges"]
        assert len(p["reserved"]) <= 3 and len(p["royals"]) <= 2
        if full["current"] != seat:
            assert sum(p["tokens"]) <= 10
    assert counts == [4, 4, 4, 4, 4, 2, 3]
    assert cards == 67 and royals == 4 and privileges <= 3


@ENGINE_PARAMS
def test_random_games_keep_the_invariants(engine: ModuleType) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(200):
        state = engine.new_game("duel", seed=seed)
        rng = SplitMix64(seed + 99)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_action_ids()
            assert legal == sorted(set(legal)) and legal
            state.apply(legal[rng.below(len(legal))])
            check_invariants(state)
            steps += 1
            if steps % 25 == 0:
                assert engine.from_json(state.to_json()).to_json() == state.to_json()
        outcome = state.outcome()
        assert outcome is not None
        reasons[outcome.reason] += 1
        assert sum(state.returns()) in (0.0, 1.0)
    assert {"points", "crowns", "colour"} <= set(reasons)


@ENGINE_PARAMS
def test_same_seed_same_game(engine: ModuleType) -> None:
    a, b = engine.new_game("duel", seed=5), engine.new_game("duel", seed=5)
    play_random(a, SplitMix64(1), 80)
    play_random(b, SplitMix64(1), 80)
    assert a.to_json() == b.to_json()
    assert engine.new_game("duel", seed=6).to_json() != engine.new_game("duel", seed=5).to_json()


# ---------------------------------------------------------------------- bad input


@ENGINE_PARAMS
def test_bad_actions_leave_the_state_unchanged(engine: ModuleType) -> None:
    state = engine.new_game("duel", seed=3)
    before = state.to_json()
    for bad, error in (
        (9999, InvalidActionError),
        (-1, InvalidActionError),
        ("fly away", InvalidActionError),
        (3.5, InvalidActionError),
        ("pass", IllegalActionError),
        ("pay", IllegalActionError),
        ("discard w", IllegalActionError),
    ):
        with pytest.raises(error):
            state.apply(bad)
        assert state.to_json() == before


def _tamper(full: dict[str, Any]) -> list[dict[str, Any]]:
    out = []

    def edit(path: str, value: Any) -> None:
        obj = json.loads(dump(full))
        target = obj
        parts = path.split(".")
        for part in parts[:-1]:
            target = target[int(part)] if isinstance(target, list) else target[part]
        last = parts[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        out.append(obj)

    edit("variant", "base")
    edit("version", 2)
    edit("num_players", 3)
    edit("viewer", 0)
    edit("bag.0", 1)
    edit("board.12", None)
    edit("board.12", "x")
    edit("players.0.tokens.6", 1)
    edit("players.0.privileges", 3)
    edit("players.1.privileges", 4)
    edit("pyramid.0.0", 31)
    edit("pyramid.0.0", None)
    edit("decks.0", [])
    edit("deck_sizes.0", 0)
    edit("phase", "dance")
    edit("phase", "pay")
    edit("phase", "royal")
    edit("phase", "over")
    edit("current", 2)
    edit("current", None)
    edit("royals", [0, 1, 2])
    edit("royals_due", 1)
    edit("players.0.royals", [0])
    edit("players.0.cards", [0])
    edit("players.0.jokers", [[25, 0]])
    edit("turn", 10_000)
    edit("turn_cap", 0)
    edit("chance", -1)
    edit("chance", 1.5)
    edit("again", 1)
    edit("pending_card", 3)
    edit("pending_buy", 211)
    edit("players.0.reserved", [{"card": 0, "hidden": True, "level": 2}])
    edit("outcome", {"reason": "points", "winners": [0]})
    missing = json.loads(dump(full))
    del missing["players"][0]["tokens"]
    out.append(missing)
    return out


@ENGINE_PARAMS
def test_corrupt_json_is_rejected(engine: ModuleType) -> None:
    state = engine.new_game("duel", seed=11)
    full = json.loads(state.to_json())
    for i, bad in enumerate(_tamper(full)):
        with pytest.raises(InvalidStateError):
            engine.from_json(dump(bad))
        assert i >= 0
    for text in ("", "[]", "{", '{"variant":"duel"}', "null"):
        with pytest.raises(InvalidStateError):
            engine.from_json(text)


# ---------------------------------------------------------------- hidden information


def _mid_game(engine: ModuleType, seed: int) -> Any:
    """A position where both players hold a blind reserve."""
    state = engine.new_game("duel", seed=seed)
    rng = SplitMix64(seed)
    for _ in range(400):
        full = json.loads(state.to_json())
        hidden = [any(r["hidden"] for r in p["reserved"]) for p in full["players"]]
        if all(hidden) and full["phase"] == "main":
            return state
        if state.is_terminal():
            state = engine.new_game("duel", seed=seed + 1000)
            continue
        legal = [str(a) for a in state.legal_actions()]
        blind = [a for a in legal if a.startswith(("reserve deck", "gold"))]
        choice = blind if blind and not hidden[state.current_player] else legal
        state.apply(choice[rng.below(len(choice))])
    pytest.fail("no position with blind reserves found: the no-leak test needs one")


@ENGINE_PARAMS
def test_views_and_observations_do_not_leak(engine: ModuleType) -> None:
    state = _mid_game(engine, 21)
    full = json.loads(state.to_json())
    for viewer in (0, 1):
        other = 1 - viewer
        view = json.loads(state.to_json(viewer))
        assert view["decks"] is None and view["chance"] is None and view["viewer"] == viewer
        for r in view["players"][other]["reserved"]:
            assert (r["card"] is None) == r["hidden"]
        for r in view["players"][viewer]["reserved"]:
            assert r["card"] is not None
        # A state differing only in what the viewer cannot see looks the same.
        changed = json.loads(dump(full))
        changed["chance"] = full["chance"] ^ 0xFFFF
        level = next(r["level"] for r in full["players"][other]["reserved"] if r["hidden"])
        deck = changed["decks"][level - 1]
        i = next(i for i, r in enumerate(full["players"][other]["reserved"]) if r["hidden"])
        changed["players"][other]["reserved"][i]["card"], deck[0] = (
            deck[0],
            full["players"][other]["reserved"][i]["card"],
        )
        deck.reverse()
        twin = engine.from_json(dump(changed))
        assert twin.to_json(viewer) == state.to_json(viewer)
        assert np.array_equal(twin.observation(viewer), state.observation(viewer))
        assert twin.to_json() != state.to_json()
        with pytest.raises(InvalidStateError):
            engine.from_json(state.to_json(viewer))


@ENGINE_PARAMS
def test_determinize_keeps_the_view_and_resamples_the_rest(engine: ModuleType) -> None:
    state = _mid_game(engine, 33)
    for viewer in (0, 1):
        a = state.determinize(viewer, seed=1)
        b = state.determinize(viewer, seed=1)
        c = state.determinize(viewer, seed=2)
        assert a.to_json() == b.to_json()
        assert a.to_json(viewer) == state.to_json(viewer)
        assert a.to_json() != c.to_json()
        check_invariants(a)
        own = json.loads(a.to_json())["players"][viewer]["reserved"]
        assert own == json.loads(state.to_json())["players"][viewer]["reserved"]
    # The result depends only on the view: a twin differing in hidden cards gives the same.
    full = json.loads(state.to_json())
    twin = json.loads(dump(full))
    twin["decks"][0].reverse()
    twin["chance"] = 5
    assert (
        engine.from_json(dump(twin)).determinize(0, seed=9).to_json()
        == state.determinize(0, seed=9).to_json()
    )


# ------------------------------------------------------------------------ heuristic


def test_heuristic_range_and_terminal_values() -> None:
    # The Rust heuristic is used inside the search; it is tested in Rust.
    state = ref.DuelState.new(seed=2)
    rng = SplitMix64(2)
    while not state.is_terminal():
        for p in (0, 1):
            assert 0.0 < state.heuristic(p) < 1.0
        play_random(state, rng, 1)
    outcome = state.outcome()
    assert outcome is not None
    for p in (0, 1):
        expected = 0.5 if not outcome.winners else float(p in outcome.winners)
        assert state.heuristic(p) == expected


@ENGINE_PARAMS
def test_observation_and_mask_shapes(engine: ModuleType) -> None:
    state = engine.new_game("duel", seed=2)
    assert state.observation(0).shape == (696,) and state.observation(0).dtype == np.float32
    mask = state.legal_action_mask()
    assert mask.shape == (358,) and mask.sum() == len(state.legal_actions())
    play_random(state, SplitMix64(2), 10_000)
    assert not state.legal_action_mask().any()
