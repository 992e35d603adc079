"""gm doctor --mail against real servers on loopback: Dovecot (IMAP) and aiosmtpd (SMTP with STARTTLS)."""

from __future__ import annotations

from tests.intake.mails import configure
from tests.mail.conftest import SMTP_USER, smtp, smtp_server  # noqa: F401  (the SMTP server fixtures)


def mail_lines(ran) -> list[str]:
    return [line for line in ran.out.splitlines() if line.split(":")[0].split()[-1] in ("smtp", "imap")]


def test_doctor_mail_logs_in_to_both_servers(home, gm, imap_user, smtp, dovecot, monkeypatch):
    configure(home, smtp.settings())
    dovecot.deliver(imap_user, [])  # the user's Maildir, as a real account has
    ran = gm("doctor", "--mail", home=home)
    assert ran.code == 0, ran.out
    assert mail_lines(ran) == [
        f"OK       smtp: 127.0.0.1:{smtp.port} took the connection (starttls) and the login as {SMTP_USER}",
        f"OK       imap: 127.0.0.1:{dovecot.port} took the login of {imap_user}; folder 'INBOX' is there",
    ]
    assert "smtp" not in gm("doctor", home=home).out  # only when asked

    monkeypatch.setenv("GM_TEST_SMTP_PASSWORD", "wrong")
    configure(home, {"imap.folder": "Nowhere"})
    ran = gm("doctor", "--mail", home=home)
    assert ran.code == 1 and mail_lines(ran) == [
        f"PROBLEM  smtp: the SMTP server 127.0.0.1:{smtp.port} refused the login of {SMTP_USER} (535). "
        "Check [smtp] user and the password.",
        f"PROBLEM  imap: the IMAP server 127.0.0.1:{dovecot.port} has no folder 'Nowhere'. Check [imap] folder.",
    ]


def test_doctor_mail_names_a_server_it_cannot_reach(home, gm, mail_home):
    from tests.intake.dovecot import free_port

    port = free_port()
    configure(home, {"mail.transport": "smtp", "smtp.host": "127.0.0.1", "smtp.port": port, "smtp.security": "none"})
    ran = gm("doctor", "--mail", home=home)
    assert ran.code == 1
    assert mail_lines(ran)[0].startswith(f"PROBLEM  smtp: cannot reach the SMTP server 127.0.0.1:{port} (")
    assert mail_lines(ran)[0].endswith(
        "). Check [smtp] host, port and security (and ca_file for a private certificate)."
    )
    assert mail_lines(ran)[1] == "OK       imap: no [imap] host: gm inbox fetch is not set up"
