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

The specs themselves are resolved, and bots built, in :mod:`splendor.bots` (which
also has the default AI and the AI levels); ``splendor.nets.default_bot_spec``,
``resolve_bot_spec`` and ``match`` still name those functions there.

>>> shipped_leaf_batch("base", 3)
4
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from splendor import _core
from splendor.errors import ConfigError

#: Where the shipped networks live.
NETS_DIR = Path(__file__).resolve().parent / "data" / "nets"

#: Earlier shipped networks kept as fixed opponents,
#: ``reference/<name>/<variant>-<players>p.safetensors``, spelled ``net:N@<name>``
#: (see :func:`reference_network_path`).
REFERENCE_DIR = NETS_DIR / "reference"

#: Iterations per move of the default AI for each ``(variant, players)`` a network is
#: shipped for: as many as take no more time per move, over whole games, than commit
#: 60f7934's default AI took on its own build (``benches/build_time.py``; docs/network.md,
#: "The shipped networks"). That build's forward pass ran 2-5x slower: a quarter of the
#: trained weights were subnormal floats, each multiply by one a microcode assist, and network
#: files now read them as zero (the same values, bit for bit). The time saved went into the
#: search: base 2 players searched 1,000 iterations then and 3,500 now, in the same time.
#: With 3 and 4 players the default stops early once its move is decided (``:stop=1``,
#: :data:`SHIPPED_NET_TREE_POLICY`), so these budgets are larger for the same time.
SHIPPED_NET_ITERATIONS: dict[tuple[str, int], int] = {
    ("base", 2): 3500,
    ("base", 3): 4500,
    ("base", 4): 3400,
    ("duel", 2): 1350,
    ("marvel", 2): 2900,
    ("marvel", 3): 2950,
    ("marvel", 4): 1500,
}

#: Leaves per forward pass (``leaf_batch``) of the default AI's search, for each
#: ``(variant, players)`` whose shipped network is searched with more than one:
#: a network pays for itself only when its trunk sees several leaves at once
#: (docs/network.md, "Batched leaf evaluation"). Every shipped game's default searches 4:
#: for the 3- and 4-player networks (64 wide) that made the search 1.6x faster per
#: iteration, which went into more iterations.
SHIPPED_NET_LEAF_BATCH: dict[tuple[str, int], int] = {
    ("base", 2): 4,
    ("base", 3): 4,
    ("base", 4): 4,
    ("duel", 2): 4,
    ("marvel", 2): 4,
    ("marvel", 3): 4,
    ("marvel", 4): 4,
}

#: The default AI's iterations and leaf batch for each game when the AI levels were placed
#: on the ladder (commit 60f7934's, before the faster forward pass): levels 1-9 search their
#: share of these, with that batch, so that they stay the bots the ladder placed
#: (:func:`splendor.bots.level_spec`; docs/ladder.md, "AI levels").
LEVEL_FULL_SEARCH: dict[tuple[str, int], tuple[int, int]] = {
    ("base", 2): (1000, 4),
    ("base", 3): (1650, 1),
    ("base", 4): (1790, 1),
    ("duel", 2): (750, 4),
    ("marvel", 2): (620, 4),
    ("marvel", 3): (960, 1),
    ("marvel", 4): (830, 1),
}

#: The reference folder (:data:`REFERENCE_DIR`) of the networks the AI levels were placed
#: with: commit 60f7934's. Where a game's shipped network has moved on since, that folder
#: keeps the one the levels were placed with and levels 1-9 search it, so that they stay
#: the bots the ladder placed; the top level, the default AI, searches the shipped one
#: (:func:`level_network`).
LEVEL_NETWORKS = "60f7934"


def level_network(variant: str, players: int) -> str | None:
    """The network levels 1-9 search in that game, as a spec's ``@`` part:
    :data:`LEVEL_NETWORKS` where its folder keeps a network for the game (the shipped one
    moved on since the levels were placed), else None (the shipped network)."""
    kept = REFERENCE_DIR / LEVEL_NETWORKS / f"{variant}-{players}p.safetensors"
    return LEVEL_NETWORKS if kept.is_file() else None


#: The engine's exploration weight when none is given (``MctsBot().exploration``).
DEFAULT_EXPLORATION: float = _core.MctsBot().exploration


