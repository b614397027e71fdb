"""Every public function, method and constructor of ``splendor._core``, called with a
matrix of bad arguments, either succeeds (where the value is a documented one) or
raises a :class:`splendor.SplendorError` subclass: never ``TypeError``,
``OverflowError``, ``UnicodeEncodeError``, ``RuntimeError``, a panic or a crash. A
state method that raises leaves the state unchanged.

The calls are found by introspection (``_core.__all__``, the classes' public methods
and their text signatures), so a new binding is fuzzed without being listed here."""

from __future__ import annotations

import ast
import contextlib
import inspect
import math
import re
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import splendor
from splendor import _core
from splendor.errors import SplendorError


class Weird:
    """An object whose conversions all fail in unusual ways."""

    def __index__(self) -> int:
        raise ZeroDivisionError("no index")

    def __float__(self) -> float:
        raise ArithmeticError("no float")

    def __str__(self) -> str:
        raise ValueError("no str")

    def __repr__(self) -> str:
        raise ValueError("no repr")

    def __iter__(self) -> Iterator[int]:
        raise LookupError("no iter")


class HugeIndex:
    def __index__(self) -> int:
        return 2**80


BAD: list[Any] = [
    2**64,
    2**64 - 1,
    -1,
    -(2**70),
    10**30,
    1.5,
    -0.0,
    math.nan,
    math.inf,
    -math.inf,
    1e-320,
    1e308,
    None,
    True,
    "",
    "zz",
    "take \ud800",
    "\ud800",
    "\x00",
    b"x",
    bytearray(b"0"),
    [1],
    (0,),
    {},
    {1, 2},
    object(),
    Weird(),
    HugeIndex(),
    np.int64(-1),
    np.float64(np.nan),
    np.array([1, 2]),
    splendor.Action("base", 0),
]


def _state(variant: str) -> Any:
    s = splendor.new_game(variant, seed=3)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    return s


_PAYLOADS: dict[tuple[str, str], Any] = {}


def _payload(kind: str, variant: str) -> Any:
    if (kind, variant) not in _PAYLOADS:
        if kind == "search":
            result: Any = splendor.search(_state(variant), iterations=8)
        else:
            result = splendor.match(["random"], variant=variant, games=2)
        _PAYLOADS[kind, variant] = result.__reduce__()[1][0]
    return _PAYLOADS[kind, variant]


def _network_bytes(variant: str) -> bytes:
    """A small random network file for ``variant`` (2 players)."""
    from test_network import encode, random_tensors

    return encode(*random_tensors(variant, 2, (8,), seed=1))


def _network_path(variant: str) -> str:
    path = Path(__file__).parent / ".." / "target" / f"bad-arguments-{variant}.safetensors"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_network_bytes(variant))
    return str(path)


def _valid(param: inspect.Parameter, variant: str, owner: str) -> Any:
    """A good value for a parameter, by name (what the other arguments hold).

    Where the table holds None but the signature's default is another value,
    the call may refuse None (``players=None`` of ``match``): the default then,
    so that every call gets past its other arguments to the one under test."""
    value = _by_name(param.name, variant, owner)
    if value is None and param.default not in (None, inspect.Parameter.empty):
        return param.default
    return value


def _by_name(name: str, variant: str, owner: str) -> Any:
    state = _state(variant)
    if owner.endswith("__setstate__"):
        return 7
    table: dict[str, Any] = {
        "state": state,
        "text": (
            state.to_json()
            if "from_json" in owner
            else "mcts:8"
            if "BotSpec" in owner or "bot_spec" in owner
            else str(state.legal_actions()[0])
        ),
        "action": str(state.legal_actions()[0]),
        "player": 0,
        "seed": 1,
        "id": 0,
        "variant": variant,
        "n": 2,
        "players": None,
        "turn_cap": None,
        "cards": None,
        "locations": None,
        "bots": ["random"],
        "games": 2,
        "first_game": 0,
        "threads": 1,
        "progress": None,
        "iterations": 8,
        "time_limit": None,
        "max_nodes": 1000,
        "rollout_depth": 8,
        "exploration": 0.7,
        "prior_temperature": 0.02,
        "network": None,
        "leaf_batch": 1,
        "root_action": None,
        "stop": None,
        "move_temperature": 0.0,
        "fpu_reduction": 0.0,
        "policy_temperature": 1.0,
        "early_stop": 0.0,
        "path": _network_path(variant) if name == "path" else None,
        "data": _network_bytes(variant) if name == "data" else None,
        "observation": state.observation(0),
        "num_envs": 2,
        "actions": splendor.VectorEnv(variant, 2).action_mask.argmax(axis=1),
        "opponents": None,
        "normalize": False,
        "i": 0,
        "game_ids": [0],
        "on_game": lambda record: None,
        "temperature_moves": 2,
        "noise_alpha": None,
        "noise_epsilon": 0.25,
        "fast_iterations": 0,
        "full_search_fraction": 0.25,
        "winners": [0],
        "reason": "points",
        "num_players": 2,
        "_memo": {},
        "value": 0,
    }
    if name == "payload":
        return _payload("search" if "search" in owner else "match", variant)
    return table[name]


