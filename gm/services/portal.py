"""What the player portal shows a seat and how it turns a form into a turn file for submit()."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlite_utils
from dateutil import parser as dateparser

from gm.clock import Clock
from gm.core.envelope import TurnFileError, clean_line, decode_turn_file, read_envelope
from gm.errors import GMError
from gm.home import Home
from gm.services.gameview import game_facts
from gm.services.turnfiles import order_template
from gm.store import records
from gm.store.archive import archived_path
from gm.store.records import GameRecord, SeatRecord

PLACEHOLDER = "<your secret>"


@dataclass(frozen=True)
class Deadline:
    """A deadline as the player reads it: text in their zone (or as the GM wrote it when it
    does not parse), and whether it has passed."""

    text: str
    written: str
    passed: bool


def deadline_for(game: GameRecord, zone: str, clock: Clock) -> Deadline | None:
    """The turn's deadline in the player's zone: from the due time when the game has one, else
    from the deadline text; shown as written when that names no clear time."""
    written = game.deadline or game.due
    if not written:
        return None
    stamp = game.due or written
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    try:
        moment = dateparser.parse(stamp)
    except (ValueError, OverflowError):
        return Deadline(written, written, False)
    if moment.tzinfo is None:
        # "Friday 18:00" without a zone: converting it would be a guess.
        return Deadline(written, written, False)
    local = moment.astimezone(tz)
    text = f"{local:%a %d %b %Y, %H:%M} {local.tzname()} ({tz.key})"
    return Deadline(text, written, local <= clock.now())


def nmr_counts(db: sqlite_utils.Database, game: GameRecord, seat_code: str) -> tuple[int, int]:
    """(turns in a row up to the last one, turns in all) that the seat's orders came from the robot."""
    flags = [t.orders.get(seat_code, {}).get("by") == "robot" for t in records.turns_of(db, game.id, 1)]
    in_a_row = 0
    for robot in reversed(flags):
        if not robot:
            break
        in_a_row += 1
    return in_a_row, sum(flags)


def submission_history(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord) -> list[dict]:
    """Every version the seat sent, newest first, each saying whether it counts (or counted)."""
    counted = {t.number: t.orders.get(seat.code, {}).get("submission") for t in records.turns_of(db, game.id, 1)}
    rows = db.execute(
        """SELECT id, turn, channel, source, received, verdict, problems, final, current
           FROM submissions WHERE seat_id = ? ORDER BY turn DESC, id DESC""", [seat.id]).fetchall()
    history = []
    for sid, turn, channel, source, received, verdict, problems, final, current in rows:
        if turn in counted:
            counts = counted[turn] == sid
        else:
            counts = bool(current) and turn == game.turn
        history.append({"id": sid, "turn": turn, "channel": channel, "source": source, "received": received,
                        "verdict": verdict, "problems": len(json.loads(problems)), "final": bool(final),
                        "counts": counts})
    return history


def seat_reports(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord) -> list[dict]:
    rows = db.execute("SELECT turn, rendered FROM reports WHERE game_id = ? AND seat = ? ORDER BY turn DESC",
                      [game.id, seat.code]).fetchall()
    return [{"turn": turn, "rendered": rendered} for turn, rendered in rows]


def report_file(db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord, turn: int,
                kind: str) -> Path | None:
    """The seat's own report file of a turn, or None; the path comes from the reports table and
    must lie inside the home's reports folder."""
    if kind not in ("pdf", "json"):
        return None
    row = db.execute(f"SELECT {kind} FROM reports WHERE game_id = ? AND seat = ? AND turn = ?",
                     [game.id, seat.code, turn]).fetchone()
    if row is None:
        return None
    path = (home.root / row[0]).resolve()
    if not path.is_relative_to(home.reports.resolve()) or not path.is_file():
        return None
    return path


def seat_page_facts(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, zone: str,
                    clock: Clock) -> dict:
    """Everything the seat's page shows, from what that seat may know and nothing more."""
    facts = _facts(db, game)
    if facts is None:
        raise GMError(f"game '{game.name}' is waiting for the GM to seat more players; come back later.")
    mine = next(s for s in facts["seats"] if s["code"] == seat.code)
    in_a_row, total = nmr_counts(db, game, seat.code)
    return {
        "game": {"name": game.name, "title": facts["title"], "status": game.status, "turn": game.turn,
                 "turn_label": facts["turn_label"]},
        "seat": {"code": seat.code, "name": seat.name, "orders": mine["orders"], "final": mine["final"],
                 "score": mine["score"]},
        "deadline": deadline_for(game, zone, clock),
        "nmr": {"in_a_row": in_a_row, "total": total},
        "credits": credits_for(db, seat.email),
        "history": submission_history(db, game, seat),
        "reports": seat_reports(db, game, seat),
        "outcome": facts["outcome"],
    }


def credits_for(db: sqlite_utils.Database, email: str) -> dict:
    """The player's turn credits and discount (bonus turns per 10 bought), from the ledger."""
    from gm.services.credits import account_position

    position = account_position(db, email)
    return {"balance": position.balance, "discount": position.discount}


