"""Differential fuzzing: the Rust engine and the reference give the same verdict on the same input.

Each case is run on both engines; the verdicts must agree: both succeed with equal
results (the canonical JSON of a loaded or dealt state, an action id, the state after
``apply``), or both raise an exception of the same class. Four families of input, all
generated from fixed seeds (so a failure names a reproducible case):

* JSON states: full states of seeded games of every variant (opening, middle, ``pay``
  phases, finished games) mutated at the object level (a field deleted; a value
  replaced by numbers at the boundaries, ``-0``, huge ints, floats, strings, ``null``,
  booleans, lists and objects; list entries duplicated, dropped or added; tokens moved
  between holders so totals still balance) and at the text level (a number rewritten
  as ``-0``, ``01``, ``1.0``, ``1e0``; ``NaN``; truncation).
* Card and location CSV files for Marvel ``new_game(cards=..., locations=...)``: fields
  replaced by padded, signed, quoted, half-quoted, non-ASCII and out-of-range text; names
  with commas, quotes and control characters; lines deleted, duplicated or swapped;
  ``\\r\\n`` endings, a byte-order mark, stray quotes and commas.
* Action text: every canonical action text of every variant, mutated (case, white space
  of every kind between and around words, leading zeros and signs on numbers, Unicode
  digits, letters repeated or dropped) and random strings, read by ``action_from_text``
  and played by ``apply``.
* Action arguments and numbers: ids at and beyond the boundaries, NumPy integers, bools,
  floats, and ``Action`` objects of every variant from both engines, passed to ``apply``,
  ``child`` and ``action_from_id``.

``SPLENDOR_FUZZ_SCALE`` (a positive number, default 1) multiplies the number of cases; at
the default the module runs in a few seconds on a quiet 2-core machine, and CI raises it.
The listed divergences of issue 9 (duplicate Marvel locations, finished Duel/Marvel
states with 11+ tokens, actions of another variant or engine, CSV quoting, ``reserve
0001.1``, ``turn: -0``) are each found within the default budget when their fix is
reverted.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
import splendor.reference as ref
from splendor.reference.rng import SplitMix64

SCALE = float(os.environ.get("SPLENDOR_FUZZ_SCALE", "1") or "1")
DATA = Path(__file__).parents[1] / "python" / "splendor" / "data" / "marvel"
PLAYERS = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}


def budget(default: int) -> int:
    return max(1, math.ceil(default * SCALE))


def verdict(call: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", result)`` or ``("error", exception class name)``."""
    try:
        result = call()
    except Exception as exc:
        return ("error", type(exc).__name__)
    if hasattr(result, "to_json"):
        result = result.to_json()
    elif result is not None and not isinstance(result, (int, str)):
        result = int(result)
    return ("ok", result)


def agree(label: str, fast: Callable[[], Any], slow: Callable[[], Any]) -> str:
    got = verdict(fast), verdict(slow)
    assert got[0] == got[1], f"{label}: rust {got[0]!r} != reference {got[1]!r}"
    return got[0][0]


# ----- JSON states ------------------------------------------------------------------


def sample_states(variant: str, rng: random.Random) -> list[str]:
    """Full-state JSON of seeded games: openings, middles, pay phases and endings."""
    out = []
    for players in PLAYERS[variant]:
        for seed in range(2):
            s = splendor.new_game(variant, players=players, seed=seed + 10 * players)
            draw = SplitMix64(seed)
            keep_at = {0, 7, 40, 90}
            step = 0
            while not s.is_terminal():
                text = s.to_json()
                if step in keep_at or '"phase":"pay"' in text or rng.random() < 0.02:
                    out.append(text)
                ids = s.legal_action_ids()
                s.apply(ids[draw.below(len(ids))])
                step += 1
            out.append(s.to_json())
    return out


ODD_VALUES: list[Any] = [
    0,
    1,
    -1,
    2,
    3,
    4,
    9,
    10,
    11,
    15,
    255,
    256,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    1.0,
    0.5,
    -0.0,
    1e308,
    "",
    "0",
    "main",
    "pay",
    "over",
    "x",
    None,
    True,
    False,
    [],
    {},
    [0],
    [None],
]


