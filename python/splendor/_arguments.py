"""Calls that do not fit a function's signature raise ``ConfigError``, not ``TypeError``."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from splendor.errors import ConfigError

P = ParamSpec("P")
R = TypeVar("R")


def typed_errors(fn: Callable[P, R], *, name: str | None = None) -> Callable[P, R]:
    """``fn``, where a call with arguments its signature does not take (too many positional
    ones, a keyword it does not know, a missing argument) raises ``ConfigError`` naming the
    signature, as every other bad argument does (README: never ``TypeError``).

    The call is made as is; only when it raises ``TypeError`` are the arguments bound to
    the signature, so a good call costs nothing more. ``help`` and ``inspect.signature``
    show ``fn``'s own (``__wrapped__``).
    """
    label = name or fn.__name__
    try:
        signature: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):  # pragma: no cover - every wrapped function has one
        signature = None

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except TypeError:
            if signature is None:
                raise
            try:
                signature.bind(*args, **kwargs)
            except TypeError as unbound:
                raise ConfigError(_message(label, signature, unbound)) from None
            raise

    return call


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
