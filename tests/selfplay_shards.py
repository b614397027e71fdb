"""Synthetic self-play run directories in the shard format of ``docs/network.md``.

Games are played by the Rust engine's seeded ``GreedyBot`` (so they end well
before the turn cap unless the cap is tiny); the policy target is a random
distribution over the legal actions, the value target the real final returns,
rotated to the mover, and the search value ``q`` uniform noise. Real data comes
from ``splendor.selfplay``; these let the training code be tested on its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import splendor


def play_game(
    variant: str, players: int, game_seed: int, turn_cap: int, rng: np.random.Generator
) -> dict[str, list[Any]]:
    """One random game's samples (decisions with two or more legal actions)."""
    state = splendor.new_game(variant, players=players, seed=game_seed, turn_cap=turn_cap)
    bot = splendor.GreedyBot(seed=game_seed)
    rows: dict[str, list[Any]] = {"obs": [], "mask": [], "policy": [], "ply": [], "mover": []}
    ply = 0
    while not state.is_terminal():
        mover = state.current_player
        mask = state.legal_action_mask()
        legal = np.flatnonzero(mask)
        if legal.size >= 2:
            policy = np.zeros(mask.size, dtype=np.float32)
            policy[legal] = rng.dirichlet(np.ones(legal.size)).astype(np.float32)
            policy /= policy.sum()
            rows["obs"].append(state.observation(mover))
            rows["mask"].append(mask)
            rows["policy"].append(policy)
            rows["ply"].append(ply)
            rows["mover"].append(mover)
        state.apply(bot.act(state))
        ply += 1
    final = np.asarray(state.returns(), dtype=np.float32)
    rows["returns"] = [np.roll(final, -mover) for mover in rows["mover"]]
    return rows


def write_run(
    path: Path,
    *,
    variant: str = "base",
    players: int = 2,
    games: int = 4,
    games_per_shard: int = 2,
    seed: int = 0,
    turn_cap: int = 100,
) -> Path:
    """Writes ``run.json`` and shards of ``games`` random games into ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "run.json").write_text(
        json.dumps({"variant": variant, "players": players, "seed": seed, "synthetic": True})
    )
    rng = np.random.default_rng(seed)
    for shard, first in enumerate(range(0, games, games_per_shard)):
        ids = list(range(first, min(first + games_per_shard, games)))
        seeds = [seed * 1000 + i for i in ids]
        parts = [play_game(variant, players, s, turn_cap, rng) for s in seeds]
        game = [i for i, part in zip(ids, parts, strict=True) for _ in part["obs"]]
        np.savez_compressed(
            path / f"shard-{shard:06d}.npz",
            obs=np.stack([o for p in parts for o in p["obs"]]).astype(np.float32),
            mask=np.stack([m for p in parts for m in p["mask"]]).astype(np.bool_),
            policy=np.stack([x for p in parts for x in p["policy"]]).astype(np.float32),
            returns=np.stack([r for p in parts for r in p["returns"]]).astype(np.float32),
            q=rng.uniform(0.0, 1.0, len(game)).astype(np.float32),
            game=np.asarray(game, dtype=np.int64),
            ply=np.asarray([x for p in parts for x in p["ply"]], dtype=np.int32),
            player=np.asarray([x for p in parts for x in p["mover"]], dtype=np.int8),
            game_ids=np.asarray(ids, dtype=np.int64),
            game_seeds=np.asarray(seeds, dtype=np.uint64),
        )
    return path
