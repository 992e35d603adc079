"""gm inbox import/receive: archived first, submitted through the one path, answered, taken once."""

from __future__ import annotations

import hashlib
import json
import mailbox

import pytest

from tests.cli.test_game import table_dump
from tests.cycle.test_rundue import clock  # noqa: F401 - a fixed clock (Monday 2026-11-16), so the deadline is ahead
from tests.intake.mails import configure, mail, outbox_bodies, receive, rows, turn_file


def archived(home) -> set[str]:
    return {p.name for p in (home / "archive").rglob("*") if p.is_file()}


def test_receive_accepts_archives_and_answers_in_the_thread(home, gm, mail_home, monkeypatch):
    raw = mail("Hi!\n\n" + turn_file(mail_home["BR"]), message_id="<m1@example.org>", References="<r0@example.org>")
    ran = receive(gm, monkeypatch, raw, home)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out == ("stdin: accepted 1 order for BR in g1, turn 1; answer: outbox 1\nTaken: 1 accepted\n")
    assert hashlib.sha256(raw).hexdigest() in archived(home)
    assert rows(home, "SELECT channel, sender, verdict, current FROM submissions") == [
        ("mail", "ann@example.org", "accepted", 1)
    ]
    [(kind, to, subject, body)] = outbox_bodies(home)
    assert (kind, to, subject) == ("acknowledgement", "ann@example.org", "Re: orders")
    assert (
        "ACCEPTED: 1 order for BR in g1, turn 1." in body and "  line 6: CLAIM ENG SCO WAL\n" in body
    )  # the line of the mail, under "Hi!"
    assert rows(home, "SELECT in_reply_to, refs FROM outbox") == [
        ("<m1@example.org>", '["<r0@example.org>", "<m1@example.org>"]')
    ]
    assert rows(home, "SELECT message_id, outcome, answer FROM mail_taken") == [
        ("<m1@example.org>", "accepted", "outbox 1")
    ]


def test_second_submission_says_it_replaced_the_first(home, gm, mail_home, monkeypatch):
    receive(gm, monkeypatch, mail(turn_file(mail_home["BR"], "CLAIM ENG"), message_id="<a@x>"), home)
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"], "CLAIM SCO"), message_id="<b@x>"), home)
    assert ran.out.startswith("stdin: accepted 1 order for BR in g1, turn 1 (replaces the earlier submission);")
    assert "These orders replace the orders you sent earlier for this turn." in outbox_bodies(home)[1][3]


def test_problems_are_answered_with_their_lines(home, gm, mail_home, monkeypatch, clock):
    assert gm("game", "deadline", "g1", "2026-11-27 18:00", home=home).code == 0  # ahead of the fixed clock
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"], "CLAIM ENG\nFROBNICATE 3")), home)
    assert ran.out.startswith("stdin: rejected 1 order for BR in g1, turn 1; 1 problem; answer: outbox 1")
    body = outbox_bodies(home)[0][3]
    assert (
        "NOT USED: your turn file for BR in g1, turn 1, has 1 problem:\n\n  line 5: FROBNICATE 3\n    FROBNICATE is not an order"
        in body
    )
    assert "Until gm has valid orders from you, this seat gets the robot's orders." in body
    assert "\nDeadline: " in body


def test_the_acknowledgement_guesses_the_order_word_a_slip_missed(home, gm, mail_home, monkeypatch):
    receive(gm, monkeypatch, mail(turn_file(mail_home["BR"], "CLAM ENG")), home)
    body = outbox_bodies(home)[0][3]
    assert ": CLAM ENG\n    CLAM is not an order (did you mean CLAIM?); the orders are CLAIM, PLACE" in body


