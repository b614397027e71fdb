"""The page behind a reverse proxy: Debian's nginx serves a real ``splendor serve`` under
``/splendor/`` with the location blocks of ``docs/examples/nginx-splendor.conf``, as the
tutorial (docs/tutorials/friends.md) tells; the links name the proxy's address, and the
event stream comes through it unbuffered.

Needs Debian's ``nginx``, ``chromium`` and ``chromium-driver``; run with
``python -m pytest -n 0 -m browser tests/test_browser_proxy.py`` (``.ci/run`` does). nginx
runs as the current user, its files all in a temporary folder, on free ports.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "nginx-splendor.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[Any], what: str, log: Path) -> None:
    import socket

    deadline = time.time() + 30
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited: {log.read_text(errors='replace')[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert time.time() < deadline, f"{what} did not start: {log.read_text()[-2000:]}"
        time.sleep(0.1)


def location_blocks(upstream: str) -> str:
    """The committed example's location blocks, as written, pointed at ``upstream``."""
    text = EXAMPLE.read_text()
    found = re.search(r"# BEGIN splendor\n(.*)# END splendor", text, re.S)
    assert found, "the example marks its location blocks"
    blocks = found.group(1)
    assert "proxy_pass http://splendor/;" in blocks
    return blocks.replace("proxy_pass http://splendor/;", f"proxy_pass {upstream};")


