"""The Ray side of a distributed run: connecting, and running chunks as tasks.

Ray is imported here, inside the functions, so that ``import splendor`` and
the checks made before any work (bots, output folder, address syntax) run
without it. Each chunk is one Ray task with one CPU; a task whose worker
process dies is run again by Ray (``max_retries``), and since a chunk is a
pure function of its seeds the retry returns exactly what the lost attempt
would have.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import splendor
from splendor.errors import ConfigError, SplendorError

#: How long a worker may take to answer the first task (it starts a process
#: and imports splendor there) before the cluster is declared unusable.
PROBE_TIMEOUT = 120.0

#: Tasks in flight per CPU of the cluster: enough that a CPU finishing a
#: chunk finds the next one already queued on its node, few enough that a
#: Ctrl-C or a crash abandons little work.
IN_FLIGHT_PER_CPU = 2


class ClusterError(SplendorError):
    """Ray lost a chunk more often than ``max_retries`` allowed, or the cluster
    went away; what finished is stored, and the same call resumes the run."""


def parse_address(address: str | None) -> tuple[str, int] | None:
    """``(host, port)`` to check before connecting, or None for a local cluster
    (``None`` or ``"local"``) and for ``"auto"`` (the cluster this machine
    joined with ``ray start``, which Ray finds itself).

    Raises:
        ConfigError: Not ``HOST:PORT``, ``ray://HOST:PORT``, ``auto`` or ``local``.
    """
    if address is None or address in ("local", "auto"):
        return None
    if not isinstance(address, str):
        raise ConfigError(f"address must be a str such as '10.0.0.5:6379', got {address!r}")
    text = address.strip()
    rest = text.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 literal: [::1]:6379
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(
            f"bad Ray address {address!r}: expected HOST:PORT (the head node's GCS, e.g. "
            "10.0.0.5:6379), ray://HOST:PORT (Ray Client), auto or local"
        )
    return host, int(port)


def check_reachable(address: str | None, timeout: float) -> None:
    """Fails within ``timeout`` seconds if nothing listens at ``address``.

    ``ray.init`` retries an unreachable head for a long time; a plain TCP
    connection tells at once.

    Raises:
        ConfigError: A bad address, an unknown host, or no answer in time.
    """
    target = parse_address(address)
    if target is None:
        return
    host, port = target
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            grpc = _speaks_http2(conn)
    except socket.gaierror as exc:
        raise ConfigError(f"Ray address {address!r}: unknown host {host!r} ({exc})") from None
    except TimeoutError:
        raise ConfigError(
            f"Ray address {address!r}: no answer within {timeout:g} s (is the head node up, "
            "and the port open?)"
        ) from None
    except OSError as exc:
        raise ConfigError(
            f"Ray address {address!r}: cannot connect ({exc.strerror or exc}); start the head "
            "node with `ray start --head` or give its address"
        ) from None
    if not grpc:
        raise ConfigError(
            f"Ray address {address!r}: something answers there, but not Ray (no gRPC): "
            "give the head node's GCS port (6379 unless set otherwise)"
        )


#: An HTTP/2 client's first bytes: the connection preface and an empty
#: SETTINGS frame. A gRPC server (Ray's GCS and its client server) answers
#: with a SETTINGS frame of its own.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _speaks_http2(conn: socket.socket) -> bool:
    """Whether the server on ``conn`` answers an HTTP/2 hello: ``ray.init``
    would otherwise wait minutes on a port that is open but not Ray's."""
    conn.sendall(_HTTP2_HELLO)
    header = b""
    while len(header) < 9:
        data = conn.recv(9 - len(header))
        if not data:
            return False
        header += data
    return header[3] == 4  # frame type: SETTINGS


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError("distributed runs need Ray: pip install 'splendor[ray]'") from None
    return ray


def _probe() -> tuple[str, str]:
    """Runs on a worker: the splendor version it imports, and its host."""
    return splendor.__version__, socket.gethostname()


