"""The raw-submission archive: every byte a player sent, stored by its SHA-256, never deleted."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def archive_bytes(root: Path, data: bytes) -> str:
    """Store data (once) and return its SHA-256; written to a temp file, synced, renamed, and the
    folder synced too, so the new name survives a power cut as well as the bytes."""
    digest = hashlib.sha256(data).hexdigest()
    target = root / digest[:2] / digest
    if target.exists():
        return digest
    if not target.parent.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
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
