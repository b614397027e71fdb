"""Card files are read one way, by every variant, in both engines (docs/contract.md, Card files).

The reference reader (``splendor.reference.cardfile``, Python's ``csv``) reads the tricky
inputs exactly as the Rust reader (``src/cardfile.rs``, the ``csv`` crate) does: the same
table of readings is pinned by a unit test there. Marvel card files, which a user may write,
get the same verdict from both engines; the base and Duel files, turned into tables at build
time on the Rust side, are checked with the same rules and the same messages
(``tests/base_build.rs``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import splendor
from splendor import reference as ref
from splendor.errors import CardDataError
from splendor.reference import cardfile
from splendor.reference.base import cards as base_cards
from splendor.reference.duel import cards as duel_cards

DATA = Path(__file__).parents[1] / "python" / "splendor" / "data"

# The same table as `quotes_line_ends_and_empty_lines` in src/cardfile.rs.
READINGS: list[tuple[str, list[list[str]]]] = [
    ('1,"a, b",c\n', [["1", "a, b", "c"]]),
    ('"say ""hi""",x', [['say "hi"', "x"]]),
    ('"a"b,c\n', [["ab", "c"]]),
    ('a"b,c\n', [['a"b', "c"]]),
    (' "a",b\n', [[' "a"', "b"]]),
    ('"a,b\n', [["a,b\n"]]),
    ('"a\nb",c\n', [["a\nb", "c"]]),
    ("x\ry\n", [["x"], ["y"]]),
    ("\n\n a \n", [[" a "]]),
    ("\ufeffa", [["a"]]),
    ("\ufeff\ufeffa", [["\ufeffa"]]),
    ("\n\ufeffa", [["\ufeffa"]]),
    ("a,\ufeffb", [["a", "\ufeffb"]]),
    ("a\r\n\r\nb\r\n", [["a"], ["b"]]),
    ('""\n', [[""]]),
    ("a,\n", [["a", ""]]),
    ('"abc"   ,d\n', [["abc   ", "d"]]),
    ("a\x85b\u2028c\n", [["a\x85b\u2028c"]]),
    ("a\x00b,c\n", [["a\x00b", "c"]]),
]


@pytest.mark.parametrize(("text", "want"), READINGS)
def test_the_reference_reads_csv_as_the_rust_reader(text: str, want: list[list[str]]) -> None:
    assert cardfile.records(text) == want


def test_rows_count_the_header_and_refuse_long_fields() -> None:
    rows = cardfile.rows("\ufeff a \n\n1\r\n2", "f.csv", ["a"])
    assert [(r.number, r.fields[0]) for r in rows] == [(2, "1"), (3, "2")]
    for text, message in [
        ("b\n1", "f.csv row 1: header must be a"),
        ("", "f.csv row 1: header must be a"),
        ("a\n1,2", "f.csv row 2: expected 1 columns, got 2"),
        ("b\n" + "x" * (cardfile.FIELD_LIMIT + 1), "f.csv row 2: a field is longer than 131072"),
    ]:
        with pytest.raises(CardDataError, match=re.escape(message)):
            cardfile.rows(text, "f.csv", ["a"])
    assert len(cardfile.rows("a\n" + "x" * cardfile.FIELD_LIMIT, "f", ["a"])[0].fields[0]) > 0


MARVEL_CARDS = (DATA / "marvel" / "cards.csv").read_text()
MARVEL_LOCATIONS = (DATA / "marvel" / "locations.csv").read_text()
# Texts for the name of the first card: quoted, half-quoted, padded, long, controlled.
NAMES = [
    '"Quote ""inside"""',
    '"a"b',
    'a"b',
    ' "a" ',
    '"Name, with comma"',
    '"Na\nme"',
    '"unterminated',
    "\t padded \t",
    "Na\u2028me",
    "Name\x01",
    "\ufeffName",
    "x" * cardfile.FIELD_LIMIT,
    "x" * (cardfile.FIELD_LIMIT + 1),
]


def with_first_name(text: str) -> str:
    lines = MARVEL_CARDS.split("\n")
    head, _, _ = lines[1].rpartition(",")
    lines[1] = f"{head},{text}"
    return "\n".join(lines)


