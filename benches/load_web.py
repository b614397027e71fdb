"""Load test of ``splendor serve``: move requests from many concurrent clients, on localhost only.

Starts the server as its own process on 127.0.0.1 (a free port), then for each
concurrency level runs ``clients`` clients that each send move requests
(``POST /api/v1/move``, a player's view and a fixed iteration budget) back to back
until the level's request count is reached or its time is up. Reports throughput,
p50/p99 latency, errors and the server's resident memory before and after::

    python benches/load_web.py --clients 8 32 128 --requests 400 --iterations 1000

Prints one JSON line per level and a final summary line; exits 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import splendor


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


def views(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` mid-game views of the player to move, over the three variants."""
    rng = random.Random(seed)
    out = []
    setups = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)]
    for i in range(n):
        variant, players = setups[i % len(setups)]
        state = splendor.new_game(variant, players=players, seed=seed + i)
        for _ in range(rng.randint(5, 40)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(json.loads(state.to_json(state.current_player)))
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


async def level(
    base_url: str,
    clients: int,
    requests: int,
    seconds: float,
    iterations: int,
    pool: list[dict[str, Any]],
) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []
    sent = 0
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(c: int, http: httpx.AsyncClient) -> None:
        nonlocal sent
        while sent < requests and time.perf_counter() < deadline:
            body = {
                "view": pool[sent % len(pool)],
                # The rollout search, as when the load figures in docs/web.md were measured.
                "bot": "mcts",
                "budget": {"iterations": iterations},
                "seed": sent,
            }
            sent += 1
            t0 = time.perf_counter()
            try:
                r = await http.post("/api/v1/move", json=body)
            except httpx.HTTPError as e:
                errors.append(f"{type(e).__name__}: {e}")
                continue
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors.append(f"{r.status_code}: {r.text[:200]}")

    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=120) as http:
        start = time.perf_counter()
        await asyncio.gather(*(client(c, http) for c in range(clients)))
        wall = time.perf_counter() - start
    return {
        "clients": clients,
        "requests": len(latencies),
        "errors": len(errors),
        "first_errors": errors[:3],
        "wall_s": round(wall, 2),
        "throughput_rps": round(len(latencies) / wall, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.50), 1),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
    }


def run(
    clients: list[int], requests: int, seconds: float, iterations: int, workers: int | None
) -> dict[str, Any]:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "splendor.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    if workers:
        cmd += ["--workers", str(workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(base_url + "/api/v1", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > deadline or server.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        pool = views(64)
        rss_before = rss_mb(server.pid)
        results = [
            asyncio.run(level(base_url, n, requests, seconds, iterations, pool)) for n in clients
        ]
        rss_after = rss_mb(server.pid)
        info = httpx.get(base_url + "/api/v1").json()
    finally:
        server.terminate()
        server.wait(30)
    return {
        "levels": results,
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(rss_after, 1),
        "server_workers": info["limits"]["workers"],
        "iterations": iterations,
        "load_average": os.getloadavg(),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, nargs="+", default=[8, 32, 128])
    p.add_argument("--requests", type=int, default=400, help="move requests per level (at most)")
    p.add_argument("--seconds", type=float, default=60, help="time limit per level")
    p.add_argument("--iterations", type=int, default=1000, help="search iterations per move")
    p.add_argument("--workers", type=int, default=None, help="server search threads")
    args = p.parse_args()
    summary = run(args.clients, args.requests, args.seconds, args.iterations, args.workers)
    for lv in summary["levels"]:
        print(json.dumps(lv))
    print(json.dumps({k: v for k, v in summary.items() if k != "levels"}))
    return 1 if any(lv["errors"] for lv in summary["levels"]) else 0


if __name__ == "__main__":
    sys.exit(main())
