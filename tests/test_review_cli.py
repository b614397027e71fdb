"""``splendor review GAME.json``: the summary, and the review as HTML, JSON or the chart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import splendor
from splendor import cli
from splendor.render.review import mistake_board, move_words


def finished(variant: str, players: int, seed: int) -> tuple[dict[str, Any], list[int]]:
    """A saved web game of one random seat against greedy ones (mistakes to find)."""
    state = splendor.new_game(variant, players=players, seed=seed)
    bots: list[Any] = [splendor.RandomBot(seed=seed)]
    bots += [splendor.GreedyBot(seed=seed + p) for p in range(1, players)]
    ids = []
    while not state.is_terminal():
        action = bots[state.current_player].act(state)
        ids.append(int(action))
        state.apply(action)
    start = splendor.new_game(variant, players=players, seed=seed)
    record = {
        "format": "splendor-web-game",
        "version": 1,
        "start": json.loads(start.to_json()),
        "actions": ids,
        "ai_seats": list(range(1, players)),
        "bot": "greedy",
    }
    return record, ids


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    record, ids = finished("base", 2, seed=3)
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, ids


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_summary_and_the_json(
    game: tuple[Path, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = game
    out_file = tmp_path / "review.json"
    code, out, err = run(
        ["review", str(path), "--bot", "mcts:30", "--seed", "4", "-o", str(out_file)], capsys
    )
    assert code == 0, err
    assert f"{len(ids)} decisions" in out and "seat 0: accuracy" in out and "seat 1:" in out
    assert f"{len(ids)}/{len(ids)} decisions" in err  # the progress bar
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["format"] == "splendor-review" and data["actions"] == ids
    expected = splendor.review(str(path), "mcts:30", seed=4)
    assert data == json.loads(expected.to_json())
    assert [d["grade"] for d in data["decisions"]] == [d.grade for d in expected.decisions]


def test_the_chart_alone(
    game: tuple[Path, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = game
    out_file = tmp_path / "chart.svg"
    code, _, err = run(
        ["review", str(path), "--bot", "mcts:30", "--no-progress", "-o", str(out_file)], capsys
    )
    assert code == 0 and err == ""
    svg = out_file.read_text(encoding="utf-8")
    root = ET.fromstring(svg)  # well-formed
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f"{ns}polyline")
    assert sorted(str(line.get("data-seat")) for line in lines) == ["0", "1"]
    for line in lines:
        assert len((line.get("points") or "").split()) == len(ids)
    marked = {c.get("data-decision") for c in root.findall(f"{ns}circle")}
    assert marked == {str(i) for i in range(len(ids))}


def test_the_page(
    game: tuple[Path, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = game
    out_file = tmp_path / "review.html"
    code, _, _ = run(
        ["review", str(path), "--bot", "mcts:60", "--threads", "2", "-o", str(out_file)], capsys
    )
    assert code == 0
    html = out_file.read_text(encoding="utf-8")
    r = splendor.review(str(path), "mcts:60")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # Self-contained: nothing fetched from elsewhere.
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html)
    assert "<script" not in html
    assert "mover's own information" in html
    for d in r.decisions:
        assert f'<tr id="d{d.index}">' in html
    bad = [d for d in r.decisions if d.grade in ("mistake", "blunder")]
    assert bad, "a random seat makes mistakes"
    for d in bad[:24]:
        assert f'id="board{d.index}"' in html
        assert f"Played <b>{d.played}</b>" in html
    # One chart, and the boards: one per drawn mistake.
    assert html.count("<polyline") == 2
    assert html.count('class="board"') == min(len(bad), 24)


def test_a_mistake_board_marks_both_moves() -> None:
    record, _ = finished("base", 2, seed=3)
    r = splendor.review(record, "mcts:60")
    d = next(
        d
        for d in r.decisions
        if d.played_id != d.preferred_id
        and d.played.split()[0] in ("buy", "reserve")
        and d.preferred.split()[0] in ("buy", "reserve")
        and d.played.split()[-1] != d.preferred.split()[-1]
    )
    svg = mistake_board(r, d.index)
    assert re.search(
        rf'data-pick="{re.escape(d.played.split(" ", 1)[1])}"[^>]*class="[^"]*last', svg
    )
    preferred = d.preferred.split(" ", 1)[1]
    assert re.search(rf'data-pick="{re.escape(preferred)}"[^>]*class="[^"]*preferred', svg)
    # The page says what each move did, in the log's words, the rest of the turn included.
    verbs = {"buy": "bought", "reserve": "reserved"}
    assert move_words(r, d.index).startswith(verbs[d.played.split()[0]])
    assert move_words(r, d.index, preferred=True).startswith(verbs[d.preferred.split()[0]])
    # Drawn before the move: the slot holds the card taken, not its replacement.
    assert not re.search(r'class="[^"]*\breplaced\b', svg)
    # The board is the mover's: drawn for that seat.
    assert f"board seen by seat {d.seat}" in svg


@pytest.mark.parametrize(("variant", "players"), [("duel", 2), ("marvel", 3), ("base", 4)])
def test_every_variant_gets_its_page(
    variant: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, ids = finished(variant, players, seed=1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out_file = tmp_path / "review.html"
    args = ["review", str(path), "--bot", "mcts:12", "--no-progress", "-o", str(out_file)]
    code, out, err = run(args, capsys)
    assert code == 0, err
    html = out_file.read_text(encoding="utf-8")
    assert html.count("<polyline") == players and f"{len(ids)} decisions" in out


def test_bad_uses_are_reported(
    game: tuple[Path, list[int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids = game
    code, _, err = run(["review", str(path), "-o", str(tmp_path / "r.png")], capsys)
    assert code == 2 and ".html" in err
    assert not (tmp_path / "r.png").exists()
    record = json.loads(path.read_text(encoding="utf-8"))
    live = tmp_path / "live.json"
    live.write_text(json.dumps({**record, "actions": ids[:10]}), encoding="utf-8")
    code, out, err = run(["review", str(live), "--bot", "mcts:8"], capsys)
    assert code == 2 and "not over" in err and out == ""
    code, _, err = run(["review", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "cannot read" in err
    code, _, err = run(["review", str(path), "--bot", "random"], capsys)
    assert code == 2 and "search" in err
    code, _, err = run(["review", str(path), "--threads", "0"], capsys)
    assert code == 2
    code, _, err = run(["review", str(path), "-o", str(tmp_path)], capsys)
    assert code == 2  # a folder has no extension
