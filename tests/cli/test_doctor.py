"""gm doctor: a sound home is all OK; each kind of damage gets its line and what to do, and the
advice works; doctor itself changes nothing."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys

import jinja2
import pytest

from tests.cli.test_backup import played  # noqa: F401  (the played home, made once per module)
from tests.cli.test_game import table_dump

CHECKS = [
    "settings",
    "folders",
    "database",
    "migrations",
    "archive",
    "archive size",
    "reports",
    "ledger",
    "seats",
    "games",
    "templates",
    "secrets",
]


def lines(ran) -> list[str]:
    return ran.out.splitlines()


def snapshot(home) -> dict:
    """Every file of the home but the database's, with its bytes and permissions; and its rows."""
    files = {
        p.relative_to(home).as_posix(): (p.read_bytes(), p.stat().st_mode)
        for p in home.rglob("*")
        if p.is_file() and not p.name.startswith("gm.db")
    }
    return {"files": files, "rows": table_dump(home)}


def test_a_sound_home_is_all_ok(home, gm, played):
    ran = gm("doctor", home=home)
    assert ran.code == 0 and ran.err == ""
    assert [line.split(":")[0] for line in lines(ran)] == [f"OK       {check}" for check in CHECKS]
    assert "OK       archive: 4 files the database refers to, each there and matching its SHA-256" in lines(ran)
    assert "OK       ledger: the books balance (8 entries)" in lines(ran)
    facts = json.loads(gm("doctor", "--json", home=home).out)
    assert facts["ok"] is True and [c["check"] for c in facts["checks"]] == CHECKS
    assert all(c["ok"] and c["problems"] == [] for c in facts["checks"])


def test_each_problem_has_its_line_and_what_to_do(home, gm, played, tmp_path):
    backup = tmp_path / "before.tar"
    assert gm("backup", backup, home=home).code == 0
    conn = sqlite3.connect(home / "gm.db")
    lost, changed = [row[0] for row in conn.execute("SELECT archive FROM submissions ORDER BY id LIMIT 2")]
    conn.execute("INSERT INTO migrations VALUES ('m999_future', '2030-01-01T00:00:00Z')")
    conn.execute(
        "INSERT INTO ledger (date, account_id, kind, credits, balance, discount_after, memo) "
        "VALUES ('2026-11-24T00:00:00Z', 1, 'adjustment', 5, 99, 0, 'by hand')"
    )
    conn.commit()
    conn.close()
    (home / "archive" / lost[:2] / lost).unlink()
    (home / "archive" / changed[:2] / changed).write_bytes(b"not what was sent")
    (home / "portal.key").write_text("00" * 32)
    os.chmod(home / "portal.key", 0o644)
    (home / "templates" / "reprot.html").write_text("<p>{{ x }}</p>")
    (home / "templates" / "mail").mkdir()
    (home / "templates" / "mail" / "report.txt").write_text("Subject: {{ game }\n\nbody\n")
    settings = (home / "gm.toml").read_text().replace("port = 587", 'port = "587"')
    (home / "gm.toml").write_text(settings)
    before = snapshot(home)

    ran = gm("doctor", home=home)
    assert ran.code == 1 and ran.err == f"8 problems in {home}.\n"
    settings_file = home / "gm.toml"
    restore_lost = f"tar -xOf BACKUP.tar home/archive/{lost[:2]}/{lost} > {home / 'archive' / lost[:2] / lost}"
    restore_changed = (
        f"tar -xOf BACKUP.tar home/archive/{changed[:2]}/{changed} > {home / 'archive' / changed[:2] / changed}"
    )
    fix = (
        "Copy it back from any backup taken since it came (gm removes an archive file only with "
        "'gm archive prune', which leaves a note of it): "
    )
    archive_lines = [
        f"PROBLEM  archive: archive/{lost[:2]}/{lost} (submission 1) is missing. {fix}{restore_lost}",
        f"PROBLEM  archive: archive/{changed[:2]}/{changed} (submission 2) does not hold what its name "
        f"says: it was changed. {fix}{restore_changed}",
    ]
    assert [line for line in lines(ran) if line.startswith("PROBLEM")] == [
        f"PROBLEM  settings: {settings_file}: [smtp] port must be a whole number, not '587'. Fix the file and try again.",
        "PROBLEM  migrations: migration m999_future was applied by a newer gm. Use that gm (or a newer one) with this "
        "home; this gm must not write to it.",
        *sorted(archive_lines, key=lambda line: line.split("archive/")[2]),
        "PROBLEM  ledger: entry 9: balance 99 does not equal the sum of the entries of ann@example.org, 14. The ledger is never edited: put it right "
        "with a new entry (gm credits adjust ACCOUNT --credits N --reason ...), then run gm ledger check.",
        "PROBLEM  templates: templates/mail/report.txt line 1: unexpected '}'. Fix it, or delete "
        "templates/mail/report.txt to use gm's own.",
        "PROBLEM  templates: templates/reprot.html replaces none of gm's templates and none of yours includes it, so gm "
        "never reads it. If it should replace gm's report.html, rename it to templates/report.html; else delete it.",
        f"PROBLEM  secrets: {home / 'portal.key'} holds a secret and other users of this machine can read it. "
        f"chmod 600 {home / 'portal.key'}",
    ]
    facts = json.loads(gm("doctor", "--json", home=home).out)
    assert facts["ok"] is False and sum(len(c["problems"]) for c in facts["checks"]) == 8
    assert facts["checks"][4]["check"] == "archive"
    assert sorted(p["fix"] for p in facts["checks"][4]["problems"]) == sorted(
        [fix + restore_lost, fix + restore_changed]
    )
    assert snapshot(home) == before  # doctor changes nothing

    # The advice works: the archive files come back from the backup taken before.
    for digest in (lost, changed):
        command = f"tar -xOf {backup} home/archive/{digest[:2]}/{digest} > {home / 'archive' / digest[:2] / digest}"
        subprocess.run(command, shell=True, check=True)
    assert [line for line in lines(gm("doctor", home=home)) if line.startswith("PROBLEM  archive")] == []


