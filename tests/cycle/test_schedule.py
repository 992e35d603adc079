"""Schedules: phrases to RRULEs, deadlines across the DST changes of London and New York."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta

import pytest

from gm.core.schedule import (
    ScheduleError,
    deadlines_after,
    describe,
    next_deadline,
    parse_moment,
    parse_schedule,
)

NOW = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)  # a Tuesday


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_weekly_friday_london_across_the_october_change():
    s = parse_schedule("weekly on Friday at 18:00 Europe/London", NOW)
    assert s.rrule == "FREQ=WEEKLY;INTERVAL=1;BYDAY=FR;BYHOUR=18;BYMINUTE=0;BYSECOND=0" and s.zone == "Europe/London"
    # BST (UTC+1) until 25 October 2026, then GMT: the wall time stays 18:00.
    assert deadlines_after(s, NOW, 3) == [utc(2026, 10, 23, 17), utc(2026, 10, 30, 18), utc(2026, 11, 6, 18)]
    assert [describe(d, s.zone) for d in deadlines_after(s, NOW, 2)] == [
        "Fri 2026-10-23 18:00 BST (Europe/London)",
        "Fri 2026-10-30 18:00 GMT (Europe/London)",
    ]


def test_london_march_change():
    s = parse_schedule("weekly on Sunday 12:00 Europe/London", NOW)
    assert deadlines_after(s, utc(2027, 3, 20), 2) == [utc(2027, 3, 21, 12), utc(2027, 3, 28, 11)]


def test_new_york_changes_and_the_gap():
    s = parse_schedule("daily 02:30 America/New_York", NOW)
    # 14 March 2027: 02:30 does not exist in New York; the deadline falls forward by the gap.
    assert [describe(d, s.zone) for d in deadlines_after(s, utc(2027, 3, 12), 3)] == [
        "Fri 2027-03-12 02:30 EST (America/New_York)",
        "Sat 2027-03-13 02:30 EST (America/New_York)",
        "Sun 2027-03-14 03:30 EDT (America/New_York)",
    ]
    # 1 November 2026: 01:30 happens twice; the first one counts.
    s = parse_schedule("daily 01:30 America/New_York", NOW)
    assert deadlines_after(s, utc(2026, 11, 1), 1) == [utc(2026, 11, 1, 5, 30)]


def test_every_two_weeks_counts_from_this_week():
    s = parse_schedule("every 2 weeks on Monday 09:00", NOW)
    assert s.zone == "UTC" and "INTERVAL=2" in s.rrule
    assert deadlines_after(s, NOW, 3) == [utc(2026, 11, 2, 9), utc(2026, 11, 16, 9), utc(2026, 11, 30, 9)]


@pytest.mark.parametrize(
    "phrase, rule",
    [
        ("daily 20:00 UTC", "FREQ=DAILY;INTERVAL=1;BYHOUR=20;BYMINUTE=0;BYSECOND=0"),
        ("every 3 days at 12:00", "FREQ=DAILY;INTERVAL=3;BYHOUR=12;BYMINUTE=0;BYSECOND=0"),
        ("weekly on mon and thu at 18:00", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
        ("every 52 weeks on Monday 09:00", "FREQ=WEEKLY;INTERVAL=52;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
        ("every 366 days at 06:00", "FREQ=DAILY;INTERVAL=366;BYHOUR=6;BYMINUTE=0;BYSECOND=0"),
        ("fortnightly on Wednesday 7:30", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;BYHOUR=7;BYMINUTE=30;BYSECOND=0"),
        ("manual", ""),
    ],
)
def test_phrases(phrase, rule):
    assert parse_schedule(phrase, NOW).rrule == rule


@pytest.mark.parametrize(
    "phrase, message",
    [
        ("weekly at 18:00", "a weekly schedule needs a day"),
        ("sometimes", "needs exactly one time of day"),
        ("daily 25:00", "needs exactly one time of day"),
        ("weekly on Friday 18:00 Mars/Base", "cannot read 'mars/base'"),
        ("daily on Friday 18:00", "a daily schedule takes no day names"),
        ("every 0 days at 18:00", "deadlines come every 1 to 366 days, not every 0"),
        ("every 367 days at 18:00", "deadlines come every 1 to 366 days, not every 367"),
        ("every 99999999999999999999 days at 18:00", "every 1 to 366 days, not every 99999999999999999999"),
        ("every 53 weeks on Monday 09:00", "deadlines come every 1 to 52 weeks, not every 53"),
        ("every ² days at 18:00", "say how often"),
    ],
)
def test_bad_phrases(phrase, message):
    with pytest.raises(ScheduleError, match=message):
        parse_schedule(phrase, NOW)


def test_parse_moment_zones():
    assert parse_moment("2026-11-27 18:00 Europe/London") == utc(2026, 11, 27, 18)
    assert parse_moment("2026-07-01 18:00 Europe/London") == utc(2026, 7, 1, 17)
    assert parse_moment("2026-07-01 18:00", "America/New_York") == utc(2026, 7, 1, 22)
    with pytest.raises(ScheduleError):
        parse_moment("someday")


@pytest.mark.parametrize(
    "text, message",
    [
        # dateutil warned and read the time as UTC: 18:00 CET became 18:00 UTC, EST five hours off
        ("2026-12-04 18:00 CET", "'2026-12-04 18:00 CET': cannot read the time zone 'CET'; time zones are IANA"),
        ("2026-12-04 18:00 EST", "'2026-12-04 18:00 EST': cannot read the time zone 'EST'; time zones are IANA"),
        # dateutil reads the month first: a European GM's 4 December was 12 April
        # a zone name misspelt was "cannot read ... as a date and time", which blamed the date
        ("2026-12-04 18:00 Europe/Berln", "'2026-12-04 18:00 Europe/Berln': there is no time zone 'Europe/Berln';"),
        ("04.12.2026 18:00", "'04.12.2026 18:00': 04.12.2026 could be 4 December or 12 April; write the date"),
        ("12/04/2026", "'12/04/2026': 12/04/2026 could be 12 April or 4 December; write the date year first"),
    ],
)
def test_a_moment_gm_would_misread_is_refused(text, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no warning on the GM's terminal
        with pytest.raises(ScheduleError) as refused:
            parse_moment(text)
    assert str(refused.value).startswith(message)


def test_a_moment_that_reads_one_way_only_is_read():
    assert parse_moment("13/04/2027 18:00") == utc(2027, 4, 13, 18)  # no 13th month: the day came first
    assert parse_moment("12/12/2026 18:00") == utc(2026, 12, 12, 18)
    assert parse_moment("2026-12-04 18:00 UTC") == utc(2026, 12, 4, 18)
    assert parse_moment("2026-12-04 18:00 Europe/Berlin") == utc(2026, 12, 4, 17)


def test_turns_run_early_on_one_friday_leave_the_next_due_the_next_friday():
    """Issue 28: three turns run on a Friday before 18:00 left turn 4 due three Fridays out.
    Each next deadline counts from when the turn ran: the next Friday, every time."""
    weekly = parse_schedule("weekly on Friday at 18:00 Europe/London", NOW)
    friday = utc(2026, 11, 27, 10)
    for hour in (10, 11, 12):
        assert next_deadline(weekly, friday.replace(hour=hour)) == utc(2026, 12, 4, 18)
    # Run at 17:00, an hour before the slot, the next turn is not due an hour later: half a week at least.
    assert next_deadline(weekly, utc(2026, 11, 27, 17)) == utc(2026, 12, 4, 18)
    # Run late (the deadline passed, plus grace), the next slot after the run.
    assert next_deadline(weekly, utc(2026, 11, 27, 20)) == utc(2026, 12, 4, 18)
    # Run on Monday with --now: Friday is four days off, more than half a week.
    assert next_deadline(weekly, utc(2026, 11, 23, 9)) == utc(2026, 11, 27, 18)


def test_the_gap_is_half_the_schedule_s_shortest_interval_or_the_game_s_own():
    daily = parse_schedule("daily 20:00 UTC", NOW)
    assert next_deadline(daily, utc(2026, 11, 27, 19)) == utc(2026, 11, 28, 20)  # not an hour later
    assert next_deadline(daily, utc(2026, 11, 27, 7)) == utc(2026, 11, 27, 20)  # 13 hours: more than 12
    twice = parse_schedule("weekly on Monday and Thursday at 12:00 UTC", NOW)
    assert next_deadline(twice, utc(2026, 11, 23, 11)) == utc(2026, 11, 26, 12)  # 1.5 days at least
    assert next_deadline(daily, utc(2026, 11, 27, 19), timedelta(0)) == utc(2026, 11, 27, 20)
    assert next_deadline(daily, utc(2026, 11, 27, 7), timedelta(days=2)) == utc(2026, 11, 29, 20)
    assert next_deadline(parse_schedule("manual", NOW), NOW) is None
