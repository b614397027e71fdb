"""The observation spec: the name, offset and scale of every observation feature."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from splendor import _core
from splendor._arguments import typed_errors, typed_methods


class Feature(NamedTuple):
    """One float of the observation vector."""

    name: str
    """Dotted name, e.g. ``seat1.tokens.gold``; seats are relative to the observer."""
    offset: int
    """Index in the observation vector."""
    scale: float
    """The normalised feature is ``value / scale``."""
    bounded: bool
    """True when ``scale`` is a hard maximum (the normalised value is between 0 and 1)."""


#: How many times its typical scale a feature without a hard maximum may reach, at
#: most (``ObservationSpec.high``).
UNBOUNDED_FACTOR = 16


@typed_methods("offset", "slice", "table", "high", "normalize")
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

    def table(self) -> str:
        """The layout as a Markdown table: one row per run of records of one kind.

        A record is a card slot, a seat, a reserve slot, the bank, ...; its
        numbers are written ``#``. A field reads ``name ÷scale``, with ``~`` when
        the scale is a typical range rather than a maximum.
        """
        records: list[tuple[str, int, list[Feature]]] = []
        for f in self.features:
            record, field_name = _split(f.name)
            if (
                records
                and records[-1][0] == record
                and field_name not in {_split(g.name)[1] for g in records[-1][2]}
            ):
                records[-1][2].append(f)
            else:
                records.append((record, f.offset, [f]))
        rows: list[tuple[str, int, int, list[Feature]]] = []
        for record, offset, fields in records:
            last = rows[-1] if rows else None
            if last and last[0] == record and _fields(last[3]) == _fields(fields):
                rows[-1] = (record, last[1], last[2] + 1, last[3])
            else:
                rows.append((record, offset, 1, fields))
        lines = ["| offset | record | count | fields (÷ scale) |", "|---|---|---|---|"]
        for record, offset, count, fields in rows:
            lines.append(f"| {offset} | `{record}` | {count} | {_fields(fields)} |")
        return "\n".join(lines)

    def high(self, *, turn_cap: int = 100, normalize: bool = False) -> npt.NDArray[np.float32]:
        """A finite upper bound of every feature (every feature is at least 0), for an
        observation space: the scale where it is a hard maximum; ``rounds``: ``turn_cap``
        (a game is truncated after that many rounds); any other feature (points, card
        counts) :data:`UNBOUNDED_FACTOR` times its typical scale, more than any game
        reaches (a seat can own every card: 90 = 4.5 x 20 in the base game; the points
        stop a game near the scale). With ``normalize``, divided by the scales.
        """
        high = np.where(self.bounded, self.scales, self.scales * UNBOUNDED_FACTOR)
        high[self.offset("rounds")] = max(turn_cap, 1)
        if normalize:
            high = high / self.scales
        return high.astype(np.float32)

    def normalize(self, obs: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``obs / scales`` (any leading batch dimensions), as float32."""
        return (np.asarray(obs, dtype=np.float32) / self.scales).astype(np.float32)


def _split(name: str) -> tuple[str, str]:
    """``(record pattern, field)``: ``seat1.reserve0.level`` -> ``(seat#.reserve#, level)``."""
    parts = name.split(".")
    numbered = [
        i
        for i, p in enumerate(parts)
        if re.fullmatch(r"(l\d|\d+|[a-z]+\d+)", p) and i < len(parts) - 1
    ]
    cut = numbered[-1] + 1 if numbered else 1
    record = ".".join(re.sub(r"\d+", "#", p) for p in parts[:cut])
    return record, ".".join(parts[cut:])


def _fields(fields: list[Feature]) -> str:
    """``level ÷3, bonus.{w,u,g} ÷1, points ÷20~``: fields grouped by prefix and scale."""
    groups: list[tuple[str, str, list[str]]] = []
    for f in fields:
        name = _split(f.name)[1]
        prefix, _, leaf = name.rpartition(".")
        scale = f"{f.scale:g}" + ("" if f.bounded else "~")
        if groups and groups[-1][0] == prefix and groups[-1][1] == scale and prefix:
            groups[-1][2].append(leaf)
        else:
            groups.append((prefix, scale, [leaf]))
    out = []
    for prefix, scale, leaves in groups:
        if not prefix:
            label = leaves[0] if len(leaves) == 1 else "{" + ",".join(leaves) + "}"
        elif len(leaves) == 1:
            label = f"{prefix}.{leaves[0]}"
        else:
            label = prefix + ".{" + ",".join(leaves) + "}"
        out.append(f"{label or 'value'} ÷{scale}")
    return ", ".join(out)


@typed_errors
def observation_spec(variant: str, players: int = 2) -> ObservationSpec:
    """The observation layout of ``variant`` with ``players`` seats, without creating a state.

    ``ConfigError`` for an unknown variant or a player count it does not seat.
    """
    try:
        return _observation_spec(variant, players)
    except TypeError:  # an unhashable argument: the engine names it
        _core._observation_spec(variant, players)
        raise


@cache
def _observation_spec(variant: str, players: int) -> ObservationSpec:
    """:func:`observation_spec`, made once per ``(variant, players)``."""
    rows = _core._observation_spec(variant, players)
    features = tuple(Feature(*row) for row in rows)
    scales = np.array([f.scale for f in features], dtype=np.float32)
    bounded = np.array([f.bounded for f in features], dtype=np.bool_)
    scales.flags.writeable = False
    bounded.flags.writeable = False
    return ObservationSpec(variant, players, features, scales, bounded)