@pytest.mark.slow  # renders the four PDFs of a turn twice
def test_missing_reports_are_rendered_again(home, gm, played):
    assert gm("report", "render", "g1", "--turn", "1", home=home).code == 0
    (home / "reports" / "g1" / "1" / "FR.pdf").unlink()
    (home / "reports" / "g1" / "1" / "BR.json").write_text("{}")
    ran = gm("doctor", home=home)
    assert ran.code == 1 and [line for line in lines(ran) if line.startswith("PROBLEM")] == [
        "PROBLEM  reports: reports of g1 turn 1: BR.json changed, FR.pdf missing. Render them again: "
        "gm report render g1 --turn 1"
    ]
    assert gm("report", "render", "g1", "--turn", "1", home=home).code == 0
    ran = gm("doctor", home=home)
    assert ran.code == 0 and "OK       reports: the 8 report files the database lists are there, as rendered" in lines(
        ran
    )


def test_a_damaged_database_is_named_and_the_rest_still_checked(home, gm, played):
    conn = sqlite3.connect(home / "gm.db")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'ledger'").fetchone()[0]
    conn.close()
    with open(home / "gm.db", "r+b") as database:  # scribble over the ledger's first page
        database.seek((root - 1) * page + 8)
        database.write(b"\xff" * 64)
    ran = gm("doctor", home=home)
    assert ran.code == 1
    found = lines(ran)
    assert found[2].startswith("PROBLEM  database: the database is damaged: ")
    assert found[2].endswith(
        "Restore the last good backup into a new home (gm restore BACKUP NEWHOME), check it "
        "with gm doctor, then use it instead of this one."
    )
    assert [line.split(":")[0] for line in found if not line.startswith("PROBLEM  database")] == [
        f"OK       {check}" for check in ("settings", "folders", "templates", "secrets")
    ]


