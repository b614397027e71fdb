"""Load test against a live ``splendor serve`` on 127.0.0.1 (``python -m pytest -m load``).

The issue's figure: 200 shared tables, two people and the AI at each, the people moving at a
steady rate (a move about every 10 s each, as the page would send them, each keeping the
table's event stream open) for 60 s, the server playing every AI seat itself. Zero errors, the
p99 latency of a human move reported (and bounded, loosely: CI machines are shared), and the
server's memory bounded.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.load


def test_200_tables_of_two_people_and_the_ai() -> None:
    path = Path(__file__).parent.parent / "benches" / "load_web.py"
    spec = importlib.util.spec_from_file_location("load_web", path)
    assert spec is not None and spec.loader is not None
    load_web = importlib.util.module_from_spec(spec)
    sys.modules["load_web"] = load_web  # its dataclasses look their module up
    spec.loader.exec_module(load_web)
    summary = load_web.run(tables=200, seconds=60, think=10.0)
    print(json.dumps(summary, indent=1))
    assert summary["errors"] == 0, summary["first_errors"]
    assert summary["people"] == 400
    assert summary["human_moves"] >= 300, "the tables were played all along"
    assert summary["move_p99_ms"] < 10_000
    # Memory: the games are in the database; what the server holds grows by little.
    assert summary["rss_after_mb"] < summary["rss_tables_mb"] + 150
    assert summary["ctrl_c_stop_s"] < 10, "Ctrl-C stops the server with 400 streams open"
