"""Numbered schema migrations: each module mNNN_name.py here has migrate(db) and runs once.

They are found by name and applied in number order, so a new feature adds one file and
edits no list.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

import sqlite_utils


@dataclass(frozen=True)
class Migration:
    """One migration: its module's name (mNNN_what) and its migrate(db)."""

    name: str
    apply: Callable[[sqlite_utils.Database], None]


def run_script(db: sqlite_utils.Database, script: str) -> None:
    """Run a migration's SQL one statement at a time, inside the caller's transaction.

    Not executescript(): it commits whatever transaction is open first, so a migration that
    failed half-way would stay half-applied. SQLite itself says where each statement ends.
    """
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            db.execute(buffer)
            buffer = ""
    if buffer.strip() and not all(not entry.strip() or entry.strip().startswith("--") for entry in buffer.splitlines()):
        db.execute(buffer)


def rebuild_outbox(db: sqlite_utils.Database, create_sql: str) -> None:
    """Build the outbox anew from `create_sql` (its CREATE TABLE, named outbox_new) and copy its
    rows: SQLite cannot change a CHECK constraint in place, so a new kind of mail needs this."""
    run_script(
        db,
        f"""{create_sql};
        INSERT INTO outbox_new SELECT * FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_new RENAME TO outbox;
        CREATE INDEX outbox_due ON outbox (status, next_attempt);
        CREATE INDEX outbox_recipient ON outbox (recipient, kind, queued);
        CREATE INDEX outbox_report ON outbox (game_id, turn, kind, status)""",
    )


_KINDS = re.compile(r"kind IN \(([^)]*)\)")
_OUTBOX = re.compile(r'CREATE TABLE "?outbox"?')


def add_outbox_kinds(db: sqlite_utils.Database, *kinds: str) -> None:
    """Let the outbox hold new kinds of mail beside whatever kinds it holds (rebuild_outbox)."""
    old = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").fetchone()[0]
    found = _KINDS.search(old)
    assert found, "outbox kinds not found"
    added = ", ".join(f"'{kind}'" for kind in kinds)
    new = _OUTBOX.sub("CREATE TABLE outbox_new", old, count=1).replace(
        found.group(0), f"kind IN ({found.group(1)}, {added})"
    )
    rebuild_outbox(db, new)


def all_migrations() -> list[Migration]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name[:1] == "m" and m.name[1:4].isdigit())
    return [Migration(name, importlib.import_module(f"{__name__}.{name}").migrate) for name in names]