def test_a_migration_not_applied_yet(home, gm, played):
    conn = sqlite3.connect(home / "gm.db")
    conn.execute("DELETE FROM migrations WHERE name = 'm007_current_submissions'")
    conn.commit()
    conn.close()
    ran = gm("doctor", home=home)
    assert (
        ran.code == 1
        and "PROBLEM  migrations: 1 migration(s) of this gm are not applied yet "
        "(m007_current_submissions). Take a backup (gm backup DEST), then run 'gm init' on this "
        "home: it applies them."
        in lines(ran)
    )


def test_an_override_gm_would_not_escape_is_named(home, monkeypatch):
    """Unit test: every name gm's report environment knows is escaped today; were one not (here an
    environment with Jinja2's own defaults, which leave .j2 alone), doctor says so."""
    from gm.home import Home
    from gm.services import overrides

    def plain(override_dir, ruleset_dirs):
        return jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(override_dir)]), autoescape=jinja2.select_autoescape()
        )

    monkeypatch.setattr(overrides, "make_environment", plain)
    (home / "templates" / "report.html.j2").write_text("<p>{{ name }}</p>")
    (home / "templates" / "report.html").write_text('{% include "report.html.j2" %}')
    finding = overrides.check_templates(Home(home))
    assert [p.what for p in finding.problems] == [
        "templates/report.html.j2 would not be autoescaped, so a player's text could become markup"
    ]


def test_a_bad_prize_table_in_gm_toml_is_a_problem(home, gm):
    with (home / "gm.toml").open("a") as settings:
        settings.write('\n[discounts.clash]\nwin = "lots"\n')
    ran = gm("doctor", home=home)
    assert ran.code == 1
    assert (
        f"PROBLEM  settings: {home / 'gm.toml'}: [discounts.clash] win must be a whole number from 0 "
        "to 10, not 'lots'. Fix the file and try again."
    ) in ran.out.splitlines()


def test_seats_of_unknown_status_or_half_robots_are_named(home, gm):
    assert gm("game", "new", "r1", "--ruleset", "clash", "--scenario", "channel", "--robots", "1", home=home).code == 0
    assert gm("game", "join", "r1", "ann@example.org", "--name", "Ann", home=home).code == 0
    assert "OK       seats: 2 seats: known statuses, robots the robot's, secrets hashed" in lines(
        gm("doctor", home=home)
    )
    with sqlite3.connect(home / "gm.db") as conn:
        conn.execute("UPDATE seats SET status = 'away' WHERE code = 'BR'")
        conn.execute("UPDATE seats SET secret_hash = 'scrypt$1' WHERE code = 'FR'")
    ran = gm("doctor", home=home)
    assert ran.code == 1
    assert [line for line in lines(ran) if line.startswith("PROBLEM")] == [
        "PROBLEM  seats: seat BR of r1 has the status 'away', which gm does not know. Restore a backup, or set it "
        "to one of active, dropped, resigned, robot.",
        "PROBLEM  seats: seat FR of r1 is only partly a robot seat (status robot, account robot@robots.invalid). "
        "Restore a backup taken before it changed.",
    ]


def test_the_gm_password_leaves_gm_toml_the_gm_s_only(home, gm, monkeypatch):
    """Issue 28: gm portal password left gm.toml mode 644 with the hash in it, and gm doctor
    then failed its own secrets check; now the file is the GM's only, and the doctor agrees.
    Issue 33: the hash is kept in the database now; gm.toml with one from before is made the
    GM's only as gm takes the line out of it."""
    settings = home / "gm.toml"
    settings.chmod(0o644)
    monkeypatch.setattr(sys, "stdin", io.StringIO("a-long-gm-password\n"))
    assert gm("portal", "password", home=home).code == 0
    assert "scrypt$" not in settings.read_text()
    settings.write_text(settings.read_text().replace("[portal]\n", '[portal]\ngm_password_hash = "scrypt$1$2"\n', 1))
    settings.chmod(0o644)
    assert gm("gm", "list", home=home).code == 0
    assert "scrypt$" not in settings.read_text()
    assert settings.stat().st_mode & 0o777 == 0o600
    ran = gm("doctor", home=home)
    assert ran.code == 0, ran.out
    assert "OK       secrets:" in ran.out


