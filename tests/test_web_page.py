"""The page's files and the facts it reads from the server: what the static allow-list
serves, that the page's addresses are relative (it works under a path prefix), that the
wheel ships every module, and that each legal action names the board places it picks."""

from __future__ import annotations

import dataclasses
import fnmatch
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor.web import ServerLimits, create_app
from splendor.web.picks import action_picks, picks_of
from splendor.web.routes.page import STATIC_FILES

ROOT = Path(__file__).parent.parent
STATIC = ROOT / "python" / "splendor" / "web" / "static"
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


@pytest.fixture
def client(web_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(ServerLimits(workers=2), db=web_db)) as c:
        yield c


def static_files() -> set[str]:
    """The files under static/ that the server serves by name (index.html is the page)."""
    return {
        p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.is_file() and p.name != "index.html"
    }


def test_the_allow_list_is_exactly_the_static_files_with_their_types(client: TestClient) -> None:
    assert set(STATIC_FILES) == static_files()
    for name, media in STATIC_FILES.items():
        assert media == TYPES[Path(name).suffix]
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"].startswith(media), name
        assert r.text == (STATIC / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "path",
    [
        "/static/index.html",
        "/static/app.js",
        "/static/js/nothing.js",
        "/static/../routes/page.py",
        "/static/%2e%2e/routes/page.py",
        "/static/js",
    ],
)
def test_nothing_off_the_list_is_served(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert "def static" not in r.text


def page_addresses() -> list[str]:
    """Every address the page's HTML names and every module a script imports."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    found = re.findall(r'(?:href|src)="([^"]*)"', html)
    for js in (STATIC / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        found += [f"static/js/{m}" for m in re.findall(r'from "\./([^"]+)"', text)]
    return found


def test_the_page_and_its_modules_name_only_files_it_serves(client: TestClient) -> None:
    addresses = page_addresses()
    assert "static/js/main.js" in addresses
    assert '<script type="module" src="static/js/main.js">' in client.get("/").text
    served = {a for a in addresses if a.startswith("static/")}
    # Every module main.js reaches is imported by some module: none is left unserved.
    assert {f"static/{n}" for n in STATIC_FILES if n.startswith("js/") and n != "js/main.js"} <= (
        served
    )
    for address in served:
        assert client.get("/" + address).status_code == 200, address


def test_the_pages_addresses_are_relative() -> None:
    # Behind a reverse proxy the page lives under a prefix (/splendor/): an absolute path
    # would leave it. Addresses resolve against document.baseURI instead.
    for address in page_addresses():
        assert not address.startswith("/"), address
    for js in (STATIC / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        assert not re.search(r"""["'`]/(api|static)\b""", text), js.name


def test_the_wheel_ships_every_static_file() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    start = pyproject.index("include = [", pyproject.index("[tool.maturin]"))
    include = re.findall(r'"(python/[^"]+)"', pyproject[start : pyproject.index("]", start)])
    for name in [*static_files(), "index.html"]:
        path = f"python/splendor/web/static/{name}"
        # maturin's globs: `*` stays within one folder.
        assert any(
            fnmatch.fnmatchcase(path, g) and path.count("/") == g.count("/") for g in include
        ), path


def test_the_server_serves_the_registry(client: TestClient) -> None:
    served = client.get("/api/v1").json()["variants"]
    assert [v["name"] for v in served] == list(splendor.VARIANTS)
    for v in served:
        info = splendor.variant_info()[v["name"]]
        assert v["title"] == info.title
        assert v["players"] == list(info.players)
        assert v["verbs"] == dataclasses.asdict(info.verbs)
    # The page keeps no copy of them.
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    page += "".join(js.read_text(encoding="utf-8") for js in (STATIC / "js").glob("*.js"))
    for info in splendor.variant_info().values():
        assert info.title not in page
    assert "recruit" not in page and "[2, 3, 4]" not in page


@pytest.mark.parametrize(
    ("variant", "text", "picks"),
    [
        ("base", "take wwu", ["token w", "token w", "token u"]),
        ("marvel", "take bro", ["token b", "token r", "token o"]),
        ("duel", "take a1 b2 c3", ["cell a1", "cell b2", "cell c3"]),
        ("duel", "privilege a1", ["cell a1"]),
        ("duel", "gold c3", ["cell c3"]),
        ("base", "buy 2.3", ["2.3"]),
        ("marvel", "recruit reserved 1", ["reserved 1"]),
        ("base", "reserve deck 1", ["deck 1"]),
        ("base", "noble 5", ["noble 5"]),
        ("duel", "royal 0", ["royal 0"]),
        ("base", "pay gold gk", []),
        ("base", "return g", []),
        ("duel", "steal w", []),
        ("duel", "replenish", []),
        ("base", "pass", []),
    ],
)
def test_action_picks(variant: str, text: str, picks: list[str]) -> None:
    assert action_picks(variant, text) == picks


def data_picks(svg: str) -> set[str]:
    return set(re.findall(r'data-pick="([^"]*)"', svg))


@pytest.mark.parametrize(("variant", "players"), [("base", 2), ("duel", 2), ("marvel", 3)])
def test_every_legal_action_names_places_of_the_board(
    client: TestClient, variant: str, players: int
) -> None:
    """Each legal action of a snapshot carries the places a click chooses it by, and those
    places are on the seat's board: the page matches places and never parses a text."""
    made = client.post(
        "/api/v1/games", json={"variant": variant, "players": players, "seed": 5, "ai_seats": []}
    ).json()
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(variant)
    kinds: set[str] = set()
    for _ in range(150):
        state: dict[str, Any] = {}
        for token in tokens.values():
            got = client.get(
                f"/api/v1/games/{made['game_id']}", headers={"Authorization": f"Bearer {token}"}
            ).json()
            if got["legal"]:
                state = got
                state["token"] = token
        if not state:
            break
        places = data_picks(state["svg"])
        for a in state["legal"]:
            assert a["picks"] == action_picks(variant, a["text"])
            assert set(a["picks"]) <= places, (a, sorted(places))
            kinds |= {p.split()[0] for p in a["picks"]}
        # The board outlines the places a single click plays (cards, decks, tiles).
        outlined = set(re.findall(r'data-pick="([^"]*)" class="pick legal', state["svg"]))
        assert outlined == set(picks_of(variant, [a["text"] for a in state["legal"]]))
        choice = rng.choice(state["legal"])
        r = client.post(
            f"/api/v1/games/{made['game_id']}/actions",
            headers={"Authorization": f"Bearer {state['token']}"},
            json={"action": choice["id"]},
        )
        assert r.status_code == 200, r.text
    assert {"token" if variant != "duel" else "cell"} <= kinds
