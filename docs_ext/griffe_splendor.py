"""A griffe extension for the documentation site (mkdocs.yml loads it).

Two fixes so the docstrings, written for ``help()`` and type checkers, render in
mkdocstrings:

- the compiled classes of ``_core.pyi`` declare ``__new__`` and no ``__init__``;
  griffe reads a class's signature (and checks its ``Args:`` section) from
  ``__init__`` only, so each such class gets an ``__init__`` with the parameters
  of its ``__new__``;
- a stub's ``@overload`` functions with no implementation (``new_game``) are kept
  by griffe as overloads of nothing; the last one (the general signature, which
  carries the docstring) becomes the function, the others its overloads;
- Sphinx roles (``:class:`X```, ``:func:`f```) become plain code (`` `X` ``), and a
  reST literal-block marker ``::`` at the end of a line a single colon (the
  indented block after it is a Markdown code block already).
"""

from __future__ import annotations

import ast
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`~?([^`]+)`")
_LITERAL_MARKER = re.compile(r"(\S)::$", re.MULTILINE)


def markdown_docstring(text: str) -> str:
    """The docstring ``text`` with its Sphinx roles and ``::`` markers made Markdown.

    >>> markdown_docstring("See :class:`splendor.Board`::")
    'See ``splendor.Board``:'
    """
    return _fence_doctests(_LITERAL_MARKER.sub(r"\1:", _ROLE.sub(r"``\1``", text)))


def _fence_doctests(text: str) -> str:
    r"""Fences each paragraph that starts with ``>>>`` as ``pycon`` code.

    >>> _fence_doctests("Add:\n\n>>> 1 + 1\n2\n\nDone.").splitlines()
    ['Add:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    indent: str | None = None  # the open fence's indentation, None outside one
    previous = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        elif indent is None and stripped.startswith(">>>") and not previous.strip():
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        out.append(line)
        previous = line
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class SplendorDocstrings(griffe.Extension):
    """Fixes ``__new__``-only classes and Sphinx roles as the objects are loaded."""

    def on_instance(
        self,
        *,
        node: ast.AST | griffe.ObjectNode,
        obj: griffe.Object,
        agent: griffe.Visitor | griffe.Inspector,
        **kwargs: Any,
    ) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)

    def on_module_members(
        self,
        *,
        node: ast.AST | griffe.ObjectNode,
        mod: griffe.Module,
        agent: griffe.Visitor | griffe.Inspector,
        **kwargs: Any,
    ) -> None:
        _promote_overloads(mod)

    def on_class_members(
        self,
        *,
        node: ast.AST | griffe.ObjectNode,
        cls: griffe.Class,
        agent: griffe.Visitor | griffe.Inspector,
        **kwargs: Any,
    ) -> None:
        _promote_overloads(cls)
        new = cls.members.get("__new__")
        if "__init__" in cls.members or not isinstance(new, griffe.Function):
            return
        params = list(new.parameters)
        if params and params[0].name == "cls":
            params[0] = griffe.Parameter("self", kind=params[0].kind)
        variadic = {griffe.ParameterKind.var_positional, griffe.ParameterKind.var_keyword}
        if all(param.kind in variadic for param in params[1:]):
            return  # no constructor (the state classes): no signature to show
        init = griffe.Function(
            "__init__",
            parameters=griffe.Parameters(*params),
            returns="None",
            lineno=new.lineno,
            endlineno=new.endlineno,
        )
        cls.set_member("__init__", init)


def _promote_overloads(obj: griffe.Module | griffe.Class) -> None:
    for name, overloads in list(obj.overloads.items()):
        if name in obj.members or not overloads:
            continue
        *others, general = overloads
        general.overloads = others
        obj.set_member(name, general)
        del obj.overloads[name]
