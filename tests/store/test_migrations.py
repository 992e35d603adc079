"""Migrations run once each, in number order, and one that fails leaves nothing behind."""

from __future__ import annotations

import sqlite3

import pytest

from gm.store import database, ledger, records
from gm.store.migrations import Migration, all_migrations, run_script


def test_every_migration_applies_once_in_order(tmp_path):
    db = database.open_database(tmp_path / "gm.db")
    names = [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid")]
    assert names == sorted(names) == [m.name for m in all_migrations()]
    assert database.migrate(db) == []


def test_a_failing_migration_is_rolled_back_whole(tmp_path, monkeypatch):
    db = database.open_database(tmp_path / "gm.db")

    def broken(db):
        run_script(
            db, "CREATE TABLE half (x INTEGER);  -- a comment after the statement\nINSERT INTO nowhere VALUES (1);"
        )

    monkeypatch.setattr(database, "all_migrations", lambda: all_migrations() + [Migration("m999_broken", broken)])
    with pytest.raises(sqlite3.OperationalError, match="no such table: nowhere"):
        database.migrate(db)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchone() is None
    assert db.execute("SELECT 1 FROM migrations WHERE name = 'm999_broken'").fetchone() is None


def _before_issue_14(tmp_path, monkeypatch):
    """A database as gm left it before migrations m008-m010, with two games in it: g1, whose BR
    seat Zed took over from Ann as a standby, with turn 2 run but never published; g2, whose
    only turn a crash cut short after BR's report."""
    old = [m for m in all_migrations() if m.name < "m008"]
    with monkeypatch.context() as patched:
        patched.setattr(database, "all_migrations", lambda: old)
        db = database.open_database(tmp_path / "gm.db")
    run_script(
        db,
        """
        INSERT INTO accounts (id, email, name, created) VALUES (1, 'ann@example.org', 'Ann', 't'),
            (2, 'bob@example.org', 'Bob', 't'), (3, 'zed@example.org', 'Zed', 't');
        INSERT INTO games (id, name, ruleset, ruleset_version, scenario_name, scenario_text, seed, status, turn,
                           created) VALUES (1, 'g1', 'clash', '1', 's', '', 1, 'running', 3, 't'),
                                       (2, 'g2', 'clash', '1', 's', '', 1, 'running', 2, 't');
        INSERT INTO seats (id, game_id, code, account_id, secret_hash, joined) VALUES
            (1, 1, 'BR', 3, 'h', 'j1'), (2, 1, 'FR', 2, 'h', 'j2'), (3, 2, 'BR', 1, 'h', 'j3'), (4, 2, 'FR', 2, 'h', 'j4');
        INSERT INTO seat_players (seat_id, account_id, from_turn, reason, at) VALUES (1, 3, 2, 'took over', 'x');
        INSERT INTO audit (at, game_id, action, detail) VALUES
            ('t', 1, 'seat join', '{"email": "ann@example.org", "seat": "BR"}'),
            ('t', 1, 'seat join', '{"email": "bob@example.org", "seat": "FR"}'),
            ('t', 1, 'standby takes seat', '{"email": "zed@example.org", "seat": "BR"}');
        INSERT INTO turns (game_id, number, seed, ruleset_version, orders, events, state, state_hash, resolved)
            VALUES (1, 0, 1, '1', '{}', '[]', '{}', 'h', 'r0'), (1, 1, 1, '1', '{}', '[]', '{}', 'h', 'r1'),
                   (1, 2, 1, '1', '{}', '[]', '{}', 'h', 'r2'), (2, 0, 1, '1', '{}', '[]', '{}', 'h', 's0'),
                   (2, 1, 1, '1', '{}', '[]', '{}', 'h', 's1');
        INSERT INTO reports (game_id, turn, seat, pdf, json, pdf_sha256, json_sha256, rendered) VALUES
            (1, 1, 'BR', 'p', 'j', 'x', 'y', 'r1'), (1, 1, 'FR', 'p', 'j', 'x', 'y', 'r1'),
            (2, 1, 'BR', 'p', 'j', 'x', 'y', 's1');
        """,
    )
    return db


def test_issue_14_migrations_keep_what_old_gm_published_and_who_joined(tmp_path, monkeypatch):
    db = _before_issue_14(tmp_path, monkeypatch)
    later = [m.name[:4] for m in all_migrations() if m.name >= "m011"]  # newer issues' own
    assert [m[:4] for m in database.migrate(db)] == ["m008", "m009", "m010", *later]
    published = db.execute("SELECT game_id, number, published FROM turns ORDER BY 1, 2").fetchall()
    # A game's last turn short of a report waits to be published; everything older counts as done.
    assert published == [(1, 0, "r0"), (1, 1, "r1"), (1, 2, None), (2, 0, "s0"), (2, 1, None)]
    joined = db.execute(
        "SELECT seat_id, account_id, from_turn FROM seat_players WHERE reason = 'joined' ORDER BY seat_id"
    ).fetchall()
    assert joined == [(1, 1, 1), (2, 2, 1), (3, 1, 1), (4, 2, 1)]  # Ann, not Zed, joined g1 as BR
    assert records.players_at(db, 1, 0) == {1: "Ann", 2: "Bob"}
    assert records.players_at(db, 1, 2) == {1: "Zed", 2: "Bob"}


def test_games_over_before_slips_by_mail_get_no_default_slip(tmp_path, monkeypatch):
    old = [m for m in all_migrations() if m.name < "m011"]
    with monkeypatch.context() as patched:
        patched.setattr(database, "all_migrations", lambda: old)
        db = database.open_database(tmp_path / "gm.db")
    run_script(
        db,
        """
        INSERT INTO accounts (id, email, name, created) VALUES (1, 'ann@example.org', 'Ann', 't');
        INSERT INTO games (id, name, ruleset, ruleset_version, scenario_name, scenario_text, seed, status, turn,
                           created) VALUES (1, 'old', 'clash', '1', 's', '', 1, 'over', 31, 'c'),
                                       (2, 'new', 'clash', '1', 's', '', 1, 'running', 2, 'c');
        INSERT INTO seats (id, game_id, code, account_id, secret_hash, joined) VALUES
            (1, 1, 'BR', 1, 'h', 'j'), (2, 2, 'BR', 1, 'h', 'j');
        INSERT INTO turns (game_id, number, seed, ruleset_version, orders, events, state, state_hash, resolved)
            VALUES (1, 30, 1, '1', '{}', '[]', '{}', 'h', 'ended');
        """,
    )
    database.migrate(db)
    assert db.execute("SELECT game_id, seat_id, taken, by, source FROM slips").fetchall() == [
        (1, 1, "ended", "default", "upgrade")
    ]


def test_the_press_migration_keeps_every_mail_in_the_outbox_and_takes_press_mail(tmp_path, monkeypatch):
    """m012 builds the outbox anew to add the kinds 'press' and 'announcement': the mail waiting
    in it stays as it was, and an unknown kind is still refused."""
    old = [m for m in all_migrations() if m.name < "m012"]
    with monkeypatch.context() as patched:
        patched.setattr(database, "all_migrations", lambda: old)
        db = database.open_database(tmp_path / "gm.db")
    waiting = ("notice", "ann@example.org", "Ann", "held", "body", "[]", "<1@x>", "[]", "queued", 0, "t", "t")
    db.execute(
        "INSERT INTO outbox (kind, recipient, recipient_name, subject, body, attachments, message_id, refs, "
        "status, attempts, next_attempt, queued) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        waiting,
    )
    db.conn.commit()
    with monkeypatch.context() as patched:  # m012 alone: later migrations have tests of their own
        patched.setattr(database, "all_migrations", lambda: [m for m in all_migrations() if m.name <= "m012_press"])
        assert database.migrate(db) == ["m012_press"]
    columns = (
        "kind, recipient, recipient_name, subject, body, attachments, message_id, refs, status, attempts, "
        "next_attempt, queued"
    )
    assert db.execute(f"SELECT {columns} FROM outbox").fetchall() == [waiting]
    for kind in ("press", "announcement"):
        db.execute(
            "INSERT INTO outbox (kind, recipient, recipient_name, subject, body, attachments, message_id, refs, "
            "status, next_attempt, queued) VALUES (?, 'a@x', 'A', 's', 'b', '[]', ?, '[]', 'queued', 't', 't')",
            [kind, f"<{kind}@x>"],
        )
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO outbox (kind, recipient, recipient_name, subject, body, attachments, message_id, refs, "
            "status, next_attempt, queued) VALUES ('gossip', 'a@x', 'A', 's', 'b', '[]', '<g@x>', '[]', "
            "'queued', 't', 't')"
        )


def test_the_withheld_press_migration_leaves_every_message_standing(tmp_path, monkeypatch):
    """m014 adds press.withheld (gm game press --withhold): NULL, standing, for every message there was."""
    old = [m for m in all_migrations() if m.name < "m014"]
    with monkeypatch.context() as patched:
        patched.setattr(database, "all_migrations", lambda: old)
        db = database.open_database(tmp_path / "gm.db")
    assert "withheld" not in {c.name for c in db["press"].columns}
    assert database.migrate(db)[0] == "m014_press_withheld"
    assert "withheld" in {c.name for c in db["press"].columns}


@pytest.mark.parametrize(
    "query",
    [
        # a seat's turn charge, asked for every seat's report (gm.store.ledger.turn_charge)
        "SELECT l.id FROM ledger l WHERE l.game_id = 1 AND l.turn = 3 AND l.seat = 'BR' "
        f"AND l.kind = 'turn charge' AND {ledger._NOT_REVERSED} ORDER BY l.id DESC LIMIT 1",
        # a game's latest re-run, asked for every seat's report mail (gm.store.audit.latest_rerun)
        "SELECT id FROM audit WHERE game_id = 1 AND action = 'turn rerun' ORDER BY id DESC LIMIT 1",
    ],
)
def test_lookups_made_for_every_seat_do_not_read_a_whole_table(tmp_path, query):
    """The ledger and the audit log only grow: a lookup made for every seat of every turn that
    read either whole would make each week cost more than the last (m029)."""
    db = database.open_database(tmp_path / "gm.db")
    plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {query}")]
    assert not [step for step in plan if step.startswith("SCAN")], plan
