"""Base game, bad input: configs, actions and JSON states that must be refused.

Each case raises the right ``splendor.errors`` type with a message naming the
problem, and leaves the state exactly as it was. Runs on every engine of
``tests/engines.py``.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import splendor.reference as ref
from base_positions import dump, midgame
from engines import ENGINES
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)

ENGINE_PARAMS = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))


@ENGINE_PARAMS
@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({"variant": "chess"}, "variant"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_config(engine: ModuleType, args: dict[str, Any], match: str) -> None:
    args = dict(args)  # the parameter dict is shared by every engine
    variant = args.pop("variant", "base")
    with pytest.raises(ConfigError, match=match):
        engine.new_game(variant, **args)


@ENGINE_PARAMS
@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        ("take ww", IllegalActionError, "take ww"),  # white pile holds 3 after a take
        ("buy 3.1", IllegalActionError, "buy 3.1"),
        ("return w", IllegalActionError, "return w"),
        ("noble 1", IllegalActionError, "noble 1"),
        ("pay", IllegalActionError, "pay"),
        ("pass", IllegalActionError, "pass"),
        (328, IllegalActionError, "pass"),
        ("teke wug", InvalidActionError, "teke"),
        (-1, InvalidActionError, "-1"),
        (329, InvalidActionError, "329"),
        (1.5, InvalidActionError, None),
        (None, InvalidActionError, None),
        ([0], InvalidActionError, None),
    ],
)
def test_bad_actions_leave_the_state_alone(
    engine: ModuleType, action: object, error: type[Exception], match: str | None
) -> None:
    state = engine.new_game("base", seed=4)
    state.apply("take wug")
    before = state.to_json()
    with pytest.raises(error, match=match):
        state.apply(action)
    with pytest.raises(error):
        state.child(action)
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("action", "match"), [(True, "bool"), (1.5, "float"), (None, "NoneType"), ([0], "list")]
)
def test_wrong_action_types_are_named(action: object, match: str) -> None:
    state = ref.new_game("base")
    with pytest.raises(InvalidActionError, match=match):
        state.apply(action)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match=match):
        state.action_from_id(action)  # type: ignore[arg-type]


@ENGINE_PARAMS
def test_numpy_ids_are_accepted(engine: ModuleType) -> None:
    state = engine.new_game("base", seed=2)
    best = np.int64(np.argmax(state.legal_action_mask()))
    assert int(state.action_from_id(best)) == int(best)
    state.apply(best)
    assert json.loads(state.to_json())["turn"] == 1


@ENGINE_PARAMS
def test_no_action_after_the_end(engine: ModuleType) -> None:
    state = engine.new_game("base", seed=8, turn_cap=1)
    state.apply("take wug")
    state.apply("take wug")
    assert state.is_terminal() and state.outcome().truncated
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("take wug")
    assert state.to_json() == before


def _move_noble_to_player(o: dict[str, Any]) -> None:
    o["players"][0]["nobles"].append(o["nobles"].pop())


def _extra_reserve(o: dict[str, Any]) -> None:
    for _ in range(4 - len(o["players"][2]["reserved"])):
        card = o["decks"][0].pop()
        o["players"][2]["reserved"].append({"card": card, "hidden": False, "level": 1})
    o["deck_sizes"][0] = len(o["decks"][0])


def _set(path: str, value: Any) -> Any:
    def edit(root: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = root
        for part in head:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


TAMPERING: dict[str, tuple[Any, str]] = {
    "bank_plus_one": (lambda o: o["bank"].__setitem__(0, o["bank"][0] + 1), "token"),
    "gold_moved_away": (lambda o: o["bank"].__setitem__(5, o["bank"][5] - 1), "token"),
    "negative_tokens": (_set("players.1.tokens.2", -1), "token"),
    "float_count": (_set("bank.0", 1.5), "bank"),
    "duplicated_card": (lambda o: o["decks"][0].__setitem__(0, o["board"][0][0]), "card"),
    "unknown_card": (_set("decks.0.0", 90), "card"),
    "card_in_wrong_deck": (
        lambda o: (
            o["decks"][0].append(o["decks"][1].pop()),
            o["decks"][1].append(o["decks"][0].pop(0)),
        ),
        "deck|level",
    ),
    "deck_sizes_mismatch": (_set("deck_sizes.0", 0), "deck"),
    "too_many_reserved": (_extra_reserve, "reserved"),
    "reserve_level_mismatch": (_set("players.0.reserved.0.level", 3), "level"),
    "reserve_hidden_not_bool": (_set("players.0.reserved.0.hidden", 1), "hidden"),
    "unqualified_noble": (_move_noble_to_player, "noble"),
    "unknown_noble": (_set("nobles.0", 10), "noble"),
    "impossible_phase": (_set("phase", "dance"), "phase"),
    "return_phase_at_ten": (_set("phase", "return"), "return|phase"),
    "noble_phase_without_choice": (_set("phase", "noble"), "noble|phase"),
    "over_without_end": (lambda o: o.update(phase="over", current=None), "over|end"),
    "pay_without_pending": (_set("phase", "pay"), "pending|pay"),
    "pending_in_main": (_set("pending", 45), "pending"),
    "current_mismatch": (lambda o: o.update(current=(o["current"] + 1) % 3), "current"),
    "turn_negative": (_set("turn", -1), "turn"),
    "turn_cap_zero": (_set("turn_cap", 0), "turn_cap"),
    "passes_out_of_range": (_set("passes", 9), "passes"),
    "wrong_version": (_set("version", 2), "version"),
    "float_version": (_set("version", 1.0), "version"),
    "unknown_key": (_set("colour", "red"), "key"),
    "wrong_player_count": (_set("num_players", 5), "num_players|player"),
    "missing_key": (lambda o: o.pop("bank"), "bank"),
}


@ENGINE_PARAMS
@pytest.mark.parametrize("name", list(TAMPERING))
def test_tampered_json_is_rejected(engine: ModuleType, name: str) -> None:
    state = midgame(engine)
    obj = json.loads(state.to_json())
    assert obj["phase"] == "main" and obj["players"][0]["reserved"]
    edit, match = TAMPERING[name]
    edit(obj)
    with pytest.raises(InvalidStateError, match=f"(?i){match}"):
        engine.from_json(dump(obj))


@ENGINE_PARAMS
@pytest.mark.parametrize(
    "text", ["", "{", "[]", "null", "17", '{"variant": "chess"}', "[" * 100000]
)
def test_corrupt_json_is_rejected(engine: ModuleType, text: str) -> None:
    with pytest.raises(InvalidStateError):
        engine.from_json(text)


@ENGINE_PARAMS
def test_a_view_cannot_be_loaded(engine: ModuleType) -> None:
    state = midgame(engine)
    for seat in range(3):
        with pytest.raises(InvalidStateError, match="view"):
            engine.from_json(state.to_json(seat))
    with pytest.raises(InvalidStateError, match="view"):
        engine.from_json(state.to_json().replace('"viewer":null', '"viewer":0'))
