"""Deadline schedules: a GM's phrase to an iCalendar RRULE, and the deadlines it gives.

Times are wall-clock times in the schedule's zone, so "18:00 Europe/London" stays 18:00 across
daylight-saving changes. A wall time that does not exist on a spring-forward day (01:30 in
London) falls forward by the gap; one that happens twice on a fall-back day is the first.
"""

from __future__ import annotations

import calendar
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil import parser as date_parser
from dateutil.rrule import rrulestr

_DAYS = {
    "monday": "MO",
    "tuesday": "TU",
    "wednesday": "WE",
    "thursday": "TH",
    "friday": "FR",
    "saturday": "SA",
    "sunday": "SU",
}
_DAY_NAMES = {code: name.capitalize() for name, code in _DAYS.items()}
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")
# Deadlines at most a year apart ("every 366 days", "every 52 weeks"), as a game's grace is at most
# a year: a number of many digits would put the next deadline past the year 9999 (or crash).
MOST_DAYS_APART = 366
EXAMPLES = '"weekly on Friday at 18:00 Europe/London", "every 2 weeks on Monday 09:00", "daily 20:00 UTC", "manual"'


class ScheduleError(ValueError):
    """A schedule phrase gm cannot read; the message says why and shows what it can."""


@dataclass(frozen=True)
class Schedule:
    """A game's deadlines.

    text: the phrase as the GM wrote it. rrule: the iCalendar RRULE (empty for manual).
    zone: the IANA time zone of the wall times. anchor: the local wall time the rule counts
    from (matters for "every 2 weeks": which weeks), as ISO text without zone.
    """

    text: str
    rrule: str
    zone: str
    anchor: str

    @property
    def manual(self) -> bool:
        return not self.rrule

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "rrule": self.rrule, "zone": self.zone, "anchor": self.anchor}

    @classmethod
    def from_json(cls, data: Mapping[str, str]) -> Schedule:
        return cls(data["text"], data["rrule"], data["zone"], data["anchor"])


