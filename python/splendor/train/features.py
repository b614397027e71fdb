"""The input feature sets of a network file (metadata key ``features``, ``docs/network.md``).

- ``raw`` (the default): the trunk reads the observation alone.
- ``needs``: the observation followed by, for each seat, what it still lacks for each
  visible card and for each of the variant's goals (base nobles; Duel's victory
  thresholds and royal cards; Marvel's locations, Avengers tile and Infinity Gauntlet).

The extras are built by feature name from ``splendor.observation_spec(variant, players)``,
exactly as the Rust evaluator builds them (``src/nn/features.rs``). Every value is a
small integer computed in float32, so both agree exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

import splendor

FEATURE_SETS = ("raw", "needs")
"""The allowed values of the ``features`` metadata key."""

NEEDS_VARIANTS = ("base", "duel", "marvel")
"""The variants ``needs`` is defined for."""

BASE_COLOURS = ("w", "u", "g", "r", "k")
"""Colours of the base game and Duel, in observation order."""
MARVEL_COLOURS = ("purple", "blue", "red", "orange", "yellow")
"""Colours of Marvel, in observation order."""
NOBLES = 5
"""Nobles the base observation describes."""
LOCATIONS = 4
"""Locations the Marvel observation describes."""

DUEL_POINTS_TO_WIN = 20.0
DUEL_CROWNS_TO_WIN = 10.0
DUEL_COLOUR_POINTS_TO_WIN = 10.0
DUEL_ROYAL_CROWNS = (3.0, 6.0)
"""Duel's victory thresholds and the crown totals whose crossing gives a royal card."""
MARVEL_GAUNTLET_POINTS = 16.0
MARVEL_AVENGERS_ICONS = 3.0
"""Marvel's Infinity Points for the Gauntlet, and the icons that first take the Avengers tile."""

GOALS_PER_SEAT = {"base": 0, "duel": 4, "marvel": 3}
"""Variant goals per seat after the requirement goals (nobles, locations)."""


def features_problem(features: str, variant: str, players: int) -> str | None:
    """Why ``features`` does not fit a network of ``variant`` with ``players`` seats
    (None: it fits)."""
    if features not in FEATURE_SETS:
        return f"metadata features must be one of {', '.join(FEATURE_SETS)}, got {features!r}"
    if features == "needs" and variant not in NEEDS_VARIANTS:
        return (
            f"metadata features='needs' is defined for the {', '.join(NEEDS_VARIANTS)} variants, "
            f"not {variant} (allowed values for {variant}: raw)"
        )
    if features == "needs":
        try:
            splendor.observation_spec(variant, players)
        except splendor.ConfigError as e:
            return f"metadata features='needs' does not fit {variant} with {players} players: {e}"
    return None


@dataclass(frozen=True)
class CardSlot:
    """A card slot: its feature-name prefix and the two floats that must both be
    positive for a card to be there with its cost visible."""

    prefix: str
    ok: tuple[str, str]


def card_slots(variant: str, players: int) -> list[CardSlot]:
    """The K = 12 + 3 * players card slots of the ``needs`` features, in order."""
    if variant == "duel":
        board = [CardSlot(f"pyramid.{s}", ("present", "present")) for s in range(12)]
    else:
        # A base board slot holds a card when its level is positive; Marvel's has a flag.
        ok = ("level", "level") if variant == "base" else ("present", "present")
        board = [CardSlot(f"board.l{level}.{i}", ok) for level in (1, 2, 3) for i in range(4)]
    reserves = [
        CardSlot(f"seat{s}.reserve{r}", ("present", "known"))
        for s in range(players)
        for r in range(3)
    ]
    return board + reserves


def requirement_prefixes(variant: str) -> list[str]:
    """The goals met by bonuses alone: base nobles, Marvel locations (Duel has none)."""
    if variant == "base":
        return [f"noble{n}" for n in range(NOBLES)]
    if variant == "marvel":
        return [f"location{n}" for n in range(LOCATIONS)]
    return []


def extra_size(features: str, variant: str, players: int) -> int:
    """E: the floats that follow the observation in the trunk's input."""
    if features == "raw":
        return 0
    per_seat = 3 * len(card_slots(variant, players)) + len(requirement_prefixes(variant))
    return players * (per_seat + GOALS_PER_SEAT[variant])


