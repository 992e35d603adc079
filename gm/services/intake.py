"""Mail intake: each message archived, read, its turn files submitted, answered, recorded once."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.envelope import Envelope, read_envelope
from gm.core.signup import read_join
from gm.core.slip import is_slip
from gm.crash import crash_point
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import Letter
from gm.intake.readers import Readers, SizeLimits, read_message
from gm.intake.sources import Incoming, MailSource
from gm.intake.verified import VerifiedSecrets
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment
from gm.services import press, turnfiles
from gm.services.acknowledgements import Answerer, from_press_sent, from_receipt, from_submission, refused
from gm.services.requests import answer_request, is_request
from gm.services.signups import take_join
from gm.services.slips import answer_slip
from gm.store import mail_taken, records
from gm.store.database import atomic, data_version, relaxed_sync, transaction
from gm.store.games import set_options
from gm.store.submissions import stored_from

# How many messages a run reads, archives and stores before it forces them to disk and tells the
# source (see Intake.take_all).
TAKEN_PER_SYNC = 200
# SQLite's page cache for a run of intake, in KiB.
RUN_CACHE_KIB = 64 * 1024
# Outcomes, worst first: the message's outcome is the worst of its turn files'.
_WORST_FIRST = ("refused", "rejected", "request", "press", "accepted")
# A message without any turn file that a person wrote is a "question" for the GM's list.


@dataclass(frozen=True)
class Taken:
    """What intake did with one message: where it came from, the outcome (accepted, rejected,
    refused, request, question: a person's mail without a turn file, for the GM; ignored,
    duplicate: a copy by another route, already taken: these very bytes, nothing done), one
    result per turn file, and the answer (or why none)."""

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
    readers: int | None = None  # reader processes for a big source; None: one per CPU; 1: none

    def __post_init__(self):
        self.settings = mail_settings(self.home)
        self.answerer = Answerer(self.db, self.home, self.clock, self.settings, mail_environment(self.home.templates))
        self.rows = KeptRows(self.db)
        self._archived_folders: set[str] = set()

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
        workers = self.readers or os.cpu_count() or 1
        with self._group_commit(), Readers(self.home.archive, self._limits(), workers) as readers:
            try:
                yield from self._take_read(
                    source,
                    readers.read_ahead(
                        _batches(source.messages(), TAKEN_PER_SYNC),
                        self._unknown,
                        lambda batch, results: self._prove_secrets(results, workers),
                    ),
                )
            finally:
                self.secrets.close()

    def _take_read(self, source: MailSource, batches: Iterator[tuple]) -> Iterator[Taken]:
        for batch, results, on_disk in batches:
            read = [self._read(incoming, result) for incoming, result in zip(batch, results)]
            if not on_disk and any(item.letter is not None for item in read):
                os.sync()  # the archive files reach the disk before any record refers to them
            try:
                with transaction(self.db):  # one commit for the batch: each writes its pages once
                    taken = [self.decide(item) for item in read]
                    crash_point("intake:before-commit")
            except BaseException:
                self.rows.forget()  # it may hold what the rollback took back
                raise
            yield from taken
            self._force_log_to_disk()
            crash_point("intake:after-commit")
            for incoming in batch:
                source.taken(incoming)

    def read(self, incoming: Incoming, sync: bool) -> Read:
        """Archive the raw bytes (before anything else), read the mail, archive each turn file."""
        if not self._unknown([incoming])[0]:
            return self._read(incoming, None)
        return self._read(
            incoming,
            read_message(
                incoming.raw,
                incoming.envelope_sender,
                self.home.archive,
                self._limits(),
                self._archived_folders,
                sync,
            ),
        )

    def _limits(self) -> SizeLimits:
        return SizeLimits(self.settings.max_message_bytes, self.home.setting("submissions", "max_bytes", 1_000_000))

    def _unknown(self, batch: list[Incoming]) -> list[bool]:
        """Which messages of a batch need reading: those whose bytes were not taken before."""
        return [not self._known(hashlib.sha256(incoming.raw).hexdigest()) for incoming in batch]

    def _read(self, incoming: Incoming, result: tuple | None) -> Read:
        digest = hashlib.sha256(incoming.raw).hexdigest()
        if result is None:
            return Read(incoming, digest, None)
        letter, files, too_large, _ = result
        return Read(incoming, digest, letter, files, too_large)

    def _prove_secrets(self, results: list, threads: int) -> None:
        """Start checking the secrets of turn files read ahead, in background threads."""
        pairs = []
        for result in results:
            for claim in result[3] if result is not None else ():
                game = self.rows.game(claim[0]) if claim is not None else None
                seat = next((s for s in self.rows.seats(game) if s.code == claim[1]), None) if game else None
                if seat is not None:
                    pairs.append((claim[2], seat.secret_hash))
        self.secrets.prove(pairs, threads)

    def decide(self, item: Read) -> Taken:
        """Submit the turn files of a message read, answer it, and record it."""
        letter, where = item.letter, item.incoming.where
        self.rows.refresh()
        if letter is None or self._known(item.digest):  # the same bytes twice in one batch
            return Taken(where, "already taken", (), "none: taken before")
        if self._copy_taken(letter):
            return self._record(item, "duplicate", [], "none: a copy was taken before")
        if letter.automatic:
            return self._record(item, "ignored", [], f"none: sent by a program ({letter.automatic})")
        if item.too_large:
            results = [
                refused(
                    "mail",
                    f"the mail is too large ({len(item.incoming.raw):,} bytes; at most "
                    f"{self.settings.max_message_bytes:,}): send the turn file as plain text",
                )
            ]
        elif letter.unreadable:
            results = [refused("mail", letter.unreadable)]
        elif not item.files:  # a person wrote without orders: JOIN signs up, "Can I join?" is for the GM
            signup = self._signup(item)
            if signup is not None:
                return signup
            return self._record(item, "question", [], self.answerer.answer_question(letter))
        else:
            results = [self._turn_file(item, n, found) for n, found in enumerate(item.files, start=1)]
        outcome = next((o for o in _WORST_FIRST if any(r["verdict"] == o for r in results)), "accepted")
        return self._record(item, outcome, results, None)

    def _signup(self, item: Read) -> Taken | None:
        """A mail with a JOIN line (gm/core/signup.py) is a sign-up: listed, answered, recorded."""
        for text in item.letter.texts:
            join, problem = read_join(text.text)
            if join is not None or problem is not None:
                result = take_join(self.db, self.home, self.clock, item.letter, join, problem, f"mail:{item.digest}")
                outcome = "signup" if result["taken"] else "refused"
                return self._record(item, outcome, [dict(result, where=text.where)], None)
        return None

    def _known(self, digest: str) -> bool:
        return mail_taken.taken(self.db, digest)

    def _copy_taken(self, letter: Letter) -> bool:
        # The same mail by another route: same From and body, same Message-ID (or none at all).
        return (letter.message_id or "") in self.rows.copies(letter.content_hash)

    def _turn_file(self, item: Read, number: int, found) -> dict:
        source = f"mail:{item.digest}:{number}"
        stored = stored_from(self.db, source)
        envelope = read_envelope(found.text)
        sent = press.sent_before(self.db, source) if envelope.press else []
        if stored is not None:  # stored before a crash cut this message short: never store it twice
            return from_submission(self.db, stored, found, sent)
        if sent:  # its press went before a crash: never twice
            return from_press_sent(sent, found, envelope)
        if envelope.ok and not envelope.press and is_slip(list(envelope.lines)):
            return answer_slip(self.db, self.clock, self.secrets, envelope, found.where, source)
        if not envelope.press and is_request(envelope):
            return answer_request(self.db, self.secrets, envelope, item.letter, found.where)
        refusal = self._wrong_sender(envelope, item.letter)
        if refusal:
            return refused(found.where, refusal)
        try:
            receipt = turnfiles.submit(
                self.db,
                self.home,
                self.clock,
                found.text.encode("utf-8"),
                "mail",
                source,
                sender=item.letter.sender,
                secret_check=self.secrets,
                rows=self.rows,
                known=(found.text, envelope),
            )
        except GMError as exc:  # the game's own trouble (its scenario no longer loads): this file only
            return refused(found.where, f"gm could not check it: {exc}")
        return from_receipt(self.db, receipt, found)

    def _wrong_sender(self, envelope: Envelope, letter: Letter) -> str | None:
        """A game may take turn files only from the seat's registered address (gm game require-from)."""
        game = self.rows.game(envelope.game or "")
        if game is None or not game.options.get("require-from"):
            return None
        seat = next((s for s in self.rows.seats(game) if s.code == (envelope.player or "").upper()), None)
        if seat is None or (letter.sender or "") == seat.email.lower():
            return None
        return (
            f"game '{envelope.game}' takes turn files for {envelope.player.upper()} only from the player's "
            "registered address; send them from that address"
        )

    def _record(self, item: Read, outcome: str, results: list, answer: str | None) -> Taken:
        """The answer and the record of the message, in one transaction, so a message is answered once."""
        letter = item.letter
        with atomic(self.db):
            if answer is None:
                answer = self.answerer.answer(letter, results)
            mail_taken.record_taken(
                self.db,
                digest=item.digest,
                message_id=letter.message_id,
                content_hash=letter.content_hash,
                channel=self.channel,
                source=item.incoming.where,
                sender=letter.sender,
                subject=letter.subject,
                received=iso(self.clock.now()),
                outcome=outcome,
                results=results,
                answer=answer,
            )
            self.rows.copies(letter.content_hash).add(letter.message_id or "")
        return Taken(item.incoming.where, outcome, tuple(results), answer)

    @contextmanager
    def _group_commit(self):
        # A big mailbox makes a database larger than SQLite's default 2 MB page cache; every
        # lookup (taken before? a copy? the seat's earlier orders?) would read its pages again.
        with relaxed_sync(self.db, RUN_CACHE_KIB):
            try:
                yield
            finally:
                self._force_log_to_disk()

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


