"""Card files: the CSV every variant's card data is written in, read one way.

Every card table of every variant comes from a CSV file under ``splendor/data/<variant>/``,
and this module is the reference engine's only reader of them. It reads CSV with Python's
:mod:`csv` module; the Rust engine reads the same files with the ``csv`` crate and the same
settings and checks (``src/cardfile.rs``), so both engines read any file identically
(docs/contract.md, *Card files*). Errors are :class:`~splendor.errors.CardDataError` naming
the file, the row (1-based, counting the header as row 1) and the column.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass
from importlib import resources

from splendor.errors import CardDataError
from splendor.reference.common import range_message

FIELD_LIMIT = 131_072
"""The longest field, in characters (Python's ``csv.field_size_limit()`` default)."""


@dataclass(frozen=True)
class Row:
    """One data row: its 1-based number counting the header (empty lines are not counted)."""

    number: int
    fields: list[str]


def bundled_text(variant: str, name: str) -> str:
    """The text of a bundled card file, ``splendor/data/<variant>/<name>``."""
    path = resources.files("splendor").joinpath("data").joinpath(variant).joinpath(name)
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, ValueError) as exc:
        raise CardDataError(f"{variant}/{name}: cannot read: {exc}") from None


def records(text: str, name: str = "<text>") -> list[list[str]]:
    """The records of ``text``, each a list of fields as written (padding kept).

    A leading byte-order mark is ignored; records end at ``\\n``, ``\\r\\n`` or ``\\r``;
    empty lines are skipped; a field that starts with ``"`` is quoted (``""`` stands for a
    quote, it may span lines, and text after the closing quote is kept); a ``"`` anywhere
    else is an ordinary character.
    """
    out: list[list[str]] = []
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return out
        except csv.Error as exc:
            # In a str, Python's csv refuses a field over its limit (and, before
            # Python 3.11, a NUL character, which no card file field may hold either).
            what = (
                f"a field is longer than {FIELD_LIMIT} characters"
                if "field limit" in str(exc)
                else str(exc)
            )
            raise CardDataError(f"{name} row {len(out) + 1}: {what}") from None
        if record:  # not an empty line
            out.append(record)


def rows(text: str, name: str, header: list[str]) -> list[Row]:
    """The data rows of ``text`` (read as :func:`records`) after its exact ``header``.

    Every data row must have as many fields as the header, and no field more than
    :data:`FIELD_LIMIT` characters.
    """
    found = records(text, name)
    if not found or [trim(f) for f in found[0]] != header:
        raise CardDataError(f"{name} row 1: header must be {','.join(header)}")
    out: list[Row] = []
    for number, fields in enumerate(found[1:], start=2):
        if len(fields) != len(header):
            raise CardDataError(
                f"{name} row {number}: expected {len(header)} columns, got {len(fields)}"
            )
        out.append(Row(number, fields))
    return out


def trim(s: str) -> str:
    """Field padding that is ignored: ASCII spaces and tabs only."""
    return s.strip(" \t")


def integer(name: str, row: int, col: str, text: str, lo: int, hi: int) -> int:
    """A whole number between ``lo`` and ``hi``: ASCII digits only, padding ignored."""
    s = trim(text)
    if not (s.isascii() and s.isdigit()):
        raise CardDataError(f"{name} row {row} column {col}: {text!r} is not an integer")
    v = int(s)
    if not lo <= v <= hi:
        raise CardDataError(range_message(f"{name} row {row} column {col}", lo, hi, s))
    return v


def choice(text: str, options: tuple[str, ...] | list[str]) -> int | None:
    """The index of ``text`` among ``options``, ignoring ASCII case and padding."""
    s = trim(text)
    if not s.isascii():
        return None
    s = s.lower()
    return next((i for i, o in enumerate(options) if o.lower() == s), None)


def name_field(name: str, row: int, text: str) -> str:
    """A non-empty name without control characters, padding removed."""
    s = trim(text)
    if not s:
        raise CardDataError(f"{name} row {row} column name: empty name")
    if any(unicodedata.category(ch) == "Cc" for ch in s):
        raise CardDataError(f"{name} row {row} column name: {s!r} holds a control character")
    return s
