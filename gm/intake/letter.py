"""Reading one raw mail: who sent it, how to answer it, whether a robot sent it, its texts."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses

from gm.intake.text import clean_text, html_to_text, part_text, readable

# The modern policy: structured headers (addresses, parameters) and RFC 2047 words decoded.
_PARSER = BytesParser(policy=policy.default)
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII but < and >: no space, no CR/LF
_TURN_FILE_NAMES = (".txt", ".ord", ".orders", ".text")
_LIST_PRECEDENCE = {"bulk", "junk", "list"}


@dataclass(frozen=True)
class Text:
    """A piece of a mail that may hold turn files: where it is ("body", "attachment x.txt") and the text."""

    where: str
    text: str


@dataclass(frozen=True)
class Letter:
    """A mail as intake needs it.

    message_id: the Message-ID with its angle brackets, or None when missing or malformed.
    content_hash: SHA-256 of the From header and the body, so the same mail through another
      route (other Received lines) is known again even without a Message-ID.
    sender: the From address (addr-spec, lower case), None when there is no usable one.
    answer_to: the address an answer goes to (Reply-To, else From), with its display name.
    subject: the subject on one line.
    references: the Message-IDs an answer must list in References (theirs, then this one).
    automatic: why no answer may be sent (bounce, auto-reply, mailing list), else None.
    texts: the text body (plain preferred over HTML) and every text attachment.
    unreadable: why the mail could not be read at all, else None.
    """

    message_id: str | None
    content_hash: str
    sender: str | None
    answer_to: Address | None
    subject: str
    references: tuple
    automatic: str | None
    texts: tuple
    unreadable: str | None = None


def read_letter(raw: bytes, envelope_sender: str | None = None) -> Letter:
    """Read a raw message; never raises. envelope_sender: the SMTP return path when known
    (a pipe's $SENDER, an mbox From_ line); "" means the null sender of a bounce."""
    content_hash = _content_hash(raw)
    try:
        message = _PARSER.parsebytes(raw)
        return _letter(message, content_hash, envelope_sender)
    except Exception as exc:  # noqa: BLE001 - a mail the email package chokes on is still taken
        return Letter(None, content_hash, None, None, "", (), None, (),
                      unreadable=f"the mail could not be read ({type(exc).__name__})")


def _letter(message: EmailMessage, content_hash: str, envelope_sender: str | None) -> Letter:
    message_id = _message_id(_header(message, "Message-ID"))
    sender = _first_address(message, "From")
    answer_to = _first_address(message, "Reply-To") or sender
    earlier = tuple(_MSG_ID.findall(_header(message, "References")))[-20:]
    references = earlier + ((message_id,) if message_id else ())
    return Letter(
        message_id=message_id,
        content_hash=content_hash,
        sender=sender.addr_spec.lower() if sender else None,
        answer_to=answer_to,
        subject=" ".join(_header(message, "Subject").split())[:200],
        references=references,
        automatic=why_automatic(message, envelope_sender, sender),
        texts=tuple(texts_of(message)),
    )


def why_automatic(message: EmailMessage, envelope_sender: str | None = None,
                  sender: Address | None = None) -> str | None:
    """Why a mail was sent by a program (RFC 3834, bounces, lists), or None for a person's mail."""
    auto = _header(message, "Auto-Submitted").strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {auto}"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in _LIST_PRECEDENCE:
        return f"Precedence: {precedence}"
    if _header(message, "List-Id") or _header(message, "List-Post"):
        return "a mailing list (List-Id)"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply"):
        if _header(message, name):
            return f"an auto-reply ({name})"
    # The Return-Path the delivering server wrote wins; else what the source knows (a pipe's $SENDER).
    return_path = _header(message, "Return-Path", None)
    return_path = envelope_sender if return_path is None else return_path
    if return_path is not None:
        path = return_path.strip().strip("<>").strip()
        if not path:
            return "a bounce (empty return path)"
        if path.split("@")[0].lower() in ("mailer-daemon", "postmaster"):
            return f"a bounce (return path {path})"
    sender = sender or _first_address(message, "From")
    if sender and sender.username.lower() == "mailer-daemon":
        return "a bounce (From MAILER-DAEMON)"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report (multipart/report)"
    return None


def texts_of(message: EmailMessage) -> list[Text]:
    """The text body (text/plain preferred, else HTML made text) and each text attachment."""
    parts = [_described(p) for p in message.walk() if not p.is_multipart()]
    body = next((p for p in parts if p.type == "text/plain" and not p.attachment), None) or \
        next((p for p in parts if p.type == "text/html" and not p.attachment), None)
    texts: list[Text] = []
    if body is not None:
        texts.append(Text("body", _text(body)))
    elif parts and parts[0].type.startswith("multipart/") and isinstance(message.get_payload(), str):
        # A multipart without its boundary: what the sender wrote is still there as plain text.
        texts.append(Text("body", clean_text(message.get_payload())))
    for part in parts:
        if part is not body and _is_turn_file(part):
            texts.append(Text(f"attachment {part.name}" if part.name else "attachment", _text(part)))
    return texts


@dataclass(frozen=True)
class _Part:
    """A leaf of the MIME tree, its headers read once: the modern policy parses a header anew on
    every access, and the stdlib's own helpers read Content-Type five times per part."""

    message: EmailMessage
    type: str
    charset: str | None
    name: str
    disposition: str

    @property
    def attachment(self) -> bool:
        return self.disposition == "attachment"


def _described(part: EmailMessage) -> _Part:
    try:
        content_type = part.get("Content-Type")
        disposition = part.get("Content-Disposition")
    except Exception:  # noqa: BLE001 - headers the registry cannot read: text, no name
        return _Part(part, "text/plain", None, "", "")
    kind = str(getattr(content_type, "content_type", "") or part.get_default_type()).lower()
    params = dict(getattr(content_type, "params", {}) or {})
    wrapping = dict(getattr(disposition, "params", {}) or {})
    name = " ".join(str(wrapping.get("filename") or params.get("name") or "").split())[:100]
    return _Part(part, kind if kind.count("/") == 1 else "text/plain", params.get("charset"), readable(name),
                 str(getattr(disposition, "content_disposition", "") or "").lower())


def _text(part: _Part) -> str:
    text = part_text(part.message, part.charset)
    return html_to_text(text) if part.type == "text/html" else text


def _is_turn_file(part: _Part) -> bool:
    if part.name.lower().endswith(_TURN_FILE_NAMES):
        return True
    # Any other text part with a name or a disposition (some clients split a pasted file in two).
    return part.type.startswith("text/") and bool(part.name or part.disposition)


def _header(message: EmailMessage, name: str, default: str | None = ""):
    """A header as text; a malformed one is read raw rather than failing the whole mail."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001
        value = next((v for k, v in message.raw_items() if k.lower() == name.lower()), None)
    return default if value is None else readable(str(value))


def _first_address(message: EmailMessage, name: str) -> Address | None:
    try:
        header = message.get(name)
        addresses = getattr(header, "addresses", ()) if header is not None else ()
    except Exception:  # noqa: BLE001 - e.g. a name that decodes to CR/LF: keep the address, drop the name
        addresses = _plain_addresses(message, name)
    for address in addresses:
        spec = address.addr_spec
        if address.username and address.domain and spec.isascii() and spec.isprintable() and " " not in spec:
            try:
                return Address(" ".join(readable(address.display_name).split()), addr_spec=spec)
            except (ValueError, IndexError):
                return Address(addr_spec=spec)
    return None


def _plain_addresses(message: EmailMessage, name: str) -> list[Address]:
    raw = [str(v) for k, v in message.raw_items() if k.lower() == name.lower()]
    found = []
    for _, spec in getaddresses(raw):
        try:
            found.append(Address(addr_spec=spec))
        except (ValueError, IndexError, TypeError):
            continue
    return found


def _message_id(value: str) -> str | None:
    found = _MSG_ID.search(value or "")
    return found.group(0) if found else None


def _content_hash(raw: bytes) -> str:
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    sender = next((line for line in head.split(b"\n") if line[:5].lower() == b"from:"), b"")
    return hashlib.sha256(sender + b"\n\n" + body).hexdigest()