class KeptRows(turnfiles.GameRows):
    """The games, seats and states a run checks turn files against, and the mail it took, read
    once and kept until another connection commits anything (SQLite's data_version, asked once
    per message): a mailbox of turn files for a few games reads each game once, not once per turn
    file. Intake itself never writes games, seats or turns; what it records it adds here."""

    def __init__(self, db: sqlite_utils.Database):
        super().__init__(db)
        self._version = None
        self._kept: dict = {}

    def refresh(self) -> None:
        version = data_version(self.db)
        if version != self._version:
            self._kept.clear()
            self._version = version

    def forget(self) -> None:
        self._kept.clear()

    def _keep(self, key, read):
        if key not in self._kept:
            self._kept[key] = read()
        return self._kept[key]

    def game(self, name: str):
        return self._keep(("game", name), lambda: super(KeptRows, self).game(name))

    def seats(self, game):
        return self._keep(("seats", game.id), lambda: super(KeptRows, self).seats(game))

    def state(self, game):
        return self._keep(("state", game.id, game.turn), lambda: super(KeptRows, self).state(game))

    def copies(self, content_hash: str) -> set[str]:
        """The Message-IDs ("" for none) of the mail taken with this From and body; the caller adds
        what it records. A mailbox of the same orders sent again and again reads them once."""
        return self._keep(("copies", content_hash), lambda: mail_taken.message_ids_with(self.db, content_hash))


def _batches(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def set_require_from(db: sqlite_utils.Database, clock: Clock, game_name: str, required: str) -> bool:
    """Store the game option "require-from" (yes/no) in games.options."""
    answer = required.strip().lower()
    if answer not in ("yes", "no", "on", "off"):
        raise GMError(f"say yes or no, not '{required}'.")
    game = records.game_by_name(db, game_name)
    on = answer in ("yes", "on")
    options = dict(game.options, **{"require-from": on})
    with transaction(db):
        set_options(db, game.id, options)
        records.audit(db, iso(clock.now()), game.id, "setting", {"name": "require-from", "value": on})
    return on
