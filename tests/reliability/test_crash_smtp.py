"""The crash battery's send points over a real SMTP server on loopback (aiosmtpd, STARTTLS, AUTH),
not the folder transport: a real gm process killed by SIGKILL while it sends a turn's mails, then
the same command run again. After a kill once the server has a mail and before gm marked it sent,
that one mail arrives twice, the same bytes with the same Message-ID (docs/mail.md: "A crash
between the server's OK and the commit can send a mail twice; it carries the same Message-ID
both times, which mail programs fold"); every other mail arrives exactly once; a kill after the
mark sends nothing twice; and the outbox ends as after a run never killed."""

from __future__ import annotations

import signal
import sqlite3
from collections import Counter
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from tests.intake.mails import configure
from tests.mail.conftest import smtp, smtp_server  # noqa: F401 - fixtures
from tests.reliability.test_crash_battery import copy_of, gm_process, ok
from tests.reliability.test_crash_rulesets import new_home

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def published(tmp_path_factory, smtp_server) -> Path:  # noqa: F811 - the fixture imported above
    """A home mailing through the SMTP server: test_crash_rulesets.py's game, Clash on europe with
    three paying players; nobody sends orders and nmr-limit is 1, so turn 1 drops all three,
    standby Zed takes BR, and the turn's mails (start and drop-out notices, Zed's welcome, the
    report) wait in the outbox."""
    root = new_home(tmp_path_factory.mktemp("smtp-crash") / "home", "clash", "europe", 3, {})
    configure(root, smtp_server.settings())
    ok(gm_process(root, "turn", "run", "d1", "--now"))
    assert len(queued(root)) >= 6  # the start notices, three drop-out notices, the welcome, the reports
    return root


def queued(home: Path) -> list[tuple]:
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute("SELECT id, kind, recipient FROM outbox WHERE status = 'queued' ORDER BY id").fetchall()


def statuses(home: Path) -> list[tuple]:
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute("SELECT id, kind, recipient, subject, status, attempts FROM outbox ORDER BY id").fetchall()


def arrived(smtp) -> Counter:  # noqa: F811 - the fixture imported above
    """Each delivered mail by its Message-ID, counted."""
    return Counter(message_from_bytes(d.content, policy=policy.default)["Message-ID"] for d in smtp.handler.delivered)


def send(home: Path, crash_at: str | None = None):
    """gm mail send in its own process; the smtp fixture put the server's password in the
    environment, which the process inherits ([smtp] password_env)."""
    return gm_process(home, "mail", "send", crash_at=crash_at)


def test_killed_mid_send_over_smtp_sends_only_the_mail_in_flight_twice(published, smtp, tmp_path):  # noqa: F811
    reference = copy_of(published, tmp_path / "reference")
    ok(send(reference))
    once = arrived(smtp)
    expected = len(queued(published))
    assert len(once) == expected and set(once.values()) == {1}
    smtp.handler.delivered.clear()

    home = copy_of(published, tmp_path / "home")
    killed = send(home, crash_at="send:mid-send")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    [first] = smtp.handler.delivered  # the server took the first mail; gm died before marking it sent
    ok(send(home))
    twice = arrived(smtp)
    assert twice.keys() == once.keys()
    assert sorted(twice.values()) == [1] * (expected - 1) + [2]
    again = [d.content for d in smtp.handler.delivered if d.content == first.content]
    assert len(again) == 2  # the same bytes: mail programs fold the second by its Message-ID
    assert statuses(home) == statuses(reference)


def test_killed_after_marking_over_smtp_sends_nothing_twice(published, smtp, tmp_path):  # noqa: F811
    reference = copy_of(published, tmp_path / "reference")
    ok(send(reference))
    smtp.handler.delivered.clear()

    home = copy_of(published, tmp_path / "home")
    killed = send(home, crash_at="send:after-mark")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    ok(send(home))
    counted = arrived(smtp)
    assert len(counted) == len(queued(published)) and set(counted.values()) == {1}
    assert statuses(home) == statuses(reference)
