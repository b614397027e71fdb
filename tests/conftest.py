"""Shared pytest set-up: makes ``tests/`` importable (``from engines import ENGINES``), and
gives SIGINT its usual meaning to the run and every process it starts."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

# A run started in the background of a shell without job control (`pytest &` in a script, or
# under nohup) inherits SIGINT *ignored*, and passes that on through fork and exec to every
# process it starts, so a Ctrl-C test would see its child ignore the signal it sends. A handler
# (unlike an ignored signal) is reset to the default at exec: the children get SIGINT as a
# terminal's Ctrl-C would give it to them.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
