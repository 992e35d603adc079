"""The raw-submission archive: every byte a player sent, stored by its SHA-256, never deleted."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def archive_bytes(root: Path, data: bytes) -> str:
    """Store data (once) and return its SHA-256; written to a temp file, synced, then renamed."""
    digest = hashlib.sha256(data).hexdigest()
    target = root / digest[:2] / digest
    if target.exists():
        return digest
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
    return digest


def archived_path(root: Path, digest: str) -> Path:
    return root / digest[:2] / digest
