"""``splendor.review``: a finished game's decisions graded from each mover's view."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import splendor
from splendor.review import GRADES, MIN_VISITS_SHARE, accuracy_of, grade_of, hint, load_game

GAMES = [
    ("base", 2),
    ("base", 3),
    ("base", 4),
    ("duel", 2),
    ("marvel", 2),
    ("marvel", 3),
    ("marvel", 4),
]


def play(variant: str, players: int, seed: int, bots: list[Any] | None = None) -> list[int]:
    """The action ids of a finished game between greedy bots (or ``bots``)."""
    state = splendor.new_game(variant, players=players, seed=seed)
    seats = bots or [splendor.GreedyBot(seed=seed + p) for p in range(players)]
    ids = []
    while not state.is_terminal():
        action = seats[state.current_player].act(state)
        ids.append(int(action))
        state.apply(action)
    return ids


def saved(variant: str, players: int, seed: int, ids: list[int]) -> dict[str, Any]:
    """The game as the web server saves it (``GET /api/v1/games/{id}/save``)."""
    start = splendor.new_game(variant, players=players, seed=seed)
    return {
        "format": "splendor-web-game",
        "version": 1,
        "start": json.loads(start.to_json()),
        "actions": ids,
        "ai_seats": [1],
        "bot": "default",
    }


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_decision_is_graded_in_every_game(variant: str, players: int) -> None:
    ids = play(variant, players, seed=3)
    r = splendor.review(saved(variant, players, 3, ids), "mcts:24")
    assert (r.variant, r.players, r.iterations) == (variant, players, 24)
    assert r.actions == tuple(ids) and len(r.decisions) == len(ids)
    state = splendor.new_game(variant, players=players, seed=3)
    for k, d in enumerate(r.decisions):
        assert d.index == k and d.seat == state.current_player
        assert d.played_id == ids[k] and d.played == str(state.action_from_id(ids[k]))
        assert d.legal == len(state.legal_actions())
        assert 0.0 <= d.win <= 1.0 and 0.0 <= d.played_value <= 1.0
        assert d.loss == (
            0.0 if d.played_id == d.preferred_id else max(0.0, d.win - d.played_value)
        )
        assert d.grade == grade_of(d.loss, d.played_id == d.preferred_id)
        assert d.line[0] == (d.seat, d.preferred)
        if d.focused:
            assert d.played_visits < MIN_VISITS_SHARE * r.iterations
        state.apply(ids[k])
    outcome = state.outcome()
    assert outcome is not None and r.winners == tuple(outcome.winners)
    assert len(r.seats) == players
    assert sum(s.decisions for s in r.seats) == len(ids)
    for s in r.seats:
        mine = [d for d in r.decisions if d.seat == s.seat]
        assert sum(s.grades.values()) == s.decisions and set(s.grades) == set(GRADES)
        assert s.accuracy == pytest.approx(accuracy_of(d.loss for d in mine))
        assert 0.0 <= s.accuracy <= 100.0
        assert s.average_loss == pytest.approx(sum(d.loss for d in mine) / len(mine))
        worst = [r.decisions[i] for i in s.worst]
        assert len(worst) <= 3 and all(d.seat == s.seat and d.loss > 0 for d in worst)
        assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
        biggest = sorted((d.loss for d in mine if d.loss > 0), reverse=True)[:3]
        assert [d.loss for d in worst] == biggest
    # The JSON form holds it all.
    data = json.loads(r.to_json())
    assert data["format"] == "splendor-review" and len(data["decisions"]) == len(ids)


def test_the_same_game_and_seed_give_the_same_review() -> None:
    ids = play("base", 2, seed=5)
    game = saved("base", 2, 5, ids)
    first = splendor.review(game, "mcts:40", seed=7)
    assert splendor.review(game, "mcts:40", seed=7) == first
    # Positions reviewed at once in threads: the same result.
    assert splendor.review(game, "mcts:40", seed=7, threads=2) == first
    # The seed matters.
    assert splendor.review(game, "mcts:40", seed=8) != first


def test_the_forms_of_a_game_agree(tmp_path: Path) -> None:
    ids = play("duel", 2, seed=2)
    game = saved("duel", 2, 2, ids)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    start = splendor.new_game("duel", seed=2)
    texts = []
    state = start.clone()
    for a in ids:
        texts.append(str(state.action_from_id(a)))
        state.apply(a)
    by_dict = splendor.review(game, "mcts:16")
    assert splendor.review(str(path), "mcts:16") == by_dict
    assert splendor.review(path, "mcts:16") == by_dict
    assert splendor.review(json.dumps(game), "mcts:16") == by_dict
    assert splendor.review(start, "mcts:16", actions=ids) == by_dict
    assert splendor.review(start, "mcts:16", actions=texts) == by_dict
    reference = splendor.reference.from_json(start.to_json())
    assert splendor.review(reference, "mcts:16", actions=ids) == by_dict


def test_a_server_saved_game_is_reviewed() -> None:
    games = pytest.importorskip("splendor.web.games")
    ids = play("base", 2, seed=4)
    start = splendor.new_game("base", seed=4)
    record = games.Dealer().make(start.to_json(), [1], "greedy", ids).saved()
    r = splendor.review(record, "mcts:16")
    assert r.actions == tuple(ids)


def test_a_game_still_being_played_is_refused() -> None:
    ids = play("base", 2, seed=6)
    for cut in (0, 1, len(ids) - 1):
        with pytest.raises(splendor.GameNotOverError, match="not over"):
            splendor.review(saved("base", 2, 6, ids[:cut]), "mcts:8")
    with pytest.raises(splendor.GameNotOverError):
        splendor.review(splendor.new_game("duel", seed=1), "mcts:8", actions=[])


def test_bad_input_is_a_typed_error(tmp_path: Path) -> None:
    ids = play("base", 2, seed=6)
    good = saved("base", 2, 6, ids)
    start = splendor.new_game("base", seed=6)
    cases: list[tuple[type[Exception], Any, dict[str, Any]]] = [
        (splendor.ConfigError, {**good, "format": "chess-pgn"}, {}),
        (splendor.ConfigError, {"start": good["start"]}, {}),
        (splendor.ConfigError, {**good, "actions": "take wug"}, {}),
        (splendor.InvalidStateError, {**good, "start": {"bank": []}}, {}),
        (splendor.InvalidStateError, {**good, "start": 7}, {}),
        (splendor.IllegalActionError, {**good, "actions": [*ids, ids[-1]]}, {}),
        (splendor.IllegalActionError, {**good, "actions": ["buy 3.1", *ids]}, {}),
        (splendor.InvalidActionError, {**good, "actions": ["fly", *ids]}, {}),
        (splendor.InvalidActionError, {**good, "actions": [1.5, *ids]}, {}),
        (splendor.InvalidActionError, {**good, "actions": [10**6, *ids]}, {}),
        (splendor.ConfigError, good, {"bot": "random"}),
        (splendor.ConfigError, good, {"bot": "mcts:1s"}),
        (splendor.ConfigError, good, {"bot": "chess"}),
        (splendor.ConfigError, good, {"bot": 3}),
        (splendor.ConfigError, good, {"iterations": 0}),
        (splendor.ConfigError, good, {"seed": -1}),
        (splendor.ConfigError, good, {"threads": 0}),
        (splendor.ConfigError, good, {"progress": 3}),
        (splendor.ConfigError, good, {"actions": ids}),
        (splendor.ConfigError, start, {}),
        (splendor.ConfigError, 42, {}),
        (splendor.ConfigError, "{not json", {}),
        (splendor.ConfigError, "[1, 2]", {}),
        (splendor.ConfigError, good, {"colour": "red"}),
    ]
    for error, game, options in cases:
        with pytest.raises(error):
            splendor.review(game, **{"bot": "mcts:4", **options})
    with pytest.raises(splendor.ConfigError, match="cannot read"):
        splendor.review(tmp_path / "missing.json", "mcts:4")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(splendor.ConfigError, match="UTF-8"):
        splendor.review(tmp_path / "binary.json", "mcts:4")
    # The message names the decision.
    with pytest.raises(splendor.IllegalActionError, match="decision 0"):
        load_game({**good, "actions": ["buy 3.1"]})


def test_each_position_is_searched_from_the_movers_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search sees what the mover saw then: the mover's view of the real position,
    with every hidden card drawn at random (never the real decks)."""
    ids = play("base", 2, seed=8)
    real = []
    state = splendor.new_game("base", seed=8)
    for a in ids:
        real.append(state.clone())
        state.apply(a)
    roots: list[Any] = []
    search = splendor._core.search

    def spy(root: Any, **options: Any) -> Any:
        roots.append(root.clone())
        return search(root, **options)

    # The module (``splendor.review`` is the function it exports).
    module = sys.modules["splendor.review"]
    monkeypatch.setattr(module._core, "search", spy)
    splendor.review(saved("base", 2, 8, ids), "mcts:8")
    assert len(roots) >= len(ids)
    first_roots: dict[str, Any] = {}
    for root in roots:
        first_roots.setdefault(root.to_json(root.current_player), root)
    hidden_differs = 0
    for position in real:
        mover = position.current_player
        root = first_roots[position.to_json(mover)]  # the same view ...
        assert root.current_player == mover
        hidden_differs += root.to_json() != position.to_json()  # ... other hidden cards
    assert hidden_differs >= len(real) - 2


