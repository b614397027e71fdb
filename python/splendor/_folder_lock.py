"""An exclusive lock on an output folder, so two writers never share one.

Self-play runs and distributed runs number their files from what the folder
holds; two processes writing one folder would take the same numbers and
delete each other's pending files. The lock is ``flock`` on ``.lock`` in the
folder: the system releases it when its process dies, so a crash never leaves
a folder locked.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from splendor.errors import ConfigError

#: The lock file's name inside a locked folder.
LOCK = ".lock"


@contextlib.contextmanager
def locked_folder(path: Path, busy: str) -> Iterator[None]:
    """Creates ``path`` if needed and holds its lock for the block.

    Raises:
        ConfigError: ``busy`` when another process holds the lock, or the
            folder or its lock file cannot be created.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ConfigError(f"cannot create {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise ConfigError(busy) from None
        yield
    finally:
        os.close(fd)  # releases the lock
