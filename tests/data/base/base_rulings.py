"""More base-game scenarios: each plays a few turns of a seeded deal edited in a few places.

They were Rust tests written against the crate's accessors (``tests/base_rules.rs``); as data,
every engine runs them. As in ``base_scenarios.py``, every expectation is written by hand from
the rules (rules/base.md), never computed by an engine; only card ids that the deal decides (a
slot's card, a deck's top) are read from the position.
"""

from __future__ import annotations

from collections.abc import Callable

from base_builder import LETTERS, TRIPLES, Pos, scenario

DOUBLES = ["take ww", "take uu", "take gg", "take rr", "take kk"]
RESERVES = [f"reserve {level}.{slot}" for level in (1, 2, 3) for slot in (1, 2, 3, 4)] + [
    f"reserve deck {level}" for level in (1, 2, 3)
]


def set_bank(p: Pos, bank: list[int]) -> Pos:
    """Leave ``bank`` in the bank of a fresh deal: the rest goes to the seats after 0 first, then
    to seat 0, colour by colour, at most 10 tokens a seat."""
    seats = p.obj["num_players"]
    order = [*range(1, seats), 0]
    held = [0] * seats
    k = 0
    for colour, left in enumerate(bank):
        for _ in range(p.obj["bank"][colour] - left):
            while held[order[k]] >= 10:
                k += 1
            p.tokens(order[k], LETTERS[colour])
            held[order[k]] += 1
    return p


def opening() -> None:
    scenario(
        "opening_moves",
        "rules/base.md §3: at the opening, the 10 triples, the 5 doubles and the 15 reserves",
        Pos(seed=1).done(),
        [{"legal": [*TRIPLES, *DOUBLES, *RESERVES]}],
    )
    scenario(
        "two_colours_of_one_token_each",
        "rules/base.md §9.2: two colours left -> take both or one; no double from a pile of 1-2",
        set_bank(Pos(seed=2), [1, 0, 0, 2, 0, 5]).done(),
        [{"legal_takes": ["take wr", "take w", "take r"]}],
    )
    scenario(
        "three_colours_only_the_triple",
        "rules/base.md §9.2: three colours left -> the triple only, no pair or single",
        set_bank(Pos(seed=2), [1, 0, 3, 2, 0, 5]).done(),
        [{"legal_takes": ["take wgr"]}],
    )
    scenario(
        "double_from_four_with_four_players",
        "rules/base.md §9.3: with 4 players, take 2 only from a pile of 4 or more",
        set_bank(Pos(players=4, seed=3), [3, 4, 7, 0, 0, 5]).done(),
        [
            {"legal_takes": ["take wug", "take uu", "take gg"]},
            {"apply": "take uu", "expect": {"players.0.tokens.1": 2, "bank.1": 2}},
        ],
    )


def reserving() -> None:
    p = Pos(seed=4)
    card, refill, top3 = p.obj["board"][0][1], p.top(0), p.top(2)
    scenario(
        "reserve_face_up_then_blind",
        "rules/base.md A3: a reserve takes a gold and refills the slot; a blind reserve is "
        "hidden from the other seats only",
        p.done(),
        [
            {
                "apply": "reserve 1.2",
                "expect": {
                    "players.0.tokens.5": 1,
                    "bank.5": 4,
                    "players.0.reserved": [{"card": card, "hidden": False, "level": 1}],
                    "board.0.1": refill,
                },
            },
            {
                "apply": "reserve deck 3",
                "expect": {"players.1.reserved": [{"card": top3, "hidden": True, "level": 3}]},
                "view": {
                    "0": {
                        "players.1.reserved.0": {"card": None, "hidden": True, "level": 3},
                        "decks": None,
                    },
                    "1": {"players.1.reserved.0.card": top3},
                },
            },
        ],
    )
    scenario(
        "reserve_with_no_gold_left",
        "rules/base.md A3: with no gold left, reserving is still legal and gives nothing",
        set_bank(Pos(seed=4), [4, 4, 4, 4, 4, 0]).done(),
        [{"apply": "reserve 2.1", "expect": {"players.0.tokens.5": 0}}],
    )
    scenario(
        "three_reserved_no_reserve",
        "rules/base.md A3: a player holding 3 reserved cards cannot reserve",
        Pos(seed=5).reserve(0, 71).reserve(0, 75).reserve(0, 79).done(),
        [{"legal_lacks": RESERVES}],
    )
    p = Pos(seed=5)
    p.give(1, *p.obj["decks"][2])
    scenario(
        "empty_deck_no_blind_reserve",
        "rules/base.md §9.9: no blind reserve from an empty deck; its face-up cards still can be",
        p.done(),
        [{"legal_has": ["reserve deck 2", "reserve 3.1"], "legal_lacks": ["reserve deck 3"]}],
    )