@pytest.mark.parametrize(
    "text, reason",
    [
        (lambda s: turn_file(s, game="g9"), "unknown game 'g9' (check the GAME line)"),
        (lambda s: turn_file("wrong-secret"), "wrong password for player BR of 'g1'"),
        (lambda s: turn_file(s).replace("END\n", ""), "the turn file has no END line: put END after the last order"),
    ],
)
def test_refusals_store_no_submission_and_say_why(home, gm, mail_home, monkeypatch, text, reason):
    before = [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")]
    ran = receive(gm, monkeypatch, mail(text(mail_home["BR"])), home)
    assert ran.code == 0 and ran.out.startswith(f"stdin: refused: {reason}; answer: outbox 1\n")
    assert [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")] == before
    assert f"REFUSED: {reason}." in outbox_bodies(home)[0][3]


def test_turn_already_run_is_refused(home, gm, mail_home, monkeypatch):
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    before = [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")]
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"]).replace("PASSWORD", "TURN 1\nPASSWORD")), home)
    assert "refused: these orders are for turn 1, which has already been run; 'g1' is collecting turn 2" in ran.out
    assert [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")] == before  # nothing else changed
    assert "REFUSED: these orders are for turn 1, which has already been run" in outbox_bodies(home)[-1][3]


def test_robots_are_taken_but_never_answered(home, gm, mail_home, monkeypatch):
    ran = receive(gm, monkeypatch, mail("I am away", Auto_Submitted="auto-replied"), home)
    assert (
        ran.out == "stdin: ignored; answer: none: sent by a program (Auto-Submitted: auto-replied)\nTaken: 1 ignored\n"
    )
    monkeypatch.setenv("SENDER", "")
    ran = receive(gm, monkeypatch, mail("Undeliverable: " + turn_file(mail_home["BR"]), message_id="<b@x>"), home)
    assert "ignored; answer: none: sent by a program (a bounce (empty return path))" in ran.out
    assert outbox_bodies(home) == [] and rows(home, "SELECT count(*) FROM submissions") == [(0,)]


def test_the_same_message_is_taken_once(home, gm, mail_home, monkeypatch):
    raw = mail(turn_file(mail_home["BR"]), message_id="<once@example.org>")
    receive(gm, monkeypatch, raw, home)
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.out == "No new mail (1 taken before).\n"
    # The same mail by another route (an extra Received line) is known by Message-ID and content.
    ran = receive(gm, monkeypatch, b"Received: from relay2.example.org\r\n" + raw, home)
    assert ran.out == "stdin: duplicate; answer: none: a copy was taken before\nTaken: 1 duplicate\n"
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)] and len(outbox_bodies(home)) == 1


def test_files_without_a_header_block_are_no_copies_of_each_other(home, gm, mail_home, monkeypatch):
    # A new GM fed turn files (no headers, no blank line) to gm inbox: every such file after the
    # first was "a copy taken before" (the same empty From and body), and never read.
    receive(gm, monkeypatch, b"just a line\n", home)
    ran = receive(gm, monkeypatch, turn_file(mail_home["BR"]).encode(), home)
    assert "duplicate" not in ran.out and ran.out.startswith("stdin: accepted 1 order for BR in g1, turn 1"), ran.out
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)]


def test_rate_limit_stops_answering_a_loop(home, gm, mail_home, monkeypatch):
    configure(home, {"mail.replies_per_hour": 2})
    for n in range(3):
        ran = receive(gm, monkeypatch, mail(f"hello {n}", message_id=f"<loop{n}@x>"), home)
    assert ran.out.startswith("stdin: a question for the GM")  # a person's mail without orders
    assert "answer: none: 2 answers to ann@example.org in the last hour already" in ran.out
    assert len(outbox_bodies(home)) == 2


def test_no_answer_to_gms_own_address(home, gm, mail_home, monkeypatch):
    ran = receive(gm, monkeypatch, mail("hello", sender="gm@example.org"), home)
    assert "answer: none: the mail came from gm's own address" in ran.out


