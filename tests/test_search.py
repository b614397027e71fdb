"""The search, bots and match from Python (Rust engine)."""

from __future__ import annotations

import io
import json
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import splendor
from splendor import GreedyBot, MctsBot, RandomBot, cli, search
from splendor import match as play_match
from splendor.arena import ProgressBar
from splendor.bots import parse_bots
from splendor.errors import ConfigError, InvalidStateError

VARIANTS = [v for v in ("base", "duel", "marvel") if v in splendor.VARIANTS]


def opening(variant: str, seed: int = 1) -> Any:
    return splendor.new_game(variant, seed=seed)


def finished(variant: str) -> Any:
    state = opening(variant)
    bot = RandomBot(seed=3)
    while not state.is_terminal():
        state.apply(bot.act(state))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_bot_plays_legal_moves_in_every_variant(variant: str) -> None:
    state = opening(variant)
    bots: list[RandomBot | GreedyBot | MctsBot] = [
        RandomBot(seed=1),
        GreedyBot(seed=1),
        MctsBot(iterations=50, seed=1),
    ]
    for _ in range(12):
        if state.is_terminal():
            break
        for bot in bots:
            assert bot.act(state) in state.legal_actions()
        state.apply(bots[state.current_player % 3].act(state))


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_statistics(variant: str) -> None:
    state = opening(variant)
    r = search(state, iterations=400, seed=5)
    legal = state.legal_actions()
    assert r.action in legal
    assert set(r.visits) == set(legal)
    assert set(r.values) == set(legal)
    assert sum(r.visits.values()) == r.iterations == 400
    assert all(0.0 <= v <= 1.0 for v in r.values.values())
    assert r.visits[r.action] == max(r.visits.values())
    # Each iteration creates the children of at most one node (the PUCT
    # expansion), plus at most one child legal only in its determinization.
    assert len(legal) < r.nodes <= 1 + 400 * (state.num_actions + 1)
    assert "SearchResult" in repr(r)


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_is_reproducible(variant: str) -> None:
    state = opening(variant)
    for threads in (1, 2):
        a = search(state, iterations=600, threads=threads, seed=9)
        b = search(state, iterations=600, threads=threads, seed=9)
        assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    bot_a, bot_b = MctsBot(iterations=200, seed=4), MctsBot(iterations=200, seed=4)
    assert [bot_a.act(state) for _ in range(3)] == [bot_b.act(state) for _ in range(3)]


def hidden_twins(variant: str) -> tuple[Any, Any]:
    """Two states the player to move cannot tell apart (only hidden cards differ)."""
    state = opening(variant)
    bot = RandomBot(seed=11)
    # Play into the game a little so there is more hidden than the decks.
    for _ in range(10):
        state.apply(bot.act(state))
    p = state.current_player
    a, b = state.determinize(p, seed=1), state.determinize(p, seed=2)
    assert a.to_json() != b.to_json(), "the twins must differ in hidden information"
    assert a.to_json(p) == b.to_json(p), "... and only there"
    return a, b


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_reads_nothing_hidden(variant: str) -> None:
    a, b = hidden_twins(variant)
    for threads in (1, 2):
        ra = search(a, iterations=1500, threads=threads, seed=2)
        rb = search(b, iterations=1500, threads=threads, seed=2)
        assert ra.action == rb.action
        assert ra.visits == rb.visits
        assert ra.values == rb.values
    assert MctsBot(iterations=300, seed=8).act(a) == MctsBot(iterations=300, seed=8).act(b)


def test_time_limit_is_honoured() -> None:
    state = opening("base")
    for limit in (0.0, 0.05, 0.2):
        # Contract: limit + 20 ms. The margin for a loaded machine is in the
        # measurement: preemption only adds time, so one try within the bound
        # (of up to 15) shows the search stops in time.
        best = math.inf
        for _ in range(15):
            t = time.perf_counter()
            r = search(state, time_limit=limit)
            best = min(best, time.perf_counter() - t)
            assert r.iterations >= 1
            if best <= limit + 0.020:
                break
        assert best <= limit + 0.020, f"limit {limit}s took {best:.3f}s"
    # iterations=None with a time limit means "time only".
    assert MctsBot(time_limit=0.1).iterations == 0
    # With both, the iteration budget stops first.
    assert search(state, iterations=50, time_limit=5.0).iterations == 50


def test_node_cap_holds() -> None:
    state = opening("base")
    r = search(state, iterations=3000, max_nodes=100)
    assert r.nodes <= 100
    assert r.iterations == 3000
    r = search(state, iterations=3000, max_nodes=100, threads=2)
    assert r.nodes <= 200


def test_search_releases_the_gil() -> None:
    """A Python thread keeps running while another thread searches."""
    state = opening("base")
    done = threading.Event()
    results: list[Any] = []

    def worker() -> None:
        results.append(search(state, time_limit=0.6))
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    ticks = 0
    start = time.perf_counter()
    worst_gap, last = 0.0, start
    while not done.is_set():
        now = time.perf_counter()
        worst_gap, last = max(worst_gap, now - last), now
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert results and results[0].iterations > 0
    # Holding the GIL would freeze this loop for the whole 0.6 s search.
    assert ticks > 20
    assert worst_gap < 0.3, f"main thread stalled {worst_gap:.3f}s"


