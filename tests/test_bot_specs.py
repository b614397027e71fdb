"""Bot specs have one parser (``splendor.parse_bot_spec``, the engine's): the engine,
``make_bot``, ``splendor.match``, the command line and the web server read a spec the
same way, refuse a bad one with the same message, and the server checks its limits on
the parsed budget, whatever its spelling (issue 24: ``mcts: 150000``, ``mcts:100_001``,
``mcts:1e9s`` and others ran past the limits; ``net: 50`` failed at every AI move of
a Duel game)."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
import splendor
from splendor import bots, cli
from splendor.bots import make_bot, parse_bots, resolve_bot_spec
from splendor.errors import ConfigError

FORMS = (
    "default, level:1 to level:10, random, greedy, mcts, mcts:N, mcts:Ts, net, net:N, "
    "net:Ts, net:N@PATH or net:Ts@PATH, a net budget optionally followed by :batch=B "
    "(net:N:batch=4@PATH), an mcts or net budget optionally followed by :c=C, then by "
    ":fpu=R, a net budget then by :ptemp=P, either then by :stop=S and by :temp=T last "
    "(mcts:100:temp=0.5, net:N:batch=4:c=0.5:fpu=0.2:ptemp=1.4:stop=1:temp=1@PATH) (N: "
    "iterations, a whole number >= 1 in digits; T: seconds, or after temp= the move "
    "temperature, a number > 0 in digits such as 0.5 or 2; C: the exploration weight, R: "
    "the first-play urgency reduction, P: the temperature of the network's prior and S: "
    "the early stop, numbers > 0 in digits; B: leaves per network evaluation, a whole "
    "number between 1 and 256)"
)

# Spellings outside the grammar: Python's int() and float() took several of them.
BAD = [
    "mcts:100_001",
    "mcts:1.2e1s",
    "mcts:1e9s",
    "mcts:1e3",
    "mcts:infs",
    "mcts:nans",
    "mcts:-5",
    "mcts:+5",
    "mcts:0",
    "mcts:0s",
    "mcts:.5s",
    "mcts:1 000",
    "mcts:\uff15",  # a full-width digit: int() reads it as 5
    "greedy:5",
    "net@x.safetensors",
    "alphago",
    "net:50:batch=0",
    "net:50:batch=257",
    "net:50:batch=2.5",
    "mcts:50:batch=4",
    "net:batch=4",
    "level",
    "level:0",
    "level:11",
    "level:3:temp=1",
    "mcts:100:temp=0",
    "mcts:100:temp=-1",
    "net:50:temp=1:batch=4",
    "mcts:100:fpu=0",
    "mcts:100:ptemp=1.4",
    "net:50:temp=1:fpu=0.2",
    "net:50:ptemp=1.4:fpu=0.2",
    "net:50:ptemp=-1",
    "mcts:100:c=0",
    "net:50:fpu=0.2:c=0.5",
    "net:50:c=0.5:batch=4",
    "level:3:c=0.5",
    "greedy:c=0.5",
    "mcts:100:stop=0",
    "net:50:stop=1:ptemp=1.4",
    "net:50:temp=1:stop=1",
    "level:3:stop=1",
]


def message(spec: str) -> str:
    return f"unknown bot `{spec}`: expected {FORMS}"


@pytest.mark.parametrize(
    ("text", "kind", "iterations", "time_limit", "leaf_batch", "canonical"),
    [
        ("default", "default", None, None, None, "default"),
        (" Greedy ", "greedy", None, None, None, "greedy"),
        ("mcts", "mcts", None, None, None, "mcts"),
        ("mcts: 150000", "mcts", 150_000, None, None, "mcts:150000"),
        ("MCTS:0.5s", "mcts", None, 0.5, None, "mcts:0.5s"),
        ("net: 50", "net", 50, None, None, "net:50"),
        ("net:2s", "net", None, 2.0, None, "net:2s"),
        ("net:900: Batch=4", "net", 900, None, 4, "net:900:batch=4"),
        ("net:0.5s:batch=256", "net", None, 0.5, 256, "net:0.5s:batch=256"),
    ],
)
def test_the_parser(
    text: str,
    kind: str,
    iterations: int | None,
    time_limit: float | None,
    leaf_batch: int | None,
    canonical: str,
) -> None:
    spec = splendor.parse_bot_spec(text)
    assert (spec.kind, spec.iterations, spec.time_limit, spec.leaf_batch, spec.network) == (
        kind,
        iterations,
        time_limit,
        leaf_batch,
        None,
    )
    assert str(spec) == canonical
    assert splendor.parse_bot_spec(str(spec)) == spec == splendor.BotSpec(text)
    assert hash(spec) == hash(splendor.parse_bot_spec(canonical))
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert repr(spec) == f"BotSpec({canonical!r})"


def test_a_file_is_kept_as_written() -> None:
    spec = splendor.parse_bot_spec("net:400@ my nets/best@2.safetensors ")
    assert (spec.kind, spec.iterations, spec.network) == ("net", 400, "my nets/best@2.safetensors")
    assert str(spec) == "net:400@my nets/best@2.safetensors"


@pytest.mark.parametrize("bad", BAD)
def test_every_reader_refuses_a_bad_spec_with_the_one_message(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    readers: list[Any] = [
        lambda: splendor.parse_bot_spec(bad),
        lambda: make_bot(bad, 0),
        lambda: make_bot(bad, 0, "duel", 2),
        lambda: resolve_bot_spec(bad, "base", 2),
        lambda: parse_bots(f"random,{bad}"),
        lambda: splendor.match(["random", bad], games=1),
        lambda: splendor._core.match(["random", bad], games=1),
    ]
    for read in readers:
        with pytest.raises(ConfigError) as caught:
            read()
        assert str(caught.value) == message(bad)
    with pytest.raises(ConfigError) as caught:
        splendor.parse_bot_spec(7)  # type: ignore[arg-type]
    assert "must be a str" in str(caught.value)
    # The command line: `match --bots` and `play --bot` say it in the same words.
    capsys.readouterr()
    assert cli.main(["match", "--bots", f"random,{bad}", "--games", "1", "--no-progress"]) == 2
    assert cli.main(["play", "--bot", bad]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"splendor match: error: {message(bad)}",
        f"splendor play: error: {message(bad)}",
    ]


@pytest.mark.parametrize("text", ["mcts: 7", "MCTS:7", "mcts:0.01s", "greedy", "random"])
def test_make_bot_match_cli_and_server_read_the_same_spec(text: str) -> None:
    from splendor.web.ai import ServerLimits, plan_move

    spec = splendor.parse_bot_spec(text)
    bot = make_bot(text, 0)
    plan = plan_move(text, None, None, ServerLimits())
    assert plan.spec == spec.kind
    assert parse_bots(text) == [str(spec)]
    result = splendor.match([text, "random"], games=2, seed=1)
    if spec.kind == "mcts":
        assert isinstance(bot, splendor.MctsBot)
        assert (plan.iterations, plan.time_limit) == (spec.iterations, spec.time_limit)
        if spec.iterations is not None:
            assert bot.iterations == spec.iterations and bot.time_limit is None
        else:
            assert bot.iterations == 0 and bot.time_limit == spec.time_limit
        assert result.bots[0]["name"] == str(spec)
    else:
        assert type(bot).__name__ == {"greedy": "GreedyBot", "random": "RandomBot"}[spec.kind]
        assert result.bots[0]["name"] == spec.kind


def test_net_specs_resolve_to_the_shipped_network_of_the_game(
    request: pytest.FixtureRequest,
) -> None:
    from splendor.nets import SHIPPED_NET_ITERATIONS, shipped_network_path

    duel = shipped_network_path("duel", 2)
    # The shipped Duel network is searched 4 leaves per forward pass (SHIPPED_NET_LEAF_BATCH).
    assert resolve_bot_spec("net: 50", "duel", 2) == f"net:50:batch=4@{duel}"
    iterations = SHIPPED_NET_ITERATIONS["duel", 2]
    # `net` alone is the default AI, with its tree policy.
    assert (
        resolve_bot_spec("net", "duel", 2) == f"net:{iterations}:batch=4:fpu=0.2:ptemp=1.4@{duel}"
    )
    assert resolve_bot_spec("Default", "duel", 2) == resolve_bot_spec("net", "duel", 2)
    bot = make_bot("net: 50", 0, "duel", 2)
    assert isinstance(bot, splendor.MctsBot) and bot.iterations == 50
    assert bot.network_sha256 == splendor.Network.load(duel).sha256
    state = splendor.new_game("duel", seed=3)
    assert bot.act(state) in state.legal_actions()
    marvel_four = make_bot("net: 50", 0, "marvel", 4)
    assert isinstance(marvel_four, splendor.MctsBot) and marvel_four.network_sha256 is not None
    request.getfixturevalue("no_marvel_4p_network")
    with pytest.raises(ConfigError, match="no network is shipped for marvel with 4 players"):
        make_bot("net: 50", 0, "marvel", 4)


def test_a_leaf_batch_reaches_every_kind_of_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    from splendor import nets
    from splendor.web.ai import ServerLimits, choose, plan_move

    marvel = nets.shipped_network_path("marvel", 2)
    spec = f"net:30:batch=4@{marvel}"
    bot = make_bot(spec, 0, "marvel", 2)
    assert isinstance(bot, splendor.MctsBot) and (bot.iterations, bot.leaf_batch) == (30, 4)
    unbatched = make_bot(f"net:30@{marvel}", 0, "marvel", 2)
    assert isinstance(unbatched, splendor.MctsBot) and unbatched.leaf_batch == 1
    # The engine's own bots (splendor.match) take it too, and name it in the table.
    result = splendor.match([spec, "random"], variant="marvel", games=2, seed=1)
    assert result.bots[0]["name"].startswith("net:30:batch=4@")
    # A path-less net spec gets the shipped network's batch (Marvel's is 4) unless it gives one.
    assert bots.resolve_bot_spec("net:30", "marvel", 2) == f"net:30:batch=4@{marvel}"
    assert bots.resolve_bot_spec("net:30:batch=1", "base", 3).startswith("net:30:batch=1@")
    monkeypatch.delitem(nets.SHIPPED_NET_LEAF_BATCH, ("base", 3))
    assert bots.resolve_bot_spec("net:30", "base", 3).startswith("net:30@")
    monkeypatch.setitem(nets.SHIPPED_NET_LEAF_BATCH, ("marvel", 2), 8)
    iterations = nets.SHIPPED_NET_ITERATIONS["marvel", 2]
    tree = nets.shipped_tree_policy("marvel", 2).spec_options
    assert bots.default_bot_spec("marvel", 2) == f"net:{iterations}:batch=8{tree}"
    assert (
        bots.resolve_bot_spec("default", "marvel", 2) == f"net:{iterations}:batch=8{tree}@{marvel}"
    )
    assert bots.resolve_bot_spec("net:0.5s", "marvel", 2) == f"net:0.5s:batch=8@{marvel}"
    assert bots.resolve_bot_spec("net:30:batch=2", "marvel", 2) == f"net:30:batch=2@{marvel}"
    shipped = make_bot("net:30", 0, "marvel", 2)
    assert isinstance(shipped, splendor.MctsBot) and shipped.leaf_batch == 8
    # The web server's searches: the spec's batch, else the shipped one's.
    seen: list[int] = []
    search = splendor.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["leaf_batch"])
        return search(*args, **kwargs)

    monkeypatch.setattr(splendor, "search", spy)
    state = splendor.new_game("marvel", seed=3)
    for bot_spec, expected in (("net:30:batch=2", 2), ("net:30", 8), ("mcts:30", 1)):
        plan = plan_move(bot_spec, None, None, ServerLimits(), ("marvel", 2))
        assert choose(state, plan, seed=1).action_id in [int(a) for a in state.legal_actions()]
        assert seen[-1] == expected, bot_spec


def test_the_default_ais_tree_policy_reaches_every_kind_of_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from splendor import nets
    from splendor.web.ai import ServerLimits, choose, plan_move

    # Spelled, parsed, built and pickled with the bot.
    spec = splendor.parse_bot_spec(
        " net:30: Batch=4 : C=0.50 :FPU=0.25: ptemp=1.50 : Stop=1.0 :temp=1"
    )
    assert (spec.exploration, spec.fpu_reduction, spec.policy_temperature) == (0.5, 0.25, 1.5)
    assert spec.early_stop == 1.0
    assert str(spec) == "net:30:batch=4:c=0.5:fpu=0.25:ptemp=1.5:stop=1:temp=1"
    marvel = nets.shipped_network_path("marvel", 2)
    bot = make_bot(f"{spec}@{marvel}", 0, "marvel", 2)
    assert isinstance(bot, splendor.MctsBot)
    assert (bot.fpu_reduction, bot.policy_temperature, bot.move_temperature) == (0.25, 1.5, 1.0)
    assert (bot.exploration, bot.early_stop) == (0.5, 1.0)
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.exploration, copy.fpu_reduction, copy.policy_temperature) == (0.5, 0.25, 1.5)
    assert copy.early_stop == 1.0
    assert "exploration=0.5," in repr(copy)
    assert "fpu_reduction=0.25, policy_temperature=1.5, early_stop=1" in repr(copy)
    # Without them a search is the plain PUCT rule.
    plain = make_bot(f"net:30@{marvel}", 0, "marvel", 2)
    assert isinstance(plain, splendor.MctsBot)
    assert (plain.fpu_reduction, plain.policy_temperature) == (0.0, 1.0)
    assert plain.exploration == nets.DEFAULT_EXPLORATION == 0.7
    assert plain.early_stop == 0.0
    assert splendor.parse_bot_spec("net:30").exploration is None
    assert splendor.parse_bot_spec("net:30").early_stop is None
    # A game's entry in SHIPPED_NET_TREE_POLICY goes with its default AI (and `net`
    # alone), after the batch; a budget given (net:N) and the lower levels keep the
    # plain rule, so the levels' ladder places stay as measured.
    # Spelled in the grammar's digits, whatever the float (no exponent).
    assert nets.TreePolicy(0.00001, 2.0).spec_options == ":fpu=0.00001:ptemp=2"
    assert nets.TreePolicy(exploration=0.45).spec_options == ":c=0.45"
    assert nets.TreePolicy(0.2, early_stop=1.0).spec_options == ":fpu=0.2:stop=1"
    assert nets.TreePolicy().spec_options == ""
    monkeypatch.setitem(
        nets.SHIPPED_NET_TREE_POLICY,
        ("marvel", 2),
        nets.TreePolicy(0.3, 1.2, exploration=0.5, early_stop=0.5),
    )
    iterations = nets.SHIPPED_NET_ITERATIONS["marvel", 2]
    tuned = f"net:{iterations}:batch=4:c=0.5:fpu=0.3:ptemp=1.2:stop=0.5"
    assert bots.default_bot_spec("marvel", 2) == tuned
    assert resolve_bot_spec("default", "marvel", 2) == f"{tuned}@{marvel}"
    assert resolve_bot_spec("net", "marvel", 2) == f"{tuned}@{marvel}"
    assert resolve_bot_spec("level:10", "marvel", 2) == f"{tuned}@{marvel}"
    assert ":fpu=" not in resolve_bot_spec("level:9", "marvel", 2)
    assert ":c=" not in resolve_bot_spec("level:9", "marvel", 2)
    assert ":stop=" not in resolve_bot_spec("level:9", "marvel", 2)
    assert resolve_bot_spec("net:30", "marvel", 2) == f"net:30:batch=4@{marvel}"
    default = make_bot("default", 0, "marvel", 2)
    assert isinstance(default, splendor.MctsBot)
    assert (default.fpu_reduction, default.policy_temperature) == (0.3, 1.2)
    assert (default.exploration, default.early_stop) == (0.5, 0.5)
    result = splendor.match(["default", "random"], variant="marvel", games=1, seed=1)
    assert f"{tuned}@" in result.bots[0]["name"]
    # The web server's `net` and `default` are both the default AI's search at the budget
    # asked, its tree policy included unless the spec gives one; `mcts` has none.
    seen: list[tuple[float, ...]] = []
    search = splendor.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        keys = ("fpu_reduction", "policy_temperature", "exploration", "early_stop")
        seen.append(tuple(kwargs[key] for key in keys))
        return search(*args, **kwargs)

    monkeypatch.setattr(splendor, "search", spy)
    state = splendor.new_game("marvel", seed=3)
    limits = ServerLimits(default_iterations=40)
    for bot_spec, expected in (
        ("default", (0.3, 1.2, 0.5, 0.5)),
        ("net", (0.3, 1.2, 0.5, 0.5)),
        ("net:30", (0.3, 1.2, 0.5, 0.5)),
        ("net:30:fpu=0.1", (0.1, 1.0, 0.7, 0.0)),
        ("net:30:ptemp=2", (0.0, 2.0, 0.7, 0.0)),
        ("net:30:c=0.4", (0.0, 1.0, 0.4, 0.0)),
        ("net:30:stop=1", (0.0, 1.0, 0.7, 1.0)),
        ("mcts:30", (0.0, 1.0, 0.7, 0.0)),
        ("mcts:30:c=1.2", (0.0, 1.0, 1.2, 0.0)),
    ):
        plan = plan_move(bot_spec, None, None, limits, ("marvel", 2))
        assert choose(state, plan, seed=1).action_id in [int(a) for a in state.legal_actions()]
        assert seen[-1] == expected, bot_spec


# --- the web server ------------------------------------------------------------------


@pytest.fixture
def client() -> Any:
    from fastapi.testclient import TestClient
    from splendor.web import ServerLimits, create_app

    with TestClient(create_app(ServerLimits(workers=1))) as c:
        yield c


def stored(client: Any) -> int:
    return int(client.app.state.tables.store.count())


def seat_auth(made: Any, seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {made['seats'][seat]['token']}"}


def refused(r: Any, code: str) -> str:
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code, r.text
    return str(r.json()["error"]["message"])


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("mcts: 150000", "budget_too_large"),
        ("net: 100001", "budget_too_large"),
        ("mcts:100_001", "bad_config"),
        ("mcts:1.2e1s", "bad_config"),
        ("mcts:1e9s", "bad_config"),
        ("mcts: 12s", "budget_too_large"),
        ("mcts:10.5s", "budget_too_large"),
    ],
)
def test_the_server_checks_its_limits_on_the_parsed_budget(
    client: Any, spec: str, code: str
) -> None:
    # Refused when the game is created (nothing is stored) ...
    for variant in ("base", "duel"):
        r = client.post("/api/v1/games", json={"variant": variant, "bot": spec, "seed": 1})
        refused(r, code)
    assert stored(client) == 0
    # ... and when asked for a hint or a move with that spec.
    game = client.post("/api/v1/games", json={"seed": 1, "bot": "greedy"}).json()
    hint = client.post(
        f"/api/v1/games/{game['game_id']}/hint", json={"bot": spec}, headers=seat_auth(game, 0)
    )
    refused(hint, code)
    view = splendor.new_game("base", seed=1).to_json(0)
    move = client.post("/api/v1/move", json={"view": json.loads(view), "bot": spec})
    text = refused(move, code)
    if code == "bad_config":
        assert text == message(spec)


def test_net_50_in_duel_uses_the_duel_network(client: Any) -> None:
    game = client.post(
        "/api/v1/games", json={"variant": "duel", "bot": "net: 50", "ai_seats": [1], "seed": 2}
    )
    assert game.status_code == 201, game.text
    # A hint asks the game's AI (the one that plays seat 1) what seat 0 should play.
    move = client.post(
        f"/api/v1/games/{game.json()['game_id']}/hint",
        json={"seed": 1},
        headers=seat_auth(game.json(), 0),
    )
    assert move.status_code == 200, move.text
    assert move.json()["bot"] == "net" and move.json()["iterations"] == 50


def test_a_spec_that_cannot_work_for_the_game_is_refused_when_it_is_created(
    client: Any, no_marvel_4p_network: None
) -> None:
    for spec in ("net: 50", "net", "net:1s"):
        r = client.post(
            "/api/v1/games", json={"variant": "marvel", "players": 4, "bot": spec, "seed": 1}
        )
        assert "no network is shipped for marvel with 4 players" in refused(r, "bad_config")
    assert stored(client) == 0
    # `default` falls back to the rollout search where no network is shipped.
    r = client.post(
        "/api/v1/games",
        json={"variant": "marvel", "players": 4, "bot": "default", "ai_seats": [0]},
    )
    assert r.status_code == 201, r.text
