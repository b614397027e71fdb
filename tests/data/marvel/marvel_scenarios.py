"""The Marvel rule scenarios, written to ``scenarios.json`` by ``tests/data/make_golden.py``.

Positions are built from a short spec; every expectation is written by hand from the rules
(rules/marvel.md), never computed by an engine. Each step here does one thing:
``{"apply": text}``, ``{"legal": [texts]}``, ``{"outcome": null | {"winners", "reason"}}`` or
``{"expect": {dotted.path: value}}`` (``tests/data/README.md`` has the whole step schema).
"""

from __future__ import annotations

from typing import Any

from splendor.reference.marvel.cards import load_data

STONES = {2: 4, 3: 5, 4: 7}


def tok(
    p: int = 0, b: int = 0, r: int = 0, o: int = 0, y: int = 0, s: int = 0, t: int = 0
) -> list[int]:
    """A token vector in the order purple, blue, red, orange, yellow, grey, green."""
    return [p, b, r, o, y, s, t]


def seat(
    cards: list[int] | None = None,
    tokens: list[int] | None = None,
    reserved: list[tuple[int, bool]] | None = None,
    locations: list[int] | None = None,
) -> dict[str, Any]:
    """One player's spec."""
    return {
        "cards": sorted(cards or []),
        "tokens": tokens or tok(),
        "reserved": reserved or [],
        "locations": sorted(locations or []),
    }


