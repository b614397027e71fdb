"""Games in a database: SQLite (one file, the default) or PostgreSQL, through SQLAlchemy 2 Core.

A game is stored as its start (the engine's JSON of the deal) and its decisions, one row
each, so every position can be replayed. Every call here is blocking and commits before
it returns: the app runs them on a small thread pool of its own, never on the event loop,
and answers a move only once it is committed.

A change is one transaction that bumps the game's version with
``UPDATE games SET version = version + 1 ... WHERE id = :id AND version = :seen``: a second
writer (another request, another server process) that read the same version updates no
row and changes nothing (:class:`Conflict`), so no move is ever played twice. The
decision's primary key ``(game_id, idx)`` says the same a second time.

There is one schema (version :data:`SCHEMA_VERSION`, recorded in the ``meta`` table);
``metadata.create_all`` makes it. A database of version 1 (before host links, invitations,
names and rematches) is upgraded in place when a server opens it (:func:`upgrade_v1`: five
columns added, every game kept and playable); a database of any other version is refused.
Seat changes (a claim, a replaced link, a name, a rematch) are conditional updates on the
game's ``seating`` counter, as moves are on its version: of two racing, exactly one is
written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from splendor.errors import ConfigError

SCHEMA_VERSION = 2
"""The schema this code reads and writes."""

MAX_NAME = 24
"""The longest display name (characters)."""

_SCHEMA_LOCK = 0x5350_4C44
"""The PostgreSQL advisory lock held while the tables are created."""

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("start", Text, nullable=False),
    Column("bot", String(64), nullable=False),
    Column("ai_seats", Text, nullable=False, doc="JSON list of the AI's seats"),
    Column(
        "tokens",
        Text,
        nullable=False,
        doc="JSON list, per seat, of the SHA-256 (hex) of its token; null for an AI seat",
    ),
    Column("spectator", String(64), nullable=False, doc="SHA-256 (hex) of the spectator token"),
    Column("host", String(64), nullable=True, doc="SHA-256 (hex) of the host token"),
    Column("invite", String(64), nullable=True, doc="SHA-256 (hex) of the invitation's token"),
    Column("names", Text, nullable=False, doc="JSON list, per seat, of its display name or null"),
    Column("seating", Integer, nullable=False, doc="Counts the changes of seats and links"),
    Column("next_game", String(32), nullable=True, doc="The rematch's id, once dealt"),
    Column("version", Integer, nullable=False),
    Column("steps", Integer, nullable=False),
    Column("current", Integer, nullable=True),
    Column("ai_to_move", Boolean, nullable=False, index=True),
    Column("over", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

decisions = Table(
    "decisions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("by_ai", Boolean, nullable=False),
    Column("text", Text, nullable=False),
    Column("note", Text, nullable=True, doc="JSON of the AI's note on its move"),
)


reviews = Table(
    "reviews",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("review", Text, nullable=False, doc="splendor.Review.to_json() of the finished game"),
    Column("created", Float, nullable=False),
)
"""A finished game's review, computed once (``POST /api/v1/games/{id}/review``)."""


class Conflict(RuntimeError):
    """The game changed since the version a writer read: nothing was written."""


class ForeignDatabase(ConfigError):
    """The database holds tables of our names that this server did not make."""


class SchemaMismatch(ConfigError):
    """The database holds another schema version than this code's."""


UPGRADE_V1 = (
    ("host", "VARCHAR(64)"),
    ("invite", "VARCHAR(64)"),
    ("names", "TEXT NOT NULL DEFAULT '[]'"),
    ("seating", "INTEGER NOT NULL DEFAULT 0"),
    ("next_game", "VARCHAR(32)"),
)
"""The columns schema 2 adds to the ``games`` of schema 1 (the same SQL on SQLite and
PostgreSQL)."""