def paying() -> None:
    # Card 0 costs 3 blue; cards 8 and 9 give blue bonuses.
    def card_0(tokens: str) -> Pos:
        return Pos(seed=6).row(0, [0]).tokens(0, tokens)

    for name, pay, tokens in (
        ("pay_choice_keeps_the_gold", "pay", [0, 0, 0, 0, 0, 1]),
        ("pay_choice_spends_the_gold", "pay gold u", [0, 1, 0, 0, 0, 0]),
    ):
        scenario(
            name,
            "rules/base.md §9.7: with blue and a gold, paying 3 blue is a choice: tokens only or "
            "a gold for one of them; paid tokens go back to the bank",
            card_0("uuuy").done(),
            [
                {"apply": "buy 1.1", "expect": {"phase": "pay"}, "legal": ["pay", "pay gold u"]},
                {
                    "apply": pay,
                    "expect": {
                        "players.0.tokens": tokens,
                        "players.0.cards": [0],
                        "bank.1": 4 - tokens[1],
                        "current": 1,
                    },
                },
            ],
        )
    scenario(
        "one_payment_pays_exactly",
        "rules/base.md A4: one way to pay -> the buy completes, exactly the cost is paid",
        card_0("uuuu").done(),
        [{"apply": "buy 1.1", "expect": {"current": 1, "players.0.tokens.1": 1}}],
    )
    scenario(
        "only_way_uses_the_gold",
        "rules/base.md A4: gold stands in for the missing tokens when that is the only payment",
        card_0("uyy").done(),
        [{"apply": "buy 1.1", "expect": {"players.0.tokens": [0, 0, 0, 0, 0, 0]}}],
    )
    scenario(
        "bonuses_discount",
        "rules/base.md A4: each bonus of the colour takes one token off the cost",
        card_0("u").give(0, 8, 9).done(),
        [{"apply": "buy 1.1", "expect": {"players.0.tokens": [0, 0, 0, 0, 0, 0]}}],
    )
    scenario(
        "other_colours_do_not_pay",
        "rules/base.md A4: tokens of another colour do not pay; the card cannot be bought",
        card_0("www").give(0, 8, 9).done(),
        [{"legal_lacks": ["buy 1.1"]}],
    )
    scenario(
        "buy_reserved_shifts_the_rest",
        "rules/base.md A4: only an affordable reserved card can be bought; the later ones shift",
        Pos(seed=7)
        .reserve(0, 71)
        .reserve(0, 0, hidden=True)
        .reserve(0, 75)
        .tokens(0, "uuu")
        .done(),
        [
            {"legal_has": ["buy reserved 2"], "legal_lacks": ["buy reserved 1", "buy reserved 3"]},
            {
                "apply": "buy reserved 2",
                "expect": {
                    "players.0.reserved": [
                        {"card": 71, "hidden": False, "level": 3},
                        {"card": 75, "hidden": False, "level": 3},
                    ]
                },
            },
        ],
    )


def returning() -> None:
    scenario(
        "return_one_token_a_decision",
        "rules/base.md §5: over 10 -> one return per decision, any colour or gold, down to 10",
        Pos(seed=8).tokens(0, "wwuuggrky").done(),
        [
            {
                "apply": "take wug",
                "expect": {"phase": "return"},
                "legal": ["return w", "return u", "return g", "return r", "return k", "return y"],
            },
            {"apply": "return y", "expect": {"phase": "return"}},
            {"apply": "return w", "expect": {"current": 1, "players.0.tokens": [2, 3, 3, 1, 1, 0]}},
        ],
    )
    scenario(
        "reserve_at_ten_returns_one",
        "rules/base.md §9.5: reserving at 10 tokens is legal and leads to one return",
        Pos(seed=8).tokens(0, "wwuuggrrkk").done(),
        [
            {"apply": "reserve 1.1", "expect": {"phase": "return"}},
            {"apply": "return y", "expect": {"current": 1}},
        ],
    )


def nobles() -> None:
    # Nobles 5 (3w 3u 3g) and 6 (3w 3u 3k): with 3w 3u 3g 3k bonuses both qualify.
    p = Pos(players=3, seed=9).nobles([5, 6, 0, 1])
    p.give(0, 0, 1, 2, 8, 9, 10, 16, 17, 18, 32, 33).row(0, [34]).tokens(0, "ww")
    scenario(
        "one_noble_a_turn_chosen_then_claimed_on_a_take",
        "rules/base.md §9.6, §7: two qualify -> the player picks one; the other comes at the end "
        "of a later turn, a take turn too, with no choice left",
        p.done(),
        [
            {"apply": "buy 1.1", "expect": {"phase": "noble"}, "legal": ["noble 5", "noble 6"]},
            {
                "apply": "noble 6",
                "expect": {"nobles": [5, 0, 1], "current": 1},
                "scores": [3, 0, 0],
            },
            {"apply": "take wug"},
            {"apply": "take wug"},
            {"apply": "take urk", "expect": {"players.0.nobles": [6, 5], "current": 1}},
            {"scores": [6, 0, 0]},
        ],
    )


