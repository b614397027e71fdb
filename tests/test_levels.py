"""The AI levels (``level:1`` ... ``level:10``) and the move temperature they play with.

Every level resolves and plays in every game and player count; ``level:10`` is the default
AI; the levels are ordered, in a quick arena here and on the committed ladder
(docs/ladder.md, "AI levels"; the full ladder is ``benches/levels_ladder.py``).
"""

from __future__ import annotations

import itertools
import pickle
from collections import Counter
from pathlib import Path

import pytest
import splendor
from splendor.bots import LEVELS, default_bot_spec, level_spec, make_bot, resolve_bot_spec
from splendor.errors import ConfigError

GAMES = [("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 3)]
GAMES += [("marvel", 4)]

#: The levels' ladder for base with 2 players (benches/levels_ladder.py), with the pairs of
#: the reference bots it was fitted with.
DOCS_LADDER = Path(__file__).resolve().parent.parent / "docs" / "ladder"
LEVELS_LADDER = DOCS_LADDER / "base-2p-levels.jsonl"


def test_the_levels_are_named_weakest_first() -> None:
    assert [level.number for level in LEVELS] == list(range(1, 11))
    assert [level.spec for level in LEVELS] == [f"level:{n}" for n in range(1, 11)]
    names = [level.name for level in LEVELS]
    assert (names[0], names[-1]) == ("Beginner", "Strongest")
    assert len(set(names)) == len(names)
    # Only the top level plays the most visited move; every other draws at a temperature.
    assert [level.temperature > 0 for level in LEVELS] == [True] * 9 + [False]


#: SHA-256 of the network each game's levels were placed with (commit 60f7934's shipped
#: networks): levels 1-9 search these, whatever the game ships today.
PLACED_NETWORKS = {
    ("base", 2): "335582728948111bc1cbf213f8981df7b1c40ef81e6d58f594a64309c4310383",
    ("base", 3): "9799ca778b09d8e93094eb2ef6e0fcce49465eddb53fd1b8eaa9a8018eafe7d9",
    ("base", 4): "3a62b860f83c23c277e1a56e2c8784f7ec0b50371bc3bfb87410894b116bdddb",
    ("duel", 2): "5c8ccac452708409dd2da18c53f6223390064294625a855c8166da90448f80ed",
    ("marvel", 2): "864eff2a2e2a0141e493e15f1d78f36c0f55088bc3a6425e654ad63a01fc1202",
    ("marvel", 3): "36325d2b667052f7a4789b7db1019a4d55445e47a4fe46cc8c4b6650b044f794",
    ("marvel", 4): "7788b6548bed5cd1918c3663ece7b3999fa09a75e812597c9484842f59b4868f",
}


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_level_resolves_and_plays_in_every_game(variant: str, players: int) -> None:
    shipped = splendor.nets.shipped_network_path(variant, players)
    state = splendor.new_game(variant, players=players, seed=5)
    for level in LEVELS:
        resolved = resolve_bot_spec(level.spec, variant, players)
        spec = splendor.parse_bot_spec(resolved)
        assert spec.kind == "net", resolved
        bot = make_bot(f" LEVEL: {level.number}", 7, variant, players)
        assert isinstance(bot, splendor.MctsBot)
        if level.number == 10:
            # The default AI: the shipped network, the most visited move.
            assert resolved == resolve_bot_spec("default", variant, players)
            assert spec.network == str(shipped)
            assert spec.move_temperature is None
        else:
            # The network the levels were placed with (the shipped one, or 60f7934's kept
            # as a reference where the shipped one moved on), searched at a temperature.
            assert bot.network_sha256 == PLACED_NETWORKS[variant, players], resolved
            placed_with = splendor.nets.level_network(variant, players)
            if placed_with is None:
                assert spec.network == str(shipped)
            else:
                kept = splendor.nets.reference_network_path(placed_with, variant, players)
                assert spec.network == str(kept)
            assert spec.move_temperature == level.temperature
            assert spec.iterations is not None and spec.iterations >= level.min_iterations
            # The search the levels were placed with, not today's default's.
            full, batch = splendor.nets.LEVEL_FULL_SEARCH[variant, players]
            assert spec.leaf_batch == batch
            assert spec.iterations == max(level.min_iterations, round(level.share * full))
        assert bot.move_temperature == level.temperature
        assert bot.act(state) in state.legal_actions()
    # splendor.match reads them too, and names each by what it resolved to.
    result = splendor.match(
        ["level:1", *["level:2"] * (players - 1)], variant=variant, players=players, games=1
    )
    # (A bot's name leaves out a leaf batch of 1, which the level's spec spells out, and
    # names its network by its hash.)
    named = level_spec(1, variant, players).split("@")[0].replace(":batch=1:", ":")
    assert result.bots[0]["name"].startswith(named)


def test_level_ten_is_the_default_ai() -> None:
    for variant, players in GAMES:
        assert level_spec(10, variant, players) == default_bot_spec(variant, players)


def test_levels_outside_the_range_are_refused() -> None:
    for bad in ("level:0", "level:11", "level", "level:2.5"):
        with pytest.raises(ConfigError, match="unknown bot"):
            make_bot(bad, 0)
    with pytest.raises(ConfigError, match="level must be between 1 and 10, got 11"):
        level_spec(11, "base", 2)
    # The engine cannot build a level by itself: only the package knows its network.
    with pytest.raises(ConfigError, match="is an AI level"):
        splendor.parse_bot_spec("level:3").build(seed=0)


def test_a_game_without_a_shipped_network_plays_levels_with_rollouts(
    no_marvel_4p_network: None,
) -> None:
    assert level_spec(3, "marvel", 4) == f"mcts:{LEVELS[2].min_iterations}:temp=2"
    assert level_spec(10, "marvel", 4) == "mcts:1000"
    bot = make_bot("level:3", 1, "marvel", 4)
    assert isinstance(bot, splendor.MctsBot)
    assert (bot.network_sha256, bot.move_temperature) == (None, 2.0)


def _arena(stronger: str, weaker: str, games: int) -> float:
    result = splendor.match([stronger, weaker], games=games, seed=2026)
    first, second = result.bots
    return float(first["wins"] + (games - first["wins"] - second["wins"]) / 2) / games


def test_levels_are_ordered_in_a_quick_arena() -> None:
    # Three levels apart, 20 paired games: a margin no seed reverses (about 300 Elo on the
    # ladder). The full ladder, every neighbour pair, is benches/levels_ladder.py.
    assert _arena("level:4", "level:1", 20) >= 0.7
    assert _arena("level:7", "level:4", 20) >= 0.7
    # Neighbours: 40 games, where the ladder's 100 found a clear step (66 of 100).
    assert _arena("level:3", "level:2", 40) >= 0.65


def test_the_committed_ladder_orders_the_levels_evenly() -> None:
    pytest.importorskip("statsmodels")
    from splendor import ladder

    records = [r for r in ladder.read_results(LEVELS_LADDER) if r.variant == "base"]
    # The ladder names each level by what it plays (benches/levels_ladder.py).
    specs = [level_spec(level.number, "base", 2) for level in LEVELS]
    names = sorted({b for r in records for b in (r.a, r.b)})
    assert set(specs) <= set(names)
    elo = {r.bot: r.elo for r in ladder.fit_elo(records, names, anchor="greedy")}
    gaps = [elo[b] - elo[a] for a, b in itertools.pairwise(specs)]
    # docs/ladder.md: consecutive levels 100-200 Elo apart, none inverted; the fitted
    # gaps carry the noise of 100 games a pair, so the test allows 60 to 260.
    assert all(60 <= gap <= 260 for gap in gaps), gaps


def test_move_temperature_draws_among_the_visited_moves() -> None:
    state = splendor.new_game("base", seed=3)
    plain = splendor.search(state, iterations=200, seed=1)
    assert plain == splendor.search(state, iterations=200, seed=1, move_temperature=0.0)
    drawn = Counter(
        splendor.search(state, iterations=200, seed=s, move_temperature=1.0).action
        for s in range(40)
    )
    # Several different moves: not always the most visited one.
    assert len(drawn) > 1
    for s in range(40):
        result = splendor.search(state, iterations=200, seed=s, move_temperature=1.0)
        # Only a move the search visited is drawn, and the statistics are the plain
        # search's: the draw changes the choice, not the search.
        assert result.visits[result.action] > 0
        assert result.visits == splendor.search(state, iterations=200, seed=s).visits
    # Reproducible for a seed.
    a = splendor.search(state, iterations=200, seed=9, move_temperature=1.0)
    assert a == splendor.search(state, iterations=200, seed=9, move_temperature=1.0)
    for bad in (-1.0, float("inf"), float("nan")):
        with pytest.raises(ConfigError, match="move_temperature must be a finite number >= 0"):
            splendor.MctsBot(move_temperature=bad)


def test_a_bot_with_a_temperature_is_seeded_and_pickles() -> None:
    bot = make_bot("mcts:60:temp=1.5", 4)
    assert isinstance(bot, splendor.MctsBot)
    assert "move_temperature=1.5" in repr(bot)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.move_temperature == 1.5
    state = splendor.new_game("base", seed=8)
    moves = []
    for b in (bot, copy):
        s = state.clone()
        line = []
        for _ in range(12):
            a = b.act(s)
            line.append(int(a))
            s.apply(a)
        moves.append(line)
    assert moves[0] == moves[1]
    # A spec's temperature reaches the engine's own bots (splendor.match) and their names.
    result = splendor.match(["mcts:30:temp=2", "random"], games=2, seed=1)
    assert result.bots[0]["name"] == "mcts:30:temp=2"


def test_the_spec_builds_its_own_bot() -> None:
    for text, kind in (("random", "RandomBot"), ("greedy", "GreedyBot"), ("mcts:9", "MctsBot")):
        built = splendor.parse_bot_spec(text).build(seed=2)
        assert type(built).__name__ == kind
        assert "seed=2" in repr(built)
    path = splendor.nets.shipped_network_path("duel", 2)
    net_bot = splendor.parse_bot_spec(f"net:20:batch=4:temp=0.5@{path}").build(3)
    assert isinstance(net_bot, splendor.MctsBot)
    assert (net_bot.iterations, net_bot.leaf_batch, net_bot.move_temperature) == (20, 4, 0.5)
    assert pickle.loads(pickle.dumps(net_bot)).network_sha256 == net_bot.network_sha256
    with pytest.raises(splendor.NetworkError):
        splendor.parse_bot_spec(f"net:20@{path}.missing").build()


def test_the_command_line_reads_levels(capsys: pytest.CaptureFixture[str]) -> None:
    from splendor import cli

    args = ["match", "--bots", "level:1, Level:2", "--games", "2", "--no-progress"]
    assert cli.main([*args, "--variant", "duel"]) == 0
    table = capsys.readouterr().out
    # (The table names a level's network by its hash.)
    for level in (1, 2):
        assert level_spec(level, "duel", 2).split("@")[0] + "@" in table
    assert cli.main(["match", "--bots", "level:11,random", "--games", "2"]) == 2


def test_the_committed_duel_ladder_orders_the_levels() -> None:
    pytest.importorskip("statsmodels")
    from splendor import ladder

    records = ladder.read_results(DOCS_LADDER / "duel-2p-results.jsonl")
    specs = [level_spec(level.number, "duel", 2) for level in LEVELS]
    names = sorted({b for r in records for b in (r.a, r.b)})
    assert set(specs) <= set(names)
    elo = {r.bot: r.elo for r in ladder.fit_elo(records, names, anchor="greedy")}
    # docs/ladder.md, "Duel, 2 players": ordered, each level above the one below in their
    # own pair too (the steps are uneven there: 44 to 255).
    assert all(elo[b] > elo[a] for a, b in itertools.pairwise(specs))
    pairs = {frozenset((r.a, r.b)): r for r in records}
    for below, above in itertools.pairwise(specs):
        r = pairs[frozenset((below, above))]
        assert (r.score_a if r.a == above else r.score_b) > r.games / 2


def test_the_server_lists_the_levels_and_plays_them() -> None:
    """GET /api/v1 names the levels for the new-table form, and a level is a bot spec the
    service plays: a move, and a table whose AI seat is a level."""
    import json as _json

    from fastapi.testclient import TestClient
    from splendor.bots import LEVELS
    from splendor.web import ServerLimits, create_app

    with TestClient(create_app(ServerLimits(workers=1))) as client:
        info = client.get("/api/v1").json()
        assert [(x["spec"], x["name"]) for x in info["levels"]] == [
            (level.spec, level.name) for level in LEVELS
        ]
        assert info["levels"][0]["name"] == "Beginner" and info["levels"][-1]["name"] == "Strongest"
        state = splendor.new_game("duel", seed=3)
        view = _json.loads(state.to_json(int(state.current_player)))
        r = client.post("/api/v1/move", json={"view": view, "bot": "level:3"})
        assert r.status_code == 200, r.text
        assert r.json()["action"] in [str(a) for a in state.legal_actions()]
        made = client.post("/api/v1/games", json={"seed": 1, "ai_seats": [0], "bot": "level:2"})
        assert made.status_code == 201, made.text
