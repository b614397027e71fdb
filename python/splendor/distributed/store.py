"""A distributed run's output folder: manifest, lock, and durable writes.

The folder is the run's only memory. ``manifest.json`` says which run it holds
(what to play, how it is cut into chunks); a chunk's output is written so that
it either exists complete or not at all (a temporary file, ``fsync``, then
``os.replace`` and an ``fsync`` of the folder; or, for the match's JSON lines,
one appended line followed by ``fsync``, a torn last line being dropped on
the next start). A chunk counts as finished only once its output is durable,
so a driver killed at any instant loses at most the chunks in flight and never
stores a game twice. An exclusive lock (``.lock``, released by the system
when the driver dies) keeps two drivers out of one folder.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from splendor._folder_lock import LOCK, locked_folder
from splendor.errors import ConfigError
from splendor.selfplay import read_json_object

MANIFEST = "manifest.json"
FORMAT = "splendor-distributed/1"


def fsync_dir(path: Path) -> None:
    """Makes the names created or replaced in ``path`` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Writes ``path`` so that it exists complete, durably, or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def append_lines(path: Path, records: list[dict[str, Any]]) -> None:
    """Appends one JSON line per record to ``path`` and makes them durable
    (one ``fsync`` for the batch) before returning."""
    data = "".join(
        json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records
    ).encode()
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)


def read_lines(path: Path, *, repair: bool = False) -> list[dict[str, Any]]:
    """The complete JSON lines of ``path``, without a torn last line (a driver
    killed while appending); ``repair`` also cuts it from the file (only the
    driver holding the folder's lock may).

    Raises:
        ConfigError: A complete line that is not a JSON object (the file was
            edited or damaged by something else).
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if repair and end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
            f.flush()
            os.fsync(f.fileno())
    records = []
    for number, line in enumerate(data[:end].splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise ConfigError(f"{path}, line {number}: not a chunk record (the file is damaged)")
        records.append(record)
    return records


def _identity(manifest: dict[str, Any]) -> dict[str, Any]:
    """What must match for a folder to hold the same run: the manifest without the
    self-play network's path. The games depend on the network's weights, compared
    by the SHA-256 beside the path, not on where its file lies: a run resumed on
    another machine or from another directory names the same network by another
    path."""
    settings = manifest.get("settings")
    if not isinstance(settings, dict) or "network" not in settings:
        return manifest
    return {**manifest, "settings": {k: v for k, v in settings.items() if k != "network"}}


class RunFolder:
    """The output folder of one run, described by ``manifest``."""

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any]) -> None:
        if not isinstance(path, str | os.PathLike):
            raise ConfigError(f"the output folder must be a path, got {path!r}")
        self.path = Path(path)
        self.manifest = {"format": FORMAT, **manifest}

    def check(self) -> bool:
        """Checks, writing nothing, that this run can go in the folder; True when
        the folder already holds it (a resume).

        Raises:
            ConfigError: The path is a file or cannot be created, or the folder
                holds another run or files that are not a run's.
        """
        path = self.path
        if path.exists() and not path.is_dir():
            raise ConfigError(f"{path} is a file, not a folder for the run's output")
        if not path.exists():
            parent = next((p for p in path.parents if p.exists()), Path("."))
            if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
                raise ConfigError(f"cannot create {path}: {parent} is not a writable folder")
            return False
        have = self._manifest_on_disk()
        if have is None:
            others = sorted(p.name for p in path.iterdir() if p.name != LOCK)
            if others:
                raise ConfigError(
                    f"{path} is not empty and holds no {MANIFEST} (it has {', '.join(others[:3])}"
                    f"{', ...' if len(others) > 3 else ''}): give a new or empty folder"
                )
            return False
        have, want = _identity(have), _identity(self.manifest)
        if have != want:
            keys = want.keys() | have.keys()
            diff = sorted(k for k in keys if have.get(k) != want.get(k))
            raise ConfigError(
                f"{path} holds another run ({', '.join(diff)} differ): give another folder, "
                "or the same settings to resume it"
            )
        return True

    def _manifest_on_disk(self) -> dict[str, Any] | None:
        return read_json_object(self.path / MANIFEST, "a run manifest")

    @contextlib.contextmanager
    def opened(self) -> Iterator[None]:
        """The folder created, locked and holding the manifest, for the block.

        Raises:
            ConfigError: Another driver holds the folder, or it cannot be created.
        """
        busy = f"another driver is running this run in {self.path}: wait for it or stop it"
        with locked_folder(self.path, busy):
            # Under the lock, the folder cannot change any more: check again.
            if not self.check():
                text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
                atomic_write(self.path / MANIFEST, text.encode())
            for stale in self.path.glob("*.tmp"):
                stale.unlink()  # a write cut short by a crash; its chunk is not done
            yield
