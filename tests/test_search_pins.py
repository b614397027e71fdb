"""The plain tree policy is unchanged: searches with the default settings give, visit for
visit and value for value, what they gave at 248f3b5, before ``fpu_reduction`` and
``policy_temperature`` existed (docs/network.md, "Tree policy settings").

``tests/data/search/plain_rule_digests.json`` was written by :func:`digests` on that
commit's build. A change that is meant to alter the searches would have to say so and
write the file again; nothing else may change it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import splendor
from splendor import nets

PINS = Path(__file__).parent / "data" / "search" / "plain_rule_digests.json"
GAMES = (("base", 2), ("duel", 2), ("marvel", 2), ("base", 3))


def _digest(result: splendor.SearchResult) -> str:
    rows = sorted((int(a), result.visits[a], result.values[a]) for a in result.visits)
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def _pinned_network(variant: str, players: int) -> Path:
    """The network the digests were written with: the one shipped then, kept as 60f7934's
    reference network where a later one has been shipped since."""
    kept = nets.REFERENCE_DIR / "60f7934" / f"{variant}-{players}p.safetensors"
    return kept if kept.is_file() else nets.shipped_network_path(variant, players)


def digests(**settings: Any) -> dict[str, str]:
    """Digests of network searches (batch 1 and 4) and rollout searches at three
    positions of a greedy game in each of :data:`GAMES`."""
    out: dict[str, str] = {}
    for variant, players in GAMES:
        net = str(_pinned_network(variant, players))
        state = splendor.new_game(variant, players=players, seed=5)
        bot = splendor.GreedyBot(seed=1)
        for ply in range(16):
            if ply in (0, 7, 15):
                name = f"{variant}-{players}p ply {ply}"
                for batch in (1, 4):
                    result = splendor.search(
                        state, iterations=200, network=net, leaf_batch=batch, seed=ply, **settings
                    )
                    out[f"{name} net batch {batch}"] = _digest(result)
                rollout = {k: v for k, v in settings.items() if k != "policy_temperature"}
                result = splendor.search(state, iterations=300, seed=ply, **rollout)
                out[f"{name} rollout"] = _digest(result)
            state.apply(bot.act(state))
    return out


def test_the_default_settings_search_as_before_they_existed() -> None:
    pinned = json.loads(PINS.read_text(encoding="utf-8"))
    assert digests() == pinned
    assert digests(fpu_reduction=0.0, policy_temperature=1.0) == pinned
    assert digests(exploration=0.7, early_stop=0.0) == pinned


def test_each_setting_changes_the_searches() -> None:
    pinned = json.loads(PINS.read_text(encoding="utf-8"))
    for settings in ({"fpu_reduction": 0.2}, {"policy_temperature": 1.4}):
        changed = digests(**settings)
        kind = "net" if "policy_temperature" in settings else ""
        moved = [k for k in pinned if kind in k and changed[k] != pinned[k]]
        assert len(moved) >= len([k for k in pinned if kind in k]) // 2, settings
