"""Migrations run once each, in number order, and one that fails leaves nothing behind."""
from __future__ import annotations

import sqlite3

import pytest

from gm.store import database
from gm.store.migrations import Migration, all_migrations, run_script


def test_every_migration_applies_once_in_order(tmp_path):
    db = database.open_database(tmp_path / "gm.db")
    names = [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid")]
    assert names == sorted(names) == [m.name for m in all_migrations()]
    assert database.migrate(db) == []


def test_a_failing_migration_is_rolled_back_whole(tmp_path, monkeypatch):
    db = database.open_database(tmp_path / "gm.db")

    def broken(db):
        run_script(db, "CREATE TABLE half (x INTEGER);  -- a comment after the statement\nINSERT INTO nowhere VALUES (1);")

    monkeypatch.setattr(database, "all_migrations", lambda: all_migrations() + [Migration("m999_broken", broken)])
    with pytest.raises(sqlite3.OperationalError, match="no such table: nowhere"):
        database.migrate(db)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchone() is None
    assert db.execute("SELECT 1 FROM migrations WHERE name = 'm999_broken'").fetchone() is None
