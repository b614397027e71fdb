"""A match on a Ray cluster: chunks of seeded games, streamed to JSON lines.

Games ``a .. b - 1`` of a match are a pure function of the match's seed and
their indices (:func:`splendor.match` with ``first_game=a``), so a chunk
played on any worker gives exactly what the single-machine match gives for
those games, and the chunks' exact integer totals add up to the whole.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import splendor
from splendor import _core
from splendor.bots import match as local_match
from splendor.distributed import cluster
from splendor.distributed.store import RunFolder, append_lines, atomic_write, read_lines
from splendor.errors import ConfigError

#: Games per chunk (one Ray task) unless told; see docs/distributed.md for the
#: measurements behind it.
MATCH_CHUNK = 20

RESULTS = "results.jsonl"
RESULT = "result.json"

#: A win shared by ``k`` players counts ``WIN_SHARES / k`` shares (the engine's
#: arena counts wins exactly so, then divides once).
WIN_SHARES = 12

#: ``MatchResult.reasons`` keys, in the engine's order.
REASONS = ("points", "crowns", "colour", "gauntlet", "stalled", "truncated")


def play_chunk(
    chunk: int,
    bots: list[str],
    variant: str,
    players: int,
    seed: int,
    turn_cap: int,
    first_game: int,
    games: int,
) -> dict[str, Any]:
    """Plays games ``first_game .. first_game + games - 1`` of the match (one
    thread) and returns the chunk's JSON line: its result and exact totals."""
    start, cpu = time.perf_counter(), time.process_time()
    result = local_match(
        bots,
        variant=variant,
        players=players,
        games=games,
        seed=seed,
        threads=1,
        turn_cap=turn_cap,
        first_game=first_game,
    )
    return {
        "chunk": chunk,
        "first_game": first_game,
        "games": games,
        "result": json.loads(result.to_json()),
        # Exact integers, so that the chunks add up without rounding.
        "decisions": _whole(result.avg_decisions * result.games, "decisions"),
        "turns": _whole(result.avg_turns * result.games, "turns"),
        "win_shares": [_whole(b["wins"] * WIN_SHARES, "wins") for b in result.bots],
        "seconds": round(time.perf_counter() - start, 6),
        "cpu_seconds": round(time.process_time() - cpu, 6),
        "worker": cluster.hostname(),
    }


