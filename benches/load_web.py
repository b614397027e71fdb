"""Load test of ``splendor serve``: many shared tables, two people and the AI at each, on localhost.

Starts the server as its own process on 127.0.0.1 (a free port; its games in a SQLite file in
a temporary folder, or ``--db URL``), creates ``--tables`` 3-seat base tables (seats 0 and 1
human, seat 2 the server's AI), then runs two simulated people per table for ``--seconds``.
Each person does what the page does: keeps the table's event stream open
(``GET /api/v1/games/{id}/events``), and when an event says it is their turn, fetches their
snapshot, thinks for ``--think`` seconds (0.5x to 1.5x, at random), and plays a random legal move
with the version it saw (``POST /api/v1/games/{id}/actions``). So moves come at a steady rate,
and the server plays every AI seat itself between them::

    python benches/load_web.py --tables 200 --seconds 60 --think 4

Reports the human moves and the AI's, errors (any answer but 200, a dropped stream), the
latency of a human move (p50, p99, max: the ``POST`` of the move, committed before it is
answered) and of a snapshot, how long people waited for the AI, and the server's resident memory
before the tables, after creating them and at the end. Prints one JSON object; exits 1 on any
error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class Connection:
    """A minimal HTTP/1.1 keep-alive client on one connection: the load generator must cost
    far less than the server it loads (httpx takes about a millisecond of CPU per request,
    which on a small machine throttles 400 simulated people before the server)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _send(self, method: str, path: str, token: str, body: bytes | None) -> None:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
        await self.writer.drain()

    async def _head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        status = await self.reader.readline()
        if not status:
            raise ConnectionError("the server closed the connection")
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return int(status.split()[1]), headers

    async def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, bytes]:
        await self._send(method, path, token, None if body is None else json.dumps(body).encode())
        assert self.reader is not None
        status, headers = await self._head()
        return status, await self.reader.readexactly(int(headers.get("content-length", "0")))

    async def events(self, path: str, token: str) -> AsyncIterator[dict[str, Any]]:
        """The ``data`` of each server-sent event of a stream (chunked)."""
        await self._send("GET", path, token, None)
        assert self.reader is not None
        status, _ = await self._head()
        if status != 200:
            raise ConnectionError(f"events: {status}")
        text = ""
        while True:
            size = int((await self.reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            text += (await self.reader.readexactly(size + 2))[:-2].decode()
            *done, text = text.split("\n\n")
            for event in done:
                for line in event.splitlines():
                    if line.startswith("data: "):
                        yield json.loads(line[len("data: ") :])

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Stats:
    moves: list[float] = field(default_factory=list)
    """Seconds each human move took to be answered."""
    snapshots: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    """Seconds from a person's move to their next turn's event when the AI played between."""
    errors: list[str] = field(default_factory=list)
    games_over: int = 0


async def person(
    base_url: str,
    game_id: str,
    seat: int,
    token: str,
    think: float,
    until: float,
    stats: Stats,
    rng: random.Random,
) -> None:
    """One person at a table until ``until`` (``time.monotonic()``), with two connections of
    their own, as a browser has: the event stream, and requests."""
    host, port = base_url.removeprefix("http://").split(":")
    stream, http = Connection(host, int(port)), Connection(host, int(port))
    url = f"/api/v1/games/{game_id}"
    latest: dict[str, Any] = {}
    changed = asyncio.Event()

    async def listen() -> None:
        async for event in stream.events(f"{url}/events", token):
            latest.clear()
            latest.update(event)
            changed.set()

    listener = asyncio.create_task(listen())
    acted = -1
    moved_at: float | None = None
    try:
        while (left := until - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(changed.wait(), left)
            except asyncio.TimeoutError:
                break
            changed.clear()
            if listener.done():
                error = listener.exception()
                stats.errors.append(f"events: {error!r}" if error else "events: the stream ended")
                return
            event = dict(latest)
            if event["over"]:
                stats.games_over += 1
                return
            if event["current"] != seat or event["thinking"] or event["version"] <= acted:
                continue
            if moved_at is not None:
                stats.waits.append(time.monotonic() - moved_at)
            t0 = time.monotonic()
            status, body = await http.request("GET", url, token)
            stats.snapshots.append(time.monotonic() - t0)
            if status != 200:
                stats.errors.append(f"snapshot {status}: {body[:200]!r}")
                continue
            snap = json.loads(body)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.monotonic() >= until:
                break
            move = {"action": rng.choice(snap["legal"])["id"], "version": snap["version"]}
            t0 = time.monotonic()
            status, body = await http.request("POST", f"{url}/actions", token, move)
            moved_at = time.monotonic()
            stats.moves.append(moved_at - t0)
            if status != 200:
                stats.errors.append(f"move {status}: {body[:200]!r}")
                continue
            acted = int(json.loads(body)["version"])
    except (OSError, asyncio.IncompleteReadError) as e:
        stats.errors.append(f"{type(e).__name__}: {e}")
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)
        stream.close()
        http.close()


async def play(
    base_url: str, tables: int, seconds: float, think: float, bot: str, pid: int
) -> dict[str, Any]:
    stats = Stats()
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        made = []
        for i in range(tables):
            r = await http.post(
                "/api/v1/games",
                json={"variant": "base", "players": 3, "ai_seats": [2], "bot": bot, "seed": i},
            )
            r.raise_for_status()
            made.append(r.json())
        rss_tables = rss_mb(pid)
        ai_before = (await http.get("/api/v1")).status_code
        rng = random.Random(0)
        start = time.monotonic()
        until = start + seconds
        people = [
            person(
                base_url,
                t["game_id"],
                s["seat"],
                s["token"],
                think,
                until,
                stats,
                random.Random(rng.random()),
            )
            for t in made
            for s in t["seats"]
            if s["token"] is not None
        ]
        await asyncio.gather(*people)
        wall = time.monotonic() - start
        steps = []
        for t in made[:: max(1, tables // 20)]:
            token = next(s["token"] for s in t["seats"] if s["token"])
            r = await http.get(
                f"/api/v1/games/{t['game_id']}", headers={"Authorization": f"Bearer {token}"}
            )
            steps.append(r.json()["step"])
    assert ai_before == 200
    return {
        "tables": tables,
        "people": 2 * tables,
        "seconds": round(wall, 1),
        "think_s": think,
        "bot": bot,
        "human_moves": len(stats.moves),
        "human_moves_per_s": round(len(stats.moves) / wall, 1),
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
        "move_p50_ms": round(1000 * percentile(stats.moves, 0.50), 1),
        "move_p99_ms": round(1000 * percentile(stats.moves, 0.99), 1),
        "move_max_ms": round(1000 * max(stats.moves, default=float("nan")), 1),
        "snapshot_p50_ms": round(1000 * percentile(stats.snapshots, 0.50), 1),
        "snapshot_p99_ms": round(1000 * percentile(stats.snapshots, 0.99), 1),
        "turn_wait_p50_ms": round(1000 * percentile(stats.waits, 0.50), 1),
        "turn_wait_p99_ms": round(1000 * percentile(stats.waits, 0.99), 1),
        "games_over": stats.games_over,
        "mean_steps_sampled": round(sum(steps) / max(1, len(steps)), 1),
        "rss_tables_mb": round(rss_tables, 1),
    }


def run(
    tables: int = 200,
    seconds: float = 60,
    think: float = 4.0,
    bot: str = "default",
    workers: int | None = None,
    db: str | None = None,
) -> dict[str, Any]:
    """Start a server, play, stop it (Ctrl-C); the figures as a dict."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-c",
            "import sys; from splendor.cli import main; sys.exit(main())",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db or str(Path(tmp) / "games.sqlite3"),
            # Every simulated person connects from 127.0.0.1: as one client address they
            # would be over the per-client bounds meant for one browser or one program.
            "--max-streams-per-client",
            str(2 * tables + 10),
            "--max-tables-per-minute",
            str(tables + 10),
        ]
        if workers:
            cmd += ["--workers", str(workers)]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base_url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base_url + "/api/v1", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.2)
            info = httpx.get(base_url + "/api/v1").json()
            rss_before = rss_mb(server.pid)
            cpu_before, own_before = cpu_s(server.pid), time.process_time()
            summary = asyncio.run(play(base_url, tables, seconds, think, bot, server.pid))
            rss_after = rss_mb(server.pid)
            cpu = cpu_s(server.pid) - cpu_before
            own = time.process_time() - own_before
            t0 = time.monotonic()
            server.send_signal(signal.SIGINT)
            server.wait(60)
            stop_s = time.monotonic() - t0
        finally:
            if server.poll() is None:
                server.kill()
                server.wait(30)
    return {
        **summary,
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(rss_after, 1),
        "server_workers": info["limits"]["workers"],
        "server_cpu_s": round(cpu, 1),
        "server_cpu_per_human_move_ms": round(1000 * cpu / max(1, summary["human_moves"]), 1),
        "client_cpu_s": round(own, 1),
        "ctrl_c_stop_s": round(stop_s, 2),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200, help="3-seat tables: 2 people, 1 AI")
    p.add_argument("--seconds", type=float, default=60, help="how long the people play")
    p.add_argument("--think", type=float, default=4.0, help="a person's mean seconds per move")
    p.add_argument("--bot", default="default", help="the AI seats' bot spec")
    p.add_argument("--workers", type=int, default=None, help="server search threads")
    p.add_argument("--db", default=None, help="the server's --db (default: a temporary SQLite)")
    args = p.parse_args()
    summary = run(args.tables, args.seconds, args.think, args.bot, args.workers, args.db)
    print(json.dumps(summary, indent=1))
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
