"""Game night: the host's link, open seats claimed through the invitation, display names,
links given anew, and the rematch that moves every seat to its new place.

Every test runs on SQLite and (``-m postgres``) PostgreSQL through the ``web_db`` fixture.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor import render
from splendor.web import ServerLimits, create_app
from splendor.web.store import MAX_NAME, Conflict, Store
from test_web_api import Table, error, new, stalling_game, tables
from test_web_tables import events_of, load, read_events, wait_for

ANN = "<b>Ann</b>"


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).fragment)["token"][0]


def game_night(client: TestClient) -> tuple[Table, dict[str, Any]]:
    """Base, 3 seats: seat 0 is the host, named Ann (with markup), seat 1 left open, seat 2
    the AI."""
    r = client.post(
        "/api/v1/games",
        json={
            "variant": "base",
            "players": 3,
            "seed": 4,
            "ai_seats": [2],
            "bot": "greedy",
            "open_seats": [1],
            "names": [ANN],
        },
    )
    assert r.status_code == 201, r.text
    made = r.json()
    return Table(client, made), made


def test_a_table_with_an_open_seat_the_host_link_and_the_invitation(client: TestClient) -> None:
    table, made = game_night(client)
    seats = made["seats"]
    assert [(s["role"], s["open"], s["token"] is None) for s in seats] == [
        ("human", False, False),
        ("human", True, True),
        ("ai", False, True),
    ]
    assert seats[0]["name"] == ANN and seats[1]["link"] is None
    # Every link is absolute: the page's address (here the test client's), then the fragment.
    for link in (seats[0]["link"], made["spectator"]["link"], made["host"]["link"]):
        assert link.startswith("http://testserver/#game=" + table.id + "&token=")
    assert token_of(made["host"]["link"]) == made["host"]["token"]
    invite = made["invite"]["token"]
    host = made["host"]["token"]
    view = client.get(f"/api/v1/games/{table.id}/host", headers=auth(host)).json()
    assert [(s["state"], s["name"]) for s in view["seats"]] == [
        ("taken", ANN),
        ("open", None),
        ("ai", None),
    ]
    assert view["invite"] and not view["over"] and view["next"] is None
    # The invitation shows the table, then claims the open seat with a name.
    shown = client.get(f"/api/v1/games/{table.id}/invite", headers=auth(invite)).json()
    assert shown["open_seats"] == 1 and [s["open"] for s in shown["seats"]] == [False, True, False]
    r = client.post(f"/api/v1/games/{table.id}/claim", json={"name": "Bob"}, headers=auth(invite))
    assert r.status_code == 200, r.text
    claimed = r.json()
    assert claimed["seat"] == 1 and token_of(claimed["link"]) == claimed["token"]
    bob = Table(client, made)
    bob.tokens[1] = claimed["token"]
    snap = bob.get(1)
    assert snap["viewer"] == 1 and [s["name"] for s in snap["seats"]] == [ANN, "Bob", None]
    # One claim per seat: the invitation finds none left, and changed nothing.
    message = error(
        client.post(f"/api/v1/games/{table.id}/claim", json={"name": "Cy"}, headers=auth(invite)),
        409,
        "no_open_seat",
    )
    assert "taken" in message
    view = client.get(f"/api/v1/games/{table.id}/host", headers=auth(host)).json()
    assert [s["state"] for s in view["seats"]] == ["taken", "taken", "ai"]
    assert bob.get(1)["seats"][1]["name"] == "Bob"
    # The host watches as a spectator does: the public view, no legal moves.
    watched = client.get(f"/api/v1/games/{table.id}", headers=auth(host)).json()
    assert watched["viewer"] is None and watched["view"]["decks"] is None
    assert watched["access"] == "host" and table.get(None)["access"] == "spectator"
    assert table.get(0)["access"] == "seat"


def test_a_race_for_the_last_open_seat_gives_it_to_exactly_one(client: TestClient) -> None:
    table, made = game_night(client)
    invite = made["invite"]["token"]
    path = f"/api/v1/games/{table.id}/claim"
    barrier = threading.Barrier(6)

    def claim(i: int) -> Any:
        barrier.wait()
        return client.post(path, json={"name": f"friend {i}"}, headers=auth(invite))

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(claim, range(6)))
    won = [r for r in answers if r.status_code == 200]
    assert len(won) == 1, [r.text for r in answers]
    for r in answers:
        if r.status_code != 200:
            error(r, 409, "no_open_seat")
    row = tables(client).store.game(table.id)
    assert row.tokens[1] is not None and row.name(1) == f"friend {answers.index(won[0])}"


def test_the_store_writes_one_of_two_seat_changes_made_on_the_same_seating(web_db: str) -> None:
    from splendor.web.games import Dealer

    store = Store(web_db)
    game = Dealer().deal("base", 2, 1, [], "greedy")
    store.create(game.row((None, None), "b" * 64), [])
    store.seat_change(game.game_id, 0, tokens=("a" * 64, None), names=("Ann", None))
    with pytest.raises(Conflict):
        store.seat_change(game.game_id, 0, tokens=(None, "c" * 64), names=(None, "Cy"))
    row = store.game(game.game_id)
    assert row is not None and row.seating == 1 and row.tokens == ("a" * 64, None)
    assert row.names == ("Ann", None)
    store.close()


def test_names_are_text_everywhere(client: TestClient) -> None:
    table, _ = game_night(client)
    snap = table.get(0)
    # In the JSON, the name as given; in the SVG and the text board, as text.
    assert snap["seats"][0]["name"] == ANN
    assert ANN not in snap["svg"] and "&lt;b&gt;Ann&lt;/b&gt;" in snap["svg"]
    assert "<b>" not in snap["svg"]
    assert f"seat 0 ({ANN}, you)" in snap["text"]
    state = tables(client).cache[table.id].state
    names = {0: f"{ANN}, you", 1: "human", 2: "AI"}
    assert snap["svg"] == str(render.svg_board(state, 0, names=names, legal=_picks(snap)))
    spectator = table.get(None)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in spectator["svg"] and f"seat 0 ({ANN})" in spectator["text"]
    # The seat renames itself; bounded, no control characters, spaces made one.
    r = table.post(0, "name", {"name": "  Ann   Lee "})
    assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Ann Lee"
    for bad in ("", "   ", "x" * (MAX_NAME + 1), "Ann\u0000", "Ann\u202e", "\u200bx"):
        r = table.post(0, "name", {"name": bad})
        assert r.status_code == 422, r.status_code
        error(r, 422, "invalid_request")
    assert table.get(0)["seats"][0]["name"] == "Ann Lee"
    r = table.post(0, "name", {"name": "a\nb\t" + "x" * (MAX_NAME - 4)})
    assert r.status_code == 200 and r.json()["seats"][0]["name"] == "a b " + "x" * (MAX_NAME - 4)
    error(table.post(None, "name", {"name": "Eve"}), 403, "spectator")
    # Names only for human seats of the table.
    for body in ({"names": [None, None, "AI?"], "ai_seats": [2]}, {"names": ["a"] * 4}):
        r = client.post("/api/v1/games", json={"variant": "base", "players": 3, **body})
        error(r, 422, "bad_config")
    r = client.post(
        "/api/v1/games", json={"variant": "base", "players": 2, "ai_seats": [1], "open_seats": [1]}
    )
    error(r, 422, "bad_config")


def _picks(snap: dict[str, Any]) -> list[str]:
    from splendor.web.picks import picks_of

    return picks_of(snap["variant"], [a["text"] for a in snap["legal"]])


def test_the_host_gives_a_lost_link_anew_and_the_old_one_dies_at_once(
    client: TestClient,
) -> None:
    table, made = game_night(client)
    host = made["host"]["token"]
    old = table.tokens[0]
    lines: list[str] = []
    stop = threading.Event()
    path = f"/api/v1/games/{table.id}/events"
    with client.stream("GET", path, headers=auth(old)) as stream:
        reader = threading.Thread(target=read_events, args=(stream, lines, stop), daemon=True)
        reader.start()
        wait_for(lambda: events_of(lines))
        view = client.get(f"/api/v1/games/{table.id}/host", headers=auth(host)).json()
        assert view["seats"][0]["state"] == "connected"
        r = client.post(f"/api/v1/games/{table.id}/seats/0/link", headers=auth(host))
        assert r.status_code == 200, r.text
        fresh = r.json()
        assert fresh["seat"] == 0 and fresh["token"] != old
        assert token_of(fresh["link"]) == fresh["token"]
        # The old token is refused at once, like any wrong one; its stream ended.
        error(client.get(f"/api/v1/games/{table.id}", headers=auth(old)), 403, "wrong_token")
        reader.join(20)
        assert not reader.is_alive(), "the replaced token's stream ended"
        stop.set()
    assert client.get(f"/api/v1/games/{table.id}", headers=auth(fresh["token"])).status_code == 200
    # The open seat can be given a link by the host too; AI seats and others cannot.
    r = client.post(f"/api/v1/games/{table.id}/seats/1/link", headers=auth(host))
    assert r.status_code == 200
    error(
        client.post(f"/api/v1/games/{table.id}/seats/2/link", headers=auth(host)), 409, "wrong_seat"
    )
    error(
        client.post(f"/api/v1/games/{table.id}/seats/3/link", headers=auth(host)), 409, "wrong_seat"
    )
    # No seat is open now: the invitation claims nothing. A new invitation replaces the old.
    invite = made["invite"]["token"]
    error(
        client.post(f"/api/v1/games/{table.id}/claim", json={"name": "x"}, headers=auth(invite)),
        409,
        "no_open_seat",
    )
    again = client.post(f"/api/v1/games/{table.id}/invite", headers=auth(host)).json()
    error(client.get(f"/api/v1/games/{table.id}/invite", headers=auth(invite)), 403, "wrong_token")
    assert (
        client.get(f"/api/v1/games/{table.id}/invite", headers=auth(again["token"])).json()[
            "open_seats"
        ]
        == 0
    )


def finished(client: TestClient, names: list[str | None]) -> tuple[Table, dict[str, Any]]:
    """A finished base game of three: seats 0 and 1 people (named), seat 2 the AI."""
    start, actions = stalling_game("base", 3)
    table = load(client, start, actions, [2])
    host = table.made["host"]["token"]
    for seat, name in enumerate(names):
        if name is not None:
            assert table.post(seat, "name", {"name": name}).status_code == 200
    assert table.get(0)["current"] is None
    return table, {"host": host}


def test_play_again_moves_every_page_to_its_own_new_seat(client: TestClient) -> None:
    table, extra = finished(client, [ANN, "Bob"])
    host = extra["host"]
    base = f"/api/v1/games/{table.id}"
    lines: list[str] = []
    stop = threading.Event()
    with client.stream("GET", f"{base}/events", headers=table.auth(1)) as stream:
        reader = threading.Thread(target=read_events, args=(stream, lines, stop), daemon=True)
        reader.start()
        wait_for(lambda: events_of(lines))
        error(client.post(f"{base}/next", headers=table.auth(1)), 409, "no_rematch")
        # Seat 0 asks: the rematch is dealt, and seat 0 gets its own place there.
        r = client.post(f"{base}/rematch", headers=table.auth(0))
        assert r.status_code == 200, r.text
        mine = r.json()
        next_id = mine["game_id"]
        # The other page learns of it from its stream, never of anyone's token.
        wait_for(lambda: events_of(lines)[-1]["next"] == next_id)
        assert not any(mine["token"] in line for line in lines)
        stop.set()
    # Everyone one seat on: old seat 1 plays first, the AI moves from seat 2 to seat 1.
    assert mine["role"] == "seat" and mine["seat"] == 2
    theirs = client.post(f"{base}/next", headers=table.auth(1)).json()
    assert theirs["seat"] == 0 and theirs["game_id"] == next_id
    assert len({mine["token"], theirs["token"], *table.tokens.values()}) == 5
    # Asking again gives the same token (a retry, a second browser on the seat).
    assert client.post(f"{base}/next", headers=table.auth(1)).json()["token"] == theirs["token"]
    # A second rematch request finds the one dealt.
    assert client.post(f"{base}/rematch", headers=table.auth(1)).json()["game_id"] == next_id
    new_game = Table(client, {"game_id": next_id, "seats": [], "spectator": {"token": ""}})
    new_game.tokens = {2: mine["token"], 0: theirs["token"]}
    snap = new_game.get(0)
    assert snap["ai_seats"] == [1] and snap["step"] == 0 and snap["current"] == 0
    assert [s["name"] for s in snap["seats"]] == ["Bob", None, ANN]
    assert new_game.get(2)["viewer"] == 2
    # The spectators and the host follow too, each with their own new token.
    spectator = client.post(f"{base}/next", headers=table.auth(None)).json()
    assert spectator["role"] == "spectator" and spectator["seat"] is None
    watched = client.get(f"/api/v1/games/{next_id}", headers=auth(spectator["token"])).json()
    assert watched["viewer"] is None and watched["legal"] == []
    hosted = client.post(f"{base}/next", headers=auth(host)).json()
    assert hosted["role"] == "host"
    view = client.get(f"/api/v1/games/{next_id}/host", headers=auth(hosted["token"])).json()
    assert [s["state"] for s in view["seats"]] == ["taken", "ai", "taken"]
    # The new game's row holds no token in plain, only hashes.
    row = tables(client).store.game(next_id)
    stored = json.dumps([row.tokens, row.spectator, row.host])
    for token in (mine["token"], theirs["token"], spectator["token"], hosted["token"]):
        assert token not in stored
    # The old game says where its rematch is.
    assert table.get(0)["next"] == next_id


def test_a_rematch_waits_for_the_end_and_two_at_once_deal_one(client: TestClient) -> None:
    going = new(client, variant="base", players=2)
    error(going.post(0, "rematch", None), 409, "game_not_over")
    error(going.post(None, "rematch", None), 403, "spectator")
    table, _ = finished(client, [None, None])
    barrier = threading.Barrier(4)

    def ask(seat: int) -> Any:
        barrier.wait()
        return table.post(seat % 2, "rematch", None)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, range(4)))
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    assert len({r.json()["game_id"] for r in answers}) == 1
    assert tables(client).store.count() == 3  # the going game, the finished one, one rematch


def test_a_place_the_host_gave_anew_cannot_be_followed_into(client: TestClient) -> None:
    table, extra = finished(client, [None, None])
    made = table.post(0, "rematch", None).json()
    hosted = client.post(f"/api/v1/games/{table.id}/next", headers=auth(extra["host"])).json()
    # The host gives old seat 1's new seat (0) a fresh link before seat 1 follows.
    r = client.post(f"/api/v1/games/{made['game_id']}/seats/0/link", headers=auth(hosted["token"]))
    assert r.status_code == 200
    error(table.post(1, "next", None), 409, "seat_taken")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def lasting_db(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database that outlives its server: a SQLite file, or PostgreSQL (emptied)."""
    from conftest import postgres_url

    return str(tmp_path / "v1.sqlite3") if request.param == "sqlite" else postgres_url()


