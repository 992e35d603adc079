"""The reports table: the PDF and JSON files each seat's report of a turn was rendered to
(records.record_report records them)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils


@dataclass(frozen=True)
class ReportFiles:
    """A seat's recorded report of a turn: the PDF and JSON paths (relative to the home) and the
    SHA-256 of each as rendered."""

    pdf: str
    json: str
    pdf_sha256: str
    json_sha256: str


def report_files(db: sqlite_utils.Database, game_id: int, turn: int, seat: str) -> ReportFiles | None:
    row = db.execute(
        "SELECT pdf, json, pdf_sha256, json_sha256 FROM reports WHERE game_id = ? AND turn = ? AND seat = ?",
        [game_id, turn, seat],
    ).fetchone()
    return None if row is None else ReportFiles(*row)


def seat_reports(db: sqlite_utils.Database, game_id: int, seat: str) -> list[tuple[int, str]]:
    """(turn, when rendered) of each of the seat's recorded reports, newest first."""
    return db.execute(
        "SELECT turn, rendered FROM reports WHERE game_id = ? AND seat = ? ORDER BY turn DESC", [game_id, seat]
    ).fetchall()


def discard_reports_from(db: sqlite_utils.Database, game_id: int, turn: int) -> None:
    """Forget the reports of turn `turn` and later (a re-run discards those turns)."""
    db.execute("DELETE FROM reports WHERE game_id = ? AND turn >= ?", [game_id, turn])