def _callables(variant: str) -> Iterator[tuple[str, Callable[..., Any], Any]]:
    """``(label, callable, state it may change or None)`` for the whole public surface."""
    for name in _core.__all__:
        obj = getattr(_core, name)
        if not callable(obj):
            continue
        yield name, obj, None
        if not inspect.isclass(obj):
            continue
        yield from _methods(name, obj, variant)


def _instances(name: str, variant: str) -> list[Any]:
    state = _state(variant)
    return {
        "BaseState": [state] if variant == "base" else [],
        "DuelState": [state] if variant == "duel" else [],
        "MarvelState": [state] if variant == "marvel" else [],
        "Action": [state.legal_actions()[0]],
        "Outcome": [splendor.Outcome([0], "points", 2)],
        "RandomBot": [splendor.RandomBot()],
        "GreedyBot": [splendor.GreedyBot()],
        "MctsBot": [splendor.MctsBot(iterations=8)],
        "SearchResult": [splendor.search(state, iterations=8)],
        "MatchResult": [splendor.match(["random"], games=2)],
        "Network": [splendor.Network.from_bytes(_network_bytes(variant))],
        "VectorEnv": [splendor.VectorEnv(variant, 2)],
        "BotSpec": [splendor.parse_bot_spec("net:8@model.safetensors")],
    }[name]


def _methods(name: str, cls: type, variant: str) -> Iterator[tuple[str, Callable[..., Any], Any]]:
    extra = ("__eq__", "__deepcopy__", "__setstate__")
    for attr in sorted(vars(cls)):
        if attr.startswith("_") and attr not in extra:
            continue
        member = getattr(cls, attr)
        if isinstance(member, staticmethod) or (
            callable(member) and getattr(member, "__self__", None) is cls
        ):
            yield f"{name}.{attr}", member, None
            continue
        if not callable(member):
            continue
        for instance in _instances(name, variant):
            yield f"{name}.{attr}", getattr(instance, attr), instance


