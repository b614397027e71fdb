"""The SVG board: drawn from the viewer's information only, every gem lettered, in every variant."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import splendor
import splendor.reference as ref
from engines import ENGINES
from splendor import render
from splendor.cli import main
from splendor.render.svg import LIGHT_FILLS, NO_COLOUR, PALETTE, SHAPES, _card_title, _mix

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
    """Every gem drawn (a token, a cost pip, a bonus, a card's bonus, the key) is its kind's
    symbol followed at once by a text ending in the kind's letter, in dark ink on a light
    fill and white ink on a dark one."""
    state = midgame(variant, players)
    letters = {k.letter for k in render.board_of(state, 0).kinds}
    for viewer in (0, None, render.PUBLIC):
        root = ET.fromstring(str(render.svg_board(state, viewer, last=(0, "pass"))))
        gems = 0
        for group in root.iter():
            children = list(group)
            for i, child in enumerate(children):
                if child.tag != f"{SVG}use":
                    continue
                href = child.get("href") or ""
                assert href[:3] == f"#g{variant[0]}" and href[3] in letters, href
                label = children[i + 1]
                assert label.tag == f"{SVG}text" and label.text, href
                assert label.text[-1].lower() == href[3], (href, label.text)
                fill = PALETTE[variant][href[3]]
                ink = "#111111" if fill in LIGHT_FILLS else "#ffffff"
                assert contrast(ink, fill) >= 4.5, (fill, ink)
                assert ("sbk" if ink == "#111111" else "sbw") in (label.get("class") or "")
                gems += 1
        assert gems > 40


def luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour.lstrip("#")[i : i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_each_kind_has_its_own_shape_colour_and_letter() -> None:
    """Colour is never the only cue: within a variant no two kinds share a shape or a fill,
    and every kind has a symbol of its shape and fill."""
    for variant, kinds in render.tables.KINDS.items():
        letters = [k.letter for k in kinds]
        shapes = [SHAPES[variant][letter] for letter in letters]
        fills = [PALETTE[variant][letter] for letter in letters]
        assert len(set(shapes)) == len(shapes) == len(set(letters)), variant
        assert len(set(fills)) == len(fills), variant
        state = splendor.new_game(variant, seed=1)
        defs = ET.fromstring(str(render.svg_board(state, 0))).find(f"{SVG}defs")
        assert defs is not None
        symbols = {s.get("id"): s for s in defs.iter(f"{SVG}symbol")}
        for letter in letters:
            outline = symbols[f"g{variant[0]}{letter}"].find(f"{SVG}path")
            assert outline is not None and outline.get("fill") == PALETTE[variant][letter]
        outlines = {s.find(f"{SVG}path").get("d") for s in symbols.values()}  # type: ignore[union-attr]
        assert len(outlines) == len(letters)


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_cards_read_dark_on_their_tints(variant: str) -> None:
    """A card's points and words are dark ink on its colour's tint."""
    for fill in [*PALETTE[variant].values(), NO_COLOUR]:
        assert contrast("#111111", _mix(fill, 0.45)) >= 4.5, fill
        assert contrast("#111111", _mix(fill, 0.86)) >= 7, fill


def test_a_card_looks_like_a_card() -> None:
    state = splendor.new_game("base", seed=1)
    svg = ET.fromstring(str(render.svg_board(state, 0)))
    card = next(g for g in svg.iter(f"{SVG}g") if g.get("data-pick") == "1.1")
    frame = card.find(f"{SVG}rect")
    assert frame is not None and frame.get("rx") == "8"
    face = render.board_of(state, 0).rows[2].slots[0].card
    assert face is not None
    uses = [u.get("href") for u in card.iter(f"{SVG}use")]
    # the bonus gem in the corner, then one gem per cost kind
    assert uses == [f"#gb{face.colour}"] + [f"#gb{c.letter}" for c in face.cost]


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


def shuffle_hidden(state: Any, engine: Any, seed: int) -> Any:
    """``state`` with everything no seat sees changed: the decks reshuffled, every seat's
    blind reserves swapped for other cards of their decks, Duel's chance redrawn."""
    full = json.loads(state.to_json())
    rng = random.Random(seed)
    for player in full["players"]:
        for entry in player["reserved"]:
            deck = full["decks"][entry["level"] - 1]
            if entry["hidden"] and deck:
                j = rng.randrange(len(deck))
                deck[j], entry["card"] = entry["card"], deck[j]
    for deck in full["decks"]:
        rng.shuffle(deck)
    if full.get("chance") is not None:
        full["chance"] = rng.getrandbits(63)
    return engine.from_json(json.dumps(full))


def own_blind_reserve(variant: str, engine: Any) -> Any:
    """A game in which seat 0 has just reserved blind (Duel: a gold, then a deck)."""
    state = engine.new_game(variant, players=2, seed=3)
    if variant == "duel":
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("gold")))
    state.apply(next(a for a in state.legal_actions() if str(a) == "reserve deck 2"))
    return state


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_the_public_view_shows_nothing_hidden(variant: str, players: int, engine: Any) -> None:
    """Two states that differ only in what no seat may see: the same public picture, text
    and view, for every variant and both engines; face-up reserves are still shown."""
    faces = 0
    for state in (midgame(variant, players, engine=engine), own_blind_reserve(variant, engine)):
        other = shuffle_hidden(state, engine, seed=7)
        assert json.loads(other.to_json()) != json.loads(state.to_json())
        svg = str(render.svg_board(state, render.PUBLIC, last=(0, "reserve deck 2")))
        assert svg == render.svg_board(other, render.PUBLIC, last=(0, "reserve deck 2"))
        assert render.text_board(state, render.PUBLIC) == render.text_board(other, render.PUBLIC)
        view = render.public_view_json(state)
        assert view == render.public_view_json(other)
        ET.fromstring(svg)
        board = render.board_of(state, render.PUBLIC)
        assert board.public and board.viewer is None
        assert render.build_board(view) == board
        full = json.loads(state.to_json())
        public = json.loads(view)
        assert public["decks"] is None and public["viewer"] is None
        assert set(public) == set(full)
        titles = {t.text for t in ET.fromstring(svg).iter(f"{SVG}title")}
        blind = 0
        for seat, player in enumerate(full["players"]):
            shown = public["players"][seat]["reserved"]
            assert [r["level"] for r in shown] == [r["level"] for r in player["reserved"]]
            for k, (entry, seen) in enumerate(zip(player["reserved"], shown, strict=True)):
                slot = board.seats[seat].reserved[k]
                if entry["hidden"]:
                    blind += 1
                    assert seen["card"] is None and slot.card is None and slot.hidden
                else:
                    faces += 1
                    assert seen["card"] == entry["card"] and slot.card is not None
                    assert f"R{k + 1}: {_card_title(slot.card, variant)}" in titles
            # Everything else about a seat is as any other seat sees it.
            seen_by = json.loads(state.to_json((seat + 1) % len(full["players"])))
            assert public["players"][seat] == seen_by["players"][seat]
        assert blind, "the game should have a blind reserve"
    assert faces, "the midgame should have a face-up reserve"


