"""Every variant has the same rooms in both engines, and the reference engine has no import circle.

docs/contract.md (*The rooms of a variant*) lists the rooms in a table; these tests read that
table, so the page, the Rust folders ``src/variants/<v>/`` and the reference packages
``splendor/reference/<v>/`` cannot drift apart. The import graph of ``splendor.reference`` is
read from the source (every import, including those under ``TYPE_CHECKING`` and inside
functions), and each module is imported alone in a fresh interpreter.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
import splendor.reference

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "docs" / "contract.md"
RUST_VARIANTS = ROOT / "src" / "variants"
REFERENCE = Path(splendor.reference.__file__).parent
VARIANTS = ("base", "duel", "marvel")
EXTRA_ROOMS = {"duel": {"board"}}
"""Rooms of a concept only one variant has (named in the contract's text)."""


def contract_rooms() -> tuple[list[tuple[str, str]], str]:
    """The (Rust file, Python file) rows of the contract's rooms table, and its section text."""
    text = CONTRACT.read_text()
    section = text.split("## The rooms of a variant", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+\.rs)` \| `([a-z_]+\.py)` \|", section, re.MULTILINE)
    return rows, section


def test_the_contract_lists_the_rooms() -> None:
    rows, section = contract_rooms()
    assert ("mod.rs", "__init__.py") in rows
    assert len(rows) >= 10
    for rust, python in rows:
        if rust != "mod.rs":
            assert rust.removesuffix(".rs") == python.removesuffix(".py"), (rust, python)
    for variant, extra in EXTRA_ROOMS.items():
        for room in extra:
            assert f"`{room}`" in section, f"{variant}'s own room {room} is not named"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_has_the_same_rooms_in_both_engines(variant: str) -> None:
    rows, _ = contract_rooms()
    extra = EXTRA_ROOMS.get(variant, set())
    rust = {p.name for p in (RUST_VARIANTS / variant).glob("*.rs")}
    python = {p.name for p in (REFERENCE / variant).glob("*.py")}
    assert rust == {r for r, _ in rows} | {f"{room}.rs" for room in extra}
    assert python == {p for _, p in rows} | {f"{room}.py" for room in extra}


def reference_modules() -> dict[str, Path]:
    """Every module of the ``splendor.reference`` package, by dotted name."""
    out = {}
    for path in sorted(REFERENCE.rglob("*.py")):
        parts = path.relative_to(REFERENCE.parent.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``splendor.reference`` modules that module ``name`` imports, wherever it does."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # `from pkg import name` imports the submodule pkg.name when there is one.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in known}
    return found


def test_the_reference_engine_has_no_import_circle() -> None:
    modules = reference_modules()
    known = set(modules)
    graph = {name: imported_modules(name, path, known) for name, path in modules.items()}
    # Sanity: the graph is read at all (the public class imports its rooms).
    assert "splendor.reference.base.rules" in graph["splendor.reference.base"]
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            circle = [*path[path.index(name) :], name]
            pytest.fail("import circle: " + " -> ".join(circle))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


@pytest.mark.parametrize("module", sorted(reference_modules()))
def test_each_module_imports_alone(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