def ending() -> None:
    scenario(
        "the_round_is_finished_after_15",
        "rules/base.md §8: seat 0 reaches 15; seat 1 still plays, then the game ends",
        Pos(seed=10).give(0, 73, 77, 81).done(),
        [
            {"apply": "take wug", "outcome": None},
            {"apply": "take wug", "outcome": {"winners": [0], "reason": "points"}},
        ],
    )
    scenario(
        "tie_on_points_fewest_cards_reserves_not_counted",
        "rules/base.md §9.10: equal points -> fewest purchased cards; reserved cards do not count",
        Pos(seed=10)
        .give(0, 73, 77, 81, 0)
        .give(1, 85, 89, 79, 24)
        .reserve(1, 71)
        .row(0, [7])
        .tokens(1, "gggg")
        .set(turn=1)
        .done(),
        [{"apply": "buy 1.1", "outcome": {"winners": [0], "reason": "points"}}],
    )
    scenario(
        "tie_on_points_and_cards_is_shared",
        "README ruling 7: equal points and equal cards -> a shared win",
        Pos(seed=10)
        .give(0, 73, 77, 81, 0)
        .give(1, 85, 89, 79)
        .row(0, [7])
        .tokens(1, "gggg")
        .set(turn=1)
        .done(),
        [
            {
                "apply": "buy 1.1",
                "outcome": {"winners": [0, 1], "reason": "points"},
                "returns": [0.5, 0.5],
            }
        ],
    )
    scenario(
        "three_players_end_after_the_last_seat",
        "rules/base.md §8: seat 1 reaches 15; the round ends with seat 2",
        Pos(players=3, seed=11).give(1, 73, 77, 81).set(turn=1).done(),
        [
            {"apply": "take wug", "expect": {"current": 2}},
            {"apply": "take wug", "outcome": {"winners": [1], "reason": "points"}},
        ],
    )
    scenario(
        "turn_cap_of_one_round",
        "README ruling 9: the turn cap ends the game truncated, no winner, returns 0",
        Pos(seed=13, turn_cap=1).done(),
        [
            {"apply": "take wug"},
            {
                "apply": "take wug",
                "outcome": {"winners": [], "reason": "truncated"},
                "returns": [0.0, 0.0],
            },
        ],
    )


def stuck(p1_third: int, tokens_0: str = "wwuuggrrkk") -> Pos:
    """No colour in the bank, both seats holding 3 reserves they cannot afford, nothing on the
    board affordable."""
    p = Pos(seed=12).row(0, [0, 9, 17, 24]).row(1, [42, 45, 48, 51])
    p.reserve(0, 71).reserve(0, 75).reserve(0, 79)
    p.reserve(1, 83, hidden=True).reserve(1, 87, hidden=True).reserve(1, p1_third, hidden=True)
    return p.tokens(0, tokens_0).tokens(1, "wwuuggrrkk")


def passing() -> None:
    scenario(
        "stuck_seats_pass_then_the_game_stalls",
        "rules/base.md §9.1, README ruling 8: pass only when nothing else; a round of passes "
        "ends the game, scored as usual (here shared)",
        stuck(73).done(),
        [
            {"legal": ["pass"]},
            {"apply": "pass", "expect": {"passes": 1}, "legal": ["pass"]},
            {"apply": "pass", "outcome": {"winners": [0, 1], "reason": "stalled"}},
        ],
    )
    scenario(
        "any_other_move_removes_pass",
        "rules/base.md §9.1: one black token in the bank -> taking it is the only move",
        stuck(73, tokens_0="wwuuggrrk").done(),
        [{"legal": ["take k"]}],
    )
    # Seat 1's third reserve (card 35: 1w 1u 1g 1r) is affordable for it only.
    scenario(
        "a_move_after_a_pass_resets_the_count",
        "README ruling 8: the game stalls only when every seat passes in one round",
        stuck(35).done(),
        [
            {"apply": "pass", "expect": {"passes": 1}},
            {"apply": "buy reserved 3", "expect": {"passes": 0}, "outcome": None},
        ],
    )


def bad_actions() -> None:
    illegal, invalid = "IllegalActionError", "InvalidActionError"
    scenario(
        "bad_actions_change_nothing",
        "docs/base.md: an illegal id (a buy, return or pass now), an id out of range or a "
        "text that does not parse is refused and the state is left as it was",
        Pos(seed=14).done(),
        [
            {"apply": 45, "error": illegal},
            {"apply": 328, "error": illegal},
            {"apply": 60, "error": illegal},
            {"apply": 329, "error": invalid},
            {"apply": 65535, "error": invalid},
            {"apply": "take wuy", "error": invalid},
        ],
    )
    scenario(
        "no_action_after_the_end",
        "docs/base.md: once the game is over every action is illegal",
        Pos(seed=1, turn_cap=1).done(),
        [
            {"apply": "take wug"},
            {"apply": "take wug", "expect": {"phase": "over"}},
            {"apply": 0, "error": illegal},
        ],
    )


MAKERS: tuple[Callable[[], None], ...] = (
    opening,
    reserving,
    paying,
    returning,
    nobles,
    ending,
    passing,
    bad_actions,
)