def test_the_public_board_says_what_it_shows() -> None:
    state = own_blind_reserve("base", splendor)
    assert "public information" in render.text_board(state, render.PUBLIC)
    assert "every card shown" in render.text_board(state, None)
    assert "seen by a spectator (public)" in render.svg_board(state, render.PUBLIC)
    assert repr(render.PUBLIC) == "render.PUBLIC"


def lasts(svg: str) -> set[str]:
    """The ``data-pick`` / ``data-key`` of every part drawn as touched by the last decision."""
    out = set()
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if "last" in (g.get("class") or "").split():
            out.add(g.get("data-key") or g.get("data-pick") or "")
    return out


@pytest.mark.parametrize(
    ("variant", "moves", "seat", "marked"),
    [
        ("base", ["take wug"], 0, {"seat 0", "token w", "token u", "token g"}),
        ("base", ["take wug", "reserve 2.3"], 1, {"seat 1", "seat 1 reserved 1"}),
        ("base", ["take wug", "reserve deck 3"], 1, {"seat 1", "deck 3", "seat 1 reserved 1"}),
        ("marvel", ["take pbr"], 0, {"seat 0", "token p", "token b", "token r"}),
        ("duel", ["take a1"], 0, {"seat 0", "cell a1"}),
        ("duel", ["gold c3"], 0, {"seat 0", "cell c3", "seat 0 token y"}),
        ("duel", ["gold c3", "reserve 1.2"], 0, {"seat 0", "seat 0 reserved 1"}),
    ],
)
def test_the_last_decision_is_marked(
    variant: str, moves: list[str], seat: int, marked: set[str]
) -> None:
    state = splendor.new_game(variant, players=2, seed=4)
    for move in moves:
        state.apply(move)
    for viewer in (0, 1, None, render.PUBLIC):
        svg = str(render.svg_board(state, viewer, last=(seat, moves[-1])))
        assert marked <= lasts(svg), (viewer, lasts(svg))
        assert lasts(svg) <= marked | {f"seat {seat} token {c}" for c in "wugrkypbos"}
        assert lasts(str(render.svg_board(state, viewer))) == set()


