"""Shared pytest set-up: makes ``tests/`` importable (``from engines import ENGINES``), gives
SIGINT its usual meaning to the run and every process it starts, and shared fixtures."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# A run started in the background of a shell without job control (`pytest &` in a script, or
# under nohup) inherits SIGINT *ignored*, and passes that on through fork and exec to every
# process it starts, so a Ctrl-C test would see its child ignore the signal it sends. A handler
# (unlike an ignored signal) is reset to the default at exec: the children get SIGINT as a
# terminal's Ctrl-C would give it to them.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Every core, as ``-n auto`` would, when pytest-xdist is installed and no ``-n`` was given.

    In this hook rather than in ``addopts``: an option of a plugin there stops a plain pytest
    (without the plugin) at ``unrecognized arguments``. It runs before xdist's own hook, which
    turns ``auto`` into a number of workers.
    """
    if hasattr(config, "workerinput"):
        return  # a worker of a distributed run
    if getattr(config.option, "numprocesses", 0) is None and not config.option.collectonly:
        config.option.numprocesses = "auto"


HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture
def no_marvel_4p_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game ships a network, so a game without one is made by taking Marvel 4p's away:
    the package's network folder is swapped for one holding every other shipped file. The web
    server loads each shipped network once per process, so its cache is emptied on both sides."""
    from splendor import nets
    from splendor.web import ai

    for shipped in nets.NETS_DIR.glob("*.safetensors"):
        if shipped.name != "marvel-4p.safetensors":
            (tmp_path / shipped.name).symlink_to(shipped)
    monkeypatch.setattr(nets, "NETS_DIR", tmp_path)
    ai.shipped_network.cache_clear()
    yield
    ai.shipped_network.cache_clear()


def postgres_url() -> str:
    """The test PostgreSQL server's URL (``$SPLENDOR_TEST_POSTGRES``), its tables dropped
    first; without one, the test fails (never skips): ``.ci/run`` starts a server."""
    import os

    from splendor.web.store import engine_url, metadata
    from sqlalchemy import create_engine

    url = os.environ.get("SPLENDOR_TEST_POSTGRES")
    if not url:
        pytest.fail(
            "SPLENDOR_TEST_POSTGRES is not set: these tests need a PostgreSQL server"
            " (postgresql://USER:PASSWORD@HOST/DB; .ci/run starts one)"
        )
    engine = create_engine(engine_url(url)[0])
    metadata.drop_all(engine)
    engine.dispose()
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def web_db(request: pytest.FixtureRequest) -> str:
    """The games database of a web test: SQLite in memory, and (``-m postgres``, as
    ``.ci/run`` runs it) PostgreSQL, so the API answers the same on both."""
    return "sqlite://" if request.param == "sqlite" else postgres_url()
