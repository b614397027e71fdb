"""The base-game rule scenarios, written to ``scenarios.json`` by ``tests/data/make_golden.py``.

Each position starts from a real dealt game and is edited by moving cards and
tokens (so cards and tokens stay conserved); the reference engine only checks
that the position is valid. Every expectation below is written by hand from the
rules (rules/base.md), never computed by an engine.
"""

from __future__ import annotations

from typing import Any

import base_rulings
from base_builder import LETTERS, SCENARIOS, TRIPLES, Pos, cards_where, cost, scenario


def needs_red_or_black(c: int) -> bool:
    return cost(c)[3] > 0 or cost(c)[4] > 0


def no_legal_action() -> None:
    # Bank empty of colours, 3 reserves, and every card needs red or black, which
    # player 0 neither holds nor has as a bonus: nothing but pass.
    l1 = cards_where(0, needs_red_or_black)
    p = Pos(seed=1)
    for lv in range(3):
        p.row(lv, cards_where(lv, needs_red_or_black, tuple(l1[:3]))[-4:])
    for c in l1[:3]:
        p.reserve(0, c)
    p.tokens(0, "wwwwuuuugg").tokens(1, "ggrrrrkkkk")
    scenario(
        "no_legal_action_pass",
        "rules/base.md §9.1: pass only when no other action is legal",
        p.done(),
        [
            {"legal": ["pass"]},
            {"apply": "take w", "error": "IllegalActionError"},
            {"apply": "reserve deck 1", "error": "IllegalActionError"},
            {"apply": "pass", "expect": {"passes": 1, "current": 1, "turn": 1, "phase": "main"}},
            {"outcome": None},
        ],
    )


def stalled() -> None:
    def hard(c: int) -> bool:
        return cost(c)[0] > 0 and needs_red_or_black(c)

    res = cards_where(0, hard)[:6]
    p = Pos(seed=2)
    for lv in range(3):
        p.row(lv, cards_where(lv, hard, tuple(res))[:4])
    for c in res[:3]:
        p.reserve(0, c)
    for c in res[3:]:
        p.reserve(1, c)
    p.give(1, 15)  # 1 point, blue bonus: player 1 leads
    p.tokens(0, "wwwwuuuugg").tokens(1, "ggrrrrkkkk")
    scenario(
        "stalled_everyone_passes",
        "README ruling 8: every player passes in one round -> over, stalled, scored as usual",
        p.done(),
        [
            {"legal": ["pass"]},
            {"apply": "pass", "expect": {"passes": 1, "current": 1}},
            {"legal": ["pass"]},
            {
                "apply": "pass",
                "expect": {"passes": 2, "phase": "over", "current": None, "turn": 2},
                "outcome": {"winners": [1], "reason": "stalled"},
                "returns": [0.0, 1.0],
            },
            {"legal": [], "apply": "pass", "error": "IllegalActionError"},
        ],
    )

    # Player 0 also qualifies for two nobles (left unclaimed by the one-per-turn
    # rule): the pass is followed by a noble choice, and `passes` already counts it.
    tableau = [0, 1, 2, 3, 8, 9, 11, 14, 16, 17, 19]  # bonuses w4 u4 g3 (no points)
    res = cards_where(0, hard, tuple(tableau))[:6]
    p = Pos(seed=27).give(0, *tableau).nobles([0, 5, 9])
    for lv in range(3):
        p.row(lv, cards_where(lv, hard, tuple(res + tableau))[:4])
    for c in res[:3]:
        p.reserve(0, c)
    for c in res[3:]:
        p.reserve(1, c)
    p.tokens(0, "wwwwuuuugg").tokens(1, "ggrrrrkkkk")
    scenario(
        "pass_then_noble_choice",
        "docs/base.md: passes counts the pass when it is chosen; a noble choice may follow it",
        p.done(),
        [
            {"legal": ["pass"]},
            {
                "apply": "pass",
                "legal": ["noble 0", "noble 5"],
                "expect": {"phase": "noble", "passes": 1, "current": 0, "turn": 0},
            },
            {
                "apply": "noble 5",
                "legal": ["pass"],
                "expect": {"phase": "main", "passes": 1, "current": 1, "turn": 1, "nobles": [0, 9]},
                "scores": [3, 0],
            },
            {
                "apply": "pass",
                "expect": {"phase": "over", "passes": 2, "turn": 2},
                "outcome": {"winners": [0], "reason": "stalled"},
            },
        ],
    )


