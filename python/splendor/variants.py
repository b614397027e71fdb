"""The facts of each game, stated once: its title, its player counts and its verbs.

Every layer that names a game (the web page and its API, the terminal game, the
OpenSpiel adapter) reads them from here, so a title or a player count is never copied.

>>> import splendor
>>> info = splendor.variant_info()["marvel"]
>>> info.title, info.players, info.verbs.buy
('Splendor: Marvel', (2, 3, 4), 'recruit')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VariantInfo", "Verbs", "variant_info"]


@dataclass(frozen=True, slots=True)
class Verbs:
    """The first word of the actions that buy, reserve and take (as the action texts spell
    them: Marvel recruits its heroes where the other games buy cards)."""

    buy: str
    reserve: str
    take: str


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """One game of the family.

    Attributes:
        name: The variant's name in ``splendor.new_game`` and ``splendor.VARIANTS``.
        title: The game's title, as its box prints it.
        players: The player counts ``splendor.new_game`` accepts, smallest first.
        verbs: The words its action texts use to buy, reserve and take.
    """

    name: str
    title: str
    players: tuple[int, ...]
    verbs: Verbs


_VARIANTS = (
    VariantInfo("base", "Splendor", (2, 3, 4), Verbs("buy", "reserve", "take")),
    VariantInfo("duel", "Splendor Duel", (2,), Verbs("buy", "reserve", "take")),
    VariantInfo("marvel", "Splendor: Marvel", (2, 3, 4), Verbs("recruit", "reserve", "take")),
)


def variant_info() -> dict[str, VariantInfo]:
    """Every variant's facts, by name, in the order of ``splendor.VARIANTS``.

    Returns:
        A new dict on each call (changing it changes nothing else); its values are frozen.
    """
    return {v.name: v for v in _VARIANTS}
