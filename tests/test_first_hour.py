"""A newcomer's first hour (issue 24): what the README shows works as written, the adapters
refuse bad actions with the documented errors, and the command line says what it does."""

from __future__ import annotations

import io
import json
import pydoc
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
from splendor import cli
from splendor.errors import ConfigError, IllegalActionError, InvalidActionError

#: Action values that are not an action id at all, and ids out of range.
NOT_AN_ID: list[Any] = [1.5, 3.0, None, "x", "take wug", True, np.bool_(False), b"1", [1]]
NOT_AN_ID += [np.float32(2), np.array([1, 2]), object()]
OUT_OF_RANGE: list[Any] = [2**70, -1, -(2**70), 10**6, np.int64(2**40), np.uint64(2**63 + 5)]


# --- item 14: the README's attribute access after a plain `import splendor` ---------------


def test_submodules_load_on_first_use_and_import_splendor_stays_light() -> None:
    code = (
        "import sys, splendor\n"
        "heavy = [m for m in ('torch', 'gymnasium', 'fastapi') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "s = splendor.new_game('base', players=2, seed=1)\n"
        "print(splendor.render.text_board(s, viewer=0).splitlines()[0])\n"
        "print(splendor.selfplay.selfplay.__name__, splendor.envs.random_legal_actions.__name__)\n"
        "assert 'torch' not in sys.modules\n"
        "try:\n"
        "    splendor.no_such_thing\n"
        "except AttributeError as e:\n"
        "    print(e)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Splendor | 2 seats")
    assert lines[1] == "selfplay random_legal_actions"
    assert lines[2] == "module 'splendor' has no attribute 'no_such_thing'"


# --- item 13: bad action values in the three adapters ---------------------------------------


