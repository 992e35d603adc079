"""The schema every migration leaves, held in a golden file: a changed migration shows in review.

GM_UPDATE_GOLDEN=1 rewrites tests/store/golden/schema.sql from a fresh `gm init`; do it only when a
migration changes (or one is added) on purpose, and read the diff before committing it."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden" / "schema.sql"


def normalised_schema(database: Path) -> str:
    """sqlite_master as text: one statement per line, whitespace collapsed, in (type, name) order,
    then the migrations the database records as applied (their names, not their dates)."""
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        ).fetchall()
        migrations = [row[0] for row in conn.execute("SELECT name FROM migrations ORDER BY name")]
    finally:
        conn.close()
    lines = [f"-- {kind} {name} on {table}\n{' '.join(sql.split())};" for kind, name, table, sql in rows]
    lines.append("-- migrations applied: " + ", ".join(migrations))
    return "\n".join(lines) + "\n"


def test_a_fresh_home_has_the_golden_schema(tmp_path, gm):
    where = tmp_path / "home"
    assert gm("init", home=where).code == 0
    schema = normalised_schema(where / "gm.db")
    if os.environ.get("GM_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(schema, encoding="utf-8")
    if not GOLDEN.exists():
        pytest.fail(f"golden file {GOLDEN} is missing; run with GM_UPDATE_GOLDEN=1 to create it, then review it")
    assert schema == GOLDEN.read_text(encoding="utf-8"), (
        "the schema a fresh gm init makes differs from tests/store/golden/schema.sql: a migration changed. "
        "If on purpose, rerun with GM_UPDATE_GOLDEN=1 and review the diff")
