"""Mail intake: each message archived, read, its turn files submitted, answered, recorded once."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable, Iterator

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.envelope import Envelope, read_envelope
from gm.errors import GMError
from gm.home import Home
from gm.intake.finding import find_turn_files
from gm.intake.letter import Letter, read_letter
from gm.intake.sources import Incoming, MailSource
from gm.intake.verified import VerifiedSecrets
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment
from gm.services import turnfiles
from gm.services.answers import Answerer, from_receipt, from_submission, refused
from gm.services.requests import answer_request, is_request
from gm.store import records
from gm.store.archive import archive_bytes, archived_path
from gm.store.database import transaction

# How many messages a run reads, archives and stores before it forces them to disk and tells the
# source (see Intake.take_all).
TAKEN_PER_SYNC = 50
NO_TURN_FILE = ("no turn file found: the orders must start with a line 'GAME <game name>' "
                "and end with 'END'")
# Outcomes, worst first: the message's outcome is the worst of its turn files'.
_WORST_FIRST = ("refused", "rejected", "request", "accepted")


@dataclass(frozen=True)
class Taken:
    """What intake did with one message: where it came from, the outcome (accepted, rejected,
    refused, request, ignored, duplicate: a copy by another route, already taken: these very
    bytes, nothing done), one result per turn file, and the answer (or why none)."""

    where: str
    outcome: str
    results: tuple
    answer: str


@dataclass(frozen=True)
class Read:
    """A message archived and read, not yet decided: its digest, the letter and its turn files
    (letter None: these bytes were taken before)."""

    incoming: Incoming
    digest: str
    letter: Letter | None
    files: tuple = ()
    too_large: bool = False


@dataclass
class Intake:
    """One run of intake over any number of messages; it reuses settings, templates and the
    secrets it verified, so the cost per message is reading it, not setting up."""

    db: sqlite_utils.Database
    home: Home
    clock: Clock
    channel: str
    secrets: VerifiedSecrets = field(default_factory=VerifiedSecrets)

    def __post_init__(self):
        self.settings = mail_settings(self.home)
        self.answerer = Answerer(self.db, self.home, self.clock, self.settings, mail_environment(self.home.templates))

    def take(self, incoming: Incoming) -> Taken:
        """Take one message, each write forced to disk before the next (for a mail server's pipe)."""
        return self.decide(self.read(incoming, sync=True))

    def take_all(self, source: MailSource) -> Iterator[Taken]:
        """Take every message of a source; the source hears a message is taken only once it is on disk.

        Group commit, TAKEN_PER_SYNC messages at a time: archive and read them all, force the
        archive to disk once, decide each (their commits not forced one by one), force the
        database's log to disk once, then tell the source (an IMAP source flags them). Two fsyncs
        per message would cost more than reading it. A crash anywhere loses nothing and doubles
        nothing: raw bytes are on disk before anything refers to them; what was not forced was not
        flagged, is fetched again, and is known by its digest or by its stored submissions.
        """
        with self._group_commit():
            for batch in _batches(source.messages(), TAKEN_PER_SYNC):
                read = [self.read(incoming, sync=False) for incoming in batch]
                if any(item.letter is not None for item in read):
                    os.sync()  # the archive files reach the disk before any record refers to them
                for item in read:
                    yield self.decide(item)
                self._force_log_to_disk()
                for incoming in batch:
                    source.taken(incoming)

    def read(self, incoming: Incoming, sync: bool) -> Read:
        """Archive the raw bytes (before anything else), read the mail, archive each turn file."""
        raw = incoming.raw
        digest = hashlib.sha256(raw).hexdigest()
        if self._known(digest):
            return Read(incoming, digest, None)
        self._archive(raw, sync)
        too_large = len(raw) > self.settings.max_message_bytes
        letter = read_letter(_head(raw) if too_large else raw, incoming.envelope_sender)
        files = () if too_large or letter.automatic else tuple(find_turn_files(letter.texts))
        for found in files:
            # Archived now, so that submit() finds them there and forces nothing to disk itself.
            self._archive(found.text.encode("utf-8"), sync)
        return Read(incoming, digest, letter, files, too_large)

    def decide(self, item: Read) -> Taken:
        """Submit the turn files of a message read, answer it, and record it."""
        letter, where = item.letter, item.incoming.where
        if letter is None or self._known(item.digest):  # the same bytes twice in one batch
            return Taken(where, "already taken", (), "none: taken before")
        if self._copy_taken(letter):
            return self._record(item, "duplicate", [], "none: a copy was taken before")
        if letter.automatic:
            return self._record(item, "ignored", [], f"none: sent by a program ({letter.automatic})")
        if item.too_large:
            results = [refused("mail", f"the mail is too large ({len(item.incoming.raw):,} bytes; at most "
                                       f"{self.settings.max_message_bytes:,}): send the turn file as plain text")]
        elif letter.unreadable:
            results = [refused("mail", letter.unreadable)]
        else:
            results = ([self._turn_file(item, n, found) for n, found in enumerate(item.files, start=1)]
                       or [refused("body", NO_TURN_FILE)])
        outcome = next((o for o in _WORST_FIRST if any(r["verdict"] == o for r in results)), "accepted")
        return self._record(item, outcome, results, None)

    def _known(self, digest: str) -> bool:
        return self.db.execute("SELECT 1 FROM mail_taken WHERE digest = ?", [digest]).fetchone() is not None

    def _copy_taken(self, letter: Letter) -> bool:
        # The same mail by another route: same From and body, same Message-ID (or none at all).
        row = self.db.execute("SELECT 1 FROM mail_taken WHERE content_hash = ? AND coalesce(message_id, '') = ?",
                              [letter.content_hash, letter.message_id or ""]).fetchone()
        return row is not None

    def _turn_file(self, item: Read, number: int, found) -> dict:
        source = f"mail:{item.digest}:{number}"
        stored = self.db.execute("SELECT id FROM submissions WHERE source = ?", [source]).fetchone()
        if stored:  # stored before a crash cut this message short: never store it twice
            return from_submission(self.db, stored[0], found)
        envelope = read_envelope(found.text)
        if is_request(envelope):
            return answer_request(self.db, self.secrets, envelope, item.letter, found.where)
        refusal = self._wrong_sender(envelope, item.letter)
        if refusal:
            return refused(found.where, refusal)
        receipt = turnfiles.submit(self.db, self.home, self.clock, found.text.encode("utf-8"), "mail", source,
                                   sender=item.letter.sender, secret_check=self.secrets)
        return from_receipt(self.db, receipt, found)

    def _wrong_sender(self, envelope: Envelope, letter: Letter) -> str | None:
        """A game may take turn files only from the seat's registered address (gm game require-from)."""
        row = self.db.execute("SELECT id, options FROM games WHERE name = ?", [envelope.game or ""]).fetchone()
        if row is None or not json.loads(row[1]).get("require-from"):
            return None
        seat = self.db.execute("SELECT a.email FROM seats s JOIN accounts a ON a.id = s.account_id "
                               "WHERE s.game_id = ? AND s.code = ?", [row[0], (envelope.player or "").upper()]).fetchone()
        if seat is None or (letter.sender or "") == seat[0].lower():
            return None
        return (f"game '{envelope.game}' takes turn files for {envelope.player.upper()} only from the player's "
                "registered address; send them from that address")

    def _record(self, item: Read, outcome: str, results: list, answer: str | None) -> Taken:
        """The answer and the record of the message, in one transaction, so a message is answered once."""
        letter = item.letter
        with transaction(self.db):
            if answer is None:
                answer = self.answerer.answer(letter, results)
            self.db.execute(
                "INSERT INTO mail_taken (digest, message_id, content_hash, channel, source, sender, subject, "
                "received, outcome, results, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [item.digest, letter.message_id, letter.content_hash, self.channel, item.incoming.where,
                 letter.sender, letter.subject, iso(self.clock.now()), outcome, json.dumps(results, sort_keys=True),
                 answer])
        return Taken(item.incoming.where, outcome, tuple(results), answer)

    def _archive(self, data: bytes, sync: bool) -> None:
        if sync:
            archive_bytes(self.home.archive, data)
            return
        # As archive_bytes, without its fsync: take_all forces the whole batch to disk at once.
        target = archived_path(self.home.archive, hashlib.sha256(data).hexdigest())
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(temporary, target)

    @contextmanager
    def _group_commit(self):
        before = self.db.execute("PRAGMA synchronous").fetchone()[0]
        self.db.execute("PRAGMA synchronous = NORMAL")
        try:
            yield
        finally:
            self._force_log_to_disk()
            self.db.execute(f"PRAGMA synchronous = {int(before)}")

    def _force_log_to_disk(self) -> None:
        """fsync the write-ahead log: every commit so far is then durable."""
        try:
            descriptor = os.open(f"{self.home.database}-wal", os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _batches(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def _head(raw: bytes) -> bytes:
    """The header block alone, for a mail too large to read whole."""
    for end in (b"\r\n\r\n", b"\n\n"):
        if end in raw:
            return raw.split(end, 1)[0] + end
    return raw[:65536]


def set_require_from(db: sqlite_utils.Database, clock: Clock, game_name: str, required: str) -> bool:
    """Store the game option "require-from" (yes/no) in games.options."""
    answer = required.strip().lower()
    if answer not in ("yes", "no", "on", "off"):
        raise GMError(f"say yes or no, not '{required}'.")
    game = records.game_by_name(db, game_name)
    on = answer in ("yes", "on")
    options = dict(game.options, **{"require-from": on})
    with transaction(db):
        db.execute("UPDATE games SET options = ? WHERE id = ?", [json.dumps(options, sort_keys=True), game.id])
        records.audit(db, iso(clock.now()), game.id, "setting", {"name": "require-from", "value": on})
    return on