def test_a_version_1_database_is_upgraded_in_place(lasting_db: str) -> None:
    """A database made before host links (schema 1) opens: its games play on, with no host
    link and no names, and new tables get everything."""
    from splendor.web.store import engine_url
    from sqlalchemy import create_engine, text

    engine = create_engine(engine_url(lasting_db)[0])
    game = splendor.new_game("base", players=2, seed=3)
    with engine.begin() as c:
        for statement in SCHEMA_1.split(";"):
            if statement.strip():
                c.execute(text(statement))
        c.execute(
            text(
                "INSERT INTO games VALUES ('old1', 'base', 2, :start, 'greedy', '[1]', :tokens,"
                " :spectator, 0, 0, 0, FALSE, FALSE, 1.0, 1.0)"
            ),
            {
                "start": game.to_json(),
                "tokens": json.dumps([_hash("seat0"), None]),
                "spectator": _hash("watch"),
            },
        )
        c.execute(text("INSERT INTO meta VALUES ('schema', '1')"))
    engine.dispose()
    with TestClient(create_app(ServerLimits(workers=1), db=lasting_db)) as client:
        snap = client.get("/api/v1/games/old1", headers=auth("seat0")).json()
        assert snap["seats"][0]["name"] is None and snap["seating"] == 0
        legal = snap["legal"][0]["id"]
        r = client.post("/api/v1/games/old1/actions", json={"action": legal}, headers=auth("seat0"))
        assert r.status_code == 200
        r = client.post("/api/v1/games/old1/name", json={"name": "Ann"}, headers=auth("seat0"))
        assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Ann"
        assert client.get("/api/v1/games/old1", headers=auth("watch")).status_code == 200
        error(client.get("/api/v1/games/old1/host", headers=auth("seat0")), 403, "host_only")
        table = new(client, variant="base", players=2, open_seats=[1])
        assert table.made["invite"] is not None
    store = Store(lasting_db)  # opened again: upgraded once, nothing more to do
    with store.engine.connect() as c:
        assert c.execute(text("SELECT value FROM meta")).scalar() == "2"
    assert store.count() == 2
    store.close()


