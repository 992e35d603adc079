"""The raw-submission archive: every byte a player sent, stored by its SHA-256; or a note of it.

A note (<sha256>.note beside where the bytes would be, a small JSON) stands for bytes the
archive does not keep whole: refused for their size before they were archived, or removed by
`gm archive prune` because nothing kept needs them (gm/services/archive_keeping.py). It says
what they were: their SHA-256, size, channel, sender and first bytes (NOTE_HEAD of them).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from contextlib import suppress
from itertools import count
from pathlib import Path

_NUMBERS = count()

# How many of the first bytes a note keeps: a mail's first headers, a turn file's envelope.
NOTE_HEAD = 512
NOTE_SUFFIX = ".note"
TOO_LARGE = "refused for size"
# Why a note stands for bytes gm person forget removed: none of them is kept, not even the head.
FORGOTTEN = "forgotten"
# The lock file (in the home's locks/) gm archive prune and gm backup hold, so that neither sees
# the archive half-way through the other.
ARCHIVE_LOCK = "archive.lock"


def archive_bytes(
    root: Path, data: bytes, sync: bool = True, folders: set[str] | None = None, unseen: bool = False
) -> str:
    """Store data (once) and return its SHA-256: written under a name of its own, then renamed,
    so the archive never holds half a file.

    sync: force the bytes and the folder holding the new name to disk, so both survive a power
    cut. Mail intake passes False and forces a whole batch at once (os.sync).
    folders: archive folders known to exist, filled in as they are made (saves a call per file).
    unseen: the caller knows these bytes were not taken before (mail intake's raw mail, whose
    digest it has looked up), so they are written without looking for the file first; should a
    file of that digest be there all the same (a run cut short), the rename puts the same bytes
    in its place, as fresh as the utime below would leave it. One lookup fewer a mail: on a busy
    disk, a lookup of a name not there costs the kernel as much as a third of making the file.
    """
    digest = hashlib.sha256(data).hexdigest()
    # archived_path's place, named as text: making and joining Paths cost more than the hash
    # (about 12 µs a file, and intake archives every mail and every turn file).
    folder = os.path.join(root, digest[:2])
    target = os.path.join(folder, digest)
    _folder_of(folder, folders)
    if not unseen and os.path.exists(target):
        try:
            os.utime(target)  # in use again: gm archive prune leaves a file younger than an hour alone
            return digest
        except FileNotFoundError:  # pruned this very moment: written anew below
            pass
    _write_new(target, data, sync)
    return digest


def note_bytes(
    root: Path,
    data: bytes,
    *,
    channel: str,
    sender: str | None,
    reason: str,
    folders: set[str] | None = None,
    size: int | None = None,
    digest: str | None = None,
) -> str:
    """Keep a note of `data` instead of the bytes (see the module's docstring); returns their
    SHA-256. reason: why they are not kept ("refused for size", "pruned"). size and digest: of
    the whole when data is only its beginning (a mail left on the IMAP server: no digest, the
    head's SHA-256 names it; a pipe's mail read through, hashed on the way)."""
    digest = digest or hashlib.sha256(data).hexdigest()
    note = {
        "sha256": digest,
        "size": len(data) if size is None else size,
        "channel": channel,
        "sender": sender,
        "reason": reason,
        "head": data[:NOTE_HEAD].decode("utf-8", errors="backslashreplace"),
    }
    target = noted_path(root, digest)
    _folder_of(str(target.parent), folders)
    if not target.exists():
        _write_new(target, json.dumps(note, ensure_ascii=False, sort_keys=True).encode(), sync=True)
    return digest


def erase(root: Path, digest: str) -> bool:
    """Remove the archived bytes of a person forgotten, leaving a note that keeps only their
    SHA-256, size and why (so gm doctor knows the file is gone on purpose); a note of them
    already there (refused for size, pruned) loses its head too. False when there was neither."""
    path, target = archived_path(root, digest), noted_path(root, digest)
    if path.is_file():
        size = path.stat().st_size
    elif target.is_file():
        kept = json.loads(target.read_text(encoding="utf-8"))
        if kept.get("reason") == FORGOTTEN:
            return False
        size = int(kept.get("size", 0))
    else:
        return False
    note = {"sha256": digest, "size": size, "channel": None, "sender": None, "reason": FORGOTTEN, "head": ""}
    with suppress(FileNotFoundError):
        target.unlink()
    _write_new(target, json.dumps(note, sort_keys=True).encode(), sync=True)
    with suppress(FileNotFoundError):
        path.unlink()
    sync_folder(path.parent)
    return True


def noted_path(root: Path, digest: str) -> Path:
    return root / digest[:2] / f"{digest}{NOTE_SUFFIX}"


def _folder_of(folder: str, folders: set[str] | None) -> None:
    """Make `folder` unless `folders` (filled in as they are made) knows it."""
    if folders is None or folder not in folders:
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)
        if folders is not None:
            folders.add(folder)


def _write_new(target: str | Path, data: bytes, sync: bool) -> None:
    """Write `data` under a name of its own, then rename it to `target`: nobody ever sees half a
    file. sync: force the bytes and the folder holding the new name to disk."""
    folder = os.path.dirname(target)
    temporary = f"{folder}/.incoming-{os.getpid()}-{next(_NUMBERS)}"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # left by a crashed process of the same id
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".incoming-")
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            if sync:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    if sync:
        sync_folder(folder)


def sync_folder(folder: str | Path) -> None:
    """fsync a folder, so the names made or renamed in it are on disk (a no-op where folders
    cannot be opened, as on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def archived_path(root: Path, digest: str) -> Path:
    return root / digest[:2] / digest
