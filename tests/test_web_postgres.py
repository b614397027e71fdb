"""Games in PostgreSQL: the store, racing writers, SIGKILL and restart, and two server processes
serving one game at once without a double move.

Needs a PostgreSQL server: ``SPLENDOR_TEST_POSTGRES=postgresql://USER:PASSWORD@HOST/DB``
(``.ci/run`` installs Debian's package, starts it and sets it). Without it these tests fail,
never skip: ``python -m pytest -m postgres -n 0 tests/test_web_postgres.py``.
"""

from __future__ import annotations

import functools
import os
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from splendor.web.games import Dealer
from splendor.web.store import Conflict, Store, engine_url, metadata
from sqlalchemy import create_engine
from test_web_store import (
    auth,
    kill_mid_game_then_restart,
    replays_legally,
    row_of,
    serving,
    settle,
    store_round_trip,
)

pytestmark = pytest.mark.postgres
T = TypeVar("T")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test server's URL, its tables dropped first (every test starts from nothing)."""
    url = os.environ.get("SPLENDOR_TEST_POSTGRES")
    if not url:
        pytest.fail(
            "SPLENDOR_TEST_POSTGRES is not set: these tests need a PostgreSQL server"
            " (postgresql://USER:PASSWORD@HOST/DB; .ci/run starts one)"
        )
    engine = create_engine(engine_url(url)[0])
    metadata.drop_all(engine)
    engine.dispose()
    yield url


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run ``calls`` on threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_the_postgres_store(pg_url: str) -> None:
    store = Store(pg_url)
    assert not store.sqlite
    store_round_trip(store)
    store.close()
    assert Store(pg_url).count() == 1


def test_racing_writers_commit_each_version_once(pg_url: str) -> None:
    """Eight connections append to the same version at once, round after round: exactly
    one commits each time, the others change nothing."""
    stores = [Store(pg_url) for _ in range(8)]
    game = Dealer().deal("base", 2, 5, [], "greedy")
    stores[0].create(row_of(game), [])
    for version in range(25):
        seat = game.current
        assert seat is not None
        legal = [int(a) for a in game.state.legal_actions()]

        def race(
            i: int, legal: list[int] = legal, version: int = version, seat: int = seat
        ) -> bool:
            candidate = Dealer().make(game.start, [], "greedy", list(game.actions))
            candidate.apply(seat, legal[i % len(legal)])
            move = candidate.decision(candidate.steps - 1)
            try:
                stores[i].append(game.game_id, version, move, candidate.position())
            except Conflict:
                return False
            return True

        results = at_once([functools.partial(race, i) for i in range(len(stores))])
        won = [i for i, r in enumerate(results) if r]
        lost = [i for i, r in enumerate(results) if not r]
        assert len(won) == 1 and len(lost) == len(stores) - 1
        game.apply(seat, legal[won[0] % len(legal)])
    row = stores[0].game(game.game_id)
    assert row is not None and row.version == 25
    moves = stores[0].decisions(game.game_id)
    assert [d.action for d in moves] == list(game.actions)
    replays_legally(row.start, moves)
    for s in stores:
        s.close()


def test_kill_9_of_a_postgres_server_loses_no_accepted_move(pg_url: str, tmp_path: Path) -> None:
    kill_mid_game_then_restart(pg_url, tmp_path)


def test_two_server_processes_on_one_database_never_double_move(
    pg_url: str, tmp_path: Path
) -> None:
    """Two ``splendor serve`` processes on one PostgreSQL database serve one 3-seat game
    (two people, the AI). Each human move is sent twice at once, once to each process:
    with the version the client saw, exactly one of the two is played and the other is 409
    ``game_changed``; without it, each is played only if legal after the other. The stored
    decisions replay legally and the versions only go up."""
    with (
        serving(pg_url, tmp_path / "a.log") as a,
        serving(pg_url, tmp_path / "b.log") as b,
        httpx.Client(base_url=a.url, timeout=60) as ca,
        httpx.Client(base_url=b.url, timeout=60) as cb,
    ):
        made = ca.post(
            "/api/v1/games",
            json={"variant": "base", "players": 3, "ai_seats": [1], "bot": "greedy", "seed": 3},
        ).json()
        gid = made["game_id"]
        seats = {s["seat"]: s["token"] for s in made["seats"] if s["token"]}
        url = f"/api/v1/games/{gid}"
        rng = random.Random(2)
        accepted: list[dict[str, Any]] = []
        races = 0
        while races < 60:
            game = settle(rng.choice([ca, cb]), url, seats[0])
            if game["current"] is None:
                break
            seat = game["current"]
            mine = ca.get(url, headers=auth(seats[seat])).json()
            with_version = races % 3 != 2
            bodies = []
            for _ in range(2):
                body: dict[str, Any] = {"action": rng.choice(mine["legal"])["id"]}
                if with_version:
                    body["version"] = mine["version"]
                bodies.append(body)
            answers = at_once(
                [
                    functools.partial(
                        c.post, f"{url}/actions", headers=auth(seats[seat]), json=body
                    )
                    for c, body in zip((ca, cb), bodies, strict=True)
                ]
            )
            ok = [r for r in answers if r.status_code == 200]
            assert ok, [r.text for r in answers]
            for r in answers:
                if r.status_code != 200:
                    code = r.json()["error"]["code"]
                    assert code in ("game_changed", "wrong_seat", "illegal_action"), r.text
                    if with_version:
                        assert code == "game_changed", r.text
            if with_version:
                assert len(ok) == 1, "one move per version"
            accepted += [r.json() for r in ok]
            races += 1
        assert races >= 20
    store = Store(pg_url)
    row = store.game(gid)
    assert row is not None
    moves = store.decisions(gid)
    replays_legally(row.start, moves)
    humans = [d for d in moves if not d.by_ai]
    assert len(humans) == len(accepted), "every answered move stored once, nothing more"
    versions = [g["version"] for g in accepted]
    assert len(set(versions)) == len(versions)
    steps = sorted((g["step"], g["version"]) for g in accepted)
    assert [v for _, v in steps] == sorted(v for _, v in steps), "versions only go up"
    assert row.version >= len(moves)
    store.close()
