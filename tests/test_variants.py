"""The registry of the games' facts (``splendor.variant_info``) says what the engine does."""

from __future__ import annotations

import dataclasses

import pytest
import splendor


def test_the_registry_names_every_variant_in_order() -> None:
    assert tuple(splendor.variant_info()) == splendor.VARIANTS
    for name, info in splendor.variant_info().items():
        assert info.name == name


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_the_player_counts_are_the_engines(variant: str) -> None:
    info = splendor.variant_info()[variant]
    for players in range(0, 7):
        if players in info.players:
            assert splendor.new_game(variant, players=players, seed=0).num_players == players
        else:
            with pytest.raises(splendor.SplendorError):
                splendor.new_game(variant, players=players, seed=0)
    assert list(info.players) == sorted(info.players)


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_the_verbs_are_the_action_texts(variant: str) -> None:
    """Each verb begins some legal action of a random game (and no other word buys)."""
    verbs = splendor.variant_info()[variant].verbs
    seen: set[str] = set()
    for seed in range(4):
        state = splendor.new_game(variant, seed=seed)
        playout = splendor.RandomBot(seed=seed)
        while not state.is_terminal():
            seen |= {str(a).split()[0] for a in state.legal_actions()}
            state.apply(playout.act(state))
    assert {verbs.buy, verbs.reserve, verbs.take} <= seen
    assert not {"buy", "recruit"} - {verbs.buy} & seen


def test_the_titles_are_on_the_boards() -> None:
    for name, info in splendor.variant_info().items():
        state = splendor.new_game(name, seed=0)
        assert info.title in splendor.render.svg_board(state, 0)


def test_the_registry_cannot_be_changed_from_outside() -> None:
    infos = splendor.variant_info()
    infos.pop("duel")
    assert "duel" in splendor.variant_info()
    with pytest.raises(dataclasses.FrozenInstanceError):
        splendor.variant_info()["base"].title = "Other"  # type: ignore[misc]
