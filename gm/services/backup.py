"""gm backup: a consistent copy of a live GM home in one .tar file, with a manifest of every file's SHA-256.

Consistent means: the database is one snapshot (SQLite's online backup, taken first, while
intake, the portal and turn runs go on), and every archive file that snapshot refers to is in
the backup. A file is archived before any record names it, and gm archive prune (which removes
only files nothing needs, leaving a note) waits while a backup is taken, so the files copied
after the snapshot are a superset of what it needs; the backup proves it before it is finished. Reports, the outbox and templates are copied as they are then, so they may be newer
than the snapshot (a report can always be rendered again from the database).

Signed: manifest.sig, beside manifest.json, is its HMAC-SHA256 with the GM's backup key, which
is kept outside the home (gm/services/backup_key.py says where and why).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path
from typing import BinaryIO

from gm.clock import Clock, iso
from gm.crash import crash_point
from gm.errors import GMError
from gm.home import Home
from gm.services.backup_key import SIGNATURE, key_for_backup, key_path, sign
from gm.services.manifest import MANIFEST, KeptFile, Manifest, kept_mode, member_name
from gm.store import keeping
from gm.store.archive import ARCHIVE_LOCK, sync_folder
from gm.store.locks import file_lock
from gm.store.scratch import clear_leftovers, file_named_when_whole, scratch_file

DATABASE = "gm.db"
SUFFIXES = (".tar", ".tar.gz", ".tgz")
ARCHIVE_NAME = re.compile(r"archive/[0-9a-f]{2}/([0-9a-f]{64})")
# A note that stands for bytes the archive does not keep whole (gm/store/archive.py).
NOTE_NAME = re.compile(r"archive/[0-9a-f]{2}/([0-9a-f]{64})\.note")

# Left out at the top of the home: the live database (the snapshot stands for it), and the
# portal's live SQLite files of failed sign-ins (the last few minutes) and of signed-in sessions
# (a restored home has none: everybody signs in again, never the other way round).
LEFT_OUT = {
    f"{name}{suffix}"
    for name in ("gm.db", "portal-limits.db", "portal-sessions.db")
    for suffix in ("", "-wal", "-shm", "-journal")
}
# Lock files (the locks folder's, and *.lock) are only held while something runs; gm makes them again.
LOCK_FOLDER = "locks"

CHUNK = 1 << 20


@dataclass(frozen=True)
class Taken:
    """A finished backup: where it is, its manifest, its size in bytes, how many archive files
    the database snapshot refers to, the key file that signed it and whether this backup made it."""

    path: Path
    manifest: Manifest
    size: int
    referenced: int
    key: Path
    key_made: bool


def backup_path(home: Home, dest: Path, clock: Clock) -> Path:
    """The file to write: DEST itself (a new .tar or .tar.gz), or a file named by the time in
    the folder DEST. Never a file that exists, never inside the home."""
    dest = dest.expanduser().resolve()
    if dest.is_dir():
        dest = dest / f"gm-backup-{clock.now().strftime('%Y%m%d-%H%M%S')}.tar"
    if not dest.suffix and not dest.exists():  # a folder meant, as `gm backup /srv/backups/`, not made yet
        raise GMError(f"there is no folder {dest}. Make it first, or name a new file ending in .tar or .tar.gz.")
    if not dest.name.endswith(SUFFIXES):
        raise GMError(
            f"{dest} must end in .tar or .tar.gz (or name a folder, where gm names the backup by the "
            "time). Choose another name."
        )
    if dest.exists():
        raise GMError(f"{dest} already exists; gm never writes over a backup. Choose another name or folder.")
    if not dest.parent.is_dir():
        raise GMError(f"the folder {dest.parent} does not exist. Make it first, or choose another.")
    if dest.is_relative_to(home.root):
        raise GMError(
            f"{dest} is inside the GM home {home.root}: each backup would hold the ones before it. "
            "Choose a folder outside the home."
        )
    return dest


@dataclass(frozen=True)
class Snapshot:
    """The database as one moment saw it: the open copy (its file already has no name), the
    migrations it had, the archive files it refers to, and that moment."""

    database: BinaryIO
    migrations: tuple[str, ...]
    referenced: dict[str, str]
    made: datetime


# What a killed gm backup may leave: its snapshot in the home's locks/ folder (beside the live
# database), and, where files cannot be written unnamed, the unfinished backup beside its
# destination; older gm left a hidden copy of the database there too (".NAME.db-PID").
SNAPSHOTS = re.compile(r"backup-[0-9a-f]+\.db(-journal|-wal|-shm)?")
UNFINISHED = re.compile(r"\..+\.(tar|tar\.gz|tgz)\.(partial|db)-.+")


def take_backup(
    home: Home,
    dest: Path,
    clock: Clock,
    progress: Callable[[str], None] = lambda message: None,
    key: Path | None = None,
) -> Taken:
    """Write a backup of the home to dest (see backup_path), named only once every file, the
    manifest and its signature are in it. A kill at any moment leaves nothing beside dest; the
    snapshot it may leave in the home's locks/ folder is removed by the next backup, as is what
    an older gm left. key: the backup key's file (backup_key.key_path), made if missing."""
    target = backup_path(home, dest, clock)
    where = key_path(key)
    secret, made = key_for_backup(where, home.root)
    # Held throughout: gm archive prune must not take away a file the snapshot names.
    home.locks.mkdir(exist_ok=True)
    with file_lock(home.locks / ARCHIVE_LOCK, wait=True):
        return _take_backup(home, target, clock, progress, secret, (where, made))