def _facts(db: sqlite_utils.Database, game: GameRecord) -> dict | None:
    """game_facts, or None while the game has too few seats to make its starting state."""
    facts = game_facts(db, game.name)
    return facts if facts["state"] is not None else None


def order_form(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord) -> str:
    """The prefilled order form, or "" when the game is over."""
    try:
        return order_template(db, game.name, seat.code)
    except GMError:
        return ""


def gm_overview(db: sqlite_utils.Database) -> list[dict]:
    """Every game as the GM sees it (game_facts without the state): seats in, missing, final."""
    overview = []
    for game in records.all_games(db):
        facts = _facts(db, game) or {
            "name": game.name, "title": "waiting for players", "status": game.status, "turn": game.turn,
            "turn_label": "too few seats to start", "deadline": game.deadline, "outcome": None,
            "seats": [{"code": s.code, "name": s.name, "email": s.email, "orders": "none", "final": False,
                       "score": 0} for s in records.seats_of(db, game.id)]}
        facts.pop("state", None)
        seats = facts["seats"]
        facts["counts"] = {"in": sum(s["orders"] == "accepted" for s in seats),
                           "missing": sum(s["orders"] in ("none", "rejected") for s in seats),
                           "final": sum(s["final"] for s in seats), "seats": len(seats)}
        overview.append(facts)
    return overview


@dataclass(frozen=True)
class Prepared:
    """Turn-file bytes ready for check or submit, the text to show back (secret hidden), or why
    the portal will not send them for this seat."""

    data: bytes
    shown: str
    refusal: str | None = None


def prepare_turn_file(raw: bytes, game: GameRecord, seat: SeatRecord, secret: str | None, final: bool,
                      max_bytes: int) -> Prepared:
    """The bytes the portal sends for a signed-in seat.

    A file with its own PASSWORD goes as it came, byte for byte, unless it must be marked final;
    one with the placeholder or no PASSWORD line gets the seat's secret written in.
    A file for another game or seat is refused here: the portal acts only for its signed-in seat.
    """
    try:
        text, _ = decode_turn_file(raw, max_bytes)
    except TurnFileError as exc:
        return Prepared(raw, "", str(exc))
    envelope = read_envelope(text)
    if envelope.game is not None and envelope.game != game.name or \
            envelope.player is not None and envelope.player != seat.code:
        return Prepared(raw, hide_password(text),
                        f"these orders are for {envelope.player or '?'} in '{envelope.game or '?'}'; "
                        f"you are signed in as {seat.code} in '{game.name}'")
    lines = text.splitlines()
    changed = False
    if _password_missing(lines):
        if secret is None:
            return Prepared(raw, hide_password(text), "the orders need your secret: type it in the "
                            "'Your secret' box (you signed in with a link), or on the PASSWORD line")
        lines = _with_password(lines, secret)
        changed = True
    if final and not envelope.final:
        lines = _with_final(lines)
        changed = True
    if not changed:
        return Prepared(raw, hide_password(text))
    new_text = "\n".join(lines) + "\n"
    return Prepared(new_text.encode("utf-8"), hide_password(new_text))


def _keyword(line: str) -> str:
    return clean_line(line).partition(" ")[0].upper()


def _password_missing(lines: list[str]) -> bool:
    values = [clean_line(line).partition(" ")[2].strip() for line in lines if _keyword(line) == "PASSWORD"]
    return not values or all(v in ("", PLACEHOLDER) for v in values)


def _with_password(lines: list[str], secret: str) -> list[str]:
    kept = [line for line in lines if _keyword(line) != "PASSWORD"]
    after = next((i for i, line in enumerate(kept) if _keyword(line) == "PLAYER"), None)
    if after is None:
        after = next((i for i, line in enumerate(kept) if _keyword(line) == "GAME"), -1)
    return kept[:after + 1] + [f"PASSWORD {secret}"] + kept[after + 1:]


def _with_final(lines: list[str]) -> list[str]:
    end = next((i for i, line in enumerate(lines) if _keyword(line) == "END"), len(lines))
    return lines[:end] + ["FINAL"] + lines[end:]


def hide_password(text: str) -> str:
    """The text with every PASSWORD value replaced by the placeholder, to show back on a page."""
    return "\n".join(f"PASSWORD {PLACEHOLDER}" if _keyword(line) == "PASSWORD" else line
                     for line in text.splitlines()) + ("\n" if text else "")


def numbered_lines(text: str, problems: list) -> list[dict]:
    """The shown text line by line, each with the problems found on it."""
    by_line: dict[int, list[str]] = {}
    for problem in problems:
        by_line.setdefault(problem.line, []).append(problem.message)
    return [{"number": n, "text": line, "problems": by_line.get(n, [])}
            for n, line in enumerate(text.splitlines(), start=1)]


def current_archived(db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord) -> bytes | None:
    """The raw bytes of the submission that counts now for the seat, from the archive."""
    row = db.execute("SELECT archive FROM submissions WHERE seat_id = ? AND turn = ? AND current = 1",
                     [seat.id, game.turn]).fetchone()
    if row is None:
        return None
    path = archived_path(home.archive, row[0])
    return path.read_bytes() if path.is_file() else None


def parse_zone(zone: str) -> str:
    try:
        return ZoneInfo(zone).key
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"
