"""Every variant's text picture (``str(state)``) has one layout and one set of words, and both
engines draw it identically (docs/contract.md, *The text picture*)."""

from __future__ import annotations

import re

import pytest
import splendor
from splendor import reference as ref
from splendor.reference.rng import SplitMix64

GAMES = [("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 4)]
TITLES = {"base": "Splendor", "duel": "Splendor Duel", "marvel": "Splendor: Marvel"}
TILES = {"base": "nobles", "duel": "royals", "marvel": "locations"}
HEADER = re.compile(
    r"^(?P<title>.+), (?P<seats>\d) seats, turn (?P<turn>\d+), "
    r"(seat (?P<seat>\d) to play \((?P<phase>\w+)\)|game over)$"
)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_both_engines_draw_the_same_picture(variant: str, players: int) -> None:
    """Random games, blind reserves included, compared after every decision."""
    for seed in range(4):
        fast = splendor.new_game(variant, players=players, seed=seed)
        slow = ref.new_game(variant, players=players, seed=seed)
        rng = SplitMix64(seed)
        while True:
            assert str(fast) == str(slow), f"{variant} {players}p seed {seed}"
            if fast.is_terminal():
                break
            ids = fast.legal_action_ids()
            blind = [a for a in ids if "deck" in fast.action_from_id(a).text]
            a = blind[0] if blind and rng.below(3) == 0 else ids[rng.below(len(ids))]
            fast.apply(a)
            slow.apply(a)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_one_layout_and_one_set_of_words(variant: str, players: int) -> None:
    state = splendor.new_game(variant, players=players, seed=1)
    rng = SplitMix64(1)
    pictures = [str(state)]
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply(ids[rng.below(len(ids))])
        pictures.append(str(state))
    for text in pictures:
        lines = text.split("\n")
        head = HEADER.match(lines[0])
        assert head is not None, lines[0]
        assert head["title"] == TITLES[variant] and int(head["seats"]) == players
        assert any(line.startswith(f"{TILES[variant]}: ") for line in lines)
        rows = [line for line in lines if re.match(r"^L[123] \(\d+ left\): ", line)]
        assert [r[:2] for r in rows] == ["L3", "L2", "L1"]
        seats = [line for line in lines if line.startswith("seat ")]
        assert [s.split(":")[0] for s in seats] == [f"seat {p}" for p in range(players)]
        assert all(re.match(r"seat \d: \d+ points", s) for s in seats), seats
        assert all("tokens [" in s and "bonuses [" in s for s in seats)
        assert "player" not in text
    over = pictures[-1].split("\n")
    assert over[0].endswith("game over") and over[-1].startswith("result: ")
