"""Ctrl-C stops every long call: each runs in a child process that gets SIGINT while
the call is busy, and must raise ``KeyboardInterrupt`` within 0.5 s of the signal.

The child prints ``ready`` just before the call and, on ``KeyboardInterrupt``, the
``time.monotonic()`` at which it caught it (the clock is system-wide, so the parent
subtracts the time it sent the signal). The latency of each call is printed
(``pytest -s`` shows it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import splendor
import splendor.arena
from splendor import cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

LATENCY_LIMIT = 0.5
# How long the call runs before the signal: long enough to be deep inside it.
BUSY_BEFORE_SIGNAL = 0.4
# A call that ignores the signal would run this long or more; the child is killed then.
HANG_TIMEOUT = 20.0

PRELUDE = """
import sys, time
import splendor
def caught():
    print("interrupted", time.monotonic(), flush=True)
"""

# name -> code run in the child between ``print("ready")`` and the end; every call
# would take minutes if the signal were ignored.
CALLS: dict[str, str] = {
    "search(time_limit)": """
        s = splendor.new_game("base", seed=1)
        splendor.search(s, time_limit=600)
    """,
    "search(threads=2)": """
        s = splendor.new_game("marvel", players=3, seed=1)
        splendor.search(s, time_limit=600, threads=2)
    """,
    "search(iterations)": """
        s = splendor.new_game("duel", seed=1)
        splendor.search(s, iterations=10**9)
    """,
    "MctsBot.act": """
        s = splendor.new_game("base", seed=2)
        splendor.MctsBot(time_limit=600, threads=2).act(s)
    """,
    "random_games": """
        splendor.random_games("base", 10**10)
    """,
    "match(mcts, threads=2)": """
        splendor.match(["mcts:600s", "greedy"], games=4, threads=2)
    """,
    # The step runs on the env's own threads; step_wait waits for it.
    "VectorEnv.step_wait": """
        env = splendor.VectorEnv("base", 4, threads=2, opponents=[None, "mcts:600s"])
        env.step_async(env.action_mask.argmax(axis=1))
        env.step_wait()
    """,
}


def _child(body: str) -> subprocess.Popen[str]:
    code = PRELUDE + textwrap.dedent(
        """
        print("ready", flush=True)
        try:
        {body}
        except KeyboardInterrupt as exc:
            caught()
            print("type", type(exc).__name__, flush=True)
            result = getattr(exc, "result", None)
            if result is not None:
                print("games", result.games, flush=True)
        else:
            print("returned", flush=True)
        """
    ).format(body=textwrap.indent(textwrap.dedent(body).strip(), "    "))
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _interrupt(proc: subprocess.Popen[str]) -> tuple[float, list[str]]:
    """Sends SIGINT once the child is busy; the latency and the child's later lines."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", line + (proc.stderr.read() if proc.stderr else "")
    time.sleep(BUSY_BEFORE_SIGNAL)
    assert proc.poll() is None, "the call ended before the signal"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"SIGINT was ignored: the call still ran {HANG_TIMEOUT} s later")
    lines = out.splitlines()
    caught = [x for x in lines if x.startswith("interrupted ")]
    assert caught, f"no KeyboardInterrupt; stdout {out!r}, stderr {err[-2000:]!r}"
    return float(caught[0].split()[1]) - sent, lines


@pytest.mark.parametrize("call", sorted(CALLS))
def test_ctrl_c_stops_the_call_quickly(call: str) -> None:
    latency, lines = _interrupt(_child(CALLS[call]))
    print(f"\nSIGINT latency of {call}: {latency * 1000:.0f} ms")
    assert latency < LATENCY_LIMIT, f"{call}: {latency:.3f} s"
    kind = "MatchInterrupted" if call.startswith("match") else "KeyboardInterrupt"
    assert f"type {kind}" in lines


def test_an_interrupted_match_keeps_the_games_finished() -> None:
    # Quick games first, so some are finished when the signal comes; the
    # last game is a long search.
    body = """
        splendor.match(["mcts:600s"], games=8, threads=1, progress=lambda d, t: None)
    """
    latency, lines = _interrupt(_child(body))
    assert "type MatchInterrupted" in lines
    assert latency < LATENCY_LIMIT
    # mcts:600s never finishes a game before the signal: an empty partial result.
    assert "games 0" in lines
    # Ctrl-C lands in Rust, or in the Python progress callback: the same result.
    for progress in ("None", "lambda done, total: None"):
        body = f"""
            splendor.match(["random", "greedy"], games=10**9, threads=2, progress={progress})
        """
        latency, lines = _interrupt(_child(body))
        assert "type MatchInterrupted" in lines, lines
        games = int(next(x for x in lines if x.startswith("games ")).split()[1])
        assert games > 0
        assert latency < LATENCY_LIMIT


