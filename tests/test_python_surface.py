"""The Python surface explains itself: docstrings at run time, exact types for mypy,
a clean namespace, objects that pickle, a progress callback that is never called
after it raised, and docs that stand alone."""

from __future__ import annotations

import copy
import importlib.metadata
import inspect
import pickle
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import splendor
import splendor.reference as ref
from splendor import _core

ROOT = Path(__file__).resolve().parent.parent


def _public_api() -> list[tuple[str, Any]]:
    """Every public function, class, method and property of ``splendor._core``."""
    found: list[tuple[str, Any]] = []
    for name in _core.__all__:
        obj = getattr(_core, name)
        if name == "VARIANTS":
            continue
        found.append((name, obj))
        if inspect.isclass(obj):
            for attr in vars(obj):
                if not attr.startswith("_") or attr in ("__new__",):
                    found.append((f"{name}.{attr}", getattr(obj, attr)))
    return found


def test_every_public_name_has_a_runtime_docstring() -> None:
    missing = [
        name for name, obj in _public_api() if not (getattr(obj, "__doc__", None) or "").strip()
    ]
    assert not missing, f"no docstring at run time: {missing}"
    # What a user sees with help() comes from the Rust doc comments.
    assert "IllegalActionError" in (splendor.BaseState.apply.__doc__ or "")
    assert "InvalidStateError" in (splendor.from_json.__doc__ or "")
    for cls in (splendor.BaseState, splendor.DuelState, splendor.MarvelState):
        assert "Plays an action in place" in (cls.apply.__doc__ or "")
        assert "seat" in (cls.observation.__doc__ or "")
    assert "KeyboardInterrupt" in (splendor.MctsBot.act.__doc__ or "")
    assert "MatchInterrupted" in (splendor.match.__doc__ or "")


def test_help_shows_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    state = splendor.new_game("duel")
    help(state.apply)
    help(splendor.search)
    out = capsys.readouterr().out
    assert "Plays an action in place" in out
    assert "Searches `state` for the player to move" in out


def test_the_namespace_is_the_public_api() -> None:
    public = {n for n in dir(splendor) if not n.startswith("_")}
    assert public == {n for n in splendor.__all__ if not n.startswith("_")}
    for leaked in ("version", "annotations", "PackageNotFoundError", "protocol"):
        assert leaked not in dir(splendor), leaked
    assert splendor.__version__ == importlib.metadata.version("splendor")
    assert "__version__" in splendor.__all__
    for name in splendor.__all__:
        assert getattr(splendor, name) is not None, name


def _bots() -> list[Any]:
    return [
        splendor.RandomBot(seed=3),
        splendor.GreedyBot(seed=4),
        splendor.MctsBot(iterations=60, seed=5, threads=2, prior_temperature=None),
    ]


@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_bots_copy_with_their_random_stream(copier: str) -> None:
    def clone(x: Any) -> Any:
        return pickle.loads(pickle.dumps(x)) if copier == "pickle" else copy.deepcopy(x)

    state = splendor.new_game("base", seed=9)
    for bot in _bots():
        for _ in range(3):
            bot.act(state)  # the stream moves on
        twin = clone(bot)
        assert type(twin) is type(bot) and repr(twin) == repr(bot)
        ours = [bot.act(s) for s in _positions()]
        theirs = [twin.act(s) for s in _positions()]
        assert ours == theirs, type(bot).__name__


def _positions() -> list[Any]:
    out = []
    for variant in splendor.VARIANTS:
        s = splendor.new_game(variant, seed=2)
        for _ in range(4):
            s.apply(s.legal_actions()[-1])
        out.append(s)
    return out


@pytest.mark.parametrize("copier", [pickle.loads, copy.deepcopy])
def test_results_round_trip(copier: Any) -> None:
    state = splendor.new_game("marvel", players=3, seed=1)
    found = splendor.search(state, iterations=300, seed=2)
    played = splendor.match(["random", "greedy"], variant="duel", games=6, seed=3)
    for original in (found, played):
        again = copier(pickle.dumps(original)) if copier is pickle.loads else copier(original)
        assert again == original and again is not original
        assert repr(again) == repr(original)
    again = pickle.loads(pickle.dumps(found))
    assert again.visits == found.visits and again.values == found.values
    assert again.action == found.action and again.nodes == found.nodes
    again = pickle.loads(pickle.dumps(played))
    assert again.to_json() == played.to_json() and again.bots == played.bots
    assert found != splendor.search(state, iterations=300, seed=3)
    # A tampered pickle is refused with a SplendorError, not a crash.
    restore, (payload,) = found.__reduce__()
    with pytest.raises(splendor.InvalidStateError):
        restore(("chess", *payload[1:]))
    with pytest.raises(splendor.InvalidStateError):
        restore((payload[0], 10**6, *payload[2:]))


