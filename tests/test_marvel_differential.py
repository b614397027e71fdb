"""Marvel differential tests: the Rust engine and the reference in lockstep.

Seeded random games (500 per player count) compare, at every decision, the
legal action ids and the full JSON, and at the end the outcome and views; bad
input must raise the same exception type on both engines.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
import splendor.reference as ref
from splendor.errors import SplendorError
from splendor.reference.rng import SplitMix64

GAMES = int(os.environ.get("MARVEL_DIFF_GAMES", "500"))
DATA = Path(__file__).parents[1] / "python" / "splendor" / "data" / "marvel"


def lockstep(players: int, seed: int, deep: bool) -> None:
    """One game on both engines; ``deep`` also compares views, observations, determinize."""
    r = ref.new_game("marvel", players=players, seed=seed)
    f = splendor.new_game("marvel", players=players, seed=seed)
    rng = SplitMix64(seed ^ 0xD1FF)
    step = 0
    while True:
        assert f.to_json() == r.to_json(), f"{players}p seed {seed} step {step}"
        ids = r.legal_action_ids()
        assert f.legal_action_ids() == ids, f"{players}p seed {seed} step {step}"
        if deep and step % 10 == 0:
            for p in range(players):
                assert f.to_json(p) == r.to_json(p)
                np.testing.assert_array_equal(f.observation(p), r.observation(p))
                assert abs(f.heuristic(p) - r.heuristic(p)) <= 1e-5
                assert (
                    f.determinize(p, seed=step).to_json() == r.determinize(p, seed=step).to_json()
                )
        if not ids:
            break
        a = ids[rng.below(len(ids))]
        f.apply(a)
        r.apply(a)
        step += 1
    fo, ro = f.outcome(), r.outcome()
    assert fo is not None and ro is not None
    assert (fo.winners, fo.reason) == (ro.winners, ro.reason)
    assert f.returns() == r.returns() and f.scores() == r.scores()
    assert str(f) == str(r)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lockstep_games(players: int) -> None:
    for seed in range(GAMES):
        lockstep(players, seed, deep=seed < 10)


def _bad_inputs() -> list[tuple[str, Any]]:
    start = json.loads(ref.new_game("marvel", players=2, seed=1).to_json())
    cases: list[tuple[str, Any]] = []
    for key, value in [
        ("card_set", 7),
        ("bank", [9, 9, 9, 9, 9, 9, 9]),
        ("phase", "pay"),
        ("avengers", 0),
        ("turn", 10**9),
        ("current", 1),
        ("locations", []),
        ("version", 2),
        ("version", 1.0),
        ("card_set", start["card_set"].upper()),
        ("card_set", 3612858093),
        ("num_players", 2.0),
        ("passes", True),
    ]:
        obj = dict(start)
        obj[key] = value
        cases.append(("json", json.dumps(obj)))
    for text in ("", "{}", "[1]", "nope", '{"variant":"marvel"}'):
        cases.append(("json", text))
    for action in (-1, 327, "take s", "recruit 3.1", "pass", 1.5, None, "location 9"):
        cases.append(("apply", action))
    return cases


@pytest.mark.parametrize(("kind", "value"), _bad_inputs())
def test_same_error_type(kind: str, value: Any) -> None:
    def run(engine: Any) -> type[BaseException] | None:
        try:
            if kind == "json":
                engine.from_json(value)
            else:
                state = engine.new_game("marvel", players=2, seed=1)
                before = state.to_json()
                try:
                    state.apply(value)
                finally:
                    assert state.to_json() == before
        except SplendorError as exc:
            return type(exc)
        return None

    got_ref, got_rust = run(ref), run(splendor)
    assert got_ref is not None
    assert got_rust is got_ref


def test_custom_card_file_on_both_engines(tmp_path: Path) -> None:
    text = (DATA / "cards.csv").read_text()
    custom = text.replace(",6,0,3,3,0,Nova", ",7,0,0,0,0,Nova").replace(
        ",7,0,0,0,0,Doctor Strange", ",6,0,3,3,0,Doctor Strange"
    )
    path = tmp_path / "cards.csv"
    path.write_text(custom)
    for cards in (path, str(path), custom):
        f = splendor.new_game("marvel", players=2, seed=3, cards=cards)
        r = ref.new_game("marvel", players=2, seed=3, cards=cards)
        assert f.to_json() == r.to_json()
        assert splendor.from_json(f.to_json()).to_json() == f.to_json()
        assert ref.from_json(r.to_json()).to_json() == r.to_json()
    broken = custom.replace("1,purple,0,0,0,0,2,0,0,2,Gorgon", "1,purple,0,0,0,0,2,0,x,2,Gorgon")
    for engine in (splendor, ref):
        with pytest.raises(splendor.CardDataError, match="row 3 column orange"):
            engine.new_game("marvel", cards=broken)
        with pytest.raises(splendor.ConfigError):
            engine.new_game("base", cards=custom)
        with pytest.raises(splendor.CardDataError):
            engine.new_game("marvel", cards=str(tmp_path / "missing.csv"))


_LOAD_IN_A_NEW_PROCESS = """
import sys
import pytest
import splendor
import splendor.reference as ref
from splendor.errors import InvalidStateError

