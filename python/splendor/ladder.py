"""The strength ladder: a round robin among reference bots, fitted to Elo ratings.

Every pair of bots plays one :func:`splendor.match` of ``games_per_pair`` games:
paired deals with the bots rotated through the seats, and the same ``seed`` for
every pair, so each pair meets on the same deals and a pair's result is the same
whenever it is played. Each finished pair is appended to ``results.jsonl`` in the
output folder; a rerun with the same settings skips the pairs found there, so a
stopped ladder resumes where it stopped. A ladder grows by adding bots (only the
new pairs are played) or games per pair (each pair plays only the games after
those it has, the same games a longer match from the start would play).

The ratings are a Bradley-Terry fit on the Elo scale, ``P(a beats b) = 1 / (1 +
10 ** ((R_b - R_a) / 400))``: a binomial GLM (statsmodels) on the pairwise scores,
anchored at one bot (``greedy`` by default: 0), with 95% intervals of 1.96 standard
errors of the fit, relative to the anchor. A game nobody won (the turn cap)
counts half to each side, as does a shared win. Each pair also gets
``prior_draws`` virtual drawn games (one by default): a bot that won or lost
every game would otherwise have no finite rating. Two players only: the fit
compares bots in pairs.

Needs the ``ladder`` extra (``pip install 'splendor[ladder]'``: statsmodels and
matplotlib). The command is ``splendor ladder`` (docs/ladder.md).

>>> default_bots("base")
['random', 'greedy', 'mcts:100', 'mcts:1000', 'mcts:10000', 'net:1070@b132d65']
>>> elo_to_probability(0.0)
0.5
"""

from __future__ import annotations

import json
import math
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import TextIO

import numpy as np

from splendor import _core
from splendor.bots import match, resolve_bot_spec
from splendor.errors import ConfigError
from splendor.nets import REFERENCE_DIR

#: The searches every ladder starts from.
REFERENCE_SEARCHES = ("random", "greedy", "mcts:100", "mcts:1000", "mcts:10000")

#: The reference networks of the default ladder: those shipped at this commit.
REFERENCE_NETWORKS = "b132d65"

#: The iterations per move of the default AI at :data:`REFERENCE_NETWORKS` for each game it
#: shipped a network for: the reference opponents are searched as they were then, whatever
#: today's default AI does.
REFERENCE_NET_ITERATIONS: dict[tuple[str, int], int] = {
    ("base", 2): 1070,
    ("duel", 2): 840,
    ("marvel", 2): 770,
}