def upgrade_v1(c: Connection) -> bool:
    """Upgrade a schema-1 database to schema 2 in the transaction ``c``: whoever changes the
    recorded version first (the update takes the write lock) adds the columns; a second
    server starting at once finds version 2 and adds nothing. Returns whether it upgraded.

    A game of schema 1 keeps its seats' and spectators' tokens; it has no host link and no
    invitation (every seat was given a link when it was made), no names, no rematch.
    """
    done = c.execute(
        update(meta).where(and_(meta.c.key == "schema", meta.c.value == "1")).values(value="2")
    )
    if done.rowcount != 1:
        return False
    for name, kind in UPGRADE_V1:
        c.execute(text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
    return True


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's row: everything but its decisions."""

    id: str
    variant: str
    players: int
    start: str
    bot: str
    ai_seats: tuple[int, ...]
    tokens: tuple[str | None, ...]
    spectator: str
    version: int
    steps: int
    current: int | None
    ai_to_move: bool
    over: bool
    created: float
    updated: float
    host: str | None = None
    invite: str | None = None
    names: tuple[str | None, ...] = ()
    """Per seat, its display name (None: none chosen); shorter for a game of schema 1."""
    seating: int = 0
    next_game: str | None = None

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None


@dataclass(frozen=True, slots=True)
class DecisionRow:
    idx: int
    action: int
    seat: int
    by_ai: bool
    text: str
    note: str | None


@dataclass(frozen=True, slots=True)
class Position:
    """What a change leaves: the fields of the game row that follow its state."""

    steps: int
    current: int | None
    ai_to_move: bool
    over: bool


def default_path() -> Path:
    """``$XDG_DATA_HOME/splendor/games.sqlite3`` (``~/.local/share/splendor/...``)."""
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(home) / "splendor" / "games.sqlite3"


def engine_url(db: str) -> tuple[str | URL, bool]:
    """The SQLAlchemy URL for ``db`` (a path, ``sqlite://...`` or ``postgresql://...``) and
    whether it is SQLite; a path's folder is made.

    A path is the file's name as it is: a ``?`` or a ``%41`` in it is part of the name, never
    a URL's query or escape (the URL is built from its parts, not parsed from text).

    Raises:
        ConfigError: an empty ``db``, another kind of URL, a folder, or a path whose folder
            cannot be made.
    """
    if not db.strip():
        raise ConfigError("the games database is empty: name a SQLite file or a postgresql:// URL")
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1], False
    if db.startswith("postgresql+"):
        return db, False
    if db.startswith("sqlite:"):
        return db, True
    if "://" in db:
        scheme = db.split("://", 1)[0]
        raise ConfigError(
            f"a games database {scheme}://... is not one this server keeps games in: name a"
            " SQLite file or a postgresql:// URL"
        )
    path = Path(db).expanduser()
    if path.is_dir():
        raise ConfigError(f"the games database {db} is a folder: name a file in it")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot make the folder of the games database {db}: {exc.strerror or exc}"
        ) from None
    return URL.create("sqlite", database=str(path)), True


OUR_TABLES = frozenset({"meta", "games", "decisions", "reviews"})


def foreign_tables(names: Sequence[str], stamped: bool) -> str | None:
    """Why a database with the tables ``names`` (``stamped``: its ``meta`` table records
    our schema) is another application's, or None when it is ours or empty of our names."""
    clash = sorted(OUR_TABLES & set(names))
    if clash and not stamped:
        return (
            f"it already has table(s) {', '.join(clash)} that this server did not make (no"
            " splendor schema is recorded in it): it looks like another application's"
            " database; name a new file or database"
        )
    return None