@pytest.mark.parametrize("name", NAMES, ids=range(len(NAMES)))
def test_both_engines_read_a_marvel_file_alike(name: str) -> None:
    cards = with_first_name(name)
    verdicts = []
    for engine in (splendor, ref):
        try:
            state = engine.new_game("marvel", cards=cards, locations=MARVEL_LOCATIONS)
            verdicts.append(state.to_json())
        except CardDataError as exc:
            verdicts.append(type(exc).__name__)
    assert verdicts[0] == verdicts[1]


# The same cases and messages as tests/base_build.rs.
BASE_CASES = [
    (5, "1,white,0,0,x,0,0,0", 'base/cards.csv row 6 column blue: "x" is not an integer'),
    (5, "1,purple,0,0,3,0,0,0", "base/cards.csv row 6 column bonus: unknown colour"),
    (5, "4,white,0,0,3,0,0,0", "base/cards.csv row 6 column level must be between 1 and 3, got 4"),
    (5, "1,white,0,0,3,0,0", "base/cards.csv row 6: expected 8 columns, got 7"),
    (5, "1,white,-1,0,3,0,0,0", 'base/cards.csv row 6 column points: "-1" is not an integer'),
    (45, "1,white,0,0,3,0,0,0", "base/cards.csv row 46 column level: expected level 2"),
    (0, "level,bonus,points,white,blue,green,red", "base/cards.csv row 1: header must be"),
]


def with_line(text: str, line: int, new: str) -> str:
    lines = text.splitlines()
    lines[line] = new
    return "\n".join(lines)


def test_base_files_are_checked_as_the_build_checks_them() -> None:
    cards = (DATA / "base" / "cards.csv").read_text()
    nobles = (DATA / "base" / "nobles.csv").read_text()
    assert base_cards.load_cards(cards) == base_cards.CARDS
    assert base_cards.load_nobles(nobles) == base_cards.NOBLES
    for line, new, message in BASE_CASES:
        with pytest.raises(CardDataError) as caught:
            base_cards.load_cards(with_line(cards, line, new))
        assert message.replace('"', "'") in str(caught.value).replace('"', "'")
    black = "row 4 column black must be between 0 and 9, got 10"
    with pytest.raises(CardDataError, match=re.escape(black)):
        base_cards.load_nobles(with_line(nobles, 3, "3,4,4,0,0,10"))
    with pytest.raises(CardDataError, match=re.escape("base/cards.csv: expected 90 cards, got 79")):
        base_cards.load_cards("\n".join(cards.splitlines()[:80]))


def test_duel_files_are_checked_as_the_build_checks_them() -> None:
    cards = (DATA / "duel" / "cards.csv").read_text()
    royals = (DATA / "duel" / "royals.csv").read_text()
    assert duel_cards.load_cards(cards) == duel_cards.CARDS
    assert duel_cards.load_royals(royals) == duel_cards.ROYALS
    # Case and padding are ignored as in every card file.
    assert duel_cards.load_royals(royals.replace("steal", " Steal ")) == duel_cards.ROYALS
    line = cards.splitlines()[1].split(",")
    for column, value, message in [
        (1, "purple", "duel/cards.csv row 2 column bonus: unknown bonus"),
        (5, "fly", "duel/cards.csv row 2 column ability: unknown ability"),
        (5, "wild", "duel/cards.csv row 2 column ability: a card has the wild ability exactly"),
        (2, "3", "duel/cards.csv row 2 column bonus_count must be between 0 and 2, got 3"),
        (0, "2", "duel/cards.csv row 2 column level: expected level 1"),
    ]:
        fields = list(line)
        fields[column] = value
        with pytest.raises(CardDataError, match=re.escape(message)):
            duel_cards.load_cards(with_line(cards, 1, ",".join(fields)))
    unknown = "duel/royals.csv row 2 column ability: unknown"
    with pytest.raises(CardDataError, match=re.escape(unknown)):
        duel_cards.load_royals(with_line(royals, 1, "2,token"))
