"""Mail intake: each message archived, read, its turn files submitted, answered, recorded once.

Each message is decided in a savepoint of its own: when a game's ruleset raises while one is
read (a RulesetFault), what that message did is rolled back and it is kept (outcome 'fault'),
answered that it could not be processed, and read again, as it came, at the start of every
later run of intake (gm inbox import, fetch, receive, and gm run-due's fetch) until it goes
through. Every other message of the batch is stored and answered as usual.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import Any, TypeVar

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.envelope import Envelope
from gm.core.person_lines import read_person_line
from gm.core.signup import read_confirm, read_join, read_list
from gm.core.slip import is_slip
from gm.crash import crash_point
from gm.errors import GMError
from gm.home import Home
from gm.intake.finding import MOST_TURN_FILES, TurnFile
from gm.intake.letter import Letter
from gm.intake.readers import Readers, SizeLimits, read_message
from gm.intake.sources import Incoming, MailSource
from gm.intake.verified import VerifiedSecrets
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment
from gm.rulesets import RulesetFault
from gm.services import open_games, press, turnfiles
from gm.services.acknowledgements import (
    Answerer,
    Result,
    Unread,
    from_press_sent,
    from_receipt,
    from_submission,
    refused,
)
from gm.services.confirming import confirm
from gm.services.guesses import sign_in_limiter
from gm.services.kept_rows import KeptRows
from gm.services.mail_guesses import Claim, MailGuesses, from_elsewhere
from gm.services.requests import answer_request, ask_by_line, is_request
from gm.services.signups import take_join
from gm.services.slips import answer_slip
from gm.store import mail_taken, records
from gm.store.archive import archived_path
from gm.store.database import atomic, relaxed_sync, transaction
from gm.store.games import set_options
from gm.store.submissions import stored_from, stored_from_any

# How many messages a run reads, archives and stores before it forces them to disk and tells the
# source (see Intake.take_all).
TAKEN_PER_SYNC = 200
# SQLite's page cache for a run of intake, in KiB.
RUN_CACHE_KIB = 64 * 1024
# A message kept because a game's ruleset raised while it was read: answered, read again later.
FAULT = "fault"
# Outcomes, worst first: the message's outcome is the worst of its turn files'.
_WORST_FIRST = ("refused", "rejected", "request", "press", "accepted")
# A message without any turn file that a person wrote is a "question" for the GM's list.

# What gm.intake.readers.read_message gives for one message: (letter, turn files, too large,
# claims, how many turn files it holds, their envelopes, the digests they were archived under);
# None in its place for bytes taken before, not read again.
MessageRead = tuple[Any, ...]
_Item = TypeVar("_Item")  # what _batches groups


@dataclass(frozen=True)
class Taken:
    """What intake did with one message: where it came from, the outcome (accepted, rejected,
    refused, request, question: a person's mail without a turn file, for the GM; ignored,
    duplicate: a copy by another route, already taken: these very bytes, nothing done; fault:
    kept, a ruleset raised while it was read), one result per turn file, and the answer (or why
    none)."""

    where: str
    outcome: str
    results: tuple[Result, ...]
    answer: str


@dataclass(frozen=True)
class Read:
    """A message archived and read, not yet decided: its digest, the letter and its turn files
    (letter None: these bytes were taken before)."""

    incoming: Incoming
    digest: str
    letter: Letter | None
    files: tuple[TurnFile, ...] = ()
    too_large: bool = False
    claims: tuple[Claim | None, ...] = ()  # what each turn file claims (game, seat, secret): gm.intake.readers._claim
    found: int = 0  # how many turn files the mail holds; only the first MOST_TURN_FILES are in files
    envelopes: tuple[Envelope, ...] = ()  # each turn file's envelope, read once by the reader
    archived: tuple[str | None, ...] = ()  # the SHA-256 the reader archived each turn file under; None: too large


@dataclass
class _Batch:
    """What a batch decided in one write transaction (Intake._take_read) asks of the database
    once, not once a message: no other connection can write while the transaction holds it, so
    what is read at its start stays true but for what the batch itself writes, which it adds."""

    taken: set[str]  # the digests of the batch's mail taken before it, and of those it records
    stored: dict[str, int]  # submissions stored before it from a turn file of its mail, by source
    max_bytes: int  # [submissions] max_bytes


@dataclass
class Intake:
    """One run of intake over any number of messages; it reuses settings, templates and the
    secrets it verified, so the cost per message is reading it, not setting up."""

    db: sqlite_utils.Database
    home: Home
    clock: Clock
    channel: str
    secrets: VerifiedSecrets = field(default_factory=VerifiedSecrets)
    readers: int | None = None  # reader processes for a big source; None: [mail] readers; 1: none

    def __post_init__(self) -> None:
        self.settings = mail_settings(self.home)
        self.answerer = Answerer(self.db, self.home, self.clock, self.settings, mail_environment(self.home.templates))
        self.rows = KeptRows(self.db)
        self.guesses = MailGuesses(sign_in_limiter(self.home), self.secrets, self.rows)
        self._archived_folders: set[str] = set()
        self._batch: _Batch | None = None  # inside _take_read's transaction only

    def take(self, incoming: Incoming) -> Taken:
        """Take one message, each write forced to disk before the next (for a mail server's pipe)."""
        item = self.read(incoming, sync=True)
        self._settle([item])
        return self.decide(item)

    def retry_kept(self) -> Iterator[Taken]:
        """Read again, as it came, each message kept because a ruleset raised while it was read;
        one that goes through now is recorded and answered as any other, one that fails again
        stays kept (and is not answered again). Intake's commands call this before new mail."""
        for digest, where, results in mail_taken.kept(self.db):
            path = archived_path(self.home.archive, digest)
            if not path.is_file():
                continue  # gm doctor's archive check names it, and says where to find it again
            raw = path.read_bytes()
            incoming = Incoming(raw, where, None)
            item = self._read(
                incoming,
                read_message(raw, None, self.home.archive, self._limits(), self._archived_folders, True),
            )
            sent_for: dict[str, int] = next((r.get("turns", {}) for r in results if r.get("verdict") == FAULT), {})
            self._settle([item])  # scrypt before the write transaction, as for new mail
            try:
                with atomic(self.db):
                    mail_taken.forget_kept(self.db, digest)
                    self.rows.forget()
                    taken = self._decide(item, sent_for)
            except RulesetFault:
                self.rows.forget()  # it may hold what the rollback took back
                continue
            yield taken

    def take_all(self, source: MailSource) -> Iterator[Taken]:
        """Take every message of a source; the source hears a message is taken only once it is on disk.

        Group commit, TAKEN_PER_SYNC messages at a time: archive and read them all, force the
        archive to disk once, decide each (their commits not forced one by one), force the
        database's log to disk once, then tell the source (an IMAP source flags them). Two fsyncs
        per message would cost more than reading it. A crash anywhere loses nothing and doubles
        nothing: raw bytes are on disk before anything refers to them; what was not forced was not
        flagged, is fetched again, and is known by its digest or by its stored submissions.
        """
        workers = self.readers or self.settings.readers or os.cpu_count() or 1
        yield from self.retry_kept()
        with self._group_commit(), Readers(self.home.archive, self._limits(), workers) as readers:
            try:
                yield from self._take_read(
                    source,
                    readers.read_ahead(
                        _batches(source.messages(), TAKEN_PER_SYNC),
                        self._unknown,
                        lambda batch, results: self.guesses.prove_ahead(
                            [(r[0].sender, r[3]) for r in results if r is not None], workers
                        ),
                    ),
                )
            finally:
                self.secrets.close()

    def _take_read(
        self, source: MailSource, batches: Iterator[tuple[list[Incoming], list[MessageRead | None], bool]]
    ) -> Iterator[Taken]:
        for batch, results, on_disk in batches:
            read = [self._read(incoming, result) for incoming, result in zip(batch, results)]
            crash_point("intake:before-sync")
            if not on_disk and any(item.letter is not None for item in read):
                os.sync()  # the archive files reach the disk before any record refers to them
            self._settle(read)  # scrypt before the write transaction, never inside it
            try:
                with transaction(self.db):  # one commit for the batch: each writes its pages once
                    self._batch = self._start_batch(read)
                    taken = [self.decide(item) for item in read]
                    crash_point("intake:before-commit")
            except BaseException:
                self.rows.forget()  # it may hold what the rollback took back
                raise
            finally:
                self._batch = None
            yield from taken
            self._force_log_to_disk()
            crash_point("intake:after-commit")
            for incoming in batch:
                source.taken(incoming)

    def _start_batch(self, read: list[Read]) -> _Batch:
        """At the start of a batch's write transaction: the rows kept checked once (nobody else
        commits until it ends), which of its mail was taken before, which of its turn files were
        stored before (a run cut short), in one statement each."""
        self.rows.refresh()
        sources = [f"mail:{item.digest}:{n}" for item in read for n in range(1, len(item.files) + 1)]
        return _Batch(
            mail_taken.taken_of(self.db, [item.digest for item in read]),
            stored_from_any(self.db, sources),
            self.home.setting("submissions", "max_bytes", 1_000_000),
        )

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
                incoming.size,
                incoming.digest,
                unseen=True,  # not taken before: _unknown
            ),
        )

    def _limits(self) -> SizeLimits:
        return SizeLimits(self.settings.max_message_bytes, self.home.setting("submissions", "max_bytes", 1_000_000))

    def _unknown(self, batch: list[Incoming]) -> list[bool]:
        """Which messages of a batch need reading: those whose bytes were not taken before."""
        taken = mail_taken.taken_of(self.db, [incoming.sha256 for incoming in batch])
        return [incoming.sha256 not in taken for incoming in batch]

    def _read(self, incoming: Incoming, result: MessageRead | None) -> Read:
        digest = incoming.sha256
        if result is None:
            return Read(incoming, digest, None)
        letter, files, too_large, claims, found, envelopes, archived = result
        return Read(incoming, digest, letter, files, too_large, claims, found, envelopes, archived)

    def _settle(self, read: list[Read]) -> None:
        """Check the secrets of these messages' turn files, outside any write transaction."""
        self.guesses.settle(
            [(item.digest, item.letter.sender, item.claims) for item in read if item.letter is not None]
        )

    def decide(self, item: Read) -> Taken:
        """Submit the turn files of a message read, answer it, and record it, in a savepoint of
        its own: if a ruleset raises, the message is kept instead (_keep)."""
        try:
            with atomic(self.db):
                return self._decide(item)
        except RulesetFault as fault:
            self.rows.forget()  # it may hold what the rollback took back
            return self._keep(item, fault)

    def _decide(self, item: Read, sent_for: dict[str, int] | None = None) -> Taken:
        """decide's work. sent_for: a kept message read again: the turn each game was collecting
        when it came, which its turn files without a TURN line were meant for."""
        letter, where = item.letter, item.incoming.where
        if self._batch is None:  # a batch's rows are checked once, at its start
            self.rows.refresh()
        if letter is None or self._known(item.digest):  # the same bytes twice in one batch
            return Taken(where, "already taken", (), "none: taken before")
        if self._copy_taken(letter):
            return self._record(item, letter, "duplicate", [], "none: a copy was taken before")
        if letter.automatic:
            return self._record(item, letter, "ignored", [], f"none: sent by a program ({letter.automatic})")
        if item.too_large:
            results = [
                refused(
                    "mail",
                    f"the mail is too large ({item.incoming.whole_size:,} bytes; at most "
                    f"{self.settings.max_message_bytes:,}): send the turn file as plain text",
                )
            ]
        elif letter.unreadable:
            results = [refused("mail", letter.unreadable)]
        elif not item.files:  # a person wrote without orders: JOIN signs up, "Can I join?" is for the GM
            signup = self._signup(item, letter)
            if signup is not None:
                return signup
            return self._record(item, letter, "question", [], self.answerer.answer_question(letter))
        else:
            results = [
                self._turn_file(item, letter, n, found, sent_for or {}) for n, found in enumerate(item.files, start=1)
            ]
            if item.found > len(item.files):  # recorded for the GM; the answer says it once, on top
                results.append(dict(refused("mail", _too_many(item)), quiet=True))
        outcome = next((o for o in _WORST_FIRST if any(r["verdict"] == o for r in results)), "accepted")
        return self._record(item, letter, outcome, results, None)

    def _signup(self, item: Read, letter: Letter) -> Taken | None:
        """A mail with a JOIN line (gm/core/signup.py) is a sign-up: listed unconfirmed, its code
        mailed to the From address, recorded; one with a CONFIRM line confirms it (or a request
        waiting for a code); one with RESIGN GAME, FORGET ME or EXPORT (gm/core/person_lines.py)
        asks for a code at the From address; one with a LIST line asks which games take players.
        Each is answered at the From address alone, never at a Reply-To."""
        for text in letter.texts:
            join, problem = read_join(text.text)
            if join is not None or problem is not None:
                result, confirmation = take_join(
                    self.db, self.home, self.clock, letter, join, problem, f"mail:{item.digest}"
                )
                # Its own mail, queued in the transaction that records the message: asked for once.
                ask = partial(self.answerer.answer_confirmation, letter, confirmation) if confirmation else None
                return self._record(
                    item, letter, _signed(result), [dict(result, where=text.where)], ask, to_sender=True
                )
            code, problem = read_confirm(text.text)
            if code is not None or problem is not None:
                result = confirm(self.db, self.home, self.clock, letter, code, problem)
                return self._record(
                    item, letter, _signed(result), [dict(result, where=text.where)], None, to_sender=True
                )
            line, problem = read_person_line(text.text)
            if line is not None or problem is not None:
                result = ask_by_line(self.db, self.home, self.clock, letter.sender or "", line, problem)
                outcome = "request" if result["asked"] else "refused"
                return self._record(item, letter, outcome, [dict(result, where=text.where)], None, to_sender=True)
            asked, ruleset = read_list(text.text)
            if asked:  # which games take players: answered at the From address, as a sign-up is
                result = open_games.list_answer(self.db, self.home, ruleset)
                outcome = "list" if result["verdict"] == "list" else "refused"
                return self._record(item, letter, outcome, [dict(result, where=text.where)], None, to_sender=True)
        return None

    def _known(self, digest: str) -> bool:
        if self._batch is not None:
            return digest in self._batch.taken
        return mail_taken.taken(self.db, digest)

    def _stored_from(self, source: str) -> int | None:
        if self._batch is not None:
            return self._batch.stored.get(source)
        return stored_from(self.db, source)

    def _copy_taken(self, letter: Letter) -> bool:
        # The same mail by another route: same From and body, same Message-ID (or none at all).
        return (letter.message_id or "") in self.rows.copies(letter.content_hash)

    def _keep(self, item: Read, fault: RulesetFault) -> Taken:
        """Keep a message a ruleset raised on: recorded with the fault for the GM and the turn
        each of its games was collecting, and answered that it could not be processed."""
        letter = item.letter
        assert letter is not None, "no ruleset reads a message taken before (_decide)"
        turns = self._collecting(item)
        result = {"where": "mail", "verdict": FAULT, "game": fault.game, "reason": str(fault), "turns": turns}
        with atomic(self.db):  # decide's savepoint was rolled back: the answer and the record, both or neither
            return self._record(
                item, letter, FAULT, [result], partial(self.answerer.answer_fault, letter, sorted(turns))
            )

    def _collecting(self, item: Read) -> dict[str, int]:
        """The turn each game the message's turn files name is collecting now."""
        games = (self.rows.game(envelope.game or "") for envelope in item.envelopes)
        return {game.name: game.turn for game in games if game is not None}

    def _turn_file(self, item: Read, letter: Letter, number: int, found: TurnFile, sent_for: dict[str, int]) -> Result:
        source = f"mail:{item.digest}:{number}"
        stored = self._stored_from(source)
        envelope = item.envelopes[number - 1]  # read by the reader (gm.intake.readers.read_message)
        if envelope.turn is None and envelope.game in sent_for:  # kept, read again: for the turn it came in
            envelope = dataclasses.replace(envelope, turn=sent_for[envelope.game])
        sent = press.sent_before(self.db, source) if envelope.press else []
        if stored is not None:  # stored before a crash cut this message short: never store it twice
            return from_submission(self.db, stored, found, sent)
        if sent:  # its press went before a crash: never twice
            return from_press_sent(sent, found, envelope)
        blocked = self.guesses.blocked(item.digest, number)
        if blocked:
            return refused(found.where, blocked)
        if envelope.ok and not envelope.press and is_slip(list(envelope.lines)):
            return answer_slip(self.db, self.clock, self.guesses, envelope, found.where, source, self._near(letter))
        if not envelope.press and is_request(envelope):
            return answer_request(
                self.db, self.home, self.clock, self.guesses, envelope, letter, found.where, self._near(letter)
            )
        refusal = self._wrong_sender(envelope, letter)
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
                sender=letter.sender,
                secret_check=self.guesses,
                rows=self.rows,
                known=(found.text, envelope),
                archived=item.archived[number - 1],
                max_bytes=self._batch.max_bytes if self._batch is not None else None,
                near=self._near(letter),
            )
        except RulesetFault:  # the message is kept (decide)
            raise
        except GMError as exc:  # the game's own trouble (its scenario no longer loads): this file only
            return refused(found.where, f"gm could not check it: {exc}")
        return from_receipt(self.db, receipt, found)

    def _near(self, letter: Letter) -> Callable[[], list[str]]:
        """The games a GAME line that names none may be corrected to in the answer: the sender's
        own, and only when the answer goes to the From address; a Reply-To elsewhere may be
        anyone's, and a stranger is never told which games exist (D-ALL-5)."""
        sender, answer_to = letter.sender, letter.answer_to
        if not sender or answer_to is None or answer_to.addr_spec.lower() != sender:
            return list
        return partial(records.game_names_of, self.db, sender)

    def _wrong_sender(self, envelope: Envelope, letter: Letter) -> str | None:
        """A game may take turn files only from the seat's registered address (gm game require-from)."""
        game = self.rows.game(envelope.game or "")
        player = (envelope.player or "").upper()
        seat = next((s for s in self.rows.seats(game) if s.code == player), None) if game else None
        if game is None or seat is None or not from_elsewhere(game, seat, letter.sender):
            return None
        return (
            f"game '{envelope.game}' takes turn files for {player} only from the player's "
            "registered address; send them from that address"
        )

    def _record(
        self,
        item: Read,
        letter: Letter,
        outcome: str,
        results: list[Result],
        answer: str | Callable[[], str] | None,
        to_sender: bool = False,
    ) -> Taken:
        """The answer (given, queued by a function given, else the acknowledgement of the results)
        and the record of the message, in the caller's transaction or savepoint (decide's, or
        _keep's), so a message is answered once (to_sender: at the From address, never a Reply-To).
        No savepoint of its own: whatever it raises rolls back the caller's, which holds it whole."""
        if callable(answer):
            answer = answer()
        elif answer is None:
            answer = self.answerer.answer(letter, results, to_sender, _unread(item))
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
        if self._batch is not None:
            self._batch.taken.add(item.digest)
        self.rows.copies(letter.content_hash).add(letter.message_id or "")
        return Taken(item.incoming.where, outcome, tuple(results), answer)

    @contextmanager
    def _group_commit(self) -> Iterator[None]:
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


def _signed(result: Result) -> str:
    if not result["taken"]:
        return "refused"
    return "request" if "request" in result else "signup"  # a CONFIRM of a request by mail, or of a sign-up


def _unread(item: Read) -> Unread | None:
    """For the answer: how many turn files the mail holds, how many gm read, how many it left."""
    if item.found <= len(item.files):
        return None
    return {"found": f"{item.found:,}", "most": MOST_TURN_FILES, "left": f"{item.found - len(item.files):,}"}


def _too_many(item: Read) -> str:
    return (
        f"this mail holds {item.found:,} turn files; gm reads at most {MOST_TURN_FILES} in one mail, "
        f"and left the other {item.found - len(item.files):,} unread: send them in another mail"
    )


def _batches(items: Iterable[_Item], size: int) -> Iterator[list[_Item]]:
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
