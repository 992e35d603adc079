"""Files that a reader may read while they are written: a report's PDF, a seat's turn kit."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """Write a file a reader (the portal, the mailer) may read at any time: under a temporary
    name of this process's, then renamed into place, so that it never sees half of one. Not
    mkstemp: its 0600 mode would hide the file from a portal running as another user."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
