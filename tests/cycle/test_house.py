"""A test house: three games on different schedules, six simulated weeks, gm run-due every
simulated hour, with punctual, late, missing, early and absent players. Every turn must run
exactly once at the right moment, every report be written and mailed once, every reminder
reach exactly the seats that had no orders."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.core.schedule import Schedule, deadlines_after
from gm.home import Home, create_home
from gm.services import credits, cycle, games, rundue, turnfiles
from gm.services.game_settings import game_setting, set_game_setting
from gm.services.rundue_mail import MailHooks
from gm.store import records
from gm.store.database import open_database

START = datetime(2027, 2, 22, 0, 0, tzinfo=UTC)  # Monday; the US and UK clocks change in March
HOURS = 6 * 7 * 24
HOUSE_REPORT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ game.title }}: turn {{ turn }}, {{ seat }}</title></head>
<body><h1>{{ game.name }}, turn {{ turn }}: the report of {{ seat }}</h1></body></html>
"""


class House:
    def __init__(self, root: Path):
        self.home = Home(root)
        create_home(self.home)
        settings = self.home.settings_file.read_text()
        self.home.settings_file.write_text(settings.replace('address = ""', 'address = "gm@house.example.org"', 1))
        # The house's own report template (a GM's override, as docs/design.md "Templates" allows):
        # one short page, no maps. Every report is still rendered to a PDF by the render pool and
        # mailed; what the house checks is when turns run and who is mailed, not what a report
        # says, and gm's own 58 reports of maps and tables took five sixths of its time.
        (self.home.templates / "report.html").write_text(HOUSE_REPORT)
        self.db = open_database(self.home.database)
        self.clock = FixedClock(START)
        self.secrets: dict[tuple, str] = {}
        self.expected_reminders: set[tuple] = set()

    def game(self, name, seats, schedule, **settings):
        games.create_game(self.db, self.clock, name, "clash", "lowlands" if seats == 2 else None, 11)
        for i in range(seats):
            code, secret = games.join_game(self.db, self.clock, name, f"{name}{i}@example.org", f"P{i}")
            self.secrets[(name, code)] = secret
            credits.buy(self.db, self.clock, f"{name}{i}@example.org", 50, 5000, name, None)
        for key, value in settings.items():
            set_game_setting(self.db, self.clock, name, key.replace("_", "-"), value)
        cycle.set_schedule(self.db, self.clock, name, schedule)

    def send(self, name, code, final=False):
        form = turnfiles.order_template(self.db, name, code).replace("<your secret>", self.secrets[(name, code)])
        if final:
            form = form.replace("\nEND", "\nFINAL\nEND")
        receipt = turnfiles.submit(self.db, self.home, self.clock, form.encode(), "file", f"{name}-{code}")
        assert receipt.checked.accepted, receipt.checked

    def state(self, name):
        return records.game_by_name(self.db, name)

    def note_reminders(self):
        """What the reminder rule says now, independently: seats with no orders within the
        game's reminder time before the deadline."""
        for name in ("weekly", "fortnight", "rapid"):
            game = self.state(name)
            if game.status == "over" or not game.due:
                continue
            due = cycle.moment(game.due)
            if due - timedelta(minutes=game_setting(game, "reminder")) <= self.clock.now() < due:
                current = records.current_submissions(self.db, game.id, game.turn)
                absent = cycle.absent_at(self.db, game, due)
                for seat in records.seats_of(self.db, game.id):
                    if seat.status == "active" and seat.id not in current and seat.code not in absent:
                        self.expected_reminders.add((name, game.turn, seat.code))


