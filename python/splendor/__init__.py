"""splendor: fast, exact engines and a strong AI for the Splendor family.

The Rust engine is :mod:`splendor._core`, re-exported here; the pure-Python
reference engine with the same API is :mod:`splendor.reference`.

>>> import splendor
>>> state = splendor.new_game("base", players=2, seed=1)
>>> state.current_player
0
"""

import importlib as _importlib
import inspect as _inspect
import typing as _typing
from typing import Any as _Any

from splendor import _core, errors
from splendor._arguments import typed_errors as _typed_errors
from splendor._core import (
    VARIANTS,
    Action,
    BaseState,
    BotSpec,
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
    parse_bot_spec,
    random_games,
    random_playout,
    search,
)
from splendor.bots import match
from splendor.envs.spec import ObservationSpec, observation_spec
from splendor.errors import (
    CardDataError,
    ConfigError,
    GameNotOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
    MatchInterrupted,
    NetworkError,
    SplendorError,
)
from splendor.protocol import GameState
from splendor.review import Review, review
from splendor.variants import VariantInfo, Verbs, variant_info
from splendor.view import from_view

#: The package version, from the extension (Cargo.toml's ``version``, the one place it is
#: stated; the installed metadata, ``importlib.metadata.version("splendor")``, is the same).
__version__: str = _core.__version__

__all__ = [
    "VARIANTS",
    "Action",
    "BaseState",
    "BotSpec",
    "CardDataError",
    "ConfigError",
    "DuelState",
    "GameNotOverError",
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
    "Review",
    "SearchResult",
    "SplendorError",
    "VariantInfo",
    "VectorEnv",
    "Verbs",
    "__version__",
    "errors",
    "from_json",
    "from_view",
    "match",
    "new_game",
    "observation_spec",
    "parse_bot_spec",
    "random_games",
    "random_playout",
    "review",
    "search",
    "variant_info",
]


if not _typing.TYPE_CHECKING:
    _nets_match = match

    def match(bots: _Any, **options: _Any) -> MatchResult:
        if not isinstance(bots, (list, tuple)):
            _core.match(bots, **options)  # refuses them, naming the argument
        return _nets_match(bots, **options)

    # help(splendor.match) reads the engine's account of it, not the wrapper's.
    match.__doc__ = _core.match.__doc__
    match.__signature__ = _inspect.signature(_core.match)

    # A call with arguments a function does not take (`new_game("base", 2)`) raises
    # ConfigError naming the signature, as every other bad argument does, not TypeError.
    for _name in __all__:
        _obj = globals()[_name]
        if callable(_obj) and not isinstance(_obj, type):
            globals()[_name] = _typed_errors(_obj)
            globals()[_name].__module__ = __name__  # pickled by reference as splendor.<name>
    del _name, _obj


#: Submodules imported on first use (``splendor.render.text_board(...)`` works after a
#: plain ``import splendor``), so that ``import splendor`` stays cheap: it never imports
#: PyTorch, Gymnasium or the web layer.
_SUBMODULES = frozenset(
    {
        "arena",
        "bots",
        "cli",
        "distributed",
        "envs",
        "errors",
        "nets",
        "play",
        "protocol",
        "reference",
        "render",
        "selfplay",
        "train",
        "view",
        "web",
    }
)


def __getattr__(name: str) -> _Any:
    """Imports a submodule on first access (``splendor.render``, ``splendor.selfplay``...)."""
    if name in _SUBMODULES:
        return _importlib.import_module(f"splendor.{name}")
    raise AttributeError(f"module 'splendor' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (``__all__``), not the submodules imported along the way."""
    return sorted(__all__)
