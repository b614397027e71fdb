"""The Splendor Duel rule scenarios, written to ``scenarios.json`` by ``tests/data/make_golden.py``.

Each position is built from scratch (board picture, pyramid, tableaux, tokens;
every card not placed goes to its deck in id order, every token not placed to
the bag), and the reference engine only checks that it is valid. Every
expectation below is written by hand from the rules (rules/duel.md, the section
in each scenario's ``rule``), never computed by an engine.
"""

from __future__ import annotations

from typing import Any

KINDS = "wugrkpy"
TOTALS = (4, 4, 4, 4, 4, 2, 3)
LEVELS = ((0, 30), (30, 54), (54, 67))
FULL_BOARD = ["wugrk", "ugrkw", "grkwu", "rkwup", "gpyyy"]


def tokens(spec: str) -> list[int]:
    """``"w2 p1 y3"`` -> a 7-count list."""
    out = [0] * 7
    for part in spec.split():
        out[KINDS.index(part[0])] += int(part[1:])
    return out


def player(
    toks: str = "",
    cards: tuple[int, ...] = (),
    jokers: tuple[tuple[int, int], ...] = (),
    reserved: tuple[tuple[int, bool], ...] = (),
    royals: tuple[int, ...] = (),
    privileges: int = 0,
) -> dict[str, Any]:
    return {
        "cards": sorted(cards),
        "jokers": [list(j) for j in sorted(jokers)],
        "privileges": privileges,
        "reserved": [
            {"card": c, "hidden": h, "level": 1 if c < 30 else (2 if c < 54 else 3)}
            for c, h in reserved
        ],
        "royals": sorted(royals),
        "tokens": tokens(toks),
    }


def position(
    board: list[str],
    p0: dict[str, Any],
    p1: dict[str, Any],
    pyramid: tuple[tuple[int | None, ...], ...] = ((0, 1, 2, 3, 4), (30, 31, 32, 33), (54, 55, 56)),
    current: int = 0,
    turn: int = 0,
    turn_cap: int = 100,
) -> dict[str, Any]:
    cells = [None if ch == "." else ch for row in board for ch in row]
    assert len(cells) == 25
    used = {c for row in pyramid for c in row if c is not None}
    for p in (p0, p1):
        used |= set(p["cards"]) | {r["card"] for r in p["reserved"]}
    bag = list(TOTALS)
    for k in range(7):
        bag[k] -= cells.count(KINDS[k]) + p0["tokens"][k] + p1["tokens"][k]
    assert min(bag) >= 0, bag
    decks = [[c for c in range(lo, hi) if c not in used] for lo, hi in LEVELS]
    owned_royals = set(p0["royals"]) | set(p1["royals"])
    return {
        "again": False,
        "bag": bag,
        "board": cells,
        "chance": 7,
        "current": current,
        "deck_sizes": [len(d) for d in decks],
        "decks": decks,
        "num_players": 2,
        "outcome": None,
        "pending_buy": None,
        "pending_card": None,
        "phase": "main",
        "players": [p0, p1],
        "pyramid": [list(r) for r in pyramid],
        "replenished": False,
        "royals": [r for r in range(4) if r not in owned_royals],
        "royals_due": 0,
        "turn": turn,
        "turn_cap": turn_cap,
        "variant": "duel",
        "version": 1,
        "viewer": None,
    }


def holes(board: list[str], *cells: str) -> list[str]:
    """``board`` with the named cells (``c3``) emptied."""
    rows = [list(r) for r in board]
    for name in cells:
        rows[int(name[1]) - 1]["abcde".index(name[0])] = "."
    return ["".join(r) for r in rows]


SCENARIOS: list[dict[str, Any]] = []


