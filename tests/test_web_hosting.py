"""Hosting for friends: the addresses ``serve`` prints, and links that are right behind a
reverse proxy, under a root path, with ``--public-url``, and from a loopback address."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import pytest
import splendor
import uvicorn
from fastapi.testclient import TestClient
from splendor.web import ServerLimits, create_app, hosting, serve, serving_banner
from splendor.web.hosting import (
    ForwardedHeaders,
    Hosting,
    hosting_for,
    local_addresses,
    normal_public_url,
    normal_root_path,
)

V4, V6 = socket.AF_INET, socket.AF_INET6


def fake_probe(family: socket.AddressFamily, target: str) -> str | None:
    """A machine on a Wi-Fi (192.168.1.20) with no IPv6 route."""
    return "192.168.1.20" if family == V4 else None


def fake_resolve(name: str) -> list[tuple[socket.AddressFamily, str]]:
    return [
        (V4, "127.0.1.1"),  # Debian's own-name line: loopback
        (V4, "192.168.1.20"),
        (V4, "10.8.0.3"),  # a VPN
        (V6, "fe80::1%eth0"),  # link-local: needs a zone, useless in a link
        (V6, "2001:db8::20"),
        (V6, "::1"),
    ]


def test_the_addresses_others_can_reach() -> None:
    both = local_addresses(probe=fake_probe, resolve=fake_resolve, names=["box"])
    assert both == ["192.168.1.20", "10.8.0.3", "2001:db8::20"]
    assert local_addresses([V4], probe=fake_probe, resolve=fake_resolve, names=["box"]) == [
        "192.168.1.20",
        "10.8.0.3",
    ]
    # On the machine itself: whatever it finds is never loopback, link-local or unspecified.
    for address in local_addresses():
        assert hosting.reachable(address)


def test_serve_prints_every_address_others_can_open() -> None:
    found = ["192.168.1.20", "10.8.0.3", "2001:db8::20"]
    links, urls = hosting_for("0.0.0.0", 8000, None, found[:2])
    assert urls == ["http://127.0.0.1:8000/", "http://192.168.1.20:8000/", "http://10.8.0.3:8000/"]
    assert links.network_url == "http://192.168.1.20:8000/"
    banner = serving_banner("0.0.0.0", urls, None, "", "games.sqlite3")
    assert "0.0.0.0" not in banner
    assert "others on your network: http://192.168.1.20:8000/" in banner
    assert "others on your network: http://10.8.0.3:8000/" in banner
    _, urls = hosting_for("::", 8000, None, found)
    assert urls[0] == "http://[::1]:8000/" and "http://[2001:db8::20]:8000/" in urls
    links, urls = hosting_for("127.0.0.1", 8000, None, [])
    assert links == Hosting() and urls == ["http://127.0.0.1:8000/"]
    assert "only this machine" in serving_banner("127.0.0.1", urls, None, "", "x")
    links, urls = hosting_for("192.168.1.20", 9000, None, [])
    assert urls == ["http://192.168.1.20:9000/"] and links.network_url == urls[0]
    public = "https://example.org/splendor/"
    links, urls = hosting_for("127.0.0.1", 8000, public, [])
    assert links.public_url == public and urls == [public]
    banner = serving_banner("127.0.0.1", urls, public, "/splendor", "postgresql://u:pw@h/db")
    assert public in banner and "pw" not in banner
    # With no network at all, it says so rather than printing nothing.
    _, urls = hosting_for("0.0.0.0", 8000, None, [])
    assert "no network address" in serving_banner("0.0.0.0", urls, None, "", "x")


def test_serve_hands_uvicorn_the_proxy_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    seen: dict[str, Any] = {}

    def run(self: uvicorn.Server, sockets: Any = None) -> None:
        seen["config"] = self.config

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn.Config would point the process's log handlers at this test's captured stderr,
    # which is closed after the test: every later log line in this worker would fail.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    monkeypatch.setattr(
        hosting, "local_addresses", lambda families: ["192.168.1.20"] if V4 in families else []
    )
    serve(
        "0.0.0.0",
        8123,
        ServerLimits(workers=1),
        str(tmp_path / "g.sqlite3"),
        root_path="/splendor/",
        forwarded_allow_ips="10.0.0.0/8",
    )
    config = seen["config"]
    assert config.root_path == "/splendor" and config.forwarded_allow_ips == "10.0.0.0/8"
    assert isinstance(config.app, ForwardedHeaders) and not config.proxy_headers
    err = capsys.readouterr().err
    assert "http://192.168.1.20:8123/" in err and "0.0.0.0" not in err
    for bad in ({"root_path": "splendor"}, {"root_path": "http://x/splendor"}):
        with pytest.raises(splendor.ConfigError, match="root-path"):
            serve("127.0.0.1", 8123, ServerLimits(workers=1), str(tmp_path / "g"), **bad)
    with pytest.raises(splendor.ConfigError, match="public-url"):
        serve("127.0.0.1", 8123, None, str(tmp_path / "g"), public_url="example.org")
    for ips in ("", "proxy.lan", "10.0.0.0/33"):
        with pytest.raises(splendor.ConfigError, match="forwarded-allow-ips"):
            serve("127.0.0.1", 8123, None, str(tmp_path / "g"), forwarded_allow_ips=ips)


def test_root_paths_and_public_urls_are_normalised() -> None:
    assert normal_root_path("") == normal_root_path("/") == ""
    assert normal_root_path("/splendor/") == "/splendor"
    assert normal_public_url("https://example.org/splendor") == "https://example.org/splendor/"
    assert normal_public_url("http://192.168.1.20:8000") == "http://192.168.1.20:8000/"
    for bad in ("ftp://x/", "https:///path", "https://x/?a=1", "https://x/#f"):
        with pytest.raises(splendor.ConfigError):
            normal_public_url(bad)


def made_links(client: TestClient, **headers: str) -> dict[str, Any]:
    r = client.post("/api/v1/games", json={"players": 3, "open_seats": [2]}, headers=headers)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def every_link(made: dict[str, Any]) -> list[str]:
    links = [s["link"] for s in made["seats"] if s["link"]]
    return [*links, made["spectator"]["link"], made["host"]["link"], made["invite"]["link"]]


def fresh(hosting: Hosting | None = None) -> Any:
    """A new app (each runs its lifespan once)."""
    return create_app(ServerLimits(workers=1), hosting=hosting)


def test_links_under_a_root_path_from_a_trusted_proxy() -> None:
    # The test client's address is "testclient": a trusted proxy when named.
    trusted = ForwardedHeaders(fresh(), "testclient")
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example.org"}
    with TestClient(trusted, root_path="/splendor") as client:
        made = made_links(client, **forwarded)
        for link in every_link(made):
            assert link.startswith(f"https://games.example.org/splendor/#game={made['game_id']}&")
        # Without the proxy's headers: the address the request came to, root path included.
        for link in every_link(made_links(client)):
            assert link.startswith("http://testserver/splendor/#game=")
        # The page and the API answer under the root path too.
        assert client.get("/splendor/api/v1").status_code == 200
    untrusted = ForwardedHeaders(fresh(), "10.0.0.1")
    with TestClient(untrusted) as client:
        for link in every_link(made_links(client, **forwarded)):
            assert link.startswith("http://testserver/#game="), "an untrusted proxy is ignored"


def test_a_public_url_makes_every_link() -> None:
    with TestClient(fresh(Hosting(public_url="https://example.org/splendor/"))) as client:
        made = made_links(client)
        for link in every_link(made):
            assert link.startswith("https://example.org/splendor/#game=")
        host = {"Authorization": f"Bearer {made['host']['token']}"}
        again = client.post(f"/api/v1/games/{made['game_id']}/seats/0/link", headers=host)
        assert again.json()["link"].startswith("https://example.org/splendor/#game=")


def test_a_link_made_on_the_host_machine_names_its_network_address() -> None:
    """Bound beyond localhost, a page opened at 127.0.0.1 still hands out links friends can
    open; a page opened at another name keeps it."""
    lan = Hosting(network_url="http://192.168.1.20:8000/")
    with TestClient(fresh(lan), base_url="http://127.0.0.1:8000") as client:
        for link in every_link(made_links(client)):
            assert link.startswith("http://192.168.1.20:8000/#game=")
    with TestClient(fresh(lan), base_url="http://localhost:8000", root_path="/s") as client:
        for link in every_link(made_links(client)):
            assert link.startswith("http://192.168.1.20:8000/s/#game=")
    with TestClient(fresh(lan), base_url="http://splendor.lan:8000") as client:
        for link in every_link(made_links(client)):
            assert link.startswith("http://splendor.lan:8000/#game=")


def test_serve_help_documents_the_hosting_options() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from splendor.cli import main; main()", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for option in ("--public-url", "--root-path", "--forwarded-allow-ips"):
        assert option in out
