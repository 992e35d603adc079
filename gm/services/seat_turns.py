"""The turns a seat looks back on in the portal: each one as the seat's own report told it, read
from the report's JSON twin (written beside the PDF when it was rendered), never from the game."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils
from markupsafe import Markup

from gm.core.arrows import arrows
from gm.home import Home
from gm.render.arrows import arrow_key
from gm.render.environment import nations
from gm.render.seat_arrows import draw_turn_map, draws_arrows
from gm.render.seat_maps import SeatMap, seat_maps
from gm.services.seat_page import report_file, seat_reports, visible_turns
from gm.services.turn_charges import held_turns
from gm.store.records import GameRecord, SeatRecord


@dataclass(frozen=True)
class TurnReport:
    """A turn as the seat's report told it.

    turn: its number; label: what it was ("Round 13 of 30"); created: when it was resolved.
    report: the report's JSON as stored (view, events, scores, score_title, nmr, notices, credits,
    outcome, ...: what templates/report.html shows). maps: the maps its view holds.
    newer, older: the turns of the seat's next and previous reports, None at either end."""

    turn: int
    label: str
    created: str
    report: dict[str, Any]
    maps: tuple[SeatMap, ...]
    newer: int | None
    older: int | None

    def heading(self) -> str:
        """The turn's name for a page heading: "Turn 13: Round 13 of 30"; the label alone where it
        already begins with the turn ("Turn 1 of 24: spring 859", not "Turn 1: Turn 1 of 24...")."""
        words = self.label.split()
        if not self.label or self.label.lower() == f"turn {self.turn}":
            return f"Turn {self.turn}"
        if len(words) > 1 and words[0].lower() == "turn" and words[1].rstrip(":,") == str(self.turn):
            return self.label
        return f"Turn {self.turn}: {self.label}"

    def standings(self) -> list[tuple[int, dict[str, Any]]]:
        """The report's score rows, each with its rank (seats with equal scores share one), as
        the report's own table ranks them."""
        rows = self.report.get("scores") or []
        scores = sorted((row.get("score", 0) for row in rows), reverse=True)
        return [(scores.index(row.get("score", 0)) + 1, row) for row in rows]

    def names(self) -> dict[str, str]:
        """Seat code -> nation or player, as the report's map legend names them."""
        return nations(self.report.get("scores") or [])

    def events(self) -> list[dict[str, Any]]:
        """The events of the report: what the seat may see of the turn."""
        return list(self.report.get("events") or [])

    def arrow_key(self) -> Markup:
        """What the arrows on the maps mean, as the report says it under its maps; nothing when
        the turn has no moves or attacks the seat may see, or no map it draws them on."""
        if not any(draws_arrows(m.file) for m in self.maps):
            return Markup("")
        return arrow_key(arrows(self.events()))


def report_turns(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord) -> list[int]:
    """The turns the seat has a report of that it may read now (none held for credits), newest first."""
    return visible_turns(seat_reports(db, game, seat, held_turns(db, game, seat)))


def turn_report(
    db: sqlite_utils.Database,
    home: Home,
    game: GameRecord,
    seat: SeatRecord,
    turn: int | None = None,
    turns: list[int] | None = None,
) -> TurnReport | None:
    """The seat's report of `turn` (None: its newest), or None when it has none of that turn, the
    report is held for credits, or its JSON is gone. turns: report_turns() (the reports it may
    read) when the caller read them in this same request."""
    turns = report_turns(db, game, seat) if turns is None else turns
    if turn is None and turns:
        turn = turns[0]
    if turn not in turns:
        return None
    path = report_file(db, home, game, seat, turn, "json")
    report = _read(path) if path is not None else None
    if report is None:
        return None
    at = turns.index(turn)
    return TurnReport(
        turn=turn,
        label=str(report.get("turn_label", "")),
        created=str(report.get("created", "")),
        report=report,
        maps=tuple(seat_maps(report.get("view") or {})),
        newer=turns[at - 1] if at > 0 else None,
        older=turns[at + 1] if at + 1 < len(turns) else None,
    )


def turn_map(
    db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord, turn: int, file: str
) -> tuple[SeatMap, bytes] | None:
    """One map of the seat's report of `turn` as a picture, or None when there is no such map."""
    found = turn_report(db, home, game, seat, turn)
    chosen = next((m for m in found.maps if m.file == file), None) if found is not None else None
    if found is None or chosen is None:
        return None
    key = (game.id, seat.code, turn, found.created, file)
    with _LOCK:
        picture = _PICTURES.get(key)
    if picture is None:
        picture = draw_turn_map(found.report["view"], seat.code, found.names(), file, found.events())
        if picture is None:  # never: chosen is one of the maps of this very view
            return None
        with _LOCK:
            _PICTURES[key] = picture
            while len(_PICTURES) > _KEEP:
                _PICTURES.popitem(last=False)
    return chosen, picture


# Reports read and pictures drawn lately, shared by the server's threads: a seat page is asked for
# again and again while a turn is collected, and its report does not change meanwhile.
_KEEP = 64
_LOCK = threading.Lock()
_READ: OrderedDict[tuple[str, int, int], dict[str, Any] | None] = OrderedDict()
_PICTURES: OrderedDict[tuple[int, str, int, str, str], bytes] = OrderedDict()


def _read(path: Path) -> dict[str, Any] | None:
    """The JSON at path, read once while the file stays the same (a re-render writes a new file)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _LOCK:
        if key in _READ:
            _READ.move_to_end(key)
            return _READ[key]
    try:
        read: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    report = read if isinstance(read, dict) else None
    with _LOCK:
        _READ[key] = report
        while len(_READ) > _KEEP:
            _READ.popitem(last=False)
    return report
