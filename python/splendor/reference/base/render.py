"""The text picture of a base-game state (``__str__``), in the layout every variant shares
(:mod:`splendor.reference.picture`)."""

from __future__ import annotations

from splendor.reference import picture
from splendor.reference.base.cards import CARDS, LETTERS, NOBLES, NUM_LEVELS, TOKEN_LETTERS
from splendor.reference.base.rules import BaseRules


def _card(card: int) -> str:
    """``#82 R 3pt cost 3w 5u 3g 3k``: id, bonus colour, points, cost."""
    c = CARDS[card]
    return f"#{card} {LETTERS[c.bonus].upper()} {c.points}pt cost {picture.cost(LETTERS, c.cost)}"


def _noble(noble: int) -> str:
    """``N9 3pt (3g 3r 3k)``: id, points, requirement."""
    n = NOBLES[noble]
    return f"N{noble} {n.points}pt ({picture.cost(LETTERS, n.req)})"


def render(state: BaseRules) -> str:
    """A readable multi-line picture of the board and the players."""
    current = state.current
    to_play = None if current is None else (current, state.phase)
    p = picture.Picture("Splendor", state.num_players, state.turn, to_play)
    p.line(f"bank: {picture.tokens(TOKEN_LETTERS, state.bank, True)}")
    p.list("nobles", [_noble(x) for x in state.nobles])
    for level in reversed(range(NUM_LEVELS)):
        row = [None if c is None else _card(c) for c in state.board[level]]
        p.card_row(level + 1, len(state.decks[level]), row)
    for seat, pl in enumerate(state.players):
        p.seat(
            seat,
            [
                f"{pl.points()} points",
                f"tokens [{picture.tokens(TOKEN_LETTERS, pl.tokens, False)}]",
                f"bonuses [{picture.bonuses(LETTERS, pl.bonuses())}]",
                f"{len(pl.cards)} cards",
                f"nobles [{', '.join(f'N{x}' for x in pl.nobles)}]",
            ],
        )
        for r in pl.reserved:
            p.reserved(_card(r.card), r.hidden)
    reason = state.end_reason() if state.phase == "over" else None
    if reason is not None:
        p.result(reason, () if reason == "truncated" else state.winners())
    return p.finish()