def scenario(name: str, rule: str, state: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    SCENARIOS.append({"name": name, "rule": rule, "state": state, "steps": steps})


SPARSE = [".....", ".....", "gyg..", ".....", "ppg.."]

LINES = (
    "rules/duel.md §4.2 A, §6.5: consecutive cells only, gold interrupts, any order of the cells."
)
scenario(
    "line_takes_rows_gold_breaks",
    LINES,
    position(SPARSE, player(), player(privileges=1)),
    [
        {
            "legal_takes": [
                "take a3",
                "take c3",
                "take a5",
                "take b5",
                "take c5",
                "take a5 b5",
                "take b5 c5",
                "take a5 b5 c5",
            ],
            "legal_lacks": ["take a3 b3 c3", "take b3", "privilege b3"],
        },
        {"apply": "take a3 b3 c3", "error": "IllegalActionError"},
        {"apply": "take a3 c3", "error": "InvalidActionError"},
        # §6.5 / §6.11: 2 pearls and a third colour still give the OPPONENT a privilege.
        {
            "apply": "take c5 a5 b5",
            "expect": {
                "current": 1,
                "players.0.tokens": [0, 0, 1, 0, 0, 2, 0],
                "players.1.privileges": 2,
                "players.0.privileges": 0,
                "turn": 1,
            },
        },
    ],
)

DIAG = ["r....", ".r...", "..ry.", "...w.", "....."]
scenario(
    "line_takes_diagonals_three_same_colour",
    LINES,
    position(DIAG, player(), player(privileges=1)),
    [
        {
            "legal_takes": [
                "take a1",
                "take b2",
                "take c3",
                "take d4",
                "take a1 b2",
                "take b2 c3",
                "take c3 d4",
                "take a1 b2 c3",
                "take b2 c3 d4",
            ]
        },
        {"apply": "take c3 a1 b2", "expect": {"players.1.privileges": 2, "current": 1}},
    ],
)

ANTI = ["....r", "...r.", "..w..", ".....", "....."]
scenario(
    "line_takes_anti_diagonal_no_penalty",
    LINES,
    position(ANTI, player(), player(privileges=1)),
    [
        {
            "legal_takes": [
                "take e1",
                "take d2",
                "take c3",
                "take e1 d2",
                "take d2 c3",
                "take e1 d2 c3",
            ]
        },
        {"apply": "take e1 d2 c3", "expect": {"players.1.privileges": 1, "current": 1}},
    ],
)

scenario(
    "privileges_any_token_no_gold_no_penalty",
    (
        "rules/duel.md §4.1 a, §6.5: privileges take any non-gold token, never gold, and give "
        "no penalty."
    ),
    position(SPARSE, player(privileges=2), player(privileges=1)),
    [
        {"legal_has": ["privilege a5", "privilege c3"], "legal_lacks": ["privilege b3"]},
        {"apply": "privilege a5"},
        {"apply": "privilege b5"},
        {
            "expect": {"players.0.privileges": 0, "players.1.privileges": 1, "current": 0},
            "legal_lacks": ["privilege c5"],
        },
        {"apply": "take c5", "expect": {"players.0.tokens": [0, 0, 1, 0, 0, 2, 0], "current": 1}},
    ],
)

BAGGED = holes(FULL_BOARD, "a1", "b1")  # w and u go back to the bag
PRIVILEGE_GAIN = (
    "rules/duel.md §4.1 privilege-gain rule, §6.2: from the opponent only when the supply is empty."
)
scenario(
    "privilege_from_opponent_only_when_supply_empty",
    PRIVILEGE_GAIN,
    position(BAGGED, player(privileges=2), player(privileges=1)),
    [{"apply": "replenish", "expect": {"players.0.privileges": 1, "players.1.privileges": 2}}],
)
scenario(
    "privilege_from_supply_when_available",
    PRIVILEGE_GAIN,
    position(BAGGED, player(privileges=2), player()),
    [{"apply": "replenish", "expect": {"players.0.privileges": 2, "players.1.privileges": 1}}],
)
scenario(
    "privilege_receiver_capped_at_three",
    PRIVILEGE_GAIN,
    position(BAGGED, player(), player(privileges=3)),
    [{"apply": "replenish", "expect": {"players.0.privileges": 0, "players.1.privileges": 3}}],
)

SPIRAL_HOLES = holes(FULL_BOARD, "c3", "c4", "e5")  # spiral positions 0, 1 and 24
REFILL = (
    "rules/duel.md §2 refill procedure: the spiral from the centre, empty cells only, until "
    "the bag is empty."
)
scenario(
    "replenish_walks_the_spiral",
    REFILL,
    position(SPIRAL_HOLES, player("k1 w1 y1"), player()),
    [
        {"expect": {"bag": [0, 0, 0, 0, 0, 0, 0]}},
        {"apply": "take e5", "error": "IllegalActionError"},
        {"legal_lacks": ["replenish"]},
    ],
)
SPIRAL_BAG = holes(FULL_BOARD, "c3", "c4", "e5", "a1", "e1")
scenario(
    "replenish_fills_spiral_order_until_bag_empty",
    REFILL,
    position(SPIRAL_BAG, player("w1 k1 y1"), player(privileges=1)),
    [
        {"expect": {"bag": [1, 0, 0, 0, 1, 0, 0]}},
        {
            "apply": "replenish",
            "expect": {
                "bag": [0, 0, 0, 0, 0, 0, 0],
                "board.0": None,
                "board.4": None,
                "board.24": None,
                "players.1.privileges": 2,
                "replenished": True,
                "current": 0,
            },
        },
    ],
)

scenario(
    "optional_actions_in_order",
    "rules/duel.md §4.1, §6.6: privileges before replenishing, one replenish per turn.",
    position(BAGGED, player(privileges=1), player()),
    [
        {"legal_has": ["privilege c3", "replenish"]},
        {"apply": "replenish"},
        {"legal_lacks": ["privilege c3", "replenish"]},
        {"apply": "privilege c3", "error": "IllegalActionError"},
    ],
)

GOLD_ONLY = [".....", ".y...", "..y..", "...y.", "....."]
scenario(
    "forced_replenish",
    (
        "rules/duel.md §4.1 forced replenish: no mandatory action possible -> replenish is the "
        "only choice."
    ),
    position(
        GOLD_ONLY,
        player(reserved=((60, False), (61, False), (62, False))),
        player(),
    ),
    [
        {"legal": ["replenish"]},
        {"apply": "replenish", "expect": {"players.1.privileges": 1, "current": 0}},
        {"legal_has": ["take a1"]},
    ],
)

RESERVE = (
    "rules/duel.md §4.2 B: gold from any cell, then a face-up card or a blind deck card; at "
    "most 3 reserved."
)
scenario(
    "reserve_gold_then_card",
    RESERVE,
    position(GOLD_ONLY, player(), player()),
    [
        {"legal": ["replenish", "gold b2", "gold c3", "gold d4"]},
        {"apply": "gold d4", "expect": {"phase": "reserve", "board.18": None}},
        {
            "legal": [
                "reserve 1.1",
                "reserve 1.2",
                "reserve 1.3",
                "reserve 1.4",
                "reserve 1.5",
                "reserve 2.1",
                "reserve 2.2",
                "reserve 2.3",
                "reserve 2.4",
                "reserve 3.1",
                "reserve 3.2",
                "reserve 3.3",
                "reserve deck 1",
                "reserve deck 2",
                "reserve deck 3",
            ]
        },
        {
            "apply": "reserve deck 2",
            "expect": {
                "players.0.reserved": [{"card": 34, "hidden": True, "level": 2}],
                "players.0.tokens": [0, 0, 0, 0, 0, 0, 1],
                "current": 1,
            },
        },
    ],
)
scenario(
    "reserve_limit_three",
    RESERVE,
    position(
        GOLD_ONLY,
        player(reserved=((60, False), (61, False), (62, True))),
        player(),
    ),
    [{"legal_lacks": ["gold b2"]}],
)

PAY_BOARD = ["wu...", ".....", ".....", ".....", "....."]
PAYING = "rules/duel.md §4.2 C: gold pays for a pearl; several payments -> a choice."
scenario(
    "gold_pays_pearl",
    PAYING,
    position(
        PAY_BOARD,
        player("g2 r2 y1"),
        player(),
        pyramid=((7, 1, 2, 3, 4), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [
        {"legal_has": ["buy 1.1"]},
        {
            "apply": "buy 1.1",
            "expect": {
                "players.0.tokens": [0, 0, 0, 0, 0, 0, 0],
                "players.0.cards": [7],
                "again": False,
                "current": 0,
                "turn": 1,
                "pyramid.0.0": 0,
            },
        },
    ],
)
scenario(
    "payment_choice",
    PAYING,
    position(
        PAY_BOARD,
        player("g2 r2 p1 y1"),
        player(),
        pyramid=((7, 1, 2, 3, 4), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [
        {"apply": "buy 1.1", "expect": {"phase": "pay", "pending_buy": 211}},
        {"legal": ["pay", "pay gold p", "pay gold r", "pay gold g"]},
        {
            "apply": "pay gold r",
            "expect": {"players.0.tokens": [0, 0, 0, 1, 0, 0, 0], "bag.6": 3, "bag.5": 2},
        },
    ],
)

scenario(
    "double_bonus_counts_two",
    "rules/duel.md §1, §6.1: a double bonus counts 2.",
    position(
        PAY_BOARD,
        player("w1", cards=(33,)),
        player(),
        pyramid=((21, 1, 2, 3, 4), (30, 31, 32, 34), (54, 55, 56)),
    ),
    [{"apply": "buy 1.1", "expect": {"players.0.tokens": [0] * 7, "players.0.cards": [21, 33]}}],
)

JOKER_PYRAMID = ((25, 1, 2, 3, 4), (30, 31, 32, 33), (54, 55, 56))
JOKERS = (
    "rules/duel.md §6.3: a joker needs a real coloured card; with one colour it is placed "
    "there at once."
)
scenario(
    "joker_needs_a_coloured_card",
    JOKERS,
    position(PAY_BOARD, player("k4 p1", cards=(29,)), player(), pyramid=JOKER_PYRAMID),
    [
        {"legal_lacks": ["buy 1.1"]},
        {"apply": "buy 1.1", "error": "IllegalActionError"},
    ],
)
scenario(
    "joker_placed_on_the_only_colour",
    JOKERS,
    position(PAY_BOARD, player("k4 p1", cards=(5,)), player(), pyramid=JOKER_PYRAMID),
    [
        {"apply": "buy 1.1", "expect": {"players.0.jokers": [[25, 1]], "current": 1}},
    ],
)

scenario(
    "wild_again_card",
    "rules/duel.md §6.4, §4.3: the wild+again card: choose a colour, then take another turn.",
    position(
        PAY_BOARD,
        player("r4 y3", cards=(0, 15)),
        player(),
        pyramid=((1, 2, 3, 4, 5), (30, 31, 32, 33), (64, 55, 56)),
    ),
    [
        {"apply": "buy 3.1", "expect": {"phase": "joker", "pending_card": 64}},
        {"legal": ["joker w", "joker r"]},
        {
            "apply": "joker r",
            "expect": {"players.0.jokers": [[64, 3]], "current": 0, "turn": 1, "phase": "main"},
            "scores": [3, 0],
        },
    ],
)

scenario(
    "joker_crowns_royal_then_steal",
    (
        "rules/duel.md §6.8: a level-3 joker with 3 crowns bought at 0 crowns gives a royal at "
        "once; the steal royal never takes gold (§6.7) and asks which kind when there are "
        "several."
    ),
    position(
        PAY_BOARD,
        player("k4 y3", cards=(20,)),
        player("w1 p1"),
        pyramid=((1, 2, 3, 4, 5), (30, 31, 32, 33), (65, 55, 56)),
    ),
    [
        {
            "apply": "buy 3.1",
            "expect": {"phase": "royal", "players.0.jokers": [[65, 4]], "royals_due": 1},
        },
        {"legal": ["royal 0", "royal 1", "royal 2", "royal 3"]},
        {"apply": "royal 0", "expect": {"phase": "steal", "players.0.royals": [0]}},
        {"legal": ["steal w", "steal p"]},
        {
            "apply": "steal p",
            "expect": {
                "players.0.tokens": [0, 0, 0, 0, 0, 1, 0],
                "players.1.tokens": [1, 0, 0, 0, 0, 0, 0],
                "current": 1,
            },
            "scores": [2, 0],
        },
    ],
)

ROYALS = "rules/duel.md §6.8: crossing 3 gives a royal; going from 3 to 4 does not."
scenario(
    "royal_on_crossing_three",
    ROYALS,
    position(
        PAY_BOARD,
        player("r3", cards=(1, 6)),
        player(privileges=1),
        pyramid=((11, 2, 3, 4, 5), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [
        {"apply": "buy 1.1", "expect": {"phase": "royal"}},
        {
            "apply": "royal 2",
            "expect": {"players.0.royals": [2], "players.0.privileges": 1, "current": 1},
        },
    ],
)
scenario(
    "no_royal_after_crossing",
    ROYALS,
    position(
        PAY_BOARD,
        player("k3", cards=(1, 6, 11), royals=(3,)),
        player(),
        pyramid=((16, 2, 3, 4, 5), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [
        {
            "apply": "buy 1.1",
            "expect": {"phase": "main", "current": 1, "players.0.royals": [3], "royals": [0, 1, 2]},
        }
    ],
)

TOKEN_BOARD = ["w.u..", ".....", "..w..", ".....", "....."]
ABILITIES = (
    "rules/duel.md §6.7: `token` takes the card's own colour; nothing when there is none; "
    "`steal` never gold."
)
scenario(
    "token_ability_own_colour",
    ABILITIES,
    position(TOKEN_BOARD, player("r2 k2"), player()),
    [
        {"apply": "buy 1.4", "expect": {"phase": "token", "pending_card": 3}},
        {"legal": ["token a1", "token c3"]},
        {
            "apply": "token c3",
            "expect": {"players.0.tokens": [1, 0, 0, 0, 0, 0, 0], "board.12": None, "current": 1},
        },
    ],
)
scenario(
    "token_ability_nothing_to_take",
    ABILITIES,
    position(
        PAY_BOARD,
        player("u2 g2"),
        player(),
        pyramid=((18, 1, 2, 3, 4), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [{"apply": "buy 1.1", "expect": {"phase": "main", "current": 1, "players.0.tokens": [0] * 7}}],
)
scenario(
    "steal_never_gold",
    ABILITIES,
    position(
        PAY_BOARD,
        player("g4 k3"),
        player("y2"),
        pyramid=((1, 2, 3, 4, 5), (30, 35, 32, 33), (54, 55, 56)),
    ),
    [
        {
            "apply": "buy 2.2",
            "expect": {
                "players.1.tokens": [0, 0, 0, 0, 0, 0, 2],
                "players.0.tokens": [0] * 7,
                "current": 1,
            },
        }
    ],
)

COLOUR_VICTORY = "rules/duel.md §6.9: a colour counts its jokers; points-only cards do not count."
scenario(
    "colour_victory_counts_jokers",
    COLOUR_VICTORY,
    position(
        PAY_BOARD,
        player("w2 u3", cards=(61, 42, 44, 27, 0), jokers=((27, 3),)),
        player(),
        pyramid=((19, 2, 3, 4, 5), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [
        {
            "apply": "buy 1.1",
            "outcome": {"winners": [0], "reason": "colour"},
            "expect": {"phase": "over", "current": None},
        }
    ],
)
scenario(
    "colour_victory_excludes_points_only_cards",
    COLOUR_VICTORY,
    position(
        PAY_BOARD,
        player("w2 u3", cards=(61, 42, 44, 29)),
        player(),
        pyramid=((19, 2, 3, 4, 5), (30, 31, 32, 33), (54, 55, 56)),
    ),
    [{"apply": "buy 1.1", "outcome": None, "expect": {"current": 1}, "scores": [12, 0]}],
)

WIN_CARDS = (55, 57, 59, 63, 30, 6)  # 18 points, 2 crowns
WIN_PYRAMID = ((11, 2, 3, 4, 5), (31, 32, 33, 34), (54, 56, 58))
END_OF_TURN = (
    "rules/duel.md §4.5, §6.10: discard to 10 first, then the victory check; no extra turn "
    "after a win."
)
scenario(
    "discard_before_victory",
    END_OF_TURN,
    position(
        PAY_BOARD, player("u3 g3 r3 k3 p1", cards=WIN_CARDS), player("k1"), pyramid=WIN_PYRAMID
    ),
    [
        {"apply": "buy 1.1", "expect": {"phase": "royal"}},
        {"apply": "royal 0", "expect": {"phase": "discard", "outcome": None}, "scores": [20, 0]},
        {"legal": ["discard u", "discard g", "discard k", "discard p"]},
        {
            "apply": "discard u",
            "outcome": {"winners": [0], "reason": "points"},
            "returns": [1.0, 0.0],
        },
    ],
)
scenario(
    "victory_before_extra_turn",
    END_OF_TURN,
    position(PAY_BOARD, player("r3", cards=WIN_CARDS), player(), pyramid=WIN_PYRAMID),
    [
        {"apply": "buy 1.1"},
        {
            "apply": "royal 1",
            "outcome": {"winners": [0], "reason": "points"},
            "expect": {"again": False},
        },
        {"legal": []},
    ],
)

scenario(
    "only_active_player_wins",
    "rules/duel.md §4.6: only the active player is checked for victory.",
    position(
        PAY_BOARD,
        player(),
        player(cards=(54, 56, 58, 60, 62), royals=(0, 3)),
        pyramid=((1, 2, 3, 4, 5), (30, 31, 32, 33), (55, 57, 59)),
    ),
    [
        {"apply": "take a1", "outcome": None, "expect": {"current": 1}},
        {"apply": "take b1", "outcome": {"winners": [1], "reason": "points"}},
    ],
)
scenario(
    "crowns_victory",
    "rules/duel.md §4.6: 10 or more crowns win at the end of the turn.",
    position(
        PAY_BOARD,
        player("u1 g1 r1 p1", cards=(54, 56, 58, 60, 1), royals=(0, 3)),
        player(),
        pyramid=((2, 3, 4, 5, 6), (30, 31, 46, 33), (55, 57, 59)),
    ),
    [{"apply": "buy 2.3", "outcome": {"winners": [0], "reason": "crowns"}}],
)

scenario(
    "discard_to_ten",
    "rules/duel.md §4.5: over 10 tokens -> discard one at a time (gold included), down to 10.",
    position(PAY_BOARD, player("w3 u3 g2 y2"), player()),
    [
        {"apply": "take a1", "expect": {"phase": "discard", "current": 0}},
        {"legal": ["discard w", "discard u", "discard g", "discard y"]},
        {
            "apply": "discard y",
            "expect": {"phase": "main", "current": 1, "players.0.tokens": [4, 3, 2, 0, 0, 0, 1]},
        },
    ],
)

scenario(
    "again_card_extra_turn",
    "rules/duel.md §4.3: the again ability (level-1 card) gives another turn.",
    position(PAY_BOARD, player("u2 g2 p1"), player()),
    [{"apply": "buy 1.3", "expect": {"current": 0, "turn": 1, "again": False, "phase": "main"}}],
)
scenario(
    "privilege_ability",
    "rules/duel.md §4.3: the privilege ability (level-2 card) gives a privilege.",
    position(
        PAY_BOARD,
        player("u2 g4 p1"),
        player(privileges=1),
        pyramid=((1, 2, 3, 4, 5), (30, 31, 40, 33), (54, 55, 56)),
    ),
    [{"apply": "buy 2.3", "expect": {"players.0.privileges": 1, "players.1.privileges": 1}}],
)

scenario(
    "pass_only_when_nothing_else",
    (
        "Engine ruling: `pass` only when no action at all exists (board of gold, empty bag, 3 "
        "reserved, nothing affordable); it ends the turn (here into the discard down to 10)."
    ),
    position(
        GOLD_ONLY,
        player("w2 u2 g2 r2 k2 p2", reserved=((49, False), (61, False), (63, True))),
        player("w2 u2 g2 r2 k2"),
        pyramid=((1, 6, 11, 16, 21), (33, 37, 41, 45), (55, 57, 59)),
    ),
    [
        {"expect": {"bag": [0, 0, 0, 0, 0, 0, 0]}, "legal": ["pass"]},
        {"apply": "pass", "expect": {"phase": "discard", "current": 0, "turn": 0}},
        {"apply": "discard p"},
        {"apply": "discard p", "expect": {"phase": "main", "current": 1, "turn": 1}},
    ],
)

scenario(
    "turn_cap_truncates",
    "Turn cap: the game ends truncated with no winner.",
    position(PAY_BOARD, player(), player(), current=1, turn=1, turn_cap=1),
    [
        {
            "apply": "take a1",
            "outcome": {"winners": [], "reason": "truncated"},
            "returns": [0.0, 0.0],
        }
    ],
)


def generate() -> list[dict[str, Any]]:
    """Every Duel scenario, in the order written above."""
    return SCENARIOS
