"""Errors of the training layer: bad shard files and bad network files."""

from __future__ import annotations

from splendor.errors import SplendorError


class ShardError(SplendorError, ValueError):
    """A self-play shard or run directory that does not follow ``docs/network.md``."""


class NetworkFileError(SplendorError, ValueError):
    """A network file that does not follow ``docs/network.md``."""


__all__ = ["NetworkFileError", "ShardError"]
