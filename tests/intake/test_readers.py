"""Reader processes: a big mailbox read by a pool gives what reading it here gives, in the same
order, and a crash in the middle of it loses nothing and doubles nothing."""

from __future__ import annotations

import hashlib
import mailbox as mailboxes
import os
import shutil

import pytest

from gm.clock import SystemClock
from gm.home import Home
from gm.intake import readers as readers_module
from gm.intake.readers import Readers
from gm.intake.sources import MemorySource
from gm.services import intake as intake_module
from gm.services.intake import Intake
from gm.store.database import open_database
from tests.intake.clients import corpus
from tests.intake.mails import configure, mail, rows, turn_file


def mailbox(secrets: dict) -> list[bytes]:
    """A mailbox where order matters: each seat sends turn files one after another (the last valid
    one counts), some with problems or a wrong password, the same bytes twice far apart, a copy by
    another route, requests, robots and every mail program's shape."""
    raws = []
    for n in range(6):
        for seat, secret in secrets.items():
            body = ["CLAIM ENG", "CLAIM SCO", "FROBNICATE 3", "CLAIM WAL", "PASS", "CLAIM ENG SCO"][(n + len(raws)) % 6]
            password = secret if (n, seat) != (3, "FR") else "not-the-secret"
            raws.append(
                mail(
                    turn_file(password, body, seat=seat),
                    sender=f"{seat} <{seat.lower()}@example.org>",
                    message_id=f"<{n}.{seat}@example.org>",
                )
            )
    raws.insert(17, raws[2])  # the same bytes again, read in another batch
    raws.insert(30, b"Received: from elsewhere\n" + raws[5])  # a copy: other Received lines
    raws.append(mail(turn_file(secrets["BR"], "JSON ON"), sender="BR <br@example.org>", message_id="<json@x>"))
    raws.append(mail(turn_file(secrets["BR"]), Auto_Submitted="auto-replied", message_id="<robot@x>"))
    raws += [raw for _, raw, _ in corpus(secrets["BR"], secrets["FR"])]
    raws.append(mail(turn_file(secrets["GE"], "CLAIM BRI"), sender="GE <ge@example.org>", message_id="<last@x>"))
    return raws


def take(home, raws: list[bytes], readers: int) -> tuple[list, dict, Readers]:
    """Take the mailbox in batches of 4 with this many readers; returns what intake said, what
    the database holds, and the readers used."""
    used = []

    class Counted(Readers):
        def __init__(self, *args):
            super().__init__(*args)
            used.append(self)

    db = open_database(home / "gm.db")
    try:
        run = Intake(db, Home(home), SystemClock(), "import", readers=readers)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(intake_module, "Readers", Counted)
            patch.setattr(intake_module, "TAKEN_PER_SYNC", 4)
            said = [(t.where, t.outcome, t.results, t.answer.split(" ")[0]) for t in run.take_all(MemorySource(raws))]
    finally:
        db.conn.close()
    return said, stored(home), used[0]


def stored(home) -> dict:
    return {
        "submissions": rows(
            home,
            "SELECT seat_id, turn, channel, source, verdict, problems, orders, final, current "
            "FROM submissions ORDER BY id",
        ),
        "mail_taken": rows(
            home,
            "SELECT digest, message_id, content_hash, source, sender, subject, outcome, results, "
            "answer FROM mail_taken ORDER BY id",
        ),
        "outbox": rows(home, "SELECT kind, recipient, subject, body, in_reply_to, refs FROM outbox ORDER BY id"),
        "seat_mail": rows(home, "SELECT seat_id, json_reports FROM seat_mail ORDER BY seat_id"),
    }


def copy_of(home, tmp_path, name: str):
    target = tmp_path / name
    shutil.copytree(home, target)
    return target


