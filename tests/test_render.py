"""The boards: drawn from a viewer's information only, one design, readable.

The hidden identities are derived from the *full* state (deck cards and the
other seats' blind reserves), and every picture a viewer gets is searched for
them: the board model's card ids, and each hidden card's printed face and name
in the text.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import splendor
from engines import ENGINES
from splendor import render
from splendor.reference.rng import SplitMix64
from splendor.render import tables

CASES = [("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 3)]
CASES.append(("marvel", 4))


def face_of(variant: str, card_id: int, card_set: object = None) -> render.Card:
    if variant == "base":
        return tables.base_card(card_id)
    if variant == "duel":
        return tables.duel_card(card_id)
    return tables.marvel_set(card_set).cards[card_id]


def hidden_ids(full: dict[str, Any], viewer: int) -> set[int]:
    """Card ids ``viewer`` cannot see: the decks and the others' blind reserves."""
    out = {c for deck in full["decks"] for c in deck}
    for seat, p in enumerate(full["players"]):
        if seat != viewer:
            out |= {r["card"] for r in p["reserved"] if r["hidden"]}
    return out


def blind_reserves(full: dict[str, Any]) -> set[int]:
    return {r["card"] for p in full["players"] for r in p["reserved"] if r["hidden"]}


@functools.cache
def face_pattern(face: str) -> re.Pattern[str]:
    """A face as a whole: not the start of a longer cost (``... 3u`` vs ``... 3u 2k``)."""
    return re.compile(re.escape(face) + r"(?!\s?\d)")


@functools.cache
def name_pattern(name: str) -> re.Pattern[str]:
    """A name as a whole (``Spider-Man`` is not in ``Spider-Man 2099``)."""
    return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-]|\s\d)")


def shows_face(text: str, face: str) -> bool:
    return face_pattern(face).search(text) is not None


@functools.cache
def printed(card: render.Card, variant: str) -> str:
    return render.card_face(card, variant=variant)


def leaks(text: str, state: Any, viewer: int, board: render.Board) -> list[str]:
    """The identities of cards hidden from ``viewer`` that ``text`` shows.

    A hidden card whose printed face (or name) equals a visible card's is not
    a leak: the two cannot be told apart.
    """
    full = json.loads(state.to_json())
    variant = full["variant"]
    card_set = full.get("card_set")
    visible = board.visible_cards()
    visible_faces = {printed(c, variant) for c in visible}
    visible_names = {c.name for c in visible}
    found = []
    for card_id in hidden_ids(full, viewer):
        card = face_of(variant, card_id, card_set)
        face = printed(card, variant)
        # `in` first: the pattern (a whole face, a whole name) only confirms a hit.
        if face in text and face not in visible_faces and face_pattern(face).search(text):
            found.append(face)
        name = card.name
        shown = name and name in text and name_pattern(name).search(text)
        if shown and not any(name in v for v in visible_names):
            found.append(name)
    return found


def blind_heavy_game(engine: Any, variant: str, players: int, seed: int) -> Iterator[Any]:
    """Every state of a seeded random game that reserves blind whenever it can."""
    state = engine.new_game(variant, players=players, seed=seed)
    rng = SplitMix64(seed)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        blind = [a for a in legal if "deck" in str(a)]
        pool = blind if blind and rng.below(3) == 0 else legal
        state.apply(pool[rng.below(len(pool))])
        yield state


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_viewer_board_never_holds_a_hidden_card(variant: str, players: int) -> None:
    """Model and text, every seat, every state of many blind-reserving games."""
    blinds = 0
    for seed in range(6):
        for state in blind_heavy_game(splendor, variant, players, seed):
            full = json.loads(state.to_json())
            blinds += len(blind_reserves(full))
            for viewer in range(players):
                board = render.board_of(state, viewer)
                hidden = hidden_ids(full, viewer)
                shown = {c.id for c in board.visible_cards()}
                assert not shown & hidden, (seed, viewer, shown & hidden)
                text = render.render_text(board)
                assert leaks(text, state, viewer, board) == []
    assert blinds > 50  # the games did reserve blind, often


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_spectator_board_shows_the_blind_reserves(variant: str, players: int) -> None:
    seen = 0
    for seed in range(2):
        for state in blind_heavy_game(splendor, variant, players, seed):
            full = json.loads(state.to_json())
            blind = blind_reserves(full)
            if not blind:
                continue
            board = render.board_of(state, None)
            text = render.render_text(board)
            assert (board.viewer is None and "spectator" in text) or state.is_terminal()
            for card_id in blind:
                assert card_id in {c.id for c in board.visible_cards()}
                face = render.card_face(
                    face_of(variant, card_id, full.get("card_set")), variant=variant
                )
                assert shows_face(text, face + " [blind]")
                seen += 1
            # The owner sees their own blind card too, marked; the others see its back.
            for seat, p in enumerate(full["players"]):
                for r in p["reserved"]:
                    if r["hidden"]:
                        mine = render.board_of(state, seat)
                        assert r["card"] in {c.id for c in mine.visible_cards()}
    assert seen > 20


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_public_board_holds_no_hidden_card(variant: str, players: int) -> None:
    """``render.PUBLIC`` (a spectator of a game in play): no deck card and no seat's blind
    reserve, in the model, the text or the view, every state of blind-reserving games."""
    blinds = 0
    for seed in range(3):
        for state in blind_heavy_game(splendor, variant, players, seed):
            full = json.loads(state.to_json())
            board = render.board_of(state, render.PUBLIC)
            hidden = hidden_ids(full, -1)  # -1: no seat's own, so every seat's blind reserves
            blinds += len(blind_reserves(full))
            shown = {c.id for c in board.visible_cards()}
            assert not shown & hidden, (seed, shown & hidden)
            assert leaks(render.render_text(board), state, -1, board) == []
            view = json.loads(render.public_view_json(state))
            reserved = {r["card"] for p in view["players"] for r in p["reserved"]}
            assert not reserved & blind_reserves(full) and view["decks"] is None
            face_up = {r["card"] for p in full["players"] for r in p["reserved"] if not r["hidden"]}
            assert face_up <= shown
    assert blinds > 20


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_board_is_the_view_only(variant: str, players: int) -> None:
    """States that differ only in what a viewer cannot see give that viewer one board."""
    checked = 0
    for seed in range(3):
        for i, state in enumerate(blind_heavy_game(splendor, variant, players, seed)):
            if i % 7 or state.is_terminal():
                continue
            for viewer in range(players):
                other = state.determinize(viewer, seed=seed * 1000 + i)
                if other.to_json(viewer) != state.to_json(viewer):
                    continue  # determinize's own bug (issue 9 item 4), not the renderer's
                a = render.text_board(state, viewer)
                b = render.text_board(other, viewer)
                assert a == b
                checked += 1
    assert checked > 50


