"""The schema every migration leaves, held in a golden file: a changed migration shows in review.

GM_UPDATE_GOLDEN=1 rewrites tests/store/golden/schema.sql from a fresh `gm init`; do it only when a
migration changes (or one is added) on purpose, and read the diff before committing it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.golden import check_golden

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
    check_golden(GOLDEN, schema, "the schema a fresh gm init makes changed: a migration changed")
