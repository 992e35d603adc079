"""The cycle's decisions for one game: grace, early processing, holds, reminders, the NMR spike."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from gm.core.cycle import GameFacts, decide

DUE = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
BASE = GameFacts(
    due=DUE,
    grace_minutes=60,
    held=False,
    active=("A", "B", "C", "D"),
    submitted=("A", "B", "C"),
    final_at={},
    absent=(),
    early=True,
    early_delay_minutes=30,
    reminder_minutes=1440,
    spike_percent=50,
    reminded=(),
    late_noticed=(),
)


def at(**delta) -> datetime:
    return DUE + timedelta(**delta)


def test_waits_until_deadline_plus_grace():
    assert not decide(BASE, at(minutes=59)).run
    d = decide(BASE, at(minutes=60))
    assert d.run and d.why == "deadline passed"


def test_reminders_a_day_before_to_seats_without_orders_once():
    assert decide(BASE, at(hours=-25)).remind == ()
    assert decide(BASE, at(hours=-23)).remind == ("D",)
    assert decide(replace(BASE, reminded=("D",)), at(hours=-1)).remind == ()


def test_late_notice_in_grace_once():
    assert decide(BASE, at(minutes=10)).late == ("D",)
    assert decide(replace(BASE, late_noticed=("D",)), at(minutes=10)).late == ()


def test_early_when_all_final_after_the_delay():
    finals = {s: at(days=-2) for s in "ABCD"}
    facts = replace(BASE, submitted=tuple("ABCD"), final_at=finals)
    assert not decide(facts, at(days=-2, minutes=29)).run
    d = decide(facts, at(days=-2, minutes=30))
    assert d.run and d.why == "every active seat sent final orders"
    assert not decide(replace(facts, early=False), at(days=-1)).run
    assert not decide(replace(facts, final_at={s: finals[s] for s in "ABC"}), at(days=-1)).run


def test_hold_and_manual():
    assert decide(replace(BASE, held=True), at(days=3)).why == "held by the GM"
    assert not decide(replace(BASE, due=None), at(days=3)).run


def test_nmr_spike_guard():
    facts = replace(BASE, submitted=("A",))
    d = decide(facts, at(hours=2))
    assert not d.run and d.spike and "3 of 4 seats sent no orders" in d.why
    assert decide(replace(facts, submitted=("A", "B")), at(hours=2)).run  # 2 of 4 is not more than 50 %


def test_absent_seats_are_not_missing():
    assert decide(replace(BASE, absent=("D",)), at(hours=-1)).remind == ()
    assert decide(replace(BASE, submitted=("A",), absent=("B", "C", "D")), at(hours=2)).run