def every_board(variant: str, players: int, seeds: range) -> Iterator[tuple[Any, str]]:
    for seed in seeds:
        for state in blind_heavy_game(splendor, variant, players, seed):
            for viewer in (None, *range(players)):
                yield state, render.text_board(state, viewer)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_one_readable_design(variant: str, players: int) -> None:
    """At most 100 columns; seats and turns named one way; every card's cost, colour,
    points (and crowns, ability, icons) on the board; a key for every token letter."""
    phases = set()
    for state, text in every_board(variant, players, range(2)):
        lines = text.splitlines()
        assert max(len(x) for x in lines) <= render.WIDTH, max(lines, key=len)
        assert not re.search(r"\bplayers?\b", text)  # "seat" everywhere
        assert "turn " in lines[0]
        assert ("round " in lines[0]) == (variant != "duel")
        phases.add(json.loads(state.to_json())["phase"])
    state = splendor.new_game(variant, players=players, seed=5)
    board = render.board_of(state, 0)
    text = render.render_text(board)
    for kind in board.kinds:
        assert f"{kind.letter} {kind.name}" in text
    for card in board.visible_cards():
        face = render.card_face(card, variant=variant)
        assert face in text
        assert f"{card.points}pt" in face
        assert "cost " + " ".join(f"{c.n}{c.letter}" for c in card.cost) in face
        if card.colour and card.bonus:
            assert card.colour.upper() * card.bonus in face.split()  # WW: two white bonuses
        elif card.joker:
            assert "*" in face.split()
        for ability in card.abilities:
            assert ability in face
        if card.crowns:
            assert f"{card.crowns}cr" in face
        if card.name:
            assert card.name in face
        if card.avengers:
            assert f"A{card.avengers}" in face
    assert {"main", "over"} <= phases


def test_duel_board_labels_the_bag_grid_privileges_and_royals() -> None:
    state = splendor.new_game("duel", seed=3)
    text = render.text_board(state, 0)
    assert "token board    a b c d e" in text
    assert re.search(r"^\s+1  [wugrkpy.] [wugrkpy.] [wugrkpy.] [wugrkpy.] [wugrkpy.]", text, re.M)
    assert "bag (refills the board at a replenish): w0 u0 g0 r0 k0 p0 y0 (0)" in text
    assert "privileges in the supply 2/3" in text
    for royal in ("royal 0: 2pt, steal", "royal 1: 2pt, again", "royal 3: 3pt"):
        assert royal in text
    assert "crowns 0/10" in text and "privileges 1/3" in text
    # Your own reserved cards are shown with their faces.
    state.apply(
        "gold "
        + next(str(a).split()[1] for a in state.legal_actions() if str(a).startswith("gold"))
    )
    state.apply("reserve 3.1")
    mine = render.text_board(state, 0)
    assert re.search(r"^    R1  \S", mine, re.M)


def test_marvel_board_shows_locations_the_avengers_tile_and_the_gauntlet() -> None:
    state = splendor.new_game("marvel", players=3, seed=3)
    text = render.text_board(state, 1)
    assert "Avengers tile" in text and ": nobody" in text
    assert re.search(r"location \d \w", text)
    assert "green token 0/1" in text and "colours 0/5" in text and "points 0/16" in text
    assert "seat 1 (you)" in text


def test_reference_states_draw_the_same_board() -> None:
    for variant, players in CASES[::2]:
        ours = ENGINES["rust"].new_game(variant, players=players, seed=9)
        ref = ENGINES["reference"].new_game(variant, players=players, seed=9)
        for _ in range(30):
            assert render.text_board(ours, 0) == render.text_board(ref, 0)
            a = ours.legal_actions()[0]
            ours.apply(int(a))
            ref.apply(int(a))


def test_a_view_is_the_only_input() -> None:
    state = splendor.new_game("base", seed=2)
    view = state.to_json(1)
    assert render.build_board(view) == render.board_of(state, 1)
    assert render.build_board(json.loads(view)) == render.board_of(state, 1)
    with pytest.raises(splendor.InvalidStateError, match="not a state's JSON view"):
        render.build_board('{"variant": "base"}')


def test_the_module_examples_run() -> None:
    import doctest

    import splendor.render

    result = doctest.testmod(splendor.render)
    assert result.attempted >= 3 and result.failed == 0
