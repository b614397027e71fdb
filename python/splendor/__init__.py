"""splendor: fast, exact engines and a strong AI for the Splendor family.

The Rust engine is :mod:`splendor._core`, re-exported here; the pure-Python
reference engine with the same API is :mod:`splendor.reference`.

>>> import splendor
>>> state = splendor.new_game("base", players=2, seed=1)
>>> state.current_player
0
"""

from splendor import _core, errors
from splendor._core import (
    VARIANTS,
    Action,
    BaseState,
    DuelState,
    GreedyBot,
    MarvelState,
    MatchResult,
    MctsBot,
    Network,
    Outcome,
    RandomBot,
    SearchResult,
    VectorEnv,
    from_json,
    new_game,
    random_games,
    random_playout,
    search,
)
from splendor.envs.spec import ObservationSpec, observation_spec
from splendor.errors import (
    CardDataError,
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    MatchInterrupted,
    NetworkError,
    SplendorError,
)
from splendor.nets import match
from splendor.protocol import GameState
from splendor.view import from_view

#: The package version, from the extension (Cargo.toml's ``version``, the one place it is
#: stated; the installed metadata, ``importlib.metadata.version("splendor")``, is the same).
__version__: str = _core.__version__

__all__ = [
    "VARIANTS",
    "Action",
    "BaseState",
    "CardDataError",
    "ConfigError",
    "DuelState",
    "GameState",
    "GreedyBot",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "MarvelState",
    "MatchInterrupted",
    "MatchResult",
    "MctsBot",
    "Network",
    "NetworkError",
    "ObservationSpec",
    "Outcome",
    "RandomBot",
    "SearchResult",
    "SplendorError",
    "VectorEnv",
    "__version__",
    "errors",
    "from_json",
    "from_view",
    "match",
    "new_game",
    "observation_spec",
    "random_games",
    "random_playout",
    "search",
]


def __dir__() -> list[str]:
    """The public names (``__all__``), not the submodules imported along the way."""
    return sorted(__all__)
