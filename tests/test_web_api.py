"""The JSON API as a program uses it: whole games, moves from views, and every kind of bad input."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
import splendor
from fastapi.testclient import TestClient
from splendor.web import ServerLimits, create_app
from splendor.web.app import ERROR_CODES, json_depth

Response = httpx.Response | httpx2.Response
"""An answer: of Starlette's test client (httpx2) or of a live server (httpx)."""

SETUPS = [("base", 2), ("base", 3), ("duel", 2), ("marvel", 4)]


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    # As a context manager: the app's lifespan runs (the server plays its AI seats itself).
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as c:
        yield c


class Table:
    """A table made through the API: its id and the tokens of its seats and spectators."""

    def __init__(self, client: TestClient, made: dict[str, Any]) -> None:
        self.client, self.made = client, made
        self.id = made["game_id"]
        self.tokens: dict[int | None, str] = {
            s["seat"]: s["token"] for s in made["seats"] if s["token"] is not None
        }
        self.tokens[None] = made["spectator"]["token"]

    def auth(self, seat: int | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def get(self, seat: int | None) -> dict[str, Any]:
        r = self.client.get(f"/api/v1/games/{self.id}", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def post(self, seat: int | None, what: str, body: Any) -> Response:
        r: Response = self.client.post(
            f"/api/v1/games/{self.id}/{what}", headers=self.auth(seat), json=body
        )
        return r

    def act(self, seat: int, action: int | str) -> dict[str, Any]:
        r = self.post(seat, "actions", {"action": action})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def settled(self, seat: int | None = None, timeout: float = 60) -> dict[str, Any]:
        """The snapshot once no AI seat is to decide (the server plays them itself)."""
        end = time.monotonic() + timeout
        while True:
            game = self.get(seat if seat is not None or None in self.tokens else None)
            if not game["thinking"]:
                return game
            assert time.monotonic() < end, "the AI did not move"
            time.sleep(0.02)


def new(client: TestClient, **body: Any) -> Table:
    r = client.post("/api/v1/games", json={"seed": 1, **body})
    assert r.status_code == 201, r.text
    return Table(client, r.json())


def tables(client: TestClient) -> Any:
    return client.app.state.tables  # type: ignore[attr-defined]


def error(r: Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["status"] == status
    assert body["error"]["code"] == code
    assert (status, code) in ERROR_CODES, "a code of the docs' table"
    return str(body["error"]["message"])


def test_info_and_openapi_schema(client: TestClient) -> None:
    info = client.get("/api/v1").json()
    assert info["api"] == "v1"
    assert {v["name"] for v in info["variants"]} == set(splendor.VARIANTS)
    schema = client.get("/openapi.json").json()
    assert "/api/v1/move" in schema["paths"]
    assert "/api/v1/games/{game_id}/actions" in schema["paths"]
    assert "/api/v1/games/{game_id}/events" in schema["paths"]
    assert "/api/v1/games/{game_id}/ai" not in schema["paths"], "the server plays its AI seats"
    for model in ("MoveRequest", "MoveResponse", "GameSnapshot", "ErrorResponse", "NewTable"):
        assert model in schema["components"]["schemas"]


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_a_whole_game_through_the_api(client: TestClient, variant: str, players: int) -> None:
    """A client in any language can deal, list legal actions and apply, while the server
    plays the AI's seat itself."""
    table = new(client, variant=variant, players=players, ai_seats=[1], bot="greedy")
    assert [s["role"] for s in table.made["seats"]] == ["human", "ai"] + ["human"] * (players - 2)
    assert table.made["seats"][1]["token"] is None
    rng = random.Random(variant)
    game = table.settled(0)
    versions = [game["version"]]
    for _ in range(2000):
        if game["current"] is None:
            break
        seat = game["current"]
        assert seat != 1, "the AI's seat is never left to decide once settled"
        game = table.get(seat)
        assert game["legal"], "the seat to decide has legal actions"
        choice = rng.choice(game["legal"])
        action = choice["id"] if rng.random() < 0.5 else choice["text"]
        played = table.act(seat, action)
        assert played["log"][-1]["action"] == choice["text"]
        assert played["last"] == {
            "index": played["step"] - 1,
            "seat": seat,
            "action": choice["text"],
            "by_ai": False,
            "says": played["log"][-1]["says"],
        }
        assert played["last"]["says"], "the last move says what it did"
        game = table.settled(seat)
        versions.append(game["version"])
    assert game["current"] is None
    assert game["result"] is not None
    assert "game over" in game["svg"]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert any(e["by_ai"] and e["seat"] == 1 for e in game["log"])
    assert all(e["by_ai"] == (e["seat"] == 1) for e in game["log"])


def test_snapshot_is_the_viewers_view_only(client: TestClient) -> None:
    table = new(client, variant="base", players=3)
    state = tables(client).cache[table.id].state
    for viewer in range(3):
        snap = table.get(viewer)
        assert snap["viewer"] == snap["seat"] == viewer
        assert snap["view"] == json.loads(state.to_json(viewer))
        assert snap["view"]["decks"] is None
        assert bool(snap["legal"]) == (viewer == state.current_player)
        assert "decks" not in snap["svg"]
    assert [s["role"] for s in table.get(0)["seats"]] == ["human"] * 3


def test_illegal_actions_are_explained_and_change_nothing(client: TestClient) -> None:
    table = new(client, variant="base")
    game = table.get(0)
    message = error(table.post(0, "actions", {"action": "buy 1.1"}), 422, "illegal_action")
    assert "buy 1.1" in message and "afford" in message
    error(table.post(0, "actions", {"action": "fly away"}), 422, "invalid_action")
    error(table.post(0, "actions", {"action": 99999}), 422, "invalid_action")
    error(table.post(1, "actions", {"action": 0}), 409, "wrong_seat")
    error(table.post(0, "actions", {"action": 0, "version": 5}), 409, "game_changed")
    error(table.post(None, "actions", {"action": 0}), 403, "spectator")
    after = table.get(0)
    assert after == game and after["version"] == 0


def test_ai_hint_undo(client: TestClient) -> None:
    table = new(client, variant="duel", ai_seats=[1], bot="mcts:50")
    game = table.get(0)
    hint = table.post(0, "hint", {"seed": 2}).json()
    assert hint["action"] in {a["text"] for a in game["legal"]}
    assert 0.0 <= hint["win_estimate"] <= 1.0
    assert hint["considered"] and hint["iterations"] == 50
    assert table.get(0)["step"] == 0
    game = table.act(0, game["legal"][0]["id"])
    while game["current"] == 0:  # Duel: a turn may take several decisions
        game = table.act(0, game["legal"][0]["id"])
    game = table.settled(0)
    ai = [e for e in game["log"] if e["seat"] == 1]
    assert ai and all(e["by_ai"] for e in ai) and ai[-1]["win_estimate"] is not None
    assert game["can_undo"]
    undone = table.post(0, "undo", {"version": table.get(0)["version"]}).json()
    mine = [i for i, e in enumerate(game["log"]) if e["seat"] == 0]
    assert undone["step"] == mine[-1]
    assert undone["current"] == 0 and undone["version"] > game["version"]


def test_save_load_and_replay(client: TestClient) -> None:
    table = new(client, variant="marvel", players=2, ai_seats=[1], bot="greedy")
    game = table.get(0)
    for _ in range(6):
        game = table.settled(0)
        game = table.act(0, game["legal"][0]["id"])
    game = table.settled(0)
    saved = client.get(f"/api/v1/games/{table.id}/save", headers=table.auth(0))
    assert saved.status_code == 200, saved.text
    assert saved.headers["content-disposition"].startswith("attachment")
    r = client.post("/api/v1/games/load", json=saved.json())
    assert r.status_code == 201, r.text
    loaded = Table(client, r.json())
    assert loaded.id != table.id and loaded.tokens[0] != table.tokens[0]
    again = loaded.settled(0)
    assert again["view"] == game["view"] and again["step"] == game["step"]
    frame = client.get(
        f"/api/v1/games/{table.id}/replay", params={"step": 2}, headers=table.auth(0)
    ).json()
    assert frame["steps"] == game["step"] and frame["action"] == game["log"][1]["action"]
    from splendor import render

    state = tables(client).cache[table.id].replay(2)
    last = (game["log"][1]["seat"], game["log"][1]["action"])
    assert frame["svg"] == str(render.svg_board(state, 0, names={1: "AI"}, last=last))
    error(
        client.get(f"/api/v1/games/{table.id}/replay", params={"step": 999}, headers=table.auth(0)),
        422,
        "bad_config",
    )
    tampered = saved.json()
    tampered["start"]["bank"][0] += 1
    error(client.post("/api/v1/games/load", json=tampered), 422, "invalid_state")
    tampered = saved.json()
    tampered["actions"].append(9999)
    error(client.post("/api/v1/games/load", json=tampered), 422, "invalid_action")


def midgame_view(seed: int = 4, players: int = 3, variant: str = "base") -> tuple[Any, int]:
    state = splendor.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        legal = state.legal_actions()
        blind = [a for a in legal if "deck" in str(a)]
        state.apply(blind[0] if blind and rng.random() < 0.5 else rng.choice(legal))
    return state, state.current_player


@pytest.mark.parametrize(("spec", "search"), [("default", "net"), ("mcts", "mcts")])
def test_move_from_a_view(client: TestClient, spec: str, search: str) -> None:
    state, seat = midgame_view()
    body = {
        "view": json.loads(state.to_json(seat)),
        "bot": spec,
        "budget": {"iterations": 300},
        "seed": 5,
    }
    r = client.post("/api/v1/move", json=body)
    assert r.status_code == 200, r.text
    move = r.json()
    assert move["player"] == seat
    assert move["action"] in {str(a) for a in state.legal_actions()}
    assert move["action"] == str(state.action_from_id(move["action_id"]))
    assert move["elapsed"] > 0
    # The default AI with 3 players stops once its move is decided (`:stop=1`), so its move may
    # take fewer iterations than the budget; the rollout search spends it all. A hint spends it
    # all (test_the_network_default_budget_follows_the_servers_default_and_limit).
    if search == "mcts":
        assert move["iterations"] == 300
    else:
        assert 0 < move["iterations"] <= 300
    # Base with 3 players ships a network: the default AI is the network search.
    assert move["bot"] == search
    assert sum(c["visits"] for c in move["considered"]) <= 300
    # Whatever the hidden cards really are, the answer is the same: nothing hidden is read.
    other = state.determinize(seat, seed=77)
    assert other.to_json() != state.to_json()
    again = client.post("/api/v1/move", json={**body, "view": json.loads(other.to_json(seat))})
    strip = {"elapsed"}
    assert {k: v for k, v in again.json().items() if k not in strip} == {
        k: v for k, v in move.items() if k not in strip
    }
    greedy = client.post("/api/v1/move", json={**body, "bot": "greedy"}).json()
    assert greedy["bot"] == "greedy" and greedy["win_estimate"] is None


def test_the_default_ai_is_the_shipped_network_where_there_is_one(client: TestClient) -> None:
    from splendor.nets import SHIPPED_NET_ITERATIONS

    # A server game's default AI searches with the network, for the iterations that take
    # about the time of mcts:1000 (a hint asks the game's AI).
    table = new(client, variant="duel", ai_seats=[1])
    move = table.post(0, "hint", {"seed": 1}).json()
    assert move["bot"] == "net" and move["iterations"] == SHIPPED_NET_ITERATIONS[("duel", 2)]
    assert move["considered"] and 0.0 <= move["win_estimate"] <= 1.0
    # A move from a view: `default` and `net` are the same search; the budget applies.
    state = splendor.new_game("base", players=2, seed=3)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    body = {"view": json.loads(state.to_json(seat)), "budget": {"iterations": 120}, "seed": 4}
    by_default = client.post("/api/v1/move", json=body).json()
    by_name = client.post("/api/v1/move", json={**body, "bot": "net"}).json()
    assert by_default["bot"] == by_name["bot"] == "net" and by_default["iterations"] == 120
    strip = {"elapsed", "bot"}
    assert {k: v for k, v in by_default.items() if k not in strip} == {
        k: v for k, v in by_name.items() if k not in strip
    }
    # The network reads only the mover's view: other hidden cards, the same answer.
    other = state.determinize(seat, seed=78)
    assert other.to_json() != state.to_json()
    again = client.post("/api/v1/move", json={**body, "view": json.loads(other.to_json(seat))})
    assert {k: v for k, v in again.json().items() if k != "elapsed"} == {
        k: v for k, v in by_default.items() if k != "elapsed"
    }
    rollout = client.post("/api/v1/move", json={**body, "bot": "mcts"}).json()
    assert rollout["bot"] == "mcts" and rollout["iterations"] == 120


def test_the_network_default_budget_follows_the_servers_default_and_limit() -> None:
    from splendor.nets import SHIPPED_NET_ITERATIONS

    limits = ServerLimits(workers=1, default_iterations=100, max_iterations=200)
    with TestClient(create_app(limits)) as small:
        duel = new(small, variant="duel", ai_seats=[1])
        move = duel.post(0, "hint", {"seed": 1}).json()
        # Duel: the default AI's 1,350 network iterations stand for 1,000 rollout ones, so
        # 100 -> 135.
        assert move["bot"] == "net"
        assert move["iterations"] == round(100 * SHIPPED_NET_ITERATIONS[("duel", 2)] / 1000) == 135
        # Base, 3 players: 4,500 per 1,000 would be 450, over this server's limit of 200; a
        # hint spends its whole budget, early stop or not, so each move it explains is searched.
        base = new(small, variant="base", players=3, ai_seats=[1])
        move = base.post(0, "hint", {"seed": 1}).json()
        assert move["bot"] == "net" and move["iterations"] == 200


def test_net_specs_name_only_the_servers_own_networks(
    client: TestClient, no_marvel_4p_network: None
) -> None:
    # With no network for Marvel with 4 players, `net` is refused up front.
    game = {"variant": "marvel", "players": 4, "bot": "net"}
    error(client.post("/api/v1/games", json=game), 422, "bad_config")
    four, seat = midgame_view(players=4, variant="marvel")
    message = error(
        client.post("/api/v1/move", json={"view": json.loads(four.to_json(seat)), "bot": "net:50"}),
        422,
        "bad_config",
    )
    assert "no network is shipped for marvel with 4 players" in message
    state, seat = midgame_view()
    view = json.loads(state.to_json(seat))
    # A client must not make the server open a file of its choosing.
    for spec in ("net:10@/etc/passwd", "net:1s@../data/nets/base-2p.safetensors"):
        for r in (
            client.post("/api/v1/games", json={"bot": spec}),
            client.post("/api/v1/move", json={"view": view, "bot": spec}),
        ):
            assert "only searches with the networks it ships" in error(r, 422, "bad_config")
    assert tables(client).store.count() == 0


def test_move_refuses_bad_requests(client: TestClient) -> None:
    state, seat = midgame_view()
    view = json.loads(state.to_json(seat))

    def post(body: Any) -> Response:
        r: Response = client.post("/api/v1/move", json=body)
        return r

    error(post({"view": json.loads(state.to_json())}), 422, "invalid_state")
    error(post({"view": json.loads(state.to_json((seat + 1) % 3))}), 409, "wrong_seat")
    tampered = json.loads(json.dumps(view))
    tampered["bank"][0] += 3
    error(post({"view": tampered}), 422, "invalid_state")
    error(post({"view": view, "budget": {"iterations": 10**9}}), 422, "budget_too_large")
    error(post({"view": view, "budget": {"time_limit": 3600}}), 422, "budget_too_large")
    error(post({"view": view, "bot": "mcts:999999999"}), 422, "budget_too_large")
    error(post({"view": view, "bot": "alphago"}), 422, "bad_config")
    error(post({"view": view, "budget": {"iterations": 0}}), 422, "invalid_request")
    error(post({"view": view, "seed": -1}), 422, "invalid_request")
    error(post({"view": view, "colour": "red"}), 422, "invalid_request")
    error(post({"view": "not an object"}), 422, "invalid_request")
    error(post({"view": {"variant": "chess", "viewer": 0}}), 422, "invalid_state")
    r = client.post(
        "/api/v1/move", content=b'{"view": ', headers={"content-type": "application/json"}
    )
    error(r, 400, "malformed_json")
    over = client.post(
        "/api/v1/move", content=b" " * (300 * 1024), headers={"content-type": "application/json"}
    )
    error(over, 413, "body_too_large")
    error(client.get("/api/v1/nothing"), 404, "not_found")
    error(client.get("/api/v1/move"), 405, "method_not_allowed")
    error(client.get("/api/v1/games/nope"), 401, "token_required")
    bad = {"Authorization": "Bearer nope"}
    error(client.get("/api/v1/games/nope", headers=bad), 403, "wrong_token")
    error(client.post("/api/v1/games", json={"variant": "duel", "players": 3}), 422, "bad_config")
    error(client.post("/api/v1/games", json={"variant": "chess"}), 422, "invalid_request")
    error(client.post("/api/v1/games", json={"ai_seats": [5]}), 409, "wrong_seat")
    error(client.post("/api/v1/games/nope/ai", json={}), 404, "not_found")


def test_random_garbage_never_gets_a_500(client: TestClient) -> None:
    table = new(client, variant="base", ai_seats=[1], bot="greedy")
    game = table.settled(0)
    rng = random.Random(0)
    values: list[Any] = [None, -1, 0, 1, 2**70, 1.5, "x", "", [], {}, True, [1, 2], {"a": 1}]
    paths = [
        "/api/v1/move",
        "/api/v1/games",
        "/api/v1/games/load",
        f"/api/v1/games/{table.id}/actions",
        f"/api/v1/games/{table.id}/hint",
        f"/api/v1/games/{table.id}/undo",
    ]
    keys = ["view", "seat", "action", "bot", "budget", "seed", "variant", "players", "start"]
    keys += ["version", "actions", "ai_seats"]
    headers: list[dict[str, str]] = [
        {},
        table.auth(0),
        table.auth(None),
        {"Authorization": "Bearer"},
        {"Authorization": "Basic abc"},
        {"Authorization": "Bearer " + "x" * 300},
        {"Authorization": f"Bearer {table.tokens[0]}x"},
    ]
    for _ in range(300):
        body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 4))}
        r = client.post(
            rng.choice(paths),
            json=body if rng.random() < 0.9 else rng.choice(values),
            headers=rng.choice(headers),
        )
        assert r.status_code < 500, r.text
        assert set(r.json()) <= {"error"} or r.status_code in (200, 201)
        if r.status_code >= 400:
            assert (r.status_code, r.json()["error"]["code"]) in ERROR_CODES
    # The game in progress survived all of it (an action id 0 or 1 may have been legal:
    # then it was played by seat 0, as its token asked).
    after = table.settled(0)
    if after["step"] == game["step"]:
        assert after["view"] == game["view"]
    assert all(e["seat"] == 0 or e["by_ai"] for e in after["log"])