#: The files a ladder writes into its folder.
RESULTS_FILE = "results.jsonl"
TABLE_FILE = "ladder.md"
PLOT_FILE = "ladder.png"

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of log-odds."""

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def elo_text(elo: float) -> str:
    """A rating with its sign, rounded to a whole point: ``+12``, ``-40``, and ``+0`` for
    anything that rounds to zero (never ``-0``)."""
    return f"{round(elo):+d}"


def elo_to_probability(diff: float) -> float:
    """The expected score of a bot rated ``diff`` Elo above its opponent."""
    return 1 / (1 + 10 ** (-diff / 400))


def default_bots(variant: str, players: int = 2) -> list[str]:
    """The default ladder for a game: :data:`REFERENCE_SEARCHES` and, where one
    exists, the reference network :data:`REFERENCE_NETWORKS` for the game at the
    iterations per move of the default AI of that commit (``net:1070@b132d65`` for base,
    :data:`REFERENCE_NET_ITERATIONS`)."""
    bots = list(REFERENCE_SEARCHES)
    if (REFERENCE_DIR / REFERENCE_NETWORKS / f"{variant}-{players}p.safetensors").is_file():
        iterations = REFERENCE_NET_ITERATIONS.get((variant, players), 1000)
        bots.append(f"net:{iterations}@{REFERENCE_NETWORKS}")
    return bots


@dataclass(frozen=True)
class PairResult:
    """One finished pair: ``a`` and ``b`` as given (their specs), their wins, and
    the settings the pair was played with (a rerun reuses only matching pairs)."""

    a: str
    b: str
    variant: str
    players: int
    games: int
    seed: int
    wins_a: float
    wins_b: float
    #: The engine's names of the bots (a network's with its file's hash).
    names: tuple[str, str] = ("", "")
    draws: int = 0
    #: Games ended by the turn cap (nobody won), and by every player having to pass.
    truncated: int = 0
    stalled: int = 0
    wall_s: float = 0.0
    #: The first of the match's games this record holds (a ladder grown to more games
    #: per pair plays the games after those it has, as chunks of one match).
    first_game: int = 0

    @property
    def score_a(self) -> float:
        """``a``'s points: its wins and half of the games neither side won."""
        return self.wins_a + (self.games - self.wins_a - self.wins_b) / 2

    @property
    def score_b(self) -> float:
        """``b``'s points: its wins and half of the games neither side won."""
        return self.games - self.score_a

    def to_json(self) -> str:
        """One line of ``results.jsonl``."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> PairResult:
        """A record of ``results.jsonl``.

        Raises:
            ValueError: Not such a record.
        """
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        data["names"] = tuple(data.get("names", ("", "")))
        return cls(**data)


@dataclass(frozen=True)
class Rating:
    """A bot's fitted rating: Elo, its 95% interval (relative to the anchor, whose
    interval is its rating), real games played and score over them."""

    bot: str
    elo: float
    low: float
    high: float
    games: int
    score: float


def check_bots(bots: Sequence[str], variant: str, players: int) -> list[str]:
    """The bot specs in their one spelling, each checked now (a network file is
    loaded and must be for this game), not after hours of games.

    Raises:
        ConfigError: Fewer than two bots, a repeated bot, a bad spec, or a network for
            another game.
        NetworkError: A network file that cannot be read.
    """
    specs = [str(_core.parse_bot_spec(b)) for b in bots]
    if len(specs) < 2:
        raise ConfigError(f"a ladder needs at least two bots, got {len(specs)}")
    repeated = sorted({s for s in specs if specs.count(s) > 1})
    if repeated:
        raise ConfigError(f"a bot is listed twice in the ladder: {', '.join(repeated)}")
    for spec in specs:
        resolved = _core.parse_bot_spec(resolve_bot_spec(spec, variant, players))
        if resolved.kind == "net" and resolved.network is not None:
            network = _core.Network.load(resolved.network)
            if (network.variant, network.players) != (variant, players):
                raise ConfigError(
                    f"{spec}: the network is for {network.variant} with {network.players} "
                    f"players, not {variant} with {players}"
                )
    return specs


def read_results(path: Path) -> list[PairResult]:
    """The records of a results file, in order; a torn or foreign line is skipped."""
    records: list[PairResult] = []
    if not path.exists():
        return records
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(PairResult.from_json(line))
        except (ValueError, TypeError):
            continue
    return records


def run_ladder(
    bots: Sequence[str],
    out: str | Path,
    *,
    variant: str = "base",
    players: int = 2,
    games_per_pair: int = 20,
    seed: int = 0,
    threads: int = 1,
    log: TextIO | None = None,
    progress: Callable[[int, int], object] | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
) -> list[PairResult]:
    """Plays every pair of ``bots`` not yet in ``out/results.jsonl`` (with this
    variant, players and seed), appending each as it finishes; returns the results of
    all pairs. A pair found with fewer games plays the games after those (the same
    match, continued: ``first_game``); one found with more keeps them all.

    ``pairs`` plays only those pairs of ``bots`` instead of all of them (a ladder of
    many cheap bots, such as the AI levels, placed by their neighbours and a few
    reference bots; the fit needs the pairs to join every bot).

    Raises:
        ConfigError: Bad bots or settings (see :func:`check_bots`), players other than
            2, a game count that is not a multiple of the players, or a pair naming a
            bot not in ``bots``.
        MatchInterrupted: Ctrl-C; the pairs finished before it are saved.
    """
    if players != 2:
        raise ConfigError(f"the ladder compares bots in pairs: 2 players only, got {players}")
    if games_per_pair < players or games_per_pair % players:
        raise ConfigError(
            f"games per pair must be a positive multiple of {players} (each deal is "
            f"played once from each seat), got {games_per_pair}"
        )
    specs = check_bots(bots, variant, players)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    results_path = folder / RESULTS_FILE
    settings = (variant, players, seed)
    done: dict[frozenset[str], list[PairResult]] = {}
    for r in read_results(results_path):
        if (r.variant, r.players, r.seed) == settings:
            chunks = done.setdefault(frozenset((r.a, r.b)), [])
            if all(c.first_game != r.first_game for c in chunks):
                chunks.append(r)
    if results_path.exists() and not results_path.read_bytes().endswith(b"\n"):
        # A run killed while writing left a torn line: end it, so the next record
        # starts a line of its own (the torn one is skipped when read).
        with results_path.open("a", encoding="utf-8") as f:
            f.write("\n")
    if pairs is None:
        pairs = list(combinations(specs, 2))
    else:
        # Each bot of a pair in its one spelling, as the ladder's bots are.
        pairs = [(str(_core.parse_bot_spec(a)), str(_core.parse_bot_spec(b))) for a, b in pairs]
        unknown = sorted({b for pair in pairs for b in pair if b not in specs})
        if unknown:
            raise ConfigError(f"a pair names a bot not in the ladder: {', '.join(unknown)}")
    stream = log if log is not None else sys.stderr
    results: list[PairResult] = []
    for k, (a, b) in enumerate(pairs, 1):
        chunks = done.setdefault(frozenset((a, b)), [])
        played = max((c.first_game + c.games for c in chunks), default=0)
        if played < games_per_pair:
            start = time.monotonic()
            result = match(
                [a, b],
                variant=variant,
                players=players,
                games=games_per_pair - played,
                seed=seed,
                threads=threads,
                progress=progress,
                first_game=played,
            )
            first, second = result.bots
            chunk = PairResult(
                a=a,
                b=b,
                variant=variant,
                players=players,
                games=result.games,
                seed=seed,
                wins_a=float(first["wins"]),
                wins_b=float(second["wins"]),
                names=(str(first["name"]), str(second["name"])),
                draws=result.draws,
                truncated=result.truncated,
                stalled=result.stalled,
                wall_s=round(time.monotonic() - start, 3),
                first_game=played,
            )
            with results_path.open("a", encoding="utf-8") as f:
                f.write(chunk.to_json() + "\n")
            chunks.append(chunk)
            games = f"games {played}-{games_per_pair - 1}, " if played else ""
            stream.write(
                f"pair {k}/{len(pairs)}: {a} {chunk.score_a:g} - {chunk.score_b:g} {b} "
                f"({games}{chunk.wall_s:.0f} s)\n"
            )
            stream.flush()
        results.append(combine(a, b, chunks))
    return results


def combine(a: str, b: str, chunks: Sequence[PairResult]) -> PairResult:
    """The chunks of one pair's match (either bot first) as one result, ``a`` first."""
    wins = {a: 0.0, b: 0.0}
    names = {a: "", b: ""}
    for c in chunks:
        wins[c.a] += c.wins_a
        wins[c.b] += c.wins_b
        names[c.a], names[c.b] = c.names
    c0 = chunks[0]
    return PairResult(
        a=a,
        b=b,
        variant=c0.variant,
        players=c0.players,
        games=sum(c.games for c in chunks),
        seed=c0.seed,
        wins_a=wins[a],
        wins_b=wins[b],
        names=(names[a], names[b]),
        draws=sum(c.draws for c in chunks),
        truncated=sum(c.truncated for c in chunks),
        stalled=sum(c.stalled for c in chunks),
        wall_s=round(sum(c.wall_s for c in chunks), 3),
    )


