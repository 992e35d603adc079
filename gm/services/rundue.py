"""gm run-due: one pass of the weekly cycle over every game, safe to run every few minutes.

Stages per game: publish a turn a crash left unpublished, move deadlines for absences, send the
reminders that are due, run the turn if it is due (or may run early), publish it.
"""
from __future__ import annotations

import fcntl
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Callable

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.cycle import decide
from gm.core.schedule import describe
from gm.errors import GMError
from gm.home import Home
from gm.services import cycle, reports, turns
from gm.services.settings import game_setting
from gm.store import records
from gm.store.database import transaction
from gm.store.records import GameRecord


@dataclass
class RunReport:
    """What one pass did (or, with dry_run, would do): one line per thing, and the problems."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    turns_run: int = 0
    skipped: bool = False


@contextmanager
def run_lock(home: Home):
    home.locks.mkdir(parents=True, exist_ok=True)
    with open(home.locks / "run-due.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def unpublished(db, game: GameRecord) -> int | None:
    """The last resolved turn if its reports were never written (a crash after the commit)."""
    last = db.execute("SELECT MAX(number) FROM turns WHERE game_id = ?", [game.id]).fetchone()[0]
    if not last:
        return None
    done = db.execute("SELECT 1 FROM reports WHERE game_id = ? AND turn = ? LIMIT 1", [game.id, last]).fetchone()
    return None if done else last


# Games whose reports may be under way at once: the workers render one game's reports while
# this process resolves the next; more would only hold more report HTML in memory.
GAMES_AHEAD = 2


@dataclass
class Publishing:
    """The reports of a run-due, rendered in one pool for the whole run: each game's reports are
    handed to the workers as soon as its turn is resolved, so no worker idles between games, and
    each game is published (recorded, its mails queued) as soon as its reports are done."""

    db: object
    home: Home
    clock: Clock
    hooks: "Hooks"
    report: RunReport
    pool: object = None  # a gm.render.RenderPool, started with the first game to render
    under_way: list = field(default_factory=list)

    def __enter__(self) -> "Publishing":
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.finish()
        if self.pool is not None:
            self.pool.close(wait=kind is None)

    def start(self, game_name: str, number: int) -> None:
        if self.pool is None:
            from gm.render import RenderPool  # WeasyPrint: only when there is something to render

            self.pool = RenderPool(reports.render_workers(self.home))
        rendering = reports.start_render(self.db, self.home, game_name, [number], pool=self.pool)
        self.under_way.append((game_name, number, rendering))
        self.finish(keep=GAMES_AHEAD)

    def finish(self, keep: int = 0) -> None:
        """Publish the games whose reports are done, oldest first, and wait for the oldest
        while more than `keep` are under way."""
        while self.under_way and (len(self.under_way) > keep or self.under_way[0][2].done()):
            game_name, number, rendering = self.under_way.pop(0)
            written = reports.finish_render(self.db, self.home, rendering)
            self.report.lines.append(f"{game_name}: turn {number} reports written to {written.folder}")
            self.hooks.after_publish(self.db, self.home, self.clock, game_name, number, self.report)


class Hooks:
    """Where mail plugs into the cycle; the plain cycle only records and reports."""

    def fetch(self, db, home: Home, clock: Clock, report: RunReport) -> None:
        return None

    def remind(self, db, home: Home, clock: Clock, game: GameRecord, seats: list, kind: str,
               report: RunReport) -> None:
        return None

    def after_publish(self, db, home: Home, clock: Clock, game_name: str, number: int, report: RunReport) -> None:
        return None

    def send(self, db, home: Home, clock: Clock, report: RunReport) -> None:
        return None


def run_due(db: sqlite_utils.Database, home: Home, clock: Clock, dry_run: bool = False,
            hooks: Hooks | None = None, progress: Callable[[str], None] = lambda _: None) -> RunReport:
    hooks = hooks or Hooks()
    report = RunReport()
    with run_lock(home) as locked:
        if not locked:
            report.skipped = True
            report.lines.append("another gm run-due is running; this one did nothing")
            return report
        started = iso(clock.now())
        if not dry_run:
            hooks.fetch(db, home, clock, report)
        with Publishing(db, home, clock, hooks, report) as publishing:
            for game in records.all_games(db):
                if game.status == "over":
                    continue
                progress(game.name)
                try:
                    _one_game(db, home, clock, game.name, dry_run, publishing, report)
                except GMError as exc:
                    report.problems.append(f"{game.name}: {exc}")
        if not dry_run:
            hooks.send(db, home, clock, report)
            with transaction(db):
                db["runs"].insert({"started": started, "finished": iso(clock.now()),
                                   "summary": json.dumps(report.lines + report.problems)})
    return report


def _one_game(db, home: Home, clock: Clock, name: str, dry_run: bool, publishing: Publishing,
              report: RunReport) -> None:
    hooks = publishing.hooks
    game = records.game_by_name(db, name)
    pending = unpublished(db, game)
    if pending is not None:
        report.lines.append(f"{name}: turn {pending} was run but not published" + ("" if not dry_run else "; would publish"))
        if not dry_run:
            publishing.start(name, pending)
    now = clock.now()
    if not dry_run:
        _push_for_absences(db, clock, game, report)
        game = records.game_by_name(db, name)
    decision = decide(cycle.cycle_facts(db, game, now), now)
    for kind, seats in (("reminder", decision.remind), ("late", decision.late)):
        if seats:
            report.lines.append(f"{name}: {'would send' if dry_run else 'sent'} {kind} to {', '.join(seats)}")
            if not dry_run:
                _record_reminders(db, game, seats, kind, now)
                hooks.remind(db, home, clock, game, list(seats), kind, report)
    if decision.spike:
        report.problems.append(f"{name}: turn {game.turn} not run: {decision.why}")
        if not dry_run:
            _warn_once(db, game, decision.why, now)
        return
    if not decision.run:
        return
    if dry_run:
        report.lines.append(f"{name}: would run turn {game.turn} ({decision.why})")
        return
    summary = turns.run_turn(db, home, clock, name)
    report.turns_run += 1
    report.lines.append(f"{name}: turn {summary.number} run ({decision.why}); next: {summary.label}")
    report.lines.extend(f"{name}: {notice}" for notice in summary.notices)
    publishing.start(name, summary.number)


def _record_reminders(db, game: GameRecord, seats, kind: str, now) -> None:
    ids = {s.code: s.id for s in records.seats_of(db, game.id)}
    with transaction(db):
        for code in seats:
            db.execute("INSERT OR IGNORE INTO reminders (game_id, turn, seat_id, kind, at) VALUES (?, ?, ?, ?, ?)",
                       [game.id, game.turn, ids[code], kind, iso(now)])


def _warn_once(db, game: GameRecord, why: str, now) -> None:
    seen = db.execute("SELECT 1 FROM audit WHERE game_id = ? AND action = 'nmr spike' AND detail LIKE ?",
                      [game.id, f'%"turn": {game.turn}%']).fetchone()
    if not seen:
        with transaction(db):
            records.audit(db, iso(now), game.id, "nmr spike", {"turn": game.turn, "why": why})


def _push_for_absences(db, clock: Clock, game: GameRecord, report: RunReport) -> None:
    """With absence-policy push, an absence over the deadline moves it to the absence's end,
    at most absence-pushes times per player per game."""
    if game_setting(game, "absence-policy") != "push" or not game.due:
        return
    limit = game_setting(game, "absence-pushes")
    for code, ends in sorted(cycle.absent_at(db, game, cycle.moment(game.due)).items()):
        used = db.execute("SELECT COUNT(*) FROM audit WHERE game_id = ? AND action = 'absence push' AND detail LIKE ?",
                          [game.id, f'%"seat": "{code}"%']).fetchone()[0]
        if used >= limit:
            continue
        due = ends + timedelta(minutes=1)
        with transaction(db):
            cycle.set_due(db, game, cycle.moment(game.slot), due)
            records.audit(db, iso(clock.now()), game.id, "absence push", {"seat": code, "due": iso(due)})
        report.lines.append(f"{game.name}: deadline moved to {describe(due, cycle.zone_of(game))} for {code}'s absence")
        return


def status(db: sqlite_utils.Database, clock: Clock) -> list[dict]:
    """Every game at a glance (gm status)."""
    rows = []
    for game in records.all_games(db):
        seats = records.seats_of(db, game.id)
        current = records.current_submissions(db, game.id, game.turn)
        active = [s for s in seats if s.status == "active"]
        last = db.execute("SELECT MAX(resolved) FROM turns WHERE game_id = ? AND number >= 1", [game.id]).fetchone()[0]
        problems = [json.loads(d)["why"] for (d,) in db.execute(
            "SELECT detail FROM audit WHERE game_id = ? AND action = 'nmr spike' AND detail LIKE ?",
            [game.id, f'%"turn": {game.turn}%']).fetchall()]
        if game.status != "over" and unpublished(db, game) is not None:
            problems.append(f"turn {unpublished(db, game)} not published")
        rows.append({
            "game": game.name, "ruleset": game.ruleset, "status": game.status, "turn": game.turn,
            "deadline": game.deadline if game.status != "over" else None, "due": game.due,
            "schedule": (game.schedule or {}).get("text", "manual"), "held": game.held,
            "seats": len(seats), "in": sorted(s.code for s in seats if s.id in current),
            "missing": sorted(s.code for s in active if s.id not in current),
            "final": sorted(s.code for s in seats if current.get(s.id, {}).get("final")),
            "dropped": sorted(s.code for s in seats if s.status == "dropped"),
            "last_run": last, "problems": problems,
        })
    return rows
