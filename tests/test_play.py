"""The terminal game, driven by a scripted stdin."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import TextIO, cast

import pytest
import splendor
import splendor.render
from splendor.bots import make_bot
from splendor.errors import ConfigError
from splendor.play import Session, main
from splendor.reference.rng import SplitMix64
from test_render import CASES, leaks


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
            "#9999",  # id out of range: re-prompt
            "take wug",  # a move by text
            "5",  # a bare number: refused, never taken for an id
            "#5",  # a move by id (take wrk: still legal after one bot move)
            f"save {save}",
            "take grk",
            f"load {save}",
            "load /no/such/file.json",
            "quit",
        ]
    )
    code, out = run(script + "\n", bot="random", seed=4)
    assert code == 0
    assert "legal actions (" in out and "#0 take wug" in out  # help listed them
    assert out.count("type 'help' for the legal actions") >= 5
    assert "a bare number is not an action: type '#5' for action id 5" in out
    assert "seat 0 (you): take wug" in out
    assert "seat 0 (you): take wrk" in out
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
    assert "legal actions (" in out
    assert "seat 0 (bot):" not in out


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
    assert "seat 0 (you): take wug" in proc.stdout
    assert save.exists()


class LeakCheckingPlayer:
    """Stands in for the person: before answering each prompt it searches everything
    printed since the last prompt for the cards hidden from its seat, then types
    ``help``, a bare number, a card label, an illegal action (its explanation is
    printed too) and finally a legal action, reserving blind when it can."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)
        self.session: Session | None = None
        self.out = io.StringIO()
        self.checked = 0
        self.queue: list[str] = []
        self.found: list[str] = []

    def readline(self) -> str:
        session = self.session
        assert session is not None
        state = session.state
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        board = splendor.render.board_of(state, session.seat)
        self.found += leaks(text, state, session.seat, board)
        self.checked += 1
        if not self.queue:
            legal = state.legal_actions()
            illegal = [a for a in range(state.num_actions) if a not in {int(x) for x in legal}]
            blind = [a for a in legal if "deck" in str(a)]
            pool = blind if blind and self.rng.below(2) == 0 else legal
            self.queue = [
                "help",
                str(int(legal[0])),
                "1.2",
                str(state.action_from_id(illegal[self.rng.below(len(illegal))])),
                str(pool[self.rng.below(len(pool))]),
            ]
        return self.queue.pop(0) + "\n"


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_nothing_shown_to_the_player_names_a_hidden_card(variant: str, players: int) -> None:
    """Boards, prompts, the help listing and messages, over whole games with blind reserves."""
    for seed in range(4):
        person = LeakCheckingPlayer(seed)
        state = splendor.new_game(variant, players=players, seed=seed)
        stdin = cast(TextIO, person)  # it answers readline(), all a Session reads
        session = Session(state, seed % players, "random", stdin, person.out, False, seed)
        person.session = session
        assert session.run() == 0
        person.found += leaks(
            person.out.getvalue(),
            session.state,
            session.seat,
            splendor.render.board_of(session.state, session.seat),
        )
        assert person.found == []
        assert session.state.is_terminal()
        assert person.checked > 20


def test_the_old_leak_is_closed() -> None:
    """``play --variant marvel`` showed the opponent's blind reserve by name."""
    state = splendor.new_game("marvel", seed=5)
    state.apply("take pbr")
    state.apply("reserve deck 3")  # seat 1 reserves blind
    hidden = json.loads(state.to_json())["players"][1]["reserved"][0]["card"]
    out = io.StringIO()
    Session(state, 0, "random", io.StringIO("help\nquit\n"), out, False).run()
    card = splendor.render.tables.marvel_set(json.loads(state.to_json())["card_set"]).cards[hidden]
    assert card.name not in out.getvalue()
    assert splendor.render.card_face(card, variant="marvel") not in out.getvalue()
    assert "R1  face down: a level 3 card reserved blind" in out.getvalue()


def test_card_labels_and_ids_do_not_collide() -> None:
    script = "12\n1.2\nr1\n#0\nquit\n"
    code, out = run(script, bot="random", seed=3)
    assert code == 0
    assert "a bare number is not an action: type '#12' for action id 12" in out
    assert "1.2 names a card: type 'buy 1.2' or 'reserve 1.2'" in out
    assert "R1 names your reserved card 1: type 'buy reserved 1'" in out
    assert out.count("seat 0 (you): ") == 1 and "seat 0 (you): take wug" in out  # only #0
    _, marvel = run("1.2\nquit\n", bot="random", variant="marvel")
    assert "type 'recruit 1.2' or 'reserve 1.2'" in marvel
    # The help listing names every legal action with its '#' id, no bare numbers.
    _, listing = run("help\nquit\n", bot="random", seed=3)
    assert "#0 take wug" in listing and "#45 buy 1.1" not in listing.replace("#45", "")


def test_illegal_moves_are_explained_at_the_prompt() -> None:
    _, out = run("buy 3.1\nquit\n", bot="random", seed=3)
    assert "`buy 3.1` is not legal now: you cannot afford it: you lack" in out
    _, duel = run("reserve 3.1\nquit\n", bot="random", variant="duel", seed=3)
    assert "take a gold token first (`gold <cell>`)" in duel