def test_a_pool_of_readers_gives_the_same_outcomes_in_the_same_order(home, mail_home, tmp_path, used_readers):
    raws = mailbox(mail_home)
    here_home, pool_home = copy_of(home, tmp_path, "here"), copy_of(home, tmp_path, "pool")
    said_here, stored_here, readers_here = take(here_home, raws, readers=1)
    said_pool, stored_pool, readers_pool = take(pool_home, raws, readers=2)
    assert readers_here.batches_read == {"here": len(raws) // 4 + 1, "by workers": 0}
    assert readers_pool.batches_read["by workers"] >= len(raws) // 4 - 1  # the first is read here
    assert said_pool == said_here
    assert stored_pool == stored_here
    # The mailbox is a real test: every outcome occurs, and the last valid submission counts.
    outcomes = {outcome for _, outcome, _, _ in said_pool}
    assert {"accepted", "rejected", "refused", "request", "ignored", "duplicate", "already taken"} <= outcomes
    last_valid, current = {}, {}
    for seat, _, _, source, verdict, _, _, _, now in stored_pool["submissions"]:
        if verdict == "accepted":
            last_valid[seat] = source
        if now:
            current[seat] = source
    assert current == last_valid and len(current) == 4
    for raw in raws:
        digest = hashlib.sha256(raw).hexdigest()
        assert (pool_home / "archive" / digest[:2] / digest).is_file()


def test_a_crash_in_the_middle_of_a_pool_run_loses_and_doubles_nothing(
    home, mail_home, tmp_path, monkeypatch, used_readers
):
    raws = mailbox(mail_home)
    whole = copy_of(home, tmp_path, "whole")
    _, stored_whole, _ = take(whole, raws, readers=2)

    real_record = Intake._record
    calls = []

    def crash_in_the_fifth_batch(self, *args):
        calls.append(1)
        if len(calls) == 19:
            raise KeyboardInterrupt  # the process dies while deciding message 19 (batch 5 of 4 each)
        return real_record(self, *args)

    monkeypatch.setattr(Intake, "_record", crash_in_the_fifth_batch)
    source = MemorySource(raws)
    db = open_database(home / "gm.db")
    monkeypatch.setattr(intake_module, "TAKEN_PER_SYNC", 4)
    with pytest.raises(KeyboardInterrupt):
        for _ in Intake(db, Home(home), SystemClock(), "import", readers=2).take_all(source):
            pass
    db.conn.close()
    # Four whole batches are stored and the source heard of exactly those; the fifth is not.
    assert source.taken_from == [f"memory:{n}" for n in range(1, 17)]
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(16,)]
    for path in home.glob("archive/*/*"):  # workers stopped mid-write leave no half file under a digest's name
        assert path.name.startswith(".incoming-") or hashlib.sha256(path.read_bytes()).hexdigest() == path.name

    monkeypatch.setattr(Intake, "_record", real_record)
    said, stored_after, _ = take(home, raws, readers=2)
    again = [where for where, outcome, _, _ in said if outcome == "already taken"]
    assert again == [f"memory:{n}" for n in range(1, 17)] + ["memory:18"]  # 18: the bytes of 3 again
    # Nothing doubled, nothing lost: the same rows as a run that never crashed.
    assert stored_after == stored_whole


def test_one_message_never_starts_a_pool(home, mail_home, monkeypatch):
    started = []
    monkeypatch.setattr(Readers, "_start", lambda self: started.append(self))
    said, _, readers = take(home, [mail(turn_file(mail_home["BR"]))] * 3, readers=2)
    assert [outcome for _, outcome, _, _ in said] == ["accepted", "already taken", "already taken"]
    assert started == [] and readers.batches_read == {"here": 1, "by workers": 0}


def die(payload):
    import os

    os._exit(1)  # a reader killed while it holds a batch (out of memory, say)


def test_a_reader_that_dies_stops_the_run_and_stores_nothing_of_its_batch(home, mail_home, monkeypatch, used_readers):
    monkeypatch.setattr(readers_module, "READ_TIMEOUT", 3)
    monkeypatch.setattr(readers_module, "_read_batch", die)
    with pytest.raises(RuntimeError, match="a mail reader gave no answer in 3 s"):
        take(home, mailbox(mail_home)[:12], readers=2)
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(4,)]  # the first batch, read here


def never_start(archive, max_bytes):
    import time

    time.sleep(3600)  # a worker that cannot start (its __main__ cannot be imported again, say)


