"""Exceptions raised by both engines (``splendor`` and ``splendor.reference``).

Every error a user can provoke is a :class:`SplendorError`; the ones about a bad
value are also :class:`ValueError`. When one is raised, the state it was raised
from is left exactly as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from splendor._core import MatchResult


class SplendorError(Exception):
    """Base class of every error raised by splendor."""


class IllegalActionError(SplendorError, ValueError):
    """A well-formed action that the rules do not allow in this state."""


class InvalidActionError(SplendorError, ValueError):
    """Action text that does not parse, an id out of range, or a wrong type."""


class InvalidStateError(SplendorError, ValueError):
    """A corrupt, tampered or inconsistent JSON state, or a call that the object's state
    does not allow now (a ``VectorEnv`` call while a step is in flight)."""


class ConfigError(SplendorError, ValueError):
    """A bad variant name, player count or option."""


class CardDataError(SplendorError, ValueError):
    """A malformed card, noble, royal or location file."""


class NetworkError(SplendorError, ValueError):
    """A bad network file, or a network that does not fit the game it is asked to play."""


class GameNotOverError(SplendorError, ValueError):
    """A call that needs a finished game (a review) was given one still being played."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`splendor.match`; ``result`` holds the games finished so far.

    A :class:`KeyboardInterrupt`, so ``except KeyboardInterrupt`` catches it too.
    """

    def __init__(self, message: str, result: MatchResult) -> None:
        super().__init__(message)
        self.result = result
        """The :class:`splendor.MatchResult` of the games finished before the interrupt."""


__all__ = [
    "CardDataError",
    "ConfigError",
    "GameNotOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "MatchInterrupted",
    "NetworkError",
    "SplendorError",
]
