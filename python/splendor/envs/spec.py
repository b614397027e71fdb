"""The observation spec: the name, offset and scale of every observation feature."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from splendor import _core


class Feature(NamedTuple):
    """One float of the observation vector."""

    name: str
    """Dotted name, e.g. ``seat1.tokens.gold``; seats are relative to the observer."""
    offset: int
    """Index in the observation vector."""
    scale: float
    """The normalised feature is ``value / scale``."""
    bounded: bool
    """True when ``scale`` is a hard maximum (the normalised value is in [0, 1])."""


@dataclass(frozen=True)
class ObservationSpec:
    """Every feature of one variant's observation, in offset order."""

    variant: str
    players: int
    features: tuple[Feature, ...]
    scales: npt.NDArray[np.float32] = field(repr=False, compare=False)
    bounded: npt.NDArray[np.bool_] = field(repr=False, compare=False)

    @property
    def size(self) -> int:
        """Length of the observation vector."""
        return len(self.features)

    @property
    def names(self) -> tuple[str, ...]:
        """The feature names, in offset order."""
        return tuple(f.name for f in self.features)

    def offset(self, name: str) -> int:
        """The index of the feature called ``name`` (``KeyError`` if none)."""
        for f in self.features:
            if f.name == name:
                return f.offset
        raise KeyError(f"no feature {name!r} in the {self.variant} observation")

    def slice(self, prefix: str) -> slice:
        """The contiguous range of the features named ``prefix`` or ``prefix.*``."""
        hits = [
            f.offset for f in self.features if f.name == prefix or f.name.startswith(prefix + ".")
        ]
        if not hits:
            raise KeyError(f"no feature under {prefix!r} in the {self.variant} observation")
        return slice(hits[0], hits[-1] + 1)

    def normalize(self, obs: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``obs / scales`` (any leading batch dimensions), as float32."""
        return (np.asarray(obs, dtype=np.float32) / self.scales).astype(np.float32)


@cache
def observation_spec(variant: str, players: int = 2) -> ObservationSpec:
    """The observation layout of ``variant`` with ``players`` seats, without creating a state.

    ``ConfigError`` for an unknown variant or a player count it does not seat.
    """
    rows = _core._observation_spec(variant, players)
    features = tuple(Feature(*row) for row in rows)
    scales = np.array([f.scale for f in features], dtype=np.float32)
    bounded = np.array([f.bounded for f in features], dtype=np.bool_)
    scales.flags.writeable = False
    bounded.flags.writeable = False
    return ObservationSpec(variant, players, features, scales, bounded)
