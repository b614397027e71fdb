"""What a decision did, in words (splendor.render.describe), in every variant, and what the
web log and the final standings say with it: each line names what changed, and a card
reserved blind stays hidden from those who may not see it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
import splendor
from fastapi.testclient import TestClient
from splendor import render
from splendor.render.describe import card_words, describe
from splendor.web import ServerLimits, create_app
from splendor.web.games import Dealer, standings
from test_web_api import Table

GAMES = [("base", 2), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 3)]


def played(variant: str, players: int, seed: int) -> list[tuple[Any, Any, Any, Any, int, str]]:
    """Every decision of a random game: the mover's and the public boards before and after,
    the mover and the action text."""
    state = splendor.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        seat = int(state.current_player)
        action = rng.choice(state.legal_actions())
        own0, pub0 = render.board_of(state, seat), render.board_of(state, render.PUBLIC)
        state.apply(action)
        own1, pub1 = render.board_of(state, seat), render.board_of(state, render.PUBLIC)
        out.append((own0, own1, pub0, pub1, seat, str(action)))
    return out


def colour_names(board: Any) -> set[str]:
    return {k.name for k in board.kinds}


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_decision_says_what_changed(variant: str, players: int) -> None:
    seen_card = seen_tokens = 0
    for own0, own1, _pub0, _pub1, seat, text in played(variant, players, seed=7):
        said = describe(own0, own1, seat, text)
        assert said, text
        mine0 = next(s for s in own0.seats if s.index == seat)
        mine1 = next(s for s in own1.seats if s.index == seat)
        if mine1.cards > mine0.cards:
            verb = "recruited" if variant == "marvel" else "bought"
            assert said.startswith(verb) and "level-" in said, (text, said)
            seen_card += 1
        if len(mine1.reserved) > len(mine0.reserved):
            assert said.startswith("reserved a") or "reserved " in said, (text, said)
        if text.startswith("take") and variant != "duel":
            assert said.startswith("took "), (text, said)
            seen_tokens += 1
        new_tiles = {t.label for t in mine1.tiles} - {t.label for t in mine0.tiles}
        for label in new_tiles:
            assert f"the {label.split()[0]}" in said and "came" in said, (text, said)
        if mine1.points != mine0.points:
            assert f"now {mine1.points} point" in said
    assert seen_card and (seen_tokens or variant == "duel")


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_blind_reserve_stays_hidden_from_the_others(variant: str, players: int) -> None:
    """The mover's words name the card reserved from a deck; everyone else's name only its
    level, and no colour, cost or points of it."""
    checked = 0
    for seed in range(6):
        for own0, own1, pub0, pub1, seat, text in played(variant, players, seed):
            if not text.startswith("reserve deck"):
                continue
            mine, theirs = describe(own0, own1, seat, text), describe(pub0, pub1, seat, text)
            card = next(s for s in own1.seats if s.index == seat).reserved[-1].card
            assert card is not None and card_words(card, own1) in mine
            head = theirs.split(";")[0]
            assert head == f"reserved a level-{card.level} card from the level-{card.level} deck"
            assert not colour_names(own1) & set(re.findall(r"[a-z]+", head))
            assert "cost" not in theirs and "point" not in head
            checked += 1
    assert checked, "some game reserved from a deck"


def test_a_noble_visit_is_in_the_words() -> None:
    """Nobles come by themselves after a buy (no decision of their own): the buy says so."""
    for seed in range(20):
        for own0, own1, _, _, seat, text in played("base", 2, seed):
            mine0 = next(s for s in own0.seats if s.index == seat)
            mine1 = next(s for s in own1.seats if s.index == seat)
            if len(mine1.tiles) > len(mine0.tiles):
                said = describe(own0, own1, seat, text)
                assert text.startswith(("buy", "pay")) and "the noble" in said and "came" in said
                return
    raise AssertionError("no noble came in 20 random games")


def test_the_web_log_gives_each_viewer_its_own_words() -> None:
    """A game loaded at the server: each log line's words are the mover's for the mover and
    the public ones for the other seat and the spectators, until the game is over."""
    state = splendor.new_game("base", players=2, seed=4)
    start = state.to_json()
    rng = random.Random(4)
    actions: list[int] = []
    while not any(str(a).startswith("reserve deck") for a in state.legal_actions()) or (
        int(state.current_player) != 0
    ):
        a = rng.choice([a for a in state.legal_actions() if not str(a).startswith("reserve")])
        actions.append(int(a))
        state.apply(a)
    deck = next(a for a in state.legal_actions() if str(a).startswith("reserve deck"))
    with TestClient(create_app(ServerLimits(workers=1))) as client:
        body = {"start": json.loads(start), "actions": actions, "ai_seats": [], "bot": "greedy"}
        table = Table(client, client.post("/api/v1/games/load", json=body).json())
        mine = table.act(0, int(deck))
        theirs, watching = table.get(1), table.get(None)
        card_line = mine["log"][-1]["says"]
        assert mine["last"]["says"] == card_line and "cost" in card_line
        for other in (theirs, watching):
            assert other["log"][-1]["says"].startswith("reserved a level-")
            assert "cost" not in other["log"][-1]["says"]
            assert other["last"]["says"] == other["log"][-1]["says"]
        assert all(e["says"] for e in mine["log"])


def test_the_final_standings() -> None:
    state = splendor.new_game("base", players=3, seed=2)
    start = state.to_json()
    rng = random.Random(2)
    actions = []
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        actions.append(int(a))
        state.apply(a)
    game = Dealer().make(start, [], "greedy", actions)
    result = game.result()
    assert result is not None
    table = result.standings
    outcome = state.outcome()
    assert outcome is not None
    assert [s.seat for s in table if s.rank == 1] == list(outcome.winners)
    assert sorted(s.seat for s in table) == [0, 1, 2]
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True) or (
        table[0].rank == 1
    )
    assert {s.seat: s.points for s in table} == dict(enumerate(state.scores()))
    assert result.decided_by.startswith("the most points") or "level" in result.decided_by


def test_a_points_tie_says_the_fewest_cards_won() -> None:
    class Tied:
        winners = (1,)
        reason = "points"

    state = splendor.new_game("base", players=2, seed=1)
    full = json.loads(state.to_json())

    class Fake:
        def to_json(self) -> str:
            full["players"][0]["cards"] = list(range(9))
            full["players"][1]["cards"] = list(range(7))
            return json.dumps(full)

        def scores(self) -> list[int]:
            return [15, 15]

    table, decided = standings(Fake(), Tied())
    assert [(s.rank, s.seat, s.cards) for s in table] == [(1, 1, 7), (2, 0, 9)]
    assert decided == "2 seats level on 15 points: the fewest cards won"
