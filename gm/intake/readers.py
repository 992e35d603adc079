"""Reading mail in worker processes: archive the raw bytes, read the mail, find its turn files.

Reading a message depends on nothing but its bytes, so for a big mailbox a pool of reader
processes reads ahead while the one process that writes the database decides, in the source's
order. The workers never open the database: they get raw bytes and give back what they read.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TypedDict

from gm.core.envelope import Envelope, read_envelope
from gm.intake.finding import MOST_TURN_FILES, TurnFile, find_turn_files
from gm.intake.letter import Letter, read_letter
from gm.intake.sources import Incoming
from gm.store.archive import TOO_LARGE, archive_bytes, note_bytes

if TYPE_CHECKING:
    # Named for their types only: the pool comes from a spawn context (_start), and importing
    # multiprocessing.pool would cost every command that loads intake 2 ms of its start.
    from multiprocessing.pool import AsyncResult, Pool

# A batch a worker gave no answer for in this long: the worker is gone (out of memory, killed).
READ_TIMEOUT = 300

# How much lower the readers' scheduling priority is than the deciding process's (nice(2)).
READER_NICENESS = 5


@dataclass(frozen=True)
class SizeLimits:
    """The largest mail intake reads ([mail] max_message_bytes) and the largest turn file it
    takes ([submissions] max_bytes), in bytes. Past either, only a note is archived."""

    mail: int
    turn_file: int


# What a turn file claims: (game, seat, secret), for checking its secret early (see _claim).
Claim = tuple[str, str, str]
# What read_message gives back: (letter, turn files, too large, what each turn file claims, how
# many turn files the mail holds, each turn file's envelope: read here once, for the claim, and
# handed to the deciding process, which would otherwise read it again; the SHA-256 each turn file
# was archived under here, None for one too large to archive: submit() need not archive it again).
MessageRead = tuple[
    Letter, tuple[TurnFile, ...], bool, tuple[Claim | None, ...], int, tuple[Envelope, ...], tuple[str | None, ...]
]
# One message of a batch read, or None for one that needed no reading.
Results = list[MessageRead | None]
# What hears of each batch as soon as it is read: on_read(batch, results).
OnRead = Callable[[list[Incoming], Results], None]


def read_message(
    raw: bytes,
    envelope_sender: str | None,
    archive: Path,
    limits: SizeLimits,
    folders: set[str],
    sync: bool = False,
    size: int | None = None,
    digest: str | None = None,
    unseen: bool = False,
) -> MessageRead:
    """Archive the raw bytes first, read the mail, archive each turn file: (letter, turn files,
    too large, what each turn file claims: see _claim, how many turn files the mail holds, each
    turn file's envelope, the SHA-256 each turn file is archived under or None). Only
    the first MOST_TURN_FILES are kept; the rest are left in the raw mail, unread. sync: force
    each archive file to disk (default: no, the caller forces a whole batch at once). A mail too
    large to read is not archived whole, only a note of it (gm/store/archive.py), nor is a turn
    file too large to take. size, digest: a message too large, of which the source gave only the
    beginning (Incoming.size, Incoming.digest): refused for its size, and noted with them.
    unseen: the caller looked the raw bytes' digest up and found it not taken (Intake._unknown):
    they are archived without looking for their file first (archive_bytes)."""
    too_large = size is not None or len(raw) > limits.mail
    letter = read_letter(_head(raw) if too_large else raw, envelope_sender)
    if too_large:
        note_bytes(
            archive,
            raw,
            channel="mail",
            sender=letter.sender,
            reason=TOO_LARGE,
            folders=folders,
            size=size,
            digest=digest,
        )
    else:
        archive_bytes(archive, raw, sync, folders, unseen)
    found = [] if too_large or letter.automatic else find_turn_files(letter.texts)
    files = tuple(found[:MOST_TURN_FILES])
    # Archived now, before anything reads them, and forced to disk with the batch: submit() is
    # told their digests and neither archives nor forces them again. A file larger than
    # limits.turn_file is refused, and submit() keeps its note (None here).
    archived = tuple(_archived(turn_file, archive, limits, sync, folders) for turn_file in files)
    envelopes = tuple(read_envelope(turn_file.text) for turn_file in files)
    claims = tuple(_claim(envelope) for envelope in envelopes)
    return letter, files, too_large, claims, len(found), envelopes, archived


def _archived(turn_file: TurnFile, archive: Path, limits: SizeLimits, sync: bool, folders: set[str]) -> str | None:
    """Archive a turn file's UTF-8 bytes (as submit() stores them); their SHA-256, or None for
    a file too large to take."""
    data = turn_file.text.encode("utf-8")
    return archive_bytes(archive, data, sync, folders) if len(data) <= limits.turn_file else None


def _claim(envelope: Envelope) -> Claim | None:
    """(game, seat, secret) a turn file's envelope claims, for checking its secret early; None
    without a complete envelope (it is refused before any secret is checked)."""
    if not envelope.ok:
        return None
    assert envelope.game is not None and envelope.player is not None  # an envelope without problems has both
    return envelope.game, envelope.player, envelope.password or ""


def _head(raw: bytes) -> bytes:
    """The header block alone, for a mail too large to read whole (no copy of the rest made)."""
    for end in (b"\r\n\r\n", b"\n\n"):
        found = raw.find(end)
        if found >= 0:
            return raw[: found + len(end)]
    return raw[:65536]


class Readers:
    """Batches of messages read in order: by a pool of worker processes, or here.

    read_ahead(batches, wanted, on_read) yields (batch, results, on disk) in the order of
    `batches`, each result (see read_message), or None for a message that
    `wanted` says needs no reading (taken before); on disk: a worker forced the batch's archive
    files to disk already (else the caller must). Up to WINDOW batches are read ahead of the one
    yielded; on_read(batch, results) hears of each as soon as it is read, in this process's main
    thread (intake starts checking the secrets it will need).

    The first batch is read here, and the pool starts only when a second one comes, so a pipe's
    one message or a fetch of a few never pays for it. Workers that do not start (a __main__ that
    cannot be imported again, say) are given up after STARTUP_TIMEOUT: everything is read here
    then. Use as a context manager: leaving it stops the workers.
    """

    WINDOW = 8
    STARTUP_TIMEOUT = 60

    def __init__(self, archive: Path, limits: SizeLimits, workers: int):
        self.archive, self.limits, self.workers = archive, limits, workers
        self.folders: set[str] = set()
        self.pool: Pool | None = None
        self._ready: AsyncResult[int] | None = None
        self.batches_read = {"here": 0, "by workers": 0}

    def __enter__(self) -> Readers:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def read_here(self, batch: list[Incoming], wanted: list[bool]) -> Results:
        return [
            read_message(
                i.raw, i.envelope_sender, self.archive, self.limits, self.folders, False, i.size, i.digest, True
            )
            if want  # its bytes were not taken before (unseen)
            else None
            for i, want in zip(batch, wanted)
        ]

    def read_ahead(
        self,
        batches: Iterator[list[Incoming]],
        wanted: Callable[[list[Incoming]], list[bool]],
        on_read: OnRead = lambda batch, results: None,
    ) -> Iterator[tuple[list[Incoming], Results, bool]]:
        ahead: deque[_Ahead] = deque()
        for number, batch in enumerate(batches):
            if number == 1 and self.workers > 1:
                self._start()
            ahead.append(self._dispatch(batch, wanted(batch), on_read))
            self._announce(ahead, on_read)
            while len(ahead) >= self.WINDOW:
                yield self._collect(ahead.popleft(), on_read)
        while ahead:
            yield self._collect(ahead.popleft(), on_read)

    def _dispatch(self, batch: list[Incoming], want: list[bool], on_read: OnRead) -> _Ahead:
        if self.pool is None or not any(want):
            return _Ahead(batch, want, self._here(batch, want, on_read), None)
        payload = [(i.raw, i.envelope_sender, i.size, i.digest) if w else None for i, w in zip(batch, want)]
        return _Ahead(batch, want, None, self.pool.apply_async(_read_batch, (payload,)))

    def _here(self, batch: list[Incoming], want: list[bool], on_read: OnRead) -> Results:
        results = self.read_here(batch, want)
        self.batches_read["here"] += 1
        on_read(batch, results)
        return results

    def _announce(self, ahead: deque[_Ahead], on_read: OnRead) -> None:
        """Tell on_read of every batch the workers have finished meanwhile."""
        for entry in ahead:
            if entry.results is None and self.pool is not None and entry.pending is not None and entry.pending.ready():
                entry.results = self._result(entry.pending)
                self.batches_read["by workers"] += 1
                on_read(entry.batch, entry.results)

    def _collect(self, entry: _Ahead, on_read: OnRead) -> tuple[list[Incoming], Results, bool]:
        batch, want, results, pending = entry.batch, entry.want, entry.results, entry.pending
        if results is not None:
            return batch, results, pending is not None
        ready = self._ready
        if self.pool is not None and ready is not None and not ready.ready():
            ready.wait(self.STARTUP_TIMEOUT)
            if not ready.ready():
                self._stop()  # the workers never started: read here
        if self.pool is None or pending is None:
            return batch, self._here(batch, want, on_read), False
        results = self._result(pending)
        self.batches_read["by workers"] += 1
        on_read(batch, results)
        return batch, results, True

    def _result(self, pending: AsyncResult[Results]) -> Results:
        try:
            return pending.get(timeout=READ_TIMEOUT)
        except multiprocessing.TimeoutError:
            raise RuntimeError(
                f"a mail reader gave no answer in {READ_TIMEOUT} s; it probably died "
                "(out of memory?). Nothing of that batch was stored; run again."
            ) from None

    def _start(self) -> None:
        # spawn, not fork: this process has the database open (unsafe to fork with SQLite), and
        # not the forkserver, whose preloaded modules the report renderer sets for its own pool.
        context = multiprocessing.get_context("spawn")
        with _spawned_without_main():
            self.pool = context.Pool(self.workers, initializer=_start_reader, initargs=(str(self.archive), self.limits))
        self._ready = self.pool.apply_async(os.getpid)

    def _stop(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


@contextmanager
def _spawned_without_main() -> Iterator[None]:
    """Processes spawned meanwhile do not import the caller's __main__ again.

    A spawned child runs the parent's __main__ (the `gm` script, a bench, a server) before it
    does anything, so that what is defined there can be unpickled. A reader is handed only
    gm.intake.readers' own functions and bytes, so that import is start-up time for nothing:
    0.40 ms a message of bench_intake's 2,000 for two readers. With a __main__ that names no
    module and no file, multiprocessing leaves the child's alone (as for an interactive
    session). The Pool starts its workers within this block; one it starts later to replace a
    worker that died imports the real __main__ again, slower and as correct.
    """
    main = sys.modules["__main__"]
    sys.modules["__main__"] = ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


@dataclass
class _Ahead:
    """A batch on its way: its messages, which of them need reading, what was read (None until
    it is), and the answer a worker will give (None for a batch read here)."""

    batch: list[Incoming]
    want: list[bool]
    results: Results | None
    pending: AsyncResult[Results] | None


class _ReaderSetup(TypedDict, total=False):
    """What a reader process was started with (_start_reader)."""

    archive: Path
    limits: SizeLimits
    folders: set[str]


_reader: _ReaderSetup = {}


def _start_reader(archive: str, limits: SizeLimits) -> None:
    # Readers work ahead of the one process that decides and writes, which all of them wait for:
    # on a busy machine that one keeps its CPU.
    with suppress(OSError):
        os.nice(READER_NICENESS)
    _reader.update({"archive": Path(archive), "limits": limits, "folders": set()})


def _read_batch(payload: list[tuple[bytes, str | None, int | None, str | None] | None]) -> Results:
    read: Results = []
    for item in payload:
        if item is None:
            read.append(None)
        else:
            raw, sender, size, digest = item
            read.append(
                read_message(  # a message wanted: its bytes were not taken before (read_ahead)
                    raw, sender, _reader["archive"], _reader["limits"], _reader["folders"], False, size, digest, True
                )
            )
    if any(item is not None for item in payload):
        os.sync()  # the batch's archive files are on disk before the deciding process hears of them
    return read
