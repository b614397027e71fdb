"""The 5x5 token board: cell names, the fill spiral and the 145 lines a take may use
(docs/duel.md, Data and ids)."""

from __future__ import annotations

SPIRAL = (12, 17, 16, 11, 6, 7, 8, 13, 18, 23, 22, 21, 20, 15, 10, 5, 0, 1, 2, 3, 4, 9, 14, 19, 24)
"""The cells in the order the board is filled: a clockwise walk from the centre."""


def cell_name(cell: int) -> str:
    """``a1`` for cell 0: column letter, then 1-based row."""
    return "abcde"[cell % 5] + str(cell // 5 + 1)


def _lines() -> tuple[tuple[int, ...], ...]:
    """The 145 line shapes in id order: singles, then pairs and triples by direction."""
    out: list[tuple[int, ...]] = [(c,) for c in range(25)]
    for length in (2, 3):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for cell in range(25):
                r, c = divmod(cell, 5)
                end_r, end_c = r + dr * (length - 1), c + dc * (length - 1)
                if 0 <= end_r < 5 and 0 <= end_c < 5:
                    out.append(tuple(cell + (dr * 5 + dc) * k for k in range(length)))
    return tuple(out)


LINES = _lines()