def parse_schedule(text: str, now: datetime, default_zone: str = "UTC") -> Schedule:
    """Read a phrase such as "weekly on Friday at 18:00 Europe/London"; now anchors the rule."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    lowered = [w.lower() for w in words]
    if lowered == ["manual"]:
        return Schedule("manual", "", default_zone, "")
    if not words:
        raise ScheduleError(f"the schedule is empty. Write it like {EXAMPLES}.")
    zone = default_zone
    if _is_zone(words[-1]):
        zone = "UTC" if words[-1].upper() in ("UTC", "GMT", "Z") else words[-1]
        words, lowered = words[:-1], lowered[:-1]
    times = [w for w in lowered if _TIME.match(w)]
    if len(times) != 1:
        raise ScheduleError(f"'{text}' needs exactly one time of day such as 18:00. Write it like {EXAMPLES}.")
    time_of_day = _TIME.match(times[0])
    assert time_of_day is not None  # times holds only the words _TIME matches
    hour, minute = map(int, time_of_day.groups())
    days = [_DAYS[day] for w in lowered if (day := _day(w))]
    freq, interval = _frequency(lowered, text)
    if freq == "WEEKLY" and not days:
        raise ScheduleError(f"'{text}': a weekly schedule needs a day, as in 'weekly on Friday at 18:00'.")
    if freq == "DAILY" and days:
        raise ScheduleError(f"'{text}': a daily schedule takes no day names; use 'weekly on ...'.")
    known = set(times) | {
        "on",
        "at",
        "and",
        "every",
        "daily",
        "weekly",
        "day",
        "days",
        "week",
        "weeks",
        "fortnightly",
        str(interval),
    }
    stray = [w for w in lowered if w not in known and not _day(w)]
    if stray:
        raise ScheduleError(
            f"'{text}': cannot read '{stray[0]}' (time zones are IANA names such as "
            f"Europe/London or America/New_York). Write it like {EXAMPLES}."
        )
    parts = [f"FREQ={freq}", f"INTERVAL={interval}"]
    if days:
        parts.append("BYDAY=" + ",".join(sorted(set(days), key=list(_DAY_NAMES).index)))
    parts += [f"BYHOUR={hour}", f"BYMINUTE={minute}", "BYSECOND=0"]
    local_now = now.astimezone(ZoneInfo(zone)).replace(tzinfo=None, second=0, microsecond=0)
    # Anchor at the start of this week's Monday so "every 2 weeks" counts from this week.
    anchor = (local_now - timedelta(days=local_now.weekday())).replace(hour=0, minute=0)
    return Schedule(" ".join(text.split()), ";".join(parts), zone, anchor.isoformat())


def _frequency(lowered: list[str], text: str) -> tuple[str, int]:
    if "daily" in lowered:
        return "DAILY", 1
    if "weekly" in lowered:
        return "WEEKLY", 1
    if "fortnightly" in lowered:
        return "WEEKLY", 2
    if "every" in lowered:
        rest = lowered[lowered.index("every") + 1 :]
        word = rest[0] if rest else ""
        number = word.isascii() and word.isdigit()  # "²".isdigit() is True, and int() refuses it
        count = int(word) if number else 1
        unit = rest[1] if number and len(rest) > 1 else word
        if unit in ("day", "days"):
            return "DAILY", _apart(count, 1, text)
        if unit in ("week", "weeks"):
            return "WEEKLY", _apart(count, 7, text)
        if _day(unit):
            return "WEEKLY", 1
    raise ScheduleError(
        f"'{text}': say how often (daily, weekly, every N days, every N weeks). Write it like {EXAMPLES}."
    )


def _apart(count: int, days: int, text: str) -> int:
    """The interval of "every N days" (days=1) or "every N weeks" (days=7): 1 up to a year."""
    most = MOST_DAYS_APART // days
    if not 1 <= count <= most:
        unit = "days" if days == 1 else "weeks"
        raise ScheduleError(f"'{text}': deadlines come every 1 to {most} {unit}, not every {count}.")
    return count


def _day(word: str) -> str | None:
    word = word.lower().rstrip("s") if word.lower().endswith("days") and word.lower() != "days" else word.lower()
    for name in _DAYS:
        if len(word) >= 3 and name.startswith(word):
            return name
    return None


def _is_zone(word: str) -> bool:
    if word.upper() in ("UTC", "GMT", "Z"):
        return True
    if "/" not in word:
        return False
    try:
        ZoneInfo(word)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def deadlines_after(schedule: Schedule, after: datetime, count: int = 1) -> list[datetime]:
    """The next `count` deadlines strictly after `after`, as aware UTC datetimes."""
    if schedule.manual:
        return []
    zone = ZoneInfo(schedule.zone)
    rule = rrulestr(schedule.rrule, dtstart=datetime.fromisoformat(schedule.anchor))
    # Start looking a day early in local time: the UTC comparison below decides.
    local_after = after.astimezone(zone).replace(tzinfo=None) - timedelta(days=1)
    found: list[datetime] = []
    for wall in rule.xafter(local_after, inc=False):
        moment = _to_utc(wall, zone)
        if moment > after:
            found.append(moment)
            if len(found) == count:
                break
    return found


def shortest_interval(schedule: Schedule, after: datetime) -> timedelta | None:
    """The shortest time between two of the schedule's next few slots after `after` (a day for
    "daily", three for "weekly on Monday and Thursday"), None for a manual schedule."""
    slots = deadlines_after(schedule, after, 4)
    gaps = [later - earlier for earlier, later in zip(slots, slots[1:])]
    return min(gaps) if gaps else None


def next_deadline(schedule: Schedule, ran: datetime, gap: timedelta | None = None) -> datetime | None:
    """The deadline of the turn after one that ran at `ran`: the schedule's first slot at least
    `gap` after the run (default half the schedule's shortest interval, so a turn run early
    never leaves the next one due an hour later). It counts from when the turn ran, never from
    the deadline it had: turns run early one after another do not push the next deadline further
    out each time. None for a manual schedule."""
    if gap is None:
        interval = shortest_interval(schedule, ran)
        if interval is None:
            return None
        gap = interval / 2
    upcoming = deadlines_after(schedule, ran + gap, 1)
    return upcoming[0] if upcoming else None


def _to_utc(wall: datetime, zone: ZoneInfo) -> datetime:
    # fold=0 reads a wall time with the offset in force before a change: a time in the
    # spring-forward gap lands that much later, a doubled fall-back time is its first instance.
    return wall.replace(tzinfo=zone, fold=0).astimezone(UTC)


def describe(moment: datetime, zone: str) -> str:
    """A deadline as players read it: 'Fri 2026-11-27 18:00 GMT (Europe/London)'."""
    local = moment.astimezone(ZoneInfo(zone))
    return f"{local:%a %Y-%m-%d %H:%M} {local.tzname()}" + ("" if zone == "UTC" else f" ({zone})")


# A date written with its day and month first, as 04.12.2026 or 12/04/2026: dateutil reads the
# month first, so a European GM's 4 December became 12 April.
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b")


def _refuse_day_or_month(text: str) -> None:
    """A date whose first two numbers could each be the day or the month is refused, not guessed."""
    found = _DAY_MONTH_YEAR.search(text)
    first, second = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    if found and first != second and 1 <= min(first, second) and max(first, second) <= 12:
        raise ScheduleError(
            f"'{text}': {found.group(0)} could be {first} {calendar.month_name[second]} or {second} "
            f"{calendar.month_name[first]}; write the date year first, like '2026-11-27 18:00 Europe/London'."
        )


def parse_moment(text: str, default_zone: str = "UTC") -> datetime:
    """A single deadline as a GM writes it: '2026-11-27 18:00 Europe/London', ISO 8601, ..."""
    words = text.split()
    zone = default_zone
    if words and _is_zone(words[-1]) and "/" in words[-1]:
        zone, words = words[-1], words[:-1]
    elif words and "/" in words[-1] and any(c.isalpha() for c in words[-1]):  # Europe/Berln, Mars/Olympus
        raise ScheduleError(
            f"'{text}': there is no time zone '{words[-1]}'; time zones are IANA names such as "
            "Europe/Berlin or America/New_York, or UTC."
        )
    _refuse_day_or_month(text)
    try:
        with warnings.catch_warnings():  # a zone abbreviation dateutil cannot place was read as UTC
            warnings.simplefilter("error", date_parser.UnknownTimezoneWarning)
            moment = date_parser.parse(" ".join(words))
    except date_parser.UnknownTimezoneWarning as unknown:
        zone_words = re.search(r"tzname (\S+)", str(unknown))
        raise ScheduleError(
            f"'{text}': cannot read the time zone '{zone_words.group(1) if zone_words else words[-1]}'; time "
            "zones are IANA names such as Europe/Berlin or America/New_York, or UTC."
        ) from None
    except (ValueError, OverflowError):
        raise ScheduleError(
            f"cannot read '{text}' as a date and time; write it like '2026-11-27 18:00 Europe/London'."
        ) from None
    if not 2000 <= moment.year <= 2999:
        raise ScheduleError(f"'{text}' is not a date gm can schedule; give one between the years 2000 and 2999.")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(zone), fold=0)
    return moment.astimezone(UTC)
