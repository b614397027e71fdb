"""Time per move of bot specs, timed alternately on the same positions.

    python benches/pair_time.py [--whole-games] VARIANT PLAYERS SPEC [SPEC ...]

On a shared machine the load moves from minute to minute, so timing one bot and then another
compares two loads; here each position is searched by every bot in turn, and the medians and the
median per-position ratio of the second spec to the first are printed (docs/training.md uses this
to give a network search the time of ``mcts:1000``). The positions are the decisions with two or
more legal actions of four ``GreedyBot`` games, 20 from each: by default their first 20, where
rollouts are longest. With ``--whole-games`` the positions are every decision with a choice of four
whole games played by the specs themselves (seats rotated), which is what "equal time over whole
games" means: a rollout gets shorter as the game nears its end, a network evaluation does not,
and games between strong bots are longer than greedy ones.
"""

from __future__ import annotations

import argparse
import statistics
import time

import splendor
from splendor.bots import make_bot

State = splendor.BaseState | splendor.DuelState | splendor.MarvelState
PER_GAME = 20


def positions(variant: str, players: int) -> list[State]:
    """The first 20 decisions with a choice of four ``GreedyBot`` games."""
    states: list[State] = []
    for seed in range(4):
        state = splendor.new_game(variant, players=players, seed=seed)
        bot = splendor.GreedyBot(seed=seed)
        while not state.is_terminal() and len(states) < PER_GAME * (seed + 1):
            if len(state.legal_actions()) > 1:
                states.append(state.clone())
            state.apply(bot.act(state))
    return states


def time_whole_games(variant: str, players: int, specs: list[str]) -> list[list[float]]:
    """Every decision with a choice of four games played by the specs themselves (seat ``k``
    plays ``specs[(k + game) % len(specs)]``), each searched by every spec in turn."""
    times: list[list[float]] = [[] for _ in specs]
    for seed in range(4):
        bots = [make_bot(spec, seed, variant, players) for spec in specs]
        state = splendor.new_game(variant, players=players, seed=seed)
        while not state.is_terminal():
            seat = int(state.current_player)
            chosen = None
            for k, (bot, spent) in enumerate(zip(bots, times, strict=True)):
                start = time.perf_counter()
                action = bot.act(state)
                elapsed = time.perf_counter() - start
                if len(state.legal_actions()) > 1:
                    spent.append(elapsed)
                if k == (seat + seed) % len(specs):
                    chosen = action
            assert chosen is not None
            state.apply(chosen)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Time per move of bot specs, timed alternately on the same positions."
    )
    parser.add_argument(
        "--whole-games",
        action="store_true",
        help="every decision of four whole games played by the specs (default: the first 20 "
        "decisions of four GreedyBot games)",
    )
    parser.add_argument("variant", choices=["base", "duel", "marvel"])
    parser.add_argument("players", type=int)
    parser.add_argument(
        "specs", nargs="+", metavar="SPEC", help="bot specs; the first is the baseline"
    )
    args = parser.parse_args()
    variant, players, specs = args.variant, args.players, args.specs
    if args.whole_games:
        times = time_whole_games(variant, players, specs)
    else:
        bots = [make_bot(spec, 1, variant, players) for spec in specs]
        times = [[] for _ in specs]
        for state in positions(variant, players):
            for bot, spent in zip(bots, times, strict=True):
                start = time.perf_counter()
                bot.act(state)
                spent.append(time.perf_counter() - start)
    for spec, spent in zip(specs, times, strict=True):
        print(
            f"{spec}: median {statistics.median(spent) * 1000:.2f} ms, "
            f"mean {statistics.fmean(spent) * 1000:.2f} ms over {len(spent)} positions"
        )
    for spec, spent in zip(specs[1:], times[1:], strict=True):
        ratio = statistics.median(b / a for a, b in zip(times[0], spent, strict=True))
        # The ratio of the totals is the time over whole games; the median ratio is the
        # typical single position. They part where one bot's cost moves over a game (a
        # rollout shortens as the game nears its end; a network evaluation does not).
        total = sum(spent) / sum(times[0])
        print(f"{spec} / {specs[0]}: median ratio {ratio:.3f}, ratio of totals {total:.3f}")


if __name__ == "__main__":
    main()
