"""Property: whatever order turns, payments, corrections, transfers, policy changes and sendings
come in, every report held for credits is mailed exactly once when it is no longer held (at once,
by the change that gave the credit), a held notice never goes after its report was released,
and the books balance (issue 28, "Money and held reports")."""

from __future__ import annotations

import hashlib
import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from gm.clock import FixedClock, iso
from gm.home import Home, create_home
from gm.mail.senders import MemorySender
from gm.services import credits, delivery, games, report_mails, turn_charges
from gm.store import records
from gm.store.database import open_database, transaction

CLOCK = FixedClock(datetime(2026, 11, 27, 12, tzinfo=UTC))
PLAYERS = ["ann@example.org", "bob@example.org", "cy@example.org"]
GAMES = ["g1", "g2"]

operation = st.one_of(
    st.tuples(st.just("turn"), st.sampled_from(GAMES), st.none(), st.none()),
    st.tuples(st.just("buy"), st.sampled_from(PLAYERS), st.integers(1, 3), st.none()),
    st.tuples(st.just("adjust"), st.sampled_from(PLAYERS), st.sampled_from([-2, -1, 1, 2]), st.none()),
    st.tuples(st.just("transfer"), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), st.integers(1, 2)),
    st.tuples(st.just("policy"), st.sampled_from(GAMES), st.sampled_from(["hold", "deliver", "free"]), st.none()),
    st.tuples(st.just("send"), st.none(), st.none(), st.none()),
)


def _report_files(home: Home, game, number: int, seat) -> dict:
    """A seat's report of a turn as publishing records it: a PDF stand-in and the JSON the report
    mail is written from (what report.txt reads)."""
    folder = home.reports / game.name / str(number)
    folder.mkdir(parents=True, exist_ok=True)
    pdf, js = folder / f"{seat.code}.pdf", folder / f"{seat.code}.json"
    pdf.write_bytes(b"%PDF-1.7 " + f"{game.name} {number} {seat.code}".encode())
    context = {
        "game": {"name": game.name, "title": "Clash of Empires"},
        "turn": number,
        "turn_label": f"round {number}",
        "next_label": f"round {number + 1}",
        "seat": seat.code,
        "player": seat.name,
        "outcome": None,
        "deadline": None,
        "scores": [{"seat": seat.code, "name": seat.name, "score": 0}],
        "order_form": f"GAME {game.name}\nPLAYER {seat.code}\nEND\n",
    }
    js.write_text(json.dumps(context), encoding="utf-8")
    return {
        "pdf": str(pdf.relative_to(home.root)),
        "json": str(js.relative_to(home.root)),
        "pdf_sha256": hashlib.sha256(pdf.read_bytes()).hexdigest(),
        "json_sha256": hashlib.sha256(js.read_bytes()).hexdigest(),
        "rendered": iso(CLOCK.now()),
    }


def _turn(db, home: Home, name: str) -> None:
    """A turn as the turn run and publishing book it: stored, charged, every report recorded,
    every report mail (or held notice) queued, published."""
    game = records.game_by_name(db, name)
    number = game.turn
    seats = records.seats_of(db, game.id)
    now = iso(CLOCK.now())
    with transaction(db):
        db["turns"].insert(
            {
                "game_id": game.id,
                "number": number,
                "seed": 1,
                "ruleset_version": "1.0",
                "orders": "{}",
                "events": "[]",
                "state": "{}",
                "state_hash": f"h{number}",
                "resolved": now,
            }
        )
        turn_charges.settle_turn(db, game, number, {s.code: {"by": "player"} for s in seats}, {}, {}, None, now)
        for seat in seats:
            records.record_report(db, game.id, number, seat.code, _report_files(home, game, number, seat))
        report_mails.queue_reports(db, home, CLOCK, name, number)
        records.mark_published(db, game.id, [number], now)
        db.execute("UPDATE games SET turn = ?, status = 'running' WHERE id = ?", [number + 1, game.id])


def _mails(db) -> list[tuple]:
    return db.execute(
        "SELECT g.name, o.turn, o.seat, o.kind, o.status, o.id FROM outbox o JOIN games g ON g.id = o.game_id "
        "WHERE o.turn IS NOT NULL ORDER BY o.id"
    ).fetchall()


def _check(db, sent_now: list) -> None:
    mails = _mails(db)
    noticed = {(g, t, s) for g, t, s, kind, _, _ in mails if kind == "notice"}
    for key in noticed:
        reports = [m for m in mails if m[:3] == key and m[3] == "report" and m[4] in ("queued", "sent")]
        held = turn_charges.report_held(db, key[0], key[1], key[2])
        # Released exactly once as soon as it is not held; never while it is.
        assert len(reports) == (0 if held else 1), (key, held, reports)
        if reports:  # the notice that had not gone when the report was released never goes
            assert all(m[4] != "queued" for m in mails if m[:3] == key and m[3] == "notice"), (
                f"a held notice waits after its report was released: {key}"
            )
    for key in sent_now:  # a notice that went in this sending was about a report still held
        assert turn_charges.report_held(db, *key), key
    assert credits.check_books(db) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=30))
# Found in CI: a payment released RU's report, then a correction left the account short again and
# the report counted as held once more although its mail had gone; released is released for good.
@example([("turn", "g1", None, None), ("buy", "bob@example.org", 1, None), ("adjust", "bob@example.org", -2, None)])
def test_every_way_credit_arrives_releases_each_held_report_once(operations):
    with tempfile.TemporaryDirectory() as folder:
        home = Home(Path(folder) / "home")
        create_home(home)
        home.settings_file.write_text(
            home.settings_file.read_text().replace('address = ""', 'address = "gm@pbm.example.org"', 1)
        )
        db = open_database(home.database)
        for name in GAMES:
            games.create_game(db, CLOCK, name, "clash", None, 1)
            for email in PLAYERS:
                games.join_game(db, CLOCK, name, email, email.split("@")[0].title())
        sender = MemorySender()
        for op, a, b, c in operations:
            sent_now = []
            if op == "turn":
                _turn(db, home, a)
            elif op == "send":
                waiting = {m[5] for m in _mails(db) if m[3] == "notice" and m[4] == "queued"}
                delivery.send_outbox(db, home, CLOCK, sender)
                sent_now = [m[:3] for m in _mails(db) if m[5] in waiting and m[4] == "sent"]
            else:
                with report_mails.releasing(db, home, CLOCK):
                    if op == "buy":
                        credits.buy(db, CLOCK, a, b, b * 250)
                    elif op == "adjust":
                        credits.adjust(db, CLOCK, a, b, "a correction")
                    elif op == "transfer" and a != b and credits.account_position(db, a).balance >= c:
                        credits.transfer(db, CLOCK, a, b, c, "a gift")
                    elif op == "policy":
                        credits.set_policy(db, CLOCK, a, b)
            _check(db, sent_now)
        db.conn.close()
