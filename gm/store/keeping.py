"""The database side of safe keeping: a snapshot by SQLite's online backup, and what the checks ask."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from gm.store.database import read_int


def snapshot(source: Path, target: Path) -> None:
    """Copy the live database at `source` into a new file `target` with SQLite's online backup.

    One step (pages=-1) copies every page inside one read transaction, so the copy is the
    database as one moment saw it; in WAL mode writers go on meanwhile. The copy is then turned
    to a rollback journal, so it is one self-contained file (gm sets WAL again when it opens it).
    """
    live = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    copy = sqlite3.connect(str(target), isolation_level=None)
    try:
        live.backup(copy, pages=-1)
        copy.execute("PRAGMA journal_mode = DELETE")
    finally:
        copy.close()
        live.close()


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the database (gm doctor, the checks before a restore)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, timeout=30)
    conn.execute("PRAGMA busy_timeout = 30000")
    return conn


def integrity_problems(conn: sqlite3.Connection) -> list[str]:
    """What PRAGMA integrity_check finds (nothing for a sound database); a file that is not a
    database at all gives its one message."""
    try:
        rows = [row[0] for row in conn.execute("PRAGMA integrity_check").fetchall()]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    # "*** in database main ***" only heads the list of what is wrong in it.
    return [] if rows == ["ok"] else [row for row in rows if not row.startswith("*** in database")] or rows


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    """The names of the migrations this database has had, in order (none before the first)."""
    if not _has_table(conn, "migrations"):
        return []
    return [row[0] for row in conn.execute("SELECT name FROM migrations ORDER BY name").fetchall()]


def archive_references(conn: sqlite3.Connection) -> dict[str, str]:
    """Every archive digest the database refers to, with the first record that refers to it
    ("submission 12", "mail 5"): turn files by submissions.archive, messages by mail_taken.digest,
    press and announcements by press.archive."""
    sources = [
        ("submissions", "archive", "submission"),
        ("mail_taken", "digest", "mail"),
        ("press", "archive", "press"),
    ]
    found: dict[str, str] = {}
    for table, column, label in sources:
        if not _has_table(conn, table):
            continue
        for digest, number in conn.execute(f"SELECT {column}, MIN(id) FROM {table} GROUP BY {column}"):
            found.setdefault(digest, f"{label} {number}")
    return found


# Mail whose raw bytes nothing needs once taken, unless a turn file of it was accepted or its
# press was sent: refused or rejected turn files, copies, mail a program sent.
_PRUNABLE_MAIL = ("refused", "rejected", "duplicate", "ignored")


def needed_archive_digests(conn: sqlite3.Connection) -> set[str]:
    """The archive digests gm needs kept whole (gm archive prune keeps them): every accepted
    submission's turn file (and the GM's corrections), every press message and announcement as
    it came, and each mail but those whose every turn file was refused or rejected (or that were
    copies, or sent by a program) and that sent no press. gm turn verify and the ledger need
    none of the archive; these are what a GM, a player or a replay may ask for."""
    if not _has_table(conn, "submissions"):
        return set()
    prunable = ", ".join(f"'{outcome}'" for outcome in _PRUNABLE_MAIL)
    found = {row[0] for row in conn.execute("SELECT archive FROM submissions WHERE verdict = 'accepted'")}
    if _has_table(conn, "press"):
        found |= {row[0] for row in conn.execute("SELECT archive FROM press")}
    if _has_table(conn, "mail_taken"):
        found |= {row[0] for row in conn.execute(f"SELECT digest FROM mail_taken WHERE outcome NOT IN ({prunable})")}
        # A refused mail may hold an accepted turn file beside a refused one: its sources name it.
        found |= {
            row[0].split(":")[1]
            for row in conn.execute(
                "SELECT source FROM submissions WHERE verdict = 'accepted' AND source LIKE 'mail:%'"
            )
        }
        if _has_table(conn, "press"):
            found |= {
                row[0].split(":")[1] for row in conn.execute("SELECT source FROM press WHERE source LIKE 'mail:%'")
            }
    return found


@dataclass(frozen=True)
class RecordedReport:
    """A report file the reports table lists: the game's name, the turn, the seat, the file's
    path relative to the home and the SHA-256 recorded when it was rendered."""

    game: str
    turn: int
    seat: str
    path: str
    sha256: str


def recorded_reports(conn: sqlite3.Connection) -> list[RecordedReport]:
    """Every PDF and JSON report file the database lists, by game, turn and seat."""
    if not _has_table(conn, "reports"):
        return []
    rows = conn.execute("""SELECT g.name, r.turn, r.seat, r.pdf, r.pdf_sha256, r.json, r.json_sha256
                           FROM reports r JOIN games g ON g.id = r.game_id ORDER BY g.name, r.turn, r.seat""")
    found = []
    for game, turn, seat, pdf, pdf_sha, json_path, json_sha in rows:
        found += [RecordedReport(game, turn, seat, pdf, pdf_sha), RecordedReport(game, turn, seat, json_path, json_sha)]
    return found


def seat_rows(conn: sqlite3.Connection) -> list[tuple[str, str, str, str, str]]:
    """(game name, seat code, status, secret hash, player's address) of every seat, by game and seat."""
    return conn.execute(
        "SELECT g.name, s.code, s.status, s.secret_hash, a.email FROM seats s "
        "JOIN games g ON g.id = s.game_id JOIN accounts a ON a.id = s.account_id "
        "ORDER BY g.name, s.code"
    ).fetchall()


def entries_of(conn: sqlite3.Connection, email: str) -> int:
    """How many ledger entries the account with that address has."""
    return read_int(
        conn.execute("SELECT count(*) FROM ledger l JOIN accounts a ON a.id = l.account_id WHERE a.email = ?", [email])
    )


def tables_with_rows(conn: sqlite3.Connection) -> list[str]:
    """The tables that hold anything but the record of migrations: empty for a home just made."""
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'migrations' "
            "ORDER BY name"
        )
    ]
    return [
        name
        for name in names
        if conn.execute(f'SELECT 1 FROM "{name}" WHERE NOT ({_MADE_BY_INIT.get(name, "0")}) LIMIT 1').fetchone()
        is not None
    ]


# The rows every home has from its first migrations on, which are no data of the GM's: the owner's
# account until it has a password (m020).
_MADE_BY_INIT = {"staff": "role = 'owner' AND password_hash IS NULL AND removed IS NULL"}


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone() is not None