def _parameters(fn: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    return [
        p
        for p in params
        if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]


def _call(fn: Callable[..., Any], params: list[inspect.Parameter], args: dict[str, Any]) -> Any:
    positional = [
        args[p.name]
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name in args
    ]
    keywords = {p.name: args[p.name] for p in params if p.kind == p.KEYWORD_ONLY}
    return fn(*positional, **keywords)


def _json(owner: Any) -> str | None:
    to_json = getattr(owner, "to_json", None)
    return to_json() if callable(to_json) and hasattr(owner, "legal_actions") else None


class TookTooLong(Exception):
    """Raised by the alarm in a call that a valid but huge value made long."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raises TookTooLong in the call if it runs past ``seconds``.

    A valid budget can be huge (``iterations=2**64 - 1``): such a call must stop
    when a signal handler raises, as it does on Ctrl-C, and that is a success here.
    """

    def ring(signum: int, frame: object) -> None:
        raise TookTooLong

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_every_bad_argument_is_a_splendor_error(variant: str) -> None:
    failures: list[str] = []
    long_calls: set[str] = set()
    calls = 0
    for label, fn, owner in _callables(variant):
        params = _parameters(fn)
        for target in params:
            for bad in BAD:
                args = {p.name: _valid(p, variant, label) for p in params}
                args[target.name] = bad
                before = _json(owner)
                calls += 1
                try:
                    with _alarm(2.0):
                        _call(fn, params, args)
                except SplendorError:
                    if owner is not None and _json(owner) != before:
                        failures.append(f"{label}({target.name}={bad!r}) changed the state")
                except TookTooLong:
                    long_calls.add(f"{label}({target.name})")
                except BaseException as exc:
                    failures.append(
                        f"{label}({target.name}={_safe(bad)}): {type(exc).__name__}: {_safe(exc)}"
                    )
    assert calls > 1000
    # Only the budgets may run long, and only on a valid huge value.
    assert long_calls <= {
        "search(iterations)",
        "random_games(n)",
        "match(games)",
    }, long_calls
    assert not failures, f"{len(failures)} calls raised outside SplendorError:\n" + "\n".join(
        failures[:60]
    )


def _safe(x: object) -> str:
    try:
        return repr(x)[:80]
    except Exception:
        return f"<{type(x).__name__}>"


def test_classes_without_a_constructor_say_where_instances_come_from() -> None:
    for cls, hint in [
        (splendor.BaseState, "new_game"),
        (splendor.DuelState, "from_json"),
        (splendor.MarvelState, "new_game"),
        (splendor.SearchResult, "search"),
        (splendor.MatchResult, "match"),
        (splendor.Network, "load"),
    ]:
        with pytest.raises(splendor.ConfigError, match=hint):
            cls()
        with pytest.raises(splendor.ConfigError):
            cls(1, x=2)


def test_one_mcts_bot_from_many_threads() -> None:
    bot = splendor.MctsBot(iterations=400, threads=2, seed=1)
    states = [_state(v) for v in splendor.VARIANTS]
    errors: list[BaseException] = []
    moves: list[Any] = []

    def play() -> None:
        try:
            for s in states:
                a = bot.act(s)
                assert a in s.legal_actions()
                moves.append(a)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(moves) == 6 * len(states)
    # The bot drew one seed per move from its stream, whatever the interleaving:
    # a copy of its original self, after as many moves, plays on the same.
    again = splendor.MctsBot(iterations=400, threads=2, seed=1)
    for _ in range(6):
        for s in states:
            again.act(s)
    assert [again.act(s) for s in states] == [bot.act(s) for s in states]


def test_quick_bots_from_many_threads() -> None:
    for bot in (splendor.RandomBot(seed=2), splendor.GreedyBot(seed=2)):
        states = [_state(v) for v in splendor.VARIANTS] * 20
        errors: list[BaseException] = []

        def play(b: Any = bot, ss: list[Any] = states, errs: list[BaseException] = errors) -> None:
            try:
                for s in ss:
                    b.act(s)
            except BaseException as exc:
                errs.append(exc)

        threads = [threading.Thread(target=play) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors


def test_time_limit_zero_runs_the_least_search() -> None:
    # Documented: the clock is read every 8 iterations, so 8 per thread.
    for variant in splendor.VARIANTS:
        s = _state(variant)
        for threads in (1, 2):
            r = splendor.search(s, time_limit=0, threads=threads)
            assert r.iterations == 8 * threads
            assert r.action in s.legal_actions()
        assert splendor.MctsBot(time_limit=0).act(s) in s.legal_actions()
        # With an iteration budget too, the first budget reached stops it.
        assert splendor.search(s, time_limit=0, iterations=3).iterations == 3


def test_a_prior_temperature_that_underflows_is_the_greedy_limit() -> None:
    # Documented: below about 3e-39 the softmax's limit, all the prior on the
    # best move(s); the same search as any tiny temperature, and sound numbers.
    for variant in splendor.VARIANTS:
        s = _state(variant)
        tiny = splendor.search(s, iterations=400, seed=5, prior_temperature=1e-320)
        small = splendor.search(s, iterations=400, seed=5, prior_temperature=1e-30)
        assert tiny.visits == small.visits and tiny.values == small.values
        assert all(math.isfinite(v) and 0 <= v <= 1 for v in tiny.values.values())
        assert sum(tiny.visits.values()) > 0
    with pytest.raises(splendor.ConfigError, match="prior_temperature"):
        splendor.search(_state("base"), prior_temperature=0.0)
    with pytest.raises(splendor.ConfigError, match="prior_temperature"):
        splendor.MctsBot(prior_temperature=-1e-320)


ROOT = Path(__file__).resolve().parent.parent
# Range notations other than "between LO and HI": `0..4`, `1..=256`, `{lo}..{hi}`,
# `[0, 1]`, `2^31`, `2 to 4`, `2, 3 or 4`.
_OTHER_RANGE = re.compile(
    r"(?<![.\w])[\w}\])]+\.\.=?[\w{(\[-]+"
    r"|\[\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\]"
    r"|\b\d+\s*\^\s*\d+"
    r"|\b\d+ to \d+\b"
    r"|\b\d+, \d+ or \d+\b"
)
_RUST_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _rust_messages() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "src").rglob("*.rs")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.strip()
            if code.startswith(("//", "#[doc", "#[pyo3(")) or "text_signature" in code:
                continue
            for m in _RUST_STRING.finditer(line):
                yield f"{path.relative_to(ROOT)}:{n}", m.group(0)


def _python_messages() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "python" / "splendor").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (
                isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
            ):
                skip.add(id(body[0].value))  # a docstring, not a message
            if isinstance(node, ast.JoinedStr):
                skip.update(id(v) for v in node.values)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
                text = "".join(str(p) for p in parts)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in skip:
                    continue
                text = node.value
            else:
                continue
            yield f"{path.relative_to(ROOT)}:{node.lineno}", str(text)


