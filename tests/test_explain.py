"""Illegal actions are explained, with the same words by both engines.

``apply`` of an illegal action raises ``IllegalActionError("`<text>` is not legal
now: <reason>")``; the reasons are listed in docs/contract.md (*Why an action is
illegal*). The Rust reasons come from ``Game::explain_illegal``, the reference's
from ``reference/*_explain.py``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import splendor
import splendor.reference
from splendor.errors import IllegalActionError
from splendor.reference.rng import SplitMix64

CASES = [("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 4)]
NOT_EXPLAINED = "it is not legal in this position"


def refusal(state: Any, action: int | str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.to_json() == before  # unchanged
    return str(info.value)


def shape(message: str) -> str:
    """The message with numbers, cells and quoted actions abstracted (for coverage counts)."""
    message = re.sub(r"`[^`]*`", "`X`", message.split(" is not legal now: ", 1)[1])
    return re.sub(r"\b[a-e][1-5]\b|\d+", "N", message)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_both_engines_give_the_same_reason(variant: str, players: int) -> None:
    """Lockstep random games; at every step a sample of the illegal actions is tried
    on both engines: same message, a real reason, the state unchanged."""
    shapes: Counter[str] = Counter()
    for seed in range(4):
        ours = splendor.new_game(variant, players=players, seed=seed)
        ref = splendor.reference.new_game(variant, players=players, seed=seed)
        rng = SplitMix64(seed)
        while not ours.is_terminal():
            legal = ours.legal_action_ids()
            illegal = sorted(set(range(ours.num_actions)) - set(legal))
            for _ in range(12):
                a = illegal[rng.below(len(illegal))]
                message = refusal(ours, a)
                assert message == refusal(ref, a)
                assert message.startswith(f"`{ours.action_from_id(a)}` is not legal now: ")
                assert NOT_EXPLAINED not in message, message
                shapes[shape(message)] += 1
            a = legal[rng.below(len(legal))]
            ours.apply(a)
            ref.apply(a)
    # Many different reasons were met, not one catch-all.
    assert len(shapes) >= (20 if variant == "duel" else 15), shapes


def first_state(variant: str, want: Any, *, players: int = 2, seeds: int = 40) -> Any:
    """The first state of seeded random games for which ``want(state)`` holds."""
    for seed in range(seeds):
        state = splendor.new_game(variant, players=players, seed=seed)
        rng = SplitMix64(seed)
        while not state.is_terminal():
            if want(state):
                return state
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    raise AssertionError("no such state in the seeded games")


def bank(state: Any) -> list[int]:
    import json

    return list(json.loads(state.to_json())["bank"])


@pytest.mark.parametrize(
    ("variant", "colour", "letter"), [("base", "red", "r"), ("marvel", "purple", "p")]
)
def test_a_double_take_needs_a_pile_of_four(variant: str, colour: str, letter: str) -> None:
    index = "wugrk".index(letter) if variant == "base" else 0
    state = first_state(
        variant,
        lambda s: (
            s.current_player >= 0 and '"phase":"main"' in s.to_json() and 0 < bank(s)[index] < 4
        ),
    )
    n = bank(state)[index]
    assert refusal(state, f"take {letter}{letter}") == (
        f"`take {letter}{letter}` is not legal now: the {colour} pile has {n} tokens:"
        " taking 2 of one colour needs at least 4"
    )


def test_duel_reserving_starts_with_a_gold() -> None:
    state = splendor.new_game("duel", seed=1)
    assert refusal(state, "reserve 3.1") == (
        "`reserve 3.1` is not legal now: take a gold token first (`gold <cell>`):"
        " reserving starts with it"
    )
    gold = next(str(a) for a in state.legal_actions() if str(a).startswith("gold"))
    state.apply(gold)
    assert refusal(state, "take a1") == (
        "`take a1` is not legal now: choose the card to reserve first"
        " (`reserve L.s` or `reserve deck L`)"
    )


def test_base_reasons_name_the_rule() -> None:
    state = splendor.new_game("base", seed=3)
    assert refusal(state, "buy 3.1").startswith(
        "`buy 3.1` is not legal now: you cannot afford it: you lack "
    )
    assert refusal(state, "buy reserved 1") == (
        "`buy reserved 1` is not legal now: you have no reserved card 1"
    )
    assert refusal(state, "pass") == (
        "`pass` is not legal now: pass is allowed only when no other action is"
    )
    assert refusal(state, "return w") == (
        "`return w` is not legal now: choose a main action first (take, reserve or buy)"
    )
    for _ in range(3):
        state.apply("reserve deck 1")
        state.apply("take wug")
    assert refusal(state, "reserve 1.1") == (
        "`reserve 1.1` is not legal now: you already hold 3 reserved cards"
    )
    full = first_state("base", lambda s: '"phase":"return"' in s.to_json())
    assert "return one first (`return x`)" in refusal(full, "take wug")
    pay = first_state("base", lambda s: '"phase":"pay"' in s.to_json())
    assert "first choose how to pay for `buy" in refusal(pay, "take wug")
    # Three colours left in the bank: taking fewer is not allowed.
    assert refusal(splendor.new_game("base"), "take w") == (
        "`take w` is not legal now: the bank has 5 colours: take 3 different ones"
        " (fewer only when fewer than 3 colours are left)"
    )


def test_duel_reasons_name_the_rule() -> None:
    state = splendor.new_game("duel", seed=2)
    assert (
        refusal(state, "privilege a1") == "`privilege a1` is not legal now: you hold no privilege"
    )
    assert refusal(state, "replenish") == "`replenish` is not legal now: the bag is empty"
    golds = [str(a).split()[1] for a in state.legal_actions() if str(a).startswith("gold")]
    assert "holds gold: gold is taken only with `gold " in refusal(state, f"take {golds[0]}")
    assert refusal(state, "buy 3.1").startswith("`buy 3.1` is not legal now: you cannot afford it")
    joker = first_state(
        "duel",
        lambda s: (
            s.current_player >= 0
            and '"phase":"main"' in s.to_json()
            and any(
                "a joker joins" in m
                for m in [
                    _reason(s, f"buy {lv}.{k}")
                    for lv, n in ((1, 5), (2, 4), (3, 3))
                    for k in range(1, n + 1)
                ]
            )
        ),
    )
    assert joker is not None


def _reason(state: Any, text: str) -> str:
    try:
        state.clone().apply(text)
    except IllegalActionError as exc:
        return str(exc)
    return ""


def test_marvel_reasons_use_marvel_words() -> None:
    state = splendor.new_game("marvel", seed=3)
    assert refusal(state, "recruit 3.1").startswith(
        "`recruit 3.1` is not legal now: you cannot afford it: you lack "
    )
    assert refusal(state, "recruit 3.1").endswith("and hold 0 grey")
    assert refusal(state, "location 0") == (
        "`location 0` is not legal now: choose a main action first (take, reserve or recruit)"
    )
