"""Write, or check, the golden test data of ``tests/data/<variant>/`` from the reference engine.

    python tests/data/make_golden.py                   # write every variant's files
    python tests/data/make_golden.py --variant duel    # one variant
    python tests/data/make_golden.py --check           # exit 1 if a committed file is stale

Each variant gets the same two files, described in ``tests/data/README.md``:

- ``scenarios.json``: the rule scenarios written by hand in ``<variant>/<variant>_scenarios.py``
  (a position, then steps with their expected legal lists, fields, outcome or error); the
  reference engine only checks that each position loads and prints back unchanged.
- ``traces.json``: seeded random games recorded from ``splendor.reference`` (every chosen action,
  every legal-list length, the full state every ``SNAPSHOT_EVERY`` decisions and at the end, the
  end as seat 1 sees it, the outcome and scores). They are regression data, not rulings: the
  Rust engine must deal and play the same games bit for bit.

``tests/golden.rs`` and ``tests/test_golden.py`` run both files on every engine, and
``tests/test_golden.py`` also checks that this script reproduces them exactly.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import splendor.reference as ref
from splendor.reference.rng import SplitMix64

HERE = Path(__file__).resolve().parent
VARIANTS = ("base", "duel", "marvel")
SNAPSHOT_EVERY = 40
"""A trace keeps the full state before decision 40, 80, ... (and the start and the end)."""

GAMES: dict[str, list[tuple[int, int, int, int]]] = {
    "base": [
        (2, 0, 100, 0),
        (3, 1, 100, 1),
        (4, 2, 100, 2),
        (2, 3, 5, 3),
        (3, 4, 100, 4),
        (4, 5, 8, 5),
    ],
    "duel": [(2, seed, 100, seed) for seed in range(24)],
    "marvel": [(n, seed, 100, seed ^ 0xABCD) for n in (2, 3, 4) for seed in range(5)],
}
"""The recorded games: (players, seed, turn cap, playout seed) each. The short turn caps end
two base games truncated; the playout seed starts the SplitMix64 stream that picks the moves."""


def scenarios(variant: str) -> list[dict[str, Any]]:
    """The variant's hand-written scenarios, each checked to load on the reference engine."""
    if str(HERE / variant) not in sys.path:
        sys.path.insert(0, str(HERE / variant))
    made: list[dict[str, Any]] = importlib.import_module(f"{variant}_scenarios").generate()
    names = [s["name"] for s in made]
    if len(set(names)) != len(names):
        raise ValueError(f"{variant}: two scenarios share a name")
    for s in made:
        text = json.dumps(s["state"], sort_keys=True, separators=(",", ":"))
        if ref.from_json(text).to_json() != text:
            raise ValueError(f"{variant} scenario {s['name']}: the position does not print back")
    return made


def record(
    variant: str, players: int, seed: int, turn_cap: int, playout_seed: int
) -> dict[str, Any]:
    """One seeded random game of the reference engine, as a trace."""
    state = ref.new_game(variant, players=players, seed=seed, turn_cap=turn_cap)
    start = state.to_json()
    rng = SplitMix64(playout_seed)
    actions: list[int] = []
    legal_lengths: list[int] = []
    snapshots: dict[str, str] = {}
    while not state.is_terminal():
        if actions and len(actions) % SNAPSHOT_EVERY == 0:
            snapshots[str(len(actions))] = state.to_json()
        legal = state.legal_action_ids()
        actions.append(legal[rng.below(len(legal))])
        legal_lengths.append(len(legal))
        state.apply_unchecked(actions[-1])  # drawn from the legal list
    outcome = state.outcome()
    assert outcome is not None
    return {
        "players": players,
        "seed": seed,
        "turn_cap": turn_cap,
        "playout_seed": playout_seed,
        "start": start,
        "actions": actions,
        "legal_lengths": legal_lengths,
        "snapshots": snapshots,
        "final": state.to_json(),
        "final_view_1": state.to_json(1),
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "scores": list(state.scores()),
    }


def traces(variant: str) -> list[dict[str, Any]]:
    """Every recorded game of the variant."""
    return [record(variant, *game) for game in GAMES[variant]]


def render(obj: Any) -> str:
    """The file text: indented JSON, keys sorted, each list of numbers on one line.

    A JSON string holds no raw newline, so the pattern only ever joins real arrays.
    """
    text = json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False)
    number = r"(?:-?\d+(?:\.\d+)?|null)"
    inline = re.compile(rf"\[\n\s*({number}(?:,\n\s*{number})*)\n\s*\]")
    return inline.sub(lambda m: "[" + ", ".join(re.split(r",\n\s*", m.group(1))) + "]", text) + "\n"


def files(variant: str) -> dict[Path, str]:
    """The text each golden file of the variant must hold."""
    folder = HERE / variant
    return {
        folder / "scenarios.json": render({"variant": variant, "scenarios": scenarios(variant)}),
        folder / "traces.json": render(
            {"variant": variant, "snapshot_every": SNAPSHOT_EVERY, "games": traces(variant)}
        ),
    }


def stale(variant: str) -> list[str]:
    """The golden files of the variant that differ from what this script writes."""
    return [str(p) for p, text in files(variant).items() if not p.exists() or p.read_text() != text]


def main(argv: list[str] | None = None) -> int:
    """Write the files (or, with ``--check``, report the stale ones); the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=VARIANTS, action="append", help="default: all")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    status = 0
    for variant in args.variant or VARIANTS:
        if args.check:
            for name in stale(variant):
                print(f"stale: {name} (run python tests/data/make_golden.py --variant {variant})")
                status = 1
        else:
            for path, text in files(variant).items():
                path.write_text(text)
                print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
