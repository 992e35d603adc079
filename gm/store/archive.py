"""The raw-submission archive: every byte a player sent, stored by its SHA-256, never deleted."""

from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import suppress
from itertools import count
from pathlib import Path

_NUMBERS = count()


def archive_bytes(root: Path, data: bytes, sync: bool = True, folders: set[str] | None = None) -> str:
    """Store data (once) and return its SHA-256: written under a name of its own, then renamed,
    so the archive never holds half a file.

    sync: force the bytes and the folder holding the new name to disk, so both survive a power
    cut. Mail intake passes False and forces a whole batch at once (os.sync).
    folders: archive folders known to exist, filled in as they are made (saves a call per file).
    """
    digest = hashlib.sha256(data).hexdigest()
    target = archived_path(root, digest)
    folder = str(target.parent)
    if folders is None or folder not in folders:
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)
        if folders is not None:
            folders.add(folder)
    if os.path.exists(target):
        return digest
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
        sync_folder(target.parent)
    return digest


def sync_folder(folder: Path) -> None:
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
