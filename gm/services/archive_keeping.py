"""The archive's size and its pruning: gm archive status and gm archive prune.

Every byte a player sends is archived before it is read, and what is refused for its size is
kept as a note only (gm/store/archive.py). What else is refused still lands in the archive, so
the archive has a budget ([archive] budget_mb, default BUDGET_MB): past it, gm run-due and
gm doctor say so, and `gm archive prune` removes what nothing kept needs, leaving a note of each
file: files no record names (a turn file refused before its seat was known, press refused on
the portal), and those only refused or rejected turn files and mail name. It keeps every file
keeping.needed_archive_digests names: every accepted submission, every press message, every
mail a turn file was accepted from (gm turn verify and the ledger need no archive file at all).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gm.core.words import sizes_apart
from gm.errors import GMError
from gm.home import Home
from gm.store import keeping
from gm.store.archive import ARCHIVE_LOCK, NOTE_SUFFIX, note_bytes
from gm.store.locks import file_lock

BUDGET_MB = 2_000
# A file is archived a moment before the record that names it is written: one younger than this
# is never pruned, whatever --older-than says.
SETTLE_SECONDS = 3_600
_PRUNING = ".pruning-"
# gm run-due counts the archive's size at most once an hour, kept in locks/ meanwhile.
MEASURED_FOR = 3_600
_MEASURED = "archive-size"


@dataclass(frozen=True)
class ArchiveSize:
    """What the archive holds: files kept whole and their bytes, notes, and the budget in bytes."""

    files: int
    size: int
    notes: int
    budget: int

    @property
    def over(self) -> bool:
        return self.size > self.budget


@dataclass(frozen=True)
class Removed:
    """A file prune removed (or would): its SHA-256, its size, and who named it ("mail 5",
    "submission 12"; None: nothing)."""

    digest: str
    size: int
    named_by: str | None


@dataclass
class Pruned:
    """What one prune did: the files removed (a note of each left), and the archive after."""

    removed: list[Removed] = field(default_factory=list)
    kept_young: int = 0  # files prune would have removed but that are younger than the cut-off
    after: ArchiveSize | None = None


def budget_bytes(home: Home) -> int:
    budget: int = home.setting("archive", "budget_mb", BUDGET_MB)  # of the default's type (Home.setting)
    return budget * 1_000_000


def archive_size(home: Home) -> ArchiveSize:
    """Count the archive's files and notes (one stat a file: about 0.1 s for 50,000 files)."""
    files = size = notes = 0
    for entry in _entries(home.archive):
        if entry.name.endswith(NOTE_SUFFIX):
            notes += 1
        elif _is_digest(entry.name):
            files += 1
            size += entry.stat().st_size
    return ArchiveSize(files, size, notes, budget_bytes(home))


def over_budget(home: Home, now: float | None = None) -> str | None:
    """The GM's line when the archive is past its budget, else None. Counting a big archive
    takes a while (50,000 files: 0.5-1.2 s on a busy machine), so gm run-due, every few minutes,
    counts at most once in MEASURED_FOR seconds and reads the last count meanwhile."""
    found = _measured(home, time.time() if now is None else now)
    if not found.over:
        return None
    size, budget = sizes_apart(found.size, found.budget)
    return (
        f"the archive holds {size}, past its budget of {budget} ([archive] budget_mb "
        "in gm.toml): 'gm archive prune --dry-run' lists what nothing kept needs, 'gm archive prune' removes it"
    )


def _measured(home: Home, now: float) -> ArchiveSize:
    kept = home.locks / _MEASURED
    try:
        if now - kept.stat().st_mtime < MEASURED_FOR:
            return ArchiveSize(0, int(kept.read_text()), 0, budget_bytes(home))
    except (OSError, ValueError):
        pass
    found = archive_size(home)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(str(found.size))
    os.utime(kept, (now, now))
    return found


def prune(
    home: Home, conn: sqlite3.Connection, older_than_days: float, dry_run: bool = False, now: float | None = None
) -> Pruned:
    """Remove the archive files nothing kept needs and older than `older_than_days` (never one
    younger than SETTLE_SECONDS), each replaced by a note. conn: a connection to the database
    (read only is enough). Refuses while a backup is being taken."""
    if older_than_days < 0:
        raise GMError("--older-than must be 0 days or more.")
    cutoff = (now if now is not None else time.time()) - max(older_than_days * 86_400, SETTLE_SECONDS)
    with file_lock(home.locks / ARCHIVE_LOCK, wait=False) as held:
        if not held:
            raise GMError("gm backup or another gm archive prune is running. Try again when it is done.")
        _put_back_left_over(home.archive)
        named, needed = keeping.archive_references(conn), keeping.needed_archive_digests(conn)
        done = Pruned()
        for entry in list(_entries(home.archive)):
            if not _is_digest(entry.name) or entry.name in needed:
                continue
            stat = entry.stat()
            if stat.st_mtime > cutoff:
                done.kept_young += 1
                continue
            if dry_run or _remove(home.archive, Path(entry.path), named.get(entry.name), cutoff):
                done.removed.append(Removed(entry.name, stat.st_size, named.get(entry.name)))
        done.after = archive_size(home)
    (home.locks / _MEASURED).unlink(missing_ok=True)  # counted afresh by the next gm run-due
    return done


def _remove(archive: Path, path: Path, named_by: str | None, cutoff: float) -> bool:
    """Replace one file by a note; False when it was used again meanwhile. The file is moved
    aside first: archive_bytes touches a file it finds already there (or writes it anew once it
    is gone), so one taken again while prune runs is put back, never lost."""
    held = path.with_name(f"{_PRUNING}{path.name}")
    try:
        os.replace(path, held)
    except FileNotFoundError:
        return False
    if held.stat().st_mtime > cutoff:
        os.replace(held, path)
        return False
    note_bytes(archive, held.read_bytes(), channel=named_by or "no record", sender=None, reason="pruned")
    held.unlink()
    return True


def _put_back_left_over(archive: Path) -> None:
    """A prune cut short may leave a file moved aside: put it back under its name."""
    for entry in list(_entries(archive)):
        if entry.name.startswith(_PRUNING):
            target = Path(entry.path).with_name(entry.name.removeprefix(_PRUNING))
            if target.exists():
                os.unlink(entry.path)
            else:
                os.replace(entry.path, target)


def _entries(archive: Path) -> Iterator[os.DirEntry[str]]:
    if not archive.is_dir():
        return
    with os.scandir(archive) as folders:
        for folder in folders:
            if folder.is_dir(follow_symlinks=False):
                with os.scandir(folder.path) as files:
                    yield from (f for f in files if f.is_file(follow_symlinks=False))


def _is_digest(name: str) -> bool:
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)
