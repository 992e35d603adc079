"""All SQL lives in gm/store: held by reading every other module of gm.

Outside gm/store no module of gm (gm/services, gm/web and gm/cli above all) runs SQL (calls
execute, executemany, executescript or query), indexes a database (`db["games"]`, `db[name]`),
or holds a SQL statement or a table of gm's databases (after FROM, JOIN, INTO, UPDATE or TABLE)
in a string; they call gm/store's named functions and get records back. (The rulesets are pure:
tests/core/test_core_purity.py keeps sqlite3 out of them.) The table names come from fresh databases' sqlite_master, so a
new table is covered the day its migration lands.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import pytest

import gm
from gm.store.database import open_database
from gm.store.failures import FailureTable
from gm.store.sessions import SessionTable

ROOT = Path(gm.__file__).resolve().parents[1]
STORE = ROOT / "gm" / "store"
SQL_CALLS = {"execute", "executemany", "executescript", "query"}
# How a statement begins (gm writes SQL keywords in capitals); a sentence that only names a
# pragma ("PRAGMA integrity_check says ok") is not one.
STATEMENT = re.compile(
    r"""^\s*(SELECT\b|(INSERT|REPLACE)(\s+OR\s+\w+)?\s+INTO\b|UPDATE\s+\S+\s+SET\b|DELETE\s+FROM\b
                           |(CREATE|DROP)(\s+UNIQUE)?\s+(TABLE|INDEX|TRIGGER|VIEW)\b|ALTER\s+TABLE\b
                           |PRAGMA\s+\w+\s*(=|\(|$)|BEGIN(\s+(IMMEDIATE|DEFERRED|EXCLUSIVE))?\s*$|COMMIT\s*$
                           |ROLLBACK\b|SAVEPOINT\s+\w+\s*$|RELEASE\s+\w+\s*$|WITH\s+\w+\s+AS\b|VACUUM\b
                           |ATTACH\s+DATABASE\b)""",
    re.VERBOSE,
)
NAMING = r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+[\"'`\[]?({tables})\b"


def gm_tables(tmp_path: Path) -> set[str]:
    """Every table of gm's databases, as a fresh home's make them: gm.db and the portal's shared
    files (signed-in sessions, failed sign-ins)."""
    open_database(tmp_path / "gm.db").conn.close()
    SessionTable(tmp_path / "sessions.db")
    FailureTable(tmp_path / "failures.db")
    found = set()
    for name in ("gm.db", "sessions.db", "failures.db"):
        conn = sqlite3.connect(tmp_path / name)
        try:
            found |= {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    return {name for name in found if not name.startswith("sqlite_")}


def outside_store() -> list[Path]:
    """Every module of gm but gm/store's."""
    return [path for path in sorted((ROOT / "gm").rglob("*.py")) if not path.is_relative_to(STORE)]


def _text(node: ast.AST) -> str | None:
    """A string constant, or an f-string with each of its fields as {}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    return None


def _names_db(node: ast.AST) -> bool:
    """`db`, `self.db`, `conn`, `p.db()`, `self._db()`: what gm calls a database or a connection to one."""
    names = {"db", "_db", "conn", "database", "connection"}
    if isinstance(node, ast.Call):
        node = node.func
    return isinstance(node, ast.Name) and node.id in names or isinstance(node, ast.Attribute) and node.attr in names


def sql_offences(source: str, tables: set[str], where: str = "") -> list[str]:
    """Each place in the module's source that runs SQL, indexes a database or holds SQL."""
    naming = re.compile(NAMING.format(tables="|".join(sorted(map(re.escape, tables)))), re.IGNORECASE)
    found = []
    strings_in_fstrings = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            strings_in_fstrings |= {id(part) for part in node.values}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS:
            found.append((line, f"calls {node.func.attr}()"))
        elif isinstance(node, ast.Subscript) and _names_db(node.value):
            found.append((line, "indexes a database table"))
        elif id(node) not in strings_in_fstrings and (text := _text(node)) is not None:
            if STATEMENT.match(text):
                found.append((line, f"holds a SQL statement: {text.strip()[:60]!r}"))
            elif naming.search(text):
                found.append((line, f"names the table {naming.search(text)[1]!r}: {text.strip()[:60]!r}"))
    return [f"{where}:{line}: {what}" for line, what in sorted(found)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> set[str]:
    return gm_tables(tmp_path_factory.mktemp("tables"))


def test_the_tables_come_from_the_databases(tables):
    # The finder sees the main database's tables and the portal's shared files'.
    assert {
        "games",
        "seats",
        "turns",
        "submissions",
        "ledger",
        "audit",
        "outbox",
        "portal_links",
        "sessions",
        "failures",
    } <= tables


def test_the_scanner_finds_every_kind_of_offence(tables):
    planted = """
def leak(db, conn, kind):
    db.execute("SELECT 1")
    conn.executemany("INSERT INTO x VALUES (?)", [])
    db.conn.executescript("")
    db.query("select 1")
    db["seats"].insert({})
    self.db[kind].insert({})
    portal().db()["portal_links"].count
    sql = f"SELECT {kind} FROM reports"
    other = "update outbox set status = 'sent'"
    joined = "... JOIN accounts a ON a.id = s.account_id"
"""
    found = sql_offences(planted, tables, "planted.py")
    assert [f.split(": ", 1)[0] for f in found] == [f"planted.py:{n}" for n in (3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    assert "calls executescript()" in "\n".join(found)
    assert "names the table 'outbox'" in "\n".join(found)
    assert "names the table 'accounts'" in "\n".join(found)


def test_plain_words_are_no_offence(tables):
    clean = """
def fine(game, seats):
    rows = {"seats": seats, "turns": [], "reports": "reports"}
    typer.echo(f"{game.name}: reports from turn 3 are held; the seats in games waiting")
    state["seats"].append(game.seats["FR"])
    doctor = "PRAGMA integrity_check says ok."
    return rows["seats"], list.insert, "Select a seat from the list"
"""
    assert sql_offences(clean, tables, "clean.py") == []


def test_no_sql_outside_the_store(tables):
    found = []
    for path in outside_store():
        found += sql_offences(path.read_text(encoding="utf-8"), tables, str(path.relative_to(ROOT)))
    assert not found, "SQL outside gm/store (move it into a gm/store module):\n" + "\n".join(found)