def test_require_registered_from_address(home, gm, mail_home, monkeypatch):
    ran = gm("game", "require-from", "g1", "yes", home=home)
    assert (ran.code, ran.out) == (0, "g1: turn files by mail count only from each seat's registered address.\n")
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"]), sender="Ann <ann@elsewhere.example>"), home)
    assert (
        "refused: game 'g1' takes turn files for BR only from the player's registered address; "
        "send them from that address"
    ) in ran.out
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"]), message_id="<2@x>"), home)
    assert "accepted 3 orders" not in ran.out and "accepted 1 order for BR" in ran.out
    assert gm("game", "require-from", "g1", "maybe", home=home).err == "Error: say yes or no, not 'maybe'.\n"
    assert (
        gm("game", "require-from", "g1", "no", home=home).out
        == "g1: turn files by mail count from any address; the secret decides.\n"
    )


def test_several_turn_files_in_one_mail_each_answered(home, gm, mail_home, monkeypatch):
    text = turn_file(mail_home["BR"], "CLAIM ENG") + "\n" + turn_file(mail_home["FR"], "CLAIM BRI", seat="FR")
    ran = receive(gm, monkeypatch, mail(text), home)
    assert ran.out == (
        "stdin: accepted 1 order for BR in g1, turn 1\n"
        "stdin: accepted 1 order for FR in g1, turn 1; answer: outbox 1\nTaken: 1 accepted\n"
    )
    body = outbox_bodies(home)[0][3]
    assert "--- 1 of 2: the turn file in the body ---" in body and "--- 2 of 2" in body


def test_import_maildir_mbox_eml_and_folder(home, gm, mail_home, tmp_path):
    secret = mail_home["BR"]
    maildir = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for n in range(3):
        maildir.add(mail(turn_file(secret, "CLAIM ENG") + f"\n# {n}\n", message_id=f"<md{n}@x>"))
    ran = gm("inbox", "import", tmp_path / "Maildir", home=home)
    assert ran.code == 0 and ran.out.endswith("Taken: 3 accepted\n")
    assert gm("inbox", "import", tmp_path / "Maildir", home=home).out == "No new mail (3 taken before).\n"
    box = mailbox.mbox(tmp_path / "box.mbox")
    message = mailbox.mboxMessage(mail("hi", message_id="<mb1@x>"))
    message.set_from("ann@example.org")
    box.add(message)
    message = mailbox.mboxMessage(mail("bounce", message_id="<mb2@x>"))
    message.set_from("MAILER-DAEMON")
    box.add(message)
    box.flush()
    ran = gm("inbox", "import", tmp_path / "box.mbox", home=home)
    assert ran.out.endswith("Taken: 1 ignored, 1 question\n")
    (tmp_path / "eml").mkdir()
    (tmp_path / "eml" / "a.eml").write_bytes(mail(turn_file(secret, "CLAIM SCO"), message_id="<e1@x>"))
    (tmp_path / "eml" / "notes.txt").write_text("not a mail")
    assert gm("inbox", "import", tmp_path / "eml", home=home).out.endswith("Taken: 1 accepted\n")
    assert gm("inbox", "import", tmp_path / "eml" / "a.eml", home=home).out == "No new mail (1 taken before).\n"


def test_import_of_nothing_says_so(home, gm, mail_home, tmp_path):
    (tmp_path / "empty").mkdir()
    assert gm("inbox", "import", tmp_path / "empty", home=home).out == "No new mail.\n"
    ran = gm("inbox", "import", tmp_path / "missing", home=home)
    assert (ran.code, ran.err) == (1, f"Error: no file or folder {tmp_path / 'missing'}.\n")


def test_receive_without_a_home_asks_the_server_to_try_again(tmp_path, gm, monkeypatch):
    ran = receive(gm, monkeypatch, mail("x"), tmp_path / "nowhere")
    assert ran.code == 75 and ran.err.startswith("Error: no GM home at ")


def test_fetch_without_imap_settings_says_what_to_set(home, gm):
    ran = gm("inbox", "fetch", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: gm.toml has no [imap] host: set host, port and user there (see README, 'Taking turns by mail').\n",
    )


