"""``splendor train``: its options, the training settings they make, and the run
(:mod:`splendor.train`, imported only when the command runs: ``--help`` needs no PyTorch)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

import splendor
from splendor.cli._options import MAX_SEED, float_in, int_in
from splendor.errors import ConfigError

if TYPE_CHECKING:
    from splendor.train.loop import TrainConfig


def add(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train a policy/value network: self-play, train, export, gate, repeat",
        description="Settings and reproduction: docs/training.md. Needs 'splendor[train]'.",
    )
    p.add_argument("run_dir", nargs="?", metavar="RUN_DIR", help="directory of a new run")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue an interrupted run")
    p.add_argument("--variant", default="base", choices=splendor.VARIANTS)
    p.add_argument("--players", type=int_in(2, 4), default=2)
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument("--iterations", type=int_in(1, 10**6), default=10, help="loop iterations")
    p.add_argument("--hidden", default="256,256", help="hidden widths, e.g. 256,256")
    p.add_argument(
        "--features",
        default="raw",
        choices=("raw", "needs"),
        help="network input: the observation (raw), or with what each seat lacks (needs)",
    )
    p.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="DIR",
        help="self-play run directory (or a folder of them) always trained on; repeatable",
    )
    p.add_argument("--no-generate", action="store_true", help="no self-play: train on --data only")
    p.add_argument(
        "--games", type=int_in(1, 10**7), default=200, help="self-play games per iteration"
    )
    p.add_argument(
        "--selfplay-search", type=int_in(1, 10**7), default=400, help="search iterations per move"
    )
    p.add_argument(
        "--selfplay-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another splendor.selfplay setting, VALUE in JSON (e.g. temperature_moves=20)",
    )
    p.add_argument(
        "--window", type=int_in(1, 10**9), default=300_000, help="replay window in samples"
    )
    p.add_argument(
        "--value-q-weight",
        type=float_in(0.0, 1.0),
        default=0.0,
        help="weight of the search's root value in the value target (0: game results only)",
    )
    p.add_argument(
        "--init",
        metavar="FILE",
        default=None,
        help="start from this network file's weights (an earlier generation of the same shape)",
    )
    p.add_argument(
        "--points-weight",
        type=float_in(0.0, 100.0),
        default=0.0,
        help="weight of an auxiliary head predicting each seat's final points (0: none; "
        "training only, the exported network is unchanged)",
    )
    p.add_argument(
        "--augment",
        choices=("none", "colours"),
        default="none",
        help="colours: train on each sample under a random renaming of the five card colours",
    )
    p.add_argument(
        "--steps", type=int_in(1, 10**8), default=1000, help="training steps per iteration"
    )
    p.add_argument("--batch-size", type=int_in(1, 1 << 20), default=256)
    p.add_argument("--lr", type=float_in(1e-9, 10.0), default=1e-3, help="Adam learning rate")
    p.add_argument(
        "--lr-schedule",
        choices=("cosine", "constant"),
        default="cosine",
        help="cosine: each iteration's training decays the rate to 0; constant: no decay",
    )
    p.add_argument(
        "--l2", type=float_in(0.0, 1.0), default=1e-3, help="L2 penalty (Adam weight decay)"
    )
    p.add_argument(
        "--validation", type=float_in(0.0, 0.5), default=0.05, help="share of games held out"
    )
    p.add_argument("--checkpoint-every", type=int_in(1, 10**8), default=250, help="training steps")
    p.add_argument(
        "--gate-games", type=int_in(0, 10**6), default=200, help="0: accept every candidate"
    )
    p.add_argument(
        "--gate-search", type=int_in(1, 10**7), default=200, help="search iterations per move"
    )
    p.add_argument("--gate-threshold", type=float_in(0.0, 1.0), default=0.55)
    p.add_argument(
        "--gate-min-lower",
        type=float_in(0.0, 1.0),
        default=0.5,
        help="Wilson lower bound must exceed this",
    )
    p.add_argument("--eval-every", type=int_in(0, 10**6), default=1, help="iterations (0: never)")
    p.add_argument("--eval-games", type=int_in(0, 10**6), default=100)
    p.add_argument(
        "--eval-search", type=int_in(1, 10**7), default=200, help="search iterations per move"
    )
    p.add_argument("--eval-opponents", default="greedy,mcts:1000", help="comma-separated specs")
    p.add_argument("--threads", type=int_in(1, 256), default=1, help="self-play and match threads")
    p.add_argument(
        "--torch-threads", type=int_in(1, 256), default=1, help="PyTorch threads for training"
    )
    p.add_argument("--turn-cap", type=int_in(1, 10**6), default=100)
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


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
    from splendor.bots import parse_bots
    from splendor.train.loop import TrainConfig, data_dirs, parse_hidden

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
        points_weight=args.points_weight,
        init=args.init,
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
    try:
        from splendor.train.loop import resume, train
    except ImportError as exc:
        raise ConfigError(
            f"splendor train needs the training extra: pip install 'splendor[train]' ({exc})"
        ) from None
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