def test_workers_that_never_start_are_given_up_and_all_is_read_here(home, mail_home, tmp_path, monkeypatch):
    raws = mailbox(mail_home)
    here_home = copy_of(home, tmp_path, "here")
    said_here, stored_here, _ = take(here_home, raws, readers=1)
    monkeypatch.setattr(readers_module, "_start_reader", never_start)
    monkeypatch.setattr(Readers, "STARTUP_TIMEOUT", 2)
    said, stored_now, readers = take(home, raws, readers=2)
    assert readers.batches_read == {"here": len(raws) // 4 + 1, "by workers": 0}
    assert (said, stored_now) == (said_here, stored_here)


def test_each_turn_file_envelope_is_read_once(home, mail_home, tmp_path, monkeypatch):
    """The reader reads each turn file's envelope (for the secret it claims) and hands it to the
    deciding process, which used to read it a second time: the same outcomes, one read a file."""
    from gm.core import envelope as envelope_module
    from gm.services import turnfiles

    raws = mailbox(mail_home)
    said_before, stored_before, _ = take(copy_of(home, tmp_path, "before"), raws, readers=1)
    envelopes, turn_files = [], []
    real_read_message = readers_module.read_message

    def read_message(*args):
        read = real_read_message(*args)
        turn_files.extend(read[1])
        return read

    def read_envelope(text):
        envelopes.append(text)
        return envelope_module.read_envelope(text)

    monkeypatch.setattr(readers_module, "read_message", read_message)
    for module in (readers_module, intake_module, turnfiles):
        monkeypatch.setattr(module, "read_envelope", read_envelope, raising=False)
    said, stored_now, _ = take(home, raws, readers=1)
    assert (said, stored_now) == (said_before, stored_before)
    assert len(turn_files) > 40  # the mailbox's turn files, each read by the reader
    assert sorted(envelopes) == sorted(found.text for found in turn_files)


def test_readers_start_without_the_callers_main(home, mail_home, tmp_path, monkeypatch, used_readers):
    """A spawned reader used to run the caller's __main__ again before reading anything (the
    `gm` script, a bench with all it imports): now it imports only what reading needs."""
    import sys
    import types

    imported = tmp_path / "main-imported"
    script = tmp_path / "caller.py"
    script.write_text(f"from pathlib import Path\nPath({str(imported)!r}).write_text('again')\n")
    caller = types.ModuleType("__main__")
    caller.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", caller)
    raws = mailbox(mail_home)
    said_here, stored_here, _ = take(copy_of(home, tmp_path, "here"), raws, readers=1)
    said, stored_now, readers = take(home, raws, readers=2)
    assert readers.batches_read["by workers"] >= len(raws) // 4 - 1  # the readers did read
    assert (said, stored_now) == (said_here, stored_here)
    assert not imported.exists()
    assert sys.modules["__main__"] is caller  # given back to the caller once the readers started


def test_a_seats_view_is_made_once_for_its_turn_files_in_trouble(home, mail_home, tmp_path, monkeypatch):
    """The "did you mean" of a line in trouble needs every code the seat's view names; a run of
    intake made the seat's whole view for each such turn file, now once a seat and turn."""
    from gm.rulesets import Guarded

    raws = [
        mail(turn_file(mail_home["BR"], body), message_id=f"<{n}@x>")
        for n, body in enumerate(["CLAIM ENG SCO WLA", "CLAIM WLA", "CLAIM SCO WLA", "CLAIM ENG WLA SCO"])
    ]
    said_before, stored_before, _ = take(copy_of(home, tmp_path, "before"), raws, readers=1)
    views = []
    real_view = Guarded.view

    def view(self, state, seat):
        views.append(seat)
        return real_view(self, state, seat)

    monkeypatch.setattr(Guarded, "view", view)
    said, stored_now, _ = take(home, raws, readers=1)
    assert (said, stored_now) == (said_before, stored_before)
    assert [outcome for _, outcome, _, _ in said] == ["rejected"] * 4
    assert all("did you mean WAL?" in body for (body,) in rows(home, "SELECT body FROM outbox"))
    assert views == ["BR"]


def test_a_turn_file_the_reader_archived_is_not_archived_again(home, mail_home, tmp_path, monkeypatch):
    """The reader archives each turn file before it is read, and forces it to disk with its
    batch; submit() used to archive it again (a stat, and a utime of the file just written):
    the same outcomes, records and archive, each turn file archived by the reader alone. One
    too large to take is not archived, and submit() still keeps its note."""
    from gm.services import turnfiles

    raws = mailbox(mail_home)
    raws.append(mail(turn_file(mail_home["BR"], "CLAIM ENG\n" + "# a long line\n" * 200), message_id="<large@x>"))
    configure(home, {"submissions.max_bytes": 1500})
    before = copy_of(home, tmp_path, "before")
    said_before, stored_before, _ = take(before, raws, readers=1)
    archived_by: dict[str, list[str]] = {"reader": [], "submit": []}
    real_archive_bytes = readers_module.archive_bytes

    def archive_bytes(root, data, *args):
        archived_by["reader" if args else "submit"].append(hashlib.sha256(data).hexdigest())
        return real_archive_bytes(root, data, *args)

    monkeypatch.setattr(readers_module, "archive_bytes", archive_bytes)
    monkeypatch.setattr(turnfiles, "archive_bytes", archive_bytes)
    said, stored_now, _ = take(home, raws, readers=1)
    assert (said, stored_now) == (said_before, stored_before)
    assert sorted(p.name for p in home.glob("archive/*/*")) == sorted(p.name for p in before.glob("archive/*/*"))
    assert archived_by["submit"] == []
    assert {digest for (digest,) in rows(home, "SELECT archive FROM submissions")} <= set(archived_by["reader"])
    assert said[-1][1] == "refused" and "too large" in said[-1][2][0]["reason"]
    assert len(list(home.glob("archive/*/*.note"))) == 1


def test_a_big_mailbox_is_read_in_the_deciding_process_unless_gm_toml_asks_for_readers(home, mail_home, tmp_path):
    """Reader processes cost CPU to save wall time on idle cores (bench/README.md, intake10): by
    default ([mail] readers = 1) every batch is read in the one process that decides; [mail]
    readers = 2 starts two, with the same outcomes and rows; 0 means one per CPU."""
    raws = mailbox(mail_home)
    default_home, pool_home, each_cpu = (copy_of(home, tmp_path, name) for name in ("default", "pool", "cpus"))
    configure(pool_home, {"mail.readers": 2})
    configure(each_cpu, {"mail.readers": 0})
    said_here, stored_here, readers_here = take(default_home, raws, readers=None)
    said_pool, stored_pool, readers_pool = take(pool_home, raws, readers=None)
    assert readers_here.workers == 1
    assert readers_here.batches_read == {"here": len(raws) // 4 + 1, "by workers": 0}
    assert readers_pool.workers == 2 and readers_pool.batches_read["by workers"] >= len(raws) // 4 - 1
    assert (said_pool, stored_pool) == (said_here, stored_here)
    # One batch never starts a pool: what is asked for is seen without starting one.
    assert take(each_cpu, raws[:3], readers=None)[2].workers == (os.cpu_count() or 1)
    # --readers says more than gm.toml.
    assert take(pool_home, raws[:3], readers=1)[2].workers == 1


@pytest.mark.parametrize("value", ["-1", "65", '"two"'])
def test_readers_out_of_range_in_gm_toml_are_a_clear_error_and_nothing_is_taken(home, gm, mail_home, tmp_path, value):
    settings = home / "gm.toml"
    settings.write_text(settings.read_text().replace("\nreaders = 1\n", f"\nreaders = {value}\n"))
    box = mailbox_folder(tmp_path, [mail(turn_file(mail_home["BR"]))])
    ran = gm("inbox", "import", box, home=home)
    assert ran.code == 1 and ran.out == ""
    assert ran.err.startswith(f"Error: {settings}: [mail] readers must be ")
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(0,)]


def mailbox_folder(tmp_path, raws: list[bytes]):
    box = mailboxes.Maildir(tmp_path / "box", create=True)
    for raw in raws:
        box.add(raw)
    return tmp_path / "box"