def test_too_large_mail_is_refused_unread_and_only_a_note_of_it_archived(home, gm, mail_home, monkeypatch):
    """Issue 29: what is refused for its size is not kept whole; a note of it is (gm/store/archive.py)."""
    configure(home, {"mail.max_message_bytes": 500})
    raw = mail(turn_file(mail_home["BR"]) + "x" * 600)
    ran = receive(gm, monkeypatch, raw, home)
    assert (
        f"refused: the mail is too large ({len(raw):,} bytes; at most 500): send the turn file as plain text" in ran.out
    )
    digest = hashlib.sha256(raw).hexdigest()
    assert digest not in archived(home)
    note = json.loads((home / "archive" / digest[:2] / f"{digest}.note").read_text())
    assert note == {
        "sha256": digest,
        "size": len(raw),
        "channel": "mail",
        "sender": "ann@example.org",
        "reason": "refused for size",
        "head": raw[:512].decode(),
    }
    assert gm("doctor", home=home).code == 0  # the note stands for the mail the database names


def test_send_option_sends_the_answers_at_once(home, gm, mail_home, monkeypatch, tmp_path):
    ran = receive(gm, monkeypatch, mail(turn_file(mail_home["BR"])), home, "--send")
    assert ran.code == 0 and ran.out.endswith(f"Sent 1 mail(s) into {home / 'outbox'}; 0 to try again; 0 failed.\n")
    assert len(list((home / "outbox").glob("*.eml"))) == 1
    (tmp_path / "one.eml").write_bytes(mail("hello", message_id="<s2@x>"))
    ran = gm("inbox", "import", tmp_path / "one.eml", "--send", home=home)
    assert ran.code == 0 and "Sent 1 mail(s)" in ran.out
    # A pipe never fails a stored message because sending failed: the server would deliver it again.
    configure(home, {"mail.address": ""})
    ran = receive(gm, monkeypatch, mail("hi again", message_id="<s3@x>"), home, "--send")
    assert ran.code == 0 and ran.err == (
        "Error: gm.toml has no [mail] address: set it to the address players write "
        "to, then try again. The message is stored; its answer stays queued.\n"
    )


def test_a_mail_whose_headers_are_too_long_is_answered_at_its_sender_and_kept_whole(home, gm, mail_home, monkeypatch):
    """A header block over 1 MiB, or header values over 100,000 characters in all (its parts'
    too), is refused with the reason, answered at its From; the mail is archived as any other."""
    head = b"From: Ann <ann@example.org>\r\nTo: gm@example.org\r\nSubject: orders\r\nMessage-ID: <h1@x>\r\n"
    raw = head + b"X-Pad: 0123456789\r\n" * 60_000 + b"\r\n" + turn_file(mail_home["BR"]).encode()
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0 and (
        "refused: the mail could not be read: its header block is too large (more than 1,048,576 bytes): "
        "send the turn file in a new mail" in ran.out
    )
    [(kind, to, subject, body)] = outbox_bodies(home)
    assert (to, subject) == ("ann@example.org", "Re: orders") and "its header block is too large" in body
    assert hashlib.sha256(raw).hexdigest() in archived(home)
    assert rows(home, "SELECT count(*) FROM submissions") == [(0,)]


def test_a_pipes_mail_too_large_is_hashed_on_the_way_not_held_whole(home, gm, mail_home, monkeypatch):
    """`gm inbox receive` keeps in memory no more of a mail too large than [mail]
    max_message_bytes or 1 MiB (the largest header block read), and a byte: a 217 MB mail took
    477 MB to refuse, now 64 MB. Its note is as before: the whole
    mail's SHA-256 and size, its first bytes (and the same mail again is taken before)."""
    from gm.services.intake import Intake

    configure(home, {"mail.max_message_bytes": 1_000})
    raw = mail(turn_file(mail_home["BR"]) + "filler line\n" * 150_000)
    held = []
    real_take = Intake.take

    def take(self, incoming):
        held.append(len(incoming.raw))
        return real_take(self, incoming)

    monkeypatch.setattr(Intake, "take", take)
    ran = receive(gm, monkeypatch, raw, home)
    assert (
        len(raw) > 1_800_000
        and held == [1_048_577]
        and f"the mail is too large ({len(raw):,} bytes; at most 1,000)" in ran.out
    )
    digest = hashlib.sha256(raw).hexdigest()
    note = json.loads((home / "archive" / digest[:2] / f"{digest}.note").read_text())
    assert (note["size"], note["head"], note["sender"]) == (len(raw), raw[:512].decode(), "ann@example.org")
    assert receive(gm, monkeypatch, raw, home).out == "No new mail (1 taken before).\n"
    assert gm("doctor", home=home).code == 0