def fit_elo(
    results: Sequence[PairResult],
    bots: Sequence[str],
    *,
    anchor: str | None = None,
    prior_draws: float = 1.0,
) -> list[Rating]:
    """Bradley-Terry ratings on the Elo scale from pairwise results, best first.

    A binomial GLM without intercept (statsmodels): one column per bot but the
    anchor, +1 for ``a`` and -1 for ``b`` of each pair, ``a``'s score and ``b``'s as
    successes and failures, each plus ``prior_draws / 2``. The coefficients are
    log-odds, times ``400 / ln 10`` Elo; the 95% intervals are 1.96 standard errors
    (relative to the anchor, rated 0 with no interval).

    Args:
        results: Pair results; pairs of bots not in ``bots`` are ignored.
        bots: The bots to rate.
        anchor: The bot rated 0: ``greedy`` where it is in ``bots``, else the first.
        prior_draws: Virtual drawn games added to each pair that played (0: none;
            then a bot that won or lost every game has no finite rating).

    Raises:
        ConfigError: The anchor is not a bot, ``prior_draws`` is negative, or the
            pairs played do not connect every bot.
    """
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    bots = list(bots)
    anchor = choose_anchor(bots, anchor)
    if not prior_draws >= 0:
        raise ConfigError(f"prior draws must be >= 0, got {prior_draws}")
    rated = [r for r in results if r.a in bots and r.b in bots and r.a != r.b]
    _check_connected(rated, bots)
    others = [b for b in bots if b != anchor]
    column = {b: i for i, b in enumerate(others)}
    x = np.zeros((len(rated), len(others)))
    counts = np.zeros((len(rated), 2))
    for i, r in enumerate(rated):
        if r.a in column:
            x[i, column[r.a]] = 1.0
        if r.b in column:
            x[i, column[r.b]] = -1.0
        counts[i] = (r.score_a + prior_draws / 2, r.score_b + prior_draws / 2)
    with warnings.catch_warnings():
        if prior_draws > 0:
            # The virtual draws keep every rating finite; statsmodels still warns when
            # the fit reproduces the scores exactly (as few pairs of bots can).
            warnings.simplefilter("ignore", PerfectSeparationWarning)
        # Two bots, one pair: no residual degrees of freedom, and statsmodels' start
        # divides by zero (the fit itself is fine).
        warnings.filterwarnings("ignore", "invalid value", RuntimeWarning)
        fit = sm.GLM(counts, x, family=sm.families.Binomial()).fit()
    params = np.asarray(fit.params, dtype=float)
    errors = np.asarray(fit.bse, dtype=float)
    games = dict.fromkeys(bots, 0)
    score = dict.fromkeys(bots, 0.0)
    for r in rated:
        games[r.a] += r.games
        games[r.b] += r.games
        score[r.a] += r.score_a
        score[r.b] += r.score_b
    ratings = []
    for b in bots:
        if b == anchor:
            elo = half = 0.0
        else:
            elo = float(params[column[b]]) * ELO_PER_NAT
            half = Z95 * float(errors[column[b]]) * ELO_PER_NAT
        ratings.append(Rating(b, elo, elo - half, elo + half, games[b], score[b]))
    ratings.sort(key=lambda r: -r.elo)
    return ratings