class NeedsFeatures(nn.Module):
    """``forward(obs [n, O]) -> extras [n, E]``: per seat (relative to the mover),
    ``need_sum[K]``, ``missing[K]``, ``affordable[K]``, ``requirement_need[R]`` and
    the variant's goals.

    The offsets are buffers that are not saved in the ``state_dict`` (the network
    file has no such tensors: they follow from the observation spec).
    """

    ok: torch.Tensor
    cost: torch.Tensor
    wild: torch.Tensor
    bonus: torch.Tensor
    tokens: torch.Tensor
    gold: torch.Tensor
    present: torch.Tensor
    requirement: torch.Tensor
    points: torch.Tensor
    crowns: torch.Tensor
    colour_points: torch.Tensor
    avengers: torch.Tensor
    tile: torch.Tensor
    green: torch.Tensor

    def __init__(self, variant: str, players: int) -> None:
        super().__init__()
        if variant not in NEEDS_VARIANTS:
            raise ValueError(f"the needs features are not defined for {variant!r}")
        self.variant = variant
        offset = {f.name: f.offset for f in splendor.observation_spec(variant, players).features}
        colours = MARVEL_COLOURS if variant == "marvel" else BASE_COLOURS
        # Duel's costs have a sixth lane, pearls, which no bonus reduces.
        lanes = (*colours, "pearl") if variant == "duel" else colours

        def at(names: list[str]) -> list[int]:
            return [offset[n] for n in names]

        def each(prefix: str, names: tuple[str, ...] = colours) -> list[int]:
            return at([f"{prefix}.{c}" for c in names])

        def buffer(name: str, values: list[int] | list[list[int]], width: int = 0) -> None:
            """Offsets as a buffer; an empty list of rows of ``width`` keeps that width."""
            tensor = torch.tensor(values, dtype=torch.long)
            if not values and width:
                tensor = tensor.reshape(0, width)
            self.register_buffer(name, tensor, persistent=False)

        slots = card_slots(variant, players)
        seats = range(players)
        buffer("ok", [at([f"{s.prefix}.{s.ok[0]}", f"{s.prefix}.{s.ok[1]}"]) for s in slots])
        buffer("cost", [each(f"{s.prefix}.cost", lanes) for s in slots])  # [K, L]
        buffer("bonus", [each(f"seat{s}.bonus") for s in seats])  # [P, 5]
        buffer("tokens", [each(f"seat{s}.tokens", lanes) for s in seats])  # [P, L]
        wild_token = "grey" if variant == "marvel" else "gold"
        buffer("gold", at([f"seat{s}.tokens.{wild_token}" for s in seats]))  # [P]
        goals = requirement_prefixes(variant)
        buffer("present", at([f"{g}.present" for g in goals]))  # [R]
        buffer("requirement", [each(f"{g}.requirement") for g in goals], width=5)  # [R, 5]
        # Duel: the joker flag of each card; its goals.
        duel = variant == "duel"
        buffer("wild", at([f"{s.prefix}.bonus.wild" for s in slots]) if duel else [])
        points = at([f"seat{s}.points" for s in seats])
        buffer("points", points if variant != "base" else [])
        buffer("crowns", at([f"seat{s}.crowns" for s in seats]) if duel else [])
        buffer("colour_points", [each(f"seat{s}.colour_points") for s in seats] if duel else [])
        # Marvel: the Avengers icons and tile, the green Time Stone.
        marvel = variant == "marvel"
        buffer("avengers", at([f"seat{s}.avengers" for s in seats]) if marvel else [])
        buffer("tile", at([f"seat{s}.avengers_tile" for s in seats]) if marvel else [])
        buffer("green", at([f"seat{s}.tokens.green" for s in seats]) if marvel else [])

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        ok = ((obs[:, self.ok] > 0).all(dim=2)).to(obs.dtype)  # [n, K]
        cost = obs[:, self.cost]  # [n, K, L]
        requirement = obs[:, self.requirement]  # [n, R, 5]
        present = obs[:, self.present]  # [n, R]
        lanes = cost.shape[2]
        out: list[torch.Tensor] = []
        for seat in range(self.bonus.shape[0]):
            bonus = obs[:, self.bonus[seat]]  # [n, 5]
            # Lanes beyond the five colours (Duel's pearl) have no bonus.
            lane_bonus = torch.nn.functional.pad(bonus, (0, lanes - 5))[:, None, :]  # [n, 1, L]
            tokens = obs[:, self.tokens[seat]][:, None, :]  # [n, 1, L]
            lack = torch.relu(cost - lane_bonus)  # [n, K, L]
            short = torch.relu(lack - tokens).sum(dim=2)  # [n, K]
            missing = torch.relu(short - obs[:, self.gold[seat], None]) * ok
            can_pay = (missing == 0).to(obs.dtype) * ok
            if self.variant == "duel":
                # A joker needs a card of a real colour, that is any bonus.
                no_colour = ((bonus > 0).sum(dim=1) == 0).to(obs.dtype)[:, None]
                can_pay = can_pay * (1 - (obs[:, self.wild] > 0).to(obs.dtype) * no_colour)
            out += [
                lack.sum(dim=2) * ok,
                missing,
                can_pay,
                torch.relu(requirement - bonus[:, None, :]).sum(dim=2) * present,
            ]
            if self.variant == "duel":
                out.append(self._duel_goals(obs, seat))
            elif self.variant == "marvel":
                out.append(self._marvel_goals(obs, seat, bonus))
        return torch.cat(out, dim=1)

    def _duel_goals(self, obs: torch.Tensor, seat: int) -> torch.Tensor:
        """Points, crowns and best colour's points missing for each victory; crowns to the
        next royal card (0 once both are earned)."""
        crowns = obs[:, self.crowns[seat]]
        first, second = DUEL_ROYAL_CROWNS
        colour = torch.relu(DUEL_COLOUR_POINTS_TO_WIN - obs[:, self.colour_points[seat]])
        return torch.stack(
            [
                torch.relu(DUEL_POINTS_TO_WIN - obs[:, self.points[seat]]),
                torch.relu(DUEL_CROWNS_TO_WIN - crowns),
                colour.min(dim=1).values,
                torch.where(crowns < first, first - crowns, torch.relu(second - crowns)),
            ],
            dim=1,
        )

    def _marvel_goals(self, obs: torch.Tensor, seat: int, bonus: torch.Tensor) -> torch.Tensor:
        """Avengers icons still needed for the tile (0 for its holder), Infinity Points
        missing for the Gauntlet, and the Gauntlet's stones still missing."""
        holder_icons = (obs[:, self.tile] * obs[:, self.avengers]).sum(dim=1)
        target = torch.clamp(holder_icons + 1, min=MARVEL_AVENGERS_ICONS)
        tile = obs[:, self.tile[seat]]
        stones = (bonus == 0).to(obs.dtype).sum(dim=1) + (1 - obs[:, self.green[seat]])
        return torch.stack(
            [
                (1 - tile) * torch.relu(target - obs[:, self.avengers[seat]]),
                torch.relu(MARVEL_GAUNTLET_POINTS - obs[:, self.points[seat]]),
                stones,
            ],
            dim=1,
        )