def replaced(svg: str) -> set[str]:
    return {
        g.get("data-pick") or g.get("data-key") or ""
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if "replaced" in (g.get("class") or "").split()
    }


@pytest.mark.parametrize("action", ["reserve 2.3", "buy 1.1"])
def test_the_card_that_replaced_the_one_taken_is_marked_apart(action: str) -> None:
    """What the mover took is ``last`` in its own area; the display slot, which now holds
    the replacement, is ``replaced`` (not ``last``)."""
    state = splendor.new_game("base", players=2, seed=4)
    if action.startswith("buy"):
        while str(state.legal_actions()[0]) != "buy 1.1" and not any(
            str(a) == "buy 1.1" for a in state.legal_actions()
        ):
            state.apply(state.legal_actions()[0])
    seat = int(state.current_player)
    state.apply(action)
    svg = str(render.svg_board(state, seat, last=(seat, action)))
    slot = action.split()[-1]
    assert replaced(svg) == {slot}
    assert slot not in lasts(svg) and f"seat {seat}" in lasts(svg)


def test_every_tile_and_token_can_be_marked_last() -> None:
    state = midgame("base", 4)
    board = render.board_of(state, 0)
    noble = board.tiles[0].label
    marks = render.last_marks(board, 2, noble)
    assert {"seat 2", noble, f"seat 2 owns {noble}"} <= marks
    svg = render.board_svg(board, last=(2, noble))
    assert {"seat 2", noble} <= lasts(svg)
    assert render.last_marks(board, 1, "return k") == {"seat 1", "token k"}
    assert render.last_marks(board, 1, "no such move") == {"seat 1"}
    duel = render.board_of(midgame("duel", 2), 0)
    assert render.last_marks(duel, 0, "discard p") == {"seat 0", "bag p"}
    assert render.last_marks(duel, 1, "steal w") == {"seat 1", "seat 1 token w", "seat 0 token w"}
    assert render.last_marks(duel, 0, "replenish") == {"seat 0", "grid"}
    assert render.last_marks(duel, 0, "joker g") == {"seat 0", "seat 0 bonus G"}


def test_legal_picks_are_marked() -> None:
    """Every ``data-pick`` named in ``legal`` gets class ``legal`` (cards, decks, reserves,
    tiles, bank tokens, Duel cells), and no other."""

    def marked(svg: str) -> set[str]:
        groups = ET.fromstring(svg).iter(f"{SVG}g")
        return {g.get("data-pick") or "" for g in groups if "legal" in (g.get("class") or "")}

    base = midgame("base", 2)
    board = render.board_of(base, 0)
    picks = {"1.1", "deck 1", "reserved 1", "token w", board.tiles[0].label}
    assert marked(render.svg_board(base, 0, legal=picks)) == picks
    assert marked(render.svg_board(base, 0, legal=picks, last=(0, "take w"))) == picks
    # "reserved 1" is the viewer's own reserve: seat 1's for seat 1, never another's.
    svg = str(render.svg_board(base, 1, legal=["reserved 1"]))
    legal = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if "legal" in (g.get("class") or "")]
    assert [g.get("data-key") for g in legal] == ["seat 1 reserved 1"]
    duel = splendor.new_game("duel", seed=4)
    assert marked(render.svg_board(duel, 0, legal=["cell a1", "cell b1"])) == {"cell a1", "cell b1"}
