"""splendor.from_view: a player's view loads as a full state consistent with it, in both engines,
and nothing hidden leaks into the result or into a search from it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import splendor
import splendor.reference as ref
from splendor.errors import InvalidStateError

SETUPS = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)]


def midgame(engine: Any, variant: str, players: int, seed: int = 3) -> Any:
    """A game some turns in, with blind reserves so that opponents hold hidden cards."""
    state = engine.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        blind = [a for a in legal if "deck" in str(a) or str(a).startswith("gold")]
        state.apply(blind[0] if blind and rng.random() < 0.5 else rng.choice(legal))
    return state


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_view_loads_consistent_and_both_engines_agree(variant: str, players: int) -> None:
    state = midgame(splendor, variant, players)
    for viewer in range(players):
        view = state.to_json(viewer)
        rust = splendor.from_view(view, seed=7)
        python = ref.from_view(view, seed=7)
        assert rust.to_json() == python.to_json()
        assert rust.to_json(viewer) == view
        assert json.loads(rust.to_json())["viewer"] is None


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_hidden_cards_are_redrawn_from_the_seed(variant: str, players: int) -> None:
    state = midgame(splendor, variant, players)
    view = state.to_json(0)
    deals = {splendor.from_view(view, seed=s).to_json() for s in range(8)}
    assert len(deals) > 1


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_no_leak_whatever_the_hidden_cards_were(variant: str, players: int) -> None:
    state = midgame(splendor, variant, players)
    seat = state.current_player
    other = state.determinize(seat, seed=99)
    assert other.to_json() != state.to_json()
    assert other.to_json(seat) == state.to_json(seat)
    a = splendor.from_view(state.to_json(seat), seed=1)
    b = splendor.from_view(other.to_json(seat), seed=1)
    assert a.to_json() == b.to_json()
    ra = splendor.search(a, iterations=300, seed=4)
    rb = splendor.search(b, iterations=300, seed=4)
    assert ra.action == rb.action
    assert ra.visits == rb.visits


def test_full_state_loads_as_is() -> None:
    state = midgame(splendor, "base", 2)
    assert splendor.from_view(state.to_json(), seed=3) == state
    assert ref.from_view(state.to_json(), seed=3).to_json() == state.to_json()


def tamper(view: str, change: Any) -> str:
    obj = json.loads(view)
    change(obj)
    return json.dumps(obj)


def _dup_card(v: dict[str, Any]) -> None:
    v["players"][1]["cards"].append(v["board"][0][0])


def _deck_plus(v: dict[str, Any]) -> None:
    v["deck_sizes"][0] += 1


def _viewer_out(v: dict[str, Any]) -> None:
    v["viewer"] = 9


def _decks_shown(v: dict[str, Any]) -> None:
    v["decks"] = [[], [], []]


def _token_added(v: dict[str, Any]) -> None:
    v["players"][0]["tokens"][0] += 1


def _variant(v: dict[str, Any]) -> None:
    v["variant"] = "chess"


def _card_id(v: dict[str, Any]) -> None:
    v["board"][0][0] = 10_000


def _own_hidden(v: dict[str, Any]) -> None:
    v["players"][0]["reserved"] = [{"card": None, "hidden": True, "level": 1}]


def _reveal_blind(v: dict[str, Any]) -> None:
    v["players"][1]["reserved"][0]["card"] = v["players"][0]["cards"][0]


@pytest.mark.parametrize(
    "change",
    [
        _reveal_blind,
        _dup_card,
        _deck_plus,
        _viewer_out,
        _decks_shown,
        _token_added,
        _variant,
        _card_id,
        _own_hidden,
    ],
)
@pytest.mark.parametrize("engine", [splendor, ref])
def test_tampered_views_are_refused(engine: Any, change: Any) -> None:
    state = midgame(splendor, "base", 2)
    with pytest.raises(InvalidStateError):
        engine.from_view(tamper(state.to_json(0), change), seed=0)


@pytest.mark.parametrize("engine", [splendor, ref])
def test_malformed_views_are_refused(engine: Any) -> None:
    for text in ["", "{", "[]", "null", '{"variant":"base","viewer":0}']:
        with pytest.raises(InvalidStateError):
            engine.from_view(text, seed=0)


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_random_tampering_raises_only_invalid_state(variant: str, players: int) -> None:
    state = midgame(splendor, variant, players)
    base = json.loads(state.to_json(0))
    rng = random.Random(variant)
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if isinstance(value, (dict, list)):
                walk(value)
            paths.append((node, key))

    walk(base)
    for _ in range(150):
        node, key = rng.choice(paths)
        old = node[key]
        node[key] = rng.choice([None, -1, 0, 1, 3, 200, "x", [], {}, True, 2**70])
        text = json.dumps(base)
        node[key] = old
        for engine in (splendor, ref):
            try:
                loaded = engine.from_view(text, seed=1)
            except InvalidStateError:
                continue
            # A change that is still a consistent view loads as a state showing that view.
            assert json.loads(loaded.to_json(0)) == json.loads(text)
