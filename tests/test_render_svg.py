"""The SVG board: drawn from the viewer's information only, every gem lettered, in every variant."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import splendor
import splendor.reference as ref
from splendor import render
from splendor.cli import main
from splendor.render.svg import _card_title

SVG = "{http://www.w3.org/2000/svg}"
SETUPS = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)]


def midgame(variant: str, players: int, seed: int = 5, engine: Any = splendor) -> Any:
    state = engine.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        blind = [a for a in legal if "deck" in str(a) or str(a).startswith("gold")]
        state.apply(blind[0] if blind and rng.random() < 0.5 else rng.choice(legal))
    return state


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_svg_is_well_formed_and_shows_every_visible_card(variant: str, players: int) -> None:
    state = midgame(variant, players)
    svg = str(render.svg_board(state, 0))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    titles = {t.text for t in root.iter(f"{SVG}title")}
    board = render.board_of(state, 0)
    for row in board.rows:
        for slot in row.slots:
            if slot.card is not None:
                assert f"{slot.label}: {_card_title(slot.card, variant)}" in titles
    for tile in board.tiles:
        assert any(t and t.startswith(tile.label) for t in titles)
    for seat in board.seats:
        assert any(t and t.startswith("tokens held: ") for t in titles)
        assert f"seat {seat.index}" in svg


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_svg_never_shows_what_the_viewer_cannot_see(variant: str, players: int) -> None:
    state = midgame(variant, players)
    for viewer in range(players):
        other = state.determinize(viewer, seed=11)
        assert other.to_json() != state.to_json()
        # Same view, different hidden cards: the very same picture.
        assert render.svg_board(state, viewer) == render.svg_board(other, viewer)
    hidden = [s for seat in render.board_of(state, 0).seats for s in seat.reserved if s.hidden]
    assert hidden, "the game should have an opponent's blind reserve"
    assert "face down" in render.svg_board(state, 0)
    assert render.svg_board(state, None) != render.svg_board(state, 0)


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_every_gem_carries_its_letter(variant: str, players: int) -> None:
    root = ET.fromstring(str(render.svg_board(midgame(variant, players), 0)))
    letters = {k.letter for k in render.board_of(midgame(variant, players), 0).kinds}
    for group in root.iter(f"{SVG}g"):
        children = list(group)
        for i, child in enumerate(children):
            if child.tag in (f"{SVG}circle", f"{SVG}rect") and i + 1 < len(children):
                label = children[i + 1]
                if child.tag == f"{SVG}circle":
                    assert label.tag == f"{SVG}text"
                    assert label.text and label.text[-1].lower() in letters


def test_both_engines_draw_the_same_board() -> None:
    for variant, players in SETUPS:
        rust = midgame(variant, players)
        python = ref.from_json(rust.to_json())
        assert render.svg_board(rust, 1) == render.svg_board(python, 1)


def test_svg_shows_the_result_once_over() -> None:
    state = splendor.new_game("base", seed=2)
    splendor.random_playout(state, 3)
    svg = render.svg_board(state, 0)
    assert "game over" in svg
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason in svg


def test_svg_board_shows_itself_in_jupyter() -> None:
    board = render.svg_board(splendor.new_game("duel", seed=1), 0)
    assert board._repr_svg_() == str(board)
    assert board._repr_html_() == str(board)


class FakeFormatter:
    def __init__(self) -> None:
        self.types: dict[type, Any] = {}

    def for_type(self, cls: type, func: Any) -> None:
        self.types[cls] = func


class FakeIPython:
    def __init__(self) -> None:
        self.formatter = FakeFormatter()
        self.display_formatter = self
        self.formatters = {"image/svg+xml": self.formatter}


def test_register_jupyter_draws_states_of_both_engines() -> None:
    ipython = FakeIPython()
    render.register_jupyter(viewer=0, ipython=ipython)
    for cls in (splendor.BaseState, splendor.MarvelState, ref.DuelState):
        assert cls in ipython.formatter.types
    state = midgame("base", 2)
    picture = ipython.formatter.types[splendor.BaseState](state)
    assert picture == str(render.svg_board(state, 0))


def test_render_command_writes_svg_and_text(tmp_path: Path) -> None:
    state = midgame("marvel", 2)
    game = tmp_path / "game.json"
    game.write_text(state.to_json())
    out = tmp_path / "board.svg"
    assert main(["render", str(game), "-o", str(out), "--viewer", "1"]) == 0
    assert out.read_text() == str(render.svg_board(state, 1))
    text = tmp_path / "board.txt"
    assert main(["render", str(game), "-o", str(text), "--viewer", "0"]) == 0
    assert text.read_text() == render.text_board(state, 0) + "\n"
    assert main(["render", str(game), "-o", str(out), "--viewer", "7"]) == 2


def test_a_yes_no_figure_shows_only_when_set() -> None:
    state = midgame("marvel", 3)
    board = render.board_of(state, 0)
    svg = render.svg_board(state, 0)
    holders = [s for seat in board.seats for s in seat.stats if s.flag and s.value]
    assert svg.count("holds the Avengers tile") == len(holders)
