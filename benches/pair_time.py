"""Time per move of bot specs, timed alternately on the same positions.

    python benches/pair_time.py VARIANT PLAYERS SPEC [SPEC ...]

On a shared machine the load moves from minute to minute, so timing one bot and then another
compares two loads; here each position is searched by every bot in turn, and the medians and the
median per-position ratio of the second spec to the first are printed (docs/training.md uses this
to give a network search the time of ``mcts:1000``). The positions are the decisions with two or
more legal actions of four ``GreedyBot`` games, 20 from each.
"""

from __future__ import annotations

import statistics
import sys
import time

import splendor
from splendor.play import make_bot


def positions(
    variant: str, players: int
) -> list[splendor.BaseState | splendor.DuelState | splendor.MarvelState]:
    states: list[splendor.BaseState | splendor.DuelState | splendor.MarvelState] = []
    for seed in range(4):
        state = splendor.new_game(variant, players=players, seed=seed)
        bot = splendor.GreedyBot(seed=seed)
        while not state.is_terminal() and len(states) < 20 * (seed + 1):
            if len(state.legal_actions()) > 1:
                states.append(state.clone())
            state.apply(bot.act(state))
    return states


def main() -> None:
    variant, players, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    bots = [make_bot(spec, 1, variant, players) for spec in specs]
    times: list[list[float]] = [[] for _ in specs]
    for state in positions(variant, players):
        for bot, spent in zip(bots, times, strict=True):
            start = time.perf_counter()
            bot.act(state)
            spent.append(time.perf_counter() - start)
    for spec, spent in zip(specs, times, strict=True):
        print(
            f"{spec}: median {statistics.median(spent) * 1000:.2f} ms over {len(spent)} positions"
        )
    if len(specs) > 1:
        ratio = statistics.median(b / a for a, b in zip(times[0], times[1], strict=True))
        print(f"median ratio {specs[1]} / {specs[0]}: {ratio:.3f}")


if __name__ == "__main__":
    main()