def test_a_move_the_search_hardly_tried_gets_a_focused_estimate() -> None:
    bots = [splendor.RandomBot(seed=1), splendor.GreedyBot(seed=2)]
    ids = play("base", 2, seed=9, bots=bots)
    r = splendor.review(saved("base", 2, 9, ids), "mcts:200")
    focused = [d for d in r.decisions if d.focused]
    assert focused, "random moves are rarely the search's favourites"
    for d in focused:
        assert d.played_visits < MIN_VISITS_SHARE * 200 and d.played_id != d.preferred_id
    # The random seat loses more per decision than the greedy one.
    assert r.seats[0].average_loss > r.seats[1].average_loss


def calls_to(calls: list[tuple[int, int]]) -> Any:
    return lambda done, total: calls.append((done, total))


def test_progress_is_reported() -> None:
    ids = play("base", 2, seed=10)
    for threads in (1, 2):
        calls: list[tuple[int, int]] = []
        splendor.review(
            saved("base", 2, 10, ids), "mcts:8", threads=threads, progress=calls_to(calls)
        )
        assert calls[0] == (0, len(ids)) and calls[-1] == (len(ids), len(ids))
        assert [d for d, _ in calls] == list(range(len(ids) + 1))


def test_the_grades_follow_the_documented_bounds() -> None:
    assert grade_of(0.3, True) == "best"
    assert [grade_of(x, False) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 0.9)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert accuracy_of([]) == 100.0
    assert accuracy_of([0.0]) == 100.0
    assert accuracy_of([0.05]) == pytest.approx(60.65, abs=0.01)
    assert accuracy_of([0.2]) == pytest.approx(13.53, abs=0.01)


