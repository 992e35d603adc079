"""Files and folders a command writes for a while (a backup's database snapshot and the backup
itself until it is whole, a restore's unpacking folder): nothing is left of them when the command
is killed, or the next run removes it (no SQL).

A kill -9 runs no clean-up, so what a command makes under a name outlives it. Two ways out:

- a file written unnamed (Linux's O_TMPFILE) and given its name only when whole: the kernel frees
  it when its maker dies, so a kill leaves nothing at all (`file_named_when_whole`);
- a scratch file or folder that its maker holds an flock on while it lives: the kernel lets go
  of the lock when the maker dies, however it dies, so `clear_leftovers` can tell a dead run's
  leftover (nobody holds it) from a running one's and remove only the first.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

if sys.platform == "win32":  # no flock: a leftover is then never known to be dead, and stays
    fcntl = None
else:
    import fcntl

_PROC_FDS = Path("/proc/self/fd")


@contextmanager
def scratch_file(folder: Path, prefix: str, suffix: str = "") -> Iterator[Path]:
    """A new empty file folder/<prefix><random><suffix> (mode 600), held for the with-block, then
    removed (if its user has not removed it already)."""
    while True:
        path = folder / f"{prefix}{secrets.token_hex(6)}{suffix}"
        held = _hold(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), path)
        if held is not None:
            break
    try:
        yield path
    finally:
        with suppress(FileNotFoundError):
            path.unlink()
        os.close(held)


@contextmanager
def scratch_folder(parent: Path, prefix: str) -> Iterator[Path]:
    """A new folder parent/<prefix><random> (mode 700), held for the with-block, then removed with
    what is in it."""
    while True:
        path = parent / f"{prefix}{secrets.token_hex(6)}"
        path.mkdir(mode=0o700)
        held = _hold(os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW), path)
        if held is not None:
            break
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(held)


@contextmanager
def file_named_when_whole(target: Path) -> Iterator[BinaryIO]:
    """A file written in target's folder (mode 600) that takes target's name only when the
    with-block ends without an error, and never in place of a file of that name
    (FileExistsError). Killed or failed before, it leaves nothing: where the system can, the
    file has no name until then; elsewhere it is a scratch file `clear_leftovers` removes."""
    descriptor = _unnamed(target.parent)
    if descriptor is None:
        with scratch_file(target.parent, f".{target.name}.partial-") as partial, open(partial, "r+b") as raw:
            yield raw
            _whole(raw)
            os.link(partial, target)  # never over a file of that name, as a rename would be
        return
    with os.fdopen(descriptor, "wb") as raw:
        yield raw
        _whole(raw)
        proc = os.open(_PROC_FDS, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.link(str(raw.fileno()), target, src_dir_fd=proc, follow_symlinks=True)
        finally:
            os.close(proc)


def clear_leftovers(folder: Path, name: re.Pattern[str]) -> list[Path]:
    """Remove the files and folders in `folder` whose name matches `name` that no running command
    holds: what a killed one left. Returns what was removed."""
    removed = []
    with suppress(FileNotFoundError, NotADirectoryError):
        for path in sorted(folder.iterdir()):
            if name.fullmatch(path.name) and _remove_if_dead(path):
                removed.append(path)
    return removed


def _hold(descriptor: int, path: Path) -> int | None:
    """The descriptor, locked, when `path` is still the thing it opened; None (closed) when a
    clear_leftovers took the path away before the lock was held: the caller makes another."""
    if fcntl is not None:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
    try:
        same = os.path.samestat(os.fstat(descriptor), os.lstat(path))
    except FileNotFoundError:
        same = False
    if not same:
        os.close(descriptor)
        return None
    return descriptor


def _remove_if_dead(path: Path) -> bool:
    if fcntl is None:
        return False
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # a link, or gone: not ours to remove
        return False
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # its maker runs
        if not os.path.samestat(os.fstat(descriptor), os.lstat(path)):
            return False
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
        return True
    except FileNotFoundError:
        return False
    finally:
        os.close(descriptor)


def _unnamed(folder: Path) -> int | None:
    """A file in `folder` with no name yet (mode 600), or None where there is no such thing."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not _PROC_FDS.is_dir():
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY, 0o600)
    except OSError:  # a file system without it (some network ones)
        return None


def _whole(raw: BinaryIO) -> None:
    raw.flush()
    os.fsync(raw.fileno())