def test_an_interrupted_step_wait_leaves_the_step_to_collect() -> None:
    # Ctrl-C stops the wait, not the step: a second step_wait returns its result.
    body = """
        env = splendor.VectorEnv("base", 1, opponents=[None, "mcts:1.5s"], seed=3)
        actions = env.action_mask.argmax(axis=1)
        env.step_async(actions)
        try:
            env.step_wait()
        except KeyboardInterrupt:
            caught()
            try:
                env.step(actions)
            except splendor.InvalidStateError:
                print("still in flight", flush=True)
            obs, mask, player, *_ = env.step_wait()
            print("collected", obs is env.observation, int(player[0]), flush=True)
            env.step(mask.argmax(axis=1))
            print("stepped again", flush=True)
            raise
    """
    latency, lines = _interrupt(_child(body))
    assert latency < LATENCY_LIMIT
    assert "still in flight" in lines
    # The bot of seat 1 moved: seat 0 is to move again.
    assert "collected True 0" in lines
    assert "stepped again" in lines
    assert "type KeyboardInterrupt" in lines


def _cli(args: list[str], cwd: Path | None = None) -> subprocess.Popen[str]:
    """``splendor ARGS`` in a child, which prints ``ready`` once imports are done."""
    code = (
        "import sys\n"
        "from splendor.cli import main\n"
        "print('ready', flush=True)\n"
        f"sys.exit(main({args!r}))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    _wait_for(proc, "stdout", "ready")
    return proc


def _wait_for(proc: subprocess.Popen[str], stream_name: str, marker: str) -> None:
    stream = proc.stdout if stream_name == "stdout" else proc.stderr
    assert stream is not None
    seen = ""
    deadline = time.monotonic() + HANG_TIMEOUT
    while marker not in seen:
        assert time.monotonic() < deadline, f"no {marker!r} in {seen!r}"
        ch = stream.read(1)
        assert ch, f"stream closed before {marker!r}: {seen!r}"
        seen += ch


def _sigint_and_finish(proc: subprocess.Popen[str]) -> tuple[int, str, str, float]:
    time.sleep(BUSY_BEFORE_SIGNAL)
    assert proc.poll() is None, "the command ended before the signal"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the command ignored SIGINT")
    return proc.returncode, out, err, time.monotonic() - sent


def test_cli_match_prints_the_partial_table_and_exits_130() -> None:
    proc = _cli(["match", "--bots", "random,greedy", "--games", "10000000", "--threads", "2"])
    _wait_for(proc, "stderr", "games")  # the progress bar: games are being played
    code, out, err, elapsed = _sigint_and_finish(proc)
    print(f"\nsplendor match: exit {code} {elapsed * 1000:.0f} ms after SIGINT")
    assert code == 130
    assert "Traceback" not in err
    assert "interrupted" in err
    assert "win rate" in out and "random" in out and "greedy" in out
    assert "of 10000000 games" in out


def test_cli_play_saves_the_game_on_ctrl_c(tmp_path: Path) -> None:
    proc = _cli(["play", "--bot", "random", "--seed", "5"], cwd=tmp_path)
    _wait_for(proc, "stdout", "your move>")
    assert proc.stdin is not None
    proc.stdin.write("take wug\n")
    proc.stdin.flush()
    _wait_for(proc, "stdout", "your move>")
    code, out, err, _ = _sigint_and_finish(proc)
    assert code == 130
    assert "Traceback" not in err + out
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1, (out, err)
    assert f"--load {saved[0].name}" in out + err
    state = splendor.from_json(saved[0].read_text(encoding="utf-8"))
    assert state.variant == "base" and not state.is_terminal()
    assert state.to_json() != splendor.new_game("base", seed=5).to_json()


def test_cli_play_ctrl_c_during_the_bots_turn(tmp_path: Path) -> None:
    # Seat 1: the bot moves first, thinking for ten minutes.
    proc = _cli(["play", "--bot", "mcts:600s", "--seat", "1"], cwd=tmp_path)
    code, out, err, elapsed = _sigint_and_finish(proc)
    assert code == 130, (out, err)
    assert "Traceback" not in err + out
    assert elapsed < 5
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1
    state = splendor.from_json(saved[0].read_text(encoding="utf-8"))
    assert state.current_player == 0  # the bot's move was not played


def test_cli_bench_exits_130_on_ctrl_c() -> None:
    code, out, err, elapsed = _sigint_and_finish(_cli(["bench", "--games", "10000000"]))
    assert code == 130, (out, err)
    assert "Traceback" not in err
    assert elapsed < 5


def test_every_command_exits_130_on_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Whatever a command is doing, main() turns Ctrl-C into exit status 130.
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(splendor, "new_game", interrupted)
    monkeypatch.setattr(splendor, "random_games", interrupted)
    for argv in (["demo"], ["bench"], ["play"], ["match", "--bots", "random"]):
        with monkeypatch.context() as m:
            m.setattr(splendor.arena, "run_match", interrupted)
            assert cli.main(argv) == 130, argv
        assert "Traceback" not in capsys.readouterr().err