def few_colours() -> None:
    p = Pos(seed=3).tokens(0, "uggrrkk").tokens(1, "uggrrkk")
    # bank: w4 u2 g0 r0 k0
    scenario(
        "two_colours_left",
        "rules/base.md §9.2: under 3 colours -> take 2 or 1 different; doubles from piles >= 4",
        p.done(),
        [
            {"legal_takes": ["take wu", "take w", "take u", "take ww"]},
            {"apply": "take uu", "error": "IllegalActionError"},
            {"apply": "take wu", "expect": {"bank": [3, 1, 0, 0, 0, 5], "current": 1}},
            {"legal_takes": ["take wu", "take w", "take u"]},
            {"apply": "take ww", "error": "IllegalActionError"},
            {
                "apply": "take w",
                "expect": {"bank": [2, 1, 0, 0, 0, 5], "players.1.tokens": [1, 1, 2, 2, 2, 0]},
            },
        ],
    )
    p = Pos(seed=4).tokens(0, "uuggrrkk").tokens(1, "uuggrrkk")
    scenario(
        "one_colour_left",
        "rules/base.md §9.2: one colour left -> take 1, and the double while the pile holds 4",
        p.done(),
        [
            {"legal_takes": ["take w", "take ww"]},
            {"apply": "take ww", "expect": {"bank": [2, 0, 0, 0, 0, 5]}},
            {"legal_takes": ["take w"]},
        ],
    )
    p = Pos(seed=5).tokens(0, "wuugggrrrr").tokens(1, "wwwuugkkkk")
    scenario(
        "no_colour_left",
        "rules/base.md §9.1: no coloured token left -> no take (gold only by reserving)",
        p.done(),
        [
            {
                "legal_takes": [],
                "legal_has": ["reserve 1.1", "reserve deck 3"],
                "legal_lacks": ["pass"],
            }
        ],
    )


def double_threshold() -> None:
    p = Pos(seed=6).tokens(1, "w")
    scenario(
        "double_needs_four",
        "rules/base.md §9.3: take 2 of a colour only from a pile of 4 or more before taking",
        p.done(),
        [
            {"legal_takes": [*TRIPLES, "take uu", "take gg", "take rr", "take kk"]},
            {"apply": "take ww", "error": "IllegalActionError"},
            {
                "apply": "take uu",
                "expect": {"bank": [3, 2, 4, 4, 4, 5], "players.0.tokens": [0, 2, 0, 0, 0, 0]},
            },
            {"legal_takes": [*TRIPLES, "take gg", "take rr", "take kk"]},
        ],
    )