def choose_anchor(bots: Sequence[str], anchor: str | None = None) -> str:
    """The bot rated 0: ``anchor``, else ``greedy`` where it is in ``bots``, else the first.

    Raises:
        ConfigError: ``anchor`` is not one of ``bots``.
    """
    if anchor is None:
        return "greedy" if "greedy" in bots else bots[0]
    if anchor in bots:
        return anchor
    try:
        spelled = str(_core.parse_bot_spec(anchor))  # " MCTS: 100" is mcts:100
    except ConfigError:
        spelled = anchor
    if spelled not in bots:
        raise ConfigError(f"the anchor {anchor!r} is not one of the bots: {', '.join(bots)}")
    return spelled


def _check_connected(results: Sequence[PairResult], bots: Sequence[str]) -> None:
    """Raises ConfigError unless the pairs played join every bot to every other."""
    neighbours: dict[str, set[str]] = {b: set() for b in bots}
    for r in results:
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)
    seen = {bots[0]}
    stack = [bots[0]]
    while stack:
        for n in neighbours[stack.pop()] - seen:
            seen.add(n)
            stack.append(n)
    missing = [b for b in bots if b not in seen]
    if missing:
        raise ConfigError(
            f"no games join {', '.join(missing)} to {bots[0]}: their ratings cannot be compared"
        )


