"""The text picture of a base-game state (``__str__``)."""

from __future__ import annotations

from splendor.reference.base import actions as A
from splendor.reference.base.cards import CARDS, LETTERS, NOBLES, NUM_LEVELS, TOKEN_LETTERS
from splendor.reference.base.state import BaseCore


def _cost(card: int) -> str:
    c = CARDS[card]
    parts = "".join(f"{n}{LETTERS[i]}" for i, n in enumerate(c.cost) if n)
    return f"[{LETTERS[c.bonus]}{c.points} {parts or 'free'}]"


def render(state: BaseCore) -> str:
    """A readable multi-line picture of the board and the players."""
    lines = []
    head = f"Splendor, {state.num_players} players, turn {state.turn}, phase {state.phase}"
    if state.current is not None:
        head += f", player {state.current} to move"
    if state.pending is not None:
        head += f" (paying for `{A.action_text(state.pending)}`)"
    lines.append(head)
    lines.append("bank  " + " ".join(f"{TOKEN_LETTERS[c]}{n}" for c, n in enumerate(state.bank)))
    nobles = " ".join(
        f"#{x}:" + "".join(f"{r}{LETTERS[c]}" for c, r in enumerate(NOBLES[x].req) if r)
        for x in state.nobles
    )
    lines.append(f"nobles {nobles or '-'}")
    for level in reversed(range(NUM_LEVELS)):
        cards = " ".join("[  empty  ]" if c is None else _cost(c) for c in state.board[level])
        lines.append(f"L{level + 1} ({len(state.decks[level]):2} left) {cards}")
    for seat, p in enumerate(state.players):
        mark = ">" if seat == state.current else " "
        tokens = " ".join(f"{TOKEN_LETTERS[c]}{n}" for c, n in enumerate(p.tokens))
        bonus = " ".join(f"{LETTERS[c]}{n}" for c, n in enumerate(p.bonuses()))
        reserved = " ".join(_cost(r.card) + ("*" if r.hidden else "") for r in p.reserved)
        lines.append(
            f"{mark}P{seat} {p.points():2} pts, {len(p.cards)} cards, nobles {p.nobles}"
            f" | tokens {tokens} | bonus {bonus} | reserved {reserved or '-'}"
        )
    return "\n".join(lines)
