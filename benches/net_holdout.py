"""How well a network predicts held-out self-play games (docs/training.md, "Search-value targets").

    python benches/net_holdout.py NET RUN_DIR [RUN_DIR ...] [--games-from A --games-to B]

Reads the shards of the run directories (only games with ids in ``[A, B)`` when given, so that a
range never trained on can be held out), and prints, for the network's value head: the
cross-entropy against the games' results (a coin scores ln 2 = 0.693) and against the search's
root value ``q``, how often it names the winner; the same two figures for ``q`` itself (what the
value head is trained to approach); and, for the policy head, the cross-entropy against the visit
distributions and how often its top action is the most visited one. Needs ``splendor[train]``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch
from splendor.train.data import load_runs, read_run_info, shard_paths, variant_sizes
from splendor.train.model import load


def _search_values(path: Path) -> npt.NDArray[np.float32]:
    """A shard's ``q`` column (NaN for shards written before it existed)."""
    with np.load(path) as shard:
        if "q" in shard.files:
            return np.asarray(shard["q"], dtype=np.float32)
        return np.full(len(shard["obs"]), np.nan, dtype=np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("network")
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--games-from", type=int, default=0)
    parser.add_argument("--games-to", type=int, default=2**62)
    args = parser.parse_args()
    net, _ = load(args.network)
    info = read_run_info(args.runs[0])
    obs_size, num_actions = variant_sizes(info.variant, info.players)
    samples, _ = load_runs(args.runs)
    # load_runs keeps the game key (run index << 40 | game id); select on the id.
    game_id = samples.game_key & ((1 << 40) - 1)
    rows = np.flatnonzero((game_id >= args.games_from) & (game_id < args.games_to))
    held = samples.subset(rows)
    q = np.concatenate([_search_values(path) for run in args.runs for path in shard_paths(run)])
    q = q[rows]
    assert held.obs.shape[1] == obs_size and held.mask.shape[1] == num_actions
    with torch.no_grad():
        logits, value_logits = net(torch.from_numpy(held.obs))
        log_value = torch.log_softmax(value_logits, 1).numpy()
        masked = logits.masked_fill(~torch.from_numpy(held.mask), float("-inf"))
        log_prior = torch.log_softmax(masked, 1).numpy()
    returns = held.returns
    decided = returns.sum(axis=1) > 0
    mover_wins = returns[decided, 0] > 0.5
    v = np.exp(log_value[:, 0])
    eps = 1e-9

    def binary_ce(p: npt.NDArray[np.floating], target: npt.NDArray[np.floating]) -> float:
        return float(-(target * np.log(p + eps) + (1 - target) * np.log(1 - p + eps)).mean())

    print(f"held-out samples: {len(held)} ({int(decided.sum())} from decided games)")
    print(
        "value head: CE vs results "
        f"{float(-(returns[decided] * log_value[decided]).sum(axis=1).mean()):.4f} "
        f"(coin {math.log(2):.4f}), CE vs q {binary_ce(v, np.nan_to_num(q, nan=0.5)):.4f}, "
        f"names the winner {float(((v[decided] > 0.5) == mover_wins).mean()):.3f}"
    )
    if not np.isnan(q).any():
        print(
            f"search value q: CE vs results {binary_ce(q[decided], mover_wins.astype(float)):.4f}, "
            f"names the winner {float(((q[decided] > 0.5) == mover_wins).mean()):.3f}"
        )
    legal_log_prior = np.where(held.mask, log_prior, 0.0)
    top = np.where(held.mask, logits.numpy(), -np.inf).argmax(axis=1)
    policy_ce = float(-(held.policy * legal_log_prior).sum(axis=1).mean())
    print(
        f"policy head: CE vs visits {policy_ce:.4f}, "
        f"top action is the most visited {float((top == held.policy.argmax(axis=1)).mean()):.3f}"
    )


if __name__ == "__main__":
    main()
