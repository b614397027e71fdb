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
from pathlib import Path

from splendor import ladder
from splendor.bots import LEVELS
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
        10: ("net:110@b132d65", "net:1070@b132d65"),
    },
}


def level_pairs(variant: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The bots (references, then levels) and the pairs to play."""
    levels = [level.spec for level in LEVELS]
    references = REFERENCES[variant]
    pairs = [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    pairs += [(f"level:{n}", ref) for n, refs in references.items() for ref in refs]
    named = sorted({ref for refs in references.values() for ref in refs})
    return named + levels, pairs


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
        if (r.variant, r.players, r.seed) == (args.variant, 2, args.seed):
            if r.a in bots and r.b in bots:
                chunks.setdefault(frozenset((r.a, r.b)), []).append(r)
    results = [combine(c[0].a, c[0].b, c) for c in chunks.values()]
    ratings = ladder.write_report(results, bots, out, anchor="greedy", prior_draws=1)
    print(ladder.summary(ratings))
    by_pair = {frozenset((r.a, r.b)): r for r in results}
    elo = {r.bot: r.elo for r in ratings}
    print("\nlevel  Elo  score against the level below")
    for level in LEVELS:
        below = f"level:{level.number - 1}"
        line = f"{level.spec:9s} {elo[level.spec]:+5.0f}"
        pair = by_pair.get(frozenset((level.spec, below)))
        if pair is not None:
            score = pair.score_a if pair.a == level.spec else pair.score_b
            line += f"  {score:g}/{pair.games} against {below}"
        print(line)


if __name__ == "__main__":
    main()
