"""The AI levels on the strength ladder: each level against its neighbours and a few
reference bots, fitted with the ladder's reference pairs.

    python benches/levels_ladder.py [--variant base] [--games-per-pair 100] [--out DIR]

A round robin of ten levels and the reference bots would be about a hundred pairs; the
levels are placed instead by the pairs that carry information: each level against the
level below and above it, and against the reference bots near its strength
(:data:`REFERENCES`). The reference bots' own pairs come from the ladder committed for the
game (``docs/ladder/<variant>-2p-results.jsonl``, copied into ``--out`` when it holds no
results yet), so only the levels' pairs are played; a rerun resumes, as ``splendor ladder``
does. Prints the ratings, each level's score against the level below, and writes
``ladder.md`` and ``ladder.png`` into ``--out`` (docs/ladder.md, "AI levels").
"""

from __future__ import annotations

import argparse
import shutil
from itertools import combinations
from pathlib import Path

from splendor import ladder
from splendor.bots import LEVELS, level_spec
from splendor.ladder import combine

DOCS_LADDER = Path(__file__).resolve().parent.parent / "docs" / "ladder"

#: For each game, the reference bots each level plays besides its neighbours: those
#: rated near the level's place on that game's ladder (the weakest levels lie between
#: ``random`` and ``mcts:100``, the strongest near the default AI).
REFERENCES: dict[str, dict[int, tuple[str, ...]]] = {
    "base": {
        1: ("random", "greedy"),
        2: ("greedy",),
        3: ("greedy", "mcts:100"),
        4: ("greedy", "mcts:100"),
        5: ("mcts:100", "mcts:1000"),
        6: ("mcts:100", "mcts:1000"),
        7: ("mcts:1000", "net:110@b132d65"),
        8: ("net:110@b132d65", "net:1070@b132d65"),
        9: ("net:1070@b132d65", "net:1000:batch=4"),
        # The default AI's tree policy (issue 40) made it a bot of its own: it also plays
        # the default it replaced, the same network with the plain rule.
        10: ("net:110@b132d65", "net:1070@b132d65", "net:1000:batch=4"),
    },
    # Duel's reference bots (`splendor ladder`'s defaults and 60f7934's default AI) play
    # their own round robin here (docs/ladder/duel-2p-results.jsonl holds it).
    "duel": {
        1: ("random", "greedy"),
        2: ("greedy",),
        3: ("greedy", "mcts:100"),
        4: ("greedy", "mcts:100"),
        5: ("mcts:100", "mcts:1000"),
        6: ("mcts:100", "mcts:1000"),
        7: ("mcts:1000", "net:840@b132d65"),
        8: ("mcts:1000", "net:840@b132d65"),
        9: ("net:840@b132d65", "net:750:batch=4@60f7934"),
        10: ("net:840@b132d65", "mcts:1000", "net:750:batch=4@60f7934"),
    },
}

#: The reference bots of each game's ladder, which play every pair among themselves:
#: ``splendor ladder``'s defaults and today's default AI.
LADDER_BOTS: dict[str, tuple[str, ...]] = {
    "base": (
        *ladder.default_bots("base"),
        "net:110@b132d65",
        "net:1000:batch=4",
    ),
    # Without mcts:10000, whose pairs would take most of a Duel ladder's time; 60f7934's
    # default AI by the network it searched, kept since a new one was shipped.
    "duel": (
        *(b for b in ladder.default_bots("duel") if b != "mcts:10000"),
        "net:750:batch=4@60f7934",
    ),
}


def level_bots(variant: str) -> list[str]:
    """Each level's spec in the game (:func:`splendor.bots.level_spec`), weakest first.

    The ladder names a level by what it plays (``net:32:batch=4:temp=4``), not by its number,
    so a pair's record stays true when the table of levels changes: a level given new
    settings is a new bot, and only its pairs are played.
    """
    return [level_spec(level.number, variant, 2) for level in LEVELS]


def level_pairs(variant: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The bots (references, then levels) and the pairs to play: every pair of the
    reference bots (found in the committed results for base), then the levels'."""
    levels = level_bots(variant)
    references = list(LADDER_BOTS[variant])
    pairs = list(combinations(references, 2))
    pairs += [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    pairs += [(levels[n - 1], ref) for n, refs in REFERENCES[variant].items() for ref in refs]
    # The top level is the default AI, itself a reference bot: listed once, never paired
    # with itself.
    bots = references + [b for b in levels if b not in references]
    unique: list[tuple[str, str]] = []
    for a, b in pairs:
        if a != b and (a, b) not in unique and (b, a) not in unique:
            unique.append((a, b))
    return bots, unique


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="base", choices=sorted(REFERENCES))
    parser.add_argument("--games-per-pair", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out = Path(args.out or f"ladder-levels-{args.variant}")
    out.mkdir(parents=True, exist_ok=True)
    results_path = out / ladder.RESULTS_FILE
    committed = DOCS_LADDER / f"{args.variant}-2p-results.jsonl"
    if not results_path.exists() and committed.exists():
        shutil.copyfile(committed, results_path)
    bots, pairs = level_pairs(args.variant)
    ladder.run_ladder(
        bots,
        out,
        variant=args.variant,
        games_per_pair=args.games_per_pair,
        seed=args.seed,
        threads=args.threads,
        pairs=pairs,
    )
    # Fit on every pair of these bots found in the folder: the references' own pairs too.
    records = ladder.read_results(results_path)
    chunks: dict[frozenset[str], list[ladder.PairResult]] = {}
    for r in records:
        settings = (r.variant, r.players, r.seed) == (args.variant, 2, args.seed)
        if settings and r.a in bots and r.b in bots:
            found = chunks.setdefault(frozenset((r.a, r.b)), [])
            # A chunk of games already counted (the same first game) is not counted twice.
            if all(c.first_game != r.first_game for c in found):
                found.append(r)
    results = [combine(c[0].a, c[0].b, c) for c in chunks.values()]
    ratings = ladder.write_report(results, bots, out, anchor="greedy", prior_draws=1)
    print(ladder.summary(ratings))
    by_pair = {frozenset((r.a, r.b)): r for r in results}
    elo = {r.bot: r for r in ratings}
    levels = level_bots(args.variant)
    print("\n| level | spec | Elo | 95% interval | score against the level below |")
    print("| --- | --- | ---: | --- | --- |")
    for level, spec in zip(LEVELS, levels, strict=True):
        rating = elo[spec]
        line = f"| `{level.spec}` {level.name} | `{spec}` | {rating.elo:+.0f} | "
        line += f"[{rating.low:+.0f}, {rating.high:+.0f}] | "
        pair = (
            by_pair.get(frozenset((spec, levels[level.number - 2]))) if level.number > 1 else None
        )
        if pair is not None:
            score = pair.score_a if pair.a == spec else pair.score_b
            line += f"{score:g}/{pair.games}"
        print(line + " |")


if __name__ == "__main__":
    main()
