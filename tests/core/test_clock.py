"""gm.clock.iso: the one format gm stores time in, written by hand for speed, equal to strftime's."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from gm.clock import SystemClock, iso


def _by_strftime(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_iso_is_utc_with_a_z_whatever_the_zone_it_is_given_in() -> None:
    assert iso(datetime(2026, 11, 28, 23, 5, 9, tzinfo=UTC)) == "2026-11-28T23:05:09Z"
    assert iso(datetime(2026, 11, 29, 0, 35, 9, tzinfo=timezone(timedelta(hours=1, minutes=30)))) == (
        "2026-11-28T23:05:09Z"
    )
    assert iso(datetime(2026, 3, 29, 1, 0, 0, tzinfo=ZoneInfo("Europe/Berlin"))) == "2026-03-29T00:00:00Z"
    # Microseconds are dropped, not rounded, as strftime drops them.
    assert iso(datetime(2026, 1, 1, 0, 0, 59, 999_999, tzinfo=UTC)) == "2026-01-01T00:00:59Z"


def test_iso_equals_strftime_for_any_moment_and_zone() -> None:
    rng = random.Random(32)
    zones = [UTC, timezone(timedelta(hours=-9, minutes=-30)), ZoneInfo("America/New_York"), ZoneInfo("UTC")]
    zones.append(ZoneInfo("Pacific/Kiritimati"))
    for _ in range(2_000):
        moment = datetime(1000, 1, 2, tzinfo=UTC) + timedelta(seconds=rng.randrange(9_000 * 365 * 86_400))
        moment = moment.replace(microsecond=rng.randrange(1_000_000)).astimezone(rng.choice(zones))
        assert iso(moment) == _by_strftime(moment), moment
    for year in (1, 999, 1000, 9999):  # strftime leaves years before 1000 unpadded here; iso agrees
        moment = datetime(year, 6, 15, 12, 0, 0, tzinfo=UTC)
        assert iso(moment) == _by_strftime(moment)


def test_iso_of_the_system_clock() -> None:
    now = SystemClock().now()
    assert iso(now) == _by_strftime(now) and now.microsecond == 0


def test_the_system_clock_is_utc_in_whole_seconds_and_now() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    now = SystemClock().now()
    after = datetime.now(UTC)
    assert now.tzinfo is UTC and now.microsecond == 0  # iso's quick way takes `tzinfo is UTC`
    assert before <= now <= after