def _hash(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


SCHEMA_1 = """
CREATE TABLE meta (key VARCHAR(64) NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key));
CREATE TABLE games (
    id VARCHAR(32) NOT NULL, variant VARCHAR(16) NOT NULL, players INTEGER NOT NULL,
    start TEXT NOT NULL, bot VARCHAR(64) NOT NULL, ai_seats TEXT NOT NULL,
    tokens TEXT NOT NULL, spectator VARCHAR(64) NOT NULL, version INTEGER NOT NULL,
    steps INTEGER NOT NULL, current INTEGER, ai_to_move BOOLEAN NOT NULL,
    over BOOLEAN NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL, PRIMARY KEY (id)
);
CREATE INDEX ix_games_ai_to_move ON games (ai_to_move);
CREATE TABLE decisions (
    game_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, action INTEGER NOT NULL,
    seat INTEGER NOT NULL, by_ai BOOLEAN NOT NULL, text TEXT NOT NULL, note TEXT,
    PRIMARY KEY (game_id, idx), FOREIGN KEY(game_id) REFERENCES games (id)
);
"""
"""Schema 1 as SQLAlchemy made it on SQLite (the release before host links)."""


def test_seat_changes_made_by_another_process_reach_the_streams(client: TestClient) -> None:
    """A claim written by another server process (here, straight to the database) reaches
    this process's streams through the poller; a seat's stream makes it connected, and its
    end disconnects it."""
    table, made = game_night(client)
    host = made["host"]["token"]
    lines: list[str] = []
    stop = threading.Event()
    path = f"/api/v1/games/{table.id}/events"
    with client.stream("GET", path, headers=auth(host)) as stream:
        reader = threading.Thread(target=read_events, args=(stream, lines, stop), daemon=True)
        reader.start()
        wait_for(lambda: events_of(lines) and events_of(lines)[-1]["connected"] == [])
        row = tables(client).store.game(table.id)
        tokens = (row.tokens[0], _hash("elsewhere"), None)
        tables(client).store.seat_change(table.id, row.seating, tokens=tokens)
        wait_for(lambda: events_of(lines)[-1]["seating"] == row.seating + 1)
        view = client.get(f"/api/v1/games/{table.id}/host", headers=auth(host)).json()
        assert [s["state"] for s in view["seats"]] == ["taken", "taken", "ai"]
        seat_lines: list[str] = []
        seat_stop = threading.Event()
        with client.stream("GET", path, headers=auth("elsewhere")) as seat_stream:
            seat_reader = threading.Thread(
                target=read_events, args=(seat_stream, seat_lines, seat_stop), daemon=True
            )
            seat_reader.start()
            wait_for(lambda: events_of(lines)[-1]["connected"] == [1])
            view = client.get(f"/api/v1/games/{table.id}/host", headers=auth(host)).json()
            assert view["seats"][1]["state"] == "connected"
            seat_stop.set()
        wait_for(lambda: events_of(lines)[-1]["connected"] == [])
        stop.set()
