"""gm run-due: one pass of the weekly cycle over every game, safe to run every few minutes.

First every turn a crash left unpublished, in every game, is published; then per game: move
deadlines for absences, send the reminders that are due, run the turn if it is due (or may run
early), publish it. A game that fails (its ruleset raises, its reports cannot be made) is that
game's trouble: the others run, its turn is not committed (or, committed, is published by a
later run), the failure is noted for gm status (gm/services/faults.py) and the run says so at
the end.

gm/render's pool is imported when the first game has reports to render in it, not here: gm
run-due runs every few minutes and mostly finds nothing due, and the pool's import (templates,
maps) costs about 50 ms of CPU.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.cycle import decide
from gm.core.schedule import describe
from gm.errors import GMError
from gm.home import Home, render_workers
from gm.services import archive_keeping, cycle, faults, publish, short_reports, slips, turns
from gm.services.game_settings import game_setting
from gm.store import audit, records, runs
from gm.store.database import transaction
from gm.store.locks import file_lock
from gm.store.records import GameRecord
from gm.store.turns import last_resolved

if TYPE_CHECKING:
    from gm.render.pool import RenderPool


@dataclass
class RunReport:
    """What one pass did (or, with dry_run, would do): one line per thing, and the problems;
    failed: the games that failed (a problem each), for the end of the run."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    skipped: bool = False
    failed: list[str] = field(default_factory=list)

    def fail(self, game: str, error: GMError) -> None:
        self.problems.append(f"{game}: {error}")
        if game not in self.failed:
            self.failed.append(game)


def run_lock(home: Home) -> AbstractContextManager[bool]:
    """One run-due at a time in a home: yields False (at once) when another holds it."""
    return file_lock(home.locks / "run-due.lock", wait=False)


# Games whose reports may be under way at once: the workers render one game's reports while
# this process resolves the next; more would only hold more report HTML in memory.
GAMES_AHEAD = 2


@dataclass
class Publishing:
    """The turns a run-due publishes, their reports rendered in one pool for the whole run: each
    game's reports go to the workers as soon as its turn is resolved, so no worker idles between
    games, and each game is published (gm/services/publish.py) as soon as its reports are done.
    With one render worker ([reports] workers = 1) every game renders in this process instead."""

    db: sqlite_utils.Database
    home: Home
    clock: Clock
    report: RunReport
    pool: RenderPool | None = None  # started with the first game to render
    under_way: list[publish.Started] = field(default_factory=list)

    def __enter__(self) -> Publishing:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                self.finish()
        finally:
            if self.pool is not None:
                self.pool.close(wait=kind is None)

    def start(self, game_name: str) -> None:
        workers = render_workers(self.home)
        if self.pool is None and workers > 1:
            from gm.render.pool import RenderPool

            self.pool = RenderPool(workers, budget=short_reports.budget_of(self.home))
        self.under_way.append(publish.start(self.db, self.home, self.clock, game_name, pool=self.pool))
        self.finish(keep=GAMES_AHEAD)

    def finish(self, keep: int = 0) -> None:
        """Publish the games whose reports are done, oldest first, and wait for the oldest
        while more than `keep` are under way."""
        while self.under_way and (len(self.under_way) > keep or self.under_way[0].done()):
            started = self.under_way.pop(0)
            try:
                done = publish.finish(self.db, self.home, self.clock, started)
                self.report.lines += publish.describe(done)
                self.report.problems += publish.warnings(done)
            except GMError as exc:
                _failed(self.db, self.clock, self.report, started.game, exc)


class Hooks:
    """Where mail plugs into the cycle; the plain cycle only records and reports."""

    def fetch(self, db: sqlite_utils.Database, home: Home, clock: Clock, report: RunReport) -> None:
        return None

    def remind(
        self,
        db: sqlite_utils.Database,
        home: Home,
        clock: Clock,
        game: GameRecord,
        seats: list[str],
        kind: str,
        report: RunReport,
    ) -> None:
        return None

    def send(self, db: sqlite_utils.Database, home: Home, clock: Clock, report: RunReport) -> None:
        return None