def paths(obj: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here] if here else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, (*here, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += paths(v, (*here, i))
    return out


def get(obj: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def token_lists(obj: dict[str, Any]) -> list[list[int]]:
    """Every token-count list of a state (bank or bag, and each player's tokens)."""
    out = [obj[k] for k in ("bank", "bag") if isinstance(obj.get(k), list)]
    players = obj.get("players")
    for p in players if isinstance(players, list) else []:
        if isinstance(p, dict) and isinstance(p.get("tokens"), list):
            out.append(p["tokens"])
    return [t for t in out if t and all(type(x) is int for x in t)]


def mutate_object(obj: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    """One object-level mutation: the new JSON text and what was done."""
    all_paths = paths(obj)
    path = rng.choice(all_paths)
    kind = rng.randrange(9)
    if kind in (2, 7):
        # Lists (id lists, token counts, reserves) are where duplicates hide; named
        # lists (`locations`, `cards`, ...) more often than rows of rows.
        lists = [p for p in all_paths if isinstance(get(obj, p), list) and get(obj, p)]
        named = [p for p in lists if isinstance(p[-1], str)]
        pool = named if named and rng.random() < 0.6 else lists
        path = rng.choice(pool) if pool else path
        kind = 2
    parent, key = get(obj, path[:-1]), path[-1]
    value = parent[key]
    where = "/".join(str(k) for k in path)
    if kind == 0 and isinstance(parent, dict):
        del parent[key]
        what = f"deleted {where}"
    elif kind == 1 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + rng.choice([-2, -1, 1, 2, 7])
        what = f"shifted {where}"
    elif kind == 2 and isinstance(value, list) and value:
        op = rng.choice([0, 0, 0, 1, 2, 3])
        if op == 0:
            at = rng.randrange(len(value))  # in place: a sorted list stays sorted
            value.insert(at, value[at])
        elif op == 1:
            value.pop(rng.randrange(len(value)))
        elif op == 2:
            value.insert(0, value[-1])
        else:
            value.reverse()
        what = f"list op {op} on {where}"
    elif kind == 3:
        # Move tokens to the richest holder: totals still balance, limits may not.
        holders = token_lists(obj)
        what = "moved no tokens"
        if len(holders) >= 2:
            dst = max(holders, key=sum)
            src = rng.choice([t for t in holders if t is not dst])
            colour = rng.randrange(min(len(src), len(dst)))
            moved = min(rng.randint(1, 6), src[colour])
            src[colour] -= moved
            dst[colour] += moved
            what = f"moved {moved} tokens to a holder of {sum(dst)}"
    elif kind == 4 and isinstance(parent, dict):
        other = rng.choice(list(parent))
        parent[other] = value
        what = f"copied {where} to {other}"
    else:
        parent[key] = rng.choice(ODD_VALUES)
        what = f"set {where} = {parent[key]!r}"
    return json.dumps(obj, sort_keys=True, separators=(",", ":")), what


NUMBER_REWRITES = ["-0", "01", "1.0", "1e0", "-1", "NaN", "1e400", "-0.0", "00"]


def mutate_text(text: str, rng: random.Random) -> str:
    """One text-level mutation (the result need not be JSON)."""
    numbers = [m for m in range(len(text)) if text[m].isdigit() and not text[m - 1].isdigit()]
    kind = rng.randrange(4)
    if kind == 0 and numbers:
        at = rng.choice(numbers)
        end = at
        while end < len(text) and text[end].isdigit():
            end += 1
        word = text[at:end]
        new = rng.choice([*NUMBER_REWRITES, "-" + word, "0" + word, word + ".0", word + "e0"])
        return text[:at] + new + text[end:]
    if kind == 1:
        return text[: rng.randrange(len(text))]
    if kind == 2:
        # A `-0` where the game has a zero (turn, passes, an empty count).
        zeros = [i for i in range(1, len(text) - 1) if text[i] == "0" and text[i - 1] in ":,["]
        if zeros:
            at = rng.choice(zeros)
            return text[:at] + "-0" + text[at + 1 :]
    at = rng.randrange(len(text))
    return text[:at] + rng.choice([" ", "\n", '"', ",", "}", "]", "\\u0000"]) + text[at:]


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_json_states(variant: str) -> None:
    rng = random.Random(f"json {variant}")
    states = sample_states(variant, rng)
    accepted = 0
    cases = budget(600)
    for i in range(cases):
        base = rng.choice(states)
        if rng.random() < 0.3:
            text, what = mutate_text(base, rng), "text"
        else:
            text, what = mutate_object(json.loads(base), rng)
            if rng.random() < 0.3:
                text, more = mutate_object(json.loads(text), rng)
                what += "; " + more
        label = f"{variant} JSON case {i} ({what}): {text[:300]}"
        kind = agree(label, partial(splendor.from_json, text), partial(ref.from_json, text))
        accepted += kind == "ok"
    print(f"\n{variant}: {cases} JSON states, {accepted} accepted by both")


def finished(variant: str, players: int, seed: int) -> dict[str, Any]:
    state = splendor.new_game(variant, players=players, seed=seed)
    draw = SplitMix64(seed)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply(ids[draw.below(len(ids))])
    return dict(json.loads(state.to_json()))


def test_json_verdicts_named_in_the_issue() -> None:
    """Both engines refuse: `turn: -0` (read as a float), a finished Duel or Marvel game
    where a player holds 11+ tokens (tokens are returned before the end checks), and a
    Marvel location listed twice."""
    refused = []
    for variant in splendor.VARIANTS:
        refused.append(splendor.new_game(variant).to_json().replace('"turn":0', '"turn":-0'))
    for variant, pool in (("duel", "bag"), ("marvel", "bank")):
        for seat in (0, 1):
            obj = finished(variant, 2, 5)
            tokens = obj["players"][seat]["tokens"]
            for colour in range(5):
                moved = min(obj[pool][colour], 11 - sum(tokens))
                obj[pool][colour] -= moved
                tokens[colour] += max(moved, 0)
            assert sum(tokens) == 11
            refused.append(json.dumps(obj))
    opening = json.loads(splendor.new_game("marvel", players=3).to_json())
    shown = opening["locations"]
    for twice in ([shown[0], *shown], [*shown[:-1], shown[-2]]):
        refused.append(json.dumps({**opening, "locations": sorted(twice)}))
    for text in refused:
        for engine in (splendor, ref):
            with pytest.raises(splendor.InvalidStateError):
                engine.from_json(text)


# ----- card files -------------------------------------------------------------------

CARDS = (DATA / "cards.csv").read_text()
LOCS = (DATA / "locations.csv").read_text()
FIELD_TEXT = [
    " 3",
    "3 ",
    "\t3",
    "03",
    "+3",
    "3.0",
    "",
    "x",
    '"3"',
    '"3',
    '3"',
    '""',
    '"a""b"',
    '"a"b',
    "\u00a03",
    "\x1c3",
    "\u0663",
    "\u00b2",
    "10",
    "-1",
    "99999999999999999999",
    "Purple",
    "PURPLE",
    " purple ",
    "purp\u0130e",
    "b",
    "A",
    "a",
    " B",
    '"Name, with comma"',
    '"Quote ""inside"""',
    "Name\x01",
    "Na\u2028me",
    '"Na\nme"',
    "\u00a0",
    "K\u212a",
]
STRAY = ['"', ",", "\n", "\r", " ", "\t", "a", "1", "\x00", "\u2028", "\x85", "\ufeff"]


def mutate_csv(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(7)
    row = rng.randrange(len(lines) - 1)
    if kind <= 2:
        fields = lines[row].split(",")
        col = rng.randrange(len(fields))
        fields[col] = rng.choice(FIELD_TEXT)
        lines[row] = ",".join(fields)
    elif kind == 3:
        op = rng.randrange(3)
        if op == 0:
            del lines[row]
        elif op == 1:
            lines.insert(row, lines[row])
        else:
            other = rng.randrange(len(lines) - 1)
            lines[row], lines[other] = lines[other], lines[row]
    elif kind == 4:
        return rng.choice(["\ufeff" + text, text.replace("\n", "\r\n"), text + "\n\n", text[:-1]])
    else:
        line = lines[row]
        at = rng.randrange(len(line) + 1)
        lines[row] = line[:at] + rng.choice(STRAY) + line[at:]
    return "\n".join(lines)


def test_card_files() -> None:
    rng = random.Random("csv")
    accepted = 0
    cases = budget(300)
    for i in range(cases):
        cards, locations = CARDS, LOCS
        if rng.random() < 0.5:
            cards = mutate_csv(cards, rng)
        else:
            locations = mutate_csv(locations, rng)
        if rng.random() < 0.2:
            locations = mutate_csv(locations, rng)
        if "\n" not in cards or "\n" not in locations:
            continue  # without a newline the argument is a path
        kind = agree(
            f"card files case {i}",
            partial(splendor.new_game, "marvel", seed=i, cards=cards, locations=locations),
            partial(ref.new_game, "marvel", seed=i, cards=cards, locations=locations),
        )
        accepted += kind == "ok"
    print(f"\n{cases} card-file pairs, {accepted} accepted by both")
    assert 0 < accepted < cases


# ----- action text ------------------------------------------------------------------

SPACES = [" ", "  ", "\t", "\n", "\x0b", "\x1c", "\x1f", "\u00a0", "\u2028", "\u3000", "\x85"]


def mutate_action_text(text: str, rng: random.Random) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return "".join(c.upper() if rng.random() < 0.5 else c for c in text)
    if kind == 1:
        return text.replace(" ", rng.choice(SPACES))
    if kind == 2:
        return rng.choice(SPACES) + text + rng.choice(SPACES)
    if kind == 3:
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            at = rng.choice(digits)
            pad = rng.choice(["0", "00", "000", "+", "-", "\u0660", " "])
            return text[:at] + pad + text[at:]
    if kind == 4:
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            at = rng.choice(digits)
            other = rng.choice(["\u0661", "\u00b9", "\uff11", "1", "9", "10", "0"])
            return text[:at] + other + text[at + 1 :]
    if kind == 5 and text:
        at = rng.randrange(len(text))
        return text[:at] + text[at] + text[at:]
    if kind == 6 and text:
        at = rng.randrange(len(text))
        return text[:at] + text[at + 1 :]
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789. \t\u0130\u212a"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_action_text(variant: str) -> None:
    rng = random.Random(f"text {variant}")
    fast, slow = splendor.new_game(variant, seed=4), ref.new_game(variant, seed=4)
    texts = [str(fast.action_from_id(i)) for i in range(fast.num_actions)]
    cases = budget(1500)
    parsed = 0
    for i in range(cases):
        text = mutate_action_text(rng.choice(texts), rng)
        if rng.random() < 0.3:
            text = mutate_action_text(text, rng)
        label = f"{variant} action text {text!r}"
        parsed += (
            agree(label, partial(fast.action_from_text, text), partial(slow.action_from_text, text))
            == "ok"
        )
        if i % 5 == 0:
            agree(label + " (apply)", partial(fast.child, text), partial(slow.child, text))
    agree(
        "reserve 0001.1", lambda: fast.child("reserve 0001.1"), lambda: slow.child("reserve 0001.1")
    )
    print(f"\n{variant}: {cases} action texts, {parsed} parsed by both")
    assert 0 < parsed < cases


NUMBER_WORDS = [
    "1",
    "01",
    "001",
    "0001",
    "+1",
    "-1",
    "1 ",
    "\u0661",
    "\u00b9",
    "\uff11",
    "0",
    "1.0",
]


def test_numbers_read_alike_in_every_variant() -> None:
    """The same number text gets the same verdict in every variant and engine.

    ``reserve L.S`` and ``reserve deck L`` exist in all three variants, so whether
    ``reserve 0001.1`` parses cannot depend on the variant any more than on the engine.
    """
    rng = random.Random("numbers")
    states = [e.new_game(v) for v in splendor.VARIANTS for e in (splendor, ref)]
    cases = budget(200)
    for _ in range(cases):
        level, slot = rng.choice(NUMBER_WORDS), rng.choice(NUMBER_WORDS)
        for text in (f"reserve {level}.{slot}", f"reserve deck {level}"):
            kinds = {verdict(partial(s.action_from_text, text))[0] for s in states}
            assert len(kinds) == 1, f"{text!r}: parsed in some variants or engines only"
    assert {verdict(partial(s.action_from_text, "reserve 0001.1"))[0] for s in states} == {"error"}


# ----- action arguments and numbers -------------------------------------------------


def action_arguments(variant: str, rng: random.Random) -> list[Any]:
    n = splendor.new_game(variant).num_actions
    args: list[Any] = [-1, 0, 1, n - 1, n, n + 1, 2**15, 2**16, 2**63, -(2**63), 2**64, 10**30]
    args += [np.int64(1), np.int32(n), np.uint8(0), np.int16(-1), True, False, 1.0, 0.5]
    args += [float("nan"), None, b"pass", [0], "0", "pass"]
    for other in splendor.VARIANTS:
        for engine in (splendor, ref):
            state = engine.new_game(other)
            args += [
                state.action_from_id(0),
                state.action_from_id(rng.randrange(n if other == variant else state.num_actions)),
            ]
            args += [state.legal_actions()[-1]]
    return args


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_action_arguments(variant: str) -> None:
    rng = random.Random(f"args {variant}")
    cases = 0
    for players in PLAYERS[variant]:
        fast = splendor.new_game(variant, players=players, seed=players)
        slow = ref.new_game(variant, players=players, seed=players)
        for _ in range(budget(3)):
            for arg in action_arguments(variant, rng):
                label = f"{variant} {players}p argument {arg!r} ({type(arg).__module__})"
                agree(label + " apply", partial(fast.child, arg), partial(slow.child, arg))
                agree(
                    label + " id",
                    partial(fast.action_from_id, arg),
                    partial(slow.action_from_id, arg),
                )
                cases += 2
            ids = fast.legal_action_ids()
            step = ids[rng.randrange(len(ids))]
            fast.apply(step)
            slow.apply(step)
            if fast.is_terminal():
                break
    print(f"\n{variant}: {cases} argument cases")