def test_progress_is_never_called_after_it_raised() -> None:
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        splendor.match(["greedy", "random"], games=400, threads=4, progress=progress)
    assert calls == [1]
    with pytest.raises(splendor.ConfigError, match="callable"):
        splendor.match(["random"], games=2, progress=42)  # type: ignore[arg-type]


def test_bots_and_search_take_this_engines_states_only() -> None:
    # The stubs say BaseState | DuelState | MarvelState; at run time anything
    # else is an InvalidStateError that says how to convert a reference state.
    slow = ref.new_game("base", seed=1)
    for call in (
        lambda s: splendor.MctsBot(iterations=5).act(s),
        lambda s: splendor.RandomBot().act(s),
        lambda s: splendor.GreedyBot().act(s),
        lambda s: splendor.search(s, iterations=5),
        lambda s: splendor.random_playout(s, 1),
    ):
        with pytest.raises(splendor.InvalidStateError, match=r"from_json\(state.to_json\(\)\)"):
            call(slow)
    fast = splendor.from_json(slow.to_json())
    assert splendor.MctsBot(iterations=5).act(fast) in fast.legal_actions()


MYPY_CHECK = """
import splendor
import splendor.reference as ref

base = splendor.new_game("base")
reveal_type(base)
reveal_type(splendor.new_game("duel"))
reveal_type(splendor.new_game("marvel", cards=None))
reveal_type(splendor.from_json("{}"))
base.aply(0)
splendor.MctsBot().act(ref.new_game("base"))
splendor.search(ref.new_game("duel"))
splendor.search(base).action.text.upper()
"""


def test_mypy_knows_the_state_classes(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    path = tmp_path / "check_types.py"
    path.write_text(textwrap.dedent(MYPY_CHECK), encoding="utf-8")
    out, err, status = api.run([str(path), "--strict", "--no-error-summary"])
    assert status == 1, out + err
    lines = out.splitlines()

    def on(line: int) -> str:
        return "\n".join(x for x in lines if f"check_types.py:{line}:" in x)

    assert 'Revealed type is "splendor._core.BaseState"' in on(6)
    assert 'Revealed type is "splendor._core.DuelState"' in on(7)
    assert 'Revealed type is "splendor._core.MarvelState"' in on(8)
    assert "BaseState | splendor._core.DuelState | splendor._core.MarvelState" in on(9)
    assert '"aply"' in on(10)
    assert "arg-type" in on(11) and "arg-type" in on(12)
    assert not on(13), on(13)


# Paths a reader might follow: markdown links, and `path` spans naming a file or folder.
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_CODE_PATH = re.compile(r"`((?:\.\./|\./|/)?[\w.*-]+(?:/[\w.*-]+)*/?)`")
_OUTSIDE = re.compile(r"(?:\.\./)+[\w.-]|/work/|\bshared/")


_TOP_LEVEL = {p.name for p in ROOT.iterdir()} | {"python", "src", "docs", "tests"}


def _doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def _exists(doc: Path, target: str, kind: str) -> bool:
    """Whether ``target`` names a path inside the repository that exists."""
    bases = [doc.parent] if kind == "link" else [ROOT, doc.parent]
    if "*" in target:
        # A pattern (``python/splendor/reference/marvel*.py``): something must match.
        return any(any(base.glob(target)) for base in bases)
    for base in bases:
        resolved = (base / target).resolve()
        if (resolved == ROOT or ROOT in resolved.parents) and resolved.exists():
            return True
    return False


def test_docs_only_point_inside_the_repository() -> None:
    problems = []
    for doc in _doc_files():
        text = doc.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            where = f"{doc.relative_to(ROOT)}:{n}"
            for target in _LINK.findall(line):
                if re.match(r"^[a-z]+://", target) or target.startswith("mailto:"):
                    continue
                if not _exists(doc, target, "link"):
                    problems.append(f"{where}: link to {target}")
            for target in _CODE_PATH.findall(line):
                leaves = target.startswith(("/", "../"))
                is_file = not target.endswith("/") and "." in target.rsplit("/", 1)[-1]
                if "/" not in target.strip("/") and not leaves:
                    continue  # a plain word or file name, not a path
                if not leaves and target.split("/")[0] not in _TOP_LEVEL:
                    continue  # a file of another project, cited as a source
                # A file must be there; a folder must at least be inside the
                # repository (a spec may name the folder of a layer to come).
                if (leaves or is_file) and not _exists(doc, target, "path"):
                    problems.append(f"{where}: {target}")
            # Plain text too: nothing may send the reader outside the repository.
            for m in _OUTSIDE.finditer(line):
                if not any(m.group(0) in t for t in _LINK.findall(line)):
                    problems.append(f"{where}: {line.strip()[:80]}")
    assert not problems, "docs refer to paths outside the repository or missing:\n" + "\n".join(
        problems
    )
