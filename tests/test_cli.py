"""The ``splendor`` command: ``demo`` and ``bench`` run and print what they promise."""

from __future__ import annotations

import pytest
import splendor
from splendor import cli
from splendor.reference.rng import SplitMix64


def test_demo_plays_a_game_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "player 0: " in out and "player 1: " in out
    assert "Game over (" in out
    assert out.count("bank") > 10  # a board every turn


def test_demo_is_reproducible_and_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["demo", "--seed", "5", "--players", "3", "--quiet"])
    first = capsys.readouterr().out
    cli.main(["demo", "--seed", "5", "--players", "3", "--quiet"])
    assert capsys.readouterr().out == first
    assert first.count("bank") == 1 and "Game over (" in first


def test_greedy_bot_beats_random_play() -> None:
    """The demo's bot is a real player: it wins most games against uniform random."""
    wins = 0
    games = 6
    for seed in range(games):
        state = splendor.new_game("base", seed=seed)
        greedy = cli.GreedyPyBot(seed=seed)
        rng = SplitMix64(seed)
        seat = seed % 2
        while not state.is_terminal():
            if state.current_player == seat:
                state.apply(greedy.act(state))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
        outcome = state.outcome()
        assert outcome is not None
        wins += seat in outcome.winners
    assert wins >= games - 1


def test_bench_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--games", "50", "--loop-games", "3", "--ref-games", "1"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    for row in ("games/s", "Rust engine", "reference engine", "Rust / reference"):
        assert row in out


def test_bad_arguments_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["demo", "--variant", "chess"])
