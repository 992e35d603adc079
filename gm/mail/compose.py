"""Building a queued mail into a MIME message: headers only through email.headerregistry."""

from __future__ import annotations

import binascii
import hashlib
import re
from collections.abc import Mapping
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from gm.mail.headers import MODERN
from gm.store.outbox import Queued

_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII without < and >: no space, no CR/LF


class Unsendable(ValueError):
    """A queued mail that can never be sent as it is (a bad address, a report file gone)."""


def compose(mail: Queued, sender: Address, home_root: Path, now: datetime) -> EmailMessage:
    """The message for a queued mail; raises Unsendable when it cannot be built.

    Addresses go in as Address objects and the subject through the modern policy, both of which
    refuse CR and LF, so nothing a player wrote can add a header.
    """
    message = EmailMessage(policy=MODERN)  # what policy.default makes, its header classes kept
    try:
        message["From"] = sender
        message["To"] = Address(mail.recipient_name, addr_spec=mail.recipient)
        message["Subject"] = mail.subject
    except (ValueError, IndexError, TypeError) as exc:
        raise Unsendable(f"unusable address or subject ({exc})") from exc
    message["Date"] = format_datetime(now)
    message["Message-ID"] = mail.message_id
    threads = [r for r in mail.references if _MSG_ID.fullmatch(r)]
    if mail.in_reply_to and _MSG_ID.fullmatch(mail.in_reply_to):
        message["In-Reply-To"] = mail.in_reply_to
    if threads:
        message["References"] = " ".join(threads)
    # RFC 3834: a robot must not answer this mail, so two robots cannot keep answering each other.
    message["Auto-Submitted"] = "auto-replied" if mail.kind == "acknowledgement" else "auto-generated"
    message.set_content(mail.body)
    seed = hashlib.sha256(f"{mail.message_id}\n{mail.body}".encode())
    for attachment in mail.attachments:
        seed.update(f"\n{attachment['filename']}".encode())
        if "content" in attachment:  # text carried in the outbox itself (the order form)
            message.add_attachment(attachment["content"], subtype="plain", filename=attachment["filename"])
            seed.update(f"\n{attachment['content']}".encode())
            continue
        data = _attachment(home_root, attachment)
        maintype, _, subtype = attachment["type"].partition("/")
        add_bytes(message, data, maintype, subtype, attachment["filename"])
        seed.update(f"\n{attachment['sha256']}".encode())
    if message.is_multipart():
        set_boundary(message, seed.hexdigest())
    return message


def set_boundary(message: EmailMessage, seed: str) -> None:
    """Give a multipart message its boundary, made from `seed` (a digest of what the mail holds),
    when no line of its parts begins with it; else leave it to the generator, which picks one at
    random. The generator, finding none, searches the whole flattened text for its pick, about
    8 ms a report mail of 500 KB (issue 32); a base64 body cannot hold a "-", so only the parts'
    headers and their other bodies (the mail's text, the order form) are looked at here."""
    boundary = f"=_gm_{seed[:40]}"
    for part in message.iter_parts():
        if part["Content-Transfer-Encoding"] == "base64":
            text = "".join(f"{name}: {value}\n" for name, value in part.items())
        else:
            text = part.as_string()
        if f"--{boundary}" in text:
            return
    message.set_boundary(boundary)


def add_bytes(message: EmailMessage, data: bytes, maintype: str, subtype: str, filename: str) -> None:
    """message.add_attachment(data, maintype=..., subtype=..., filename=...), the same bytes, with
    the base64 made in one call: the standard library's encoder calls binascii once a 76-character
    line from Python, 2.5 s of a 124-seat run-due's profile (a report PDF, its JSON and its kit
    are about 10,000 lines a mail). The part is made by add_attachment, headers and all, for an
    empty body, and then given its body (tests/mail/test_compose.py holds the bytes the same)."""
    message.add_attachment(b"", maintype=maintype, subtype=subtype, filename=filename)
    parts = message.get_payload()
    assert isinstance(parts, list), "add_attachment made the message multipart"
    part = parts[-1]
    assert isinstance(part, EmailMessage) and part["Content-Transfer-Encoding"] == "base64"
    part.set_payload(base64_lines(data))


def base64_lines(data: bytes) -> str:
    """`data` in base64, as lines of 76 characters each ended by a newline (what the standard
    library's content manager writes for an attachment; "" for nothing)."""
    text = binascii.b2a_base64(data, newline=False).decode("ascii")
    return "".join(text[at : at + _LINE] + "\n" for at in range(0, len(text), _LINE))


_LINE = 76  # characters a base64 line (57 bytes): the content manager's max_line_length


def _attachment(home_root: Path, attachment: Mapping[str, str]) -> bytes:
    path = home_root / attachment["path"]
    try:
        data = path.read_bytes()
    except OSError:
        raise Unsendable(f"the attachment {attachment['path']} is gone (was the turn re-run?)") from None
    if hashlib.sha256(data).hexdigest() != attachment["sha256"]:
        raise Unsendable(f"the attachment {attachment['path']} changed after the mail was queued")
    return data
