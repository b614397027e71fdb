"""The golden data of ``tests/data/<variant>/`` on every engine of ``tests/engines.py``.

For each variant (``tests/data/README.md`` has the schema):

- ``scenarios.json``: each position must load and print back unchanged; each step may apply an
  action (or expect an error from it, with the state unchanged) and then checks the legal action
  texts, fields of the full JSON and of a seat's view, the scores, the outcome and the returns,
  all written by hand;
- ``traces.json``: each seeded game of the reference engine is dealt again and replayed, the
  chosen action, the legal list's length and the periodic snapshots checked at every decision,
  and the end (full JSON, seat 1's view, outcome, scores) compared; ``random_playout`` from the
  start with the playout seed must play the same game;
- both files are exactly what ``tests/data/make_golden.py`` writes.

``tests/golden.rs`` runs the same files on the Rust crate without Python.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import splendor.errors
from engines import ENGINES
from splendor.reference.rng import SplitMix64

DATA = Path(__file__).parent / "data"
if str(DATA) not in sys.path:
    sys.path.insert(0, str(DATA))

import make_golden  # noqa: E402  (tests/data is not a package)

VARIANTS = make_golden.VARIANTS
# The counts when the three variants' formats became one: a scenario or a game may be added,
# never dropped.
AT_LEAST = {"base": (56, 6), "duel": (36, 24), "marvel": (22, 15)}


def load(variant: str, kind: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / variant / f"{kind}.json").read_text())
    assert data["variant"] == variant
    return data


SCENARIOS = [(v, s) for v in VARIANTS for s in load(v, "scenarios")["scenarios"]]
GAMES = [(v, g) for v in VARIANTS for g in load(v, "traces")["games"]]
ENGINE_PARAMS = pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
SCENARIO_PARAMS = pytest.mark.parametrize(
    ("variant", "scenario"), SCENARIOS, ids=[f"{v}-{s['name']}" for v, s in SCENARIOS]
)
GAME_PARAMS = pytest.mark.parametrize(
    ("variant", "game"),
    GAMES,
    ids=[f"{v}-{g['players']}p-seed{g['seed']}" for v, g in GAMES],
)


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_scenario_or_game_is_dropped(variant: str) -> None:
    scenarios, games = AT_LEAST[variant]
    assert len(load(variant, "scenarios")["scenarios"]) >= scenarios
    assert len(load(variant, "traces")["games"]) >= games


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_files_are_what_the_generator_writes(variant: str) -> None:
    assert make_golden.stale(variant) == []


# ------------------------------------------------------------------------------- scenarios


def field(obj: Any, path: str) -> Any:
    """The value at a dotted path into a JSON object (list indices as integers)."""
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def run_step(state: Any, step: dict[str, Any], where: str) -> None:
    if "apply" in step:
        if "error" in step:
            before = state.to_json()
            error = getattr(splendor.errors, step["error"])
            with pytest.raises(error):
                state.apply(step["apply"])
            assert state.to_json() == before, f"{where}: state changed by a failed apply"
        else:
            state.apply(step["apply"])
    if "legal" in step:
        assert [str(a) for a in state.legal_actions()] == step["legal"], where
    if "legal_takes" in step:
        takes = [str(a) for a in state.legal_actions() if str(a).startswith("take")]
        assert takes == step["legal_takes"], where
    legal = {str(a) for a in state.legal_actions()}
    for text in step.get("legal_has", []):
        assert text in legal, f"{where}: `{text}` should be legal"
    for text in step.get("legal_lacks", []):
        assert text not in legal, f"{where}: `{text}` should not be legal"
    full = json.loads(state.to_json())
    for path, value in step.get("expect", {}).items():
        assert field(full, path) == value, f"{where}: {path}"
    for seat, paths in step.get("view", {}).items():
        view = json.loads(state.to_json(int(seat)))
        for path, value in paths.items():
            assert field(view, path) == value, f"{where}: seat {seat} sees {path}"
    if "scores" in step:
        assert list(state.scores()) == step["scores"], where
    if "outcome" in step:
        outcome = state.outcome()
        if step["outcome"] is None:
            assert outcome is None, where
        else:
            assert outcome is not None, where
            assert list(outcome.winners) == step["outcome"]["winners"], where
            assert outcome.reason == step["outcome"]["reason"], where
    if "returns" in step:
        assert list(state.returns()) == pytest.approx(step["returns"]), where


@ENGINE_PARAMS
@SCENARIO_PARAMS
def test_scenario(engine: ModuleType, variant: str, scenario: dict[str, Any]) -> None:
    text = json.dumps(scenario["state"], sort_keys=True, separators=(",", ":"))
    state = engine.from_json(text)
    assert state.to_json() == text, "the position must load and print back unchanged"
    for i, step in enumerate(scenario["steps"]):
        run_step(state, step, f"{variant} {scenario['name']} step {i}")


# --------------------------------------------------------------------------------- traces


def deal(engine: ModuleType, variant: str, game: dict[str, Any]) -> Any:
    return engine.new_game(
        variant, players=game["players"], seed=game["seed"], turn_cap=game["turn_cap"]
    )


@ENGINE_PARAMS
@GAME_PARAMS
def test_trace_replays(engine: ModuleType, variant: str, game: dict[str, Any]) -> None:
    state = deal(engine, variant, game)
    assert state.to_json() == game["start"]
    rng = SplitMix64(game["playout_seed"])
    snapshots = 0
    for i, (action, length) in enumerate(zip(game["actions"], game["legal_lengths"], strict=True)):
        if str(i) in game["snapshots"]:
            assert state.to_json() == game["snapshots"][str(i)], f"decision {i}"
            snapshots += 1
        legal = state.legal_action_ids()
        assert len(legal) == length, f"decision {i}"
        assert legal[rng.below(len(legal))] == action, f"decision {i}"
        state.apply(action)
    assert snapshots == len(game["snapshots"]), "every snapshot was reached"
    assert state.is_terminal()
    assert state.to_json() == game["final"]
    assert state.to_json(1) == game["final_view_1"]
    outcome = state.outcome()
    assert list(outcome.winners) == game["winners"]
    assert outcome.reason == game["reason"]
    assert list(state.scores()) == game["scores"]


@ENGINE_PARAMS
@GAME_PARAMS
def test_random_playout_plays_the_trace(
    engine: ModuleType, variant: str, game: dict[str, Any]
) -> None:
    state = deal(engine, variant, game)
    assert engine.random_playout(state, game["playout_seed"]) == len(game["actions"])
    assert state.to_json() == game["final"]
