"""Bad input of every kind raises the typed exception, names the problem, changes nothing."""

from __future__ import annotations

import json
import re
from types import ModuleType
from typing import Any

import pytest
import splendor
from engines import ENGINES
from splendor.errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    SplendorError,
)
from splendor.reference.rng import SplitMix64

ENGINE_IDS = sorted(ENGINES)


@pytest.fixture(params=ENGINE_IDS)
def engine(request: pytest.FixtureRequest) -> ModuleType:
    return ENGINES[request.param]


def midgame(engine: ModuleType, players: int = 2, seed: int = 3, decisions: int = 30) -> Any:
    s = engine.new_game("base", players=players, seed=seed)
    rng = SplitMix64(seed)
    for _ in range(decisions):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    assert not s.is_terminal()
    return s


def raises_unchanged(state: Any, action: object, error: type[Exception], pattern: str) -> None:
    before = state.to_json()
    with pytest.raises(error, match=re.compile(pattern, re.IGNORECASE)):
        state.apply(action)
    assert state.to_json() == before
    with pytest.raises(error):
        state.child(action)
    assert state.to_json() == before


def test_illegal_action(engine: ModuleType) -> None:
    s = engine.new_game("base", seed=1)
    # Paying and returning are not legal in the main phase; both name the action.
    raises_unchanged(s, "return w", IllegalActionError, "return w")
    raises_unchanged(s, 60, IllegalActionError, "return w")
    raises_unchanged(s, "buy reserved 1", IllegalActionError, "buy reserved 1")
    raises_unchanged(s, "pass", IllegalActionError, "pass")


def test_unparsable_text(engine: ModuleType) -> None:
    s = midgame(engine)
    for text in ("", "   ", "take xyz", "buy 4.1", "buy 1.5", "reserve deck 0", "fly", "take wwg"):
        raises_unchanged(s, text, InvalidActionError, re.escape(text.strip()) or ".")


def test_out_of_range_id(engine: ModuleType) -> None:
    s = midgame(engine)
    for i in (329, 330, 10**6, -1, 2**70):
        raises_unchanged(s, i, InvalidActionError, str(i))


def test_wrong_type(engine: ModuleType) -> None:
    s = midgame(engine)
    for junk in (None, 1.0, b"take wug", [0], True):
        raises_unchanged(s, junk, InvalidActionError, type(junk).__name__)


@pytest.mark.parametrize("players", [0, 1, 5, 100, -3])
def test_bad_player_count(engine: ModuleType, players: int) -> None:
    with pytest.raises(ConfigError, match=str(players)):
        engine.new_game("base", players=players)


def test_unknown_variant(engine: ModuleType) -> None:
    with pytest.raises(ConfigError, match="chess"):
        engine.new_game("chess")