def _whole(x: float, what: str) -> int:
    n = round(x)
    if abs(x - n) > 1e-6:
        raise ConfigError(f"{what} total {x!r} is not a whole number: engine and driver differ")
    return n


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval, computed operation for operation as the
    engine's arena does, so that a merged result equals the engine's bit for bit."""
    if n == 0:
        return 0.0, 1.0
    nf = float(n)
    p = min(max(successes / nf, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / nf
    centre = (p + z2 / (2.0 * nf)) / denom
    half = z * math.sqrt(p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)) / denom
    return min(max(centre - half, 0.0), p), min(max(centre + half, p), 1.0)


class MatchTotals:
    """The exact integer totals of finished chunks, added one chunk at a time
    (a driver keeps these, not the chunks' lines)."""

    def __init__(self) -> None:
        self.names: list[str] | None = None
        self.first_chunk = -1
        self.games = self.draws = self.truncated = self.stalled = 0
        self.decisions = self.turns = 0
        self.played: list[int] = []
        self.shares: list[int] = []
        self.reasons = dict.fromkeys(REASONS, 0)

    def add(self, record: dict[str, Any]) -> None:
        """Adds one chunk's JSON line.

        Raises:
            ConfigError: The chunk was played by other bots than the first one.
        """
        result = record["result"]
        names = [b["name"] for b in result["bots"]]
        if self.names is None:
            self.names, self.first_chunk = names, record["chunk"]
            self.played, self.shares = [0] * len(names), [0] * len(names)
        elif names != self.names:
            raise ConfigError(
                f"chunk {record['chunk']} was played by other bots ({', '.join(names)}) than "
                f"chunk {self.first_chunk} ({', '.join(self.names)}): a network file changed?"
            )
        self.games += result["games"]
        self.draws += result["draws"]
        self.truncated += result["truncated"]
        self.stalled += result["stalled"]
        self.decisions += record["decisions"]
        self.turns += record["turns"]
        for i, b in enumerate(result["bots"]):
            self.played[i] += b["games"]
            self.shares[i] += record["win_shares"][i]
        for k in REASONS:
            self.reasons[k] += result["reasons"].get(k, 0)

    def result(self, variant: str, players: int) -> _core.MatchResult:
        """The :class:`splendor.MatchResult` of the chunks added: equal (``==``)
        to the single-machine match over the same games.

        Raises:
            ConfigError: No chunk was added.
        """
        if self.names is None:
            raise ConfigError("no finished chunk to add up")
        rows = []
        for name, n, s in zip(self.names, self.played, self.shares, strict=True):
            wins = s / WIN_SHARES  # one division, as the engine does
            lo, hi = wilson_interval(wins, n)
            rows.append((name, n, wins, wins / n if n else 0.0, lo, hi))
        games = self.games
        average = (self.decisions / games, self.turns / games) if games else (0.0, 0.0)
        payload = (
            variant,
            players,
            games,
            rows,
            (self.draws, self.truncated, self.stalled),
            average,
            [self.reasons[k] for k in REASONS],
        )
        return _core._restore_match_result(payload)


def merge(records: Sequence[dict[str, Any]], variant: str, players: int) -> _core.MatchResult:
    """The :class:`splendor.MatchResult` of the chunks' JSON lines together:
    equal (``==``) to the single-machine match over the same games.

    Raises:
        ConfigError: No records, or records of different bots.
    """
    totals = MatchTotals()
    for r in sorted(records, key=lambda r: int(r["chunk"])):
        totals.add(r)
    return totals.result(variant, players)


def check_bots(bots: Sequence[str], variant: str, players: int) -> list[str]:
    """The bot specs, checked here before any work: each must build a bot
    (``net:`` files are read), and the variant and player count must exist.

    Raises:
        ConfigError: Not a list of specs, an unknown spec, variant or player count.
        NetworkError: A bad network file, or one for another game.
    """
    from splendor.bots import make_bot

    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ConfigError(
            f"bots must be a list of specs such as ['mcts:1000', 'greedy'], got {bots!r}"
        )
    if not bots or len(bots) > 4:
        raise ConfigError(f"the number of bots must be between 1 and 4, got {len(bots)}")
    _core.new_game(variant, players=players)  # a variant and player count that exist
    specs = []
    for spec in bots:
        if not isinstance(spec, str):
            raise ConfigError(
                f"a distributed match takes bot specs (str, e.g. 'mcts:1000'), got {spec!r}"
            )
        make_bot(spec, 0, variant, players)
        specs.append(spec.strip())
    if len(specs) > players:
        raise ConfigError(
            f"the number of bots for {players} players must be between 1 and {players}, "
            f"got {len(specs)}"
        )
    return specs


def _count(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError(f"{name} must be an integer between {lo} and {hi}, got {value!r}")
    return value


def check_networks(specs: Sequence[str], variant: str, players: int) -> dict[str, str]:
    """SHA-256 of each ``net:`` spec's network file (a resumed run must use the
    same networks, whatever their paths say), each checked against the game
    by a one-iteration search of the opening.

    Raises:
        NetworkError: A bad network file, or one for another game.
    """
    from splendor.bots import resolve_bot_spec

    out = {}
    opening = _core.new_game(variant, players=players)
    for spec in specs:
        resolved = resolve_bot_spec(spec, variant, players)
        if resolved[:4].lower() == "net:":
            net = _core.Network.load(resolved.partition("@")[2].strip())
            _core.search(opening, iterations=1, network=net)
            out[spec] = net.sha256
    return out


def match(
    bots: Sequence[str],
    out_dir: str | os.PathLike[str],
    *,
    variant: str = "base",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    turn_cap: int = 100,
    chunk_size: int = MATCH_CHUNK,
    address: str | None = None,
    connect_timeout: float = 10.0,
    max_retries: int = 3,
    progress: Callable[[int, int], object] | None = None,
) -> _core.MatchResult:
    """Plays the match :func:`splendor.match` would play (same bots, seed and
    games; ``threads`` does not matter) on the Ray cluster at ``address``, in
    chunks of ``chunk_size`` games, one Ray task each, and returns its result,
    equal to the single-machine one.

    Each finished chunk is appended to ``out_dir/results.jsonl`` (one JSON line:
    the chunk's games, its result table and exact totals) and made durable
    before it counts; ``out_dir/manifest.json`` describes the run, and
    ``out_dir/result.json`` holds the whole result at the end. Running the same
    call again resumes: finished chunks are skipped, none is played twice. A
    chunk whose worker dies is retried up to ``max_retries`` times.

    ``address``: ``None`` or ``"local"`` starts a local cluster; ``"auto"`` joins
    the one this machine is part of; ``"HOST:PORT"`` or ``"ray://HOST:PORT"``
    a remote one. ``progress(done, total)`` is called as chunks are stored
    (those that finish together, together) with the games played by this call
    and the games it has to play.
    Time-limited bots (``mcts:Ts``) are not reproducible, here or locally.

    Raises:
        ConfigError: A bad argument, bot spec, variant or player count; an
            output folder holding another run, or in use; Ray missing, or the
            address unreachable within ``connect_timeout`` seconds. All before
            any game is played.
        NetworkError: A bad network file.
        ClusterError: A chunk lost more than ``max_retries`` times.
    """
    specs = check_bots(bots, variant, players)
    _count(games, "games", 1, 10**12)
    _count(seed, "seed", 0, 2**64 - 1)
    _count(turn_cap, "turn_cap", 1, 2**32 - 1)
    _count(chunk_size, "chunk_size", 1, 10**9)
    _count(max_retries, "max_retries", 0, 1000)
    cluster.parse_address(address)
    chunks = -(-games // chunk_size)
    folder = RunFolder(
        out_dir,
        {
            "kind": "match",
            "splendor": splendor.__version__,
            "bots": specs,
            "networks": check_networks(specs, variant, players),
            "variant": variant,
            "players": players,
            "games": games,
            "seed": seed,
            "turn_cap": turn_cap,
            "chunk_size": chunk_size,
            "chunks": chunks,
        },
    )
    folder.check()
    results = folder.path / RESULTS
    with cluster.connected(address, connect_timeout=connect_timeout), folder.opened():
        done = _finished(read_lines(results, repair=True), chunks, chunk_size, games)
        totals = MatchTotals()
        for record in done.values():
            totals.add(record)
        finished = set(done)
        del done  # the totals are all the driver keeps of a chunk
        calls = []
        for c in range(chunks):
            if c not in finished:
                first = c * chunk_size
                n = min(chunk_size, games - first)
                calls.append((c, (c, specs, variant, players, seed, turn_cap, first, n)))
        total = sum(args[-1] for _, args in calls)
        played = 0

        def store(batch: list[tuple[int, dict[str, Any]]]) -> None:
            nonlocal played
            append_lines(results, [record for _, record in batch])
            for _, record in batch:
                totals.add(record)
                played += record["games"]
            if progress is not None:
                progress(played, total)

        cluster.run_chunks(play_chunk, calls, store, max_retries=max_retries)
        result = totals.result(variant, players)
        atomic_write(folder.path / RESULT, (result.to_json() + "\n").encode())
    return result


def _finished(
    records: list[dict[str, Any]], chunks: int, chunk_size: int, games: int
) -> dict[int, dict[str, Any]]:
    """The finished chunks of the JSON lines, each checked against the plan."""
    done: dict[int, dict[str, Any]] = {}
    for r in records:
        c = r.get("chunk")
        if not isinstance(c, int) or not 0 <= c < chunks:
            raise ConfigError(f"{RESULTS} names chunk {c!r}, not one of this run's {chunks}")
        first = c * chunk_size
        if (r.get("first_game"), r.get("games")) != (first, min(chunk_size, games - first)):
            raise ConfigError(f"{RESULTS}: chunk {c} does not hold this run's games")
        if c in done:
            raise ConfigError(f"{RESULTS} holds chunk {c} twice")
        done[c] = r
    return done


def load_results(out_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The JSON lines of a match's finished chunks, as stored."""
    return read_lines(Path(out_dir) / RESULTS)
