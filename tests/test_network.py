"""splendor.Network from Python: the file format of docs/network.md, the forward
pass against a NumPy reference, bad files, and the search, bots and matches
with a network."""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import pickle
import struct
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import splendor
from splendor import MctsBot, Network, RandomBot, bots, nets, search
from splendor.bots import make_bot
from splendor.errors import ConfigError, NetworkError
from splendor.play import main as play_main

Tensors = dict[str, npt.NDArray[np.float32]]
VARIANTS = ("base", "duel", "marvel")


def random_tensors(
    variant: str, players: int, hidden: tuple[int, ...], seed: int
) -> tuple[dict[str, str], Tensors]:
    """A random network of the given shape, with a non-trivial input normalisation."""
    state = splendor.new_game(variant, players=players)
    obs, actions = state.observation_size, state.num_actions
    rng = np.random.default_rng(seed)
    t: Tensors = {
        "input.shift": rng.uniform(0, 1, obs).astype(np.float32),
        "input.scale": rng.uniform(0.5, 1.5, obs).astype(np.float32),
    }
    prev = obs
    for i, h in enumerate(hidden):
        t[f"trunk.{i}.weight"] = rng.normal(0, prev**-0.5, (h, prev)).astype(np.float32)
        t[f"trunk.{i}.bias"] = rng.normal(0, 0.1, h).astype(np.float32)
        prev = h
    t["policy.weight"] = rng.normal(0, prev**-0.5, (actions, prev)).astype(np.float32)
    t["policy.bias"] = rng.normal(0, 0.1, actions).astype(np.float32)
    t["value.weight"] = rng.normal(0, prev**-0.5, (players, prev)).astype(np.float32)
    t["value.bias"] = rng.normal(0, 0.1, players).astype(np.float32)
    meta = {
        "format": "splendor-net/1",
        "variant": variant,
        "players": str(players),
        "obs_size": str(obs),
        "num_actions": str(actions),
        "hidden": ",".join(map(str, hidden)),
        "provenance": json.dumps({"source": "test"}),
    }
    return meta, t


