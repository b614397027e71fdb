"""Completing a player's view into a full state: the starting point of a search from a view.

A view (``state.to_json(player)``) replaces what ``player`` cannot see by ``null``:
the decks' order, the opponents' blind-reserved cards and (Duel) the bag's
``chance`` seed. :func:`complete_view` fills those blanks with one
*determinization* consistent with the view, drawn from ``SplitMix64(seed)``
exactly as ``determinize`` does (``docs/contract.md``, *Randomness*): per level,
the unseen cards are sorted ascending by id, shuffled, and dealt to the
opponents' hidden reserved cards (seat ascending, reserve order) and then to the
deck from the top; Duel's ``chance`` is the generator's next 64 bits.

Only the view is read, so the result cannot depend on what the hidden cards
really were. The completed JSON is then loaded by an engine's ``from_json``,
which validates everything (conservation, limits, phases) as for any state.
"""

from __future__ import annotations

import json
from typing import Any

from splendor.errors import InvalidStateError
from splendor.reference.base import cards as base_cards
from splendor.reference.duel import cards as duel_cards
from splendor.reference.marvel import cards as marvel_cards
from splendor.reference.rng import SplitMix64

VARIANTS = ("base", "duel", "marvel")


def _levels(view: dict[str, Any]) -> tuple[int, ...]:
    """The level (1..3) of every card id of the view's variant, indexed by id."""
    variant = view["variant"]
    if variant == "base":
        return tuple(c.level for c in base_cards.CARDS)
    if variant == "duel":
        return tuple(c.level for c in duel_cards.CARDS)
    data = marvel_cards.data_by_id(view.get("card_set"))
    if data is None:
        raise InvalidStateError(
            f"card_set {view.get('card_set')!r} is not a Marvel card set loaded in this process"
        )
    return tuple(c.level for c in data.cards)


def _card_id(value: object, where: str, levels: tuple[int, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(levels):
        raise InvalidStateError(f"{where}: {value!r} is not a card id")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidStateError(f"{where}: expected a list, got {value!r}")
    return value


def _seen_cards(view: dict[str, Any], levels: tuple[int, ...]) -> list[int]:
    """Every card face the view shows (display, tableaux, visible reserves, Duel's pending card)."""
    seen: list[int] = []
    display_key = "pyramid" if view["variant"] == "duel" else "board"
    for r, row in enumerate(_list(view.get(display_key), display_key)):
        for s, card in enumerate(_list(row, f"{display_key}[{r}]")):
            if card is not None:
                seen.append(_card_id(card, f"{display_key}[{r}][{s}]", levels))
    for p, player in enumerate(_list(view.get("players"), "players")):
        if not isinstance(player, dict):
            raise InvalidStateError(f"players[{p}]: expected an object")
        for i, card in enumerate(_list(player.get("cards"), f"players[{p}].cards")):
            seen.append(_card_id(card, f"players[{p}].cards[{i}]", levels))
        for i, slot in enumerate(_list(player.get("reserved"), f"players[{p}].reserved")):
            if not isinstance(slot, dict):
                raise InvalidStateError(f"players[{p}].reserved[{i}]: expected an object")
            if slot.get("card") is not None:
                seen.append(_card_id(slot["card"], f"players[{p}].reserved[{i}].card", levels))
    pending = view.get("pending_card")
    if pending is not None and _card_id(pending, "pending_card", levels) not in seen:
        seen.append(pending)
    return seen


def complete_view(text: str, *, seed: int) -> str:
    """The full-state JSON of one determinization of the view ``text``, drawn from ``seed``.

    A full state (``"viewer": null``) is returned unchanged.

    Raises:
        InvalidStateError: ``text`` is not a well-formed view of a known variant,
            or what it shows is inconsistent (a card twice, hidden slots that the
            unseen cards cannot fill). The engine's ``from_json`` checks the rest.
    """
    try:
        view = json.loads(text)
    except (TypeError, ValueError, RecursionError) as e:
        raise InvalidStateError(f"malformed view JSON: {e}") from None
    if not isinstance(view, dict):
        raise InvalidStateError("a view must be a JSON object")
    if view.get("variant") not in VARIANTS:
        raise InvalidStateError(f"unknown variant {view.get('variant')!r} in view JSON")
    viewer = view.get("viewer")
    if viewer is None:
        return text
    players = _list(view.get("players"), "players")
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(players):
        raise InvalidStateError(f"viewer {viewer!r} is not a seat of this {len(players)}-seat view")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise InvalidStateError(f"seed must be between 0 and {(1 << 64) - 1}, got {seed!r}")
    levels = _levels(view)
    seen = _seen_cards(view, levels)
    if len(set(seen)) != len(seen):
        twice = sorted({c for c in seen if seen.count(c) > 1})
        raise InvalidStateError(f"the view shows card(s) {twice} more than once")
    if view.get("decks") is not None:
        raise InvalidStateError("a view's decks must be null (hidden)")
    sizes = _list(view.get("deck_sizes"), "deck_sizes")
    if len(sizes) != 3 or any(isinstance(n, bool) or not isinstance(n, int) for n in sizes):
        raise InvalidStateError(f"deck_sizes must be three counts, got {sizes!r}")
    if any(n < 0 for n in sizes):
        raise InvalidStateError(f"deck_sizes must not be negative, got {sizes!r}")

    # Hidden slots per level: opponents' face-down reserved cards, seat ascending.
    hidden: dict[int, list[dict[str, Any]]] = {1: [], 2: [], 3: []}
    for p, player in enumerate(players):
        for i, slot in enumerate(player["reserved"]):
            if p != viewer and (slot.get("card") is None) != (slot.get("hidden") is True):
                # Another seat's blind reserve is exactly what a view cannot show.
                raise InvalidStateError(
                    f"players[{p}].reserved[{i}]: a view shows another seat's card"
                    " if and only if it was not reserved blind"
                )
            if slot.get("card") is None:
                level = slot.get("level")
                if p == viewer:
                    raise InvalidStateError(f"players[{p}].reserved[{i}]: the viewer's own card")
                if level not in (1, 2, 3):
                    raise InvalidStateError(f"players[{p}].reserved[{i}].level: {level!r}")
                hidden[level].append(slot)

    rng = SplitMix64(seed)
    unseen_set = set(range(len(levels))) - set(seen)
    decks: list[list[int]] = []
    for level in (1, 2, 3):
        pool = sorted(c for c in unseen_set if levels[c] == level)
        if len(pool) != len(hidden[level]) + sizes[level - 1]:
            raise InvalidStateError(
                f"level {level}: {len(pool)} unseen cards cannot fill "
                f"{len(hidden[level])} hidden reserved card(s) and a deck of {sizes[level - 1]}"
            )
        rng.shuffle(pool)
        for slot in hidden[level]:
            slot["card"] = pool.pop(0)
        decks.append(pool)
    view["decks"] = decks
    if view["variant"] == "duel":
        if view.get("chance") is not None:
            raise InvalidStateError("a Duel view's chance must be null (hidden)")
        view["chance"] = rng.next_u64()
    view["viewer"] = None
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
