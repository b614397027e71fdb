"""Words the page shows that the action texts alone do not say: why a place of the board is
never taken, what a card a seat may reserve but not buy still lacks, and each seat's score
at a glance.

Everything here is computed from what the viewer may see: a seat's own tokens against a
face-up card's cost, the board model of the viewer (:func:`splendor.render.board_of`).
"""

from __future__ import annotations

import re
from typing import Any

import splendor
from splendor.errors import IllegalActionError, InvalidActionError
from splendor.render.tables import KINDS
from splendor.web import models as m

_NOT_TAKEN: dict[str, dict[str, str]] = {
    "base": {
        "y": "Gold is never taken from the bank: each reserve brings one while the bank has"
        " any (click a card or a deck to reserve it).",
    },
    "marvel": {
        "s": "The grey S.H.I.E.L.D. tokens are never taken from the bank: each reserve brings"
        " one while the bank has any (click a card or a deck to reserve it).",
        "t": "The green Time Stone is never taken from the bank: it comes with the first"
        " level-3 character you recruit.",
    },
}
"""The bank's tokens that no take may pick, and how each does come (the rules of
``docs/rules/``); a test checks that the engine refuses to take each of them."""

_DUEL_GOLD = (
    "{cell} holds gold, which is never taken like the gems: gold comes only with a reserve"
    " (the move `gold {cell}` takes it, then you choose the card to reserve)."
)

_SLOT = re.compile(r"^[1-3]\.[1-5]$")
_COUNT = re.compile(r"\b(\d+)([a-z])\b")


def place_notes(variant: str, view: dict[str, Any]) -> dict[str, str]:
    """Why a place of the board (its ``data-pick``) is never part of a take, by place: the
    bank's gold (Marvel: grey and green) tokens; in Duel, each cell holding gold."""
    notes = {f"token {letter}": words for letter, words in _NOT_TAKEN.get(variant, {}).items()}
    if variant == "duel":
        for i, letter in enumerate(view.get("board") or []):
            if letter == "y":
                cell = f"{'abcde'[i % 5]}{i // 5 + 1}"
                notes[f"cell {cell}"] = _DUEL_GOLD.format(cell=cell)
    return notes


def in_words(variant: str, text: str) -> str:
    """The engine's counts of tokens (``5w 3u``) in words (``5 white 3 blue``)."""
    names = {k.letter: k.name for k in KINDS.get(variant, ())}

    def word(match: re.Match[str]) -> str:
        name = names.get(match.group(2))
        return f"{match.group(1)} {name}" if name else match.group(0)

    return _COUNT.sub(word, text)


def why_not_buy(state: Any, variant: str, slot: str) -> str:
    """Why the seat to decide cannot buy the face-up card ``slot`` now, in the engine's words
    (``you cannot afford it: you lack 2 red 1 black and hold 0 gold``); empty if it can."""
    buy = f"{splendor.variant_info()[variant].verbs.buy} {slot}"
    trial = state.clone()
    try:
        trial.apply(trial.action_from_text(buy))
    except (IllegalActionError, InvalidActionError) as error:
        reason = str(error)
        marker = "is not legal now: "
        if marker in reason:
            reason = reason.split(marker, 1)[1]
        return in_words(variant, reason)
    return ""


def legal_actions(state: Any, variant: str, phase: str, picks: Any) -> list[m.LegalAction]:
    """The legal actions of the seat to decide, each with the board places it picks; a
    reserve of a face-up card the seat cannot buy notes what it lacks (in the main phase,
    where buying is the other choice)."""
    actions = list(state.legal_actions())
    texts = {str(a) for a in actions}
    verbs = splendor.variant_info()[variant].verbs
    main = phase == "main"
    out = []
    for a in actions:
        text = str(a)
        places = picks(variant, text)
        note = ""
        words = text.split()
        if (
            main
            and len(words) == 2
            and words[0] == verbs.reserve
            and _SLOT.match(words[1])
            and f"{verbs.buy} {words[1]}" not in texts
        ):
            note = why_not_buy(state, variant, words[1])
        out.append(m.LegalAction(id=int(a), text=text, picks=places, note=note))
    return out


def scores(board: Any) -> list[m.SeatScore]:
    """Each seat's score at a glance from the viewer's board model: points and the points
    that win, cards bought, tokens held, cards reserved."""
    out = []
    for seat in board.seats:
        target = next((s.target for s in seat.stats if s.key == "points"), None)
        out.append(
            m.SeatScore(
                seat=seat.index,
                points=seat.points,
                target=target,
                cards=seat.cards,
                tokens=seat.tokens_total,
                reserved=len(seat.reserved),
            )
        )
    return out
