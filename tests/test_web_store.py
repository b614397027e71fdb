"""Games in the database: the store's transactions, and real ``splendor serve`` processes that
are killed with SIGKILL mid-game, restarted, and stopped with Ctrl-C while pages watch.

The server-process helpers here are shared with ``test_web_postgres.py``.
"""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import splendor
from splendor.web.games import Dealer
from splendor.web.store import SCHEMA_VERSION, Conflict, GameRow, Store, engine_url, meta

# ---- real server processes ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``splendor serve --db DB`` on 127.0.0.1, its output (the access log) in a file."""

    def __init__(self, db: str, log: Path, workers: int = 1, extra: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        code = "import sys; from splendor.cli import main; sys.exit(main())"
        args = ["serve", "--db", db, "--port", str(self.port), "--workers", str(workers), *extra]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, *args], stdout=out, stderr=subprocess.STDOUT
            )
        end = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/api/v1", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.1)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> float:
        """Ctrl-C; the seconds it took the process to exit."""
        start = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(30)
        return time.monotonic() - start


@contextmanager
def serving(
    db: str, log: Path, workers: int = 1, extra: Sequence[str] = ()
) -> Iterator[ServerProcess]:
    server = ServerProcess(db, log, workers, extra)
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.kill()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def settle(c: httpx.Client, url: str, token: str, timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        game = c.get(url, headers=auth(token)).json()
        if not game["thinking"]:
            return dict(game)
        assert time.monotonic() < end, "the AI did not move"
        time.sleep(0.05)


def replays_legally(start: str, moves: list[Any]) -> Any:
    """The state after the stored decisions, each checked to be its seat's legal move."""
    state = splendor.from_json(start)
    for i, d in enumerate(moves):
        assert d.idx == i
        assert d.seat == state.current_player, f"decision {i} by the wrong seat"
        assert d.action in [int(a) for a in state.legal_actions()], f"decision {i} illegal"
        state.apply(d.action)
    return state


def kill_mid_game_then_restart(db: str, tmp: Path) -> None:
    """Moves are sent back to back while the server is killed with SIGKILL at a random moment;
    after a restart on the same database every answered move is there, the AI seat resumes by
    itself, and the game is played to its end. No token ever reaches the access log."""
    log = tmp / "server.log"
    accepted: list[tuple[int, str]] = []  # (step after the move, its text)
    tokens: list[str] = []
    with serving(db, log) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        made = c.post(
            "/api/v1/games",
            json={"variant": "base", "players": 3, "ai_seats": [1], "bot": "greedy", "seed": 7},
        ).json()
        gid = made["game_id"]
        seats = {s["seat"]: s["token"] for s in made["seats"] if s["token"]}
        tokens = [*seats.values(), made["spectator"]["token"]]
        url = f"/api/v1/games/{gid}"
        rng = random.Random(1)
        killer = threading.Timer(rng.uniform(1.5, 3.0), server.kill)
        killer.start()
        try:
            while True:
                game = c.get(url, headers=auth(seats[0])).json()
                seat = game["current"]
                if seat not in seats:
                    continue  # the AI's turn: ask again
                legal = c.get(url, headers=auth(seats[seat])).json()["legal"]
                r = c.post(
                    f"{url}/actions",
                    headers=auth(seats[seat]),
                    json={"action": rng.choice(legal)["id"]},
                )
                if r.status_code == 200:
                    accepted.append((r.json()["step"], r.json()["log"][-1]["action"]))
        except httpx.HTTPError:
            pass  # the server died under the request
        killer.join()
    assert server.proc.returncode == -signal.SIGKILL
    assert len(accepted) >= 3, "some moves were answered before the kill"
    with serving(db, log) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        game = settle(c, url, seats[0])
        log_texts = [e["action"] for e in game["log"]]
        for step, text in accepted:
            assert log_texts[step - 1] == text, "an answered move was lost"
        assert game["step"] >= accepted[-1][0]
        # The game goes on to its end after the restart, the AI playing by itself.
        while game["current"] is not None:
            seat = game["current"]
            legal = c.get(url, headers=auth(seats[seat])).json()["legal"]
            r = c.post(f"{url}/actions", headers=auth(seats[seat]), json={"action": legal[0]["id"]})
            assert r.status_code == 200, r.text
            game = settle(c, url, seats[0])
        assert game["result"] is not None
        assert server.stop() < 10
    text = log.read_text()
    assert f"GET /api/v1/games/{gid} HTTP/1.1" in text, "the access log is on"
    for token in tokens:
        assert token not in text, "a token reached the server's log"


def test_kill_9_of_a_sqlite_server_loses_no_accepted_move(tmp_path: Path) -> None:
    kill_mid_game_then_restart(str(tmp_path / "data" / "games.sqlite3"), tmp_path)


def test_ctrl_c_stops_the_server_promptly_while_pages_watch(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    with serving(db, tmp_path / "server.log") as server:
        made = httpx.post(f"{server.url}/api/v1/games", json={"seed": 1}).json()
        token = made["seats"][0]["token"]
        first = threading.Event()
        ended = threading.Event()

        def watch() -> None:
            try:
                with httpx.stream(
                    "GET",
                    f"{server.url}/api/v1/games/{made['game_id']}/events",
                    headers=auth(token),
                    timeout=60,
                ) as r:
                    for line in r.iter_lines():
                        if line.startswith("data: "):
                            first.set()
            except httpx.HTTPError:
                pass
            ended.set()

        watchers = [threading.Thread(target=watch, daemon=True) for _ in range(3)]
        for t in watchers:
            t.start()
        assert first.wait(30)
        took = server.stop()
        assert took < 5, f"Ctrl-C took {took:.1f} s with streams open"
        assert server.proc.returncode in (0, 130)  # 130: the CLI's exit status after Ctrl-C
        assert ended.wait(5), "the streams ended with the server"


# ---- the store itself --------------------------------------------------------------------


def row_of(game: Any) -> GameRow:
    row: GameRow = game.row(("a" * 64, None), "b" * 64)
    return row


def store_round_trip(store: Store) -> None:
    """Create, append, a stale append refused whole, truncate; read back by a fresh store."""
    dealer = Dealer()
    game = dealer.deal("base", 2, 3, [1], "greedy")
    store.create(row_of(game), [])
    got = store.game(game.game_id)
    assert got is not None and got.version == 0 and got.ai_seats == (1,)
    assert got.tokens == ("a" * 64, None) and got.start == game.start
    moves = []
    for version in range(6):
        seat = game.current
        assert seat is not None
        game.apply(seat, int(game.state.legal_actions()[0]))
        moves.append(game.decision(game.steps - 1))
        assert store.append(game.game_id, version, moves[-1], game.position()) == version + 1
        # The same version again: refused, nothing written (no double move).
        with pytest.raises(Conflict):
            store.append(game.game_id, version, moves[-1], game.position())
    row = store.game(game.game_id)
    assert row is not None and row.version == 6 and row.steps == 6
    assert store.decisions(game.game_id) == moves
    states = store.states([game.game_id, "nope"])
    assert list(states) == [game.game_id] and states[game.game_id].version == 6
    assert store.truncate(game.game_id, 6, 4, game.position()) == 7
    assert store.decisions(game.game_id) == moves[:4]
    with pytest.raises(Conflict):
        store.truncate(game.game_id, 6, 2, game.position())
    assert store.decisions(game.game_id) == moves[:4]


def test_the_sqlite_store(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "games.sqlite3"
    store = Store(str(path))
    store_round_trip(store)
    store.close()
    assert path.exists()
    again = Store(str(path))
    assert again.count() == 1
    with again.engine.connect() as c:
        assert c.execute(meta.select()).all() == [("schema", str(SCHEMA_VERSION))]
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    # A database of another schema is refused, not misread.
    with again.engine.begin() as c:
        c.execute(meta.update().values(value="99"))
    again.close()
    with pytest.raises(splendor.ConfigError, match="schema version 99"):
        Store(str(path))


def test_the_in_memory_store_and_database_urls() -> None:
    store_round_trip(Store())
    assert engine_url("postgresql://u:p@h/db") == ("postgresql+psycopg://u:p@h/db", False)
    assert engine_url("sqlite://") == ("sqlite://", True)


def test_a_database_that_cannot_be_opened_is_a_config_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(splendor.ConfigError, match="games database") as info:
        Store("postgresql://someone:secret@127.0.0.1:1/nothing")
    assert "secret" not in str(info.value)
    with pytest.raises((splendor.ConfigError, OSError)):
        Store(str(blocked / "games.sqlite3"))


def test_serve_help_documents_the_database() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from splendor.cli import main; main()", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "--db" in out and "postgresql://" in out and "games.sqlite3" in out


def test_the_default_database_is_under_xdg_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from splendor.web.store import default_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "splendor" / "games.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "splendor" / "games.sqlite3"
