"""Where the server can be reached, and the links it hands out.

``splendor serve`` bound beyond localhost prints the address of every network this machine
is on, so a friend on the same Wi-Fi has one to open (``http://0.0.0.0:8000/`` opens
nothing). The links of a table (its seats', the host's, the invitation's) are absolute:
``--public-url`` when given (the address friends use, e.g. behind a reverse proxy), else the
address the request came to, its root path included, with the scheme and host a trusted
proxy forwarded, and never a loopback address when the server can be reached from the
network (a link copied from ``http://127.0.0.1:8000/`` would point at the friend's own
machine).

Only the standard library is used to find the addresses (no ``ip`` command, no psutil): the
address the system would send from towards a few unroutable probes (a UDP socket that is
"connected" sends nothing), and the addresses this machine's own name resolves to.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from splendor.errors import ConfigError

PROBES = {
    socket.AF_INET: ("192.0.2.1", "10.255.255.255", "172.31.255.255", "192.168.255.255"),
    socket.AF_INET6: ("2001:db8::1", "fd00::1"),
}
"""Addresses no packet is sent to: a UDP socket connected to one learns which local address
the system would send from (the default route's, or a private network's)."""

WILDCARDS = {"0.0.0.0": (socket.AF_INET,), "::": (socket.AF_INET6, socket.AF_INET)}
"""The bind addresses that listen on every interface, and the address families they serve
(``::`` serves IPv4 too on a dual-stack system, Linux's default)."""


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address or a URL's host) is this machine only."""
    host = host.strip("[]")
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    ip = _ip(host)
    return ip is not None and ip.is_loopback


def reachable(text: str) -> bool:
    """Whether another machine could reach this one at ``text``: not loopback, link-local
    (``fe80::``: needs a zone), unspecified or multicast."""
    ip = _ip(text)
    return ip is not None and not (
        ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast
    )


def _probe(family: socket.AddressFamily, probe: str) -> str | None:
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))  # UDP: no packet leaves, the route is only looked up
            return str(s.getsockname()[0])
    except OSError:
        return None


def _resolved(name: str) -> list[tuple[socket.AddressFamily, str]]:
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    return [(info[0], str(info[4][0])) for info in infos]


def local_addresses(
    families: Iterable[socket.AddressFamily] = (socket.AF_INET, socket.AF_INET6),
    *,
    probe: Callable[[socket.AddressFamily, str], str | None] = _probe,
    resolve: Callable[[str], list[tuple[socket.AddressFamily, str]]] = _resolved,
    names: Iterable[str] | None = None,
) -> list[str]:
    """This machine's addresses that others could reach, in ``families``, IPv4 first, each
    once (``probe`` and ``resolve`` are the socket calls, replaceable in tests)."""
    families = list(families)
    found: list[tuple[socket.AddressFamily, str]] = []
    for family in families:
        for target in PROBES[family]:
            address = probe(family, target)
            if address is not None:
                found.append((family, address))
    for name in names if names is not None else {socket.gethostname(), socket.getfqdn()}:
        found += [(f, a) for f, a in resolve(name) if f in families]
    order = {f: i for i, f in enumerate((socket.AF_INET, socket.AF_INET6))}
    out: list[str] = []
    for _, address in sorted(found, key=lambda fa: order.get(fa[0], 9)):
        if reachable(address) and address not in out:
            out.append(address)
    return out


def url_of(host: str, port: int, root_path: str = "", scheme: str = "http") -> str:
    """``http://HOST:PORT/ROOT/`` (an IPv6 address in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}{root_path.rstrip('/')}/"


def normal_root_path(root_path: str) -> str:
    """``--root-path`` as uvicorn takes it: empty, or ``/a/b`` (a leading slash, none after).

    Raises:
        ConfigError: a root path with a scheme, a host, a query or a fragment.
    """
    root_path = root_path.strip()
    if not root_path or root_path == "/":
        return ""
    if not root_path.startswith("/") or any(c in root_path for c in "?#\\ ") or "//" in root_path:
        raise ConfigError(
            f"--root-path {root_path!r} must be a path such as /splendor (where a reverse"
            " proxy serves this app), not a URL"
        )
    return root_path.rstrip("/")


def normal_public_url(url: str) -> str:
    """``--public-url`` with its path ending in ``/`` (links are ``URL#game=...``).

    Raises:
        ConfigError: not an ``http://`` or ``https://`` URL with a host, or one with a query
            or a fragment.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"--public-url {url!r} must be the address friends open, such as"
            " https://example.org/splendor/"
        )
    if parts.query or parts.fragment:
        raise ConfigError(f"--public-url {url!r} must not have a query or a fragment")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