def _check_sqlite_file(path: str) -> None:
    """Refuse, without writing to it, a SQLite file that is not this server's (or no SQLite
    database at all). Opened read-only: a refused file keeps its bytes and its journal mode."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            stamped = "meta" in names and bool(
                con.execute("SELECT 1 FROM meta WHERE key = 'schema'").fetchall()
            )
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise ConfigError(
            f"cannot use {path} as the games database: {exc} (name a new file, or one this"
            " server made)"
        ) from None
    why = foreign_tables(names, stamped)
    if why is not None:
        raise ConfigError(f"the games database {path} is refused, untouched: {why}")


def _values(row: GameRow) -> dict[str, Any]:
    """A game's row as the ``games`` table's columns."""
    return {
        **{k: getattr(row, k) for k in GameRow.__slots__},
        "ai_seats": json.dumps(list(row.ai_seats)),
        "tokens": json.dumps(list(row.tokens)),
        "names": json.dumps(list(row.names)),
    }


def _row(r: Any, start: str | None = None) -> GameRow:
    return GameRow(
        id=r.id,
        variant=r.variant,
        players=r.players,
        start=r.start if start is None else start,
        bot=r.bot,
        ai_seats=tuple(json.loads(r.ai_seats)),
        tokens=tuple(json.loads(r.tokens)),
        spectator=r.spectator,
        version=r.version,
        steps=r.steps,
        current=r.current,
        ai_to_move=bool(r.ai_to_move),
        over=bool(r.over),
        created=r.created,
        updated=r.updated,
        host=r.host,
        invite=r.invite,
        names=tuple(json.loads(r.names)),
        seating=r.seating,
        next_game=r.next_game,
    )


class Store:
    """The games of one database (blocking calls; each commits before it returns)."""

    def __init__(self, db: str = "sqlite://") -> None:
        url, self.sqlite = engine_url(db)
        self.memory = self.sqlite and str(url) in ("sqlite://", "sqlite:///:memory:")
        if isinstance(url, URL) and url.database:
            _check_sqlite_file(url.database)
        kwargs: dict[str, Any] = {}
        if self.memory:
            # One connection shared by every thread (the app runs one DB thread for SQLite).
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif self.sqlite:
            kwargs = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        else:
            kwargs = {"pool_size": 8, "max_overflow": 8, "pool_pre_ping": True}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            self._create()
        except ForeignDatabase as exc:
            self.engine.dispose()
            where = db.split("@")[-1] if "://" in db else db  # never the password
            raise ForeignDatabase(
                f"the games database {where} is refused, untouched: {exc}"
            ) from None
        except SQLAlchemyError as exc:
            cause = getattr(exc, "orig", None) or exc
            first = (str(cause).splitlines() or [""])[0]
            where = db.split("@")[-1] if "://" in db else db  # never the password
            raise ConfigError(
                f"cannot open the games database {where}: {type(cause).__name__} {first}"
            ) from None

    def _create(self) -> None:
        with self.engine.begin() as c:
            if not self.sqlite:
                # Two servers starting at once must not both create the tables.
                c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            names = inspect(c).get_table_names()
            stamped = "meta" in names and (
                c.execute(select(meta.c.value).where(meta.c.key == "schema")).first() is not None
            )
            why = foreign_tables(names, stamped)
            if why is not None:
                raise ForeignDatabase(why)
            metadata.create_all(c)
        try:
            with self.engine.begin() as c:
                c.execute(insert(meta).values(key="schema", value=str(SCHEMA_VERSION)))
        except IntegrityError:
            pass  # recorded by an earlier start (or another process just now)
        with self.engine.begin() as c:
            if not self.sqlite:
                c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            upgrade_v1(c)
        with self.engine.connect() as c:
            found = c.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar_one()
        if found != str(SCHEMA_VERSION):
            raise SchemaMismatch(
                f"the database holds schema version {found}; this server reads"
                f" {SCHEMA_VERSION} (and upgrades version 1 in place): a newer splendor made"
                " it, so serve it with that one"
            )

    def close(self) -> None:
        self.engine.dispose()

    # ---- reads -----------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as c:
            r = c.execute(select(games).where(games.c.id == game_id)).first()
        return None if r is None else _row(r)

    def decisions(self, game_id: str, steps: int | None = None) -> list[DecisionRow]:
        q = select(decisions).where(decisions.c.game_id == game_id)
        if steps is not None:
            q = q.where(decisions.c.idx < steps)
        with self.engine.connect() as c:
            rows = c.execute(q.order_by(decisions.c.idx)).all()
        return [DecisionRow(r.idx, r.action, r.seat, bool(r.by_ai), r.text, r.note) for r in rows]

    def states(self, ids: Sequence[str]) -> dict[str, GameRow]:
        """The rows of the games ``ids`` (those that exist), without their starts."""
        if not ids:
            return {}
        columns = [c for c in games.c if c.name != "start"]
        with self.engine.connect() as c:
            rows = c.execute(select(*columns).where(games.c.id.in_(ids)))
            return {r.id: _row(r, start="") for r in rows}

    def ai_waiting(self, older_than: float, limit: int | None = 100) -> list[tuple[str, int]]:
        """Games (id, version) whose AI seat is to decide and that have not changed for
        ``older_than`` s, longest unchanged first (at most ``limit``; None: all)."""
        q = (
            select(games.c.id, games.c.version)
            .where(and_(games.c.ai_to_move, games.c.updated <= time.time() - older_than))
            .order_by(games.c.updated)
            .limit(limit)
        )
        with self.engine.connect() as c:
            return [(r.id, r.version) for r in c.execute(q)]

    def count(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(games)).scalar_one())

    # ---- writes ----------------------------------------------------------------------

    def create(self, row: GameRow, moves: Sequence[DecisionRow]) -> None:
        """Store a new game and its decisions (a loaded game has some)."""
        with self.engine.begin() as c:
            c.execute(insert(games).values(**_values(row)))
            self._insert(c, row.id, moves)

    def append(self, game_id: str, seen: int, move: DecisionRow, after: Position) -> int:
        """Add decision ``move`` to the game at version ``seen``; returns the new version.

        Raises:
            Conflict: the game is not at version ``seen`` any more (nothing written).
        """
        with self.engine.begin() as c:
            self._bump(c, game_id, seen, after)
            try:
                self._insert(c, game_id, [move])
            except IntegrityError:
                raise Conflict(f"decision {move.idx} of game {game_id} exists") from None
        return seen + 1

    def truncate(self, game_id: str, seen: int, keep: int, after: Position) -> int:
        """Keep the first ``keep`` decisions of the game at version ``seen`` (an undo)."""
        with self.engine.begin() as c:
            self._bump(c, game_id, seen, after)
            c.execute(
                delete(decisions).where(
                    and_(decisions.c.game_id == game_id, decisions.c.idx >= keep)
                )
            )
        return seen + 1

    def seat_change(self, game_id: str, seen: int, **values: Any) -> None:
        """Change the seats' fields of the game whose ``seating`` is ``seen`` (``tokens``,
        ``names``: tuples; ``host``, ``invite``: hashes), counting one seat change.

        Raises:
            Conflict: the seats changed since ``seen`` (nothing written).
        """
        for key in ("tokens", "names"):
            if key in values:
                values[key] = json.dumps(list(values[key]))
        with self.engine.begin() as c:
            done = c.execute(
                update(games)
                .where(and_(games.c.id == game_id, games.c.seating == seen))
                .values(seating=games.c.seating + 1, updated=time.time(), **values)
            )
            if done.rowcount != 1:
                raise Conflict(f"the seats of game {game_id} changed since {seen}")

    def rematch(self, old_id: str, row: GameRow) -> None:
        """Store ``row``, a new game, as the rematch of ``old_id``, unless that game has one
        already: one transaction, so of two racing exactly one deals (the other's game is
        never stored).

        Raises:
            Conflict: ``old_id`` has its rematch already.
        """
        with self.engine.begin() as c:
            done = c.execute(
                update(games)
                .where(and_(games.c.id == old_id, games.c.next_game.is_(None)))
                .values(next_game=row.id, seating=games.c.seating + 1, updated=time.time())
            )
            if done.rowcount != 1:
                raise Conflict(f"game {old_id} has its rematch already")
            c.execute(insert(games).values(**_values(row)))

    # ---- reviews ---------------------------------------------------------------------

    def review(self, game_id: str) -> str | None:
        """The stored review of the game (its JSON), or None."""
        with self.engine.connect() as c:
            found = c.execute(
                select(reviews.c.review).where(reviews.c.game_id == game_id)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def save_review(self, game_id: str, review: str) -> None:
        """Store the game's review; one stored already (by another process) is kept."""
        try:
            with self.engine.begin() as c:
                row = {"game_id": game_id, "review": review, "created": time.time()}
                c.execute(insert(reviews).values(**row))
        except IntegrityError:
            pass

    @staticmethod
    def _bump(c: Connection, game_id: str, seen: int, after: Position) -> None:
        done = c.execute(
            update(games)
            .where(and_(games.c.id == game_id, games.c.version == seen))
            .values(
                version=games.c.version + 1,
                steps=after.steps,
                current=after.current,
                ai_to_move=after.ai_to_move,
                over=after.over,
                updated=time.time(),
            )
        )
        if done.rowcount != 1:
            raise Conflict(f"game {game_id} is not at version {seen} any more")

    @staticmethod
    def _insert(c: Connection, game_id: str, moves: Sequence[DecisionRow]) -> None:
        if moves:
            c.execute(
                insert(decisions),
                [
                    {
                        "game_id": game_id,
                        "idx": d.idx,
                        "action": d.action,
                        "seat": d.seat,
                        "by_ai": d.by_ai,
                        "text": d.text,
                        "note": d.note,
                    }
                    for d in moves
                ],
            )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), every commit synced to disk, and a writer
    waits up to 30 s for another's lock instead of failing."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
