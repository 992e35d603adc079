"""Where mail comes from: a Maildir, an mbox file, .eml files, standard input, or memory (tests)."""

from __future__ import annotations

import hashlib
import mailbox
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from gm.errors import GMError
from gm.intake.letter import MOST_HEADER_BYTES


@dataclass(frozen=True)
class Incoming:
    """One raw message: its bytes, where it came from (for the GM's eyes), and the SMTP return
    path when the source knows it ("" is a bounce's null sender, None unknown).

    size: set by a source that did not take a message larger than [mail] max_message_bytes in
    whole and gives only its beginning as raw (IMAP: its header block; a pipe: as many bytes as
    the limit): the whole message's size in bytes. Such a message is refused for its size
    unread; None: raw is the whole message.
    digest: the whole message's SHA-256 when raw is not all of it and the source read it all (a
    pipe); None: the SHA-256 of raw names it."""

    raw: bytes
    where: str
    envelope_sender: str | None = None
    size: int | None = None
    digest: str | None = None

    @property
    def sha256(self) -> str:
        """The SHA-256 that names the message in the archive and intake's records."""
        return self.digest or hashlib.sha256(self.raw).hexdigest()

    @property
    def whole_size(self) -> int:
        """The message's size in bytes, though raw be only its header block."""
        return len(self.raw) if self.size is None else self.size


_PIECE = 65_536  # bytes read at once from a message's file (read_incoming)


class Readable(Protocol):
    """A file of bytes open for reading: standard input, a Maildir's or an mbox's message."""

    def read(self, size: int, /) -> bytes: ...


def read_incoming(stream: Readable, where: str, sender: str | None, largest: int | None) -> Incoming:
    """The message a stream holds. One larger than `largest` bytes is read through, hashed on
    the way, and only its beginning kept (as far as the limit, or the largest header block gm
    reads, whichever is more): refused for its size, it costs no more memory than a mail within
    the limit (a 217 MB mail took 477 MB). largest None: read whole. Read in pieces of
    _PIECE bytes: one read of as many bytes as the limit allocates them all, for every message
    (2.5 times the time a small message takes to read, else)."""
    if largest is None:
        return Incoming(stream.read(-1), where, sender)
    keep, pieces, kept = max(largest, MOST_HEADER_BYTES) + 1, [], 0
    while kept < keep and (piece := stream.read(min(_PIECE, keep - kept))):
        pieces.append(piece)
        kept += len(piece)
    raw = b"".join(pieces)
    if len(raw) <= largest:
        return Incoming(raw, where, sender)
    whole, size = hashlib.sha256(raw), len(raw)
    while chunk := stream.read(_PIECE):
        whole.update(chunk)
        size += len(chunk)
    return Incoming(raw, where, sender, size=size, digest=whole.hexdigest())


class MailSource(Protocol):
    """The one door for incoming mail: raw messages out, and word back once each is stored."""

    def messages(self) -> Iterator[Incoming]: ...

    def taken(self, incoming: Incoming) -> None:
        """Called after the message is archived and recorded; an IMAP source flags or moves it."""


class MemorySource:
    """Raw messages held in memory, for tests; remembers which were taken."""

    def __init__(self, raws: list[bytes]):
        self.raws = list(raws)
        self.taken_from: list[str] = []

    def messages(self) -> Iterator[Incoming]:
        for number, raw in enumerate(self.raws, start=1):
            yield Incoming(raw, f"memory:{number}")

    def taken(self, incoming: Incoming) -> None:
        self.taken_from.append(incoming.where)


class FileSource:
    """A Maildir, an mbox file, one .eml file or a folder of .eml files; read, never changed.

    Files are left as they are: what was taken is known from the intake records, so importing
    the same mailbox again takes only what is new. A message larger than `largest` bytes is
    read through and only its beginning kept (read_incoming); None: every message whole.
    """

    def __init__(self, path: Path, largest: int | None = None):
        self.path, self.largest = path, largest
        if not path.exists():
            raise GMError(f"no file or folder {path}.")

    @property
    def kind(self) -> str:
        if self.path.is_dir():
            return "maildir" if (self.path / "cur").is_dir() and (self.path / "new").is_dir() else "folder"
        with open(self.path, "rb") as handle:
            return "mbox" if handle.read(5) == b"From " else "message"

    def messages(self) -> Iterator[Incoming]:
        try:
            yield from getattr(self, f"_{self.kind}")()
        except OSError as exc:
            raise GMError(f"cannot read {self.path}: {exc.strerror or exc}.") from exc

    def taken(self, incoming: Incoming) -> None:
        pass

    def _maildir(self) -> Iterator[Incoming]:
        # The keys and files of mailbox.Maildir's table of contents (cur, then new; a file's key
        # is its name up to the first colon), listed once: Maildir.get_file looks each file up
        # again (a stat) and wraps it in a proxy, a third of what reading a small mail costs.
        files: dict[str, str] = {}
        for folder in ("cur", "new"):
            with os.scandir(self.path / folder) as entries:
                files.update((entry.name.split(":")[0], entry.path) for entry in entries if not entry.is_dir())
        # Sorted keys begin with the delivery time, so mail is taken in the order it came.
        for key in sorted(files):
            with open(files[key], "rb") as handle:
                yield read_incoming(handle, f"{self.path}:{key}", None, self.largest)

    def _mbox(self) -> Iterator[Incoming]:
        box = mailbox.mbox(self.path, factory=None, create=False)
        try:
            for key in box.iterkeys():
                # An mbox's keys are its messages' numbers from 0; typeshed calls every mailbox's keys str.
                number: int = key + 1  # type: ignore[operator]
                with box.get_file(key, from_=True) as handle:
                    from_line = handle.readline().decode("latin-1")
                    incoming = read_incoming(handle, f"{self.path}:{number}", _mbox_sender(from_line), self.largest)
                yield incoming
        finally:
            box.close()

    def _folder(self) -> Iterator[Incoming]:
        for path in sorted(p for p in self.path.iterdir() if p.suffix.lower() == ".eml" and p.is_file()):
            with open(path, "rb") as handle:
                yield read_incoming(handle, str(path), None, self.largest)

    def _message(self) -> Iterator[Incoming]:
        with open(self.path, "rb") as handle:
            yield read_incoming(handle, str(self.path), None, self.largest)


def _mbox_sender(from_line: str) -> str | None:
    # "From MAILER-DAEMON Sat Nov 21 10:00:00 2026": the return path of the message.
    words = from_line.split()
    return words[1] if len(words) > 1 else None
