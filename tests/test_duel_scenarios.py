"""Scenario tests: one JSON position per ruling / edge case of rules/duel.md §4-§6.

Each file in ``tests/data/duel/`` (but the golden playouts) holds a full state and
a list of steps; a step may apply an action (or expect a given error from it, with
the state unchanged) and then check the legal action texts, fields of the full
JSON, the scores, the outcome and the returns. The files are written by
``tests/data/duel/make_duel_scenarios.py`` with hand-written expectations. The Rust
engine runs the same files in ``tests/duel_scenarios.rs``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import splendor.errors
from engines import ENGINES

DATA = Path(__file__).parent / "data" / "duel"
FILES = sorted(f for f in DATA.glob("*.json") if f.name != "golden_playouts.json")


def _field(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def _run_step(state: Any, step: dict[str, Any], where: str) -> None:
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
        assert _field(full, path) == value, f"{where}: {path}"
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


def test_every_ruling_has_a_scenario() -> None:
    assert len(FILES) >= 30


@pytest.mark.parametrize("engine", list(ENGINES.values()), ids=list(ENGINES))
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(engine: ModuleType, path: Path) -> None:
    scenario = json.loads(path.read_text())
    text = json.dumps(scenario["state"], sort_keys=True, separators=(",", ":"))
    state = engine.from_json(text)
    assert state.to_json() == text, "the position must load and print back unchanged"
    for i, step in enumerate(scenario["steps"]):
        _run_step(state, step, f"{path.stem} step {i}")
