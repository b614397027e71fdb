"""``splendor train``: the command-line front of :mod:`splendor.train.loop`."""

from __future__ import annotations

import argparse
import json
from typing import Any

from splendor.arena import parse_bots
from splendor.errors import ConfigError
from splendor.train.loop import TrainConfig, data_dirs, parse_hidden, resume, train


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["temperature_moves=20", "prior_temperature=null"]`` -> keyword arguments."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"bad option {item!r}: expected KEY=VALUE")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            raise ConfigError(
                f"bad option {item!r}: VALUE must be JSON (a number, null, ...)"
            ) from None
    return options


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """The training settings the command line asks for."""
    return TrainConfig(
        variant=args.variant,
        players=args.players,
        seed=args.seed,
        iterations=args.iterations,
        hidden=parse_hidden(args.hidden),
        features=args.features,
        generate=not args.no_generate,
        games_per_iteration=args.games,
        selfplay_search_iterations=args.selfplay_search,
        selfplay_options=parse_options(args.selfplay_option),
        data=data_dirs(args.data),
        window=args.window,
        value_q_weight=args.value_q_weight,
        augment=args.augment,
        steps_per_iteration=args.steps,
        batch_size=args.batch_size,
        learning_rate=args.lr,
        lr_schedule=args.lr_schedule,
        l2=args.l2,
        validation_fraction=args.validation,
        checkpoint_every=args.checkpoint_every,
        gate_games=args.gate_games,
        gate_search_iterations=args.gate_search,
        gate_threshold=args.gate_threshold,
        gate_min_lower=args.gate_min_lower,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        eval_search_iterations=args.eval_search,
        eval_opponents=tuple(parse_bots(args.eval_opponents)),
        threads=args.threads,
        torch_threads=args.torch_threads,
        turn_cap=args.turn_cap,
    )


def run(args: argparse.Namespace) -> int:
    """Starts or resumes a run; prints the best network's path."""
    if args.resume and args.run_dir:
        raise ConfigError("give either RUN_DIR (a new run) or --resume RUN_DIR, not both")
    if args.resume:
        best = resume(args.resume, progress=not args.quiet)
    elif args.run_dir:
        best = train(config_from_args(args), args.run_dir, progress=not args.quiet)
    else:
        raise ConfigError("give RUN_DIR for a new run or --resume RUN_DIR")
    print(best)
    return 0
