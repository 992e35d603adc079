"""Files that a reader may read while they are written: a report's PDF, a seat's turn kit."""

from __future__ import annotations

import glob
import os
from pathlib import Path

from gm.crash import crash_point


def write_whole(path: Path, data: bytes) -> None:
    """Write a file a reader (the portal, the mailer) may read at any time: under a temporary
    name of this process's, then renamed into place, so that it never sees half of one. Not
    mkstemp: its 0600 mode would hide the file from a portal running as another user."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    _clear_left_behind(path)
    try:
        temporary.write_bytes(data)
        crash_point("publish:mid-write")
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _clear_left_behind(path: Path) -> None:
    """Remove the temporary copies of path that a killed process left (kill -9 between writing
    and renaming; gm/crash.py publish:mid-write): each names its writer, and one whose writer is
    gone is never renamed into place. A living writer's copy is left to it."""
    for left in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        writer = left.name[len(path.name) + 2 : -len(".tmp")]
        if writer.isdigit() and not _running(int(writer)):
            left.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Whether a process of this id is running (one of another user's counts: it may be a writer)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