def test_the_chart_series_of_two_seats_add_up() -> None:
    ids = play("base", 2, seed=11)
    r = splendor.review(saved("base", 2, 11, ids), "mcts:16")
    zero, one = r.series(0), r.series(1)
    assert [i for i, _ in zero] == list(range(len(ids))) == [i for i, _ in one]
    assert all(a + b == pytest.approx(1.0) for (_, a), (_, b) in zip(zero, one, strict=True))
    three = splendor.review(saved("base", 3, 3, play("base", 3, seed=3)), "mcts:8")
    assert all(three.decisions[i].seat == 2 for i, _ in three.series(2))


def test_hint_names_the_top_moves_with_their_lines() -> None:
    state = splendor.new_game("base", players=3, seed=2)
    for a in play("base", 3, seed=2)[:7]:
        state.apply(a)
    moves = hint(state, "mcts:400", seed=1)
    assert len(moves) == 3
    assert [m.visits for m in moves] == sorted((m.visits for m in moves), reverse=True)
    mover = state.current_player
    for m in moves:
        assert 0.0 <= m.win <= 1.0 and m.line[0] == (mover, m.action)
        assert str(state.action_from_id(m.action_id)) == m.action
    # The same search as one from the mover's view.
    view = splendor.from_view(state.to_json(mover), seed=1)
    direct = splendor.search(view, iterations=400, seed=1)
    assert moves[0].action == str(direct.action)
    assert moves[0].win == direct.values[direct.action]
    assert len(hint(state, "mcts:50", count=1)) == 1
    with pytest.raises(splendor.ConfigError):
        hint(state, "mcts:50", count=0)
    done = splendor.new_game("base", seed=2)
    for a in play("base", 2, seed=2):
        done.apply(a)
    with pytest.raises(splendor.ConfigError, match="over"):
        hint(done, "mcts:50")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_review_and_leaves_nothing_running(tmp_path: Path) -> None:
    ids = play("base", 2, seed=12)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved("base", 2, 12, ids)), encoding="utf-8")
    code = textwrap.dedent(
        f"""
        import sys, threading, time
        import splendor
        print("ready", flush=True)
        try:
            splendor.review({str(path)!r}, "mcts:5000000", threads=2)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            print("threads", threading.active_count(), flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert "interrupted" in lines, err
    # Each position's search would take a minute: the other thread's is stopped too.
    assert float(lines["interrupted"]) - sent < 2
    assert lines["threads"].strip() == "1"
    assert child.returncode == 0


def test_a_review_releases_the_gil() -> None:
    """A Python thread keeps running while another reviews: the searches release the GIL."""
    # The last three decisions of a game, each searched long enough (about half a second)
    # that a search holding the GIL would stall the loop below past the bound.
    ids = play("base", 2, seed=13)
    start = splendor.new_game("base", seed=13)
    for a in ids[:-3]:
        start.apply(a)
    done = threading.Event()
    results: list[Any] = []

    def worker() -> None:
        results.append(splendor.review(start, "mcts:400000", actions=ids[-3:]))
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    ticks, worst_gap, last = 0, 0.0, time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        worst_gap, last = max(worst_gap, now - last), now
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert results and len(results[0].decisions) == 3
    # Holding the GIL would freeze this loop for each position's whole search.
    assert ticks > 20
    assert worst_gap < 0.3, f"main thread stalled {worst_gap:.3f}s"


def test_a_hint_reads_only_the_movers_information() -> None:
    """Two states that differ only in what the mover cannot see get the same hint."""
    state = splendor.new_game("marvel", players=3, seed=5)
    for a in play("marvel", 3, seed=5)[:12]:
        state.apply(a)
    other = splendor.from_view(state.to_json(state.current_player), seed=77)
    assert other.to_json() != state.to_json()
    assert hint(other, "mcts:300", seed=2) == hint(state, "mcts:300", seed=2)


def test_a_stored_review_reads_back_equal() -> None:
    r = splendor.review(saved("marvel", 3, 3, play("marvel", 3, seed=3)), "mcts:16")
    assert splendor.Review.from_json(r.to_json()) == r
    assert splendor.Review.from_dict(json.loads(r.to_json())) == r
    good = json.loads(r.to_json())
    bad: list[Any] = [
        "[1, 2",
        json.dumps({**good, "format": "splendor-web-game"}),
        json.dumps({**good, "version": 2}),
        json.dumps({k: v for k, v in good.items() if k != "seats"}),
        json.dumps({**good, "start": {"bank": []}}),
        json.dumps({**good, "actions": good["actions"][:-1]}),
        json.dumps({**good, "decisions": [{"index": 0}]}),
        json.dumps({**good, "surprise": 1}),
        b"\xff",
    ]
    for text in bad:
        with pytest.raises(splendor.InvalidStateError):
            splendor.Review.from_json(text)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_event_ends_a_review_at_once(threads: int) -> None:
    from splendor.review import ReviewStopped

    ids = play("base", 2, 4)
    stop = threading.Event()
    done: list[int] = []
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    began = time.monotonic()
    with pytest.raises(ReviewStopped):
        splendor.review(
            saved("base", 2, 4, ids),
            "mcts:1000000",
            threads=threads,
            stop=stop,
            progress=lambda d, _: done.append(d),
        )
    assert time.monotonic() - began < 3
    assert done[-1] < len(ids)
    # Set before it starts: nothing is searched.
    with pytest.raises(ReviewStopped):
        splendor.review(saved("base", 2, 4, ids), "mcts:1000000", threads=threads, stop=stop)
    with pytest.raises(splendor.ConfigError, match=r"stop must be a threading\.Event"):
        splendor.review(saved("base", 2, 4, ids), "mcts:10", stop=True)  # type: ignore[arg-type]