engine = splendor if sys.argv[1] == "rust" else ref
text, path, bundled_cards = open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
# This process never loaded the custom set: its identity alone finds nothing ...
with pytest.raises(InvalidStateError, match="card_set"):
    engine.MarvelState.from_json(text)
# ... the files do, and the loaded state is the saved one.
assert engine.MarvelState.from_json(text, cards=path).to_json() == text
# Files whose set is not the recorded one are refused, even bundled ones.
with pytest.raises(InvalidStateError, match="card_set"):
    engine.MarvelState.from_json(text, cards=bundled_cards)
bundled = splendor.new_game("marvel").to_json()
with pytest.raises(InvalidStateError, match="card_set"):
    engine.MarvelState.from_json(bundled, cards=path)
print("ok")
"""


@pytest.mark.parametrize("name", ["reference", "rust"])
def test_a_custom_set_state_loads_in_a_new_process_with_its_files(
    name: str, tmp_path: Path
) -> None:
    text = (DATA / "cards.csv").read_text()
    custom = text.replace(",6,0,3,3,0,Nova", ",7,0,0,0,0,Nova").replace(
        ",7,0,0,0,0,Doctor Strange", ",6,0,3,3,0,Doctor Strange"
    )
    cards = tmp_path / "cards.csv"
    cards.write_text(custom)
    saved = tmp_path / "state.json"
    saved.write_text(splendor.new_game("marvel", seed=4, cards=cards).to_json())
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            _LOAD_IN_A_NEW_PROCESS,
            *(name, str(saved), str(cards), str(DATA / "cards.csv")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def _with_hidden_reserve(engine: Any) -> Any:
    """A 3-player state where seat 1 holds a blind reserve (seeded random play)."""
    s = engine.new_game("marvel", players=3, seed=21)
    rng = SplitMix64(21)
    while True:
        obj = json.loads(s.to_json())
        if s.current_player == 2 and any(r["hidden"] for r in obj["players"][1]["reserved"]):
            return s
        ids = s.legal_action_ids()
        blind = [a for a in ids if 42 <= a < 45]
        mover_is_1 = s.current_player == 1
        s.apply(blind[0] if mover_is_1 and blind else ids[rng.below(len(ids))])


@pytest.mark.parametrize("name", ["reference", "rust"])
def test_hidden_cards_do_not_leak(name: str) -> None:
    engine = ref if name == "reference" else splendor
    s = _with_hidden_reserve(engine)
    obj = json.loads(s.to_json())
    res = next(r for r in obj["players"][1]["reserved"] if r["hidden"])
    lv = res["level"] - 1
    # Swap seat 1's blind card with the top of its deck: only seat 1 can tell.
    res["card"], obj["decks"][lv][0] = obj["decks"][lv][0], res["card"]
    t = engine.from_json(json.dumps(obj))
    assert t.to_json() != s.to_json()
    for viewer in (0, 2):
        assert t.to_json(viewer) == s.to_json(viewer)
        np.testing.assert_array_equal(t.observation(viewer), s.observation(viewer))
        assert t.determinize(viewer, seed=5).to_json() == s.determinize(viewer, seed=5).to_json()
        assert t.legal_action_ids() == s.legal_action_ids()
    assert t.to_json(1) != s.to_json(1)
    assert not np.array_equal(t.observation(1), s.observation(1))


def test_mutated_json_same_verdict_on_both_engines() -> None:
    """Random field corruptions: both engines reject, or both load the same state."""
    rng = SplitMix64(7)
    junk: list[Any] = [None, True, -1, 0, 1, 2, 3, 70_000, 1.5, "x", []]
    for i in range(200):
        s = ref.new_game("marvel", players=2 + i % 3, seed=i)
        for _ in range(rng.below(150)):
            if s.is_terminal():
                break
            ids = s.legal_action_ids()
            s.apply(ids[rng.below(len(ids))])
        obj = json.loads(s.to_json())
        slots: list[tuple[Any, Any]] = []

        def walk(v: Any, slots: list[tuple[Any, Any]] = slots) -> None:
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for k, x in items:
                slots.append((v, k))
                if isinstance(x, (dict, list)):
                    walk(x)

        walk(obj)
        parent, key = slots[rng.below(len(slots))]
        old = parent[key]
        if isinstance(old, int) and not isinstance(old, bool) and rng.below(2):
            parent[key] = old + rng.below(5) - 2
        else:
            parent[key] = junk[rng.below(len(junk))]
        text = json.dumps(obj)
        verdicts = []
        for engine in (ref, splendor):
            try:
                verdicts.append(engine.from_json(text).to_json())
            except splendor.InvalidStateError:
                verdicts.append("rejected")
        assert verdicts[0] == verdicts[1], f"game {i}: {key!r} {old!r} -> {parent[key]!r}"
