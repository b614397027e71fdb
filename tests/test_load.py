"""Load test against a live ``splendor serve`` on 127.0.0.1 (``python -m pytest -m load``).

Bounded: at most 400 move requests (1,000 iterations each) and 60 s per level, at 8, 32
and 128 concurrent clients. Zero errors, and the server's memory stays bounded.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.load


def test_move_requests_under_load() -> None:
    path = Path(__file__).parent.parent / "benches" / "load_web.py"
    spec = importlib.util.spec_from_file_location("load_web", path)
    assert spec is not None and spec.loader is not None
    load_web = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load_web)
    summary = load_web.run([8, 32, 128], requests=400, seconds=60, iterations=1000, workers=None)
    print(json.dumps(summary, indent=1))
    for level in summary["levels"]:
        assert level["errors"] == 0, level["first_errors"]
        assert level["requests"] >= 100, "each level serves at least 100 moves in its minute"
    assert summary["rss_after_mb"] < summary["rss_before_mb"] + 100
