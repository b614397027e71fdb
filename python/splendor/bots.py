"""One home for bots: what a spec names in a game, the default AI, the AI levels, and
building a bot from a spec.

Every spec is read by the one parser, :func:`splendor.parse_bot_spec`. Three kinds
name something only a game can tell, because only this package knows where its
networks live: ``default`` (the default AI for the game), ``level:L`` (an AI level,
below) and a ``net`` spec without its file (``net``, ``net:N``, ``net:Ts``: the
network shipped for the game). :func:`resolve_bot_spec` rewrites them into a spec
the engine builds itself (:meth:`splendor.BotSpec.build`), so no code here branches
on the kind of bot: :func:`make_bot` resolves, then the engine builds.

The default AI is the search guided by the shipped network (``net:N``, ``N``
iterations taking no more time per move than commit 60f7934's default AI took on its
own build, :data:`splendor.nets.SHIPPED_NET_ITERATIONS`) where one is shipped, else
``mcts:1000``.

**AI levels.** ``level:1`` (Beginner) to ``level:10`` (Strongest, the default AI) are
the search of the network they were placed with (the shipped one, or 60f7934's where the
shipped one moved on since) with a smaller budget, choosing its move by drawing
among the moves its search visited, in proportion to ``visits ** (1 / T)``
(``:temp=T``, :attr:`splendor.MctsBot.move_temperature`): the weaker the level, the
smaller the search and the hotter the draw. A level never plays a move its search did
not consider, so even the Beginner takes and buys sensibly and errs the way a person
does, by playing a plausible second-best move. :data:`LEVELS` holds each level's name
and settings; docs/ladder.md places them on the strength ladder.

>>> resolve_bot_spec(" MCTS: 1000", "base", 2)
'mcts:1000'
>>> default_bot_spec("marvel", 4)
'net:1500:batch=4:c=0.5:fpu=0.2:ptemp=1.4:stop=1'
>>> default_bot_spec("duel", 2)
'net:1350:batch=4:fpu=0.2:ptemp=1.4'
>>> level_spec(1, "base", 2)
'net:48:batch=4:temp=4'
>>> [level.name for level in LEVELS][:3]
['Beginner', 'Novice', 'Casual']
>>> parse_bots("mcts:1000, greedy")
['mcts:1000', 'greedy']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from splendor import _core, nets
from splendor.errors import ConfigError
from splendor.nets import (
    LEVEL_FULL_SEARCH,
    SHIPPED_NET_ITERATIONS,
    level_network,
    reference_network_path,
    shipped_leaf_batch,
    shipped_network_path,
    shipped_tree_policy,
)

#: The default AI of a game no network is shipped for.
DEFAULT_SEARCH = "mcts:1000"

Bot = _core.RandomBot | _core.GreedyBot | _core.MctsBot
BotLike = Bot | str


@dataclass(frozen=True)
class Level:
    """An AI level: ``level:<number>``, shown to players as ``name``.

    The level searches with the network the levels were placed with (the game's shipped
    network, or commit 60f7934's where the shipped one moved on since:
    :func:`splendor.nets.level_network`) for ``share`` of the iterations the default AI
    searched when the levels were placed on the ladder (at least ``min_iterations``;
    :data:`splendor.nets.LEVEL_FULL_SEARCH`, with its leaf batch) and
    draws its move at ``temperature`` (0: the most visited move, as the default AI does).
    """

    number: int
    name: str
    share: float
    min_iterations: int
    temperature: float

    @property
    def spec(self) -> str:
        """The level's spec, ``level:<number>``."""
        return f"level:{self.number}"


#: The AI levels, weakest first: ``LEVELS[n - 1]`` is ``level:n``. The page's new-table
#: form offers them by ``name``; ``level:10`` is the default AI. The settings were placed
#: on the base 2-player ladder (docs/ladder.md, "AI levels").
LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", 0.0, 48, 4.0),
    Level(2, "Novice", 0.0, 32, 4.0),
    Level(3, "Casual", 0.0, 24, 2.0),
    Level(4, "Apprentice", 0.0, 16, 2.0),
    Level(5, "Intermediate", 0.0, 48, 0.85),
    Level(6, "Skilled", 0.0, 64, 0.7),
    Level(7, "Advanced", 0.12, 64, 0.5),
    Level(8, "Expert", 0.25, 64, 0.3),
    Level(9, "Master", 0.9, 64, 0.2),
    Level(10, "Strongest", 1.0, 1, 0.0),
)


def level_spec(level: int, variant: str, players: int) -> str:
    """The spec ``level:<level>`` stands for in ``variant`` with ``players`` players,
    its network not yet located (:func:`resolve_bot_spec` adds the file): the default
    AI for the top level, else ``net:N:batch=B:temp=T`` (or ``mcts:N:temp=T`` for a
    game no network is shipped for), with ``@60f7934`` where the game's shipped network
    moved on since the levels were placed (:func:`splendor.nets.level_network`).

    Raises:
        ConfigError: ``level`` is not between 1 and ``len(LEVELS)``.
    """
    if not 1 <= level <= len(LEVELS):
        raise ConfigError(f"level must be between 1 and {len(LEVELS)}, got {level}")
    entry = LEVELS[level - 1]
    default = default_bot_spec(variant, players)
    if entry.temperature == 0 and entry.share == 1:
        return default
    # The search the levels were placed with, not today's faster default's.
    full, batch = LEVEL_FULL_SEARCH.get((variant, players), (1000, 1))
    iterations = max(entry.min_iterations, round(entry.share * full))
    temp = f":temp={entry.temperature:g}"
    if default.startswith("net"):
        # The batch spelled out even when 1: a path-less spec without one would take the
        # shipped default's batch, which is 4 in every game today.
        spec = f"net:{iterations}:batch={batch}{temp}"
        # And the network the levels were placed with, where the shipped one moved on.
        placed_with = level_network(variant, players)
        return spec if placed_with is None else f"{spec}@{placed_with}"
    return f"mcts:{iterations}{temp}"