@dataclass(frozen=True)
class TreePolicy:
    """Settings of the search's tree policy that the default AI tunes for a game (the
    :class:`splendor.MctsBot` arguments of the same names; the defaults change
    nothing): ``fpu_reduction`` (a move never tried scores the mean of the tried ones
    less ``fpu_reduction * sqrt(their prior mass)``), ``policy_temperature`` (the
    network's prior is a softmax of its logits divided by it), ``exploration`` (the
    weight of the prior in the PUCT rule: lower trusts the values found more and
    searches deeper) and ``early_stop`` (the search stops once its most visited move
    leads the runner-up by more than that many times the iterations left)."""

    fpu_reduction: float = 0.0
    policy_temperature: float = 1.0
    exploration: float = DEFAULT_EXPLORATION
    early_stop: float = 0.0

    @property
    def spec_options(self) -> str:
        """The settings as bot-spec options, in the grammar's order (``:c=C``,
        ``:fpu=R``, ``:ptemp=P``, then ``:stop=S``), each only when it is not the
        default; ``""`` for none."""
        options = ""
        if self.exploration != DEFAULT_EXPLORATION:
            options += f":c={_plain_decimal(self.exploration)}"
        if self.fpu_reduction != 0.0:
            options += f":fpu={_plain_decimal(self.fpu_reduction)}"
        if self.policy_temperature != 1.0:
            options += f":ptemp={_plain_decimal(self.policy_temperature)}"
        if self.early_stop != 0.0:
            options += f":stop={_plain_decimal(self.early_stop)}"
        return options


def _plain_decimal(x: float) -> str:
    """``x`` in the spec grammar's digits: no exponent, no needless zeros (``1e-05`` is
    ``0.00001``, ``2.0`` is ``2``)."""
    text = format(Decimal(repr(x)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


#: The tree policy of the default AI's search for each ``(variant, players)`` that has
#: one measured to be stronger than the plain PUCT rule (docs/network.md, "Tree policy
#: settings"); every other game searches with :class:`TreePolicy`'s defaults.
#: The 2-player games search with a reduction of 0.2 and a prior at temperature 1.4, each worth
#: some 4-9 points at equal time on its own in base. With 3 and 4 players those two alone moved
#: little; what counts there is a smaller exploration weight, 0.5: a seat's value is a share of
#: the win among three or four, so the values of its moves lie closer together and the default
#: weight of 0.7 let the prior outweigh them. With it the reduction and the temperature pay again
#: (one seat against 60f7934's default, seed 7: base 4 players 37.9%, Marvel 4 players 41.9%
#: against 30.8% without them, base 3 players 42.2% against 39.9%; fair shares 25% and 33%).
#: Those games also stop early once the move is decided (``early_stop=1``: the full budget's
#: move in less time), which buys a larger budget in the same time.
_TWO_PLAYERS = TreePolicy(fpu_reduction=0.2, policy_temperature=1.4)
_MORE_PLAYERS = TreePolicy(
    fpu_reduction=0.2, policy_temperature=1.4, exploration=0.5, early_stop=1.0
)
SHIPPED_NET_TREE_POLICY: dict[tuple[str, int], TreePolicy] = {
    ("base", 2): _TWO_PLAYERS,
    ("duel", 2): _TWO_PLAYERS,
    ("marvel", 2): _TWO_PLAYERS,
    ("base", 3): _MORE_PLAYERS,
    ("base", 4): _MORE_PLAYERS,
    ("marvel", 3): _MORE_PLAYERS,
    ("marvel", 4): _MORE_PLAYERS,
}


def shipped_tree_policy(variant: str, players: int) -> TreePolicy:
    """The default AI's tree policy for that game (:data:`SHIPPED_NET_TREE_POLICY`,
    else the plain rule)."""
    return SHIPPED_NET_TREE_POLICY.get((variant, players), TreePolicy())


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


#: Names that moved to :mod:`splendor.bots` (one home for bots), still read here.
_MOVED_TO_BOTS = frozenset({"DEFAULT_SEARCH", "default_bot_spec", "match", "resolve_bot_spec"})


def __getattr__(name: str) -> Any:
    """``splendor.nets.default_bot_spec`` and the other names now in :mod:`splendor.bots`."""
    if name in _MOVED_TO_BOTS:
        from splendor import bots

        return getattr(bots, name)
    raise AttributeError(f"module 'splendor.nets' has no attribute {name!r}")
