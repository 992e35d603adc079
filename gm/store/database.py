"""Opening the database: WAL, foreign keys, migrations, and the write transaction."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar, cast

import sqlite_utils
from sqlite_utils.db import Table

from gm.errors import GMError
from gm.store.migrations import all_migrations

# How long a writer waits for another to finish (SQLite's busy timeout), in seconds. Every write
# transaction of gm is short (a turn's commit, a batch of mail: no scrypt inside); one that meets
# the database busy for longer than this stops with BUSY, one line, never a traceback.
BUSY_TIMEOUT = 10.0

# What a transaction is held on: gm's database, or a connection of its own (the portal's shared file).
Held = TypeVar("Held", sqlite_utils.Database, sqlite3.Connection)


def connect(path: Path) -> sqlite3.Connection:
    """A connection with gm's settings: transactions only where asked for, up to BUSY_TIMEOUT of
    waiting for another writer, the write-ahead log (readers never wait for a writer)."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
    except sqlite3.OperationalError as exc:
        if not any(words in str(exc) for words in ("unable to open database file", "readonly database")):
            raise
        raise GMError(unopenable(path, exc)) from exc
    return conn


def unopenable(path: Path, error: sqlite3.OperationalError) -> str:
    """Why SQLite could not open the database: most often a home on a read-only disk, or one this
    user may not write (SQLite writes beside the database even to read it: the write-ahead log)."""
    if not os.access(path.parent, os.W_OK):
        return (
            f"the GM home {path.parent} cannot be written (a read-only disk, or a folder this user may not "
            "write), and gm writes there on every command, even to read the database. Make it writable, "
            "or run gm as the user who owns it."
        )
    return f"SQLite cannot open the database {path} ({error}). Check that this user may read and write it."


def is_busy(error: BaseException) -> bool:
    """Whether the error is SQLite's "database is locked" (or busy): another writer held the
    database for longer than the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and any(
        word in str(error) for word in ("database is locked", "database is busy", "database table is locked")
    )


def is_full(error: BaseException) -> bool:
    """Whether the error is SQLite's "database or disk is full": the disk had no room for a write."""
    return isinstance(error, sqlite3.OperationalError) and "database or disk is full" in str(error)


def busy_words(then: str = "Run it again in a moment.") -> str:
    """What a gm command says when it met the database busy (after "Error: "), and `then`."""
    return (
        f"the database stayed busy for {BUSY_TIMEOUT:g} s (another gm command or the portal was writing "
        f"to it); the command stopped there. {then}"
    )


def open_database(path: Path) -> sqlite_utils.Database:
    """Open (creating if needed) and migrate the database at path."""
    conn = connect(path)
    db = sqlite_utils.Database(conn)
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(db)
    return db


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply the migrations not yet applied, each in its own transaction; returns their names."""
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
    done = {row[0] for row in db.execute("SELECT name FROM migrations").fetchall()}
    applied = []
    for migration in all_migrations():
        if migration.name in done:
            continue
        with transaction(db):
            migration.apply(db)
            db.execute(
                "INSERT INTO migrations (name, applied) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
                [migration.name],
            )
        applied.append(migration.name)
    return applied


@contextmanager
def transaction(db: Held) -> Iterator[Held]:
    """One write transaction: BEGIN IMMEDIATE, commit on success, roll back on any error."""
    conn = db.conn if isinstance(db, sqlite_utils.Database) else db
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


@contextmanager
def atomic(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction of its own, or a savepoint when the caller has one open (mail intake
    decides a whole batch of messages in one transaction)."""
    if not db.conn.in_transaction:
        with transaction(db):
            yield db
        return
    db.conn.execute("SAVEPOINT gm_atomic")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK TO gm_atomic")
        db.conn.execute("RELEASE gm_atomic")
        raise
    db.conn.execute("RELEASE gm_atomic")


@contextmanager
def relaxed_sync(db: sqlite_utils.Database, cache_kib: int) -> Iterator[None]:
    """For a long run of writes (mail intake): commits not forced to disk one by one (synchronous
    NORMAL: the caller forces the log itself) and a page cache of at least `cache_kib`; both
    set back as they were after the with-block."""
    before = db.execute("PRAGMA synchronous").fetchone()[0]
    cache = db.execute("PRAGMA cache_size").fetchone()[0]
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute(f"PRAGMA cache_size = {min(int(cache), -cache_kib)}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA synchronous = {int(before)}")
        db.execute(f"PRAGMA cache_size = {int(cache)}")


def data_version(db: sqlite_utils.Database) -> int:
    """A number that changes when another connection commits (SQLite's data_version): rows read
    before are still true while it stays the same."""
    return read_int(db.execute("PRAGMA data_version"))


# sqlite3 reads every value as Any (and lastrowid as int | None): the two readers below say, once,
# what a count and a new row's id are, so the modules of this folder return them typed.


def read_int(cursor: sqlite3.Cursor) -> int:
    """The whole number a query of one row answers in its first column: a count, a sum with
    COALESCE, an id known to exist, a pragma's value."""
    return cast(int, cursor.fetchone()[0])


def inserted(made: sqlite3.Cursor | Table) -> int:
    """The id of the row just made: by an INSERT run on a cursor (its rowid), or by sqlite-utils'
    Table.insert (its primary key, `id INTEGER PRIMARY KEY` in each table that gives one back)."""
    return cast(int, made.lastrowid if isinstance(made, sqlite3.Cursor) else made.last_pk)
