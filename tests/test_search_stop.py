"""``splendor.search(..., stop=event)``: a search in any thread ends once the event is set."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import splendor


def test_setting_the_event_stops_a_search_in_another_thread() -> None:
    state = splendor.new_game("base", seed=2)
    stop = threading.Event()
    out: list[Any] = []

    def worker() -> None:
        out.append(splendor.search(state, time_limit=600, stop=stop))

    t = threading.Thread(target=worker)
    t.start()
    time.sleep(0.3)
    sent = time.monotonic()
    stop.set()
    t.join(timeout=30)
    assert not t.is_alive()
    assert time.monotonic() - sent < 0.5
    # What it found so far, as when a time limit is reached: a legal move.
    result = out[0]
    assert result.iterations > 0 and result.action in state.legal_actions()


def test_an_unset_event_changes_nothing() -> None:
    state = splendor.new_game("duel", seed=2)
    plain = splendor.search(state, iterations=3000, seed=4)
    assert splendor.search(state, iterations=3000, seed=4, stop=threading.Event()) == plain


def test_stop_must_be_an_event() -> None:
    state = splendor.new_game("base", seed=2)
    for bad in (True, 3, "yes", object()):
        with pytest.raises(splendor.ConfigError, match="stop must be an event"):
            splendor.search(state, iterations=10, stop=bad)  # type: ignore[arg-type]
