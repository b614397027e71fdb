"""Property: every determinization of every reachable state is a playable full state.

For both engines, every variant and every player count it allows, seeded games are
played by four policies (uniform random, ``GreedyBot``, a small ``MctsBot``, and a
"blind hoarder" that reserves blind and buys its reserves whenever it can, so that
paying for a blind-reserved card is reached often). At every state, for every seat
``p`` and two seeds, ``d = state.determinize(p, seed=...)`` must

* have a legal action or be terminal (no dead end),
* load back: ``from_json(d.to_json()) == d``, with the same JSON,
* agree with ``p``'s view: ``d.to_json(p) == state.to_json(p)``.

The games are played by the Rust engine; at every ``pay`` state and at every
``SAMPLE``-th decision the same state is loaded into the reference engine, which must
deal the very same determinizations (byte-identical JSON) and pass the same checks. A
few games are also played by the reference engine itself.

``SPLENDOR_FUZZ_SCALE`` (a positive number, default 1) multiplies the number of games;
at the default the module runs in a few seconds on a quiet 2-core machine, and CI
raises it.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import splendor
import splendor.reference as ref
from splendor.reference.rng import SplitMix64

SCALE = float(os.environ.get("SPLENDOR_FUZZ_SCALE", "1") or "1")
SAMPLE = 8
PLAYERS = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}
BLIND_WORDS = ("reserve deck", "buy reserved", "recruit reserved", "gold ")

Policy = Callable[[Any, SplitMix64], Any]


def games(default: int) -> int:
    """The number of games at this scale (at least one)."""
    return max(1, math.ceil(default * SCALE))


def random_policy(state: Any, rng: SplitMix64) -> Any:
    ids = state.legal_action_ids()
    return ids[rng.below(len(ids))]


def blind_hoarder(state: Any, rng: SplitMix64) -> Any:
    legal = state.legal_actions()
    wanted = [a for a in legal if str(a).startswith(BLIND_WORDS)]
    if wanted and rng.below(4) != 0:
        return wanted[rng.below(len(wanted))]
    return legal[rng.below(len(legal))]


def bot_policy(bot: Any) -> Policy:
    return lambda state, _rng: bot.act(state)


def check_determinizations(
    engine: Any, state: Any, rng: SplitMix64, tally: Counter[str], what: str
) -> list[tuple[int, int, str]]:
    """Checks the property for every seat and two seeds; returns (seat, seed, JSON)."""
    dealt = []
    tally["states"] += 1
    for p in range(state.num_players):
        view = state.to_json(p)
        for _ in range(2):
            seed = rng.next_u64()
            d = state.determinize(p, seed=seed)
            tally["determinizations"] += 1
            assert d.is_terminal() or d.legal_action_ids(), f"{what}: dead end for seat {p}"
            text = d.to_json()
            back = engine.from_json(text)
            assert back == d and back.to_json() == text, f"{what}: round trip, seat {p}"
            assert d.to_json(p) == view, f"{what}: seat {p}'s view changed"
            dealt.append((p, seed, text))
    return dealt


def blind_pay(before: Any, after: Any, action: Any) -> bool:
    """Whether ``action`` started paying for a card that was reserved blind."""
    text = str(before.action_from_id(int(action)))
    if not text.startswith(("buy reserved", "recruit reserved")):
        return False
    seat = before.current_player
    index = int(text.rsplit(" ", 1)[1]) - 1
    was_hidden = json.loads(before.to_json())["players"][seat]["reserved"][index]["hidden"]
    return bool(was_hidden) and json.loads(after.to_json())["phase"] == "pay"


def play(
    engine: Any,
    variant: str,
    players: int,
    seed: int,
    policy: Policy,
    tally: Counter[str],
    against_reference: bool,
) -> None:
    state = engine.new_game(variant, players=players, seed=seed)
    rng = SplitMix64(seed ^ 0x5EED)
    step = 0
    while True:
        what = f"{engine.__name__} {variant} {players}p seed {seed} step {step}"
        dealt = check_determinizations(engine, state, rng, tally, what)
        phase = state.to_json().split('"phase":"', 1)[1].split('"', 1)[0]
        if against_reference and (phase == "pay" or step % SAMPLE == 0):
            slow = ref.from_json(state.to_json())
            for p, s, text in dealt:
                d = slow.determinize(p, seed=s)
                assert d.to_json() == text, f"{what}: the engines deal seat {p} differently"
                tally["reference determinizations"] += 1
            check_determinizations(ref, slow, SplitMix64(seed + step), tally, "reference " + what)
        if state.is_terminal():
            return
        action = policy(state, rng)
        before = state.clone()
        state.apply(action)
        if blind_pay(before, state, action):
            tally["pay phases on a blind reserve"] += 1
        step += 1


def policies(seed: int) -> dict[str, Policy]:
    return {
        "random": random_policy,
        "blind hoarder": blind_hoarder,
        "greedy": bot_policy(splendor.GreedyBot(seed=seed)),
        "mcts": bot_policy(splendor.MctsBot(iterations=24, seed=seed)),
    }


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_rust_games_every_determinization_is_playable(variant: str) -> None:
    tally: Counter[str] = Counter()
    for players in PLAYERS[variant]:
        for seed in range(games(1)):
            for name, policy in policies(seed).items():
                n = 1 if name == "mcts" else 1 + (name == "blind hoarder")
                for k in range(n):
                    play(splendor, variant, players, 1000 * k + seed, policy, tally, True)
    print(f"\n{variant}: {dict(tally)}")
    assert tally["pay phases on a blind reserve"] > 0
    assert tally["reference determinizations"] > 0


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_reference_games_every_determinization_is_playable(variant: str) -> None:
    tally: Counter[str] = Counter()
    for players in PLAYERS[variant]:
        for seed in range(games(1)):
            play(ref, variant, players, seed, blind_hoarder, tally, False)
    print(f"\n{variant}: {dict(tally)}")
    assert tally["determinizations"] > 0