@dataclass(frozen=True)
class Hosting:
    """How links are made: ``public_url`` (``--public-url``), else the request's own
    address; ``network_url``: the address others on the network use, when the server
    listens beyond localhost (it replaces a loopback address in links)."""

    public_url: str | None = None
    network_url: str | None = None

    def base(self, request: Request) -> str:
        """The page's address for links made in answer to ``request`` (ends in ``/``)."""
        if self.public_url is not None:
            return self.public_url
        base = str(request.base_url)  # scheme (forwarded), host, root path
        if self.network_url is not None and is_loopback(request.url.hostname or ""):
            root_path = str(request.scope.get("root_path", ""))
            return self.network_url.rstrip("/") + root_path + "/"
        return base if base.endswith("/") else base + "/"


def hosting_for(
    host: str, port: int, public_url: str | None, addresses: list[str]
) -> tuple[Hosting, list[str]]:
    """The links' settings for a server bound to ``host``:``port``, and the addresses to
    print (the public URL, or each address others can open; this machine's own first)."""
    if public_url is not None:
        return Hosting(public_url=public_url), [public_url]
    if is_loopback(host):
        return Hosting(), [url_of(host, port)]
    if host in WILDCARDS:
        urls = [url_of(a, port) for a in addresses]
        here = url_of("127.0.0.1" if host == "0.0.0.0" else "::1", port)
        return Hosting(network_url=urls[0] if urls else None), [here, *urls]
    # One named interface: that address is the one others open.
    return Hosting(network_url=url_of(host, port)), [url_of(host, port)]


def normal_forwarded_allow_ips(ips: str) -> str:
    """``--forwarded-allow-ips`` checked: ``*``, or addresses and networks separated by
    commas (uvicorn would take a typo for a host name and trust nothing).

    Raises:
        ConfigError: an empty list, or an item that is no address or network.
    """
    items = [i.strip() for i in ips.split(",")]
    if ips.strip() == "*":
        return "*"
    for item in items:
        try:
            if "/" in item:
                ipaddress.ip_network(item, strict=False)
            else:
                ipaddress.ip_address(item)
        except ValueError:
            raise ConfigError(
                f"--forwarded-allow-ips {ips!r}: {item!r} is no address or network; name the"
                " proxies as 127.0.0.1, 10.0.0.0/8 (commas between), or * for any"
            ) from None
    return ",".join(items)


def default_forwarded_allow_ips() -> str:
    """uvicorn's default: ``$FORWARDED_ALLOW_IPS``, else ``127.0.0.1``."""
    return os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


class ForwardedHeaders(ProxyHeadersMiddleware):
    """uvicorn's proxy headers (``X-Forwarded-Proto``, ``X-Forwarded-For``, from the proxies
    ``--forwarded-allow-ips`` names, with uvicorn's own trust rules), plus
    ``X-Forwarded-Host``, which uvicorn leaves alone: a trusted proxy's forwarded host is the
    request's ``Host``, so links name the address the browser used."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if client and client[0] in self.trusted_hosts:
                forwarded = [v for k, v in scope["headers"] if k == b"x-forwarded-host"]
                if forwarded:
                    # The first proxy's (the one the browser reached) is the first in the list.
                    first = forwarded[0].split(b",")[0].strip()
                    if first:
                        headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
                        scope = {**scope, "headers": [*headers, (b"host", first)]}
        await super().__call__(scope, receive, send)
