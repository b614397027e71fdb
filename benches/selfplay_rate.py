"""Self-play games per hour per thread for each shipped network, before and after.

Usage (from the repository root; docs/training.md, "Self-play throughput"):

    python benches/selfplay_rate.py [--base 60f7934] [--games 6] [--rounds 3] \\
        [--before-python DIR] [--caps 150:0.25] [--only base-2p]

For every network in `python/splendor/data/nets/`, the same self-play games (the generation
loops' settings: 800 iterations, 12 sampled opening moves, root noise 0.3 / 0.25, one thread)
are played by the extension of commit `--base` ("before") and by the working tree's ("after"),
in interleaved rounds: each round plays `--games` new games with each build, the two builds
alternating which goes first, so a change of machine load hits both alike. Time is the process's
CPU time (one thread), and a game's cost is its share of it. `--caps FAST:FRACTION` adds a third
row, today's build with playout-cap randomisation (`fast_iterations`, `full_search_fraction`):
more games per hour, of which only the full searches are samples, so it prints samples per
hour too.

The past commit is exported with `git archive` into `target/selfplay-rate/tree-COMMIT` and its
extension built there (a few minutes), unless `--before-python` names a `python/` folder that
already holds that commit's built package. Prints a Markdown table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NETS = ROOT / "python" / "splendor" / "data" / "nets"

# Runs in a child process whose PYTHONPATH picks the build; prints games, samples, seconds.
CHILD = """
import json, sys, time
from splendor import _core
variant, players, net, first, games, caps = json.loads(sys.argv[1])
samples = 0
def stored(record):
    global samples
    samples += len(record["ply"])
extra = {} if caps is None else {"fast_iterations": caps[0], "full_search_fraction": caps[1]}
network = _core.Network.load(net)
start = time.process_time()
_core.selfplay_games(variant, list(range(first, first + games)), stored, players=players,
    seed=2026, threads=1, iterations=800, temperature_moves=12, network=network,
    noise_alpha=0.3, noise_epsilon=0.25, **extra)
print(json.dumps({"games": games, "samples": samples, "seconds": time.process_time() - start}))
"""


def build_before(commit: str) -> Path:
    """Exports `commit` and builds its extension in place; returns its `python/` folder."""
    tree = ROOT / "target" / "selfplay-rate" / f"tree-{commit}"
    if not (tree / "Cargo.toml").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    subprocess.run(
        ["cargo", "build", "--release", "--offline", "--lib", "--features", "python"],
        cwd=tree,
        check=True,
    )
    shutil.copyfile(
        tree / "target" / "release" / "libsplendor.so",
        tree / "python" / "splendor" / "_core.abi3.so",
    )
    return tree / "python"


def play(python_dir: Path, job: list[object]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(python_dir)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(job)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="60f7934", help="the 'before' commit")
    parser.add_argument("--games", type=int, default=6, help="games per build per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before-python", type=Path, help="an already built python/ of --base")
    parser.add_argument("--caps", help="FAST:FRACTION, a third row with playout caps")
    parser.add_argument("--only", action="append", default=[], help="e.g. base-2p (repeatable)")
    args = parser.parse_args()
    before = args.before_python or build_before(args.base)
    after = ROOT / "python"
    caps = None
    if args.caps:
        fast, fraction = args.caps.split(":")
        caps = [int(fast), float(fraction)]
    nets = sorted(p for p in NETS.glob("*.safetensors") if not args.only or p.stem in args.only)
    rows: list[tuple[str, dict[str, int]]] = []
    for net in nets:
        variant, _, seats = net.stem.partition("-")
        players = int(seats.rstrip("p"))
        builds: dict[str, tuple[Path, list[float] | None]] = {
            "before": (before, None),
            "after": (after, None),
        }
        if caps is not None:
            builds["after, caps"] = (after, caps)
        rates: dict[str, list[float]] = {name: [] for name in builds}
        sample_rates: dict[str, list[float]] = {name: [] for name in builds}
        for r in range(args.rounds):
            order = list(builds) if r % 2 == 0 else list(reversed(builds))
            for name in order:
                python_dir, job_caps = builds[name]
                job = [variant, players, str(net), r * args.games, args.games, job_caps]
                got = play(python_dir, job)
                rates[name].append(got["games"] * 3600 / got["seconds"])
                sample_rates[name].append(got["samples"] * 3600 / got["seconds"])
        row: dict[str, int] = {
            **{f"games_per_hour[{k}]": round(statistics.median(v)) for k, v in rates.items()},
            **{
                f"samples_per_hour[{k}]": round(statistics.median(v))
                for k, v in sample_rates.items()
            },
        }
        rows.append((net.stem, row))
        print(json.dumps({"network": net.stem, **row}), flush=True)
    print()
    header = "| network | before (games/h) | after (games/h) | after / before |"
    rule = "|---|---|---|---|"
    if caps is not None:
        header += " with caps (games/h; samples/h vs after) |"
        rule += "---|"
    print(header)
    print(rule)
    for name, row in rows:
        b, a = row["games_per_hour[before]"], row["games_per_hour[after]"]
        line = f"| {name} | {b:,} | {a:,} | {a / b:.2f}x |"
        if caps is not None:
            c = row["games_per_hour[after, caps]"]
            s = row["samples_per_hour[after, caps]"] / row["samples_per_hour[after]"]
            line += f" {c:,} ({c / a:.2f}x; {s:.2f}x) |"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
