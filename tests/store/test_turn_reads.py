"""A turn's reports read the states of the turns they show, not the whole season's (issue 32): an
Empires state is about 120 KB of JSON at turn 10, and run-due read every turn's state, events
and orders up to three times a game (the reports, the drop-outs, the reminders)."""

from __future__ import annotations

from pathlib import Path

from gm.home import Home
from gm.services import reports
from gm.store import records
from gm.store.database import open_database


def _played(gm, home: Path, game: dict, turns: int) -> None:
    for _ in range(turns):
        assert gm("turn", "run", "g1", "--now", home=home).code == 0


def test_orders_of_and_turns_numbered_are_what_turns_of_reads(gm, home, game):
    _played(gm, home, game, 3)
    db = open_database(home / "gm.db")
    g = records.game_by_name(db, "g1")
    whole = records.turns_of(db, g.id)
    assert [t.number for t in whole] == [0, 1, 2, 3]
    assert records.orders_of(db, g.id) == {t.number: t.orders for t in whole}
    assert records.orders_of(db, g.id, 2) == {t.number: t.orders for t in whole if t.number >= 2}
    assert records.turns_numbered(db, g.id, [3, 1, 1, 9]) == {1: whole[1], 3: whole[3]}  # 9: none
    assert records.turns_numbered(db, g.id, []) == {}
    assert records.turns_of(db, g.id, 1, 2) == whole[1:3]
    assert records.turn_record(db, g, 2) == whole[2]


def test_the_reports_of_a_turn_read_that_turn_and_the_one_before_only(gm, home, game, monkeypatch):
    _played(gm, home, game, 3)
    db = open_database(home / "gm.db")
    asked: list[list[int]] = []
    numbered = records.turns_numbered

    def spy(db, game_id, numbers):
        asked.append(sorted(set(numbers)))
        return numbered(db, game_id, numbers)

    def whole(*args, **kwargs):
        raise AssertionError("turn_pages read every turn whole")

    monkeypatch.setattr(records, "turns_numbered", spy)
    monkeypatch.setattr(records, "turns_of", whole)
    latest = reports.turn_pages(db, Home(home), "g1")
    older = reports.turn_pages(db, Home(home), "g1", [1])
    assert asked == [[2, 3], [0, 1, 3]]  # the turn, the one before it, and the last (its time)
    assert len(latest.jobs) == len(older.jobs) == 4  # every seat's report, from what was read
