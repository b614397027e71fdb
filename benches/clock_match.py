"""Two network searches stopped by the same clock, seats rotated on paired deals.

    python benches/clock_match.py --seconds 0.009 --games 200 --seed 2026 \\
        NET_A[:LEAF_BATCH] NET_B[:LEAF_BATCH] [--seconds-b 0.036] [--variant base] \\
        [--exploration-a 0.5]

"Equal time" in issue 22's sense without an iteration count to calibrate: both bots get the
same seconds per move (or B gets ``--seconds-b``, for "4x its time"), each with its own
``leaf_batch`` (after the last ``:``, default 1); ``--exploration-a`` gives A another PUCT
constant than the default 0.7. Both searches run in one process, one game at a
time, so a busy moment on a shared machine costs both. Prints one JSON line: the two bots' wins,
win rates and Wilson 95% intervals (docs/training.md, "Wider networks on one generation's data").
"""

from __future__ import annotations

import argparse
import json
import time

import splendor


def bot(spec: str, seconds: float, exploration: float = 0.7) -> splendor.MctsBot:
    """``PATH`` or ``PATH:LEAF_BATCH`` as a time-limited network search."""
    path, colon, batch = spec.rpartition(":")
    if not (colon and batch.isdigit()):
        path, batch = spec, "1"
    return splendor.MctsBot(
        time_limit=seconds, network=path, leaf_batch=int(batch), exploration=exploration
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="network file of bot A, optionally :LEAF_BATCH")
    parser.add_argument("b", help="network file of bot B, optionally :LEAF_BATCH")
    parser.add_argument("--seconds", type=float, default=0.009, help="seconds per move (A, B)")
    parser.add_argument("--seconds-b", type=float, default=None, help="B's seconds, if not A's")
    parser.add_argument("--exploration-a", type=float, default=0.7, help="A's PUCT constant")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default="base")
    args = parser.parse_args()
    bots = [
        bot(args.a, args.seconds, args.exploration_a),
        bot(args.b, args.seconds if args.seconds_b is None else args.seconds_b),
    ]
    start = time.time()
    result = splendor.match(bots, variant=args.variant, games=args.games, seed=args.seed, threads=1)
    print(
        json.dumps(
            {
                "a": args.a,
                "b": args.b,
                "seed": args.seed,
                "bots": result.bots,
                "seconds": round(time.time() - start),
            }
        )
    )


if __name__ == "__main__":
    main()
