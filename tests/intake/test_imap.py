"""gm inbox fetch against a real Dovecot: each message taken once, a crash between store and flag included."""

from __future__ import annotations

import pytest

from gm.intake.imap import ImapSource
from gm.services import intake as intake_module
from gm.services.intake import Intake
from tests.intake.mails import configure, mail, outbox_bodies, rows, turn_file


def inbox_state(dovecot, user: str, folder: str = "INBOX") -> list[bytes]:
    """The flags of every message in a folder."""
    connection = dovecot.login(user)
    try:
        connection.select(folder)
        status, data = connection.fetch("1:*", "(FLAGS)") if connection.select(folder)[1][0] != b"0" else ("OK", [])
        return [line for line in data if line]
    finally:
        connection.logout()


def all_three_taken_once(home, gm, dovecot, user: str) -> None:
    """After the fetch that finished the job: every message flagged and seen, nothing left to
    take, and three messages made three submissions and three answers (nothing twice)."""
    flags = inbox_state(dovecot, user)
    assert all(b"$GmTaken" in f and b"\\Seen" in f for f in flags) and len(flags) == 3
    assert gm("inbox", "fetch", home=home).out == "No new mail.\n"
    assert rows(home, "SELECT count(*) FROM submissions") == [(3,)] and len(outbox_bodies(home)) == 3


def three_mails(secret: str) -> list[bytes]:
    return [
        mail(turn_file(secret, f"CLAIM {code}"), message_id=f"<imap{n}@example.org>")
        for n, code in enumerate(["ENG", "SCO", "WAL"])
    ]


@pytest.mark.slow
def test_fetch_takes_each_message_once_even_after_a_crash(home, gm, mail_home, dovecot, imap_user, monkeypatch):
    dovecot.deliver(imap_user, three_mails(mail_home["BR"]))
    real_record = Intake._record
    calls = []

    def crash_while_storing_the_third(self, *args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # the process dies while deciding the batch: none stored, none flagged
        return real_record(self, *args)

    monkeypatch.setattr(Intake, "_record", crash_while_storing_the_third)
    assert gm("inbox", "fetch", home=home).code == 130
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(0,)]
    assert rows(home, "SELECT count(*) FROM submissions") == [(0,)]  # the batch is one transaction
    assert [b"$GmTaken" in f for f in inbox_state(dovecot, imap_user)] == [False, False, False]

    monkeypatch.setattr(Intake, "_record", real_record)
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 0
    assert ran.out.splitlines()[2].startswith("imap:INBOX:3: accepted 1 order for BR in g1, turn 1 (replaces")
    assert ran.out.endswith("Taken: 3 accepted\n")
    all_three_taken_once(home, gm, dovecot, imap_user)


@pytest.mark.slow
def test_a_crash_between_storing_and_flagging_only_flags_on_the_next_fetch(
    home, gm, mail_home, dovecot, imap_user, monkeypatch
):
    dovecot.deliver(imap_user, three_mails(mail_home["BR"]))
    real_taken = ImapSource.taken

    def crash_before_flagging(self, incoming):
        raise KeyboardInterrupt  # the batch is stored and on disk; the server has not heard yet

    monkeypatch.setattr(ImapSource, "taken", crash_before_flagging)
    assert gm("inbox", "fetch", home=home).code == 130
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(3,)]
    assert [b"$GmTaken" in f for f in inbox_state(dovecot, imap_user)] == [False, False, False]

    monkeypatch.setattr(ImapSource, "taken", real_taken)
    ran = gm("inbox", "fetch", home=home)
    assert (ran.code, ran.out) == (0, "No new mail (3 taken before).\n")
    all_three_taken_once(home, gm, dovecot, imap_user)


@pytest.mark.slow
def test_fetch_with_reader_processes_takes_a_big_folder_in_order(
    home, gm, mail_home, dovecot, imap_user, monkeypatch, used_readers
):
    codes = ["ENG", "SCO", "WAL", "ENG SCO"] * 3
    dovecot.deliver(
        imap_user,
        [mail(turn_file(mail_home["BR"], f"CLAIM {code}"), message_id=f"<big{n}@x>") for n, code in enumerate(codes)],
    )
    monkeypatch.setattr(intake_module, "TAKEN_PER_SYNC", 2)
    ran = gm("inbox", "fetch", "--readers", "2", home=home)
    assert ran.code == 0 and ran.out.endswith("Taken: 12 accepted\n")
    assert [line.split(":")[2] for line in ran.out.splitlines()[:12]] == [str(n) for n in range(1, 13)]
    assert used_readers[0].batches_read == {"here": 1, "by workers": 5}
    flags = inbox_state(dovecot, imap_user)
    assert all(b"$GmTaken" in f and b"\\Seen" in f for f in flags) and len(flags) == 12
    # In the folder's order: the last valid turn file counts.
    assert rows(home, "SELECT orders FROM submissions WHERE current = 1")[0][0].count('"SCO"') == 1
    assert rows(home, "SELECT source FROM submissions WHERE current = 1") == rows(
        home, "SELECT max(source) FROM submissions WHERE id = (SELECT max(id) FROM submissions)"
    )


