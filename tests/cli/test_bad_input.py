"""Odd input from a GM gets one clear line and exit 1, never a traceback (found in review)."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from gm.store import keeping
from tests.cli.test_game import table_dump


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("game", "set", "g1", "grace", "99999999999999999999"),
            "Error: grace takes a duration such as 90m, 2h or 1d, at most a year",
        ),
        (("game", "set", "g1", "nmr-limit", "²"), "Error: nmr-limit takes a whole number from 0 to 10000, not '²'."),
        (
            ("game", "deadline", "g1", "0999-06-01"),
            "Error: '0999-06-01' is not a date gm can schedule; give one between the years 2000 and 2999.",
        ),
        (
            ("game", "deadline", "g1", "9999-12-31 23:59 Pacific/Pago_Pago"),
            "Error: '9999-12-31 23:59 Pacific/Pago_Pago' is not a date gm can schedule",
        ),
        (
            ("game", "new", "g2", "--seed", "99999999999999999999999"),
            "Error: the seed must be a whole number from 0 to 9223372036854775807",
        ),
        (
            ("game", "standby", "g1", "not an address", "--name", "X"),
            "Error: 'not an address' is not an e-mail address.",
        ),
        (
            ("game", "standby", "g1", "ann@example.org", "--name", "Ann"),
            "Error: ann@example.org already has a seat in 'g1'.",
        ),
        (
            ("backup", "/nonexistent/gm-backups/"),  # README: `gm backup /srv/backups/`, before the folder is made
            "Error: there is no folder /nonexistent/gm-backups. Make it first, or name a new file ending in .tar",
        ),
        (("orders", "check", "/dev/zero"), "Error: /dev/zero is larger than 64 MB; it is not a turn file."),
        (("credits", "export", "--csv", "-o", "/"), "Error: Is a directory (/). Check the path and its permissions."),
    ],
)
def test_refused_with_one_line(home, gm, game, args, message):
    before = table_dump(home)
    ran = gm(*args, home=home)
    assert ran.code == 1 and ran.err.startswith(message) and ran.err.count("\n") == 1, ran.err
    assert "Traceback" not in ran.err
    assert table_dump(home) == before


@pytest.mark.parametrize(
    "args",
    [
        ("game", "show", "g\udcff"),
        ("game", "press", "g\udcff"),
        ("turn", "run", "g\udcff", "--now"),
        ("person", "show", "ann\udcff@example.org"),
        ("orders", "template", "g\udcff", "BR"),
        ("game", "waiting", "g\udcff"),
    ],
)
def test_a_value_that_is_not_utf8_is_refused_with_one_line(home, gm, game, args):
    # What a Latin-1 terminal types ("g\xff"; Python keeps the byte as a lone surrogate) went on
    # to SQLite, which cannot take it: a UnicodeEncodeError traceback.
    before = table_dump(home)
    ran = gm(*args, home=home)
    odd = next(a for a in args if "\udcff" in a).replace("\udcff", "\\xff")
    assert (ran.code, ran.out) == (1, "") and ran.err == (
        f"Error: '{odd}' is not UTF-8 text, which gm keeps names, codes and addresses in. Type it in a "
        "UTF-8 terminal (see its locale), or check what a script passes.\n"
    )
    assert table_dump(home) == before


@pytest.mark.parametrize(
    "settings, message",
    [
        (b"reports = 5\n", "reports must be a [reports] section"),
        (b"\xff\xfe", "It must be a UTF-8 text file."),
        (b'[reports]\nworkers = "x"\n', "[reports] workers must be a whole number, not 'x'."),
    ],
)
def test_broken_gm_toml(home, gm, game, settings, message):
    (home / "gm.toml").write_bytes(settings)
    gm("turn", "run", "g1", "--now", "--no-render", home=home)
    ran = gm("report", "render", "g1", home=home)
    assert ran.code == 1 and message in ran.err and "Traceback" not in ran.err


def test_a_home_that_cannot_be_made(gm):
    ran = gm("init", home="/proc/gm-cannot-be-here")
    assert ran.code == 1 and ran.err.startswith("Error: ") and "Check the path" in ran.err


def test_gm_toml_that_is_a_folder(home, gm, game):
    (home / "gm.toml").unlink()
    (home / "gm.toml").mkdir()
    ran = gm("report", "render", "g1", home=home)
    assert ran.code == 1 and "gm.toml must be a file (gm's settings), not a folder." in ran.err
    assert "Traceback" not in ran.err


def test_a_file_that_is_no_tar_at_all_is_refused_in_one_line(gm, tmp_path):
    # tarfile's ReadError lists every compression it tried, one per line ("- method gz: ..."):
    # gm restore printed those five lines of Python's internals to the GM.
    junk = tmp_path / "bad.tar"
    junk.write_text("junk\n")
    ran = gm("restore", junk, tmp_path / "r")
    assert ran.code == 1 and ran.err == (
        f"Error: {junk} cannot be restored: it is cut short, or not a tar file (gm reads .tar and .tar.gz, and "
        "this is neither). Nothing was changed. Use another backup.\n"
    ), ran.err
    assert not (tmp_path / "r").exists()


def test_the_same_address_is_a_standby_once(home, gm, game):
    # Twice in line, one person took two seats that dropped out (a GM who typed the command again).
    assert gm("game", "standby", "g1", "zed@example.org", "--name", "Zed", home=home).code == 0
    before = table_dump(home)
    ran = gm("game", "standby", "g1", "ZED@example.org", "--name", "Zed", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: ZED@example.org is standby number 1 for 'g1' already ('gm game show g1' lists the standbys).\n",
    )
    assert table_dump(home) == before


def test_a_full_disk_under_the_database_is_said_in_words(home, gm, game, monkeypatch, tmp_path):
    # A new GM's home on a full disk: gm backup (and gm game new, gm game deadline, gm inbox
    # import) ended in an sqlite3.OperationalError traceback.
    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(keeping, "snapshot", full)
    ran = gm("backup", str(tmp_path / "b.tar"), home=home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        "Error: the disk is full: SQLite could not write. The command stopped there; what it had not "
        "saved is not stored. Free some space, then run it again.\n"
    )
    assert not (tmp_path / "b.tar").exists()


def test_a_full_disk_under_a_file_is_said_in_words(home, gm, game, monkeypatch, tmp_path):
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", full)
    ran = gm("orders", "template", "g1", "BR", "-o", str(tmp_path / "br.txt"), home=home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        f"Error: the disk is full ({tmp_path / 'br.txt'}). The command stopped there; what it had not "
        "saved is not stored. Free some space, then run it again.\n"
    )