def test_ranges_are_written_one_way() -> None:
    # Every message of both engines writes a range "between LO and HI" (both ends
    # included): a reader never has to guess whether `0..4` includes the 4.
    found = [
        f"{where}: {text}"
        for where, text in [*_rust_messages(), *_python_messages()]
        if _OTHER_RANGE.search(text)
    ]
    assert not found, "\n".join(found)
    state = splendor.new_game("base")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: state.apply(10**6), "action id must be between 0 and 328, got 1000000"),
        (lambda: state.to_json(5), "player must be between 0 and 1, got 5"),
        (lambda: splendor.new_game("duel", turn_cap=0), "turn_cap must be between 1 and"),
        (lambda: splendor.MctsBot(threads=300), "threads must be between 1 and 256, got 300"),
        (lambda: splendor.new_game("marvel", players=9), "players must be between 2 and 4"),
    ]
    for call, engine_message in cases:
        with pytest.raises(SplendorError) as info:
            call()
        assert engine_message in str(info.value)


def _public_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    """The module-level functions of ``splendor`` and ``splendor.envs`` (not classes)."""
    import splendor.envs

    for module in (splendor, splendor.envs):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not inspect.isclass(obj):
                yield f"{module.__name__}.{name}", obj


def test_calls_that_do_not_fit_the_signature_are_config_errors() -> None:
    """Too many positional arguments, an unknown keyword, a missing argument, wrong values
    in the right places: ``ConfigError`` (or another SplendorError), never ``TypeError`` or
    ``AttributeError``, for every module-level function."""
    failures: list[str] = []
    calls = 0
    for label, fn in _public_functions():
        params = _parameters(fn)
        if not params:
            # A function without arguments (variant_info()): any argument is refused.
            for args, kwargs in [(("base",), {}), ((), {"no_such_option": 1}), ((None, 1), {})]:
                calls += 1
                try:
                    fn(*args, **kwargs)
                except SplendorError:
                    continue
                except BaseException as exc:
                    failures.append(f"{label}{args}{kwargs}: {type(exc).__name__}: {exc}")
                else:
                    failures.append(f"{label}{args}{kwargs}: accepted")
            continue
        required = [p for p in params if p.default is p.empty]
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        tries: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
            ((), {}) if required else ((), {"no_such_option": 1}),
            (tuple(["base"] * (len(positional) + 1)), {}),
            (tuple(["base"] * (len(positional) + 2)), {}),
            (tuple(["base"] * len(required)), {"no_such_option": 1}),
        ]
        for p in params:
            if p.kind is p.KEYWORD_ONLY:
                # A keyword-only argument given positionally (`new_game("base", 2)`).
                tries.append((("base", *(BAD[0],) * len(positional)), {}))
        for bad in BAD:
            tries.append(((bad,) * max(len(required), 1), {}))
        for args, kwargs in tries:
            calls += 1
            try:
                with _alarm(2.0):
                    fn(*args, **kwargs)
            except (SplendorError, TookTooLong):
                pass
            except BaseException as exc:
                failures.append(
                    f"{label}(*{_safe(args)}, **{kwargs}): {type(exc).__name__}: {_safe(exc)}"
                )
    assert calls > 200
    assert not failures, "\n".join(failures)