@pytest.mark.slow
def test_fetch_can_move_taken_mail_to_a_folder(home, gm, mail_home, dovecot, imap_user):
    configure(home, {"imap.after": "move", "imap.move_to": "gm taken"})
    dovecot.deliver(imap_user, three_mails(mail_home["BR"]))
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 0 and ran.out.endswith("Taken: 3 accepted\n")
    assert inbox_state(dovecot, imap_user) == []
    assert len(inbox_state(dovecot, imap_user, '"gm taken"')) == 3
    assert gm("inbox", "fetch", home=home).out == "No new mail.\n"


@pytest.mark.slow
def test_fetch_with_a_wrong_password_says_so(home, gm, mail_home, dovecot, imap_user, monkeypatch):
    monkeypatch.setenv("GM_TEST_IMAP_PASSWORD", "wrong")
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 1
    assert ran.err.startswith(f"Error: the IMAP server 127.0.0.1:{dovecot.port} refused the login of {imap_user} (")
    assert ran.err.endswith("Check [imap] user and the password.\n")


@pytest.mark.slow
@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_fetch_over_tls_and_starttls(home, gm, mail_home, dovecot, imap_user, security):
    if dovecot.tls is None:
        pytest.skip("openssl is needed to make the test server's certificate")
    port = dovecot.tls_port if security == "tls" else dovecot.port
    configure(home, {"imap.security": security, "imap.port": port, "imap.ca_file": str(dovecot.tls[0])})
    dovecot.deliver(imap_user, three_mails(mail_home["BR"])[:1])
    ran = gm("inbox", "fetch", home=home)
    assert (ran.code, ran.err) == (0, "") and ran.out.endswith("Taken: 1 accepted\n")
    # Without the CA the server's certificate is not trusted, and gm says so instead of going on.
    configure(home, {"imap.ca_file": ""})
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 1 and ran.err.startswith(f"Error: cannot reach the IMAP server 127.0.0.1:{port} (")
    assert "CERTIFICATE_VERIFY_FAILED" in ran.err


@pytest.mark.slow
def test_a_mail_too_large_is_refused_without_being_downloaded(home, gm, mail_home, dovecot, imap_user, monkeypatch):
    """[mail] max_message_bytes: a larger mail is left on the server, its header block alone
    fetched (its size asked first, RFC822.SIZE), refused for its size, answered and flagged as
    an oversized mail from a pipe is; a 200 MB mail cost 200 MB of memory before."""
    import imaplib
    import json

    configure(home, {"mail.max_message_bytes": 1_000_000})
    big = mail(turn_file(mail_home["BR"]) + "\n" + "filler line\n" * 250_000, message_id="<big@example.org>")
    small = mail(turn_file(mail_home["BR"], "CLAIM SCO"), message_id="<small@example.org>")
    dovecot.deliver(imap_user, [big, small])
    read = []
    real_read = imaplib.IMAP4.read

    def counted(self, size):
        data = real_read(self, size)
        read.append(len(data))
        return data

    monkeypatch.setattr(imaplib.IMAP4, "read", counted)
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 0 and sum(read) < 20_000  # the big mail's 3 MB stayed on the server
    assert (
        f"refused: the mail is too large ({len(big):,} bytes; at most 1,000,000): send the turn file as plain text"
        in ran.out
    )
    assert ran.out.endswith("Taken: 1 accepted, 1 refused\n")
    [(digest,)] = rows(home, "SELECT digest FROM mail_taken WHERE outcome = 'refused'")
    note = json.loads((home / "archive" / digest[:2] / f"{digest}.note").read_text())
    assert (note["size"], note["sender"], note["reason"]) == (len(big), "ann@example.org", "refused for size")
    assert (
        note["head"] == big[:512].decode()[: len(note["head"])]
        and not (home / "archive" / digest[:2] / digest).exists()
    )
    assert [to for kind, to, subject, body in outbox_bodies(home)] == ["ann@example.org"] * 2
    flags = inbox_state(dovecot, imap_user)
    assert all(b"$GmTaken" in f for f in flags) and len(flags) == 2
    assert gm("inbox", "fetch", home=home).out == "No new mail.\n"
    assert gm("doctor", home=home).code == 0  # the note stands for the mail the database names
