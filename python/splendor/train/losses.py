"""The training losses of ``docs/network.md``: soft-target cross-entropy for both heads,
and the squared error of the auxiliary points head."""

from __future__ import annotations

import torch


def policy_loss(logits: torch.Tensor, mask: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of the visit distribution against the softmax over legal actions.

    Illegal logits are excluded from the softmax and receive no gradient, so the
    loss does not depend on them at all.

    Args:
        logits: ``[n, A]`` policy logits.
        mask: ``[n, A]`` bool, the legal actions.
        target: ``[n, A]`` visit distribution (zero off the mask).
    """
    masked = logits.masked_fill(~mask, float("-inf"))
    log_prior = torch.log_softmax(masked, dim=1)
    # 0 * -inf is NaN: read the log-prior only where the action is legal.
    log_prior = torch.where(mask, log_prior, torch.zeros_like(log_prior))
    return -(target * log_prior).sum(dim=1).mean()


def value_loss(logits: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of the final returns against the softmax of the value logits.

    A truncated game (all-zero returns) has no result to learn from: its rows
    contribute nothing, and the mean is over the other rows (zero if none).

    Args:
        logits: ``[n, P]`` value logits (column 0 = the mover).
        returns: ``[n, P]`` returns rotated to the mover.
    """
    decided = returns.sum(dim=1) > 0
    if not bool(decided.any()):
        return (logits * 0.0).sum()
    log_value = torch.log_softmax(logits[decided], dim=1)
    return -(returns[decided] * log_value).sum(dim=1).mean()


POINTS_SCALE = 20.0
"""Final points are divided by this for the points head: about the winning score, so the
targets lie between 0 and about 1, like the value head's."""


def points_loss(predicted: torch.Tensor, points: torch.Tensor) -> torch.Tensor:
    """Mean squared error of the predicted final points (over ``POINTS_SCALE``).

    Rows without a points target (NaN: shards from before it was recorded) contribute
    nothing, and the mean is over the other rows (zero if none).

    Args:
        predicted: ``[n, P]`` the head's outputs (column 0 = the mover).
        points: ``[n, P]`` each seat's final points rotated to the mover.
    """
    known = ~torch.isnan(points).any(dim=1)
    if not bool(known.any()):
        return (predicted * 0.0).sum()
    error = predicted[known] - points[known] / POINTS_SCALE
    return (error * error).sum(dim=1).mean()