def nginx_config(folder: Path, port: int, upstream: str) -> str:
    user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""
{user}
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 512; }}
http {{
    access_log {folder / "access.log"};
{temp}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
{location_blocks(upstream)}
    }}
}}
"""


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``splendor serve --root-path /splendor`` behind nginx: the page's address there."""
    folder = tmp_path_factory.mktemp("proxy")
    app_port, proxy_port = free_port(), free_port()
    server_log = folder / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with server_log.open("w") as out:
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from splendor.cli import main; main()",
                "serve",
                "--port",
                str(app_port),
                "--root-path",
                "/splendor",
                "--workers",
                "1",
                "--db",
                str(folder / "games.sqlite3"),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config(folder, proxy_port, f"http://127.0.0.1:{app_port}/"))
    nginx_log = folder / "error.log"
    nginx_log.touch()
    nginx = subprocess.Popen(
        [NGINX, "-p", str(folder), "-e", str(nginx_log), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(app_port, server, "splendor serve", server_log)
        wait_for_port(proxy_port, nginx, "nginx", nginx_log)
        yield f"http://127.0.0.1:{proxy_port}/splendor/"
    finally:
        nginx.send_signal(signal.SIGQUIT)
        server.send_signal(signal.SIGINT)
        for proc in (nginx, server):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "api/v1" + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class Stream:
    """An event stream read on a thread: each event's data, with when it came."""

    def __init__(self, url: str, token: str) -> None:
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
        self.response = urllib.request.urlopen(request, timeout=60)
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.events: list[tuple[float, dict[str, Any]]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    self.events.append((time.monotonic(), json.loads(line[6:])))
        except (OSError, ValueError, AttributeError):
            return  # closed by the test (under the reader: http.client's buffer is gone)

    def wait(self, condition: Any, timeout: float = 30) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            for when, event in list(self.events):
                if condition(event):
                    return when, event
            assert time.monotonic() < deadline, f"no such event in {self.events}"
            time.sleep(0.01)

    def close(self) -> None:
        self.response.close()


def test_the_api_and_its_event_stream_through_nginx_under_a_sub_path(proxied: str) -> None:
    made = api(
        proxied,
        "POST",
        "/games",
        body={"players": 3, "ai_seats": [2], "open_seats": [1], "bot": "greedy", "seed": 3},
    )
    game_id, token = made["game_id"], made["seats"][0]["token"]
    # Every link names the proxy's address and the sub-path, as the browser used them.
    for link in (made["seats"][0]["link"], made["host"]["link"], made["invite"]["link"]):
        assert link.startswith(f"{proxied}#game={game_id}&token=")
    assert parse_qs(urlsplit(made["host"]["link"]).fragment)["token"] == [made["host"]["token"]]
    # The page and its files come through the proxy too.
    with urllib.request.urlopen(proxied, timeout=30) as page:
        html = page.read().decode()
    assert "<html" in html.lower()
    stream = Stream(f"{proxied}api/v1/games/{game_id}/events", token)
    try:
        stream.wait(lambda e: e["version"] == 0)
        # A friend claims the open seat through the proxy: the stream tells of it.
        invite = made["invite"]["token"]
        claimed = api(proxied, "POST", f"/games/{game_id}/claim", invite, {"name": "Bob"})
        assert claimed["seat"] == 1 and claimed["link"].startswith(proxied)
        stream.wait(lambda e: e["seating"] == 1)
        snap = api(proxied, "GET", f"/games/{game_id}", token)
        sent = time.monotonic()
        api(
            proxied,
            "POST",
            f"/games/{game_id}/actions",
            token,
            {"action": snap["legal"][0]["id"], "version": snap["version"]},
        )
        # The move's event arrives at once: nginx does not hold it back.
        when, _ = stream.wait(lambda e: e["version"] == 1)
        assert when - sent < 5
        # Seat 1 (Bob) moves, then the AI's move comes through the stream by itself.
        bob = api(proxied, "GET", f"/games/{game_id}", claimed["token"])
        api(
            proxied,
            "POST",
            f"/games/{game_id}/actions",
            claimed["token"],
            {"action": bob["legal"][0]["id"], "version": bob["version"]},
        )
        stream.wait(lambda e: e["version"] >= 3 and e["current"] == 0)
    finally:
        stream.close()


# ---- game night in three browsers, through the proxy ------------------------------------------

ANN = "<b>Ann</b>"


def fragment(driver: Any) -> dict[str, str]:
    parts = parse_qs(urlsplit(driver.current_url).fragment)
    return {k: v[0] for k, v in parts.items()}


def shown(driver: Any) -> dict[str, Any]:
    """The snapshot the page shows (its read-only handle)."""
    game: dict[str, Any] = driver.execute_script("return window.splendor.game")
    return game


def quick_move(snapshot: dict[str, Any]) -> int:
    """A move that ends games soon: a buy, else the largest take, else the first."""
    legal = snapshot["legal"]
    buys = [a for a in legal if a["text"].split()[0] in ("buy", "recruit")]
    takes = [a for a in legal if a["text"].startswith("take ")]
    if buys:
        return int(buys[0]["id"])
    if takes:
        return int(max(takes, key=lambda a: len(a["text"]))["id"])
    return int(legal[0]["id"])


def test_game_night_through_nginx(proxied: str) -> None:
    """The host makes a 3-seat base table (seat 1 open, seat 2 the AI) as `<b>Ann</b>`; a
    friend claims the open seat from the invitation; both play to the end through the proxy;
    the host opens the host link in a fresh browser and gives the friend a new link; Play
    again moves both browsers to their own seats at a new table."""
    import random

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from test_browser import idle, new_driver, over, play_one

    host = new_driver()
    friend = new_driver()
    later = None
    try:
        host.get(proxied)
        WebDriverWait(host, 20).until(lambda d: d.find_element(By.ID, "new").is_displayed())
        Select(host.find_element(By.ID, "variant")).select_by_value("base")
        Select(host.find_element(By.ID, "players")).select_by_value("3")
        if host.find_element(By.ID, "ai-seat-1").is_selected():
            host.find_element(By.ID, "ai-seat-1").click()
        host.find_element(By.ID, "open-seat-1").click()
        assert host.find_element(By.ID, "ai-seat-2").is_selected()
        Select(host.find_element(By.ID, "strength")).select_by_value("greedy")
        host.find_element(By.ID, "my-name").send_keys(ANN)
        host.find_element(By.ID, "seed").send_keys("11")
        host.find_element(By.ID, "new").click()
        WebDriverWait(host, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
        links = {
            str(i.get_attribute("data-seat")): str(i.get_attribute("value"))
            for i in host.find_elements(By.CSS_SELECTOR, "#links input")
        }
        assert {"0", "spectator", "invite", "host"} <= set(links), links
        for link in links.values():
            assert link.startswith(proxied + "#game="), link
        game_id = fragment(host)["game"]
        assert fragment(host)["token"] == parse_qs(urlsplit(links["0"]).fragment)["token"][0]
        # Every address the page asked for is under the proxy's sub-path.
        requests: list[str] = host.execute_script("return window.__requests")
        assert requests and all(r.startswith(proxied) for r in requests), requests

        # The friend opens the invitation, types a name and takes the open seat.
        friend.get(links["invite"])
        WebDriverWait(friend, 20).until(lambda d: d.find_element(By.ID, "join").is_displayed())
        friend.find_element(By.ID, "join-name").send_keys("Bob")
        friend.find_element(By.ID, "join-go").click()
        WebDriverWait(friend, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
        assert fragment(friend)["game"] == game_id
        assert shown(friend)["seat"] == 1
        # The host's name is text everywhere: in the board, the status and the log.
        WebDriverWait(host, 20).until(lambda d: shown(d)["seats"][1]["name"] == "Bob")
        for driver in (host, friend):
            assert not driver.find_elements(By.XPATH, "//*[local-name()='b']")
            names = [s["name"] for s in shown(driver)["seats"]]
            assert names == [ANN, "Bob", None]
        assert ANN in str(friend.find_element(By.ID, "text").get_attribute("textContent"))
        svg_text = friend.execute_script(
            "return [...document.querySelectorAll('#board text')].map(t => t.textContent).join('|')"
        )
        assert f"seat 0 ({ANN})" in svg_text

        # Each plays a move by clicking; the AI answers through the proxy's event stream.
        rng = random.Random(5)
        idle(host)
        play_one(host, "base", rng)
        idle(friend)
        play_one(friend, "base", rng)
        idle(host)
        assert any(ANN in li.text for li in friend.find_elements(By.CSS_SELECTOR, "#log li"))
        # Then to the end through the proxy, with the tokens the pages hold.
        tokens = {0: fragment(host)["token"], 1: fragment(friend)["token"]}
        deadline = time.time() + 240
        while True:
            assert time.time() < deadline, "the game did not end"
            snap = api(proxied, "GET", f"/games/{game_id}", tokens[0])
            if snap["result"] is not None:
                break
            seat = snap["current"]
            if seat not in tokens:
                time.sleep(0.05)  # the AI's turn: the server plays it
                continue
            mine = api(proxied, "GET", f"/games/{game_id}", tokens[seat])
            if not mine["legal"]:
                continue
            try:
                api(
                    proxied,
                    "POST",
                    f"/games/{game_id}/actions",
                    tokens[seat],
                    {"action": quick_move(mine), "version": mine["version"]},
                )
            except urllib.error.HTTPError as exc:
                assert exc.code == 409, exc.read()
        for driver in (host, friend):
            WebDriverWait(driver, 30).until(over)
        result = friend.find_element(By.ID, "result").text
        assert result.startswith("Game over") and ANN in result and "Bob" in result

        # The host recovers the friend's link from the host link, in a fresh browser.
        later = new_driver()
        later.get(links["host"])
        WebDriverWait(later, 30).until(lambda d: d.find_element(By.ID, "host-box").is_displayed())
        row = WebDriverWait(later, 20).until(
            lambda d: d.find_element(By.CSS_SELECTOR, '#host-seats li[data-seat="1"]')
        )
        assert "Bob" in row.text
        row.find_element(By.TAG_NAME, "button").click()
        fresh = WebDriverWait(later, 20).until(
            lambda d: d.find_element(By.CSS_SELECTOR, '#host-links input[data-seat="1"]')
        )
        new_link = str(fresh.get_attribute("value"))
        assert new_link.startswith(proxied + "#game=" + game_id)
        old = tokens[1]
        try:
            api(proxied, "GET", f"/games/{game_id}", old)
            raise AssertionError("the old link still works")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        friend.get(new_link)
        WebDriverWait(friend, 30).until(lambda d: fragment(d)["token"] != old and over(d))

        # Play again: both browsers move to their own new seats.
        host.find_element(By.ID, "again").click()
        for driver, seat in ((host, 2), (friend, 0)):
            WebDriverWait(driver, 30).until(
                lambda d: (
                    fragment(d)["game"] != game_id
                    and shown(d) is not None
                    and shown(d)["game_id"] == fragment(d)["game"]
                )
            )
            assert shown(driver)["seat"] == seat
        assert fragment(host)["game"] == fragment(friend)["game"]
        assert fragment(host)["token"] != fragment(friend)["token"]
        assert [s["name"] for s in shown(friend)["seats"]] == ["Bob", None, ANN]
    finally:
        for opened in (host, friend, later):
            if opened is not None:
                opened.quit()