def format_table(
    ratings: Sequence[Rating],
    results: Sequence[PairResult],
    *,
    anchor: str,
    prior_draws: float,
) -> str:
    """The ratings as a Markdown table (rank, bot, Elo, 95% interval, games, score),
    then the pairwise scores (row's points against column, of the games played)."""
    lines = [
        "| rank | bot | Elo | 95% interval | games | score |",
        "| ---: | --- | ---: | --- | ---: | ---: |",
    ]
    for k, r in enumerate(ratings, 1):
        interval = "anchor" if r.bot == anchor else f"[{r.low:+.0f}, {r.high:+.0f}]"
        share = f"{100 * r.score / r.games:.1f}%" if r.games else "-"
        lines.append(f"| {k} | `{r.bot}` | {r.elo:+.0f} | {interval} | {r.games} | {share} |")
    lines.append("")
    lines.append(
        f"Bradley-Terry fit on the Elo scale, `{anchor}` = 0; intervals are 1.96 standard "
        f"errors relative to it; {prior_draws:g} virtual drawn game(s) per pair."
    )
    by_pair = {(r.a, r.b): (r.score_a, r.games) for r in results}
    by_pair.update({(r.b, r.a): (r.score_b, r.games) for r in results})
    order = [r.bot for r in ratings]
    lines.append("")
    lines.append("Pairwise scores (the row bot's points against the column bot):")
    lines.append("")
    lines.append("| | " + " | ".join(f"`{b}`" for b in order) + " |")
    lines.append("| --- |" + " ---: |" * len(order))
    for row in order:
        cells = []
        for col in order:
            if (row, col) in by_pair:
                s, g = by_pair[(row, col)]
                cells.append(f"{s:g}/{g}")
            else:
                cells.append("")
        lines.append(f"| `{row}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot_ratings(ratings: Sequence[Rating], path: str | Path, *, title: str, anchor: str) -> None:
    """Draws the ratings with their 95% intervals as a PNG file."""
    from matplotlib.figure import Figure

    order = list(reversed(ratings))  # best at the top
    fig = Figure(figsize=(7, 0.45 * len(order) + 1.4), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(order))
    elo = np.array([r.elo for r in order])
    err = np.array([[r.elo - r.low for r in order], [r.high - r.elo for r in order]])
    ax.errorbar(elo, y, xerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(y, [r.bot for r in order])
    ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel(f"Elo ({anchor} = 0), 95% interval")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.savefig(path, dpi=110)


def write_report(
    results: Sequence[PairResult],
    bots: Sequence[str],
    out: str | Path,
    *,
    anchor: str | None = None,
    prior_draws: float = 1.0,
    header: str = "",
) -> list[Rating]:
    """Fits the ratings and writes ``ladder.md`` and ``ladder.png`` into ``out``."""
    chosen = choose_anchor(bots, anchor)
    ratings = fit_elo(results, bots, anchor=chosen, prior_draws=prior_draws)
    folder = Path(out)
    table = format_table(ratings, results, anchor=chosen, prior_draws=prior_draws)
    (folder / TABLE_FILE).write_text((header + "\n\n" if header else "") + table, "utf-8")
    first = results[0] if results else None
    title = "Strength ladder"
    if first is not None:
        title += f": {first.variant}, {first.players} players, {first.games} games per pair"
    plot_ratings(ratings, folder / PLOT_FILE, title=title, anchor=chosen)
    return ratings


def summary(ratings: Sequence[Rating]) -> str:
    """One line per bot: rating and interval, for the terminal."""
    width = max(len(r.bot) for r in ratings)
    return "\n".join(
        f"{r.bot.ljust(width)}  {elo_text(r.elo):>6}  "
        + ("anchor" if r.low == r.high else f"[{elo_text(r.low)}, {elo_text(r.high)}]")
        + f"  {r.games} games"
        for r in ratings
    )
