"""Errors of the training layer: bad shard files (and bad network files, ``NetworkError``)."""

from __future__ import annotations

from splendor.errors import NetworkError, SplendorError


class ShardError(SplendorError, ValueError):
    """A self-play shard or run directory that does not follow ``docs/network.md``."""


__all__ = ["NetworkError", "ShardError"]
