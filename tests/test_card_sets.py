"""Custom Marvel card sets are identified by content and bounded in memory (both engines).

* Identity: the SHA-256 of the set's canonical CSV text. Two location files whose old
  32-bit FNV-1a checksums are equal get different identities, and a state built on one
  never loads against the other.
* Pickles are self-contained: a pickled state on a custom set loads in a process that
  never saw the files (multiprocessing with the ``spawn`` start method).
* Memory: a set lives while some state uses it. Loading thousands of distinct sets (and
  thousands of rejected files) and dropping their states leaves nothing behind.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import pickle
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import splendor
import splendor.reference.marvel.cards as ref_data
from engines import ENGINES
from splendor.errors import InvalidStateError

DATA = Path(__file__).parents[1] / "python" / "splendor" / "data" / "marvel"
CARDS = (DATA / "cards.csv").read_text()
LOCS = (DATA / "locations.csv").read_text()
BUNDLED_ID = "dad7c19708885f3100a76bf6321cd8d85bf6c71037a5173cc907cfd74e78f921"

# Two names for the last location found by a birthday search: with the bundled cards,
# the old checksum (FNV-1a 32 over the text of docs/marvel.md before this change) of the
# two sets is the same number.
COLLIDING = ("Knowhere chzyojeg", "Knowhere vhybpfio")


def live_sets(engine: ModuleType) -> int:
    """Custom sets some state of ``engine`` still uses."""
    if engine is splendor:
        return int(splendor._core._live_marvel_card_sets())
    return ref_data.live_card_sets()


def old_checksum(cards: str, locations: str) -> int:
    """The 32-bit FNV-1a card-set checksum the engines used to record."""
    d = ref_data
    cs = d.parse_cards(cards)
    ls = d.parse_locations(locations)
    text = "".join(
        ",".join(str(v) for v in (c.level, c.bonus, c.points, c.avengers, c.time_stone, *c.cost))
        + f",{c.name}\n"
        for c in cs
    ) + "".join(
        ",".join(str(v) for v in (x.tile + 1, x.side, x.points, *x.requirement)) + f",{x.name}\n"
        for x in ls
    )
    h = 2166136261
    for b in text.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def locations_named(name: str) -> str:
    return LOCS.replace("Knowhere", name)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_bundled_identity(engine: ModuleType) -> None:
    assert json.loads(engine.new_game("marvel").to_json())["card_set"] == BUNDLED_ID
    # The bundled files are written in the canonical form the identity hashes.
    assert ref_data.load_data().canonical_csv() == (CARDS, LOCS)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_old_checksum_collision_gets_distinct_identities(engine: ModuleType) -> None:
    a_locs, b_locs = (locations_named(n) for n in COLLIDING)
    assert old_checksum(CARDS, a_locs) == old_checksum(CARDS, b_locs)
    a = engine.new_game("marvel", seed=1, locations=a_locs)
    b = engine.new_game("marvel", seed=1, locations=b_locs)
    a_text, b_text = a.to_json(), b.to_json()
    a_id, b_id = (json.loads(t)["card_set"] for t in (a_text, b_text))
    assert a_id != b_id and len(a_id) == len(b_id) == 64
    # Bound to B's files, A's state is refused (and the other way round).
    with pytest.raises(InvalidStateError, match="card_set"):
        engine.MarvelState.from_json(a_text, locations=b_locs)
    with pytest.raises(InvalidStateError, match="card_set"):
        engine.MarvelState.from_json(b_text, locations=a_locs)
    # With only B in use, A's JSON does not silently bind to B's set.
    del a
    gc.collect()
    with pytest.raises(InvalidStateError, match="card_set"):
        engine.from_json(a_text)
    assert engine.from_json(b_text) == b


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_from_json_finds_only_sets_in_use(engine: ModuleType) -> None:
    custom = locations_named("Knowhere Station")
    state = engine.new_game("marvel", seed=2, locations=custom)
    text = state.to_json()
    before = live_sets(engine)
    assert engine.from_json(text) == state
    assert engine.MarvelState.from_json(text, locations=custom) == state
    assert live_sets(engine) == before, "a second load of the same content shares the set"
    del state
    gc.collect()
    with pytest.raises(InvalidStateError, match="card_set"):
        engine.from_json(text)
    assert engine.MarvelState.from_json(text, locations=custom).to_json() == text


def _load_pickle(blob: bytes) -> tuple[str, str, bool]:
    """In a fresh process: the JSON of the unpickled state, and whether it reloads."""
    state: Any = pickle.loads(blob)
    text = state.to_json()
    again = type(state).from_json(text) == state  # the set is registered here too
    return type(state).__module__, text, again


def test_pickles_are_self_contained() -> None:
    custom = locations_named("Knowhere Deep")
    states = [engine.new_game("marvel", seed=5, locations=custom) for engine in ENGINES.values()]
    for s in states:
        s.apply(s.legal_actions()[0])
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        got = pool.map(_load_pickle, [pickle.dumps(s) for s in states])
    for s, (module, text, again) in zip(states, got, strict=True):
        assert module == type(s).__module__
        assert text == s.to_json()
        assert again
    # A pickle of the bundled set stays small: it carries no card text.
    assert len(pickle.dumps(splendor.new_game("marvel"))) < 3000


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _churn(engine: ModuleType, n: int, tag: str) -> None:
    """Loads ``n`` distinct sets and ``n`` rejected files; keeps nothing."""
    for i in range(n):
        s = engine.new_game("marvel", seed=i, locations=locations_named(f"Knowhere {tag}{i}"))
        s.apply(s.legal_actions()[0])
        s.determinize(1, seed=i).clone()
        with pytest.raises(splendor.CardDataError):
            engine.new_game("marvel", locations=locations_named(f"Knowhere {tag}{i},x"))


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_sets_are_freed_with_their_last_state(engine: ModuleType) -> None:
    gc.collect()
    start = live_sets(engine)
    kept = [engine.new_game("marvel", locations=locations_named(f"Kept {i}")) for i in range(3)]
    copies = [s.clone() for s in kept] + [pickle.loads(pickle.dumps(s)) for s in kept]
    assert live_sets(engine) == start + 3
    del kept
    gc.collect()
    assert live_sets(engine) == start + 3, "the copies still use the sets"
    del copies
    gc.collect()
    assert live_sets(engine) == start


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
def test_memory_per_distinct_set_is_bounded() -> None:
    _churn(splendor, 300, "warm")  # allocator warm-up
    gc.collect()
    before = _rss_kb()
    n = 3000
    _churn(splendor, n, "run")
    gc.collect()
    grown = (_rss_kb() - before) * 1024
    # Each set used to stay forever (about 9 KB, 27 MB here); now nothing stays.
    assert live_sets(splendor) == 0
    assert grown / n < 1000, f"{grown / n:.0f} bytes per set stayed"
