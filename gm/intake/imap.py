"""Mail from an IMAP folder: fetched without marking it read, flagged or moved once it is stored."""

from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Iterator
from dataclasses import dataclass

from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import MOST_HEADER_BYTES
from gm.intake.sources import Incoming
from gm.mail.settings import Server, mail_settings, server_settings

# The IMAP keyword gm sets on a message it has stored; mail without it is new to gm.
TAKEN_KEYWORD = "$GmTaken"
# How many messages' sizes one FETCH asks for (a UID list of this many stays a short command).
SIZES_AT_ONCE = 200
_UID = re.compile(rb"\bUID (\d+)")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)")


@dataclass(frozen=True)
class ImapPlace:
    """[imap] folder to read; after = "flag" (keyword $GmTaken and \\Seen) or "move" (to move_to);
    largest: [mail] max_message_bytes, past which a message is left on the server, its header
    block alone fetched (None: every message is fetched whole)."""

    folder: str
    after: str
    move_to: str
    largest: int | None = None


def imap_settings(home: Home) -> tuple[Server, ImapPlace]:
    server = server_settings(home, "imap", 993, "tls")
    place = ImapPlace(
        home.setting("imap", "folder", "INBOX"),
        home.setting("imap", "after", "flag"),
        home.setting("imap", "move_to", "gm-taken"),
        mail_settings(home).max_message_bytes,
    )
    if place.after not in ("flag", "move"):
        raise GMError(f'{home.settings_file}: [imap] after must be "flag" or "move", not "{place.after}".')
    return server, place


class ImapSource:
    """A mail source over one IMAP connection; use it as a context manager.

    A message is fetched with BODY.PEEK (so it stays unread) and flagged or moved only when
    intake says it is stored: a crash in between leaves it unflagged, the next run fetches it
    again, and intake knows it by its digest and only flags it then.

    Each message's size (RFC822.SIZE) is asked first: one larger than place.largest is never
    downloaded, only its header block (at most MOST_HEADER_BYTES), for intake to refuse it for
    its size and answer its sender (Incoming.size); a 200 MB mail costs no 200 MB of memory.
    """

    def __init__(self, server: Server, place: ImapPlace):
        self.server, self.place = server, place
        self.connection: imaplib.IMAP4 | None = None

    def __enter__(self) -> ImapSource:
        self.connection = self._connect()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.connection is not None:
            try:
                self.connection.logout()
            except (imaplib.IMAP4.error, OSError):
                pass
            self.connection = None

    def messages(self) -> Iterator[Incoming]:
        connection = self._connected()
        status, _ = connection.select(_quoted(self.place.folder))
        if status != "OK":
            raise GMError(f"the IMAP server {self.server.name} has no folder '{self.place.folder}' ([imap] folder).")
        if self.place.after == "flag":
            self._check_keywords()
            status, data = connection.uid("SEARCH", "UNKEYWORD", TAKEN_KEYWORD)
        else:
            status, data = connection.uid("SEARCH", "ALL")
        uids = (data[0] or b"").decode().split()
        for start in range(0, len(uids), SIZES_AT_ONCE):
            some = uids[start : start + SIZES_AT_ONCE]
            sizes = self._sizes(some)
            for uid in some:
                size = sizes.get(uid)
                left = size is not None and self.place.largest is not None and size > self.place.largest
                what = f"(BODY.PEEK[HEADER]<0.{MOST_HEADER_BYTES}>)" if left else "(BODY.PEEK[])"
                status, parts = connection.uid("FETCH", uid, what)
                raw = next((p[1] for p in parts or () if isinstance(p, tuple)), None)
                if status == "OK" and raw is not None:  # gone meanwhile (another client moved it): skip
                    yield Incoming(raw, f"imap:{self.place.folder}:{uid}", size=size if left else None)

    def _sizes(self, uids: list[str]) -> dict[str, int]:
        """The size in bytes of each of these messages the server still has, by UID."""
        status, data = self._connected().uid("FETCH", ",".join(uids), "(RFC822.SIZE)")
        sizes = {}
        for line in data if status == "OK" else ():
            text = line[0] if isinstance(line, tuple) else line
            uid, size = _UID.search(text or b""), _SIZE.search(text or b"")
            if uid and size:
                sizes[uid[1].decode()] = int(size[1])
        return sizes

    def check(self) -> None:
        """The folder can be selected as 'gm inbox fetch' selects it (what 'gm doctor --mail' asks
        after the login); GMError if not."""
        status, _ = self._connected().select(_quoted(self.place.folder))
        if status != "OK":
            raise GMError(
                f"the IMAP server {self.server.name} has no folder '{self.place.folder}'. Check [imap] folder."
            )

    def taken(self, incoming: Incoming) -> None:
        uid = incoming.where.rsplit(":", 1)[1]
        if self.place.after == "flag":
            status, _ = self._connected().uid("STORE", uid, "+FLAGS.SILENT", f"({TAKEN_KEYWORD} \\Seen)")
        else:
            status, _ = self._connected().uid("MOVE", uid, _quoted(self.place.move_to))
        if status != "OK":
            raise GMError(
                f"the IMAP server did not {self.place.after} message {uid}; it is stored, and the "
                "next 'gm inbox fetch' will know it and try again."
            )

    def _connected(self) -> imaplib.IMAP4:
        """The open connection: a with block opens it (__enter__)."""
        if self.connection is None:
            raise RuntimeError("ImapSource is used in a with block, which connects it")
        return self.connection

    def _connect(self) -> imaplib.IMAP4:
        server = self.server
        context = ssl.create_default_context(cafile=server.ca_file or None)
        connection: imaplib.IMAP4
        try:
            if server.security == "tls":
                connection = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=context, timeout=server.timeout)
            else:
                connection = imaplib.IMAP4(server.host, server.port, timeout=server.timeout)
                if server.security == "starttls":
                    connection.starttls(ssl_context=context)
        except (imaplib.IMAP4.error, ssl.SSLError, OSError) as exc:
            raise GMError(
                f"cannot reach the IMAP server {server.name} ({exc}). Check [imap] host, port, security (and ca_file for a private certificate)."
            ) from exc
        try:
            connection.login(server.user, server.password())
        except imaplib.IMAP4.error as exc:
            raise GMError(
                f"the IMAP server {server.name} refused the login of {server.user} ({_said(exc)}). "
                "Check [imap] user and the password."
            ) from exc
        if self.place.after == "move":
            self._prepare_move(connection)
        return connection

    def _prepare_move(self, connection: imaplib.IMAP4) -> None:
        # Asked again: servers list fewer capabilities before the login than after it.
        status, data = connection.capability()
        if b"MOVE" not in (data[0] or b"").upper().split():
            raise GMError(f'the IMAP server {self.server.name} cannot MOVE messages; set [imap] after = "flag".')
        connection.create(_quoted(self.place.move_to))  # "already exists" is fine

    def _check_keywords(self) -> None:
        flags = self._connected().response("PERMANENTFLAGS")[1]
        if flags and flags[0] is not None and b"\\*" not in flags[0] and TAKEN_KEYWORD.encode() not in flags[0]:
            raise GMError(
                f"the IMAP folder '{self.place.folder}' cannot keep gm's keyword {TAKEN_KEYWORD}; "
                'set [imap] after = "move" instead.'
            )


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _said(exc: Exception) -> str:
    text = exc.args[0] if exc.args else exc
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