def build(
    seats: list[dict[str, Any]],
    *,
    board: dict[tuple[int, int], int] | None = None,
    locations: list[int] | None = None,
    avengers: int | None = None,
    turn: int = 0,
    turn_cap: int = 100,
    phase: str = "main",
) -> dict[str, Any]:
    """A full-state JSON object: unspecified board slots and decks get the lowest free ids."""
    data = load_data()
    n = len(seats)
    used = {c for s in seats for c in s["cards"]} | {c for s in seats for c, _ in s["reserved"]}
    board = board or {}
    used |= set(board.values())
    free = [[c.id for c in data.cards if c.level == lv and c.id not in used] for lv in (1, 2, 3)]
    rows: list[list[int | None]] = []
    for lv in range(3):
        row: list[int | None] = []
        for s in range(4):
            row.append(board[(lv, s)] if (lv, s) in board else free[lv].pop(0))
        rows.append(row)
    claimed = [x for s in seats for x in s["locations"]]
    if locations is None:
        taken = {x // 2 for x in claimed}
        locations = [2 * t for t in range(4) if t not in taken][: n - len(claimed)]
    totals = [STONES[n]] * 5 + [5, n]
    bank = [totals[c] - sum(s["tokens"][c] for s in seats) for c in range(7)]
    return {
        "avengers": avengers,
        "bank": bank,
        "board": rows,
        "card_set": data.id,
        "current": None if phase == "over" else turn % n,
        "deck_sizes": [len(d) for d in free],
        "decks": free,
        "locations": sorted(locations),
        "num_players": n,
        "passes": 0,
        "pending": None,
        "phase": phase,
        "players": [
            {
                "cards": s["cards"],
                "locations": s["locations"],
                "reserved": [
                    {"card": c, "hidden": h, "level": data.cards[c].level} for c, h in s["reserved"]
                ],
                "tokens": s["tokens"],
            }
            for s in seats
        ],
        "turn": turn,
        "turn_cap": turn_cap,
        "variant": "marvel",
        "version": 1,
        "viewer": None,
    }


def sc(name: str, rule: str, state: dict[str, Any], *steps: dict[str, Any]) -> dict[str, Any]:
    """A scenario."""
    return {"name": name, "rule": rule, "state": state, "steps": list(steps)}


def ap(text: str) -> dict[str, Any]:
    """Step: apply an action."""
    return {"apply": text}


def legal(*texts: str) -> dict[str, Any]:
    """Step: the legal list is exactly these (ascending id order)."""
    return {"legal": list(texts)}


def expect(**paths: Any) -> dict[str, Any]:
    """Step: JSON values at dotted paths (``__`` in a keyword stands for ``.``)."""
    return {"expect": {k.replace("__", "."): v for k, v in paths.items()}}


def outcome(winners: list[int] | None, reason: str | None = None) -> dict[str, Any]:
    """Step: the outcome (None: not over)."""
    return {"outcome": None if winners is None else {"winners": winners, "reason": reason}}


# Gauntlet-ready tableaux. G0: 12 card points, 3 icons (tile), colours p y b r, green.
G0 = [70, 65, 75, 79]
# Four 4-point level-3 cards without icons: 16 points, colours p b r o, green.
FOUR = [71, 75, 79, 83]


def generate() -> list[dict[str, Any]]:
    """Every scenario, in a fixed order."""
    out: list[dict[str, Any]] = []
    # --- grey tokens -------------------------------------------------------------
    out.append(
        sc(
            "reserve_gives_grey",
            "grey tokens are gained by reserving",
            build([seat(), seat()]),
            ap("reserve 1.1"),
            expect(players__0__tokens=tok(s=1), bank__5=4),
        )
    )
    out.append(
        sc(
            "reserve_without_grey_left",
            "reserving when the grey supply is empty gives nothing",
            build([seat(), seat(tokens=tok(s=5))]),
            ap("reserve deck 3"),
            expect(players__0__tokens=tok(), bank__5=0, players__0__reserved__0__hidden=True),
        )
    )
    out.append(
        sc(
            "payment_choice_with_grey",
            "several payments with grey jokers are a decision",
            build([seat(tokens=tok(p=1, b=2, s=1)), seat()], board={(0, 0): 3}),
            ap("recruit 1.1"),
            expect(phase="pay", pending=45),
            legal("pay", "pay grey b", "pay grey p"),
            ap("pay grey p"),
            expect(players__0__tokens=tok(p=1), players__0__cards=[3], phase="main", current=1),
        )
    )
    # --- green Time token ------------------------------------------------------------
    out.append(
        sc(
            "first_level3_recruit_gives_green",
            "the first level-3 recruit gives the green token",
            build([seat(cards=[24, 25, 26], tokens=tok(o=4)), seat()], board={(2, 1): 71}),
            ap("recruit 3.2"),
            expect(players__0__tokens=tok(t=1), bank__6=1, bank__3=4),
        )
    )
    out.append(
        sc(
            "second_level3_recruit_no_more_green",
            "a player never holds more than one green token",
            build(
                [seat(cards=[71, 32, 33, 34], tokens=tok(y=4, t=1)), seat()],
                board={(2, 0): 83},
            ),
            ap("recruit 3.1"),
            expect(players__0__tokens=tok(t=1), bank__6=1),
        )
    )
    out.append(
        sc(
            "reserving_level3_gives_no_green",
            "reserving a level-3 card gives no green token",
            build([seat(), seat()]),
            ap("reserve 3.1"),
            expect(players__0__tokens=tok(s=1), bank__6=2),
        )
    )
    out.append(
        sc(
            "green_counts_and_is_never_returned",
            "the 10-token limit counts green, which is never chosen for return",
            build([seat(cards=[71], tokens=tok(p=1, b=2, r=2, o=2, y=2, t=1)), seat()]),
            ap("take pbr"),
            expect(phase="return"),
            legal("return p", "return b", "return r", "return o", "return y"),
            ap("return p"),
            ap("return p"),
            legal("return b", "return r", "return o", "return y"),
            ap("return o"),
            expect(phase="main", current=1, players__0__tokens=tok(b=3, r=3, o=1, y=2, t=1)),
        )
    )
    # --- locations -------------------------------------------------------------------
    out.append(
        sc(
            "location_taken_automatically",
            "a qualifying location must be taken",
            build(
                [seat(cards=[8, 9, 10, 32, 33, 34, 35]), seat()],
                board={(0, 0): 11},
                locations=[0, 3],
            ),
            ap("recruit 1.1"),
            expect(players__0__locations=[0], locations=[3], current=1),
        )
    )
    out.append(
        sc(
            "tokens_do_not_count_for_locations",
            "locations count bonuses only",
            build(
                [seat(cards=[8, 9, 10, 32, 33, 34, 35], tokens=tok(b=4)), seat()], locations=[0, 3]
            ),
            ap("take pry"),
            expect(players__0__locations=[], locations=[0, 3]),
        )
    )
    out.append(
        sc(
            "location_choice_one_per_turn",
            "several qualifying locations: the player chooses one; the other waits",
            build(
                [seat(cards=[0, 1, 2, 24, 25, 26, 27, 32, 33, 34], tokens=tok(b=2)), seat()],
                board={(0, 0): 3},
                locations=[3, 4],
            ),
            ap("recruit 1.1"),
            expect(phase="location"),
            legal("location 3", "location 4"),
            ap("location 4"),
            expect(players__0__locations=[4], locations=[3], current=1),
            ap("take pbr"),
            ap("take pbr"),
            expect(players__0__locations=[3, 4], locations=[]),
        )
    )
    # --- Avengers Assemble ---------------------------------------------------------------
    out.append(
        sc(
            "avengers_claimed_at_three_icons",
            "the first player with 3 icons takes the Avengers tile (3 points)",
            build([seat(cards=[5, 6], tokens=tok(o=1, y=3)), seat()], board={(0, 2): 13}),
            ap("recruit 1.3"),
            expect(avengers=0),
        )
    )
    out.append(
        sc(
            "avengers_tie_keeps_holder",
            "an equal icon count does not take the tile",
            build(
                [seat(cards=[5, 6], tokens=tok(o=1, y=3)), seat(cards=[21, 22, 29])],
                board={(0, 2): 13},
                avengers=1,
            ),
            ap("recruit 1.3"),
            expect(avengers=1),
        )
    )
    out.append(
        sc(
            "avengers_strictly_more_takes_it",
            "strictly more icons takes the tile from its holder, with its 3 points",
            build(
                [seat(cards=[5, 6, 30], tokens=tok(o=1, y=3)), seat(cards=[21, 22, 29])],
                board={(0, 2): 13},
                avengers=1,
            ),
            ap("recruit 1.3"),
            expect(avengers=0),
        )
    )
    # --- Infinity Gauntlet ------------------------------------------------------------------
    trigger_seat0 = build(
        [seat(cards=G0, tokens=tok(p=3, t=1)), seat(cards=[45, 51, 57, 63, 69, 44, 42, 43])],
        board={(0, 3): 31},
        avengers=0,
    )
    out.append(
        sc(
            "gauntlet_finishes_the_round",
            "meeting the Gauntlet conditions finishes the round; only qualifiers can win",
            trigger_seat0,
            ap("recruit 1.4"),
            expect(phase="main", current=1),
            outcome(None),
            ap("take bro"),
            outcome([0], "gauntlet"),
            expect(phase="over", current=None),
        )
    )
    out.append(
        sc(
            "gauntlet_by_last_seat_ends_at_once",
            "a trigger by the last seat ends the game at once",
            build(
                [seat(), seat(cards=G0, tokens=tok(p=3, t=1))],
                board={(0, 3): 31},
                avengers=1,
                turn=1,
            ),
            ap("recruit 1.4"),
            outcome([1], "gauntlet"),
        )
    )
    out.append(
        sc(
            "gauntlet_needs_bonus_not_tokens",
            "the five colours must be bonuses: yellow tokens do not count",
            build([seat(cards=FOUR, tokens=tok(y=4, t=1)), seat()]),
            ap("take pbr"),
            ap("take pbr"),
            outcome(None),
            expect(phase="main", current=0, turn=2),
        )
    )
    out.append(
        sc(
            "tiebreak_avengers_tile",
            "equal points: the Avengers tile holder wins",
            build(
                [
                    seat(cards=[*G0, 16], tokens=tok(p=3, t=1)),
                    seat(cards=[71, 76, 80, 83], tokens=tok(r=2, t=1)),
                ],
                board={(0, 3): 31, (0, 2): 32},
                avengers=0,
            ),
            ap("recruit 1.4"),
            ap("recruit 1.3"),
            expect(phase="over"),
            outcome([0], "gauntlet"),
        )
    )
    fewest_p0 = [*FOUR, 32]
    out.append(
        sc(
            "tiebreak_fewest_cards",
            "equal points, no tile: fewest recruited cards wins",
            build(
                [
                    seat(cards=fewest_p0, tokens=tok(t=1)),
                    seat(cards=[73, 77, 81, 31, 33, 34], tokens=tok(t=1)),
                ]
            ),
            ap("take pbr"),
            ap("take pbr"),
            outcome([0], "gauntlet"),
        )
    )
    out.append(
        sc(
            "tiebreak_shared_win",
            "equal points, no tile, equal card counts: a shared win",
            build(
                [
                    seat(cards=fewest_p0, tokens=tok(t=1)),
                    seat(cards=[73, 77, 81, 31, 33], tokens=tok(t=1)),
                ]
            ),
            ap("take pbr"),
            ap("take pbr"),
            outcome([0, 1], "gauntlet"),
        )
    )
    out.append(
        sc(
            "lost_trigger_play_goes_on",
            "lost tile in the last round: nobody qualifies, play goes on; a new trigger ends it",
            build(
                [
                    seat(cards=G0, tokens=tok(p=3, b=4, s=1, t=1)),
                    seat(cards=[5, 6, 13], tokens=tok(o=2, y=2)),
                ],
                board={(0, 3): 31, (0, 2): 14, (1, 0): 57},
                avengers=0,
            ),
            ap("recruit 1.4"),
            legal("pay", "pay grey p"),
            ap("pay"),
            expect(current=1, phase="main"),
            ap("recruit 1.3"),
            expect(avengers=1, phase="main", current=0, turn=2),
            outcome(None),
            ap("recruit 2.1"),
            expect(current=1, phase="main"),
            ap("take pro"),
            outcome([0], "gauntlet"),
        )
    )
    # --- pass, stall, turn cap -----------------------------------------------------------------
    board_stuck = {
        (0, 0): 1, (0, 1): 9, (0, 2): 13, (0, 3): 14,
        (1, 0): 64, (1, 1): 65, (1, 2): 67, (1, 3): 41,
        (2, 0): 70, (2, 1): 72, (2, 2): 74, (2, 3): 82,
    }  # fmt: skip
    out.append(
        sc(
            "pass_only_when_nothing_else_and_stall",
            "pass is legal only when nothing else is; a full round of passes ends the game",
            build(
                [
                    seat(tokens=tok(p=4, b=4, r=2), reserved=[(0, False), (4, False), (10, True)]),
                    seat(tokens=tok(r=2, o=4, y=4), reserved=[(27, False), (29, True), (5, False)]),
                ],
                board=board_stuck,
            ),
            legal("pass"),
            ap("pass"),
            expect(passes=1, current=1),
            legal("pass"),
            ap("pass"),
            outcome([0, 1], "stalled"),
        )
    )
    out.append(
        sc(
            "turn_cap_truncates",
            "reaching the turn cap ends the game as truncated, with no winner",
            build([seat(), seat()], turn=1, turn_cap=1),
            ap("take pbr"),
            outcome([], "truncated"),
        )
    )
    return out
