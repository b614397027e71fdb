"""The engine's floor, before and after: builds the `benches/floor` binary against a past commit
and against the working tree, and times both in interleaved rounds of one run.

Usage (from the repository root; docs/figures.md, "The engine's floor: before and after"):

    python benches/floor.py [--base 60f7934] [--rounds 9] [--callgrind 300] [--profile]

Every figure is per-thread CPU time (one thread), the median over the rounds; the two builds
alternate which goes first in each round, so a change of machine load hits both alike.
`--callgrind GAMES` also counts instructions per decision of random 2-player base games under
`valgrind --tool=callgrind` (the difference between GAMES games and none, over the decisions
played); `--profile` prints where those instructions go in the working tree's build.

The past commit is exported with `git archive` into `target/floor/tree-COMMIT` (no worktree is
registered) and both builds get their own target folder under `target/floor/`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = ROOT / "benches" / "floor"


def build(tree: Path, target: Path) -> Path:
    """Builds the floor binary of `tree` (a checkout holding benches/floor) into `target`."""
    subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "--offline",
            "--manifest-path",
            str(tree / "benches" / "floor" / "Cargo.toml"),
            "--target-dir",
            str(target),
        ],
        check=True,
    )
    return target / "release" / "splendor-floor"


def export(commit: str, into: Path) -> None:
    """Writes the files of `commit` into `into`, with today's benches/floor beside them."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    dest = into / "benches" / "floor"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(FLOOR, dest, ignore=shutil.ignore_patterns("target"))


def run_pass(binary: Path) -> dict[str, tuple[str, float]]:
    """One pass over every workload: name -> (unit, ns per unit)."""
    out = subprocess.run([str(binary), "bench"], check=True, capture_output=True, text=True)
    result = {}
    for line in out.stdout.splitlines():
        name, unit, ns = line.split("\t")
        result[name] = (unit, float(ns))
    return result


def instructions(binary: Path, games: int) -> tuple[int, int]:
    """(instructions, decisions) of `games` random base games, less the empty run's count."""

    def count(n: int) -> tuple[int, int]:
        with tempfile.TemporaryDirectory() as tmp:
            out_file = Path(tmp) / "callgrind.out"
            run = subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={out_file}",
                    str(binary),
                    "count",
                    "base",
                    "2",
                    str(n),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            decisions = int(run.stdout.split("\t")[1])
            totals = [
                line for line in out_file.read_text().splitlines() if line.startswith("totals:")
            ]
            return int(totals[0].split()[1]), decisions

    full, decisions = count(games)
    empty, _ = count(0)
    return full - empty, decisions


def profile(binary: Path, games: int) -> str:
    """`callgrind_annotate`'s per-function table for `games` random base games."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out_file}",
                str(binary),
                "count",
                "base",
                "2",
                str(games),
            ],
            check=True,
            capture_output=True,
        )
        return subprocess.run(
            ["callgrind_annotate", "--inclusive=no", "--threshold=99", str(out_file)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout


def main() -> int:
    """Builds, runs and prints the before/after table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="60f7934", help="the commit to compare against")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds")
    parser.add_argument("--callgrind", type=int, default=0, metavar="GAMES")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    # A fixed folder per commit: re-exported each run with the commit's own file times, so
    # that cargo finds the previous build of it up to date.
    old_tree = ROOT / "target" / "floor" / f"tree-{args.base}"
    shutil.rmtree(old_tree, ignore_errors=True)
    old_tree.mkdir(parents=True)
    export(args.base, old_tree)
    old = build(old_tree, ROOT / "target" / "floor" / "before")
    new = build(ROOT, ROOT / "target" / "floor" / "after")

    samples: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    units: dict[str, str] = {}
    order: list[str] = []
    for r in range(args.rounds):
        pair = [("before", old), ("after", new)]
        for which, binary in pair if r % 2 == 0 else pair[::-1]:
            for name, (unit, ns) in run_pass(binary).items():
                samples[which].setdefault(name, []).append(ns)
                units[name] = unit
                if name not in order:
                    order.append(name)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    def median(which: str, name: str) -> float:
        return statistics.median(samples[which][name])

    print(f"before = {args.base}, after = the working tree; medians of {args.rounds} rounds")
    print("| workload | unit | before (ns) | after (ns) | speed-up |")
    print("|---|---|---|---|---|")
    for name in order:
        if name not in samples["before"] or name not in samples["after"]:
            continue
        before, after = median("before", name), median("after", name)
        print(f"| {name} | {units[name]} | {before:.1f} | {after:.1f} | {before / after:.2f}x |")
    for variant in ("base 2p", "duel", "marvel 2p"):
        print(f"| {variant}: checked / unchecked apply |", end="")
        for which in ("before", "after"):
            copy = median(which, f"{variant}: copy")
            unchecked = median(which, f"{variant}: copy + apply_unchecked")
            checked = median(which, f"{variant}: copy + apply (checked)")
            print(
                f" {which} {checked / unchecked:.2f}x with the copy, "
                f"{(checked - copy) / (unchecked - copy):.2f}x without |",
                end="",
            )
        print()

    if args.callgrind:
        print()
        for which, binary in (("before", old), ("after", new)):
            ir, decisions = instructions(binary, args.callgrind)
            print(
                f"{which}: {ir / decisions:.0f} instructions per decision "
                f"({args.callgrind} random 2-player base games, {decisions} decisions)"
            )
    if args.profile:
        print()
        print(profile(new, max(args.callgrind, 300)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
