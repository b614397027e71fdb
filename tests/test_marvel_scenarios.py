"""Marvel rule scenarios (tests/data/marvel/scenarios.json) on the reference engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from engines import ENGINES
from marvel_scenarios import GOLDEN, generate, lookup
from splendor.reference.common import dump_json
from splendor.reference.marvel import MarvelState

SCENARIOS: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


def test_golden_file_matches_the_generator() -> None:
    assert generate() == SCENARIOS


def run_scenario(scenario: dict[str, Any], load: Any) -> None:
    """Run every step of a scenario on a state loaded with ``load(json_text)``."""
    state = load(dump_json(scenario["state"]))
    for i, step in enumerate(scenario["steps"]):
        where = f"{scenario['name']} step {i}"
        if "apply" in step:
            state.apply(step["apply"])
        elif "legal" in step:
            assert [str(a) for a in state.legal_actions()] == step["legal"], where
        elif "expect" in step:
            obj = json.loads(state.to_json())
            for path, value in step["expect"].items():
                assert lookup(obj, path) == value, f"{where}: {path}"
        else:
            oc = state.outcome()
            got = None if oc is None else {"winners": list(oc.winners), "reason": oc.reason}
            assert got == step["outcome"], where


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario_reference(scenario: dict[str, Any]) -> None:
    run_scenario(scenario, MarvelState.from_json)


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario_every_engine(engine: str, scenario: dict[str, Any]) -> None:
    run_scenario(scenario, ENGINES[engine].from_json)
