"""Calls that do not fit a function's signature raise ``ConfigError``, not ``TypeError``."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from splendor.errors import ConfigError

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=type)


def typed_errors(fn: Callable[P, R], *, name: str | None = None) -> Callable[P, R]:
    """``fn``, where a call with arguments its signature does not take (too many positional
    ones, a keyword it does not know, a missing argument) raises ``ConfigError`` naming the
    signature, as every other bad argument does (README: never ``TypeError``).

    The call is made as is; only when it raises ``TypeError`` are the arguments bound to
    the signature, so a good call costs nothing more. ``help`` and ``inspect.signature``
    show ``fn``'s own (``__wrapped__``).
    """
    return _checked(fn, name or fn.__name__, hide_first=False)


def _checked(fn: Callable[P, R], label: str, *, hide_first: bool) -> Callable[P, R]:
    """``typed_errors``'s wrapper; ``hide_first`` leaves ``self`` (or ``cls``) out of the
    message's signature, as a method is called without it."""
    try:
        signature: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):  # pragma: no cover - every wrapped function has one
        signature = None
    shown = signature
    if signature is not None and hide_first:
        shown = signature.replace(parameters=list(signature.parameters.values())[1:])

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except TypeError:
            if signature is None or shown is None:
                raise
            try:
                signature.bind(*args, **kwargs)
            except TypeError as unbound:
                raise ConfigError(_message(label, shown, unbound)) from None
            raise

    return call


def typed_methods(*names: str) -> Callable[[C], C]:
    """A class decorator: the class's ``__init__`` (when it has its own, not ``object``'s)
    and the methods ``names`` (plain, static or class methods, its own or inherited) raise
    ``ConfigError`` for a call that does not fit their signature, as :func:`typed_errors`.

    The wrapped methods are set on the decorated class; a good call costs one ``try``.
    ``help`` and ``inspect.signature`` show the methods' own signatures. Protocol dunders
    (``__eq__``, ``__reduce__``, ...) are left as Python calls them.
    """

    def decorate(cls: C) -> C:
        wanted = list(names)
        if inspect.getattr_static(cls, "__init__") is not object.__init__:
            wanted.insert(0, "__init__")
        for attr in wanted:
            raw: Any = inspect.getattr_static(cls, attr)
            label = cls.__name__ if attr == "__init__" else f"{cls.__name__}.{attr}"
            if isinstance(raw, staticmethod):
                setattr(cls, attr, staticmethod(_checked(raw.__func__, label, hide_first=False)))
            elif isinstance(raw, classmethod):
                setattr(cls, attr, classmethod(_checked(raw.__func__, label, hide_first=True)))
            elif inspect.isfunction(raw):
                setattr(cls, attr, _checked(raw, label, hide_first=True))
            else:
                raise TypeError(f"{cls.__name__}.{attr} is not a method")  # pragma: no cover
        return cls

    return decorate


def _message(name: str, signature: inspect.Signature, error: TypeError) -> str:
    why = str(error)
    keyword_only = [p.name for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY]
    if why.startswith("too many positional") and keyword_only:
        why += f" ({', '.join(keyword_only)}: by keyword, e.g. {keyword_only[0]}=...)"
    bare = signature.replace(
        parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
        return_annotation=signature.empty,
    )
    return f"{name}(): {why}; it is called as {name}{bare}"
