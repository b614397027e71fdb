"""Networks shipped with the package, and ``net:`` bot specs.

A ``net:N@PATH`` or ``net:Ts@PATH`` spec is the search with the network file at
PATH (N iterations or T seconds per move). ``net``, ``net:N`` and ``net:Ts`` without
a path name the network shipped for the game being played,
``splendor/data/nets/<variant>-<players>p.safetensors``; only Python knows where
the package data lives, so this module rewrites such specs to ``net:...@PATH``
before they reach the engine.

A ``net:N@NAME`` spec whose NAME is no file but one of the folders of
``splendor/data/nets/reference/`` (``b132d65``: the networks shipped at that
commit) names that reference network for the game being played, so
``net:1070@b132d65`` stays the same opponent after newer networks are shipped
(the strength ladder, :mod:`splendor.ladder`, plays against it).

Every spec is read by the one parser, :func:`splendor.parse_bot_spec`. The spec
``default`` is the package's default AI for the game: the search guided by the
shipped network (``net:N``, ``N`` iterations taking at most about the time per move
of ``mcts:1000``) where one is shipped, else ``mcts:1000``.

>>> default_bot_spec("marvel", 4)
'net:830'
>>> resolve_bot_spec(" MCTS: 1000", "base", 2)
'mcts:1000'
>>> resolve_bot_spec("net:400@best.safetensors", "base", 2)
'net:400@best.safetensors'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from splendor import _core
from splendor.errors import ConfigError

#: Where the shipped networks live.
NETS_DIR = Path(__file__).resolve().parent / "data" / "nets"

#: Earlier shipped networks kept as fixed opponents,
#: ``reference/<name>/<variant>-<players>p.safetensors``, spelled ``net:N@<name>``
#: (see :func:`reference_network_path`).
REFERENCE_DIR = NETS_DIR / "reference"

#: Iterations per move of the default AI for each ``(variant, players)`` a network is
#: shipped for: about the time per move of ``mcts:1000``, measured with
#: ``benches/pair_time.py`` (docs/network.md, "The shipped networks"). A network costs
#: more per iteration in some games than a rollout, less in others, hence one figure each.
#: The 2-player games instead take no more time than the defaults they replaced
#: (b132d65's ``net:1070``, ``net:840`` and ``net:770``): base and Duel 0.57x and 0.61x
#: that of ``mcts:1000``, Marvel 0.58-0.71x.
SHIPPED_NET_ITERATIONS: dict[tuple[str, int], int] = {
    ("base", 2): 1000,
    ("base", 3): 1650,
    ("base", 4): 1790,
    ("duel", 2): 750,
    ("marvel", 2): 620,
    ("marvel", 3): 960,
    ("marvel", 4): 830,
}

#: Leaves per forward pass (``leaf_batch``) of the default AI's search, for each
#: ``(variant, players)`` whose shipped network is searched with more than one:
#: a wider network pays for itself only when its trunk sees several leaves at once
#: (docs/network.md, "Batched leaf evaluation"): the 2-player networks are 128,128 wide.
#: The 3- and 4-player games search with 1.
SHIPPED_NET_LEAF_BATCH: dict[tuple[str, int], int] = {
    ("base", 2): 4,
    ("duel", 2): 4,
    ("marvel", 2): 4,
}

#: The default AI of a game no network is shipped for.
DEFAULT_SEARCH = "mcts:1000"

BotLike = _core.RandomBot | _core.GreedyBot | _core.MctsBot | str


def shipped_network_path(variant: str, players: int) -> Path:
    """The shipped network file for ``variant`` with ``players`` players.

    Raises:
        ConfigError: No network is shipped for that game.
    """
    path = NETS_DIR / f"{variant}-{players}p.safetensors"
    if not path.is_file():
        raise ConfigError(
            f"no network is shipped for {variant} with {players} players "
            f"(looked for {path}); give a file instead, e.g. net:400@best.safetensors"
        )
    return path


def reference_network_path(name: str, variant: str, players: int) -> Path | None:
    """The reference network ``name`` (a folder of :data:`REFERENCE_DIR`, e.g.
    ``b132d65``) for ``variant`` with ``players`` players; None when ``name`` is a file
    or names no reference folder (it is then read as a path, as before).

    Raises:
        ConfigError: The reference folder has no network for that game.
    """
    if Path(name).exists() or not name or any(c in name for c in "/\\.:"):
        return None
    folder = REFERENCE_DIR / name
    if not folder.is_dir():
        return None
    path = folder / f"{variant}-{players}p.safetensors"
    if not path.is_file():
        raise ConfigError(
            f"the reference networks {name} have none for {variant} with {players} players "
            f"(looked for {path})"
        )
    return path


def shipped_leaf_batch(variant: str, players: int) -> int:
    """Leaves per forward pass of the shipped network's search for that game
    (:data:`SHIPPED_NET_LEAF_BATCH`, else 1)."""
    return SHIPPED_NET_LEAF_BATCH.get((variant, players), 1)


def _with_shipped_batch(budget: str, variant: str, players: int) -> str:
    """``net:BUDGET`` with the shipped ``:batch=B`` where the game's is not 1."""
    batch = shipped_leaf_batch(variant, players)
    return f"net:{budget}" if batch == 1 else f"net:{budget}:batch={batch}"