def reserving() -> None:
    p = Pos(seed=7).tokens(0, "wwuuggrrkk")
    card, refill = p.obj["board"][0][0], p.top(0)
    scenario(
        "reserve_at_ten_tokens",
        "rules/base.md §9.5: reserving at 10 tokens is legal; return 1 (gold allowed) down to 10",
        p.done(),
        [
            {"legal_has": ["reserve 1.1", "reserve deck 2"]},
            {
                "apply": "reserve 1.1",
                "legal": ["return w", "return u", "return g", "return r", "return k", "return y"],
                "expect": {
                    "phase": "return",
                    "current": 0,
                    "players.0.tokens": [2, 2, 2, 2, 2, 1],
                    "players.0.reserved": [{"card": card, "hidden": False, "level": 1}],
                    "board.0.0": refill,
                    "bank": [2, 2, 2, 2, 2, 4],
                },
            },
            {
                "apply": "return y",
                "expect": {
                    "phase": "main",
                    "current": 1,
                    "turn": 1,
                    "bank": [2, 2, 2, 2, 2, 5],
                    "players.0.tokens": [2, 2, 2, 2, 2, 0],
                },
            },
        ],
    )
    p = Pos(seed=8).tokens(1, "yyyyy")
    blind = p.top(1)
    scenario(
        "reserve_without_gold",
        "rules/base.md A3: reserving with no gold left is legal and gains no gold",
        p.done(),
        [
            {
                "apply": "reserve deck 2",
                "expect": {
                    "bank": [4, 4, 4, 4, 4, 0],
                    "players.0.tokens": [0, 0, 0, 0, 0, 0],
                    "players.0.reserved": [{"card": blind, "hidden": True, "level": 2}],
                    "deck_sizes": [36, 25, 16],
                    "current": 1,
                },
            }
        ],
    )
    p = Pos(seed=9)
    card, refill = p.obj["board"][2][1], p.top(2)
    scenario(
        "reserve_gains_gold",
        "rules/base.md A3: a reserve takes 1 gold; the face-up slot is refilled from the deck",
        p.done(),
        [
            {
                "apply": "reserve 3.2",
                "expect": {
                    "bank": [4, 4, 4, 4, 4, 4],
                    "players.0.tokens": [0, 0, 0, 0, 0, 1],
                    "players.0.reserved": [{"card": card, "hidden": False, "level": 3}],
                    "board.2.1": refill,
                    "deck_sizes": [36, 26, 15],
                },
            }
        ],
    )
    p = Pos(seed=10)
    l3 = list(p.obj["decks"][2])
    for i, c in enumerate(l3):
        p.give(i % 2, c)
    p.set(turn=1)
    scenario(
        "blind_reserve_empty_deck",
        "rules/base.md §9.9: no blind reserve from an empty deck; emptied slots stay empty",
        p.done(),
        [
            {
                "legal_has": ["reserve deck 1", "reserve deck 2", "reserve 3.1"],
                "legal_lacks": ["reserve deck 3"],
            },
            {"apply": "reserve deck 3", "error": "IllegalActionError"},
            {"apply": "reserve 3.1", "expect": {"board.2.0": None, "deck_sizes": [36, 26, 0]}},
            {"legal_lacks": ["reserve 3.1", "buy 3.1", "reserve deck 3"]},
        ],
    )
    p = Pos(seed=11)
    a, b, c = p.obj["decks"][0][:3]
    p.reserve(0, a).reserve(0, b, hidden=True).reserve(0, c)
    p.tokens(0, "".join(LETTERS[i] * n for i, n in enumerate(cost(b))))
    scenario(
        "buy_reserved_and_reserve_limit",
        "rules/base.md A3/A4: at most 3 reserved; buying a reserved card shifts later ones down",
        p.done(),
        [
            {
                "legal_lacks": ["reserve 1.1", "reserve deck 1", "pass"],
                "legal_has": ["buy reserved 2"],
            },
            {"apply": "reserve 1.1", "error": "IllegalActionError"},
            {
                "apply": "buy reserved 2",
                "expect": {
                    "players.0.reserved": [
                        {"card": a, "hidden": False, "level": 1},
                        {"card": c, "hidden": False, "level": 1},
                    ],
                    "players.0.cards": [b],
                },
            },
        ],
    )