def _tamper(state: Any, edit: Any) -> str:
    obj = json.loads(state.to_json())
    edit(obj)
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _set(obj: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    if isinstance(obj, list):
        obj[int(last)] = value
    else:
        obj[last] = value


def _reserved_state(engine: ModuleType) -> Any:
    s = engine.new_game("base", seed=9)
    s.apply("reserve 1.1")
    return s


def _duplicate_board_card(o: dict[str, Any]) -> None:
    o["board"][0][1] = o["board"][0][0]


def _card_in_wrong_level(o: dict[str, Any]) -> None:
    o["board"][0][0], o["board"][2][0] = o["board"][2][0], o["board"][0][0]


def _extra_token(o: dict[str, Any]) -> None:
    o["bank"][0] += 1


def _moved_token(o: dict[str, Any]) -> None:
    o["bank"][1] -= 1


def _phase_return_under_ten(o: dict[str, Any]) -> None:
    o["phase"] = "return"


def _phase_pay_without_pending(o: dict[str, Any]) -> None:
    o["phase"] = "pay"


def _phase_noble_without_nobles(o: dict[str, Any]) -> None:
    o["phase"] = "noble"


def _phase_unknown(o: dict[str, Any]) -> None:
    o["phase"] = "lunch"


def _missing_card(o: dict[str, Any]) -> None:
    o["decks"][0].pop()
    o["deck_sizes"][0] -= 1


def _unknown_card(o: dict[str, Any]) -> None:
    o["decks"][0][0] = 90


def _negative_tokens(o: dict[str, Any]) -> None:
    o["players"][0]["tokens"][2] = -1
    o["bank"][2] += 1


def _wrong_variant(o: dict[str, Any]) -> None:
    o["variant"] = "duel"


def _wrong_version(o: dict[str, Any]) -> None:
    o["version"] = 2


def _bad_current(o: dict[str, Any]) -> None:
    o["current"] = 1 - o["current"]


def _noble_not_earned(o: dict[str, Any]) -> None:
    o["players"][0]["nobles"] = [o["nobles"].pop()]


def _too_many_players(o: dict[str, Any]) -> None:
    o["num_players"] = 5


TAMPERS = {
    "wrong token totals": (_extra_token, r"token|bank|gem|\bw\b|white"),
    "token lost": (_moved_token, r"token|bank|gem|blue|\bu\b"),
    "negative tokens": (_negative_tokens, r"negative|token|-1"),
    "duplicated card": (_duplicate_board_card, r"card|twice|duplicat"),
    "card in the wrong level": (_card_in_wrong_level, r"level|card"),
    "missing card": (_missing_card, r"card|missing"),
    "unknown card": (_unknown_card, r"card|90|unknown"),
    "return phase with 10 or fewer tokens": (_phase_return_under_ten, r"phase|return|token"),
    "pay phase without a pending buy": (_phase_pay_without_pending, r"phase|pay|pending"),
    "noble phase with no qualifying noble": (_phase_noble_without_nobles, r"phase|noble"),
    "unknown phase": (_phase_unknown, r"phase|lunch"),
    "wrong variant": (_wrong_variant, r"variant|duel"),
    "wrong version": (_wrong_version, r"version"),
    "current seat not to move": (_bad_current, r"current|seat|turn"),
    "noble not earned": (_noble_not_earned, r"noble"),
    "bad player count": (_too_many_players, r"player"),
}


@pytest.mark.parametrize("kind", sorted(TAMPERS))
def test_tampered_json(engine: ModuleType, kind: str) -> None:
    edit, pattern = TAMPERS[kind]
    s = _reserved_state(engine)
    before = s.to_json()
    text = _tamper(s, edit)
    assert text != before
    cls = type(s)
    with pytest.raises(InvalidStateError, match=re.compile(pattern, re.IGNORECASE)):
        cls.from_json(text)
    if kind != "wrong variant":
        with pytest.raises(InvalidStateError, match=re.compile(pattern, re.IGNORECASE)):
            engine.from_json(text)
    assert s.to_json() == before


@pytest.mark.parametrize(
    "text", ["", "{", "[]", "null", "42", '"base"', '{"variant":"base"}', "{}", "not json"]
)
def test_corrupt_json(engine: ModuleType, text: str) -> None:
    with pytest.raises(InvalidStateError):
        engine.from_json(text)


def test_views_cannot_be_loaded(engine: ModuleType) -> None:
    s = _reserved_state(engine)
    with pytest.raises(InvalidStateError, match=re.compile("view", re.IGNORECASE)):
        engine.from_json(s.to_json(0))


def test_bad_seat_arguments(engine: ModuleType) -> None:
    s = midgame(engine)
    before = s.to_json()
    for bad in (-1, 2, 7):
        with pytest.raises(ConfigError, match=str(bad)):
            s.to_json(bad)
        with pytest.raises(ConfigError, match=str(bad)):
            s.observation(bad)
        with pytest.raises(ConfigError, match=str(bad)):
            s.determinize(bad, seed=0)
    assert s.to_json() == before


# ------------------------------------------------------------ fuzz (Rust side)

FUZZ_CASES = 300


def _mutate_value(rng: SplitMix64, value: Any) -> Any:
    choices: list[Any] = [
        None,
        -1,
        0,
        1,
        3,
        10,
        89,
        90,
        255,
        256,
        2**31,
        2**63,
        -(2**63),
        2**64,
        "x",
        "main",
        [],
        {},
        True,
        1.5,
    ]
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [value + 1, value - 1, -value]
    if isinstance(value, list) and value:
        choices += [value[:-1], [*value, value[0]], list(reversed(value))]
    return choices[rng.below(len(choices))]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _structural_mutation(rng: SplitMix64, text: str) -> str:
    obj = json.loads(text)
    paths = _paths(obj)
    for _ in range(1 + rng.below(3)):
        path = paths[rng.below(len(paths))]
        parent = obj
        try:
            for part in path[:-1]:
                parent = parent[part]
            if isinstance(parent, dict) and rng.below(8) == 0:
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = _mutate_value(rng, parent[path[-1]])
        except (KeyError, IndexError, TypeError):
            continue
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _byte_mutation(rng: SplitMix64, text: str) -> str:
    chars = list(text)
    for _ in range(1 + rng.below(4)):
        i = rng.below(len(chars))
        op = rng.below(3)
        if op == 0:
            chars[i] = '0123456789-,:[]{}"nulltrue'[rng.below(26)]
        elif op == 1:
            del chars[i]
        else:
            chars.insert(i, "0123456789,]"[rng.below(12)])
    return "".join(chars)


def _fuzz_sources() -> list[str]:
    texts = []
    for players, seed, decisions in ((2, 1, 0), (3, 2, 25), (4, 3, 60), (2, 4, 80)):
        s = splendor.new_game("base", players=players, seed=seed)
        rng = SplitMix64(seed)
        for _ in range(decisions):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        texts.append(s.to_json())
    return texts


def test_fuzzed_json_only_raises_invalid_state() -> None:
    """Random mutations of valid states: accepted (and then consistent) or InvalidStateError.

    A ``pyo3_runtime.PanicException`` is a BaseException, so a Rust panic fails here.
    Both engines must agree on whether each mutated state is acceptable.
    """
    from splendor import reference

    rng = SplitMix64(2024)
    sources = _fuzz_sources()
    accepted = 0
    for case in range(FUZZ_CASES):
        text = sources[case % len(sources)]
        bad = _structural_mutation(rng, text) if case % 2 else _byte_mutation(rng, text)
        try:
            state = splendor.from_json(bad)
        except InvalidStateError:
            with pytest.raises(SplendorError):
                reference.from_json(bad)
            continue
        except BaseException as exc:  # a panic or any other class is a bug
            pytest.fail(f"case {case}: {type(exc).__name__}: {exc} on {bad!r}")
        accepted += 1
        again = state.to_json()
        assert splendor.from_json(again).to_json() == again
        assert reference.from_json(bad).to_json() == again, f"case {case}: engines disagree"
    assert accepted < FUZZ_CASES
