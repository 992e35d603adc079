"""A batch decided in one write transaction asks the database once what it would ask once a
message (taken before? stored before? the rows it keeps still current?), and comes to what
taking each message on its own comes to: the same outcomes, answers and rows (issue 32)."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from gm.clock import SystemClock
from gm.home import Home
from gm.intake.sources import MemorySource
from gm.services import intake as intake_module
from gm.services.intake import Intake
from gm.store.database import open_database
from tests.intake.mails import mail, rows, turn_file
from tests.intake.test_readers import copy_of, mailbox, stored

# What intake used to ask once a message inside a batch's transaction; a batch asks it once.
ASKED_ONCE_A_MESSAGE = (
    "SELECT 1 FROM mail_taken WHERE digest = ",
    "SELECT id FROM submissions WHERE source = ",
    "PRAGMA data_version",
)


def said_of(taken) -> tuple:
    return taken.where, taken.outcome, taken.results, taken.answer.split(" ")[0]


def in_batches(home, raws: list[bytes], statements: list[str] | None = None) -> list[tuple]:
    """Take the mailbox in batches of 4, here; `statements` gets every statement intake ran."""
    db = open_database(home / "gm.db")
    if statements is not None:
        db.conn.set_trace_callback(statements.append)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(intake_module, "TAKEN_PER_SYNC", 4)
            return [
                said_of(t)
                for t in Intake(db, Home(home), SystemClock(), "import", readers=1).take_all(MemorySource(raws))
            ]
    finally:
        db.conn.close()


def one_at_a_time(home, raws: list[bytes]) -> list[tuple]:
    """Take each message on its own, as a mail server's pipe hands it over (Intake.take)."""
    db = open_database(home / "gm.db")
    try:
        run = Intake(db, Home(home), SystemClock(), "import", readers=1)
        return [said_of(run.take(incoming)) for incoming in MemorySource(raws).messages()]
    finally:
        db.conn.close()


def test_a_batch_comes_to_what_one_message_at_a_time_comes_to(home, mail_home, tmp_path):
    raws = mailbox(mail_home)
    raws += [b""] * (-len(raws) % 4)  # the pair below in one batch of 4
    twice = mail(turn_file(mail_home["FR"], "CLAIM WAL", seat="FR"), sender="FR <fr@example.org>", message_id="<2@x>")
    raws += [twice, twice]  # the same new bytes twice in one batch: decided once
    batches, alone = copy_of(home, tmp_path, "batches"), copy_of(home, tmp_path, "alone")
    statements: list[str] = []

    said = in_batches(batches, raws, statements)

    assert said == one_at_a_time(alone, raws)
    assert stored(batches) == stored(alone)  # submissions, records, the answers' very text
    assert [outcome for _, outcome, _, _ in said[-2:]] == ["accepted", "already taken"]
    assert {"accepted", "rejected", "refused", "request", "ignored", "duplicate", "already taken"} <= {
        outcome for _, outcome, _, _ in said
    }
    # Inside the batches' transactions, asked once a batch, not once a message.
    inside, batches_run = Counter[str](), 0
    held = False
    for statement in statements:
        if statement == "BEGIN IMMEDIATE":
            held, batches_run = True, batches_run + 1
        elif statement in ("COMMIT", "ROLLBACK"):
            held = False
        elif held:
            inside.update(asked for asked in ASKED_ONCE_A_MESSAGE if statement.startswith(asked))
    assert batches_run == -(-len(raws) // 4)
    assert all(inside[asked] <= batches_run for asked in ASKED_ONCE_A_MESSAGE), inside


def test_a_turn_file_stored_before_its_mail_was_recorded_is_never_stored_twice(home, mail_home):
    """What a run cut short between storing a turn file and recording its mail would leave (gm
    inbox receive commits them apart in older homes): the batch finds it by its source, answers
    with it, and stores nothing twice."""
    raws = [mail(turn_file(mail_home["BR"]), sender="BR <br@example.org>")]
    [first] = in_batches(home, raws)
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("DELETE FROM mail_taken")
        conn.execute("DELETE FROM outbox")
    conn.close()

    again, _ = in_batches(home, raws + [mail("When is the deadline?", message_id="<q@x>")])

    assert again[:2] == first[:2] == ("memory:1", "accepted")
    assert [(r["verdict"], r["orders"]) for r in again[2]] == [(r["verdict"], r["orders"]) for r in first[2]]
    assert rows(home, "SELECT count(*), sum(current) FROM submissions") == [(1, 1)]
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(2,)]