def test_a_full_pool_says_busy(web_db: str) -> None:
    client = TestClient(create_app(ServerLimits(max_pending=0), db=web_db))
    state, seat = midgame_view()
    r = client.post("/api/v1/move", json={"view": json.loads(state.to_json(seat))})
    error(r, 503, "busy")


def test_searches_never_block_the_event_loop(web_db: str) -> None:
    """A one-second search runs on a worker; the loop answers other requests meanwhile."""
    app = create_app(ServerLimits(workers=1), db=web_db)
    state, seat = midgame_view()
    body = {"view": json.loads(state.to_json(seat)), "budget": {"time_limit": 1.0}}

    async def run() -> tuple[float, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            start = time.perf_counter()
            search = asyncio.create_task(c.post("/api/v1/move", json=body))
            await asyncio.sleep(0.2)
            t0 = time.perf_counter()
            info = await c.get("/api/v1")
            quick = time.perf_counter() - t0
            assert info.status_code == 200
            r = await search
            assert r.status_code == 200, r.text
            return quick, time.perf_counter() - start

    quick, slow = asyncio.run(run())
    assert slow >= 1.0
    assert quick < 0.5


def test_import_splendor_never_imports_the_web_layer() -> None:
    import subprocess
    import sys

    code = (
        "import sys, splendor, splendor.render; "
        "assert not {'fastapi', 'uvicorn', 'starlette', 'splendor.web'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def blind_reserve_position() -> tuple[Any, list[int]]:
    """Base, 2 players: seat 1 to move, holding three cards reserved blind, and able to buy
    them (8 legal moves, so a search considers every one)."""
    state = splendor.new_game("base", players=2, seed=8)
    start = state.to_json()
    rng = random.Random(8)
    actions = []
    while True:
        legal = [str(a) for a in state.legal_actions()]
        if state.current_player == 1:
            if any(t.startswith("buy reserved") for t in legal) and len(legal) < 30:
                break
            deck = [t for t in legal if t.startswith("reserve deck")]
            if deck and rng.random() < 0.7:
                actions.append(int(state.action_from_text(deck[0])))
                state.apply(actions[-1])
                continue
        takes = [t for t in legal if t.startswith("take")] or legal
        actions.append(int(state.action_from_text(rng.choice(takes))))
        state.apply(actions[-1])
    return json.loads(start), actions


def test_the_ais_notes_never_name_a_card_hidden_from_the_viewer(client: TestClient) -> None:
    start, actions = blind_reserve_position()
    saved = {"start": start, "actions": actions, "ai_seats": [1], "bot": "mcts:400"}
    r = client.post("/api/v1/games/load", json=saved)
    assert r.status_code == 201, r.text
    table = Table(client, r.json())
    game = table.settled(0)
    assert game["step"] == len(actions) + 1

    def naming_reserves(considered: list[dict[str, Any]]) -> list[str]:
        return [c["text"] for c in considered if "reserved" in c["text"]]

    # The AI's own notes: it did consider buying its blind reserves ...
    note = tables(client).cache[table.id].notes[len(actions)]
    mine = [c.model_dump() for c in note.considered_for(True)]
    assert naming_reserves(mine)
    # ... which neither seat 0's log nor a spectator's may say.
    public = [c for c in mine if "reserved" not in c["text"]]
    for viewer in (0, None):
        entry = table.get(viewer)["log"][-1]
        assert entry["by_ai"] and entry["considered"] == public
        assert entry["win_estimate"] == note.win_estimate


def test_a_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(40):
            yield b" " * 10_000

    r = client.post("/api/v1/move", content=chunks(), headers={"content-type": "application/json"})
    error(r, 413, "body_too_large")
    # Under the limit, a streamed body is read as usual.
    state, seat = midgame_view()
    body = json.dumps({"view": json.loads(state.to_json(seat)), "bot": "greedy"}).encode()
    r = client.post(
        "/api/v1/move",
        content=iter([body[:100], body[100:]]),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 200, r.text


def test_json_nested_too_deep_is_malformed(client: TestClient) -> None:
    # 65 levels and more are refused by the server's own limit, whatever the interpreter's
    # recursion limit (it once depended on it: a test run that had raised it answered 422).
    for depth in (64, 1000, 20_000):
        body = b'{"view": ' + b"[" * depth + b"]" * depth + b"}"
        r = client.post("/api/v1/move", content=body, headers={"content-type": "application/json"})
        error(r, 400, "malformed_json")
    # 64 levels in all pass the check (and fail validation: a view is an object), brackets
    # inside strings do not count, and the check holds when the recursion limit is raised.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        for body in (
            b'{"view": ' + b"[" * 63 + b"]" * 63 + b"}",
            b'{"view": "' + b"[" * 5000 + b'"}',
        ):
            r = client.post(
                "/api/v1/move", content=body, headers={"content-type": "application/json"}
            )
            error(r, 422, "invalid_request")
        body = b'{"view": ' + b"[" * 500 + b"]" * 500 + b"}"
        r = client.post("/api/v1/move", content=body, headers={"content-type": "application/json"})
        error(r, 400, "malformed_json")
    finally:
        sys.setrecursionlimit(limit)
    assert json_depth(b'{"a": [1, {"b": "]]]"}], "c": {}}') == 3


def documented_errors() -> set[tuple[int, str]]:
    """The (status, code) pairs of the error table of docs/web.md."""
    import re

    text = (Path(__file__).parent.parent / "docs" / "web.md").read_text()
    table = text.split("| status | code | when |")[1].split("\n\n")[0]
    pairs = set()
    for row in re.findall(r"^\| (\d{3}) \| (.*?) \|", table, re.M):
        pairs |= {(int(row[0]), code) for code in re.findall(r"`([a-z_]+)`", row[1])}
    return pairs


def test_every_error_code_the_server_can_emit_is_documented() -> None:
    """The docs' table is the server's list; and every code in the app's source is on it."""
    import ast

    import splendor.web
    from splendor.web import errors as web_errors

    assert documented_errors() == web_errors.ERROR_CODES
    # Every literal code in the web layer: error_response(status, code, ...), ApiError(status,
    # code, ...) and the exception table's (type, status, code).
    found = set()
    for path in Path(splendor.web.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "error_response",
                "ApiError",
                "_handler",
            ):
                status, code = node.args[0], node.args[1]
            elif isinstance(node, ast.Tuple) and len(node.elts) == 3:
                status, code = node.elts[1], node.elts[2]
            else:
                continue
            if isinstance(status, ast.Constant) and isinstance(status.value, int):
                assert isinstance(code, ast.Constant), ast.dump(node)
                found.add((status.value, code.value))
    assert found and found <= web_errors.ERROR_CODES, found - web_errors.ERROR_CODES


def test_a_refused_new_game_or_load_stores_nothing(client: TestClient) -> None:
    live = new(client, variant="base", players=2)
    refused = client.get(f"/api/v1/games/{live.id}/save", headers=live.auth(0))
    error(refused, 403, "save_refused")  # two people at the table: the save would show hands
    start = json.loads(splendor.new_game("base", players=2, seed=3).to_json())
    saved = {"start": start, "actions": [], "ai_seats": [7], "bot": "greedy"}
    for _ in range(3):
        error(client.post("/api/v1/games", json={"ai_seats": [2]}), 409, "wrong_seat")
        error(client.post("/api/v1/games/load", json=saved), 409, "wrong_seat")
        error(client.post("/api/v1/games/load", json={**saved, "bot": "x"}), 422, "bad_config")
        error(client.post("/api/v1/games", json={"bot": "mcts:999999999"}), 422, "budget_too_large")
    assert tables(client).store.count() == 1
    assert live.get(0)["step"] == 0


def stalling_game(variant: str, players: int, seed: int = 0) -> tuple[Any, list[int]]:
    """A game that never ends early: tokens taken and returned until the turn cap."""
    state = splendor.new_game(variant, players=players, seed=seed)
    start = json.loads(state.to_json())
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        legal = state.legal_actions()
        stall = [a for a in legal if str(a).split()[0] in ("take", "return", "use", "replenish")]
        actions.append(int(rng.choice(stall or legal)))
        state.apply(actions[-1])
    return start, actions


def test_a_game_over_the_memory_bounds_is_refused(web_db: str) -> None:
    with TestClient(create_app(ServerLimits(max_decisions=300), db=web_db)) as client:
        info = client.get("/api/v1").json()["limits"]
        assert info["max_decisions"] == 300 and info["max_turn_cap"] == 100
        start, actions = stalling_game("base", 2)
        assert len(actions) > 300
        saved = {"start": start, "actions": actions, "ai_seats": [], "bot": "greedy"}
        message = error(client.post("/api/v1/games/load", json=saved), 422, "game_too_long")
        assert "300" in message
        # A turn cap over the limit, however few the moves (the 1,000,000).
        capped = {**saved, "start": {**start, "turn_cap": 1_000_000}, "actions": actions[:10]}
        message = error(client.post("/api/v1/games/load", json=capped), 422, "game_too_long")
        assert "turn_cap" in message
        # Within the bounds, it loads; a game at the decision limit refuses one more.
        ok = client.post("/api/v1/games/load", json={**saved, "actions": actions[:300]})
        assert ok.status_code == 201, ok.text
        table = Table(client, ok.json())
        game = table.get(0)
        error(
            table.post(game["current"], "actions", {"action": actions[300]}), 422, "game_too_long"
        )
        assert tables(client).store.count() == 1


def test_a_games_memory_is_bounded() -> None:
    """A game costs less than the bound docs/web.md states: 0.5 KB per decision (the AI's
    notes on every one) and 10 KB for its deal, so about 1 MB at ``max_decisions``."""
    import gc
    import tracemalloc

    from splendor.web.games import Dealer
    from splendor.web.models import Considered

    start, actions = stalling_game("duel", 2)
    assert len(actions) > 400
    dealer = Dealer(len(actions), 100)
    # The renderer's caches of card faces are the process's, filled once by the first games
    # it draws (bounded by the card tables), not a cost of each game: filled first here.
    warm = dealer.make(json.dumps(start), [], "greedy", actions[:60])
    assert warm.result() is None and len(warm.says) == 60
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    game = dealer.make(json.dumps(start), [0, 1], "default", [])
    for a in actions:
        legal = [int(x) for x in game.state.legal_actions()]
        notes = [
            Considered(id=x, text=str(game.state.action_from_id(x)), visits=99, value=0.5)
            for x in legal[:8]
        ]
        game.apply(game.state.current_player, a, (0.5, notes))
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    used = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert game.steps == len(actions) and len(game.notes) == len(actions)
    print(f"{game.steps} decisions: {used / 1000:.0f} KB")
    assert used < 10_000 + 500 * game.steps
    assert ServerLimits().max_decisions * 500 + 10_000 <= 1_010_000


def test_the_boards_name_every_ai_seat(client: TestClient) -> None:
    # The AI playing itself, watched by a spectator: every seat is the AI's, and says so.
    table = new(client, variant="base", players=3, ai_seats=[0, 1, 2], bot="greedy")
    assert set(table.tokens) == {None}
    game = table.get(None)
    assert "seat 0 (AI)" in game["text"] and "(you)" not in game["text"]
    assert "seat 0 (AI)" in game["svg"] and "seat 2 (AI)" in game["svg"]
    # People at one table: the other people's seats say human.
    table = new(client, variant="base", players=3, ai_seats=[2], bot="greedy")
    game = table.get(0)
    assert "seat 0 (you)" in game["svg"] and "seat 1 (human)" in game["svg"]
    assert "seat 2 (AI)" in game["svg"]


def test_the_page_has_a_favicon_served_by_the_package(client: TestClient) -> None:

    assert 'rel="icon" href="static/favicon.svg"' in client.get("/").text
    for path in ("/static/favicon.svg", "/favicon.ico"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.startswith("<svg")
    # The wheel carries it: pyproject's maturin include list names the static folder.
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert '"python/splendor/web/static/*"' in pyproject


def test_replayed_games_in_memory_are_bounded(web_db: str) -> None:
    """At most ``max_games`` games are kept replayed; the others are read back from the
    database when asked for, nothing lost."""
    with TestClient(create_app(ServerLimits(max_games=2), db=web_db)) as client:
        made = [new(client) for _ in range(3)]
        made[0].act(0, made[0].get(0)["legal"][0]["id"])
        made[1].get(0)
        made[2].get(0)
        assert len(tables(client).cache) == 2 and made[0].id not in tables(client).cache
        again = made[0].get(0)
        assert again["step"] == 1 and again["version"] == 1
        assert len(tables(client).cache) == 2 and made[0].id in tables(client).cache


def test_the_ais_move_is_dropped_when_the_position_changed_while_it_searched(
    monkeypatch: pytest.MonkeyPatch,
    web_db: str,
) -> None:
    """Seat 0 plays, the AI searches, seat 0 undoes and plays another move: the same move
    count, another position. The AI's move for the old position is dropped (its commit
    fails the version check) and it thinks again for the new one."""
    import threading

    from splendor.web import tables as web_tables

    searching, go_on = threading.Event(), threading.Event()
    searched: list[str] = []
    real_think = web_tables.think

    def slow_think(view: str, *args: Any) -> Any:
        searched.append(view)
        searching.set()
        go_on.wait(30)
        return real_think(view, *args)

    monkeypatch.setattr(web_tables, "think", slow_think)
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as client:
        table = new(client, variant="base", ai_seats=[1], bot="mcts:50")
        game = table.get(0)
        first, other = game["legal"][0]["id"], game["legal"][1]["id"]
        table.act(0, first)
        assert searching.wait(30)
        undone = table.post(0, "undo", {"version": table.get(0)["version"]}).json()
        assert undone["step"] == 0 and undone["current"] == 0, undone
        replayed = table.act(0, other)
        assert replayed["step"] == 1 and replayed["thinking"]
        go_on.set()
        after = table.settled(0)
        assert after["step"] == 2 and after["current"] == 0
        assert [e["action"] for e in after["log"]][:1] == [replayed["log"][0]["action"]]
        assert after["log"][1]["by_ai"] and len(searched) >= 2
        assert tables(client).ai_moves == 1


def test_an_ai_seat_at_the_decision_limit_waits_for_a_person(
    caplog: pytest.LogCaptureFixture,
    web_db: str,
) -> None:
    """The AI's move past ``max_decisions`` is refused like anyone's: logged, the table kept
    (a person can undo), and not searched again at that version."""
    start, actions = stalling_game("base", 2)
    state = splendor.from_json(json.dumps(start))
    for a in actions[:300]:
        state.apply(a)
    ai = int(state.current_player)
    with TestClient(create_app(ServerLimits(max_decisions=300), db=web_db)) as client:
        saved = {"start": start, "actions": actions[:300], "ai_seats": [ai], "bot": "greedy"}
        r = client.post("/api/v1/games/load", json=saved)
        assert r.status_code == 201, r.text
        table = Table(client, r.json())
        held = tables(client)
        wait = time.monotonic() + 30
        while table.id not in held.ai_stuck:
            assert time.monotonic() < wait
            time.sleep(0.02)
        game = table.get(1 - ai)
        assert game["thinking"] and game["step"] == 300 and held.ai_moves == 0
        assert "cannot move" in caplog.text and "300 decisions" in caplog.text
        held.schedule_ai(table.id, game["version"])
        assert table.id not in held.ai_tasks, "not searched again at this version"
        assert (
            table.post(1 - ai, "undo", {"version": table.get(1 - ai)["version"]}).status_code == 200
        )