def test_an_archive_past_its_budget_is_a_problem_with_what_to_do(home, gm, played):
    """[archive] budget_mb (default 2,000 MB): past it, the doctor says so and names the command."""
    assert "OK       archive size: " in "\n".join(lines(gm("doctor", home=home)))
    (home / "archive" / "00").mkdir(exist_ok=True)
    (home / "archive" / "00" / ("0" * 64)).write_bytes(b"x" * 1_200_000)  # a file nothing names
    settings = (home / "gm.toml").read_text().replace("budget_mb = 2000", "budget_mb = 1")
    (home / "gm.toml").write_text(settings)
    ran = gm("doctor", home=home)
    [problem] = [line for line in lines(ran) if line.startswith("PROBLEM")]
    assert problem.startswith("PROBLEM  archive size: the archive holds 1.2 MB, past its budget of 1.0 MB. ")
    assert problem.endswith(
        "See what nothing kept needs with 'gm archive prune --dry-run', then remove it with 'gm archive prune'; "
        "if what is left is all needed, raise [archive] budget_mb in gm.toml."
    )
    others = (
        sum(p.stat().st_size for p in (home / "archive").rglob("*") if p.is_file() and len(p.name) == 64) - 1_200_000
    )
    (home / "archive" / "00" / ("0" * 64)).write_bytes(b"x" * (1_000_001 - others))  # "1.0 MB past 1.0 MB" in MB
    [problem] = [line for line in lines(gm("doctor", home=home)) if line.startswith("PROBLEM")]
    assert problem.startswith(
        "PROBLEM  archive size: the archive holds 1,000,001 bytes, past its budget of 1,000,000 bytes. "
    )


def test_a_home_that_cannot_be_written_is_named_not_called_damaged(home, gm, monkeypatch):
    # A new GM's home on a read-only disk: gm doctor said "the database is damaged" and told them
    # to restore a backup, and every other command ended in a traceback. Root writes through
    # chmod, so the read-only disk is os.access's answer, and SQLite's refusal a database it
    # cannot open (a folder where gm.db should be).
    (home / "gm.db").unlink()
    (home / "gm.db").mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK and real(path, mode))
    ran = gm("doctor", home=home)
    assert ran.code == 1
    found = lines(ran)
    assert found[1] == (
        f"PROBLEM  folders: the home {home} cannot be written (a read-only disk, or a folder this user may "
        "not write). Make it writable, or run gm as the user who owns it: every gm command writes there."
    )
    assert found[2] == (
        "PROBLEM  database: the database cannot be opened in a home that cannot be written. Make the home "
        "writable (above), then run gm doctor again."
    )
    assert not any("damaged" in line for line in found)
    ran = gm("status", home=home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        f"Error: the GM home {home} cannot be written (a read-only disk, or a folder this user may not "
        "write), and gm writes there on every command, even to read the database. Make it writable, or "
        "run gm as the user who owns it.\n"
    )


def test_a_database_sqlite_cannot_open_is_one_line(home, gm):
    (home / "gm.db").unlink()
    (home / "gm.db").mkdir()
    ran = gm("game", "list", home=home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        f"Error: SQLite cannot open the database {home / 'gm.db'} (unable to open database file). Check that "
        "this user may read and write it.\n"
    )
    ran = gm("doctor", home=home)
    assert ran.code == 1 and "Traceback" not in ran.err
    assert lines(ran)[2] == (
        f"PROBLEM  database: SQLite cannot open the database {home / 'gm.db'} (disk I/O error). Check that it "
        "is the database file and that this user may read it; else restore the last good backup into a new "
        "home (gm restore BACKUP NEWHOME)."
    )