def test_two_searches_at_once() -> None:
    state = opening("base")
    out: dict[int, Any] = {}

    def worker(i: int) -> None:
        out[i] = search(state, iterations=1000, seed=i)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        alone = search(state, iterations=1000, seed=i)
        assert out[i].visits == alone.visits


def test_bad_arguments_raise_config_errors() -> None:
    state = opening("base")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"iterations": 0}, "iterations"),
        ({"iterations": -5}, "iterations"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"threads": 0}, "threads"),
        ({"max_nodes": 1}, "max_nodes"),
        ({"exploration": -1.0}, "exploration"),
        ({"rollout_depth": -1}, "rollout_depth"),
        ({"prior_temperature": 0.0}, "prior_temperature"),
        ({"prior_temperature": float("nan")}, "prior_temperature"),
    ]
    for kwargs, word in cases:
        with pytest.raises(ConfigError, match=word):
            search(state, **kwargs)
        with pytest.raises(ValueError, match=word):
            MctsBot(**kwargs)
    done = finished("base")
    for bot in (RandomBot(), GreedyBot(), MctsBot(iterations=10)):
        with pytest.raises(ConfigError, match="terminal"):
            bot.act(done)
    with pytest.raises(ConfigError, match="terminal"):
        search(done)
    with pytest.raises(InvalidStateError, match="state of the Rust engine"):
        search("not a state")  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="state of the Rust engine"):
        RandomBot().act(42)  # type: ignore[arg-type]


def test_match_results_and_json() -> None:
    calls: list[tuple[int, int]] = []
    r = play_match(
        [GreedyBot(), "random"],
        variant="base",
        players=2,
        games=6,
        seed=3,
        threads=2,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert calls[-1] == (6, 6) and len(calls) == 6
    assert r.games == 6 and r.players == 2 and r.variant == "base"
    assert [b["name"] for b in r.bots] == ["greedy", "random"]
    assert all(b["games"] == 6 for b in r.bots)
    total = sum(b["wins"] for b in r.bots)
    assert math.isclose(total, 6 - r.truncated)
    assert sum(r.reasons.values()) == 6
    data = json.loads(r.to_json())
    assert data["games"] == 6 and data["bots"][0]["name"] == "greedy"
    for b in r.bots:
        assert 0.0 <= b["ci_low"] <= b["win_rate"] <= b["ci_high"] <= 1.0
    again = play_match([GreedyBot(), "random"], variant="base", games=6, seed=3, threads=1)
    assert again.to_json() == r.to_json()


def test_match_bad_arguments() -> None:
    with pytest.raises(ConfigError, match="bot 1 is not a bot"):
        play_match([RandomBot(), 42], games=2)  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="unknown bot"):
        play_match(["random", "alphago"], games=2)
    with pytest.raises(ConfigError, match="variant"):
        play_match(["random", "random"], variant="chess", games=2)
    with pytest.raises(ConfigError, match="games"):
        play_match(["random", "random"], games=0)
    with pytest.raises(ConfigError):
        play_match(["random", "random"], players=7, games=2)


def test_progress_errors_stop_the_match() -> None:
    def boom(done: int, total: int) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        play_match(["random", "random"], games=50, progress=boom)


def test_cli_match_table_progress_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.json"
    code = cli.main(
        [
            "match",
            "--variant",
            "base",
            "--players",
            "4",
            "--games",
            "8",
            "--bots",
            "greedy,random",
            "--threads",
            "2",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].split()[:5] == ["bot", "games", "wins", "win", "rate"]
    assert lines[2].startswith("greedy") and lines[3].startswith("random")
    assert "95% CI (Wilson)" in lines[0]
    assert "base, 4 players, 8 games" in captured.out
    assert "average length:" in captured.out and "end reasons:" in captured.out
    # Not a terminal: the progress bar prints a line per tenth, ending at 8/8.
    assert "8/8 games" in captured.err
    data = json.loads(out.read_text())
    # The last bot fills the free seats: 3 seats x 8 games.
    assert [b["games"] for b in data["bots"]] == [8, 24]
    assert data["players"] == 4


def test_cli_match_bad_bots_exit_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "--bots", "greedy,,random", "--games", "2"]) == 2
    assert cli.main(["match", "--bots", "greedy,chess", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "bad bot list" in err and "unknown bot" in err


def test_parse_bots_and_progress_bar() -> None:
    assert parse_bots(" mcts:500 ,greedy") == ["mcts:500", "greedy"]
    with pytest.raises(ConfigError):
        parse_bots("")
    stream = io.StringIO()
    bar = ProgressBar(stream)
    for done in range(1, 21):
        bar(done, 20)
    text = stream.getvalue()
    assert text.count("\n") == 11  # 0/10 .. 10/10 tenths (first call is tenth 0)
    assert "20/20 games" in text and "[" + "#" * 30 + "]" in text


@pytest.mark.parametrize("variant", VARIANTS)
def test_prior_temperature_none_is_plain_uct(variant: str) -> None:
    state = opening(variant)
    legal = state.legal_actions()
    # UCT adds one node per iteration; PUCT expands the root at once.
    uct = search(state, iterations=200, seed=2, prior_temperature=None)
    assert uct.nodes <= 201
    assert sum(uct.visits.values()) == 200
    puct = search(state, iterations=200, seed=2)
    assert puct.nodes > len(legal)
    assert puct.visits != uct.visits
    assert "prior_temperature=None" in repr(MctsBot(prior_temperature=None))
    assert MctsBot(iterations=50, prior_temperature=None).act(state) in legal