def encode(meta: dict[str, str], tensors: dict[str, Any], dtype: str = "F32") -> bytes:
    """A safetensors file, written by hand from the format's definition."""
    header: dict[str, Any] = {"__metadata__": meta}
    data = b""
    for name, value in tensors.items():
        arr = np.ascontiguousarray(value, dtype="<f8" if dtype == "F64" else "<f4")
        raw = arr.tobytes()
        header[name] = {
            "dtype": dtype,
            "shape": list(arr.shape),
            "data_offsets": [len(data), len(data) + len(raw)],
        }
        data += raw
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def reference(
    t: Tensors, hidden: tuple[int, ...], obs: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The forward pass of docs/network.md in float64 NumPy."""
    x = (obs.astype(np.float64) - t["input.shift"]) * t["input.scale"]
    for i in range(len(hidden)):
        x = np.maximum(t[f"trunk.{i}.weight"].astype(np.float64) @ x + t[f"trunk.{i}.bias"], 0)
    logits = t["policy.weight"].astype(np.float64) @ x + t["policy.bias"]
    v = t["value.weight"].astype(np.float64) @ x + t["value.bias"]
    e = np.exp(v - v.max())
    return logits, e / e.sum()


def positions(variant: str, players: int, n: int = 60) -> list[Any]:
    out: list[Any] = []
    seed = 0
    while len(out) < n:
        state = splendor.new_game(variant, players=players, seed=seed)
        bot = RandomBot(seed=seed)
        while not state.is_terminal() and len(out) < n:
            out.append(state.clone())
            for _ in range(5):
                if state.is_terminal():
                    break
                state.apply(bot.act(state))
        seed += 1
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_forward_pass_matches_numpy(variant: str) -> None:
    hidden = (24, 16)
    meta, t = random_tensors(variant, 2, hidden, seed=3)
    net = Network.from_bytes(encode(meta, t))
    assert (net.variant, net.players, net.hidden) == (variant, 2, list(hidden))
    for state in positions(variant, 2):
        p = state.current_player
        obs = state.observation(p)
        logits, value = net.evaluate(obs)
        want_logits, want_value = reference(t, hidden, obs)
        assert logits.dtype == np.float32 and logits.shape == (state.num_actions,)
        np.testing.assert_allclose(logits, want_logits, atol=1e-5, rtol=0)
        np.testing.assert_allclose(value, want_value, atol=1e-5, rtol=0)


def test_properties_pickle_and_equality(tmp_path: Path) -> None:
    meta, t = random_tensors("base", 3, (8,), seed=1)
    data = encode(meta, t)
    path = tmp_path / "n.safetensors"
    path.write_bytes(data)
    net = Network.load(path)
    assert net == Network.load(str(path)) == Network.from_bytes(data)
    assert net.sha256 == hashlib.sha256(data).hexdigest()
    assert net.to_bytes() == data
    assert (net.obs_size, net.num_actions) == (432, 329)
    assert json.loads(net.provenance) == {"source": "test"}
    again = pickle.loads(pickle.dumps(net))
    assert again == net and hash(again) == hash(net)
    other = Network.from_bytes(encode(*random_tensors("base", 3, (8,), seed=2)))
    assert other != net
    assert "base" in repr(net)


def bad_files() -> list[tuple[str, bytes, str]]:
    meta, t = random_tensors("base", 2, (8, 8), seed=1)
    good = encode(meta, t)
    cases = [
        ("truncated", good[: len(good) // 2], "not a valid safetensors"),
        ("empty", b"", "not a valid safetensors"),
        ("garbage", b"\x10\x00\x00\x00\x00\x00\x00\x00{not json at all}", "not a valid"),
        ("format", encode({**meta, "format": "onnx"}, t), "format"),
        ("no players", encode({k: v for k, v in meta.items() if k != "players"}, t), "players"),
        ("bad hidden", encode({**meta, "hidden": "8;8"}, t), "hidden"),
        ("unknown variant", encode({**meta, "variant": "chess"}, t), "chess"),
        ("sizes", encode({**meta, "variant": "duel"}, t), "observations of 432"),
        ("missing", encode(meta, {k: v for k, v in t.items() if k != "policy.bias"}), "policy"),
        ("extra", encode(meta, {**t, "spare": np.zeros(2)}), "unexpected tensor `spare`"),
        ("shape", encode(meta, {**t, "trunk.1.weight": np.zeros((8, 9))}), "trunk.1.weight"),
        ("nan", encode(meta, {**t, "value.bias": np.array([0.0, np.nan])}), "non-finite"),
        ("dtype", encode(meta, t, dtype="F64"), "F64"),
    ]
    return cases


@pytest.mark.parametrize(("name", "data", "needle"), bad_files(), ids=[c[0] for c in bad_files()])
def test_bad_files_raise_network_error(name: str, data: bytes, needle: str, tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match=needle):
        Network.from_bytes(data)
    path = tmp_path / f"{name}.safetensors"
    path.write_bytes(data)
    with pytest.raises(NetworkError, match=needle):
        Network.load(path)
    # Nothing changes: the state searched with a bad file is as it was.
    state = splendor.new_game("base", seed=2)
    before = state.to_json()
    with pytest.raises(NetworkError):
        search(state, iterations=10, network=path)
    with pytest.raises(NetworkError):
        MctsBot(iterations=10, network=path)
    assert state.to_json() == before
    assert issubclass(NetworkError, splendor.SplendorError)


def test_missing_file_and_wrong_argument(tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match="cannot read"):
        Network.load(tmp_path / "absent.safetensors")
    with pytest.raises(ConfigError, match="network must be"):
        MctsBot(network=42)  # type: ignore[arg-type]
    net = Network.from_bytes(encode(*random_tensors("base", 2, (8,), seed=1)))
    with pytest.raises(NetworkError, match="observation has 3 values"):
        net.evaluate(np.zeros(3, dtype=np.float32))


def test_arguments_of_the_wrong_kind_are_config_errors(tmp_path: Path) -> None:
    data = encode(*random_tensors("base", 2, (8,), seed=1))
    net = Network.from_bytes(data)
    obs = splendor.new_game("base", seed=1).observation(0)
    for bad in (obs.astype(np.float64), obs.tolist(), obs.reshape(1, -1), None, "obs"):
        with pytest.raises(ConfigError, match="observation must be a 1-d float32 NumPy array"):
            net.evaluate(bad)  # type: ignore[arg-type]
    for data_bad in (bytearray(data), memoryview(data), data.decode("latin-1"), None):
        with pytest.raises(ConfigError, match="data must be bytes"):
            Network.from_bytes(data_bad)  # type: ignore[arg-type]
    for path_bad in (b"net.safetensors", 3, None, [str(tmp_path)]):
        with pytest.raises(ConfigError, match="path must be a path"):
            Network.load(path_bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="lone surrogate"):
        Network.load("net-\ud800.safetensors")
    with pytest.raises(ConfigError, match="lone surrogate"):
        MctsBot(network="net-\ud800.safetensors")
    with pytest.raises(ConfigError, match=r"Network has no constructor.*Network\.load"):
        Network()


def test_any_path_and_any_strides_are_read(tmp_path: Path) -> None:
    data = encode(*random_tensors("base", 2, (8,), seed=1))
    # A file name that is not UTF-8 arrives as os.listdir gives it, with
    # surrogate escapes: it names a real file.
    raw = tmp_path / os.fsdecode(b"net-\xff.safetensors")
    raw.write_bytes(data)
    for path in (raw, str(raw), os.fsdecode(bytes(raw))):
        assert Network.load(path).to_bytes() == data
    net = Network.from_bytes(data)
    obs = splendor.new_game("base", seed=1).observation(0)
    strided = np.repeat(obs, 2)[::2]
    assert not strided.flags.c_contiguous
    for got, want in zip(net.evaluate(strided), net.evaluate(obs), strict=True):
        assert np.array_equal(got, want)


def test_a_network_for_another_game_is_refused() -> None:
    duel = Network.from_bytes(encode(*random_tensors("duel", 2, (8,), seed=1)))
    base3 = Network.from_bytes(encode(*random_tensors("base", 3, (8,), seed=1)))
    state = splendor.new_game("base", seed=1)
    before = state.to_json()
    for net in (duel, base3):
        with pytest.raises(NetworkError, match="not base with 2"):
            search(state, iterations=10, network=net)
        with pytest.raises(NetworkError, match="not base with 2"):
            MctsBot(iterations=10, network=net).act(state)
    assert state.to_json() == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_with_a_network(variant: str) -> None:
    net = Network.from_bytes(encode(*random_tensors(variant, 2, (32, 32), seed=4)))
    state = splendor.new_game(variant, seed=3)
    for threads in (1, 2):
        r = search(state, iterations=300, threads=threads, seed=5, network=net)
        assert r.iterations == 300
        assert r.action in state.legal_actions()
        assert sum(r.visits.values()) == 300 - threads
        again = search(state, iterations=300, threads=threads, seed=5, network=net)
        assert (again.visits, again.values) == (r.visits, r.values)
    bot = MctsBot(iterations=100, seed=1, network=net)
    assert bot.network_sha256 == net.sha256
    assert "network=" in repr(bot)
    assert bot.act(state) in state.legal_actions()


@pytest.mark.parametrize(
    ("variant", "players"),
    [(v, 2) for v in VARIANTS] + [("base", 3), ("base", 4), ("marvel", 3), ("marvel", 4)],
)
def test_search_with_a_network_reads_nothing_hidden(variant: str, players: int) -> None:
    net = Network.from_bytes(encode(*random_tensors(variant, players, (32, 32), seed=4)))
    state = splendor.new_game(variant, players=players, seed=1)
    bot = RandomBot(seed=11)
    for _ in range(10 if players == 2 else 6 * players):
        state.apply(bot.act(state))
    p = state.current_player
    a, b = state.determinize(p, seed=1), state.determinize(p, seed=2)
    assert a.to_json() != b.to_json() and a.to_json(p) == b.to_json(p)
    for threads in (1, 2):
        ra = search(a, iterations=800, threads=threads, seed=2, network=net)
        rb = search(b, iterations=800, threads=threads, seed=2, network=net)
        assert (ra.action, ra.visits, ra.values) == (rb.action, rb.visits, rb.values)


def constant_network(policy_bias: dict[int, float], value_bias: list[float]) -> Network:
    """Every weight zero: the logits are the biases, whatever the position."""
    meta, t = random_tensors("base", len(value_bias), (8,), seed=1)
    for k in t:
        if k.endswith(("weight", "bias")):
            t[k] = np.zeros_like(t[k])
    for a, b in policy_bias.items():
        t["policy.bias"][a] = b
    t["value.bias"] = np.array(value_bias, dtype=np.float32)
    return Network.from_bytes(encode(meta, t))


def test_the_prior_steers_the_search() -> None:
    state = splendor.new_game("base", seed=4)
    legal = state.legal_actions()
    for favourite in (legal[0], legal[-1]):
        net = constant_network({favourite.id: 12.0}, [0.0, 0.0])
        r = search(state, iterations=400, seed=1, network=net)
        assert r.action == favourite
        assert r.visits[favourite] > 300


def test_the_value_head_is_used() -> None:
    state = splendor.new_game("base", seed=4)
    budget = len(state.legal_actions()) + 1
    # One visit per move, one ply deep, where the opponent is to move: a
    # "mover wins" network says we lose there, a "mover loses" one that we win.
    wins = search(state, iterations=budget, seed=1, network=constant_network({}, [8.0, -8.0]))
    loses = search(state, iterations=budget, seed=1, network=constant_network({}, [-8.0, 8.0]))
    assert set(wins.visits.values()) == {1} == set(loses.visits.values())
    assert max(wins.values.values()) < 1e-6
    assert min(loses.values.values()) > 1 - 1e-6


def test_net_specs_in_match_and_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = encode(*random_tensors("base", 2, (16,), seed=2))
    path = tmp_path / "best.safetensors"
    path.write_bytes(data)
    r = splendor.match([f"net:20@{path}", "random"], games=2, seed=1)
    assert r.games == 2
    assert r.bots[0]["name"].startswith("net:20@")
    # Path-less specs name the shipped network, which may not exist.
    monkeypatch.setattr(nets, "NETS_DIR", tmp_path / "nets")
    with pytest.raises(ConfigError, match="no network is shipped for base with 2 players"):
        splendor.match(["net:20", "random"], games=2)
    with pytest.raises(ConfigError, match="no network is shipped"):
        make_bot("net:20", 1, "base", 2)
    (tmp_path / "nets").mkdir()
    (tmp_path / "nets" / "base-2p.safetensors").write_bytes(data)
    r = splendor.match(["net:0.01s", "random"], games=2, seed=1)
    # The shipped base 2-player network is searched 4 leaves per batch, whatever the budget.
    assert r.bots[0]["name"].startswith("net:0.01s:batch=4@")
    bot = make_bot("net:30", 1, "base", 2)
    assert isinstance(bot, MctsBot)
    assert bot.network_sha256 == hashlib.sha256(data).hexdigest()
    timed = make_bot(f"net:1s@{path}", 1)
    assert isinstance(timed, MctsBot) and timed.time_limit == 1.0
    with pytest.raises(ConfigError, match="unknown bot"):
        make_bot("net:lots", 1)
    with pytest.raises(NetworkError, match="cannot read"):
        splendor.match([f"net:20@{tmp_path / 'absent'}", "random"], games=2)


def test_default_spec_is_the_shipped_network_where_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The package ships a base 2-player network (docs/network.md, "The shipped networks").
    shipped = nets.NETS_DIR / "base-2p.safetensors"
    network = splendor.Network.load(shipped)
    assert (network.variant, network.players, network.features) == ("base", 2, "needs")
    # It is 128,128 wide and searched with 4 leaves per forward pass (issue 22).
    assert network.hidden == [128, 128]
    # Its search has the 2-player games' tree policy (docs/network.md, "Tree policy settings").
    assert bots.default_bot_spec("base", 2) == "net:3500:batch=4:fpu=0.2:ptemp=1.4"
    bot = make_bot("default", 3, "base", 2)
    assert isinstance(bot, MctsBot) and (bot.iterations, bot.leaf_batch) == (3500, 4)
    assert (bot.fpu_reduction, bot.policy_temperature) == (0.2, 1.4)
    assert bot.network_sha256 == hashlib.sha256(shipped.read_bytes()).hexdigest()
    # Duel ships one too, searched for fewer iterations (the time of 60f7934's default there).
    duel_shipped = nets.NETS_DIR / "duel-2p.safetensors"
    duel_network = splendor.Network.load(duel_shipped)
    assert (duel_network.variant, duel_network.players, duel_network.features) == (
        "duel",
        2,
        "needs",
    )
    # 128,128 wide too (issue 22), searched 4 leaves per forward pass.
    assert duel_network.hidden == [128, 128]
    assert bots.default_bot_spec("duel", 2) == "net:1350:batch=4:fpu=0.2:ptemp=1.4"
    duel_bot = make_bot("DEFAULT ", 3, "duel", 2)
    assert isinstance(duel_bot, MctsBot) and (duel_bot.iterations, duel_bot.leaf_batch) == (1350, 4)
    assert duel_bot.network_sha256 == hashlib.sha256(duel_shipped.read_bytes()).hexdigest()
    # Every shipped file has its own iteration figure, and each names its own game.
    for path in nets.NETS_DIR.glob("*.safetensors"):
        net = splendor.Network.load(path)
        assert path.name == f"{net.variant}-{net.players}p.safetensors"
        assert (net.variant, net.players) in nets.SHIPPED_NET_ITERATIONS
    # Marvel's too (issue 22).
    marvel_shipped = nets.NETS_DIR / "marvel-2p.safetensors"
    assert splendor.Network.load(marvel_shipped).hidden == [128, 128]
    assert bots.default_bot_spec("marvel", 2) == "net:2900:batch=4:fpu=0.2:ptemp=1.4"
    marvel_bot = make_bot("default", 3, "marvel", 2)
    assert isinstance(marvel_bot, MctsBot)
    assert (marvel_bot.iterations, marvel_bot.leaf_batch) == (2900, 4)
    assert marvel_bot.network_sha256 == hashlib.sha256(marvel_shipped.read_bytes()).hexdigest()
    r = splendor.match(["default", "random"], variant="marvel", games=2, seed=1)
    assert r.bots[0]["name"].startswith("net:2900:batch=4:fpu=0.2:ptemp=1.4@")
    # Base and Marvel with 3 and 4 players ship a network each, searched 4 leaves per forward
    # pass, at the iterations that take the time of 60f7934's default over whole games, with
    # the 2-player games' tree policy, a smaller exploration weight and the early stop.
    multiplayer = (
        ("base", 3, 4500),
        ("marvel", 3, 2950),
        ("base", 4, 3400),
        ("marvel", 4, 1500),
    )
    tree = ":c=0.5:fpu=0.2:ptemp=1.4:stop=1"
    for variant, players, iterations in multiplayer:
        assert bots.default_bot_spec(variant, players) == f"net:{iterations}:batch=4{tree}"
        bot = make_bot("default", 3, variant, players)
        assert isinstance(bot, MctsBot) and (bot.iterations, bot.leaf_batch) == (iterations, 4)
        shipped_file = nets.NETS_DIR / f"{variant}-{players}p.safetensors"
        assert bot.network_sha256 == hashlib.sha256(shipped_file.read_bytes()).hexdigest()
        assert (bot.fpu_reduction, bot.policy_temperature) == (0.2, 1.4)
        assert (bot.exploration, bot.early_stop) == (0.5, 1.0)
        seats = ["default"] + ["random"] * (players - 1)
        r = splendor.match(seats, variant=variant, players=players, games=1, seed=1)
        assert r.bots[0]["name"].startswith(f"net:{iterations}:batch=4{tree}@")
    r = splendor.match(["default", "random"], variant="duel", games=2, seed=1)
    assert r.bots[0]["name"].startswith("net:1350:batch=4:fpu=0.2:ptemp=1.4@")
    r = splendor.match(["default", "random"], games=2, seed=1)
    assert r.bots[0]["name"].startswith("net:3500:batch=4:fpu=0.2:ptemp=1.4@")
    # Take the shipped file away and base falls back to the rollout search too.
    monkeypatch.setattr(nets, "NETS_DIR", tmp_path / "none")
    assert bots.default_bot_spec("base", 2) == "mcts:1000"
    fallback = make_bot("default", 3, "base", 2)
    assert isinstance(fallback, MctsBot) and fallback.network_sha256 is None
    assert (fallback.iterations, bots.default_bot_spec("marvel", 4)) == (1000, "mcts:1000")
    r = splendor.match(["default", "random", "random", "random"], players=4, games=2, seed=1)
    assert r.bots[0]["name"] == "mcts:1000"


def test_the_b132d65_base_network_evaluates_its_stored_positions_as_before() -> None:
    # 40 positions of greedy games with the shipped network's extras and outputs. The extras
    # were recorded before `needs` was extended to Duel and Marvel and must stay identical;
    # the outputs were re-recorded (from the same extras) each time a new self-play
    # generation replaced the shipped network, up to generation 3 (docs/network.md), which
    # the package keeps as the reference network of b132d65 since a 128-wide one replaced it.
    stored = np.load(Path(__file__).parent / "data" / "base" / "shipped_net_positions.npz")
    shipped = nets.REFERENCE_DIR / "b132d65" / "base-2p.safetensors"
    assert hashlib.sha256(shipped.read_bytes()).hexdigest().startswith("744fa98812c2")
    network = splendor.Network.load(shipped)
    assert stored["obs"].shape == (40, network.obs_size) and stored["extras"].shape == (40, 118)
    for obs, extras, logits, value in zip(
        stored["obs"], stored["extras"], stored["logits"], stored["value"], strict=True
    ):
        assert np.array_equal(network.input_features(obs), np.concatenate([obs, extras]))
        got_logits, got_value = network.evaluate(obs)
        np.testing.assert_allclose(got_logits, logits, rtol=0, atol=1e-6)
        np.testing.assert_allclose(got_value, value, rtol=0, atol=1e-6)


def test_play_defaults_to_the_default_ai() -> None:
    from splendor.cli import build_parser

    assert build_parser().parse_args(["play"]).bot == "default"
    assert inspect.signature(play_main).parameters["bot"].default == "default"


def test_play_cli_with_a_network(tmp_path: Path) -> None:
    import io

    from splendor.play import main as play_main

    path = tmp_path / "best.safetensors"
    path.write_bytes(encode(*random_tensors("base", 2, (16,), seed=2)))
    out = io.StringIO()
    # Seat 1: the network bot moves first, then the person quits.
    status = play_main(bot=f"net:20@{path}", seat=1, stdin=io.StringIO("quit\n"), stdout=out)
    assert status == 0
    assert "seat 0 (bot):" in out.getvalue()


def test_match_cli_with_a_network(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from splendor import cli

    path = tmp_path / "best.safetensors"
    path.write_bytes(encode(*random_tensors("base", 2, (16,), seed=2)))
    code = cli.main(["match", "--bots", f"net:10@{path},random", "--games", "2", "--no-progress"])
    assert code == 0
    assert "net:10@" in capsys.readouterr().out
    # A bad file is a clean command-line error, not a traceback.
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"not a network")
    assert cli.main(["match", "--bots", f"net:10@{bad},random", "--games", "2"]) == 2
    assert "not a valid safetensors" in capsys.readouterr().err


def test_input_features_of_a_raw_network_and_its_argument_errors() -> None:
    net = Network.from_bytes(encode(*random_tensors("base", 2, (8,), seed=1)))
    assert net.features == "raw" and "features=" in repr(net)
    obs = splendor.new_game("base", seed=1).observation(0)
    got = net.input_features(obs)
    assert got.dtype == np.float32 and np.array_equal(got, obs)
    with pytest.raises(NetworkError, match="observation has 3 values"):
        net.input_features(np.zeros(3, dtype=np.float32))
    with pytest.raises(ConfigError, match="observation must be a 1-d float32 NumPy array"):
        net.input_features(obs.astype(np.float64))


def test_weights_that_can_overflow_float32_are_refused(tmp_path: Path) -> None:
    meta, t = random_tensors("base", 2, (8, 8), seed=1)
    huge = tmp_path / "huge.safetensors"
    for name in ("trunk.0.weight", "trunk.1.bias", "policy.weight", "value.weight"):
        data = encode(meta, {**t, name: np.full_like(t[name], 3e38)})
        with pytest.raises(NetworkError, match="the weights are too large"):
            Network.from_bytes(data)
        huge.write_bytes(data)
        with pytest.raises(NetworkError, match="the weights are too large"):
            Network.load(huge)
        with pytest.raises(NetworkError, match="the weights are too large"):
            search(splendor.new_game("base", seed=1), iterations=10, network=huge)
    # Each weight modest, their sums beyond float32 two layers on.
    data = encode(meta, {**t, "trunk.1.weight": np.full_like(t["trunk.1.weight"], 1e24)})
    with pytest.raises(NetworkError, match=r"`trunk\.1` can reach"):
        Network.from_bytes(data)


def test_outputs_are_finite_and_observations_in_range() -> None:
    meta, t = random_tensors("base", 2, (8, 8), seed=1)
    # Large weights the bound allows: finite outputs at the edge of the range.
    big = {**t, "trunk.0.weight": np.full_like(t["trunk.0.weight"], 1e6)}
    net = Network.from_bytes(encode(meta, big))
    obs = np.full(net.obs_size, 65536.0, dtype=np.float32)
    for sign in (1, -1):
        logits, value = net.evaluate(sign * obs)
        assert np.isfinite(logits).all() and np.isfinite(value).all()
        assert value.sum() == pytest.approx(1.0)
    for bad in (np.nan, np.inf, -np.inf, 65537.0):
        wrong = obs.copy()
        wrong[5] = bad
        with pytest.raises(ConfigError, match=r"observation\[5\] is .*finite, within"):
            net.evaluate(wrong)
        with pytest.raises(ConfigError, match=r"observation\[5\]"):
            net.input_features(wrong)
    result = search(splendor.new_game("base", seed=1), iterations=50, network=net)
    assert np.isfinite(list(result.values.values())).all()


#: Tries every entry point that reads a network file on the path given, in a
#: process whose memory is capped, printing one line per entry point.
ENTRY_POINTS = """
import resource, subprocess, sys
import splendor
from splendor import selfplay
from splendor.bots import make_bot
path = sys.argv[1]
limit = 3 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
state = splendor.new_game("base", seed=1)
calls = {
    "load": lambda: splendor.Network.load(path),
    "search": lambda: splendor.search(state, iterations=5, network=path),
    "MctsBot": lambda: splendor.MctsBot(iterations=5, network=path),
    "net:N@PATH": lambda: make_bot(f"net:5@{path}", seed=1),
    "match": lambda: splendor.match([f"net:5@{path}", "random"], games=1),
    "selfplay": lambda: selfplay.selfplay("base", sys.argv[2], games=1, network=path),
}
for name, call in calls.items():
    try:
        call()
        print(name, "loaded")
    except splendor.errors.NetworkError as exc:
        print(name, "NetworkError", exc)
cli = subprocess.run(
    [sys.executable, "-m", "splendor.cli", "selfplay", "--games", "1", "--out", sys.argv[2],
     "--network", path, "--no-progress"],
    capture_output=True, text=True, timeout=60,
)
print("cli", cli.returncode, cli.stderr.count("\\n"), cli.stderr.strip())
"""


def special_files(tmp_path: Path) -> list[tuple[str, Path, str]]:
    fifo = tmp_path / "fifo.safetensors"
    os.mkfifo(fifo)
    sparse = tmp_path / "big.safetensors"
    with open(sparse, "wb") as f:
        f.truncate((1 << 30) + 1)  # over the 1 GiB limit, no disk used
    folder = tmp_path / "folder.safetensors"
    folder.mkdir()
    return [
        ("fifo", fifo, "it is not a regular file"),
        ("dev-zero", Path("/dev/zero"), "it is not a regular file"),
        ("folder", folder, "it is a folder"),
        ("oversize", sparse, "over the limit of 1073741824"),
    ]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "oversize"])
def test_only_regular_files_within_the_limit_are_read(tmp_path: Path, kind: str) -> None:
    import subprocess
    import sys

    path, message = next((p, m) for k, p, m in special_files(tmp_path) if k == kind)
    # A FIFO with no writer blocked every reader for ever, /dev/zero was read
    # until memory ran out: the timeout and the memory cap make such a
    # regression fail instead of hang.
    proc = subprocess.run(
        [sys.executable, "-c", ENTRY_POINTS, str(path), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 7, proc.stdout
    for line in lines[:6]:
        assert "NetworkError" in line and message in line, line
    assert lines[6].startswith("cli 2 1 splendor selfplay: error: "), lines[6]
    assert message in lines[6], lines[6]


def test_leaf_batch_is_checked_and_plays_legal_moves() -> None:
    """``leaf_batch`` (docs/network.md, "Batched leaf evaluation"): out of 1..=256 is a
    ConfigError naming it; a good value searches exactly its budget, reproducibly, and
    the bot keeps it through repr and pickle."""
    net = Network.from_bytes(encode(*random_tensors("base", 2, (32, 32), seed=4)))
    state = splendor.new_game("base", seed=3)
    for bad in (0, 257, -1):
        with pytest.raises(ConfigError, match="leaf_batch"):
            search(state, iterations=10, network=net, leaf_batch=bad)
        with pytest.raises(ConfigError, match="leaf_batch"):
            MctsBot(iterations=10, network=net, leaf_batch=bad)
    for threads in (1, 2):
        r = search(state, iterations=300, threads=threads, seed=5, network=net, leaf_batch=8)
        assert r.iterations == 300
        assert r.action in state.legal_actions()
        again = search(state, iterations=300, threads=threads, seed=5, network=net, leaf_batch=8)
        assert (again.visits, again.values) == (r.visits, r.values)
    bot = MctsBot(iterations=100, seed=1, network=net, leaf_batch=8)
    assert "leaf_batch=8" in repr(bot)
    assert "leaf_batch" not in repr(MctsBot(iterations=100, network=net))
    twin = pickle.loads(pickle.dumps(bot))
    assert repr(twin) == repr(bot)
    assert bot.act(state) == twin.act(state)
    assert bot.act(state) in state.legal_actions()
