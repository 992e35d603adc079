"""Building a queued mail into a MIME message: headers only through email.headerregistry."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from gm.store.outbox import Queued

_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII without < and >: no space, no CR/LF


class Unsendable(ValueError):
    """A queued mail that can never be sent as it is (a bad address, a report file gone)."""


def compose(mail: Queued, sender: Address, home_root: Path, now: datetime) -> EmailMessage:
    """The message for a queued mail; raises Unsendable when it cannot be built.

    Addresses go in as Address objects and the subject through the modern policy, both of which
    refuse CR and LF, so nothing a player wrote can add a header.
    """
    message = EmailMessage()
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
    for attachment in mail.attachments:
        if "content" in attachment:  # text carried in the outbox itself (the order form)
            message.add_attachment(attachment["content"], subtype="plain", filename=attachment["filename"])
            continue
        data = _attachment(home_root, attachment)
        maintype, _, subtype = attachment["type"].partition("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=attachment["filename"])
    return message


def _attachment(home_root: Path, attachment: Mapping[str, str]) -> bytes:
    path = home_root / attachment["path"]
    try:
        data = path.read_bytes()
    except OSError:
        raise Unsendable(f"the attachment {attachment['path']} is gone (was the turn re-run?)") from None
    if hashlib.sha256(data).hexdigest() != attachment["sha256"]:
        raise Unsendable(f"the attachment {attachment['path']} changed after the mail was queued")
    return data
