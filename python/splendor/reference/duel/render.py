"""The text picture of a Duel state (``__str__``)."""

from __future__ import annotations

from splendor.reference.duel.cards import KINDS
from splendor.reference.duel.state import DuelCore


def render(s: DuelCore) -> str:
    """A readable multi-line picture of the board and the players."""
    lines = [
        f"Splendor Duel, turn {s.turn}, phase {s.phase}, "
        + ("game over" if s.phase == "over" else f"player {s.current} to play"),
        "    a b c d e",
    ]
    for r in range(5):
        cells = [s.board[r * 5 + c] for c in range(5)]
        row = " ".join("." if k is None else KINDS[k] for k in cells)
        lines.append(f"  {r + 1}  {row}")
    lines.append(f"bag {s.bag}, privileges in supply {s.supply()}")
    for level in (2, 1, 0):
        row = " ".join("--" if c is None else f"{c:2}" for c in s.pyramid[level])
        lines.append(f"level {level + 1} [{row}] deck {len(s.decks[level])}")
    for p, pl in enumerate(s.players):
        tokens = " ".join(f"{KINDS[k]}{pl.tokens[k]}" for k in range(7))
        lines.append(
            f"player {p}: {pl.points()} pts, {pl.crowns()} crowns, tokens {tokens},"
            f" privileges {pl.privileges}, cards {len(pl.cards)}, reserved {len(pl.reserved)}"
        )
    return "\n".join(lines) + "\n"