def test_a_call_that_does_not_fit_names_the_signature() -> None:
    with pytest.raises(splendor.ConfigError, match=r"it is called as match\(bots, \*, variant="):
        splendor.match("base", ["random"])  # type: ignore[arg-type,call-arg]
    with pytest.raises(splendor.ConfigError, match="unexpected keyword argument 'player'"):
        splendor.new_game("base", player=3)  # type: ignore[call-overload]
    with pytest.raises(splendor.ConfigError, match="missing a required argument: 'variant'"):
        splendor.random_games()  # type: ignore[call-arg]


def _core_classes() -> Iterator[tuple[str, type]]:
    """The public classes of ``splendor`` that the engine defines (not the errors, not the
    pure-Python ``ObservationSpec`` and ``GameState``)."""
    for name in splendor.__all__:
        obj = getattr(splendor, name)
        if inspect.isclass(obj) and obj.__module__ == "splendor._core":
            yield name, obj


def _arity_mistakes(fn: Callable[..., Any]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Calls that do not fit ``fn``'s signature, whatever the values: one positional
    argument too many, an unknown keyword, a required argument left out, a value given
    both positionally and by keyword."""
    params = _parameters(fn)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    tries: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((0,) * (len(positional) + 1), {}),
        ((), {"no_such_option": 1}),
    ]
    if any(p.default is p.empty for p in params):
        tries.append(((), {}))
    if positional:
        tries.append(((0,), {positional[0].name: 0}))
    return tries


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_classes_called_with_arguments_they_do_not_take_raise_config_error(variant: str) -> None:
    """README: every bad argument raises the library's errors, never TypeError: so do the
    classes' constructors and public methods (``VectorEnv("base", 2, 2)``, ``MctsBot(1, 2,
    3)``, ``Network.load()``, ``state.apply()``, ``state.legal_actions(1)``), each naming
    the signature. PyO3 raises TypeError for these unless the binding binds its own
    arguments (``args::bind``)."""
    failures: list[str] = []
    calls = 0
    for name, cls in _core_classes():
        targets: list[tuple[str, Callable[..., Any]]] = [(name, cls)]
        for attr in sorted(vars(cls)):
            member = getattr(cls, attr)
            if attr.startswith("_") or not callable(member):
                continue
            if isinstance(vars(cls)[attr], staticmethod):
                targets.append((f"{name}.{attr}", member))
            else:
                targets += [(f"{name}.{attr}", getattr(x, attr)) for x in _instances(name, variant)]
        for label, fn in targets:
            for args, kwargs in _arity_mistakes(fn):
                calls += 1
                try:
                    fn(*args, **kwargs)
                except splendor.ConfigError as exc:
                    no_constructor = fn is cls and "constructor" in str(exc)
                    if not no_constructor and "it is called as" not in str(exc):
                        failures.append(f"{label}(*{args}, **{kwargs}): {exc}: names no signature")
                except BaseException as exc:
                    failures.append(f"{label}(*{args}, **{kwargs}): {type(exc).__name__}: {exc}")
                else:
                    failures.append(f"{label}(*{args}, **{kwargs}): no error")
    assert calls > 100
    assert not failures, f"{len(failures)} calls that do not fit:\n" + "\n".join(failures)


def test_a_method_call_that_does_not_fit_names_the_signature() -> None:
    state = splendor.new_game("base")
    with pytest.raises(
        splendor.ConfigError, match=r"it is called as VectorEnv\(variant, num_envs, \*, players=2"
    ):
        splendor.VectorEnv("base", 2, 2)  # type: ignore[call-arg]
    with pytest.raises(splendor.ConfigError, match=r"missing a required argument: 'path'"):
        splendor.Network.load()  # type: ignore[call-arg]
    with pytest.raises(
        splendor.ConfigError, match=r"BaseState.apply\(\): missing a required argument: 'action'"
    ):
        state.apply()  # type: ignore[call-arg]
    with pytest.raises(
        splendor.ConfigError, match=r"BaseState.legal_actions\(\): too many positional"
    ):
        state.legal_actions(1)  # type: ignore[call-arg]
    with pytest.raises(splendor.ConfigError, match=r"seed: by keyword, e.g. seed=\.\.\."):
        state.determinize(0, 1)  # type: ignore[call-arg]
    with pytest.raises(splendor.ConfigError, match=r"MctsBot\(\): too many positional"):
        splendor.MctsBot(*range(15))
    with pytest.raises(splendor.ConfigError, match=r"unexpected keyword argument 'iteration'"):
        splendor.MctsBot(iteration=5)  # type: ignore[call-arg]
    with pytest.raises(splendor.ConfigError, match=r"multiple values for argument 'seed'"):
        splendor.RandomBot(1, seed=2)  # type: ignore[misc]
    # A good call is unchanged, by position or by keyword.
    assert state.child(action=0) == state.child(0)
    assert splendor.MctsBot(8, seed=3).iterations == 8


def _own_public_methods(
    cls: type, instances: list[Any]
) -> Iterator[tuple[str, Callable[..., Any]]]:
    """The public methods ``cls`` itself defines: static and class methods from the class,
    the others bound to each of ``instances``."""
    for attr in sorted(vars(cls)):
        raw = vars(cls)[attr]
        if attr.startswith("_") or isinstance(raw, property) or not callable(getattr(cls, attr)):
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            yield f"{cls.__name__}.{attr}", getattr(cls, attr)
        else:
            yield from ((f"{cls.__name__}.{attr}", getattr(x, attr)) for x in instances)


def _reference_targets(variant: str) -> Iterator[tuple[str, Callable[..., Any]]]:
    """The reference engine's functions, and its state class's public methods: those the
    Rust state class has (the contract's surface), inherited or not."""
    import splendor.reference as ref

    for name in ref.__all__:
        obj = getattr(ref, name)
        if callable(obj) and not inspect.isclass(obj):
            yield f"reference.{name}", obj
    state = ref.new_game(variant, seed=3)
    rust = type(splendor.new_game(variant))
    cls = type(state)
    for attr in sorted(dir(rust)):
        if attr.startswith("_") or not callable(getattr(rust, attr)):
            continue
        assert hasattr(cls, attr), f"reference {cls.__name__} has no {attr}"
        raw = inspect.getattr_static(cls, attr)
        if isinstance(raw, (staticmethod, classmethod)):
            yield f"reference.{cls.__name__}.{attr}", getattr(cls, attr)
        else:
            yield f"reference.{cls.__name__}.{attr}", getattr(state, attr)


def _module_functions(module_name: str) -> Iterator[tuple[str, Callable[..., Any]]]:
    """The public functions (not classes) of an adapter module."""
    import importlib

    module = importlib.import_module(module_name)
    for name in module.__all__:
        obj = getattr(module, name)
        if callable(obj) and not inspect.isclass(obj):
            yield f"{module_name}.{name}", obj


def _python_class_targets(variant: str) -> Iterator[tuple[str, Callable[..., Any]]]:
    """``ObservationSpec`` and the env adapters (where their extras are installed): each
    constructor and the public methods the class defines."""
    spec = splendor.observation_spec(variant)
    yield "ObservationSpec", splendor.ObservationSpec
    yield from _own_public_methods(splendor.ObservationSpec, [spec])
    with contextlib.suppress(ImportError):
        from splendor.envs.gymnasium import SplendorEnv, SplendorVectorEnv

        env = SplendorEnv(variant)
        env.reset(seed=1)
        vector = SplendorVectorEnv(variant, 2)
        vector.reset(seed=1)
        envs: list[tuple[type, Any]] = [(SplendorEnv, env), (SplendorVectorEnv, vector)]
        for cls, instance in envs:
            yield cls.__name__, cls
            yield from _own_public_methods(cls, [instance])
        yield from _module_functions("splendor.envs.gymnasium")
    with contextlib.suppress(ImportError):
        from splendor.envs.pettingzoo import env as aec_env
        from splendor.envs.pettingzoo import raw_env

        aec = raw_env(variant)
        aec.reset(seed=1)
        yield "raw_env", raw_env
        yield from _own_public_methods(raw_env, [aec])
        yield from _module_functions("splendor.envs.pettingzoo")
        # What env() returns: PettingZoo's order-enforcing wrapper, outermost.
        wrapped = aec_env(variant)
        wrapped.reset(seed=1)
        for attr in ("reset", "step", "observe", "state", "render", "agent_iter"):
            yield f"env().{attr}", getattr(wrapped, attr)
    with contextlib.suppress(ImportError):
        import pyspiel
        from splendor.envs.openspiel import SplendorGame, SplendorObserver, SplendorState

        game = pyspiel.load_game(f"python_splendor_{variant}")
        game_state = game.new_initial_state()
        observer = game.make_py_observer()
        games: list[tuple[type, Any]] = [
            (SplendorGame, game),
            (SplendorState, game_state),
            (SplendorObserver, observer),
        ]
        for cls, instance in games:
            yield cls.__name__, cls
            yield from _own_public_methods(cls, [instance])


@pytest.mark.parametrize("variant", splendor.VARIANTS)
def test_python_classes_called_with_arguments_they_do_not_take_raise_config_error(
    variant: str,
) -> None:
    """The same promise for the pure-Python surface: the reference engine
    (``splendor.reference.new_game("base", 2)``, ``state.apply()``, ``state.child(1, 2)``),
    ``ObservationSpec(...)`` and the Gymnasium, PettingZoo and OpenSpiel adapters'
    constructors, methods and module functions (and the methods of what
    ``splendor.envs.pettingzoo.env()`` returns) raise ConfigError naming the signature,
    never TypeError."""
    failures: list[str] = []
    calls = 0
    labels: set[str] = set()
    for label, fn in [*_reference_targets(variant), *_python_class_targets(variant)]:
        labels.add(label)
        for args, kwargs in _arity_mistakes(fn):
            calls += 1
            try:
                fn(*args, **kwargs)
            except splendor.ConfigError as exc:
                if "it is called as" not in str(exc):
                    failures.append(f"{label}(*{args}, **{kwargs}): {exc}: names no signature")
            except BaseException as exc:
                failures.append(f"{label}(*{args}, **{kwargs}): {type(exc).__name__}: {exc}")
            else:
                failures.append(f"{label}(*{args}, **{kwargs}): no error")
    assert {"reference.new_game", "ObservationSpec", "ObservationSpec.offset"} <= labels
    assert any(label.endswith(".apply") for label in labels)
    assert calls > 100
    assert not failures, f"{len(failures)} calls that do not fit:\n" + "\n".join(failures)


def test_a_reference_call_that_does_not_fit_names_the_signature_as_the_engine_does() -> None:
    import splendor.reference as ref

    fast, slow = splendor.new_game("base"), ref.new_game("base")
    calls: list[Callable[[Any], object]] = [
        lambda m: m.apply(),
        lambda m: m.child(1, 2),
        lambda m: m.legal_actions(1),
        lambda m: m.determinize(0, 1),
        lambda m: m.action_from_id(),
        lambda m: type(m).from_json(),
    ]
    for call in calls:
        with pytest.raises(splendor.ConfigError) as rust:
            call(fast)
        with pytest.raises(splendor.ConfigError) as python:
            call(slow)
        assert str(python.value) == str(rust.value)
    with pytest.raises(splendor.ConfigError, match=r"it is called as new_game\(variant, \*"):
        ref.new_game("base", 2)  # type: ignore[call-overload]
    # A good call is unchanged, by position or by keyword.
    assert slow.child(action=0) == slow.child(0)
    assert slow.action_from_id(id=3) == slow.action_from_id(3)


def test_wrapped_methods_keep_their_signatures() -> None:
    import splendor.reference as ref

    state = ref.new_game("base")
    assert str(inspect.signature(state.apply)) == "(action: 'Action | int | str') -> 'None'"
    assert list(inspect.signature(splendor.ObservationSpec).parameters)[:2] == [
        "variant",
        "players",
    ]
    gymnasium = pytest.importorskip("splendor.envs.gymnasium")
    assert list(inspect.signature(gymnasium.SplendorEnv.step).parameters) == ["self", "action"]
    assert "Plays the agent's action" in (gymnasium.SplendorEnv.step.__doc__ or "")
