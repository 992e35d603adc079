"""Reading one raw mail: who sent it, how to answer it, whether a robot sent it, its texts."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from typing import overload

from gm.intake.text import clean_text, html_to_text, part_text, readable
from gm.mail.headers import READING, CutHeaders, HeadersTooLong, header_budget

# The modern policy: structured headers (addresses, parameters) and RFC 2047 words decoded.
_PARSER = BytesParser(policy=READING)  # its header objects remembered, long values cut (gm.mail.headers)
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII but < and >: no space, no CR/LF
_TURN_FILE_NAMES = (".txt", ".ord", ".orders", ".text")
_LIST_PRECEDENCE = {"bulk", "junk", "list"}
FORWARDED = "forwarded message"  # where the body of a mail attached to a mail is
MOST_FORWARDED = 10  # mails attached to a mail whose bodies are read (as MOST_TURN_FILES)
# The largest header block a mail may begin with, in bytes. The email package takes about 0.35
# microseconds a byte of header lines (a 10 MB block of short headers: 3.5 CPU-s); a mail's own
# are a few kB, a long relay chain with its signatures some tens, and one header of 400 kB is
# still read (its value cut, gm.mail.headers.CutHeaders). Past it only the first
# MOST_HEADER_BYTES are read, for the sender, and the mail is refused: at most 0.4 CPU-s.
MOST_HEADER_BYTES = 1_048_576
# Header lines as the email package knows them (feedparser's headerRE), each with its line end:
# the header block is the run of them a mail begins with.
_HEADER_LINE = rb"(?:From |[\x21-\x39\x3b-\x7e]*:|[\t ])[^\n]*\n"
_HEADER_LINES = re.compile(rb"(?:%s)*" % _HEADER_LINE)
_ONE_HEADER_LINE = re.compile(_HEADER_LINE)

# Reading headers cheaply. The modern policy parses the message, but it parses a header's value
# anew on every access (the most expensive part of the email package). A value in one of the
# plain shapes below is read here, giving exactly what the header registry gives for it
# (tests/intake/test_reading.py compares the two on every mail of the corpora); anything else --
# non-ASCII, RFC 2047 words, RFC 2231 parameters, comments, quoting -- goes to the registry.
_LINE_BREAKS = re.compile(r"\n|\r")  # what EmailPolicy.header_fetch_parse removes
_PLAIN_TEXT = re.compile(r"[\x20-\x7e\t]*\Z")  # printable ASCII; "=?" is checked apart
_ADDRESS = re.compile(
    r"[ \t]*(?:(?P<name>[A-Za-z0-9'_+-]+(?:[ \t]+[A-Za-z0-9'_+-]+)*)?[ \t]*<(?P<spec>{a})>|(?P<bare>{a}))[ \t]*\Z".format(
        a=r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
    )
)
_TOKEN = r"[A-Za-z0-9._+-]+"
_QUOTED = r'"[^"\\\x00-\x1f\x7f]*"'  # a quoted string without backslashes or control characters
_MIME = re.compile(
    rf"[ \t]*(?P<value>{_TOKEN}(?:/{_TOKEN})?)[ \t]*(?P<params>(?:;[ \t]*{_TOKEN}=(?:{_TOKEN}|{_QUOTED})[ \t]*)*);?[ \t]*\Z"
)
_PARAM = re.compile(rf""";[ \t]*({_TOKEN})=(?:({_TOKEN})|"([^"]*)")""")


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
    parent: the Message-ID of the mail this one answers (In-Reply-To's last, else the last one
      References names), or None.
    """

    message_id: str | None
    content_hash: str
    sender: str | None
    answer_to: Address | None
    subject: str
    references: tuple[str, ...]
    automatic: str | None
    texts: tuple[Text, ...]
    unreadable: str | None = None
    parent: str | None = None


def read_letter(raw: bytes, envelope_sender: str | None = None) -> Letter:
    """Read a raw message; never raises. envelope_sender: the SMTP return path when known
    (a pipe's $SENDER, an mbox From_ line); "" means the null sender of a bounce."""
    content_hash = _content_hash(raw)
    if _header_block_end(raw) > MOST_HEADER_BYTES:
        return _head_only(
            raw,
            content_hash,
            envelope_sender,
            f"its header block is too large (more than {MOST_HEADER_BYTES:,} bytes): send the turn file in a new mail",
        )
    try:
        return _budgeted(raw, content_hash, envelope_sender)
    except HeadersTooLong:
        return _head_only(raw, content_hash, envelope_sender, _TOO_MANY_HEADERS)
    except Exception as exc:  # noqa: BLE001 - a mail the email package chokes on is still taken
        return _unreadable(content_hash, f"the mail could not be read ({type(exc).__name__})")


_TOO_MANY_HEADERS = (
    f"its headers are too long to read (more than {CutHeaders.MOST_A_MAIL:,} characters in all, its "
    "parts' with its own): send the turn file in a new mail"
)


def _header_block_end(raw: bytes) -> int:
    """Where the header block a mail begins with ends, when that is within MOST_HEADER_BYTES;
    else somewhere past it. Reads no more than that and the one line crossing it."""
    end = _HEADER_LINES.match(raw, 0, MOST_HEADER_BYTES).end()  # type: ignore[union-attr] # * always matches
    crossing = _ONE_HEADER_LINE.match(raw, end)
    return crossing.end() if crossing else end


def _head_only(raw: bytes, content_hash: str, envelope_sender: str | None, why: str) -> Letter:
    """A mail refused for its headers: its own header block is read (for the sender and how to
    answer), as far as MOST_HEADER_BYTES, and nothing else."""
    head = raw[: _HEADER_LINES.match(raw, 0, MOST_HEADER_BYTES).end()] + b"\n"  # type: ignore[union-attr]
    try:
        letter = _budgeted(head, content_hash, envelope_sender)
    except Exception:  # noqa: BLE001 - HeadersTooLong among them: even its own headers cannot be read
        return _unreadable(content_hash, f"the mail could not be read: {why}")
    return replace(letter, texts=(), unreadable=f"the mail could not be read: {why}")


def _budgeted(raw: bytes, content_hash: str, envelope_sender: str | None) -> Letter:
    """Parse and read a mail within header_budget(); HeadersTooLong when the budget was spent,
    whatever caught it on the way (a part whose headers the registry cannot read is text)."""
    with header_budget() as spent:
        letter = _letter(_PARSER.parsebytes(raw), content_hash, envelope_sender)
    if spent[0] > CutHeaders.MOST_A_MAIL:
        raise HeadersTooLong(_TOO_MANY_HEADERS)
    return letter


def _unreadable(content_hash: str, why: str) -> Letter:
    return Letter(None, content_hash, None, None, "", (), None, (), unreadable=why)


def _letter(message: EmailMessage, content_hash: str, envelope_sender: str | None) -> Letter:
    headers = _Headers(message)
    message_id = headers.message_id()
    sender = headers.address("From")
    answer_to = headers.address("Reply-To") or sender
    earlier = tuple(_MSG_ID.findall(headers.text("References")))[-20:]
    references = earlier + ((message_id,) if message_id else ())
    parents = _MSG_ID.findall(headers.text("In-Reply-To")) or earlier
    parts = [_described(p, headers if p is message else None) for p in message.walk() if not p.is_multipart()]
    return Letter(
        message_id=message_id,
        content_hash=content_hash,
        sender=sender.addr_spec.lower() if sender else None,
        answer_to=answer_to,
        subject=" ".join(headers.text("Subject").split())[:200],
        references=references,
        automatic=_why_automatic(headers, envelope_sender, sender),
        texts=tuple(_texts(message, parts)),
        parent=parents[-1] if parents else None,
    )


def _why_automatic(headers: _Headers, envelope_sender: str | None, sender: Address | None) -> str | None:
    """Why a mail was sent by a program (RFC 3834, bounces, lists), or None for a person's mail."""
    auto = headers.text("Auto-Submitted").strip().lower()
    if auto and not auto.startswith("no"):
        return f"Auto-Submitted: {auto}"
    precedence = headers.text("Precedence").strip().lower()
    if precedence in _LIST_PRECEDENCE:
        return f"Precedence: {precedence}"
    if headers.text("List-Id") or headers.text("List-Post"):
        return "a mailing list (List-Id)"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply"):
        if headers.text(name):
            return f"an auto-reply ({name})"
    # The Return-Path the delivering server wrote wins; else what the source knows (a pipe's $SENDER).
    return_path = headers.text("Return-Path", None)
    return_path = envelope_sender if return_path is None else return_path
    if return_path is not None:
        path = return_path.strip().strip("<>").strip()
        if not path:
            return "a bounce (empty return path)"
        if path.split("@")[0].lower() in ("mailer-daemon", "postmaster"):
            return f"a bounce (return path {path})"
    sender = sender or headers.address("From")
    if sender and sender.username.lower() == "mailer-daemon":
        return "a bounce (From MAILER-DAEMON)"
    if headers.content_type() == "multipart/report":
        return "a delivery or read report (multipart/report)"
    return None


def _texts(message: EmailMessage, parts: list[_Part]) -> list[Text]:
    """The text body (text/plain preferred, else HTML made text) and each text attachment."""
    body = next((p for p in parts if p.type == "text/plain" and not p.attachment), None) or next(
        (p for p in parts if p.type == "text/html" and not p.attachment), None
    )
    texts: list[Text] = []
    if body is not None:
        texts.append(Text("body", _text(body)))
    elif parts and parts[0].type.startswith("multipart/") and isinstance(payload := message.get_payload(), str):
        # A multipart without its boundary: what the sender wrote is still there as plain text.
        texts.append(Text("body", clean_text(payload)))
    for part in parts:
        if part is not body and _is_turn_file(part):
            texts.append(Text(f"attachment {part.name}" if part.name else "attachment", _text(part)))
    # A mail forwarded as an attachment (message/rfc822, a part of the mail itself, not of one
    # within: each is walked once): its own body, read only when nothing before it holds a turn
    # file (find_turn_files), as text below a forward marker is.
    leaves = {id(p.message): p for p in parts}
    forwarded_read = 0
    for forwarded in message.iter_parts() if message.is_multipart() else ():
        inner = forwarded.get_payload() if forwarded.get_content_type() == "message/rfc822" else None
        if not isinstance(inner, list) or not inner or not isinstance(inner[0], EmailMessage):
            continue
        own = [leaves[id(p)] for p in inner[0].walk() if id(p) in leaves]
        found = next((p for p in own if p.type == "text/plain" and not p.attachment), None) or next(
            (p for p in own if p.type == "text/html" and not p.attachment), None
        )
        if found is not None and found is not body and not _is_turn_file(found):
            texts.append(Text(FORWARDED, _text(found)))
            forwarded_read += 1
            if forwarded_read == MOST_FORWARDED:
                break
    return texts


class _Headers:
    """A message's or a part's headers, read once from raw_items(): a value in a plain shape is
    read here, anything else by the header registry, as message.get() would (see _PLAIN_TEXT)."""

    def __init__(self, message: EmailMessage):
        self.message = message
        self.raw: dict[str, str] = {}
        for name, value in message.raw_items():
            self.raw.setdefault(name.lower(), value)  # message.get() gives the first one too

    def plain(self, name: str) -> str | None:
        """The value as the registry would give it, when it is in a plain shape; else None."""
        value = self.raw.get(name.lower())
        if not isinstance(value, str) or "=?" in value:
            return None
        value = _LINE_BREAKS.sub("", value)
        return value if _PLAIN_TEXT.match(value) else None

    def parsed(self, name: str) -> object:
        """The header object the registry makes (message.get()); raises for what it cannot read."""
        return self.message.get(name)

    @overload
    def text(self, name: str) -> str: ...

    @overload
    def text(self, name: str, default: None) -> str | None: ...

    def text(self, name: str, default: str | None = "") -> str | None:
        """A header as text; a malformed one is read raw rather than failing the whole mail."""
        if name.lower() not in self.raw:
            return default
        value: object = self.plain(name)
        if value is None:
            try:
                value = self.parsed(name)
            except Exception:  # noqa: BLE001
                value = self.raw[name.lower()]
        return default if value is None else readable(str(value))

    def message_id(self) -> str | None:
        value = self.plain("Message-ID")
        if value is not None and _MSG_ID.fullmatch(value):
            return value
        return _message_id(self.text("Message-ID"))

    def address(self, name: str) -> Address | None:
        value = self.plain(name)
        shape = _ADDRESS.match(value) if value is not None else None
        if shape:
            # A dot-atom: its local part and domain are what Address(addr_spec=...) would parse out.
            username, _, domain = (shape.group("spec") or shape.group("bare")).partition("@")
            return Address(" ".join((shape.group("name") or "").split()), username, domain)
        return self._parsed_address(name)

    def _parsed_address(self, name: str) -> Address | None:
        if name.lower() not in self.raw:
            return None
        try:
            header = self.parsed(name)
            addresses = getattr(header, "addresses", ()) if header is not None else ()
        except Exception:  # noqa: BLE001 - e.g. a name that decodes to CR/LF: keep the address, drop the name
            addresses = _plain_addresses(self.message, name)
        for address in addresses:
            spec = address.addr_spec
            if address.username and address.domain and spec.isascii() and spec.isprintable() and " " not in spec:
                try:
                    return Address(" ".join(readable(address.display_name).split()), addr_spec=spec)
                except (ValueError, IndexError):
                    return Address(addr_spec=spec)
        return None

    def mime(self, name: str) -> tuple[str, dict[str, str]] | None:
        """(value lower case, parameters with lower-case names) of a plain Content-Type or
        Content-Disposition, as the registry reads it; None when not plain."""
        value = self.plain(name)
        shape = _MIME.match(value) if value is not None else None
        if not shape or ("/" in shape.group("value")) != (name == "Content-Type"):
            return None
        params: dict[str, str] = {}
        for key, token, quoted in _PARAM.findall(shape.group("params")):
            if key.lower() in params:
                return None  # the registry keeps the first of the same spelling, the last of another
            params[key.lower()] = token or quoted
        return shape.group("value").lower(), params

    def content_type(self) -> str:
        """As message.get_content_type()."""
        if "content-type" in self.raw:
            plain = self.mime("Content-Type")
            if plain:
                return plain[0]
        return self.message.get_content_type()

    def transfer_encoding(self) -> str | None:
        """The Content-Transfer-Encoding in lower case when it is a plain word, else None."""
        value = self.raw.get("content-transfer-encoding", "")
        return value.lower() if _TOKEN_ONLY.match(value) else None


_TOKEN_ONLY = re.compile(r"[A-Za-z0-9-]*\Z")


@dataclass(frozen=True)
class _Part:
    """A leaf of the MIME tree, its headers read once: the modern policy parses a header anew on
    every access, and the stdlib's own helpers read Content-Type five times per part."""

    message: EmailMessage
    type: str
    charset: str | None
    name: str
    disposition: str
    cte: str | None = None

    @property
    def attachment(self) -> bool:
        return self.disposition == "attachment"


def _described(part: EmailMessage, headers: _Headers | None = None) -> _Part:
    headers = headers or _Headers(part)
    content_type = headers.mime("Content-Type") if "content-type" in headers.raw else ("", {})
    placing = headers.mime("Content-Disposition") if "content-disposition" in headers.raw else ("", {})
    if content_type is None or placing is None:
        return _described_by_registry(part)
    (kind, params), (disposition, wrapping) = content_type, placing
    name = " ".join(str(wrapping.get("filename") or params.get("name") or "").split())[:100]
    return _Part(
        part,
        kind or part.get_default_type(),
        params.get("charset"),
        readable(name),
        disposition,
        headers.transfer_encoding(),
    )


def _described_by_registry(part: EmailMessage) -> _Part:
    try:
        content_type = part.get("Content-Type")
        disposition = part.get("Content-Disposition")
    except Exception:  # noqa: BLE001 - headers the registry cannot read: text, no name
        return _Part(part, "text/plain", None, "", "")
    kind = str(getattr(content_type, "content_type", "") or part.get_default_type()).lower()
    params = dict(getattr(content_type, "params", {}) or {})
    wrapping = dict(getattr(disposition, "params", {}) or {})
    name = " ".join(str(wrapping.get("filename") or params.get("name") or "").split())[:100]
    return _Part(
        part,
        kind if kind.count("/") == 1 else "text/plain",
        params.get("charset"),
        readable(name),
        str(getattr(disposition, "content_disposition", "") or "").lower(),
    )


def _text(part: _Part) -> str:
    text = part_text(part.message, part.charset)
    return html_to_text(text) if part.type == "text/html" else text


def _is_turn_file(part: _Part) -> bool:
    if part.name.lower().endswith(_TURN_FILE_NAMES):
        return True
    # Any other text part with a name or a disposition (some clients split a pasted file in two).
    return part.type.startswith("text/") and bool(part.name or part.disposition)


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
    head, blank, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    if not blank:  # no header block ends: all of it counts (else every such file had one hash)
        return hashlib.sha256(raw).hexdigest()
    sender = next((line for line in head.split(b"\n") if line[:5].lower() == b"from:"), b"")
    return hashlib.sha256(sender + b"\n\n" + body).hexdigest()
