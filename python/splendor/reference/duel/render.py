"""The text picture of a Duel state (``__str__``), in the layout every variant shares
(:mod:`splendor.reference.picture`), with the token board drawn as a grid."""

from __future__ import annotations

from splendor.reference import picture
from splendor.reference.duel.cards import (
    ABILITIES,
    CARDS,
    KINDS,
    NONE_BONUS,
    ROYALS,
    SLOTS,
    WILD,
)
from splendor.reference.duel.state import DuelCore


def _abilities(names: tuple[str, ...]) -> str | None:
    """The abilities in flag order, joined by ``+`` (a joker shows as ``*`` instead)."""
    shown = [a for a in ABILITIES if a in names and a != "wild"]
    return "+".join(shown) if shown else None


def _card(card: int) -> str:
    """``#58 WW 2pt 1cr again cost 3u 2p``: id, bonus, points, crowns, ability, cost."""
    c = CARDS[card]
    if c.bonus == WILD:
        bonus = "*"
    elif c.bonus == NONE_BONUS:
        bonus = "-"
    else:
        bonus = KINDS[c.bonus].upper() * c.bonus_count
    text = f"#{card} {bonus} {c.points}pt"
    if c.crowns:
        text += f" {c.crowns}cr"
    ability = _abilities(c.abilities)
    if ability is not None:
        text += f" {ability}"
    return f"{text} cost {picture.cost(KINDS, c.cost)}"


def _royal(r: int) -> str:
    """``R0 2pt steal``: id, points, ability."""
    ability = _abilities(ROYALS[r].abilities)
    return f"R{r} {ROYALS[r].points}pt" + ("" if ability is None else f" {ability}")


def render(s: DuelCore) -> str:
    """A readable multi-line picture of the board and the players."""
    to_play = None if s.phase == "over" else (s.current, s.phase)
    p = picture.Picture("Splendor Duel", 2, s.turn, to_play)
    p.line("board: a b c d e")
    for r in range(5):
        cells = " ".join("." if k is None else KINDS[k] for k in s.board[r * 5 : r * 5 + 5])
        p.line(f"     {r + 1} {cells}")
    p.line(f"bag: {picture.tokens(KINDS, s.bag, True)}, privileges in the supply: {s.supply()}")
    p.list("royals", [_royal(r) for r in sorted(s.royals)])
    for level in (2, 1, 0):
        row = [None if c is None else _card(c) for c in s.pyramid[level]]
        assert len(row) == SLOTS[level]
        p.card_row(level + 1, len(s.decks[level]), row)
    for seat, pl in enumerate(s.players):
        p.seat(
            seat,
            [
                f"{pl.points()} points",
                f"{pl.crowns()} crowns",
                f"tokens [{picture.tokens(KINDS, pl.tokens, False)}]",
                f"bonuses [{picture.bonuses(KINDS, pl.bonuses())}]",
                f"privileges {pl.privileges}",
                f"{len(pl.cards)} cards",
                f"royals [{', '.join(f'R{r}' for r in sorted(pl.royals))}]",
            ],
        )
        for res in pl.reserved:
            p.reserved(_card(res.card), res.hidden)
    if s.phase == "over" and s.outcome_reason is not None:
        p.result(s.outcome_reason, s.outcome_winners)
    return p.finish()
