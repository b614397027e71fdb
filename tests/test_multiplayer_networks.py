"""Networks for 3 and 4 players (issue 23): each seat's value is backed up for that seat,
Rust and PyTorch agree on stored 3- and 4-player positions of the committed generation networks
(training/), and a tiny 3-player run goes from self-play through training to a gated network.
That the search with a network reads nothing hidden at 3 and 4 players is in test_network.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
import splendor
import torch
from splendor import Network, search
from splendor.train import loop, read_network_file
from splendor.train.model import load
from test_network import encode, random_tensors

ROOT = Path(__file__).resolve().parent.parent
STORED = Path(__file__).parent / "data" / "multiplayer_net_positions.npz"
# The generation networks committed under training/ whose outputs are stored.
RECORDED = {
    "base-3p": ROOT / "training" / "base-3p" / "g0.safetensors",
    "base-4p": ROOT / "training" / "base-4p" / "g0.safetensors",
    "marvel-3p": ROOT / "training" / "marvel-3p" / "g0.safetensors",
    "marvel-4p": ROOT / "training" / "marvel-4p" / "g0.safetensors",
}


def constant_value_network(players: int, value_bias: list[float]) -> Network:
    """Every weight zero: the value is softmax(value_bias) rotated to the mover, everywhere."""
    meta, t = random_tensors("base", players, (8,), seed=1)
    for k in t:
        if k.endswith(("weight", "bias")):
            t[k] = np.zeros_like(t[k])
    t["value.bias"] = np.array(value_bias, dtype=np.float32)
    return Network.from_bytes(encode(meta, t))


@pytest.mark.parametrize("players", [3, 4])
def test_each_seat_gets_its_own_value(players: int) -> None:
    """A network that always says "the seat right after the mover wins" makes every leaf
    good for that seat. The root mover's children are positions where the next seat moves;
    there the network credits the seat after *that* one, never the root mover or the seat
    right after it. With a value backed up to the wrong seat (or the same value for every
    seat), the root's action values would not show that pattern."""
    bias = [0.0] * players
    bias[1] = 8.0  # value[1], the seat one place after the mover, gets ~all the mass
    net = constant_value_network(players, bias)
    state = splendor.new_game("base", players=players, seed=2)
    legal = state.legal_actions()
    # One visit per root child: each child is a leaf evaluated with its mover = root + 1.
    r = search(state, iterations=len(legal) + 1, seed=1, network=net)
    values = [r.values[a] for a in legal if r.visits[a] > 0]
    assert values, "the search visited no root child"
    # The root mover is two places after each leaf's "next seat": value[players - 1] ~ 0.
    share = float(np.exp(0.0) / (np.exp(8.0) + players - 1))
    assert values == pytest.approx([share] * len(values), abs=1e-4)


def test_rust_and_torch_agree_on_stored_positions() -> None:
    stored = np.load(STORED)
    for name, path in RECORDED.items():
        network = Network.load(path)
        model, _ = load(path)
        obs = stored[f"{name}.obs"]
        assert obs.shape[0] >= 40 and obs.shape[1] == network.obs_size
        with torch.no_grad():
            logits, value_logits = model(torch.from_numpy(obs))
            value = torch.softmax(value_logits, dim=1).numpy()
        # The stored outputs were written by PyTorch when the network was committed.
        np.testing.assert_allclose(logits.numpy(), stored[f"{name}.logits"], atol=1e-5, rtol=0)
        np.testing.assert_allclose(value, stored[f"{name}.value"], atol=1e-5, rtol=0)
        for row, observation in enumerate(obs):
            rust_logits, rust_value = network.evaluate(observation)
            np.testing.assert_allclose(rust_logits, stored[f"{name}.logits"][row], atol=1e-4)
            np.testing.assert_allclose(rust_value, stored[f"{name}.value"][row], atol=1e-4)
        variant, seats = name.split("-")
        assert (network.variant, network.players) == (variant, int(seats[0]))


def test_a_tiny_three_player_run_end_to_end(tmp_path: Path) -> None:
    """Self-play (rollout search, then the first network), training, export and the gate,
    for base with 3 players; the network it ends with searches a 3-player game."""
    config = loop.TrainConfig(
        variant="base",
        players=3,
        seed=3,
        iterations=2,
        hidden=(8,),
        features="needs",
        games_per_iteration=2,
        selfplay_search_iterations=8,
        steps_per_iteration=4,
        batch_size=16,
        checkpoint_every=2,
        log_every=2,
        gate_games=3,
        gate_search_iterations=4,
        eval_games=0,
        value_q_weight=1.0,
        validation_fraction=0.0,
    )
    best = loop.train(config, tmp_path / "run", progress=False)
    shape, _, tensors = read_network_file(best)
    assert (shape.variant, shape.players, shape.features) == ("base", 3, "needs")
    assert tensors["value.weight"].shape[0] == 3
    generations = sorted((tmp_path / "run" / "selfplay").iterdir())
    assert len(generations) == 2  # the second was played by the first network
    state = splendor.new_game("base", players=3, seed=2)
    bot = splendor.MctsBot(iterations=20, seed=1, network=Network.load(best))
    assert bot.act(state) in state.legal_actions()


def test_generation_records_match_their_files() -> None:
    """Each training/ manifest names files that exist, with the SHA-256 it records, for the
    game and player count of its folder, and a training command that reproduces the file's
    own settings (the provenance the file carries)."""
    folders = sorted(p for p in (ROOT / "training").iterdir() if p.is_dir())
    assert folders
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text())
        assert folder.name == f"{manifest['game']}-{manifest['players']}p"
        for generation in manifest["generations"]:
            path = folder / generation["file"]
            assert hashlib.sha256(path.read_bytes()).hexdigest() == generation["sha256"]
            network = Network.load(path)
            assert (network.variant, network.players) == (manifest["game"], manifest["players"])
            assert network.hidden == generation["hidden"]
            assert network.features == generation["features"]
            settings = json.loads(network.provenance)["settings"]
            command = generation["train"].split()
            assert command[command.index("--steps") + 1] == str(settings["steps_per_iteration"])
            assert command[command.index("--seed") + 1] == str(settings["seed"])
            assert f"--players {manifest['players']}" in generation["selfplay"]
