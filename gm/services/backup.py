"""gm backup: a consistent copy of a live GM home in one .tar file, with a manifest of every file's SHA-256.

Consistent means: the database is one snapshot (SQLite's online backup, taken first, while
intake, the portal and turn runs go on), and every archive file that snapshot refers to is in
the backup. A file is archived before any record names it, and gm archive prune (which removes
only files nothing needs, leaving a note) waits while a backup is taken, so the files copied
after the snapshot are a superset of what it needs; the backup proves it before it is finished. Reports, the outbox and templates are copied as they are then, so they may be newer
than the snapshot (a report can always be rendered again from the database).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import tarfile
import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.store import keeping
from gm.store.archive import ARCHIVE_LOCK, sync_folder
from gm.store.locks import file_lock

FORMAT = "gm-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
PREFIX = "home"  # every file of the home sits under home/ in the tar, beside manifest.json
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
class KeptFile:
    """A file in a backup: its path in the home (POSIX, relative), its size in bytes, its SHA-256
    and its permission bits (a file only the GM may read stays so when restored)."""

    path: str
    size: int
    sha256: str
    mode: int


@dataclass(frozen=True)
class Manifest:
    """What a backup holds. made: when (UTC ISO); gm_version: the gm that made it; source: the
    home it was taken from; migrations: those the database snapshot had; folders: each folder
    of the home with its permission bits ("." is the home itself); files: every file; skipped:
    what was not copied and why (symbolic links, sockets)."""

    made: str
    gm_version: str
    source: str
    migrations: tuple[str, ...]
    folders: tuple[tuple[str, int], ...]
    files: tuple[KeptFile, ...]
    skipped: tuple[str, ...]

    def to_json(self) -> bytes:
        """The manifest as JSON; permission bits in octal, as chmod takes them ("0600")."""
        data = {"format": FORMAT, "version": FORMAT_VERSION, **asdict(self)}
        data["files"] = [dict(f, mode=f"{f['mode']:04o}") for f in data["files"]]
        data["folders"] = [[path, f"{mode:04o}"] for path, mode in data["folders"]]
        return json.dumps(data, indent=1, sort_keys=True).encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        """The manifest in data; ValueError (with a message a GM can act on) when it is not one."""
        try:
            raw = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"its manifest is not JSON ({exc})") from exc
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise ValueError("its manifest is not a gm backup's")
        if raw.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"it is a gm backup of format {raw.get('version')}, which this gm does not read; "
                "restore it with a newer gm"
            )
        try:
            files = tuple(
                KeptFile(str(f["path"]), int(f["size"]), str(f["sha256"]), int(f["mode"], 8)) for f in raw["files"]
            )
            folders = tuple((str(path), int(mode, 8)) for path, mode in raw["folders"])
            manifest = cls(
                str(raw["made"]),
                str(raw["gm_version"]),
                str(raw["source"]),
                tuple(raw["migrations"]),
                folders,
                files,
                tuple(raw["skipped"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"its manifest is incomplete ({type(exc).__name__}: {exc})") from exc
        bad = [p for p in [f.path for f in files] + [p for p, _ in folders] if not safe_path(p)]
        if bad:
            raise ValueError(f"its manifest names paths outside the home ({bad[0]})")
        return manifest


@dataclass(frozen=True)
class Taken:
    """A finished backup: where it is, its manifest, its size in bytes and how many archive
    files the database snapshot refers to."""

    path: Path
    manifest: Manifest
    size: int
    referenced: int


def safe_path(path: str) -> bool:
    """A relative path inside the home: no root, no '..', no empty or '.' parts (but "." itself)."""
    if path == ".":
        return True
    parts = PurePosixPath(path).parts
    return (
        bool(parts) and not path.startswith("/") and "\\" not in path and all(p not in ("", ".", "..") for p in parts)
    )


def member_name(path: str) -> str:
    return PREFIX if path == "." else f"{PREFIX}/{path}"


def backup_path(home: Home, dest: Path, clock: Clock) -> Path:
    """The file to write: DEST itself (a new .tar or .tar.gz), or a file named by the time in
    the folder DEST. Never a file that exists, never inside the home."""
    dest = dest.expanduser().resolve()
    if dest.is_dir():
        dest = dest / f"gm-backup-{clock.now().strftime('%Y%m%d-%H%M%S')}.tar"
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


def take_backup(home: Home, dest: Path, clock: Clock, progress: Callable[[str], None] = lambda message: None) -> Taken:
    """Write a backup of the home to dest (see backup_path): first under a hidden temporary name
    beside it, renamed to its real name only once every file and the manifest are in it."""
    # Held throughout: gm archive prune must not take away a file the snapshot names.
    with file_lock(home.locks / ARCHIVE_LOCK, wait=True):
        return _take_backup(home, backup_path(home, dest, clock), clock, progress)


def _take_backup(home: Home, target: Path, clock: Clock, progress: Callable[[str], None]) -> Taken:
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    snapshot = target.with_name(f".{target.name}.db-{os.getpid()}")
    made = clock.now()  # the moment of the snapshot, which the backup stands for
    try:
        progress("database snapshot")
        os.close(os.open(snapshot, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # it holds secrets' hashes
        keeping.snapshot(home.database, snapshot)
        conn = keeping.open_read_only(snapshot)
        try:
            migrations, referenced = tuple(keeping.applied_migrations(conn)), keeping.archive_references(conn)
        finally:
            conn.close()
        manifest = _write(
            home, partial, snapshot, not target.name.endswith(".tar"), migrations, referenced, made, progress
        )
        os.replace(partial, target)
        sync_folder(target.parent)
    finally:
        for leftover in (partial, snapshot):
            with suppress(FileNotFoundError):
                leftover.unlink()
    return Taken(target, manifest, target.stat().st_size, len(referenced))


def _write(
    home: Home,
    partial: Path,
    snapshot: Path,
    gzip: bool,
    migrations: tuple[str, ...],
    referenced: dict[str, str],
    made: datetime,
    progress: Callable[[str], None],
) -> Manifest:
    # The backup holds the home's secrets (portal.key, players' mail, gm.toml): only its owner may read it.
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as raw:
        with tarfile.open(fileobj=raw, mode="w:gz" if gzip else "w", format=tarfile.PAX_FORMAT) as tar:
            files, folders, skipped, problems = _add_home(tar, home, snapshot, progress)
            problems += _missing_references(files, referenced)
            if problems:
                shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
                raise GMError(f"no backup was written: {shown}. Run 'gm doctor' for what to do.")
            manifest = Manifest(
                iso(made), version("gm"), str(home.root), migrations, tuple(folders), tuple(files), tuple(skipped)
            )
            data = manifest.to_json()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mode, info.mtime = len(data), 0o600, int(made.timestamp())
            tar.addfile(info, io.BytesIO(data))
        raw.flush()
        os.fsync(raw.fileno())
    return manifest


def _add_home(tar: tarfile.TarFile, home: Home, snapshot: Path, progress: Callable[[str], None]):
    """Add the snapshot as gm.db, then every folder and file of the home but those left out.
    Returns (files, folders, skipped, problems)."""
    files, folders, skipped, problems = [], [], [], []
    with open(snapshot, "rb") as source:
        files.append(_add_file(tar, DATABASE, source, os.stat(home.database).st_mode))
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
        info.size, info.mode, info.mtime = size, stat.S_IMODE(mode), int(stats.st_mtime)
        info.uid, info.gid = stats.st_uid, stats.st_gid
        tar.addfile(info, spool)
    return KeptFile(path, size, digest.hexdigest(), stat.S_IMODE(mode))


def _add_folder(tar: tarfile.TarFile, path: str, stats: os.stat_result, folders: list) -> None:
    info = tarfile.TarInfo(member_name(path))
    info.type, info.mode, info.mtime = tarfile.DIRTYPE, stat.S_IMODE(stats.st_mode), int(stats.st_mtime)
    info.uid, info.gid = stats.st_uid, stats.st_gid
    tar.addfile(info)
    folders.append((path, stat.S_IMODE(stats.st_mode)))


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