def paying() -> None:
    def pos(seed: int, spec: str) -> tuple[Pos, int]:
        p = Pos(seed=seed).row(0, [2]).tokens(0, spec)  # card 2: white, costs 2 blue + 2 black
        return p, p.top(0)

    p, refill = pos(12, "uukky")
    scenario(
        "pay_gold_optional",
        "rules/base.md §9.7: gold use is optional; with several payments the player chooses",
        p.done(),
        [
            {
                "apply": "buy 1.1",
                "legal": ["pay", "pay gold k", "pay gold u"],
                "expect": {"phase": "pay", "pending": 45, "current": 0, "board.0.0": 2},
            },
            {"apply": "buy 1.1", "error": "IllegalActionError"},
            {"apply": "pay gold kk", "error": "IllegalActionError"},
            {
                "apply": "pay gold u",
                "expect": {
                    "phase": "main",
                    "pending": None,
                    "current": 1,
                    "players.0.tokens": [0, 1, 0, 0, 0, 0],
                    "players.0.cards": [2],
                    "bank": [4, 3, 4, 4, 4, 5],
                    "board.0.0": refill,
                },
            },
        ],
    )
    p, _ = pos(13, "uukkyy")
    scenario(
        "pay_choices_two_gold",
        "rules/base.md A4: every exact payment is offered, in id order",
        p.done(),
        [
            {
                "apply": "buy 1.1",
                "legal": [
                    "pay",
                    "pay gold k",
                    "pay gold kk",
                    "pay gold u",
                    "pay gold uk",
                    "pay gold uu",
                ],
            },
            {
                "apply": "pay",
                "expect": {"players.0.tokens": [0, 0, 0, 0, 0, 2], "bank": [4, 4, 4, 4, 4, 3]},
            },
        ],
    )
    p, _ = pos(14, "uukk")
    scenario(
        "pay_single_way_completes",
        "docs/base.md: exactly one payment -> the buy completes at once (no pay phase)",
        p.done(),
        [
            {
                "apply": "buy 1.1",
                "expect": {
                    "phase": "main",
                    "current": 1,
                    "players.0.cards": [2],
                    "players.0.tokens": [0, 0, 0, 0, 0, 0],
                },
            }
        ],
    )
    p, _ = pos(15, "ukky")
    scenario(
        "pay_gold_when_short",
        "rules/base.md A4: gold stands in for a missing token; the only payment completes at once",
        p.done(),
        [
            {
                "apply": "buy 1.1",
                "expect": {
                    "phase": "main",
                    "players.0.tokens": [0, 0, 0, 0, 0, 0],
                    "bank": [4, 4, 4, 4, 4, 5],
                },
            }
        ],
    )
    p, _ = pos(16, "uk")
    scenario(
        "cannot_afford",
        "rules/base.md A4: a card is bought only when an exact payment exists",
        p.done(),
        [{"legal_lacks": ["buy 1.1"]}, {"apply": "buy 1.1", "error": "IllegalActionError"}],
    )
    p = Pos(seed=17).give(0, 8, 9, 11).row(0, [2, 17]).tokens(0, "uukk")
    scenario(
        "exact_payment_no_change",
        "rules/base.md §9.8: pay the reduced cost exactly; a bonus above a cost gives no credit",
        p.done(),
        [
            {"legal_has": ["buy 1.1"], "legal_lacks": ["buy 1.2"]},
            {
                "apply": "buy 1.1",
                "expect": {
                    "players.0.tokens": [0, 2, 0, 0, 0, 0],
                    "players.0.cards": [2, 8, 9, 11],
                    "bank": [4, 2, 4, 4, 4, 5],
                    "phase": "main",
                },
            },
        ],
    )


def nobles() -> None:
    # Bonuses w4 u3 g4; buying blue card 11 (2 green + 2 black) reaches 4w4u (noble 0)
    # and 4u4g (noble 2) at once; noble 9 (3g3r3k) is out of reach.
    p = Pos(seed=18).give(0, 0, 1, 2, 3, 8, 9, 10, 16, 17, 18, 19).row(0, [11])
    p.nobles([0, 2, 9]).tokens(0, "kk")
    scenario(
        "noble_choice_one_per_turn",
        "rules/base.md §9.6: two nobles qualify -> the player picks one; the other stays and"
        " comes on a later turn (any action)",
        p.done(),
        [
            {
                "apply": "buy 1.1",
                "legal": ["noble 0", "noble 2"],
                "expect": {"phase": "noble", "current": 0, "players.0.nobles": []},
            },
            {"apply": "noble 9", "error": "IllegalActionError"},
            {
                "apply": "noble 2",
                "expect": {
                    "phase": "main",
                    "current": 1,
                    "turn": 1,
                    "nobles": [0, 9],
                    "players.0.nobles": [2],
                },
                "scores": [3, 0],
            },
            {"apply": "take wug"},
            {
                "apply": "take wug",
                "expect": {"nobles": [9], "players.0.nobles": [2, 0], "current": 1},
                "scores": [6, 0],
            },
        ],
    )
    p = Pos(seed=19).give(0, 0, 1, 2, 8, 9, 10, 16, 17, 18).nobles([5, 0, 9])
    scenario(
        "noble_on_take_turn",
        "rules/base.md §7: nobles are checked after every action; one qualifies -> claimed at once",
        p.done(),
        [
            {
                "apply": "take wug",
                "expect": {
                    "nobles": [0, 9],
                    "players.0.nobles": [5],
                    "phase": "main",
                    "current": 1,
                },
                "scores": [3, 0],
            }
        ],
    )


