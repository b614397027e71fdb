"""The input feature sets of a network file (metadata key ``features``, ``docs/network.md``).

- ``raw`` (the default): the trunk reads the observation alone.
- ``needs`` (base game only): the observation followed by, for each seat, what it
  still lacks for each visible card and noble.

The extras are built by feature name from ``splendor.observation_spec("base", players)``,
exactly as the Rust evaluator builds them (``src/nn/features.rs``). Every value is a
small integer computed in float32, so both agree exactly.
"""

from __future__ import annotations

import torch
from torch import nn

import splendor

FEATURE_SETS = ("raw", "needs")
"""The allowed values of the ``features`` metadata key."""

COLOURS = ("w", "u", "g", "r", "k")
NOBLES = 5
"""Nobles the base observation describes."""


def features_problem(features: str, variant: str) -> str | None:
    """Why ``features`` does not fit a network of ``variant`` (None: it fits)."""
    if features not in FEATURE_SETS:
        return f"metadata features must be one of {', '.join(FEATURE_SETS)}, got {features!r}"
    if features == "needs" and variant != "base":
        return (
            f"metadata features='needs' is defined for the base variant only, not {variant} "
            f"(allowed values for {variant}: raw)"
        )
    return None


def card_slots(players: int) -> list[str]:
    """The K = 12 + 3 * players card slots of the ``needs`` features, in order."""
    board = [f"board.l{level}.{i}" for level in (1, 2, 3) for i in range(4)]
    return board + [f"seat{s}.reserve{r}" for s in range(players) for r in range(3)]


def extra_size(features: str, players: int) -> int:
    """E: the floats that follow the observation in the trunk's input."""
    if features == "raw":
        return 0
    return players * (3 * len(card_slots(players)) + NOBLES)


class NeedsFeatures(nn.Module):
    """``forward(obs [n, O]) -> extras [n, E]``: per seat (relative to the mover),
    ``need_sum[K]``, ``missing[K]``, ``affordable[K]``, ``noble_need[5]``.

    The offsets are buffers that are not saved in the ``state_dict`` (the network
    file has no such tensors: they follow from the observation spec).
    """

    ok: torch.Tensor
    cost: torch.Tensor
    bonus: torch.Tensor
    tokens: torch.Tensor
    gold: torch.Tensor
    noble_present: torch.Tensor
    noble_requirement: torch.Tensor

    def __init__(self, players: int) -> None:
        super().__init__()
        offset = {f.name: f.offset for f in splendor.observation_spec("base", players).features}

        def at(names: list[str]) -> list[int]:
            return [offset[n] for n in names]

        def colours(prefix: str) -> list[int]:
            return at([f"{prefix}.{c}" for c in COLOURS])

        slots = card_slots(players)
        # A card counts when it is there and its cost is visible: a board slot's
        # level is positive; a reserved card is present and known.
        ok = [
            at([f"{s}.present", f"{s}.known"]) if ".reserve" in s else at([f"{s}.level"] * 2)
            for s in slots
        ]
        seats = range(players)
        self.register_buffer("ok", torch.tensor(ok), persistent=False)  # [K, 2]
        self.register_buffer(
            "cost", torch.tensor([colours(f"{s}.cost") for s in slots]), persistent=False
        )  # [K, 5]
        self.register_buffer(
            "bonus", torch.tensor([colours(f"seat{s}.bonus") for s in seats]), persistent=False
        )  # [P, 5]
        self.register_buffer(
            "tokens", torch.tensor([colours(f"seat{s}.tokens") for s in seats]), persistent=False
        )  # [P, 5]
        self.register_buffer(
            "gold", torch.tensor(at([f"seat{s}.tokens.gold" for s in seats])), persistent=False
        )  # [P]
        self.register_buffer(
            "noble_present",
            torch.tensor(at([f"noble{n}.present" for n in range(NOBLES)])),
            persistent=False,
        )  # [5]
        self.register_buffer(
            "noble_requirement",
            torch.tensor([colours(f"noble{n}.requirement") for n in range(NOBLES)]),
            persistent=False,
        )  # [5, 5]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        ok = ((obs[:, self.ok] > 0).all(dim=2)).to(obs.dtype)  # [n, K]
        cost = obs[:, self.cost]  # [n, K, 5]
        requirement = obs[:, self.noble_requirement]  # [n, 5, 5]
        present = obs[:, self.noble_present]  # [n, 5]
        out: list[torch.Tensor] = []
        for seat in range(self.bonus.shape[0]):
            bonus = obs[:, self.bonus[seat]][:, None, :]  # [n, 1, 5]
            tokens = obs[:, self.tokens[seat]][:, None, :]
            lack = torch.relu(cost - bonus)  # [n, K, 5]
            short = torch.relu(lack - tokens).sum(dim=2)  # [n, K]
            missing = torch.relu(short - obs[:, self.gold[seat], None]) * ok
            out += [
                lack.sum(dim=2) * ok,
                missing,
                (missing == 0).to(obs.dtype) * ok,
                torch.relu(requirement - bonus).sum(dim=2) * present,
            ]
        return torch.cat(out, dim=1)
