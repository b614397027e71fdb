"""The package's sizes, measured from the built files, checked against docs/install.md.

    python .ci/sizes.py WHEEL SDIST             # print the figures
    python .ci/sizes.py WHEEL SDIST --check docs/install.md

``.ci/run`` runs the second form on the wheel and sdist it builds, so the figures the docs give
are the ones this command measures (within 15%: the build, its linker and compression vary a
little from machine to machine); a change that moves them fails CI until the docs say so.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

WORDS = {
    n: w
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
TOLERANCE = 0.15


def measure(wheel: Path, sdist: Path) -> dict[str, float]:
    with zipfile.ZipFile(wheel) as z:
        infos = z.infolist()
    nets = [i for i in infos if i.filename.endswith(".safetensors")]
    ext = [
        i for i in infos if i.filename.startswith("splendor/_core") and i.filename.endswith(".so")
    ]
    return {
        "wheel": wheel.stat().st_size / 1e6,
        "installed": sum(i.file_size for i in infos) / 1e6,
        "extension": sum(i.file_size for i in ext) / 1e6,
        "networks": float(len(nets)),
        "networks_mb": sum(i.file_size for i in nets) / 1e6,
        "sdist": sdist.stat().st_size / 1e6,
    }


def documented(text: str) -> dict[str, float]:
    wheel = re.search(r"^\| wheel \| .*?, ([\d.]+) MB \|", text, re.M)
    installed = re.search(
        r"^\| installed \| ([\d.]+) MB unpacked: the extension ([\d.]+) MB, the (\w+) shipped"
        r" networks ([\d.]+) MB",
        text,
        re.M,
    )
    sdist = re.search(r"^\| sdist \| .*?, ([\d.]+) MB", text, re.M)
    if not (wheel and installed and sdist):
        raise SystemExit("docs/install.md: the wheel, installed or sdist row is not in its form")
    count = {w: n for n, w in WORDS.items()}.get(installed.group(3))
    if count is None:
        raise SystemExit(f"docs/install.md: {installed.group(3)!r} is not a number in words")
    return {
        "wheel": float(wheel.group(1)),
        "installed": float(installed.group(1)),
        "extension": float(installed.group(2)),
        "networks": float(count),
        "networks_mb": float(installed.group(4)),
        "sdist": float(sdist.group(1)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("sdist", type=Path)
    parser.add_argument("--check", type=Path, metavar="INSTALL_MD")
    args = parser.parse_args()
    measured = measure(args.wheel, args.sdist)
    for name, value in measured.items():
        print(f"{name}: {value:.0f}" if name == "networks" else f"{name}: {value:.1f} MB")
    if args.check is None:
        return 0
    docs = documented(args.check.read_text(encoding="utf-8"))
    wrong = [
        f"{name}: the docs say {docs[name]:g}, measured {value:.2f}"
        for name, value in measured.items()
        if (
            value != docs[name]
            if name == "networks"
            else abs(value - docs[name]) > TOLERANCE * value
        )
    ]
    for line in wrong:
        print(f"docs/install.md is out of date: {line}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
