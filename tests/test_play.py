"""The terminal game, driven by a scripted stdin."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import splendor
from splendor.errors import ConfigError
from splendor.play import main, make_bot, redact


def run(script: str, **kwargs: object) -> tuple[int, str]:
    out = io.StringIO()
    code = main(stdin=io.StringIO(script), stdout=out, **kwargs)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_help_bad_input_moves_save_load_quit(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = "\n".join(
        [
            "help",
            "fly to the moon",  # unparsable: re-prompt
            "buy 3.1",  # well-formed but unaffordable: re-prompt
            "9999",  # id out of range: re-prompt
            "take wug",  # a move by text
            "5",  # a move by id (take wrk: still legal after one bot move)
            f"save {save}",
            "take grk",
            f"load {save}",
            "load /no/such/file.json",
            "quit",
        ]
    )
    code, out = run(script + "\n", bot="random", seed=4)
    assert code == 0
    assert "legal actions:" in out and "take wug" in out  # help listed them
    assert out.count("type 'help' for the legal actions") >= 4
    assert "you: take wug" in out
    assert "you: take wrk" in out
    assert f"saved to {save}" in out
    assert f"loaded {save}" in out
    assert out.rstrip().endswith("bye")
    saved = splendor.from_json(save.read_text())
    # Saved after two human moves and two bot moves: the human's turn again.
    assert saved.current_player == 0
    assert json.loads(save.read_text())["turn"] == 4
    # Plain output when not a terminal: no ANSI escapes.
    assert "\x1b[" not in out


def test_end_of_input_leaves_cleanly() -> None:
    code, out = run("", bot="random")
    assert code == 0 and "bye" in out


def test_a_finished_game_reports_the_result(tmp_path: Path) -> None:
    state = splendor.new_game("base", seed=2)
    bot = splendor.RandomBot(seed=1)
    while not state.is_terminal():
        state.apply(bot.act(state))
    f = tmp_path / "over.json"
    f.write_text(state.to_json())
    code, out = run("", bot="random", load=str(f))
    assert code == 0
    outcome = state.outcome()
    assert outcome is not None
    if outcome.truncated:
        assert "nobody wins" in out
    elif 0 in outcome.winners:
        assert "you win" in out
    else:
        assert "you lose" in out


def test_load_option_and_seat(tmp_path: Path) -> None:
    state = splendor.new_game("base", seed=7)
    state.apply("take wug")
    f = tmp_path / "s.json"
    f.write_text(state.to_json())
    # Seat 1 is to move in the loaded game: the prompt comes at once.
    code, out = run("help\nquit\n", bot="greedy", seat=1, load=str(f))
    assert code == 0
    assert "legal actions:" in out
    assert "bot 0:" not in out


def test_colour_when_asked() -> None:
    _, out = run("quit\n", bot="random", color=True)
    assert "\x1b[2J" in out


def test_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown bot"):
        make_bot("deep blue", 0)
    with pytest.raises(ConfigError):
        make_bot("mcts:0", 0)
    with pytest.raises(ConfigError, match="seat"):
        run("quit\n", seat=5)
    with pytest.raises(ConfigError):
        run("quit\n", variant="chess")


def test_cli_play_subcommand(tmp_path: Path) -> None:
    save = tmp_path / "cli.json"
    proc = subprocess.run(
        [sys.executable, "-m", "splendor.cli", "play", "--bot", "random", "--seat", "0"],
        input=f"help\nnonsense\ntake wug\nsave {save}\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "you: take wug" in proc.stdout
    assert save.exists()


def test_the_board_hides_the_bots_blind_reserves() -> None:
    state = splendor.new_game("base", seed=5)
    state.apply("take wug")
    state.apply("reserve deck 1")  # seat 1 reserves blind
    board = str(state)
    assert "(blind)" in board
    shown = redact(board, 0)
    assert "?? (blind)" in shown
    hidden_line = next(x for x in board.splitlines() if "(blind)" in x)
    assert hidden_line not in shown
    # The owner still sees the card.
    assert redact(board, 1) == board
    # And the session uses it: the bot's blind card does not reach the screen.
    f = io.StringIO()
    main(stdin=io.StringIO("quit\n"), stdout=f, bot="random", seed=5)
    assert "(blind)" not in f.getvalue() or "?? (blind)" in f.getvalue()
