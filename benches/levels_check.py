"""A quick check that the AI levels are ordered in a game: each level against the level below.

    python benches/levels_check.py VARIANT PLAYERS [--games 40] [--levels 1-10] [--step 1]

With 2 players each pair plays one seat-rotated :func:`splendor.match`; with 3 or 4, one seat of
``level:L`` against ``level:L-1`` in every other seat (seats rotated), whose fair share is
``1 / PLAYERS``. ``--step K`` compares each level with the one K below instead (``level:4``
against ``level:1``...): with 3 or 4 players one level's edge is small beside the noise of a
quick arena. Prints each level's win rate against the level below with its Wilson interval;
the base 2-player levels are placed on the full ladder by ``benches/levels_ladder.py``.
"""

from __future__ import annotations

import argparse
import time

from splendor.bots import match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["base", "duel", "marvel"])
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--levels", default="1-10", help="first-last level, e.g. 1-10")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--step", type=int, default=1, help="compare with the level K below")
    args = parser.parse_args()
    # Whole rounds of the seat rotation.
    args.games = -(-args.games // args.players) * args.players
    first, last = (int(x) for x in args.levels.split("-"))
    print(f"{args.variant}, {args.players} players, {args.games} games a pair, seed {args.seed}")
    print(f"fair share {1 / args.players:.0%}")
    for level in range(max(first, 1 + args.step), last + 1, args.step):
        below = level - args.step
        seats = [f"level:{level}"] + [f"level:{below}"] * (args.players - 1)
        start = time.monotonic()
        result = match(
            seats, variant=args.variant, players=args.players, games=args.games, seed=args.seed
        )
        bot = result.bots[0]
        print(
            f"level:{level} vs level:{below}: {100 * bot['win_rate']:.1f}% "
            f"[{100 * bot['ci_low']:.1f}%, {100 * bot['ci_high']:.1f}%] of {bot['games']} "
            f"({time.monotonic() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