def _with_shipped_batch(budget: str, variant: str, players: int) -> str:
    """``net:BUDGET`` with the shipped ``:batch=B`` where the game's is not 1."""
    batch = shipped_leaf_batch(variant, players)
    return f"net:{budget}" if batch == 1 else f"net:{budget}:batch={batch}"


def default_bot_spec(variant: str, players: int) -> str:
    """The spec of the default AI for ``variant`` with ``players`` players:
    ``net:N`` (the shipped network, ``N`` from
    :data:`splendor.nets.SHIPPED_NET_ITERATIONS`, with ``:batch=B`` where
    :data:`splendor.nets.SHIPPED_NET_LEAF_BATCH` gives one, and the options of
    :data:`splendor.nets.SHIPPED_NET_TREE_POLICY`, ``:fpu=R:ptemp=P``, where it
    has an entry) where a network is shipped, else ``mcts:1000``."""
    # Read through the module: a test takes the shipped files away by patching it.
    if (nets.NETS_DIR / f"{variant}-{players}p.safetensors").is_file():
        # A shipped file always has its figure (a test checks); 1000 guards a file a
        # user dropped into the package for a game we do not ship.
        iterations = SHIPPED_NET_ITERATIONS.get((variant, players), 1000)
        batched = _with_shipped_batch(str(iterations), variant, players)
        return batched + shipped_tree_policy(variant, players).spec_options
    return DEFAULT_SEARCH


def resolve_bot_spec(spec: str, variant: str, players: int) -> str:
    """``spec``, parsed by :func:`splendor.parse_bot_spec`, in its one spelling, with
    ``default`` turned into :func:`default_bot_spec`, ``level:L`` into
    :func:`level_spec` and a path-less ``net`` / ``net:N`` / ``net:Ts`` into
    ``net:...@<shipped network>`` (``net`` alone: the default AI,
    :func:`default_bot_spec`; without ``:batch=B``, the shipped network's own
    :func:`splendor.nets.shipped_leaf_batch`): a spec the engine can build.

    Raises:
        ConfigError: Not a bot spec (the message lists the forms), or a path-less
            ``net`` spec and no network shipped for the game.
    """
    parsed = _core.parse_bot_spec(spec)
    if parsed.level is not None:
        parsed = _core.parse_bot_spec(level_spec(parsed.level, variant, players))
    if parsed.kind == "default":
        parsed = _core.parse_bot_spec(default_bot_spec(variant, players))
    if parsed.kind == "net" and parsed.network is None:
        path = shipped_network_path(variant, players)
        if parsed.iterations is None and parsed.time_limit is None:
            # `net` alone is the default AI (the network is shipped: `path`).
            parsed = _core.parse_bot_spec(default_bot_spec(variant, players))
        if parsed.leaf_batch is None:
            # The shipped batch goes first among the options (the grammar's order).
            budget, _, options = str(parsed).split(":", 1)[1].partition(":")
            batched = _with_shipped_batch(budget, variant, players)
            parsed = _core.parse_bot_spec(batched + (f":{options}" if options else ""))
        return f"{parsed}@{path}"
    if parsed.kind == "net" and parsed.network is not None:
        reference = reference_network_path(parsed.network, variant, players)
        if reference is not None:
            return f"{str(parsed).split('@', 1)[0]}@{reference}"
    return str(parsed)


def make_bot(spec: str, seed: int, variant: str = "base", players: int = 2) -> Bot:
    """A bot from a spec (read by :func:`splendor.parse_bot_spec`, the one parser):
    ``random``, ``greedy``, ``mcts``, ``mcts:N``, ``mcts:Ts``, ``net:N@PATH``,
    ``net:Ts@PATH``, ``net`` / ``net:N`` / ``net:Ts`` (the network shipped for
    ``variant`` and ``players``), each ``net`` budget optionally with ``:batch=B``, a
    search's budget optionally with ``:temp=T``, ``level:1`` ... ``level:10`` (the AI
    levels, :data:`LEVELS`) or ``default`` (the default AI for the game,
    :func:`default_bot_spec`). :func:`resolve_bot_spec` resolves it for the game, then
    the engine builds it (:meth:`splendor.BotSpec.build`).

    Raises:
        ConfigError: The spec is not one of those, or no network is shipped.
        NetworkError: A bad network file, or one for another game.
    """
    resolved = _core.parse_bot_spec(resolve_bot_spec(spec, variant, players))
    bot: Bot = resolved.build(seed)
    return bot


def parse_bots(text: str) -> list[str]:
    """Splits a comma-separated bot list (``"mcts:1000,greedy"``) into specs, each
    read by :func:`splendor.parse_bot_spec` and written in its one spelling.

    Raises:
        ConfigError: The list is empty or has an empty entry, or an entry is not a
            bot spec (the parser's message, which lists the forms).
    """
    specs = [part.strip() for part in text.split(",")]
    if not specs or any(not s for s in specs):
        raise ConfigError(f"bad bot list {text!r}: expected e.g. 'mcts:1000,greedy'")
    return [str(_core.parse_bot_spec(s)) for s in specs]


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
    """:func:`splendor._core.match` with every spec string resolved for ``variant`` and
    ``players`` (:func:`resolve_bot_spec`: ``default``, ``level:L``, ``net:N``...); same
    arguments.

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
