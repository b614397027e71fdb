"""The ``splendor`` console command.

One module per subcommand (``demo``, ``bench``, ``match``, ``ladder``, ``play``,
``selfplay``, ``train``, ``serve``, ``render``, ``review``), each with ``add(subparsers)``,
which registers its parser and options, and ``run(args)``, which does the work, side by
side; the options every command shares are in :mod:`splendor.cli._options`. Add a command
by writing such a module and listing it in :data:`COMMANDS`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import splendor
from splendor.cli import (
    bench,
    demo,
    ladder,
    match,
    play,
    render,
    review,
    selfplay,
    serve,
    train,
)
from splendor.cli._options import INTERRUPTED, OneLineParser
from splendor.errors import SplendorError

#: The subcommands, in the order ``splendor --help`` lists them.
COMMANDS: list[ModuleType] = [
    demo,
    bench,
    match,
    ladder,
    play,
    selfplay,
    train,
    serve,
    render,
    review,
]


def version_text() -> str:
    """What ``splendor --version`` prints: the version on the first line, then the build.

    The build (``splendor._core.build_info()``): the Rust compiler, target and profile,
    the cargo features, the CPU features the code is compiled for and the network
    kernels this CPU runs, then the Python and NumPy it runs under.
    """
    import platform

    import numpy

    info = splendor._core.build_info()
    return "\n".join(
        [
            f"splendor {info['version']}",
            f"built with {info['rustc']} for {info['target']} ({info['profile']} profile)",
            f"cargo features: {info['features'] or 'none'}",
            f"CPU features: compiled for {info['target_features']}; "
            f"network kernels: {info['kernels']}",
            f"running on {platform.python_implementation()} {platform.python_version()}, "
            f"NumPy {numpy.__version__}",
        ]
    )


class _VersionAction(argparse.Action):
    """``--version``: prints :func:`version_text` (its line breaks kept) and exits 0."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print the version and how this build was made, then exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(version_text())
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = OneLineParser(prog="splendor", description="Fast, exact Splendor engines and AI.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``splendor`` command; returns the exit status.

    0 on success; 2 for a bad argument (one line on stderr, as argparse's
    own errors); 1 when the operating system refuses (a file it cannot write).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version or a bad argument: already printed
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        # Ctrl-C ends any command quietly: the long calls stop within a
        # fraction of a second, and no traceback is worth showing.
        print("\nsplendor: interrupted", file=sys.stderr)
        return INTERRUPTED
    except SplendorError as exc:
        # A bad value the parser could not check (a bot spec, a file): status 2 as argparse's.
        print(f"splendor {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # The system refused (a file it cannot read or write): status 1.
        what = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else exc
        print(f"splendor {args.command}: error: {what}", file=sys.stderr)
        return 1
    return code
