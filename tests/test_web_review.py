"""The review of a finished game on the server (``POST``/``GET /api/v1/games/{id}/review``)
and hints that show why.

A review is refused while the game goes on; it is computed once, in the background, on a
low-priority thread of its own, stored with the game, and equal to ``splendor.review`` of
the saved game at the same budget and seed; its progress reaches the event stream; a wrong
token changes and reveals nothing; a stopping server stops it at once.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor.web import ServerLimits, create_app
from splendor.web.reviews import REVIEW_NICE, lower_priority
from test_web_api import Table, error, new, tables
from test_web_tables import events_of, load, read_events, wait_for

REVIEW_ITERATIONS = 8


def limits(**kw: Any) -> ServerLimits:
    return ServerLimits(**{"workers": 1, "review_iterations": REVIEW_ITERATIONS, **kw})


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(limits(), db=web_db)) as c:
        yield c


def finished_game(seed: int = 3) -> tuple[Any, list[int]]:
    """A short finished base game (two greedy players)."""
    state = splendor.new_game("base", players=2, seed=seed)
    start = json.loads(state.to_json())
    bots = [splendor.GreedyBot(seed=seed), splendor.GreedyBot(seed=seed + 1)]
    actions = []
    while not state.is_terminal():
        action = bots[state.current_player].act(state)
        actions.append(int(action))
        state.apply(action)
    return start, actions


def reviews(client: TestClient) -> Any:
    return client.app.state.server.reviews  # type: ignore[attr-defined]


def stored_review(client: TestClient, game_id: str) -> str | None:
    text: str | None = tables(client).store.review(game_id)
    return text


def wait_done(table: Table, seat: int | None) -> dict[str, Any]:
    path = f"/api/v1/games/{table.id}/review"
    end = time.monotonic() + 120
    while True:
        r = table.client.get(path, headers=table.auth(seat))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        assert body["state"] in ("pending", "running", "done"), body
        if body["state"] == "done":
            return body
        assert time.monotonic() < end, "the review did not finish"
        time.sleep(0.1)


def test_a_game_in_play_is_not_reviewed(client: TestClient) -> None:
    table = new(client, variant="base", players=2, ai_seats=[1], bot="greedy")
    for seat in (0, None):
        for method in ("POST", "GET"):
            r = client.request(method, f"/api/v1/games/{table.id}/review", headers=table.auth(seat))
            error(r, 409, "game_not_over")
    error(
        client.get(f"/api/v1/games/{table.id}/review/board?decision=0", headers=table.auth(0)),
        409,
        "game_not_over",
    )
    assert reviews(client).jobs == {} and stored_review(client, table.id) is None


def test_a_review_is_computed_once_and_equals_the_api_s(client: TestClient) -> None:
    start, actions = finished_game()
    table = load(client, start, actions, [])
    path = f"/api/v1/games/{table.id}/review"
    assert client.get(path, headers=table.auth(0)).json() == {
        "state": "none",
        "done": 0,
        "total": 0,
        "message": None,
        "review": None,
    }
    error(client.get(f"{path}/board?decision=0", headers=table.auth(0)), 409, "no_review")
    first = client.post(path, headers=table.auth(0))
    assert first.status_code == 200, first.text
    assert first.json()["state"] in ("pending", "running", "done")
    job = reviews(client).jobs[table.id]
    # A second request (the spectators' here) returns the running one: no second review.
    again = client.post(path, headers=table.auth(None))
    assert again.status_code == 200 and again.json()["state"] in ("pending", "running", "done")
    assert reviews(client).jobs[table.id] is job
    body = wait_done(table, None)
    assert body["done"] == body["total"] == len(actions)
    text = stored_review(client, table.id)
    assert text is not None
    # Done: a third request answers the stored review and starts nothing.
    third = client.post(path, headers=table.auth(1)).json()
    assert third == body and reviews(client).jobs[table.id] is job
    assert stored_review(client, table.id) == text
    # The same review as splendor.review of the saved game, at the same budget and seed.
    saved = client.get(f"/api/v1/games/{table.id}/save", headers=table.auth(0)).json()
    expected = splendor.review(saved, "default", iterations=REVIEW_ITERATIONS, seed=0)
    assert splendor.Review.from_json(text) == expected
    got = body["review"]
    assert got["iterations"] == REVIEW_ITERATIONS and got["seed"] == 0
    assert len(got["decisions"]) == len(expected.decisions)
    for d, e in zip(got["decisions"], expected.decisions, strict=True):
        assert (d["index"], d["seat"], d["played"], d["preferred"], d["grade"]) == (
            e.index,
            e.seat,
            e.played,
            e.preferred,
            e.grade,
        )
        assert d["win"] == e.win and d["wins"][e.seat] == e.win
        assert d["wins"][1 - e.seat] == pytest.approx(1 - e.win)
        assert d["played_says"] and d["preferred_says"]
        assert d["line"][0] == {"seat": e.seat, "action": e.preferred}
    for seat, summary in zip(got["seats"], expected.seats, strict=True):
        assert seat["accuracy"] == summary.accuracy and seat["worst"] == list(summary.worst)
    chart = got["chart"]
    assert chart.startswith("<svg") and chart.count("data-decision=") == len(actions)
    assert chart.count("<polyline") == 2
    # The board at a decision: the move played and the AI's preferred one marked.
    k = next((d["index"] for d in got["decisions"] if d["grade"] != "best"), 0)
    frame = client.get(f"{path}/board?decision={k}", headers=table.auth(None))
    assert frame.status_code == 200, frame.text
    assert frame.json()["step"] == k and 'class="last' in frame.json()["svg"]
    if got["decisions"][k]["grade"] != "best":
        assert "preferred" in frame.json()["svg"]
    error(
        client.get(f"{path}/board?decision={len(actions)}", headers=table.auth(0)),
        422,
        "bad_config",
    )


def test_a_wrong_token_starts_and_reveals_nothing(client: TestClient) -> None:
    start, actions = finished_game()
    table = load(client, start, actions, [])
    other = load(client, start, actions, [])
    path = f"/api/v1/games/{table.id}/review"
    answers = set()
    for headers in ({}, {"Authorization": "Bearer " + "A" * 43}, other.auth(0), other.auth(None)):
        for method in ("POST", "GET"):
            r = client.request(method, path, headers=headers)
            code = "token_required" if not headers else "wrong_token"
            error(r, 401 if not headers else 403, code)
            if headers:
                answers.add(r.text)
        error(
            client.get(f"{path}/board?decision=0", headers=headers),
            401 if not headers else 403,
            "token_required" if not headers else "wrong_token",
        )
    assert len(answers) == 1
    assert reviews(client).jobs == {}
    assert stored_review(client, table.id) is None and stored_review(client, other.id) is None


def test_progress_reaches_the_event_stream(web_db: str) -> None:
    with TestClient(create_app(limits(), db=web_db)) as client:
        start, actions = finished_game()
        table = load(client, start, actions, [])
        lines: list[str] = []
        stop = threading.Event()
        with client.stream(
            "GET", f"/api/v1/games/{table.id}/events", headers=table.auth(None)
        ) as r:
            reader = threading.Thread(target=read_events, args=(r, lines, stop), daemon=True)
            reader.start()
            wait_for(lambda: bool(events_of(lines)))
            client.post(f"/api/v1/games/{table.id}/review", headers=table.auth(0))
            wait_for(lambda: any(e.get("state") == "done" for e in events_of(lines)), 120)
            stop.set()
        progress = [e for e in events_of(lines) if "state" in e]
        assert "event: review" in lines
        assert progress[-1]["done"] == progress[-1]["total"] == len(actions)
        assert any(0 < e["done"] < len(actions) for e in progress), progress
        dones = [e["done"] for e in progress]
        assert dones == sorted(dones)


def test_reviews_are_bounded_and_stopped_with_the_server(web_db: str) -> None:
    # A large budget: the first review runs while the others are asked for.
    app = create_app(limits(max_reviews=1, review_iterations=100_000), db=web_db)
    with TestClient(app) as client:
        start, actions = finished_game()
        first = load(client, start, actions, [])
        second = load(client, start, actions, [])
        r = client.post(f"/api/v1/games/{first.id}/review", headers=first.auth(0))
        assert r.status_code == 200, r.text
        busy = client.post(f"/api/v1/games/{second.id}/review", headers=second.auth(0))
        error(busy, 503, "busy")
        assert busy.headers["Retry-After"]
        assert second.id not in reviews(client).jobs
        wait_for(lambda: reviews(client).jobs[first.id].state == "running")
        pool = reviews(client).pool
        stopped = time.monotonic()
    # Leaving the client stops the server: the running review ends at once, and its
    # thread is gone.
    assert time.monotonic() - stopped < 5
    pool.shutdown(wait=True)
    assert time.monotonic() - stopped < 10
    assert not any(t.name.startswith("splendor-review") for t in threading.enumerate())


def test_the_review_thread_runs_at_a_lower_priority(client: TestClient) -> None:
    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    base = nice()
    worker = reviews(client).pool.submit(nice).result()
    assert worker == min(19, base + REVIEW_NICE) > base
    # The AI seats' threads keep the server's priority.
    assert tables(client).ai_pool.submit(nice).result() == base
    seen: list[int] = []

    def lowered() -> None:
        lower_priority()
        seen.append(nice())

    t = threading.Thread(target=lowered)
    t.start()
    t.join()
    assert seen == [min(19, base + REVIEW_NICE)]


def test_a_hint_shows_the_top_moves_and_their_lines(client: TestClient) -> None:
    table = new(client, variant="base", players=2, ai_seats=[1], bot="greedy")
    r = client.post(
        f"/api/v1/games/{table.id}/hint",
        json={"bot": "mcts:300", "seed": 1},
        headers=table.auth(0),
    )
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["action"] and hint["considered"]  # the fields it had stay
    top = hint["top"]
    assert len(top) == 3
    assert top[0]["text"] == hint["action"]
    assert [t["visits"] for t in top] == sorted((t["visits"] for t in top), reverse=True)
    for t in top:
        assert 0 <= t["value"] <= 1 and t["says"]
        assert 1 <= len(t["line"]) <= 3 and t["line"][0] == {"seat": 0, "action": t["text"]}
    assert any(len(t["line"]) >= 2 for t in top)
    # The same as the search from the seat's own view (nothing else informs it).
    view = client.get(f"/api/v1/games/{table.id}", headers=table.auth(0)).json()["view"]
    result = splendor.search(splendor.from_view(json.dumps(view), seed=1), iterations=300, seed=1)
    assert [(t["text"], t["visits"]) for t in top] == [
        (str(a), result.visits[a])
        for a in sorted(result.visits, key=lambda a: (-result.visits[a], int(a)))[:3]
    ]


@pytest.mark.parametrize(("variant", "players"), [("duel", 2), ("marvel", 3), ("base", 4)])
def test_every_variant_is_reviewed_and_hinted(
    client: TestClient, variant: str, players: int
) -> None:
    state = splendor.new_game(variant, players=players, seed=2)
    start = json.loads(state.to_json())
    bots = [splendor.GreedyBot(seed=p) for p in range(players)]
    actions = []
    while not state.is_terminal():
        action = bots[state.current_player].act(state)
        actions.append(int(action))
        state.apply(action)
    # A hint at the last decision, in this variant's words.
    table = load(client, start, actions[:-1], [])
    mover = tables(client).cache[table.id].current
    r = client.post(
        f"/api/v1/games/{table.id}/hint", json={"bot": "mcts:60"}, headers=table.auth(mover)
    )
    assert r.status_code == 200, r.text
    assert len(r.json()["top"]) == min(3, len(r.json()["considered"]))
    assert all(t["says"] and t["line"][0]["seat"] == mover for t in r.json()["top"])
    table = load(client, start, actions, [])
    assert client.post(f"/api/v1/games/{table.id}/review", headers=table.auth(0)).status_code == 200
    got = wait_done(table, 0)["review"]
    assert len(got["decisions"]) == len(actions)
    for d in got["decisions"]:
        known = [w for w in d["wins"] if w is not None]
        assert d["wins"][d["seat"]] == d["win"] and len(known) == (2 if players == 2 else 1)
    assert got["chart"].count("<polyline") == players
