"""How mail leaves: the one-method Sender seam, over SMTP, into a folder, or into memory (tests)."""

from __future__ import annotations

import os
import re
import smtplib
import ssl
import tempfile
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Protocol

from gm.errors import GMError
from gm.mail.headers import MODERN
from gm.mail.settings import Server

# A line ending of any kind: email.generator's NLCRE, which the stubs of the standard library leave out.
_LINE_END = re.compile(r"\r\n|\r|\n")


class SendFailure(Exception):
    """A mail the server did not take: temporary (try again later) or permanent (give up)."""

    def __init__(self, reason: str, temporary: bool):
        super().__init__(reason)
        self.temporary = temporary


class Sender(Protocol):
    def send(self, message: EmailMessage, name: str = "") -> None:
        """Deliver one message or raise SendFailure. name: what the mail is
        (<game>-<turn>-<seat>-<kind>, outbox.mail_name); a folder names its file after it."""


class MemorySender:
    """Keeps what it is given, for tests; fails the addresses it is told to."""

    def __init__(self, fail: dict[str, SendFailure] | None = None):
        self.sent: list[EmailMessage] = []
        self.fail = fail or {}

    def send(self, message: EmailMessage, name: str = "") -> None:
        failure = self.fail.get(message["To"].addresses[0].addr_spec)
        if failure:
            raise failure
        self.sent.append(message)


class FolderSender:
    """Writes each message as an .eml file into a folder, named for what it is
    (g1-3-BR-report.eml), so a GM can tell which is whose; a second mail of the same name gets
    -2, -3, ..., and the same message sent again (a crash before it was marked sent) its own file."""

    def __init__(self, folder: Path):
        self.folder = folder

    # A context manager as SmtpSender is, so a caller holds either the same way (nothing to open).
    def __enter__(self) -> FolderSender:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def send(self, message: EmailMessage, name: str = "") -> None:
        message_id = str(message["Message-ID"])
        base = re.sub(r"[^A-Za-z0-9.@_-]", "", name or message_id)[:120] or "mail"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.folder, prefix=".sending-")
            with os.fdopen(fd, "wb") as out:
                _BlockGenerator(out, mangle_from_=False, policy=policy.default).flatten(message)
            os.replace(temporary, self._path(base, message_id))
        except OSError as exc:
            raise SendFailure(f"cannot write into {self.folder}: {exc.strerror}", temporary=True) from exc

    def _path(self, base: str, message_id: str) -> Path:
        """The first free name of base-n.eml, or the file that holds this very message already."""
        n, path = 1, self.folder / f"{base}.eml"
        while path.exists() and _message_id(path) != message_id:
            n += 1
            path = self.folder / f"{base}-{n}.eml"
        return path


class _BlockGenerator(BytesGenerator):
    """The standard library's BytesGenerator, giving the same bytes as message.as_bytes, but
    writing a body's lines in one piece: the standard one writes each line and its line ending
    one at a time, about 11,000 writes for a 300 KB report PDF in base64, and such a mail took
    7 ms to write, now 1.7 (tests/mail/test_senders.py holds the bytes the same). Only the
    folder sender uses it; smtplib flattens what it sends itself."""

    _NL: str  # the line ending the Generator writes (its policy's linesep), set as it flattens

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        if self._NL != "\n" or "\r" in lines:  # a base64 body has "\n" ends: nothing to change
            lines = _LINE_END.sub(self._NL.replace("\\", "\\\\"), lines)
        self.write(lines)


def _message_id(path: Path) -> str | None:
    with open(path, "rb") as handle:
        return BytesHeaderParser(policy=MODERN).parse(handle).get("Message-ID")


class SmtpSender:
    """One SMTP connection for a run of `gm mail send`: TLS or STARTTLS, then AUTH if a user is set.

    Connecting or logging in fails the whole run with GMError (the mail stays queued, untouched);
    a failure for one mail is a SendFailure for that mail only.
    """

    def __init__(self, server: Server):
        self.server = server
        self.connection: smtplib.SMTP | None = None

    def __enter__(self) -> SmtpSender:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self.connection = None

    def send(self, message: EmailMessage, name: str = "") -> None:
        if self.connection is None:
            self.connection = self._connect()
        try:
            refused = self.connection.send_message(message)
        except smtplib.SMTPRecipientsRefused as exc:
            raise _failure(next(iter(exc.recipients.values()), (550, b"refused"))) from exc
        except smtplib.SMTPResponseException as exc:
            raise _failure((exc.smtp_code, exc.smtp_error)) from exc
        except (smtplib.SMTPServerDisconnected, OSError) as exc:
            self.connection = None  # connect again for the next mail
            raise SendFailure(f"the connection to {self.server.name} broke ({exc})", temporary=True) from exc
        if refused:
            raise _failure(next(iter(refused.values())))

    def _connect(self) -> smtplib.SMTP:
        return smtp_connection(self.server, sending=True)


def smtp_connection(server: Server, sending: bool = False) -> smtplib.SMTP:
    """A connection to the [smtp] server: TLS or STARTTLS, then AUTH if a user is set (also
    what 'gm doctor --mail' tries); GMError says what failed, what to check, and when
    `sending`, that the mail waits."""
    context = ssl.create_default_context(cafile=server.ca_file or None)
    connection: smtplib.SMTP
    try:
        if server.security == "tls":
            connection = smtplib.SMTP_SSL(server.host, server.port, timeout=server.timeout, context=context)
        else:
            connection = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
            if server.security == "starttls":
                connection.starttls(context=context)
        if server.user:
            connection.login(server.user, server.password())
    except smtplib.SMTPAuthenticationError as exc:
        waits = "; nothing was sent" if sending else ""
        raise GMError(
            f"the SMTP server {server.name} refused the login of {server.user} ({exc.smtp_code}){waits}. "
            "Check [smtp] user and the password."
        ) from exc
    except (smtplib.SMTPException, ssl.SSLError, OSError) as exc:
        waits = "; nothing was sent, the mail stays queued" if sending else ""
        raise GMError(
            f"cannot reach the SMTP server {server.name} ({exc}){waits}. Check [smtp] host, port and "
            "security (and ca_file for a private certificate)."
        ) from exc
    return connection


def _failure(answer: tuple[int, bytes | str]) -> SendFailure:
    code, text = answer
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return SendFailure(f"{code} {' '.join(text.split())}", temporary=not 500 <= int(code) < 600)
