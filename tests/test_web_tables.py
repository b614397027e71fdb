"""Shared tables: seat tokens, spectators, humans and the AI at one table, live events.

Every endpoint of a table refuses a request without the right token, changes nothing and
says nothing about the game; a seat sees its own view only; a spectator sees what every
seat sees until the game is over; the server plays the AI's seats by itself; the event
stream tells every browser of every change.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor import render
from splendor.web import ServerLimits, create_app
from test_web_api import Response, Table, blind_reserve_position, error, new, stalling_game, tables


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as c:
        yield c


def load(client: TestClient, start: Any, actions: list[int], ai_seats: list[int]) -> Table:
    body = {"start": start, "actions": actions, "ai_seats": ai_seats, "bot": "greedy"}
    r = client.post("/api/v1/games/load", json=body)
    assert r.status_code == 201, r.text
    return Table(client, r.json())


def requests(table: Table) -> list[tuple[str, str, Any]]:
    """Every endpoint of a table: (method, path, body)."""
    base = f"/api/v1/games/{table.id}"
    return [
        ("GET", base, None),
        ("POST", f"{base}/actions", {"action": 0}),
        ("POST", f"{base}/hint", {}),
        ("POST", f"{base}/undo", {}),
        ("GET", f"{base}/save", None),
        ("GET", f"{base}/replay?step=0", None),
        ("GET", f"{base}/events", None),
        ("GET", f"{base}/host", None),
        ("POST", f"{base}/seats/0/link", None),
        ("POST", f"{base}/invite", None),
        ("GET", f"{base}/invite", None),
        ("POST", f"{base}/claim", {"name": "Eve"}),
        ("POST", f"{base}/name", {"name": "Eve"}),
        ("POST", f"{base}/rematch", None),
        ("POST", f"{base}/next", None),
        ("POST", f"{base}/review", None),
        ("GET", f"{base}/review", None),
        ("GET", f"{base}/review/board?decision=0", None),
    ]


def send(client: TestClient, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    if method == "GET":
        return client.get(path, headers=headers)
    return client.post(path, json=body, headers=headers)


def stored(client: TestClient, game_id: str) -> tuple[Any, list[Any]]:
    store = tables(client).store
    return store.game(game_id), store.decisions(game_id)


def test_every_endpoint_refuses_a_missing_wrong_or_other_games_token(client: TestClient) -> None:
    start, actions = blind_reserve_position()
    table = load(client, start, actions, [])  # two people; seat 1, to move, holds blind reserves
    other = new(client, variant="base", players=2)
    before = stored(client, table.id)
    snapshot = table.get(0)
    bad_headers = {
        "none": ({}, 401, "token_required"),
        "not bearer": ({"Authorization": f"Basic {table.tokens[0]}"}, 401, "token_required"),
        "empty": ({"Authorization": "Bearer "}, 401, "token_required"),
        "guess": ({"Authorization": "Bearer " + "A" * 43}, 403, "wrong_token"),
        "other game's seat": (other.auth(0), 403, "wrong_token"),
        "other game's spectator": (other.auth(None), 403, "wrong_token"),
        "seat 0 with a letter more": (
            {"Authorization": f"Bearer {table.tokens[0]}x"},
            403,
            "wrong_token",
        ),
    }
    answers: dict[tuple[int, str], set[str]] = {}
    for method, path, body in requests(table):
        for name, (headers, status, code) in bad_headers.items():
            r = send(client, method, path, body, headers)
            message = error(r, status, code)
            answers.setdefault((status, code), set()).add(r.text)
            assert table.tokens[0] not in r.text and str(table.id) not in message, name
        # A token in the address is no token: the server reads only the header.
        query = f"{'&' if '?' in path else '?'}token={table.tokens[0]}"
        error(send(client, method, path + query, body, {}), 401, "token_required")
    # One answer for every wrong token, whatever the endpoint, the game and the token.
    assert len(answers[(403, "wrong_token")]) == 1, answers
    # A game that does not exist answers exactly as a wrong token does.
    for method, path, body in requests(table):
        missing = path.replace(table.id, "no-such-game")
        r = send(client, method, missing, body, table.auth(0))
        assert r.text in answers[(403, "wrong_token")]
    # A spectator's token acts in nothing and may not save a game in progress.
    base = f"/api/v1/games/{table.id}"
    error(
        client.post(f"{base}/actions", json={"action": 0}, headers=table.auth(None)),
        403,
        "spectator",
    )
    error(client.post(f"{base}/hint", json={}, headers=table.auth(None)), 403, "spectator")
    error(client.post(f"{base}/undo", json={}, headers=table.auth(None)), 403, "spectator")
    error(client.get(f"{base}/save", headers=table.auth(None)), 403, "save_refused")
    # A seat acts only for itself: seat 0's token on seat 1's turn is not seat 1.
    assert snapshot["current"] == 1
    error(
        client.post(f"{base}/actions", json={"action": 0}, headers=table.auth(0)), 409, "wrong_seat"
    )
    error(client.post(f"{base}/hint", json={}, headers=table.auth(0)), 409, "wrong_seat")
    error(client.get(f"{base}/save", headers=table.auth(0)), 403, "save_refused")
    # Nothing changed, in the database or in what the seats see.
    assert stored(client, table.id) == before
    assert table.get(0) == snapshot


def test_each_token_does_only_what_it_is_for(client: TestClient) -> None:
    """The host's token manages the seats and watches; the invitation's claims a seat and
    shows the table; a seat's or a spectator's does neither. Each refusal changes nothing."""
    r = client.post(
        "/api/v1/games",
        json={"variant": "base", "players": 3, "ai_seats": [2], "open_seats": [1], "seed": 2},
    )
    table = Table(client, r.json())
    host = {"Authorization": f"Bearer {table.made['host']['token']}"}
    invite = {"Authorization": f"Bearer {table.made['invite']['token']}"}
    base = f"/api/v1/games/{table.id}"
    before = stored(client, table.id)
    refused = [
        (host, "POST", "/actions", {"action": 0}, 403, "spectator"),
        (host, "POST", "/hint", {}, 403, "spectator"),
        (host, "POST", "/undo", {"version": 0}, 403, "spectator"),
        (host, "POST", "/name", {"name": "Eve"}, 403, "spectator"),
        (host, "POST", "/claim", {"name": "Eve"}, 403, "invite_only"),
        (host, "GET", "/invite", None, 403, "invite_only"),
        (table.auth(0), "GET", "/host", None, 403, "host_only"),
        (table.auth(0), "POST", "/seats/1/link", None, 403, "host_only"),
        (table.auth(0), "POST", "/invite", None, 403, "host_only"),
        (table.auth(0), "POST", "/claim", {"name": "Eve"}, 403, "invite_only"),
        (table.auth(None), "GET", "/host", None, 403, "host_only"),
        (table.auth(None), "POST", "/claim", {"name": "Eve"}, 403, "invite_only"),
        (table.auth(None), "POST", "/rematch", None, 403, "spectator"),
        (table.auth(None), "POST", "/name", {"name": "Eve"}, 403, "spectator"),
        (table.auth(0), "POST", "/rematch", None, 409, "game_not_over"),
        (table.auth(0), "POST", "/next", None, 409, "no_rematch"),
    ]
    for what in (
        "",
        "/actions",
        "/hint",
        "/undo",
        "/save",
        "/replay?step=0",
        "/events",
        "/host",
        "/seats/0/link",
        "/invite",
        "/name",
        "/rematch",
        "/next",
    ):
        method = "GET" if what in ("", "/save", "/replay?step=0", "/events", "/host") else "POST"
        code = "host_only" if what in ("/host", "/seats/0/link") else "invitation"
        if what == "/invite":
            code = "host_only"
        refused.append((invite, method, what, {}, 403, code))
    for headers, method, what, body, status, code in refused:
        error(send(client, method, base + what, body, headers), status, code)
    assert stored(client, table.id) == before
    # What each may do.
    assert client.get(f"{base}/host", headers=host).status_code == 200
    assert client.get(base, headers=host).json()["viewer"] is None
    assert client.get(f"{base}/invite", headers=invite).json()["open_seats"] == 1


def test_a_seat_sees_its_view_and_a_spectator_the_public_one(client: TestClient) -> None:
    start, actions = blind_reserve_position()
    table = load(client, start, actions, [])
    state = tables(client).cache[table.id].state
    blind = [r for r in json.loads(state.to_json())["players"][1]["reserved"] if r["hidden"]]
    assert blind and all(r["card"] is not None for r in blind)
    for seat in (0, 1):
        snap = table.get(seat)
        assert snap["view"] == json.loads(state.to_json(seat))
        # The same text board as one drawn from the seat's view with other hidden cards.
        other = splendor.from_view(state.to_json(seat), seed=9)
        assert snap["text"] == render.text_board(other, seat, names={1 - seat: "human"})
    spectator = table.get(None)
    assert spectator["viewer"] is None and spectator["legal"] == []
    assert not spectator["can_undo"]
    view = spectator["view"]
    assert view["decks"] is None
    for player in view["players"]:
        for reserved in player.get("reserved") or []:
            if reserved["hidden"]:
                assert reserved["card"] is None, "a blind reserve stays face down"
    # No seat's private view: what seat 1 sees of its own blind reserves is not there.
    assert view != json.loads(state.to_json(1)) and view != json.loads(state.to_json(0))
    # The render module's public view and board (render.PUBLIC): the spectator's.
    assert view == json.loads(render.public_view_json(state))
    names = {0: "human", 1: "human"}
    assert spectator["text"] == render.text_board(state, render.PUBLIC, names=names)
    step = len(actions) - 2
    frame = client.get(
        f"/api/v1/games/{table.id}/replay", params={"step": step}, headers=table.auth(None)
    ).json()
    held = tables(client).cache[table.id]
    past, last = held.replay(step), held.last(step)
    assert frame["svg"] == str(render.svg_board(past, render.PUBLIC, names=names, last=last))
    assert "(you)" not in spectator["text"]


def test_a_finished_game_is_open_to_spectators_and_savable_by_all(client: TestClient) -> None:
    start, actions = stalling_game("base", 2)
    table = load(client, start, actions, [])
    state = tables(client).cache[table.id].state
    assert state.is_terminal()
    spectator = table.get(None)
    assert spectator["view"] == json.loads(state.to_json())
    for who in (0, 1, None):
        r = client.get(f"/api/v1/games/{table.id}/save", headers=table.auth(who))
        assert r.status_code == 200 and r.json()["actions"] == actions


def test_the_only_person_at_a_table_may_save_it(client: TestClient) -> None:
    table = new(client, variant="base", players=3, ai_seats=[1, 2], bot="greedy")
    r = client.get(f"/api/v1/games/{table.id}/save", headers=table.auth(0))
    assert r.status_code == 200, r.text
    error(
        client.get(f"/api/v1/games/{table.id}/save", headers=table.auth(None)), 403, "save_refused"
    )


def test_two_people_and_the_ai_play_a_whole_game(client: TestClient) -> None:
    """Seats 0 and 2 are people, each with their own token; seat 1 is the AI, which the
    server plays as soon as it is to decide."""
    table = new(client, variant="base", players=3, ai_seats=[1], bot="greedy", seed=5)
    assert set(table.tokens) == {0, 2, None}
    state = None
    for _ in range(3000):
        game = table.settled(0)
        if game["current"] is None:
            break
        seat = game["current"]
        assert seat in (0, 2) and not game["thinking"]
        mine = table.get(seat)
        assert mine["legal"] and mine["version"] == game["version"]
        idle = 2 - seat
        assert table.get(idle)["legal"] == []
        played = table.act(seat, mine["legal"][-1]["id"])
        assert played["version"] == game["version"] + 1
    game = table.settled(0)
    assert game["current"] is None and game["result"] is not None
    log = game["log"]
    assert {e["seat"] for e in log} == {0, 1, 2}
    assert all(e["by_ai"] == (e["seat"] == 1) for e in log)
    # The decisions stored replay legally, seat by seat.
    row, moves = stored(client, table.id)
    state = splendor.from_json(row.start)
    for d in moves:
        assert d.seat == state.current_player
        state.apply(state.action_from_id(d.action))
    assert state.is_terminal() and row.over and not row.ai_to_move
    assert tables(client).ai_moves == sum(e["by_ai"] for e in log)


def test_undo_is_refused_once_another_person_moved(client: TestClient) -> None:
    table = new(client, variant="base", players=3, ai_seats=[2], bot="greedy")
    table.act(0, table.get(0)["legal"][0]["id"])
    assert table.get(0)["can_undo"]
    table.act(1, table.get(1)["legal"][0]["id"])
    game = table.settled(0)
    assert not game["can_undo"] and game["current"] == 0
    before = stored(client, table.id)
    message = error(
        table.post(0, "undo", {"version": table.get(0)["version"]}), 409, "undo_refused"
    )
    assert "another person" in message
    error(table.post(0, "undo", {"seat": 0}), 422, "invalid_request")
    assert stored(client, table.id) == before
    # Seat 1's last move was followed by the AI's only: seat 1 may take it back.
    undone = table.post(1, "undo", {"version": table.get(1)["version"]}).json()
    assert undone["step"] == 1 and undone["current"] == 1
    fresh = new(client, variant="base", players=2)
    assert "no decision" in error(
        fresh.post(0, "undo", {"version": fresh.get(0)["version"]}), 409, "undo_refused"
    )


def test_a_move_on_a_stale_version_is_refused(client: TestClient) -> None:
    """Two browsers on one seat: the one that acted on a position already gone is told so."""
    table = new(client, variant="base", players=2)
    game = table.get(0)
    first = table.post(0, "actions", {"action": game["legal"][0]["id"], "version": 0})
    assert first.status_code == 200, first.text
    again = table.post(0, "actions", {"action": game["legal"][1]["id"], "version": 0})
    error(again, 409, "game_changed")
    assert table.get(0)["step"] == 1


def read_events(response: Response, out: list[str], stop: threading.Event) -> None:
    try:
        for line in response.iter_lines():
            out.append(line)
            if stop.is_set():
                return
    except Exception:  # the test client closed the stream under the reader: its end
        if not stop.is_set():
            raise


def wait_for(condition: Any, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def events_of(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line[len("data: ") :]) for line in list(lines) if line.startswith("data: ")]


def test_the_event_stream_tells_of_every_change(
    monkeypatch: pytest.MonkeyPatch, web_db: str
) -> None:
    from splendor.web.routes import games as game_routes

    monkeypatch.setattr(game_routes, "KEEPALIVE_S", 0.3)
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as client:
        table = new(client, variant="base", players=3, ai_seats=[1], bot="greedy")
        lines: list[str] = []
        spectator_lines: list[str] = []
        stop = threading.Event()
        path = f"/api/v1/games/{table.id}/events"
        with (
            client.stream("GET", path, headers=table.auth(2)) as r,
            client.stream("GET", path, headers=table.auth(None)) as s,
        ):
            assert r.status_code == 200 and r.headers["content-type"].startswith(
                "text/event-stream"
            )
            readers = [
                threading.Thread(target=read_events, args=(r, lines, stop), daemon=True),
                threading.Thread(target=read_events, args=(s, spectator_lines, stop), daemon=True),
            ]
            for t in readers:
                t.start()
            wait_for(lambda: events_of(lines) and events_of(spectator_lines))
            first = events_of(lines)[0]
            # Seat 2's own stream makes it connected (the spectator's is no seat's).
            assert first == {
                "version": 0,
                "step": 0,
                "current": 0,
                "over": False,
                "thinking": False,
                "seating": 0,
                "next": None,
                "connected": [2],
            }
            assert "event: game" in lines
            table.act(0, table.get(0)["legal"][0]["id"])  # then the AI plays seat 1
            wait_for(lambda: any(e["current"] == 2 for e in events_of(lines)))
            seen = events_of(lines)
            # Versions never go back, and no event repeats the one before it.
            assert [e["version"] for e in seen] == sorted(e["version"] for e in seen)
            assert all(a != b for a, b in itertools.pairwise(seen))
            assert any(e["thinking"] for e in seen) or seen[-1]["version"] == 2
            assert seen[-1] == {
                "version": 2,
                "step": 2,
                "current": 2,
                "over": False,
                "thinking": False,
                "seating": 0,
                "next": None,
                "connected": [2],
            }
            wait_for(lambda: events_of(spectator_lines)[-1]["version"] == 2)
            # A change by another server process (written to the database directly here)
            # reaches the stream through the poller.
            store = tables(client).store
            game = tables(client).cache[table.id]
            game.apply(2, int(game.state.legal_actions()[0]))
            store.append(table.id, 2, game.decision(2), game.position())
            wait_for(lambda: events_of(lines)[-1]["version"] == 3)
            # An idle stream says it is alive.
            wait_for(lambda: ": keepalive" in lines)
            stop.set()
        # The streams ended with their clients: nobody watches the game any more.
        wait_for(lambda: tables(client).hub.watched == [])