@pytest.mark.parametrize("kind", ["maildir", "mbox", "eml"])
def test_an_imported_mail_too_large_is_hashed_on_the_way_not_held_whole(
    home, gm, mail_home, monkeypatch, tmp_path, kind
):
    """`gm inbox import` as `gm inbox receive`: a mail too large is read through, its beginning kept."""
    from gm.intake.sources import FileSource

    configure(home, {"mail.max_message_bytes": 1_000})
    raw = mail(turn_file(mail_home["BR"]) + "filler line\n" * 150_000)
    small = mail(turn_file(mail_home["BR"], "CLAIM SCO"), message_id="<2@example.org>")
    if kind == "eml":
        place = tmp_path / "mails"
        place.mkdir()
        (place / "1.eml").write_bytes(raw)
        (place / "2.eml").write_bytes(small)
    elif kind == "maildir":
        place = tmp_path / kind
        box = mailbox.Maildir(place)
        for message in (raw, small):
            box.add(message)
    else:
        place = tmp_path / kind
        box = mailbox.mbox(place)
        for message in (raw, small):
            entry = mailbox.mboxMessage(message)
            entry.set_from("ann@example.org")
            box.add(entry)
        box.close()
    held = []
    real_messages = FileSource.messages

    def messages(self):
        for incoming in real_messages(self):
            held.append(len(incoming.raw))
            yield incoming

    monkeypatch.setattr(FileSource, "messages", messages)
    ran = gm("inbox", "import", place, home=home)
    # A Maildir lists its messages in no set order: the large one may come second.
    assert sorted(held, reverse=True)[0] == 1_048_577 and min(held) < 1_000
    assert "Taken: 1 accepted, 1 refused" in ran.out
    [(digest,)] = rows(home, "SELECT digest FROM mail_taken WHERE outcome = 'refused'")
    note = json.loads((home / "archive" / digest[:2] / f"{digest}.note").read_text())
    assert note["size"] > 1_800_000 and note["sender"] == "ann@example.org"
    if kind != "mbox":  # an mbox keeps a message with its own line ends
        assert (digest, note["size"]) == (hashlib.sha256(raw).hexdigest(), len(raw))
    assert gm("inbox", "import", place, home=home).out.startswith("No new mail (2 taken before)")


def test_a_maildir_is_read_as_mailbox_reads_it(tmp_path):
    """FileSource lists a Maildir's cur and new itself (one listing, no proxy a file): the same
    keys, in the same order, with the same bytes as mailbox.Maildir gives, flags and folders too."""
    from gm.intake.sources import FileSource

    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for n in range(12):
        message = mailbox.MaildirMessage(f"Subject: {n}\n\nbody {n}\n".encode())
        if n % 3 == 0:
            message.set_subdir("cur")
            message.set_flags("S" if n % 2 else "RS")
        box.add(message)
    box.add_folder("Sent")  # a folder (.Sent) is not a message
    (tmp_path / "Maildir" / "cur" / "odd-dir").mkdir()  # nor is a directory in cur
    expected = [(f"{tmp_path / 'Maildir'}:{key}", box.get_bytes(key)) for key in sorted(box.iterkeys())]
    assert len(expected) == 12
    assert [(i.where, i.raw) for i in FileSource(tmp_path / "Maildir").messages()] == expected
