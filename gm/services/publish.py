"""Publishing turns: every seat's report rendered, recorded and its mail queued, exactly once.

A turn is published when turns.published is set, in the one transaction that records every
seat's report and queues every report mail. Rendering comes first and writes files only; a
turn renders to the same bytes every time, so a crash anywhere before that transaction's commit
costs the time to render again and nothing else. gm run-due and gm turn run publish every turn
left unpublished, in every game, before they resolve anything new; gm status names them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlite_utils

from gm.clock import Clock, iso
from gm.crash import crash_point
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.services import observers, report_mails, reports, short_reports
from gm.services.reports import Rendering, SeatReport, Written
from gm.services.short_reports import ShortReport
from gm.store import records
from gm.store.database import transaction
from gm.store.turns import unpublished_everywhere

if TYPE_CHECKING:
    from gm.render.pool import RenderPool


@dataclass(frozen=True)
class Published:
    """What publishing did in one game.

    turns: the turns published now (turns rendered again that were published before are not).
    written: what was rendered, None when nothing was.
    queued: report mails queued; none without a [mail] address in gm.toml (nobody mails then).
    held: (turn, seat) of each report held for want of credits: its player got a held notice
        instead, and credit releases it.
    short: each report that went past its render budget (short_reports.ShortReport): its seat
        got a short report instead; warnings() says so to the GM.
    """

    game: str
    turns: tuple[int, ...]
    written: Written | None
    queued: int
    held: tuple[tuple[int, str], ...] = ()
    short: tuple[ShortReport, ...] = ()
    observers: int = 0  # the turns' public pages queued to the game's observers
    mailing: bool = True  # False: gm.toml has no [mail] address, so nothing was queued


def publish(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game_name: str,
    numbers: list[int] | None = None,
    pool: RenderPool | None = None,
) -> Published:
    """Render the given turns (default: the game's unpublished ones), then in one transaction
    record every seat's report and, for each turn not yet published, queue its report mails
    and mark it published. A turn published before is recorded again, never mailed again.
    pool: an open gm.render.RenderPool to render in."""
    return finish(db, home, clock, start(db, home, clock, game_name, numbers, pool))


@dataclass(frozen=True)
class Started:
    """A publish whose reports are being rendered: the game, the turns wanted, the render."""

    game: str
    wanted: tuple[int, ...]
    rendering: Rendering | None = None  # None when there is nothing to publish

    def done(self) -> bool:
        return self.rendering is None or self.rendering.done()


def start(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game_name: str,
    numbers: list[int] | None = None,
    pool: RenderPool | None = None,
) -> Started:
    """The first half of publish: write the JSON and start rendering, in `pool` without waiting
    (gm run-due resolves the next game meanwhile). Nothing is recorded yet."""
    game = records.game_by_name(db, game_name)
    wanted = records.unpublished_turns(db, game.id) if numbers is None else sorted(set(numbers))
    if not wanted:
        return Started(game.name, ())
    # The turns whose report mails finish will queue: their seats' kits are made with the reports.
    # A turn published before is not mailed again, and its kit is left as its mails took it.
    mailed = set(records.unpublished_turns(db, game.id)) & set(wanted) if mail_settings(home).address else set()
    return Started(
        game.name, tuple(wanted), reports.start_render(db, home, game.name, list(wanted), pool=pool, kits=mailed)
    )


def finish(db: sqlite_utils.Database, home: Home, clock: Clock, started: Started) -> Published:
    """The second half of publish: wait for the reports, then record and queue in one transaction."""
    if started.rendering is None:
        return Published(started.game, (), None, 0)
    game, wanted = records.game_by_name(db, started.game), started.wanted
    written = reports.finish_render(db, home, started.rendering)
    crash_point("publish:after-render")
    mailing = bool(mail_settings(home).address)
    with transaction(db):
        # Read again inside the transaction: another process may have published some meanwhile.
        due = [n for n in records.unpublished_turns(db, game.id) if n in wanted]
        for report in written.reports:
            records.record_report(db, game.id, report.turn, report.seat, _files(home, report))
        done = {n: report_mails.queue_reports(db, home, clock, game.name, n) for n in due} if mailing else {}
        observed = sum(observers.queue_public(db, home, clock, game, n) for n in due) if mailing else 0
        records.mark_published(db, game.id, due, iso(clock.now()))
        for short in written.short:
            detail = {"report": short.identifier, "turn": short.turn, "seat": short.seat, "why": short.why}
            records.audit(db, iso(clock.now()), game.id, "report over budget", detail)
    crash_point("publish:after-commit")
    held = tuple((n, seat) for n, queued in done.items() for seat in queued.held)
    return Published(
        game.name, tuple(due), written, sum(q.reports for q in done.values()), held, written.short, observed, mailing
    )


def warnings(done: Published) -> list[str]:
    """What the GM must hear of a publish: each report past its render budget, which seat, why."""
    return short_reports.gm_lines(done.game, done.short)


def unpublished(db: sqlite_utils.Database) -> dict[str, list[int]]:
    """Every game with turns resolved but not published, and those turns."""
    found: dict[str, list[int]] = {}
    for name, number in unpublished_everywhere(db):
        found.setdefault(name, []).append(number)
    return found


def publish_left_over(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    dry_run: bool = False,
    failed: Callable[[str, GMError], None] = lambda name, error: None,
    warned: Callable[[str], None] = lambda warning: None,
) -> list[str]:
    """Publish every turn a crash (or gm turn run --no-render, or a fault in its reports) left
    unpublished, in every game; returns lines saying what was done. Each game on its own: one
    that cannot be published (a broken template, a report file gone, a ruleset that raises) goes
    to failed(game, error), and the others go on; what the GM must hear of one that was (a
    report past its render budget, see warnings) goes to warned."""
    left = unpublished(db)
    lines = [
        f"{name}: {turns_text(numbers)} was run but not published" + ("; would publish" if dry_run else "")
        for name, numbers in left.items()
    ]
    for name in left if not dry_run else ():
        try:
            done = publish(db, home, clock, name)
            lines += describe(done)
            for warning in warnings(done):
                warned(warning)
        except GMError as exc:
            failed(name, exc)
    return lines


def describe(done: Published) -> list[str]:
    """What publishing did, in lines for the GM."""
    lines = []
    if done.turns and done.written is not None:  # a publish of some turns has always written them
        lines.append(f"{done.game}: {turns_text(done.turns)} reports written to {done.written.folder}")
    if done.queued:
        lines.append(f"{done.game}: {done.queued} report mail(s) queued")
    if done.observers:
        lines.append(f"{done.game}: {done.observers} mail(s) of public pages queued to observers")
    if done.held:
        lines.append(held_text(done))
    return lines


def held_text(done: Published) -> str:
    """'g: 2 report(s) held for credits: BR (turn 3), FR (turn 3); ... credit releases them'."""
    seats = ", ".join(f"{seat} (turn {turn})" for turn, seat in done.held)
    return (
        f"{done.game}: {len(done.held)} report(s) held for credits: {seats}; each player got a "
        "held notice saying how to pay, and credit ('gm credits buy' or 'adjust') releases the report"
    )


def turns_text(numbers: Sequence[int]) -> str:
    """'turn 3' or 'turns 3, 4' for the GM's messages."""
    return f"turn {numbers[0]}" if len(numbers) == 1 else "turns " + ", ".join(map(str, numbers))


def _files(home: Home, report: SeatReport) -> dict[str, str]:
    return {
        "pdf": str(report.pdf.relative_to(home.root)),
        "json": str(report.json.relative_to(home.root)),
        "pdf_sha256": report.pdf_sha256,
        "json_sha256": report.json_sha256,
        "rendered": report.rendered,
    }