def default_bot_spec(variant: str, players: int) -> str:
    """The spec of the default AI for ``variant`` with ``players`` players:
    ``net:N`` (the shipped network, ``N`` from :data:`SHIPPED_NET_ITERATIONS`, with
    ``:batch=B`` where :data:`SHIPPED_NET_LEAF_BATCH` gives one) where a network is
    shipped, else ``mcts:1000``."""
    if (NETS_DIR / f"{variant}-{players}p.safetensors").is_file():
        # A shipped file always has its figure (a test checks); 1000 guards a file a
        # user dropped into the package for a game we do not ship.
        iterations = SHIPPED_NET_ITERATIONS.get((variant, players), 1000)
        return _with_shipped_batch(str(iterations), variant, players)
    return DEFAULT_SEARCH


def resolve_bot_spec(spec: str, variant: str, players: int) -> str:
    """``spec``, parsed by :func:`splendor.parse_bot_spec`, in its one spelling, with
    ``default`` turned into :func:`default_bot_spec` and a path-less ``net`` /
    ``net:N`` / ``net:Ts`` into ``net:...@<shipped network>`` (``net`` alone: the
    iterations of :data:`SHIPPED_NET_ITERATIONS`; without ``:batch=B``, the shipped
    network's own :func:`shipped_leaf_batch`): a spec the engine can build.

    Raises:
        ConfigError: Not a bot spec (the message lists the forms), or a path-less
            ``net`` spec and no network shipped for the game.
    """
    parsed = _core.parse_bot_spec(spec)
    if parsed.kind == "default":
        parsed = _core.parse_bot_spec(default_bot_spec(variant, players))
    if parsed.kind == "net" and parsed.network is None:
        path = shipped_network_path(variant, players)
        if parsed.iterations is None and parsed.time_limit is None:
            parsed = _core.parse_bot_spec(
                f"net:{SHIPPED_NET_ITERATIONS.get((variant, players), 1000)}"
            )
        if parsed.leaf_batch is None:
            budget = str(parsed).split(":", 1)[1]
            parsed = _core.parse_bot_spec(_with_shipped_batch(budget, variant, players))
        return f"{parsed}@{path}"
    if parsed.kind == "net" and parsed.network is not None:
        reference = reference_network_path(parsed.network, variant, players)
        if reference is not None:
            return f"{str(parsed).split('@', 1)[0]}@{reference}"
    return str(parsed)


def match(
    bots: Sequence[BotLike],
    *,
    variant: str = "base",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    threads: int = 1,
    turn_cap: int = 100,
    progress: Callable[[int, int], object] | None = None,
    first_game: int = 0,
) -> _core.MatchResult:
    """:func:`splendor._core.match` with ``net:N`` / ``net:Ts`` specs resolved to
    the shipped network for ``variant`` and ``players``; same arguments.

    Raises:
        ConfigError: A bad bot, variant, player count, game or thread count, or
            a path-less ``net:`` spec with no shipped network.
        NetworkError: A bad network file, or one for another game.
        MatchInterrupted: Ctrl-C during the match; its ``result`` holds the games
            finished so far.
    """
    resolved = [resolve_bot_spec(b, variant, players) if isinstance(b, str) else b for b in bots]
    return _core.match(
        resolved,
        variant=variant,
        players=players,
        games=games,
        seed=seed,
        threads=threads,
        turn_cap=turn_cap,
        progress=progress,
        first_game=first_game,
    )