@contextlib.contextmanager
def connected(address: str | None, *, connect_timeout: float = 10.0) -> Iterator[None]:
    """Ray, initialized for the ``with`` block: the cluster at ``address``, or a
    new local one (``None`` / ``"local"``: every core of this machine, no
    dashboard). When Ray is already initialized in this process, that
    connection is used as it is (and left so); ``address``, if given, must
    still answer.

    Before yielding, one task checks that the workers import splendor, the same
    version as here.

    Raises:
        ConfigError: Ray is missing, the address is bad or unreachable, or the
            workers cannot run splendor.
    """
    if (
        isinstance(connect_timeout, bool)
        or not isinstance(connect_timeout, int | float)
        or not 0 < connect_timeout <= 3600
    ):
        raise ConfigError(
            f"connect_timeout must be between 0 and 3600 seconds, got {connect_timeout!r}"
        )
    check_reachable(address, connect_timeout)
    ray = _ray()
    if ray.is_initialized():
        _check_workers(ray)
        yield
        return
    options: dict[str, Any] = {
        "logging_level": logging.WARNING,
        "log_to_driver": False,
    }
    if address is None or address == "local":
        options["include_dashboard"] = False
        address = None
    try:
        ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        hint = ""
        if address is not None and "RAY_AUTH_MODE" not in os.environ:
            hint = (
                " (a cluster with token authentication, Ray's default, also needs "
                "RAY_AUTH_MODE=token and its token in RAY_AUTH_TOKEN or ~/.ray/auth_token here)"
            )
        raise ConfigError(
            f"cannot start or join Ray at {address or 'local'}: {exc}{hint}"
        ) from None
    try:
        _check_workers(ray)
        yield
    finally:
        ray.shutdown()


def _check_workers(ray: Any) -> None:
    ref = ray.remote(_probe).options(num_cpus=1, max_retries=0).remote()
    try:
        version, host = ray.get(ref, timeout=PROBE_TIMEOUT)
    except ray.exceptions.GetTimeoutError:
        ray.cancel(ref, force=True)
        raise ConfigError(
            f"no Ray worker ran a task within {PROBE_TIMEOUT:g} s: does the cluster have a "
            "free CPU?"
        ) from None
    except ray.exceptions.RayError as exc:
        raise ConfigError(
            f"a Ray worker cannot run splendor (install the same splendor on every node): {exc}"
        ) from None
    if version != splendor.__version__:
        raise ConfigError(
            f"the Ray worker on {host} runs splendor {version}, this driver {splendor.__version__}:"
            " install the same version on every node"
        )


def cluster_cpus() -> int:
    """CPUs of the cluster now (nodes may join or leave during a run)."""
    ray = _ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_chunks(
    fn: Callable[..., Any],
    calls: Sequence[tuple[int, tuple[Any, ...]]],
    on_results: Callable[[list[tuple[int, Any]]], None],
    *,
    max_retries: int,
) -> None:
    """Runs ``fn(*args)`` as one Ray task per ``(key, args)`` of ``calls`` and
    calls ``on_results([(key, value), ...])`` on this thread with the tasks
    that finished since the last call, in the order they finished (a batch,
    so that the caller can make a batch durable with one ``fsync``). A bounded
    number of tasks is in flight at a time.

    Whatever stops the run (an error in a task, ``on_results`` raising,
    Ctrl-C), the tasks in flight are cancelled before the exception
    propagates; the tasks that finished with it are handed over first.

    Raises:
        SplendorError: What a task raised (a bad setting the driver could not
            check), as it was raised there.
        ClusterError: A task lost more than ``max_retries`` times.
    """
    ray = _ray()
    remote = ray.remote(fn).options(num_cpus=1, max_retries=max_retries, retry_exceptions=False)
    todo = list(reversed(calls))
    pending: dict[Any, int] = {}
    limit, checked = IN_FLIGHT_PER_CPU * cluster_cpus(), time.monotonic()
    try:
        while todo or pending:
            while todo and len(pending) < limit:
                key, args = todo.pop()
                pending[remote.remote(*args)] = key
            ready, rest = ray.wait(list(pending), num_returns=1)
            if rest:
                # Sweep whatever else is ready too: one pass over the refs per
                # batch, not per chunk, when many small chunks finish at once.
                more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                ready += more
            batch: list[tuple[int, Any]] = []
            failure: SplendorError | None = None
            for ref in ready:
                key = pending.pop(ref)
                try:
                    batch.append((key, _result(ray, ref, key, max_retries)))
                except SplendorError as exc:
                    failure = failure or exc
            if batch:
                on_results(batch)
            if failure is not None:
                raise failure
            if time.monotonic() - checked > 10:
                limit, checked = IN_FLIGHT_PER_CPU * cluster_cpus(), time.monotonic()
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)


def _result(ray: Any, ref: Any, key: int, max_retries: int) -> Any:
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause
        if isinstance(cause, SplendorError):
            raise cause from None
        raise ClusterError(f"chunk {key} failed on a worker: {cause!r}") from None
    except ray.exceptions.RayError as exc:
        raise ClusterError(
            f"chunk {key} was lost {max_retries + 1} times ({type(exc).__name__}); what "
            "finished is stored: run the same command again to resume"
        ) from None


def hostname() -> str:
    """This machine's name and process id, as recorded with each chunk."""
    return f"{socket.gethostname()}:{os.getpid()}"
