"""The text picture of a state (``__str__``): one layout and one set of words for every
variant (docs/contract.md, *The text picture*), filled in by each variant's ``render``
module. The Rust engine draws the same text (``src/picture.rs``).
"""

from __future__ import annotations

from collections.abc import Sequence


class Picture:
    """A picture being drawn, line by line."""

    def __init__(self, title: str, seats: int, turns_done: int, to_play: tuple[int, str] | None):
        """The header: ``Title, N seats, turn T, seat S to play (phase)``, or ``..., game over``.

        The turn is counted from 1 (the last turn once the game is over).
        """
        if to_play is None:
            head = f"{title}, {seats} seats, turn {max(turns_done, 1)}, game over"
        else:
            seat, phase = to_play
            head = f"{title}, {seats} seats, turn {turns_done + 1}, seat {seat} to play ({phase})"
        self.lines = [head]

    def line(self, line: str) -> None:
        """Add a line as it is."""
        self.lines.append(line)

    def list(self, label: str, items: Sequence[str]) -> None:
        """``label: a, b, c``, or ``label: -`` when there is nothing."""
        self.line(f"{label}: {', '.join(items) if items else '-'}")

    def card_row(self, level: int, left: int, cards: Sequence[str | None]) -> None:
        """A row of the card display: ``L2 (26 left): card | card | -``."""
        cells = " | ".join("-" if c is None else c for c in cards)
        self.line(f"L{level} ({left} left): {cells}")

    def seat(self, seat: int, facts: Sequence[str]) -> None:
        """A seat's line: ``seat 0: fact, fact, ...``."""
        self.line(f"seat {seat}: {', '.join(facts)}")

    def reserved(self, card: str, blind: bool) -> None:
        """One of the seat's reserved cards, under its line."""
        self.line(f"    reserved{' (blind)' if blind else ''}: {card}")

    def result(self, reason: str, winners: Sequence[int]) -> None:
        """The last line once the game is over: ``result: reason, winners [0, 1]``."""
        self.line(f"result: {reason}, winners [{', '.join(str(w) for w in winners)}]")

    def finish(self) -> str:
        """The picture's text (no newline at the end)."""
        return "\n".join(self.lines)


def tokens(letters: str, counts: Sequence[int], every: bool) -> str:
    """Tokens, letter then count: ``w1 u0 g2`` (``every``), or only the nonzero ones."""
    return " ".join(
        f"{letter}{n}" for letter, n in zip(letters, counts, strict=False) if every or n > 0
    )


def bonuses(letters: str, counts: Sequence[int]) -> str:
    """Bonuses, capital letter then count, nonzero only: ``W2 R1``."""
    return " ".join(
        f"{letter.upper()}{n}" for letter, n in zip(letters, counts, strict=False) if n > 0
    )


def cost(letters: str, counts: Sequence[int]) -> str:
    """A cost or a requirement, amount then letter: ``3w 2u`` (``free`` when nothing)."""
    return (
        " ".join(f"{n}{letter}" for letter, n in zip(letters, counts, strict=False) if n > 0)
        or "free"
    )
