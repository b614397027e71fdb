"""Action text that does not parse: one message shape in every variant, the same words in
both engines, the variant's forms and letters, and the near miss when there is one
(docs/contract.md, *Errors*)."""

from __future__ import annotations

import random

import pytest
import splendor
import splendor.reference as ref
from splendor.errors import InvalidActionError

LETTERS = {
    "base": "colour letters: w white, u blue, g green, r red, k black, y gold",
    "duel": "letters: w white, u blue, g green, r red, k black, p pearl, y gold",
    "marvel": "colour letters: p purple, b blue, r red, o orange, y yellow, s grey, t green",
}
NEAR_MISSES = [
    ("base", "take rgb", "take ugr"),
    ("base", "TAKE R G U", "take ugr"),
    ("base", "buy R1", "buy reserved 1"),
    ("base", "recruit 1.1", "buy 1.1"),
    ("base", "return b", "return u"),
    ("base", "pay gold bb", "pay gold uu"),
    ("marvel", "buy 1.1", "recruit 1.1"),
    ("marvel", "buy R1", "recruit reserved 1"),
    ("marvel", "buy reserved 2", "recruit reserved 2"),
    ("marvel", "take pur", "take pbr"),
    ("marvel", "take p b r", "take pbr"),
    ("duel", "buy r3", "buy reserved 3"),
    ("duel", "recruit 2.1", "buy 2.1"),
    ("duel", "steal b", "steal u"),
]
NO_SUGGESTION = [
    ("base", "xyz"),
    ("base", ""),
    ("base", "buy R9"),
    ("base", "take rgbx"),
    ("marvel", "take rgu"),
    ("duel", "take rgb"),
    ("duel", "pay gold wwww"),
]


def message(state: object, text: str) -> str:
    with pytest.raises(InvalidActionError) as info:
        state.action_from_text(text)  # type: ignore[attr-defined]
    return str(info.value)


def both(variant: str, text: str) -> str:
    rust = message(splendor.new_game(variant, players=2, seed=1), text)
    python = message(ref.new_game(variant, players=2, seed=1), text)
    assert rust == python, (variant, text)
    return rust


@pytest.mark.parametrize(("variant", "text", "suggestion"), NEAR_MISSES)
def test_a_near_miss_is_named(variant: str, text: str, suggestion: str) -> None:
    msg = both(variant, text)
    quoted = text.replace('"', '\\"')
    assert msg.startswith(f'cannot parse action text "{quoted}" (did you mean "{suggestion}"?): ')
    # The suggestion parses, in both engines.
    splendor.new_game(variant, players=2, seed=1).action_from_text(suggestion)


@pytest.mark.parametrize(("variant", "text"), NO_SUGGESTION)
def test_every_variant_lists_its_forms_and_letters(variant: str, text: str) -> None:
    msg = both(variant, text)
    assert msg.startswith(f'cannot parse action text "{text}": expected one of: take <')
    assert msg.endswith(LETTERS[variant])
    buy = "recruit" if variant == "marvel" else "buy"
    assert f"{buy} <level>.<slot>" in msg and f"{buy} reserved <1-3>" in msg
    assert "\n" not in msg


def test_the_text_is_quoted_on_one_line() -> None:
    msg = both("base", 'take "w"\n\x00')
    assert msg.startswith('cannot parse action text "take \\"w\\"\\n\\u0000": ')


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_both_engines_word_mutated_text_alike(variant: str) -> None:
    """Mutations of every canonical text: the same verdict and, on failure, the same words."""
    rng = random.Random(f"action-text-{variant}")
    rust = splendor.new_game(variant, players=2, seed=1)
    python = ref.new_game(variant, players=2, seed=1)
    texts = [str(rust.action_from_id(a)) for a in range(rust.num_actions)]
    alphabet = "abcdeghkloprstuwy.0123456789 R"
    tried = 0
    for text in texts:
        for _ in range(3):
            chars = list(text)
            i = rng.randrange(len(chars) + 1)
            match rng.randrange(3):
                case 0:
                    chars.insert(i, rng.choice(alphabet))
                case 1 if i < len(chars):
                    del chars[i]
                case _ if i < len(chars):
                    chars[i] = rng.choice(alphabet)
            mutated = "".join(chars)
            outcomes: list[int | str] = []
            for state in (rust, python):
                try:
                    outcomes.append(int(state.action_from_text(mutated)))
                except InvalidActionError as exc:
                    outcomes.append(str(exc))
            assert outcomes[0] == outcomes[1], (variant, mutated)
            tried += 1
    assert tried == 3 * len(texts)
