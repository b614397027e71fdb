"""The ``splendor`` command: ``demo`` and ``bench`` run and print what they promise."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import splendor
from splendor import cli


def test_demo_plays_a_game_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "seat 0: " in out and "seat 1: " in out
    assert "Game over (" in out
    assert out.count("bank") > 10  # a board every turn


def test_demo_is_reproducible_and_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["demo", "--seed", "5", "--players", "3", "--quiet"])
    first = capsys.readouterr().out
    cli.main(["demo", "--seed", "5", "--players", "3", "--quiet"])
    assert capsys.readouterr().out == first
    assert first.count("bank") == 1 and "Game over (" in first


def test_bench_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--games", "50", "--loop-games", "3", "--ref-games", "1"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    for row in ("games/s", "Rust engine", "reference engine", "Rust / reference"):
        assert row in out


def test_bad_arguments_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--players", "7"]) == 2
    assert "players" in capsys.readouterr().err
    assert cli.main(["demo", "--variant", "chess"]) == 2


# ---------------------------------------------------------------------------
# Every subcommand's help, and every option's bad values (issue 9, item 8).


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_help_works_as_a_user_types_it() -> None:
    for args in ([], *([name] for name in subcommands())):
        proc = subprocess.run(
            [sys.executable, "-m", "splendor.cli", *args, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, (args, proc.stderr)
        assert proc.stdout.startswith("usage: splendor") and proc.stderr == ""
        for action in (subcommands()[args[0]] if args else cli.build_parser())._actions:
            for flag in action.option_strings:
                assert flag in proc.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("cli")
    base = splendor.new_game("base", seed=1)
    (d / "base.json").write_text(base.to_json())
    (d / "view.json").write_text(base.to_json(0))
    (d / "binary.json").write_bytes(bytes(range(256)))
    (d / "empty.json").write_text("")
    (d / "text.json").write_text("not a game\n")
    (d / "a_file").write_text("x")
    # A finished game as the web server saves it (what `splendor review` reads).
    state, ids = base.clone(), []
    bot = splendor.GreedyBot(seed=1)
    while not state.is_terminal():
        ids.append(int(bot.act(state)))
        state.apply(ids[-1])
    saved = {"format": "splendor-web-game", "start": json.loads(base.to_json()), "actions": ids}
    (d / "finished.json").write_text(json.dumps(saved))
    return {
        "finished": str(d / "finished.json"),
        "base": str(d / "base.json"),
        "view": str(d / "view.json"),
        "binary": str(d / "binary.json"),
        "empty": str(d / "empty.json"),
        "text": str(d / "text.json"),
        "dir": str(d),
        "missing": str(d / "no" / "such.json"),
        "under_a_file": str(d / "a_file" / "x.json"),
        "png": str(d / "board.png"),
    }


STRING_OPTIONS = {
    "--bot": ["nonsense", "", "mcts:0", "mcts:-1s", "mcts:xs"],
    "--bots": ["nonsense", "", ",", "random,", "random,mcts:0"],
    "--load": ["missing", "dir", "binary", "empty", "text", "view"],
    "--json": ["dir", "missing", "under_a_file"],
    "--out": ["under_a_file"],
    "--host": ["", "no.such.host.invalid"],
    "--output": ["dir", "under_a_file", "png"],
    "--viewer": ["x", "", "1.5", "-1", "5"],
    "--network": ["missing", "dir", "binary", "empty", "text"],
    "--init": ["missing", "dir", "binary", "empty", "text"],
    "--resume": ["missing", "dir", "text"],
    "--hidden": ["", "0", "a,b", "-1", "16,,16"],
    "--data": ["missing", "binary"],
    "--selfplay-option": ["novalue", "iterations=notjson", "=1"],
    "--eval-opponents": ["nonsense", "", "mcts:0"],
    "--ray": ["", "nonsense", "host:99999", "127.0.0.1:1"],
    "--anchor": ["nonsense", "", "mcts:0", "mcts:100"],
    "--db": ["", "dir", "under_a_file", "mysql://x", "postgresql://x:y@127.0.0.1:1/none"],
    "--public-url": ["", "example.org/splendor", "ftp://example.org/", "https://x/?a=1"],
    "--root-path": ["splendor", "http://x/splendor", "/a b", "/a?b", "//x"],
    "--forwarded-allow-ips": ["", "proxy.lan", "10.0.0.0/33", "1.2.3.4,,", "256.1.1.1"],
}
FAST = {
    "demo": ["--quiet"],
    "bench": ["--games", "1", "--loop-games", "1", "--ref-games", "1"],
    "match": ["--games", "1", "--bots", "random,random", "--no-progress"],
    "ladder": ["--games-per-pair", "2", "--bots", "random,greedy", "--out", "/nonexistent/ladder"],
    "play": ["--bot", "random"],
    "selfplay": ["--games", "1", "--out", "/nonexistent/selfplay-run"],
    "serve": ["--port", "1"],
    "render": ["/nonexistent/game.json"],
    "train": ["/nonexistent/train-run", "--no-generate", "--quiet"],
    "review": ["finished", "--bot", "mcts:4"],
}


def bad_values(action: argparse.Action, files: dict[str, str]) -> list[str]:
    option = action.option_strings[-1]
    if action.nargs == 0:
        return [f"{option}=x", ""]
    if action.choices is not None:
        return [option, "chess", option, ""]
    if getattr(action.type, "is_float", False):
        lo, hi = action.type.lo, action.type.hi  # type: ignore[union-attr]
        values = [str(lo - 1), str(hi + 1), "x", "", "nan", "inf", "-inf"]
        return [x for v in values for x in (option, v)]
    kind = getattr(action.type, "lo", None)
    if kind is not None:
        lo, hi = action.type.lo, action.type.hi  # type: ignore[union-attr]
        values = [str(lo - 1), str(hi + 1), "x", "", "1.5", "1e3", str(10**30)]
        return [x for v in values for x in (option, v)]
    assert option in STRING_OPTIONS, f"{option}: add its bad values to this test"
    out = []
    for v in STRING_OPTIONS[option]:
        out += [option, files.get(v, v)]
    return out


def test_every_option_rejects_bad_values_in_one_line(
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each bad value: exit status 2 (or 1), one line on stderr naming the problem, no
    traceback, and nothing run (a value that slipped through would play or print)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    tried = 0
    for name, parser in subcommands().items():
        for action in parser._actions:
            if not action.option_strings or action.dest == "help":
                continue
            values = bad_values(action, files)
            for option, value in zip(values[::2], values[1::2], strict=True):
                args = [name, *(files.get(a, a) for a in FAST[name])]
                if "=" in option:
                    args.append(option)
                else:
                    args += [option, value]
                code = cli.main(args)
                out, err = capsys.readouterr()
                assert code in (1, 2), (args, out, err)
                assert err.count("\n") == 1 and err.startswith(f"splendor {name}: error: "), (
                    args,
                    err,
                )
                assert "Traceback" not in err and out == "", (args, out)
                tried += 1
    assert tried > 80


def test_play_load_follows_the_file_or_says_why_not(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--variant", "duel", "--load", files["base"]]) == 2
    err = capsys.readouterr().err
    assert "holds a base game, not duel: leave out --variant to continue it" in err
    assert cli.main(["play", "--players", "3", "--load", files["base"]]) == 2
    assert "holds a 2-player game, not 3" in capsys.readouterr().err
    assert cli.main(["play", "--bot", "random", "--load", files["base"]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("=" * 60 + "\nSplendor | 2 seats") and "(base, 2 seats)" in out


def test_match_checks_its_json_path_before_playing(files: dict[str, str]) -> None:
    """A match of hours must not be lost to an unwritable --json: it fails at once."""
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "splendor.cli",
            "match",
            "--games",
            "100000",
            "--bots",
            "mcts:100000,mcts:100000",
            "--json",
            files["missing"],
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert time.perf_counter() - start < 30
    assert proc.returncode == 1 and proc.stdout == ""
    assert (
        proc.stderr
        == f"splendor match: error: cannot write {files['missing']}: No such file or directory\n"
    )


def test_match_writes_its_json_and_leaves_nothing_on_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    args = ["match", "--games", "2", "--bots", "random,random", "--no-progress"]
    assert cli.main([*args, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["games"] == 2
    capsys.readouterr()
    # A bad bot fails after the path check: no empty file is left behind.
    other = tmp_path / "s.json"
    assert cli.main(["match", "--bots", "random,nonsense", "--json", str(other)]) == 2
    assert not other.exists()


def test_bench_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--games", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "splendor bench: error: argument --games: must be between 1 and 10000000, got 0"
        " (see 'splendor bench --help')\n"
    )


def test_no_subcommand_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "required: command" in err


def test_the_serve_commands_per_client_defaults_are_the_servers() -> None:
    import dataclasses

    from splendor.cli.serve import ServerLimitsDefaults
    from splendor.web import ServerLimits

    for field in dataclasses.fields(ServerLimitsDefaults):
        assert getattr(ServerLimitsDefaults(), field.name) == getattr(ServerLimits(), field.name)