def _take_backup(
    home: Home, target: Path, clock: Clock, progress: Callable[[str], None], key: bytes, key_file: tuple[Path, bool]
) -> Taken:
    clear_leftovers(home.locks, SNAPSHOTS)
    clear_leftovers(target.parent, UNFINISHED)
    progress("database snapshot")
    with scratch_file(home.locks, "backup-", ".db") as path:  # the live database's folder: no copy elsewhere
        snapshot = _snapshot(home, path, clock)
        try:
            with snapshot.database, file_named_when_whole(target) as raw:
                manifest = _write(home, raw, snapshot, not target.name.endswith(".tar"), progress, key)
                crash_point("backup:before-name")
        except FileExistsError:  # made meanwhile, by another backup: never written over
            raise GMError(f"{target} already exists; gm never writes over a backup. Choose another name.") from None
    sync_folder(target.parent)
    return Taken(target, manifest, target.stat().st_size, len(snapshot.referenced), *key_file)


def _snapshot(home: Home, path: Path, clock: Clock) -> Snapshot:
    """Copy the live database to `path`, read what the backup needs of it, and unname it: the
    open file is all the backup reads from then on."""
    made = clock.now()  # the moment of the snapshot, which the backup stands for
    keeping.snapshot(home.database, path)
    crash_point("backup:after-snapshot")
    conn = keeping.open_read_only(path)
    try:
        migrations, referenced = tuple(keeping.applied_migrations(conn)), keeping.archive_references(conn)
    finally:
        conn.close()
    database = open(path, "rb")
    path.unlink()
    return Snapshot(database, migrations, referenced, made)


def _write(
    home: Home, raw: BinaryIO, snapshot: Snapshot, gzip: bool, progress: Callable[[str], None], key: bytes
) -> Manifest:
    with tarfile.open(fileobj=raw, mode="w:gz" if gzip else "w", format=tarfile.PAX_FORMAT) as tar:
        files, folders, skipped, problems = _add_home(tar, home, snapshot.database, progress)
        problems += _missing_references(files, snapshot.referenced)
        if problems:
            shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
            raise GMError(f"no backup was written: {shown}. Run 'gm doctor' for what to do.")
        manifest = Manifest(
            iso(snapshot.made),
            version("gm"),
            str(home.root),
            snapshot.migrations,
            tuple(folders),
            tuple(files),
            tuple(skipped),
        )
        data = manifest.to_json()
        for name, member in ((MANIFEST, data), (SIGNATURE, sign(key, data))):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(member), 0o600, int(snapshot.made.timestamp())
            tar.addfile(info, io.BytesIO(member))
    return manifest