@pytest.mark.parametrize("mode", ["lose", "raise"])
def test_gymnasium_refuses_what_is_not_an_action_id(mode: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import splendor.envs.gymnasium  # noqa: F401

    env = gymnasium.make("splendor/Base-v0", illegal_action=mode).unwrapped
    for bad in NOT_AN_ID:
        env.reset(seed=1)
        with pytest.raises(InvalidActionError, match="an action must be an int action id"):
            env.step(bad)
        env.step(int(np.flatnonzero(env.action_masks())[0]))  # the game goes on
    for bad in OUT_OF_RANGE:
        env.reset(seed=1)
        if mode == "raise":
            with pytest.raises(InvalidActionError, match="action id must be between 0 and 328"):
                env.step(bad)
            env.step(int(np.flatnonzero(env.action_masks())[0]))
        else:
            _, reward, terminated, _, info = env.step(bad)
            assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    if mode == "raise":
        with pytest.raises(IllegalActionError):
            env.step(illegal)
    for good in (np.int64(0), np.array(0), np.uint8(0)):
        env.reset(seed=1)
        env.step(good)


def test_pettingzoo_refuses_what_is_not_an_action_id() -> None:
    pz = pytest.importorskip("splendor.envs.pettingzoo")
    for make in (pz.env, pz.raw_env):
        for bad in NOT_AN_ID + OUT_OF_RANGE:
            env = make("duel")
            env.reset(seed=1)
            with pytest.raises(InvalidActionError):
                env.step(bad)
            assert not any(env.terminations.values())
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_openspiel_refuses_what_is_not_an_action_id() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel
    import splendor.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_splendor_marvel")
    for bad in NOT_AN_ID + OUT_OF_RANGE:
        state = game.new_initial_state()
        with pytest.raises(InvalidActionError):
            state.apply_action(bad)
        assert state.history() == []
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert len(state.history()) == 1


# --- item 20: finite observation bounds, and every observation inside them ------------------


def test_observation_spaces_are_finite_and_hold_every_observation() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import splendor.envs.gymnasium as sg
    from gymnasium.utils.env_checker import check_env

    for variant in splendor.VARIANTS:
        for normalize in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # no warning on creation or check
                env = gymnasium.make(
                    sg.IDS[variant], normalize=normalize, turn_cap=40, opponent="random"
                )
                check_env(env.unwrapped)
            box = env.observation_space["observation"]
            assert np.isfinite(box.high).all() and np.isfinite(box.low).all()
            vec = sg.SplendorVectorEnv(variant, 16, normalize=normalize, turn_cap=40)
            assert vec.single_observation_space == env.observation_space
            vec.reset(seed=3)
            rng = np.random.default_rng(3)
            for _ in range(300):
                obs, *_, info = vec.step(
                    splendor.envs.random_legal_actions(vec._env.action_mask, rng)
                )
                assert box.contains(obs["observation"][0].copy())
                assert (obs["observation"] <= box.high).all()
                assert (obs["observation"] >= box.low).all()
                for final in info.get("final_obs", []):
                    if final is not None:
                        assert box.contains(final["observation"])


def test_pettingzoo_spaces_are_finite() -> None:
    pz = pytest.importorskip("splendor.envs.pettingzoo")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = pz.env("marvel", players=3, normalize=True)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in env.agent_iter(2000):
        obs, _, termination, truncation, _ = env.last()
        space = env.observation_space(agent)["observation"]
        assert np.isfinite(space.high).all() and space.contains(obs["observation"])
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# --- item 16: `splendor render` -----------------------------------------------------------


@pytest.fixture()
def game(tmp_path: Path) -> str:
    path = tmp_path / "game.json"
    path.write_text(splendor.new_game("base", players=2, seed=1).to_json())
    return str(path)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_render_refuses_a_format_it_does_not_write(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("out.png", "out.PNG", "out.jpg", "out.html"):
        code, out, err = run(["render", game, "-o", str(tmp_path / name)], capsys)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "only SVG or text" in err and not (tmp_path / name).exists()
    code, _, err = run(["render", game, "-o", str(tmp_path / "b.svg"), "--format", "text"], capsys)
    assert code == 2 and "names an SVG file, but --format is text" in err
    assert run(["render", game, "-o", str(tmp_path / "b.svg")], capsys)[0] == 0
    assert (tmp_path / "b.svg").read_text().startswith("<svg")
    assert run(["render", game, "-o", str(tmp_path / "b.TXT")], capsys)[0] == 0
    assert (tmp_path / "b.TXT").read_text().startswith("Splendor | 2 seats")


def test_render_prints_text_on_a_terminal_and_svg_into_a_pipe(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["render", game], capsys)[1].startswith("<svg")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert run(["render", game], capsys)[1].startswith("Splendor | 2 seats")
    assert run(["render", game, "--format", "svg"], capsys)[1].startswith("<svg")


def test_render_names_the_games_own_seats(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    for viewer in ("5", "2", "-1", str(10**30)):
        code, out, err = run(["render", game, "--viewer", viewer], capsys)
        assert code == 2 and out == ""
        assert err == (
            "splendor render: error: --viewer must be between 0 and 1 (this game has 2 seats),"
            f" got {viewer}\n"
        )
    assert run(["render", game, "--viewer", "1", "--format", "text"], capsys)[0] == 0


# --- item 17: the system refusing a file is exit status 1 -----------------------------------


def test_files_the_system_refuses_exit_1(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    missing = str(tmp_path / "no" / "such.json")
    cases = [
        (["match", "--games", "1", "--bots", "random", "--json", missing], "cannot write"),
        (["match", "--games", "1", "--bots", "random", "--json", str(tmp_path)], "directory"),
        (["render", missing], "cannot load"),
        (["render", game, "-o", str(tmp_path / "no" / "b.svg")], "cannot write"),
        (["play", "--bot", "random", "--load", missing], "cannot load"),
    ]
    for args, words in cases:
        code, out, err = run(args, capsys)
        assert code == 1, (args, err)
        assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
        assert out == ""
    # A file that is there but is not a game is a bad value: 2.
    (tmp_path / "text.json").write_text("not a game")
    assert run(["render", str(tmp_path / "text.json")], capsys)[0] == 2


# --- item 19: the demo, random_games, help(match) -------------------------------------------


def test_the_demo_is_paced_on_a_terminal_and_not_into_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("splendor.cli.demo.time.sleep", pauses.append)
    code, out, _ = run(["demo", "--seed", "2"], capsys)
    assert code == 0 and pauses == []  # into a pipe: no pause
    summary = out.splitlines()[-1]
    assert summary.startswith(tuple(f"{n}" for n in range(1, 10))) and " turns, " in summary
    assert "splendor play" in summary
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    run(["demo", "--seed", "2"], capsys)
    turns = int(summary.split()[0])
    assert pauses == [cli.demo.DEMO_DELAY] * (turns - 1)
    pauses.clear()
    run(["demo", "--seed", "2", "--quiet"], capsys)
    assert pauses == []
    run(["demo", "--seed", "2", "--delay", "0.25"], capsys)
    assert pauses == [0.25] * (turns - 1)
    assert run(["demo", "--delay", "-1"], capsys)[0] == 2


def test_random_games_returns_what_the_api_overview_names() -> None:
    # The README's API paragraph moved to docs/api.md (issue 26).
    api = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    totals = splendor.random_games("base", 3, seed=1)
    for key in ("games", "decisions", "turns", "truncated", "stalled", "shared", "wins"):
        assert key in totals and f"`{key}`" in api
    assert "`elapsed` (seconds)" in api and totals["elapsed"] >= 0


def test_help_of_match_reads_as_the_public_function() -> None:
    text = pydoc.render_doc(splendor.match, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    body = text.split("\n", 2)[2].strip()
    assert body.startswith("match(bots, *, variant='base', players=2, games=100"), body[:120]
    assert "_core" not in text and "Plays `games` games between `bots`" in text


def test_docs_show_the_import_that_registers_the_gymnasium_ids() -> None:
    root = Path(__file__).resolve().parent.parent
    api = (root / "docs" / "api.md").read_text(encoding="utf-8")
    shown = (
        'import gymnasium, splendor.envs.gymnasium` then\n  `gymnasium.make("splendor/Base-v0")`'
    )
    assert shown in api
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "python -m venv .venv" in readme and "download.pytorch.org/whl/cpu" in readme


def test_bad_call_messages_name_the_signature() -> None:
    with pytest.raises(ConfigError) as info:
        splendor.new_game("base", 2)  # type: ignore[call-overload]
    assert str(info.value) == (
        "new_game(): too many positional arguments (players, seed, turn_cap, cards, locations:"
        " by keyword, e.g. players=...); it is called as new_game(variant, *, players=2, seed=0,"
        " turn_cap=100, cards=None, locations=None)"
    )
    with pytest.raises(ConfigError, match=r"rng must be a numpy\.random\.Generator"):
        splendor.envs.random_legal_actions(np.ones((1, 3), bool), 7)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="mask must be a 2-D NumPy array"):
        splendor.envs.random_legal_actions("x", np.random.default_rng())  # type: ignore[arg-type]
    assert json.loads(json.dumps(splendor.observation_spec("base").names))[0]


# --- issue 39: a newcomer's friction ----------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("splendor.envs.gymnasium", "gymnasium", "rl"),
        ("splendor.envs.pettingzoo", "pettingzoo", "rl"),
        ("splendor.envs.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_an_adapter_without_its_extra_names_the_extra(
    module: str, missing: str, extra: str
) -> None:
    """Importing an RL adapter whose library is not installed says which extra to install."""
    code = f"""
import importlib.abc, sys
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {missing!r} or name.startswith({missing!r} + "."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Hide())
try:
    import {module}
except ModuleNotFoundError as exc:
    print(exc.name, "|", exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    name, _, message = out.stdout.strip().partition(" | ")
    assert name == missing
    assert f"pip install 'splendor[{extra}]'" in message and module in message


def test_a_plain_pytest_without_the_test_plugins_runs_the_suite() -> None:
    """Only pytest installed (xdist and pytest-benchmark disabled here): the configuration
    holds no option of theirs, so the run does not stop at ``unrecognized arguments``."""
    root = Path(__file__).parent.parent
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-p",
            "no:benchmark",
            "-q",
            "tests/test_view.py",
        ],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "passed" in out.stdout


def test_the_docs_copy_button_copies_runnable_code() -> None:
    """The docs' copy script takes the prompts off a ``>>>`` example and leaves its output out
    (run by node, as the browser would run it); the site loads it."""
    import shutil

    root = Path(__file__).parent.parent
    node = shutil.which("node")
    assert node, "node runs the docs' script in this test"
    session = (
        ">>> import splendor\n>>> for a in [1, 2]:\n...     print(a)\n...\n1\n2\n"
        ">>> splendor.new_game('base', seed=1).legal_actions()[:1]\n[Action(0, 'take wug')]\n"
    )
    script = (
        "const {runnable} = require(process.argv[1]);"
        "let input = ''; process.stdin.on('data', d => input += d);"
        "process.stdin.on('end', () => process.stdout.write(JSON.stringify("
        "[runnable(input), runnable('pip install splendor\\n')])));"
    )
    out = subprocess.run(
        [node, "-e", script, str(root / "docs" / "javascripts" / "copy-runnable.js")],
        input=session,
        capture_output=True,
        text=True,
        check=True,
    )
    code, shell = json.loads(out.stdout)
    assert shell is None, "a block without prompts is copied as it is"
    assert code == (
        "import splendor\nfor a in [1, 2]:\n    print(a)\n\n"
        "splendor.new_game('base', seed=1).legal_actions()[:1]\n"
    )
    exec(compile(code, "copied", "exec"), {})  # the copied text runs
    assert "javascripts/copy-runnable.js" in (root / "mkdocs.yml").read_text()
