"""What the page is told beyond the action texts (``splendor.web.notes``): why a bank token
is never taken, what a card one may reserve but not buy lacks, each seat's score; and the
board's plurals and scores past the target."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor import render
from splendor.errors import IllegalActionError, InvalidActionError
from splendor.render.model import Stat
from splendor.render.text import counted, stat_text
from splendor.web import ServerLimits, create_app
from splendor.web.notes import legal_actions, place_notes, scores
from splendor.web.picks import action_picks

VARIANTS = ["base", "duel", "marvel"]


def refused(state: Any, text: str) -> bool:
    trial = state.clone()
    try:
        trial.apply(trial.action_from_text(text))
    except (IllegalActionError, InvalidActionError):
        return True
    return False


def played(variant: str, seed: int, steps: int) -> Any:
    """A game after ``steps`` greedy-ish decisions (buys first, then the longest take)."""
    state = splendor.new_game(variant, players=2, seed=seed)
    buy = splendor.variant_info()[variant].verbs.buy
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = [str(a) for a in state.legal_actions()]
        buys = [t for t in legal if t.startswith(buy + " ")]
        takes = [t for t in legal if t.startswith("take ")]
        text = buys[0] if buys else max(takes, key=len) if takes else legal[0]
        state.apply(state.action_from_text(text))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_places_no_take_picks_are_refused_by_the_engine(variant: str, seed: int) -> None:
    """Each note's claim holds: the engine refuses to take that token (or that gold cell),
    and no legal action of a take picks it."""
    state = played(variant, seed, 6)
    view = json.loads(state.to_json(state.current_player))
    notes = place_notes(variant, view)
    assert notes, "every variant has a token that is never taken"
    take = splendor.variant_info()[variant].verbs.take
    legal = [str(a) for a in state.legal_actions()]
    for place, words in notes.items():
        kind, name = place.split()
        assert refused(state, f"{take} {name}"), place
        assert "never taken" in words
        takes = [t for t in legal if t.startswith("take ")]
        assert not any(place in action_picks(variant, t) for t in takes)
        if kind == "cell":
            assert view["board"]["abcde".index(name[0]) + 5 * (int(name[1]) - 1)] == "y"
            assert f"`gold {name}`" in words
    if variant == "duel":
        gold = sum(1 for letter in view["board"] if letter == "y")
        assert len(notes) == gold


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_reserve_of_a_card_one_cannot_buy_says_what_it_lacks(variant: str) -> None:
    state = splendor.new_game(variant, players=2, seed=5)
    if variant == "duel":  # a Duel reserve comes after taking a gold: then buying is no choice
        gold = next(a for a in state.legal_actions() if str(a).startswith("gold "))
        state.apply(gold)
    view = json.loads(state.to_json(state.current_player))
    actions = legal_actions(state, variant, str(view.get("phase", "main")), action_picks)
    buy = splendor.variant_info()[variant].verbs.buy
    noted = [a for a in actions if a.note]
    if variant == "duel":
        assert not noted
        return
    reserves = [a for a in actions if re.fullmatch(r"reserve [1-3]\.[1-5]", a.text)]
    assert noted and {a.id for a in noted} <= {a.id for a in reserves}
    for a in reserves:
        slot = a.text.split()[1]
        if refused(state, f"{buy} {slot}"):
            assert a.note.startswith("you cannot afford it: you lack "), a.note
            # In words, not letters: `2 red 1 black`.
            assert not re.search(r"\b\d+[a-z]\b", a.note), a.note
        else:
            assert a.note == ""
    for a in actions:
        if not a.text.startswith("reserve "):
            assert a.note == ""


@pytest.mark.parametrize("variant", VARIANTS)
def test_scores_are_each_seats_real_figures(variant: str) -> None:
    state = played(variant, 7, 30)
    full = json.loads(state.to_json())
    target = {"base": 15, "duel": 20, "marvel": 16}[variant]
    for viewer in (0, 1, render.PUBLIC):
        got = scores(render.board_of(state, viewer))
        assert [s.points for s in got] == [int(p) for p in state.scores()]
        assert [s.cards for s in got] == [len(p["cards"]) for p in full["players"]]
        assert [s.target for s in got] == [target, target]
        assert [s.reserved for s in got] == [len(p["reserved"]) for p in full["players"]]
        assert all(s.tokens >= 0 for s in got)


def test_a_figure_past_its_target_reads_as_the_real_score() -> None:
    assert stat_text(Stat("points", "points", 8, 15)) == "points 8/15"
    assert stat_text(Stat("points", "points", 15, 15)) == "points 15/15"
    assert stat_text(Stat("points", "points", 16, 15)) == "points 16 (target 15)"
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_board_says_one_card_not_one_cards(variant: str) -> None:
    state = splendor.new_game(variant, players=2, seed=3)
    buy = splendor.variant_info()[variant].verbs.buy
    for _ in range(80):
        if any(len(p["cards"]) == 1 for p in json.loads(state.to_json())["players"]):
            break
        legal = [str(a) for a in state.legal_actions()]
        buys = [t for t in legal if t.startswith(buy + " ")]
        takes = [t for t in legal if t.startswith("take ")]
        text = buys[0] if buys else max(takes, key=len) if takes else legal[0]
        state.apply(state.action_from_text(text))
    svg = str(render.svg_board(state, 0))
    assert re.search(r"\b1 card\b", svg)
    assert not re.search(r"(?<![\d.])1 (cards|points|crowns)\b", svg)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerLimits(workers=1), db="sqlite://")) as c:
        yield c


def test_a_snapshot_carries_the_notes_and_scores(client: TestClient) -> None:
    body = {"variant": "base", "players": 2, "seed": 3, "ai_seats": [1], "bot": "greedy"}
    made = client.post("/api/v1/games", json=body).json()
    seat = made["seats"][0]["token"]
    path = f"/api/v1/games/{made['game_id']}"
    snap = client.get(path, headers={"Authorization": f"Bearer {seat}"}).json()
    assert set(snap["place_notes"]) == {"token y"}
    assert any(a["note"].startswith("you cannot afford it") for a in snap["legal"])
    assert [s["points"] for s in snap["scores"]] == [0, 0]
    # A spectator is told the same public figures and notes, and plays nothing.
    watch = made["spectator"]["token"]
    public = client.get(path, headers={"Authorization": f"Bearer {watch}"}).json()
    assert public["scores"] == snap["scores"] and public["place_notes"] == snap["place_notes"]
    assert public["legal"] == []