@pytest.mark.slow
def test_six_weeks_of_a_house(tmp_path):
    house = House(tmp_path / "house")
    house.game("weekly", 4, "weekly on Friday at 18:00 Europe/London", grace="1h", nmr_limit="0")
    house.game("fortnight", 2, "every 2 weeks on Monday 09:00 America/New_York")
    house.game("rapid", 2, "every 3 days at 20:00 UTC", nmr_limit="2", reminder="12h")
    cycle.add_standby(house.db, house.clock, "rapid", "standby@example.org", "Stan")
    credits.buy(house.db, house.clock, "standby@example.org", 50, 5000, None, "Stan")
    cycle.add_absence(house.db, house.clock, "weekly", "GE", "2027-03-08", "2027-03-21")

    expected_runs: dict[str, list[datetime]] = {"weekly": [], "fortnight": [], "rapid": []}
    for hour in range(HOURS):
        now = START + timedelta(hours=hour)
        house.clock.when = now
        _players_act(house, now)
        house.note_reminders()
        _expect_runs(house, now, expected_runs)
        report = rundue.run_due(house.db, house.home, house.clock, hooks=MailHooks())
        assert report.problems == [], (now, report.problems)
        for line in report.lines:  # the GM passes a standby's new secret on, as printed
            if "; secret for " in line:
                game, rest = line.split(": ", 1)
                code, secret = rest.rsplit("; secret for ", 1)[1].split(": ")
                house.secrets[(game, code)] = secret

    for name, expected in expected_runs.items():
        game = house.state(name)
        resolved = [cycle.moment(t.resolved) for t in records.turns_of(house.db, game.id, 1)]
        assert resolved == expected, name
        reports = house.db.execute("SELECT turn, seat FROM reports WHERE game_id = ?", [game.id]).fetchall()
        seats = len(records.seats_of(house.db, game.id))
        assert len(reports) == len(set(reports)) == len(resolved) * seats
    sent = {
        (g, t, code)
        for g, t, code in house.db.execute(
            """SELECT g.name, r.turn, s.code FROM reminders r JOIN games g ON g.id = r.game_id
           JOIN seats s ON s.id = r.seat_id WHERE r.kind = 'reminder'"""
        ).fetchall()
    }
    assert sent == house.expected_reminders
    mails = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in (tmp_path / "house" / "outbox").rglob("*.eml")
    ]
    report_mails = [(m["To"], m["Subject"]) for m in mails if "(turn " in m["Subject"]]
    assert (
        len(report_mails)
        == len(set(report_mails))
        == sum(
            len(house.db.execute("SELECT 1 FROM reports WHERE game_id = ?", [house.state(n).id]).fetchall())
            for n in expected_runs
        )
    )
    reminder_mails = [m for m in mails if "reminder, orders for turn" in m["Subject"]]
    assert len(reminder_mails) == len(house.expected_reminders)
    assert len(expected_runs["weekly"]) == 6 and len(expected_runs["rapid"]) == 14
    # The fortnightly game ran early (both seats FINAL on Saturdays), never waiting for Monday.
    assert all(t.weekday() == 5 for t in expected_runs["fortnight"]) and len(expected_runs["fortnight"]) == 3
    assert [s.email for s in records.seats_of(house.db, house.state("rapid").id)][1] == "standby@example.org"


def _players_act(house: House, now: datetime) -> None:
    weekly, fortnight, rapid = house.state("weekly"), house.state("fortnight"), house.state("rapid")
    if weekly.status != "over":
        due = cycle.moment(weekly.due)
        if now == due - timedelta(hours=54):  # BR: punctual, Wednesday noon
            house.send("weekly", "BR")
        if now == due + timedelta(minutes=30) - timedelta(minutes=30):  # RU: late, at the deadline, in grace
            house.send("weekly", "RU")
        # FR never sends (robot orders); GE is away for two weeks, else sends on Thursday.
        if now == due - timedelta(hours=30) and not cycle.absent_at(house.db, weekly, due):
            house.send("weekly", "GE")
    if fortnight.status != "over" and now.weekday() == 5 and now.hour == 10 and fortnight.due:
        if cycle.moment(fortnight.due) - now < timedelta(days=3):
            house.send("fortnight", "BR", final=True)
            house.send("fortnight", "FR", final=True)
    if rapid.status != "over" and rapid.due:
        due = cycle.moment(rapid.due)
        if now == due - timedelta(hours=20):
            house.send("rapid", "BR")
        standby = records.seats_of(house.db, rapid.id)[1]
        if standby.email == "standby@example.org" and now == due - timedelta(hours=2):
            house.send("rapid", "FR")


def _expect_runs(house: House, now: datetime, expected: dict) -> None:
    """Independently of run-due: a game is due when now reaches its deadline plus grace, or
    (the fortnightly game) when both seats have sent FINAL orders."""
    for name, grace in (("weekly", 60), ("fortnight", 0), ("rapid", 0)):
        game = house.state(name)
        if game.status == "over" or not game.due:
            continue
        current = records.current_submissions(house.db, game.id, game.turn)
        early = name == "fortnight" and len(current) == 2 and all(c["final"] for c in current.values())
        if now >= cycle.moment(game.due) + timedelta(minutes=grace) or early:
            expected[name].append(now)
            schedule = Schedule.from_json(game.schedule)
            assert cycle.moment(game.slot) in deadlines_after(
                schedule, cycle.moment(game.slot) - timedelta(seconds=1), 1
            )