def _add_home(
    tar: tarfile.TarFile, home: Home, database: BinaryIO, progress: Callable[[str], None]
) -> tuple[list[KeptFile], list[tuple[str, int]], list[str], list[str]]:
    """Add the snapshot as gm.db, then every folder and file of the home but those left out.
    Returns (files, folders, skipped, problems)."""
    files: list[KeptFile] = []
    folders: list[tuple[str, int]] = []
    skipped: list[str] = []
    problems: list[str] = []
    files.append(_add_file(tar, DATABASE, database, os.stat(home.database).st_mode))
    crash_point("backup:mid-write")
    for folder, subfolders, names in os.walk(home.root):
        subfolders.sort()
        relative = Path(folder).relative_to(home.root).as_posix()
        _add_folder(tar, relative, os.stat(folder), folders)
        if relative == ".":
            progress(f"files of {home.root}")
        for name in list(subfolders):
            if os.path.islink(os.path.join(folder, name)):
                skipped.append(f"{_join(relative, name)}: a symbolic link (copy what it points to yourself)")
                subfolders.remove(name)
        if relative == LOCK_FOLDER:
            continue
        for name in sorted(names):
            path = _join(relative, name)
            if (relative == "." and name in LEFT_OUT) or _in_progress(name) or name.endswith(".lock"):
                continue
            kept = _add_path(tar, home.root / path, path, skipped)
            if kept is not None:
                files.append(kept)
                problems += _archive_problem(kept)
    return files, folders, skipped, problems


def _add_path(tar: tarfile.TarFile, full: Path, path: str, skipped: list[str]) -> KeptFile | None:
    try:
        descriptor = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:  # removed or renamed since the folder was listed: newer than the snapshot
        return None
    except OSError as exc:
        if os.path.islink(full):
            skipped.append(f"{path}: a symbolic link (copy what it points to yourself)")
            return None
        raise GMError(f"cannot read {full} ({exc.strerror}). Check its permissions; no backup was written.") from exc
    with os.fdopen(descriptor, "rb") as source:
        mode = os.fstat(source.fileno()).st_mode
        if not stat.S_ISREG(mode):
            skipped.append(f"{path}: not a regular file")
            return None
        return _add_file(tar, path, source, mode)


def _add_file(tar: tarfile.TarFile, path: str, source: BinaryIO, mode: int) -> KeptFile:
    """Copy the file as it is now into a spool, hashing it, then into the tar: a file that
    grows while it is read cannot make the tar's size header wrong."""
    digest = hashlib.sha256()
    with tempfile.SpooledTemporaryFile(max_size=16 * CHUNK) as spool:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
            spool.write(chunk)
        size = spool.tell()
        spool.seek(0)
        info = tarfile.TarInfo(member_name(path))
        stats = os.fstat(source.fileno())
        info.size, info.mode, info.mtime = size, kept_mode(path, mode, folder=False), int(stats.st_mtime)
        info.uid, info.gid = stats.st_uid, stats.st_gid
        tar.addfile(info, spool)
    return KeptFile(path, size, digest.hexdigest(), info.mode)


def _add_folder(tar: tarfile.TarFile, path: str, stats: os.stat_result, folders: list[tuple[str, int]]) -> None:
    info = tarfile.TarInfo(member_name(path))
    info.type, info.mode, info.mtime = tarfile.DIRTYPE, kept_mode(path, stats.st_mode, folder=True), int(stats.st_mtime)
    info.uid, info.gid = stats.st_uid, stats.st_gid
    tar.addfile(info)
    folders.append((path, info.mode))


def _archive_problem(kept: KeptFile) -> list[str]:
    match = ARCHIVE_NAME.fullmatch(kept.path)
    if match and match[1] != kept.sha256:
        return [f"{kept.path} does not hold what its name says (its SHA-256 is {kept.sha256[:12]}…): it was changed"]
    return []


def _missing_references(files: list[KeptFile], referenced: dict[str, str]) -> list[str]:
    present = {m[1] for m in (ARCHIVE_NAME.fullmatch(f.path) or NOTE_NAME.fullmatch(f.path) for f in files) if m}
    return [
        f"archive/{digest[:2]}/{digest} ({where}) is missing from the home"
        for digest, where in sorted(referenced.items())
        if digest not in present
    ]


def _in_progress(name: str) -> bool:
    """A file gm is writing under a temporary name: it gets its real name when it is whole."""
    return name.startswith((".incoming-", ".sending-")) or (name.startswith(".") and name.endswith(".tmp"))


def _join(folder: str, name: str) -> str:
    return name if folder == "." else f"{folder}/{name}"
