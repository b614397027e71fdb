"""OpenSpiel's ISMCTS bot against splendor's MctsBot on the OpenSpiel game.

    python examples/openspiel_ismcts_vs_mcts.py --games 10 --simulations 200 --iterations 200

Needs ``pip install 'splendor[openspiel]'``. Seats alternate between games; prints
the wins of each bot (a shared win counts 1/k) and the time taken.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
import splendor
import splendor.envs.openspiel
from open_spiel.python.algorithms import ismcts, mcts


def play_game(game: Any, ismcts_seat: int, simulations: int, iterations: int, seed: int) -> Any:
    """One game; returns the final OpenSpiel state."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    their_bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=0.7,
        max_simulations=simulations,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    our_bot = splendor.MctsBot(iterations=iterations, seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == ismcts_seat:
            action = int(their_bot.step(state))
        else:
            action = int(our_bot.act(state.engine))
        state.apply_action(action)
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations per move")
    parser.add_argument("--iterations", type=int, default=200, help="MctsBot iterations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(f"python_splendor_{args.variant}", {"seed": args.seed})
    wins = {"ismcts": 0.0, "mcts": 0.0}
    start = time.perf_counter()
    for g in range(args.games):
        ismcts_seat = g % 2
        state = play_game(game, ismcts_seat, args.simulations, args.iterations, args.seed + g)
        returns = state.returns()
        wins["ismcts"] += returns[ismcts_seat]
        wins["mcts"] += returns[1 - ismcts_seat]
        print(f"game {g + 1}: ISMCTS seat {ismcts_seat}, returns {returns}", flush=True)
    elapsed = time.perf_counter() - start
    print(
        f"{args.games} games, {args.variant}: OpenSpiel ISMCTS ({args.simulations} simulations) "
        f"{wins['ismcts']:g} wins, splendor MctsBot ({args.iterations} iterations) "
        f"{wins['mcts']:g} wins, {elapsed:.0f} s"
    )


if __name__ == "__main__":
    main()
