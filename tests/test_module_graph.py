"""The Rust modules under ``src/`` form no import circle, and the ground floor
(``game``, ``explain``, ``gems`` ... what the variants build on) depends on no
variant.

Read from the source text alone (no Rust build): every ``crate::``, ``$crate::``
and ``super::`` path, ``use`` groups (``use super::{a, b}``) expanded, resolved
to the longest module it names, one module per ``.rs`` file. A parent module's
plain references to its own children (``state::X`` in ``mod.rs``) are not
paths of those forms, so a parent and its child never count as a circle.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

Module = tuple[str, ...]


def _modules(src: Path) -> dict[Module, Path]:
    """Every module by its path below the crate root (``("python", "state")``)."""
    found: dict[Module, Path] = {}
    for file in sorted(src.rglob("*.rs")):
        parts = file.relative_to(src).with_suffix("").parts
        if parts[-1] in ("mod", "lib"):
            parts = parts[:-1]
        found[parts] = file
    return found


def _code(text: str) -> str:
    """The text without comments and string literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def _expand(tree: str) -> list[str]:
    """The paths of one ``use`` tree: ``a::{b, c::{d}}`` gives ``a::b``, ``a::c::d``."""
    tree = re.sub(r"\s+", "", tree)
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rindex("}")]
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p for part in parts if part for p in _expand(prefix + part)]


def _paths(code: str) -> list[str]:
    """Every ``crate`` / ``super`` path the code names."""
    paths: list[str] = []
    for tree in re.findall(r"\buse\s+([^;]+);", code):
        paths.extend(_expand(tree))
    paths.extend(re.findall(r"(?<![\w:])\$?(?:crate|super)(?:::\w+)+", code))
    return paths


def module_graph(src: Path = SRC) -> dict[Module, set[Module]]:
    """Each module and the modules its code names."""
    modules = _modules(src)

    def resolve(path: list[str]) -> Module | None:
        for n in range(len(path), 0, -1):
            if tuple(path[:n]) in modules:
                return tuple(path[:n])
        return None

    graph: dict[Module, set[Module]] = {}
    for module, file in modules.items():
        deps: set[Module] = set()
        for path in _paths(_code(file.read_text(encoding="utf-8"))):
            segments = path.lstrip("$").split("::")
            if segments[0] == "crate":
                target = resolve(segments[1:])
            elif segments[0] == "super":
                ups = 0
                while ups < len(segments) and segments[ups] == "super":
                    ups += 1
                # Each `super` is one module up from the module this file is.
                base = list(module[: len(module) - ups]) if ups <= len(module) else []
                target = resolve(base + segments[ups:])
            else:
                continue
            if target is not None and target != module:
                deps.add(target)
        graph[module] = deps
    return graph


def find_cycle(graph: dict[Module, set[Module]]) -> list[Module] | None:
    """One circle of the graph (first module repeated last), or None."""
    state: dict[Module, int] = {}  # 1: on the current path, 2: done
    path: list[Module] = []

    def visit(m: Module) -> list[Module] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return [*path[path.index(d) :], d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def _reach(graph: dict[Module, set[Module]], start: Module) -> set[Module]:
    seen: set[Module] = set()
    todo = [start]
    while todo:
        for d in graph.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def _variant(m: Module) -> str | None:
    """``base`` for ``variants::base::...``; None outside a variant."""
    return m[1] if len(m) >= 2 and m[0] == "variants" else None


def _names(ms: list[Module]) -> str:
    return " -> ".join("::".join(m) for m in ms)


def test_the_parser_sees_the_known_edges() -> None:
    graph = module_graph()
    assert ("game",) in graph[("variants", "base", "state")] | graph[("variants", "base")]
    assert ("python", "errors") in graph[("python", "state")]
    assert ("explain",) in graph[("variants", "marvel", "explain")]


def test_no_import_circle() -> None:
    cycle = find_cycle(module_graph())
    assert cycle is None, f"import circle: {_names(cycle or [])}"


def _top(m: Module) -> Module:
    """The top-level module of ``m`` (each variant counts as one: ``variants::base``)."""
    return m[:2] if _variant(m) else m[:1]


def test_no_circle_among_the_top_level_modules() -> None:
    """``env``, ``nn``, ``search``, ``game`` ... each taken whole also form no circle."""
    top: dict[Module, set[Module]] = {}
    for m, deps in module_graph().items():
        top.setdefault(_top(m), set()).update(_top(d) for d in deps if _top(d) != _top(m))
    cycle = find_cycle(top)
    assert cycle is None, f"import circle: {_names(cycle or [])}"


def test_the_ground_floor_depends_on_no_variant() -> None:
    """What a variant builds on (outside ``variants/``) reaches no variant, and
    no variant builds on another."""
    graph = module_graph()
    variant_modules = [m for m in graph if _variant(m)]
    ground = {d for m in variant_modules for d in _reach(graph, m) if d[0] != "variants"}
    assert ground, "the variants build on nothing? the parser is broken"
    for m in sorted(ground):
        bad = sorted(d for d in _reach(graph, m) if _variant(d))
        assert not bad, f"{_names([m])} (a variant builds on it) reaches {_names(bad)}"
    for m in variant_modules:
        other = sorted(d for d in graph[m] if _variant(d) not in (None, _variant(m)))
        assert not other, f"{_names([m])} uses another variant: {_names(other)}"


def test_the_checks_catch_a_circle(tmp_path: Path) -> None:
    """The old circle (game -> explain -> variants::base::actions -> game) is found."""
    (tmp_path / "variants" / "base").mkdir(parents=True)
    (tmp_path / "lib.rs").write_text("pub mod game;\npub mod explain;\npub mod variants;\n")
    (tmp_path / "game.rs").write_text("fn f() -> &str { crate::explain::NOT_EXPLAINED }\n")
    (tmp_path / "explain.rs").write_text(
        "// crate::nothing in a comment\nuse crate::variants::base::{actions::PAYMENTS};\n"
    )
    (tmp_path / "variants" / "mod.rs").write_text("pub mod base;\n")
    (tmp_path / "variants" / "base" / "mod.rs").write_text("pub mod actions;\n")
    (tmp_path / "variants" / "base" / "actions.rs").write_text(
        "use super::super::super::game::{Action, GameError};\n"
    )
    cycle = find_cycle(module_graph(tmp_path))
    assert cycle == [("explain",), ("variants", "base", "actions"), ("game",), ("explain",)]