def ending() -> None:
    p = Pos(players=3, seed=20).give(1, 45, 71, 75, 51).give(2, 57, 79, 87, 63)
    p.row(1, [42, 69]).tokens(1, "rrrrr").tokens(2, "kkkkk").set(turn=1)
    scenario(
        "final_round_overtake",
        "rules/base.md §9.10: 15 points starts the last round; a later player overtakes and wins",
        p.done(),
        [
            {"scores": [0, 14, 14]},
            {
                "apply": "buy 2.1",
                "expect": {"phase": "main", "current": 2, "turn": 2},
                "outcome": None,
            },
            {"scores": [0, 16, 14]},
            {
                "apply": "buy 2.2",
                "expect": {"phase": "over", "current": None, "turn": 3},
                "scores": [0, 16, 17],
                "outcome": {"winners": [2], "reason": "points"},
                "returns": [0.0, 0.0, 1.0],
            },
        ],
    )
    p = Pos(players=3, seed=21).give(0, 45, 71, 75, 79).set(turn=1)
    scenario(
        "last_round_is_finished",
        "rules/base.md §8: the game does not stop at 15; it ends after the last seat's turn",
        p.done(),
        [
            {"apply": "take wug", "outcome": None, "expect": {"current": 2}},
            {"apply": "take wug", "outcome": {"winners": [0], "reason": "points"}},
        ],
    )
    for name, extra, winners, rule in (
        ("tie_fewest_cards", (0, 8), [1], "rules/base.md §9.10: tie -> fewest purchased cards"),
        ("shared_win", (), [0, 1], "README ruling 7: still tied -> shared win"),
    ):
        p = Pos(seed=22).give(0, 71, 75, 79, 45, *extra).give(1, 83, 87, 73)
        p.row(1, [42]).tokens(1, "rrrr").set(turn=1)
        scenario(
            name,
            rule,
            p.done(),
            [
                {
                    "apply": "buy 2.1",
                    "scores": [15, 15],
                    "outcome": {"winners": winners, "reason": "points"},
                    "returns": [1.0 / len(winners) if s in winners else 0.0 for s in range(2)],
                }
            ],
        )
    p = Pos(seed=23, turn_cap=1).set(turn=1)
    scenario(
        "turn_cap_truncates",
        "README ruling 9: the turn cap ends the game as truncated, no winner",
        p.done(),
        [
            {"outcome": None, "returns": [0.0, 0.0]},
            {
                "apply": "take wug",
                "expect": {"phase": "over", "current": None, "turn": 2},
                "outcome": {"winners": [], "reason": "truncated"},
                "returns": [0.0, 0.0],
            },
            {"legal": []},
        ],
    )
    p = Pos(seed=24, turn_cap=1).give(0, 71, 75, 79, 45).set(turn=1)
    scenario(
        "points_before_turn_cap",
        "docs/base.md step 3: the points end is checked before the turn cap",
        p.done(),
        [{"apply": "take wug", "outcome": {"winners": [0], "reason": "points"}}],
    )


def returns() -> None:
    p = Pos(seed=25).tokens(0, "wwuuggrrk")
    scenario(
        "return_down_to_ten",
        "rules/base.md §5: over 10 at the end of the turn -> return one at a time to exactly 10",
        p.done(),
        [
            {
                "apply": "take grk",
                "legal": ["return w", "return u", "return g", "return r", "return k"],
                "expect": {"phase": "return"},
            },
            {"apply": "return y", "error": "IllegalActionError"},
            {
                "apply": "return w",
                "expect": {"phase": "return", "current": 0, "players.0.tokens": [1, 2, 3, 3, 2, 0]},
            },
            {
                "apply": "return k",
                "expect": {
                    "phase": "main",
                    "current": 1,
                    "turn": 1,
                    "players.0.tokens": [1, 2, 3, 3, 1, 0],
                    "bank": [3, 2, 1, 1, 3, 5],
                },
            },
        ],
    )
    p = Pos(seed=26).tokens(0, "wwuuggr")
    scenario(
        "no_return_at_ten",
        "rules/base.md §5: exactly 10 tokens at the end of the turn -> nothing to return",
        p.done(),
        [
            {
                "apply": "take grk",
                "expect": {"phase": "main", "current": 1, "players.0.tokens": [2, 2, 3, 2, 1, 0]},
            }
        ],
    )


def generate() -> list[dict[str, Any]]:
    """Every base-game scenario, in the order of the rule groups above."""
    SCENARIOS.clear()
    for make in (
        no_legal_action,
        stalled,
        few_colours,
        double_threshold,
        reserving,
        paying,
        nobles,
        ending,
        returns,
        *base_rulings.MAKERS,
    ):
        make()
    return list(SCENARIOS.values())