def run_due(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    dry_run: bool = False,
    hooks: Hooks | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> RunReport:
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
        report.lines += publish.publish_left_over(
            db,
            home,
            clock,
            dry_run,
            failed=lambda name, exc: _failed(db, clock, report, name, exc),
            warned=report.problems.append,
        )
        with Publishing(db, home, clock, report) as publishing:
            for game in records.all_games(db):
                if game.status == "over":
                    continue
                progress(game.name)
                try:
                    _one_game(db, home, clock, game.name, dry_run, hooks, publishing, report)
                except GMError as exc:
                    _failed(db, clock, report, game.name, exc, dry_run)
        if not dry_run:
            report.problems += filter(None, [archive_keeping.over_budget(home)])
            report.lines += slips.apply_defaults(db, home, clock)  # before the mail goes out
            hooks.send(db, home, clock, report)
            with transaction(db):
                runs.record_run(db, started, iso(clock.now()), report.lines + report.problems)
    return report


def _one_game(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    name: str,
    dry_run: bool,
    hooks: Hooks,
    publishing: Publishing,
    report: RunReport,
) -> None:
    game = records.game_by_name(db, name)
    if not dry_run and records.unpublished_turns(db, game.id):
        return  # it could not be published (a problem above): nothing new until it is
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
    report.lines.append(f"{name}: turn {summary.number} run ({decision.why}); {summary.after}")
    report.lines.extend(f"{name}: {notice}" for notice in summary.notices)
    publishing.start(name)


def _failed(
    db: sqlite_utils.Database, clock: Clock, report: RunReport, name: str, error: GMError, dry_run: bool = False
) -> None:
    """A game run-due could not run or publish: a problem of the run, noted for gm status. The
    database says which: a turn left unpublished was run and not published, else the turn being
    collected was not run (its transaction rolled back)."""
    report.fail(name, error)
    if dry_run:
        return
    game = records.game_by_name(db, name)
    unpublished = records.unpublished_turns(db, game.id)
    if unpublished:
        faults.record(db, clock, game, faults.PUBLISH, unpublished[-1], error)
    else:
        faults.record(db, clock, game, faults.RUN, game.turn, error)


def _record_reminders(
    db: sqlite_utils.Database, game: GameRecord, seats: Iterable[str], kind: str, now: datetime
) -> None:
    ids = {s.code: s.id for s in records.seats_of(db, game.id)}
    with transaction(db):
        for code in seats:
            runs.record_reminder(db, game.id, game.turn, ids[code], kind, iso(now))


def _warn_once(db: sqlite_utils.Database, game: GameRecord, why: str, now: datetime) -> None:
    if not audit.spike_warnings(db, game.id, game.turn):
        with transaction(db):
            records.audit(db, iso(now), game.id, "nmr spike", {"turn": game.turn, "why": why})


def _push_for_absences(db: sqlite_utils.Database, clock: Clock, game: GameRecord, report: RunReport) -> None:
    """With absence-policy push, an absence over the deadline moves it to the absence's end,
    at most absence-pushes times per player per game."""
    if game_setting(game, "absence-policy") != "push" or not game.due:
        return
    limit = game_setting(game, "absence-pushes")
    for code, ends in sorted(cycle.absent_at(db, game, cycle.moment(game.due)).items()):
        if audit.absence_pushes(db, game.id, code) >= limit:
            continue
        due = ends + timedelta(minutes=1)
        with transaction(db):
            cycle.set_due(db, game, cycle.moment(game.slot), due)
            records.audit(db, iso(clock.now()), game.id, "absence push", {"seat": code, "due": iso(due)})
        report.lines.append(f"{game.name}: deadline moved to {describe(due, cycle.zone_of(game))} for {code}'s absence")
        return


def status(db: sqlite_utils.Database, clock: Clock) -> list[dict[str, Any]]:
    """Every game at a glance (gm status)."""
    rows: list[dict[str, Any]] = []
    for game in records.all_games(db):
        seats = records.seats_of(db, game.id)
        current = records.current_submissions(db, game.id, game.turn)
        # an over game waits for no one's orders
        active = [s for s in seats if s.status == "active"] if game.status != "over" else []
        last = last_resolved(db, game.id, first=1)
        problems = audit.spike_warnings(db, game.id, game.turn) + faults.game_faults(db, game, every_unpublished=True)
        unpublished = records.unpublished_turns(db, game.id)
        rows.append(
            {
                "game": game.name,
                "ruleset": game.ruleset,
                "status": game.status,
                "turn": game.turn,
                "deadline": game.deadline if game.status != "over" else None,
                "due": game.due,
                "schedule": (game.schedule or {}).get("text", "manual"),
                "held": game.held,
                "seats": len(seats),
                "in": sorted(s.code for s in seats if s.id in current),
                "missing": sorted(s.code for s in active if s.id not in current),
                "final": sorted(s.code for s in seats if current.get(s.id, {}).get("final")),
                "dropped": sorted(s.code for s in seats if s.status == "dropped"),
                "last_run": last,
                "problems": problems,
                "unpublished": unpublished,
            }
        )
    return rows
