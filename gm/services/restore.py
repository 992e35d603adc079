"""gm restore: check a backup whole (its signature, manifest hashes, the database, its migrations,
its archive) and only then unpack it into a new or empty home, under a temporary name renamed into place at the end."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import sqlite3
import tarfile
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

from gm.crash import crash_point
from gm.errors import GMError
from gm.home import DEFAULT_TOML
from gm.services.backup import ARCHIVE_NAME, CHUNK, DATABASE, NOTE_NAME
from gm.services.backup_key import SIGNATURE, SIGNATURE_MOST, key_path, read_key, signed_by
from gm.services.manifest import MANIFEST, PREFIX, Manifest, kept_mode, member_name
from gm.store import keeping
from gm.store.archive import sync_folder
from gm.store.migrations import all_migrations
from gm.store.scratch import clear_leftovers, scratch_folder

# What 'gm init' makes: a home holding only these, with no files in its folders, an untouched
# gm.toml and a database without rows, has no data, and a restore may take its place.
INIT_FILES = ("gm.db", "gm.db-wal", "gm.db-shm", "gm.toml")
INIT_FOLDERS = ("archive", "reports", "outbox", "templates", "locks")
# The largest manifest read (about 200 bytes a file: a home of some five million files). A forged
# one that says it is larger (a sparse member can say a terabyte in 10 KB) is refused unread.
MANIFEST_MOST = 2**30
# What reading a damaged or cut-short tar (or .tar.gz) raises.
BROKEN = (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile)


@dataclass(frozen=True)
class Checked:
    """A backup that passed every check: its manifest, the migrations of this gm its database
    lacks (gm applies them when it first opens the restored home), how many archive files the
    database refers to (every one of them is in the backup), and the key file its signature was
    checked with (None: restored unsigned, as --unsigned allows)."""

    manifest: Manifest
    pending: tuple[str, ...]
    referenced: int
    key: Path | None


def check_backup(
    backup: Path,
    scratch: Path,
    progress: Callable[[str], None] = lambda message: None,
    key: Path | None = None,
    unsigned: bool = False,
) -> Checked:
    """Read the whole backup and check it; GMError naming every problem when it cannot be restored.
    The database is copied into `scratch` for its checks, and removed after them. key: the backup
    key's file (backup_key.key_path); unsigned: restore a backup without a signature (one an
    older gm made) or one whose key is not at hand."""
    backup = backup.expanduser()
    if not backup.is_file():
        raise GMError(f"there is no backup file {backup}. Name a .tar made by 'gm backup'.")
    database = scratch / "check.db"
    try:
        manifest, checked_with = _read_manifest(backup, key_path(key), unsigned)
        progress("every file against the manifest")
        problems = _check_members(backup, manifest, database)
        crash_point("restore:mid-check")
        if not problems:
            progress("the database")
            problems, pending, referenced = _check_database(database, manifest)
    finally:
        database.unlink(missing_ok=True)
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise GMError(
            f"{backup} cannot be restored: {shown}. Nothing was changed. Use another backup "
            "(or take a new one with 'gm backup')."
        )
    return Checked(manifest, tuple(pending), referenced, checked_with)


def restore_backup(
    backup: Path,
    target: Path,
    progress: Callable[[str], None] = lambda message: None,
    key: Path | None = None,
    unsigned: bool = False,
) -> Checked:
    """Check the backup, then unpack it into target, which must not exist, be an empty folder,
    or be a home 'gm init' made that holds no data yet. Nothing changes when anything fails.

    Everything is written in a scratch folder beside target (.HOME.restoring-...), and the home
    renamed out of it into place: a kill leaves only that folder, which the next restore to
    target removes first."""
    target = target.expanduser().resolve()
    clear_leftovers(target.parent, re.compile(re.escape(f".{target.name}.restoring-") + ".+"))
    fresh = _target_state(target)
    made = _missing_folders(target.parent)
    try:
        with scratch_folder(target.parent, f".{target.name}.restoring-") as scratch:
            checked = check_backup(backup, scratch, progress, key, unsigned)
            progress(f"unpacking into {target}")
            unpacking = scratch / "home"
            _unpack(backup, checked.manifest, unpacking)
            os.sync()  # every file on disk before the home appears under its name (once, not per file)
            if fresh:
                _clear_fresh_home(target)
            crash_point("restore:before-rename")
            os.replace(unpacking, target)
            sync_folder(target.parent)
            crash_point("restore:after-rename")
    except BaseException:
        for folder in made:  # the deepest first; only what this restore made, and only if still empty
            with suppress(OSError):
                folder.rmdir()
        raise
    return checked


def _missing_folders(folder: Path) -> list[Path]:
    """Make `folder` and its missing parents; return those it made, the deepest first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir()
    return missing


def _read_manifest(backup: Path, key: Path, unsigned: bool) -> tuple[Manifest, Path | None]:
    """The manifest, once its signature is checked against the key in `key` (and the key file it
    was checked with; None when it was restored unsigned)."""
    try:
        with tarfile.open(backup, "r:*") as tar:
            data = _small_member(tar, tar.getmember(MANIFEST), MANIFEST_MOST)
            names = tar.getnames()
            signature = _small_member(tar, tar.getmember(SIGNATURE), SIGNATURE_MOST) if SIGNATURE in names else None
            checked_with = _check_signature(backup, data, signature, key, unsigned)
            return Manifest.from_json(data), checked_with
    except KeyError:
        raise GMError(
            f"{backup} is not a finished gm backup: it has no {MANIFEST} (it was cut short, or it is not "
            "a gm backup). Nothing was changed. Use another backup."
        ) from None
    except BROKEN as exc:
        raise GMError(f"{backup} cannot be restored: {_broken(exc)}. Nothing was changed. Use another backup.") from exc
    except ValueError as exc:
        raise GMError(f"{backup} cannot be restored: {exc}. Nothing was changed. Use another backup.") from exc


def _small_member(tar: tarfile.TarFile, member: tarfile.TarInfo, most: int) -> bytes:
    """The bytes of a member that gm writes small: never read into memory when it says it is larger."""
    source = tar.extractfile(member)
    if source is None:  # a folder (or a device) of that name: no such file all the same
        raise KeyError(member.name) if member.name == MANIFEST else ValueError(f"its {member.name} is not a file")
    if member.issparse() or member.size > most:
        raise ValueError(
            f"its {member.name} is {member.size:,} bytes (gm writes at most {most:,}, and never a sparse one)"
        )
    return source.read()


def _check_signature(backup: Path, manifest: bytes, signature: bytes | None, key: Path, unsigned: bool) -> Path | None:
    """The key file the signature matches (None: --unsigned, and none could be checked); GMError
    for a signature that does not match, or an unsigned backup without --unsigned."""
    if signature is None:
        if unsigned:
            return None
        raise GMError(
            f"{backup} is not signed (gm before backups were signed made it, or its {SIGNATURE} was taken "
            "out): give --unsigned to restore it only if you know where it comes from. Nothing was changed."
        )
    if not key.exists():
        if unsigned:
            return None
        raise GMError(
            f"{backup} is signed, and there is no backup key at {key} to check it: copy the key of the "
            "machine that made the backup there, or give --key FILE (or --unsigned, if the key is lost). "
            "Nothing was changed."
        )
    if not signed_by(read_key(key), manifest, signature):
        raise GMError(
            f"{backup} does not match its signature with the backup key {key}: it was changed after "
            "'gm backup' wrote it, or signed with another key. Nothing was changed."
        )
    return key


def _broken(exc: BaseException) -> str:
    detail = str(exc) or type(exc).__name__
    if "\n" in detail:  # tarfile's list of every compression it tried, one line each: no help to a GM
        detail = "gm reads .tar and .tar.gz, and this is neither"
    return f"it is cut short, or not a tar file ({detail})"


def _check_members(backup: Path, manifest: Manifest, database: Path) -> list[str]:
    """Every member against the manifest: each file there, whole, with its hash; nothing else.
    The database is copied out to `database` for the checks that need SQLite."""
    expected = {member_name(f.path): f for f in manifest.files}
    folders = {member_name(path) for path, _ in manifest.folders}
    problems: list[str] = []
    seen: set[str] = set()
    try:
        with tarfile.open(backup, "r:*") as tar:
            for member in tar:
                if member.name in (MANIFEST, SIGNATURE):
                    continue
                if member.name in seen:
                    problems.append(f"it holds {member.name} twice")
                    continue
                seen.add(member.name)
                if member.isdir() and member.name in folders:
                    continue
                kept = expected.get(member.name)
                if kept is None or not member.isfile() or member.issparse():
                    problems.append(_unexpected(member, kept is not None))
                    continue
                if member.size != kept.size:  # not read: a forged size could be a terabyte
                    problems.append(_changed(kept.path))
                    continue
                sink = open(database, "wb") if kept.path == DATABASE else None
                try:
                    size, digest = _copy(_file_bytes(tar, member), sink)
                finally:
                    if sink is not None:
                        sink.close()
                if (size, digest) != (kept.size, kept.sha256):
                    problems.append(_changed(kept.path))
    except BROKEN as exc:
        problems.append(_broken(exc))
    missing = sorted(name for name in expected if name not in seen)
    problems += [f"{name.removeprefix(PREFIX + '/')} is in the manifest but not in the backup" for name in missing]
    return problems


def _changed(path: str) -> str:
    return (
        f"{path} does not match the SHA-256 its manifest records (it was changed or damaged after the backup was made)"
    )


def _unexpected(member: tarfile.TarInfo, listed: bool) -> str:
    """What is wrong with a member that is not a file of the manifest (never written anywhere)."""
    if not listed:
        return f"it holds {member.name}, which its manifest does not list"
    kind = (
        "a symbolic link"
        if member.issym()
        else "a hard link"
        if member.islnk()
        # gm backup never writes one: 10 KB of sparse tar can unpack to a terabyte of zeros.
        else "a sparse file"
        if member.issparse()
        else "no plain file"
    )
    return f"it holds {member.name} as {kind}, where its manifest lists a file"


def _file_bytes(tar: tarfile.TarFile, member: tarfile.TarInfo) -> IO[bytes]:
    """The bytes of a member that is a regular file (tarfile has none only for other kinds)."""
    source = tar.extractfile(member)
    assert source is not None, f"{member.name} is a regular file"
    return source


def _copy(source: IO[bytes], sink: BinaryIO | None) -> tuple[int, str]:
    digest, size = hashlib.sha256(), 0
    while chunk := source.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if sink is not None:
            sink.write(chunk)
    return size, digest.hexdigest()


def _check_database(database: Path, manifest: Manifest) -> tuple[list[str], list[str], int]:
    """(problems, migrations the database lacks, archive files it refers to): integrity,
    migrations this gm knows, every referenced archive file in the backup under its own hash."""
    if not database.is_file():
        return [f"it holds no database ({DATABASE})"], [], 0
    conn = keeping.open_read_only(database)
    try:
        damage = keeping.integrity_problems(conn)
        if damage:
            return [f"the database is damaged: {'; '.join(damage[:3])}"], [], 0
        applied = keeping.applied_migrations(conn)
        referenced = keeping.archive_references(conn)
    finally:
        conn.close()
    known = [m.name for m in all_migrations()]
    unknown = [name for name in applied if name not in known]
    problems = []
    if unknown:
        problems.append(
            f"its database has migrations this gm does not know ({', '.join(unknown)}): it was made by a "
            "newer gm; install that gm (or a newer one) and restore with it"
        )
    archived = {m[1]: f.sha256 for f in manifest.files if (m := ARCHIVE_NAME.fullmatch(f.path))}
    noted = {m[1] for f in manifest.files if (m := NOTE_NAME.fullmatch(f.path))}
    for digest, where in sorted(referenced.items()):
        if digest not in archived and digest not in noted:
            problems.append(f"archive/{digest[:2]}/{digest}, which the database's {where} refers to, is not in it")
    problems += [
        f"archive/{name[:2]}/{name} does not hold what its name says (it was changed before the backup)"
        for name, sha in sorted(archived.items())
        if name != sha
    ]
    return problems, [name for name in known if name not in applied], len(referenced)


def _target_state(target: Path) -> bool:
    """True for a home 'gm init' made that holds no data (it will be replaced), False for a
    missing or empty folder (it is simply taken); GMError for anything that holds data."""
    if not target.exists():
        return False
    if not target.is_dir():
        raise GMError(f"{target} is a file, not a folder. Restore into a new or empty folder.")
    entries = sorted(p.name for p in target.iterdir())
    if not entries:
        return False
    held = _data_held(target, entries)
    if held:
        raise GMError(
            f"{target} is not empty: it holds {held}. gm restore never writes over a home or folder that "
            "has data: restore into a new folder (and point GM_HOME at it), or move this one aside first."
        )
    return True


def _data_held(target: Path, entries: list[str]) -> str | None:
    """What in target is more than a home just made by 'gm init' (None: nothing)."""
    if (target / "gm.db").is_file():
        conn = keeping.open_read_only(target / "gm.db")
        try:
            tables = keeping.tables_with_rows(conn)
        except sqlite3.DatabaseError:  # not a database at all: it is data of some kind, so keep it
            return "a gm.db that gm cannot read"
        finally:
            conn.close()
        if tables:
            return f"a GM home's database with records ({', '.join(tables[:5])})"
    others = [name for name in entries if name not in INIT_FILES + INIT_FOLDERS]
    if others:
        return ", ".join(others[:5])
    settings = target / "gm.toml"
    if settings.exists() and (
        not settings.is_file() or settings.read_text(encoding="utf-8", errors="replace") != DEFAULT_TOML
    ):
        return "a gm.toml that was changed"
    for name in INIT_FOLDERS:
        folder = target / name
        if name != "locks" and folder.is_dir() and any(p.is_file() for p in folder.rglob("*")):
            return f"files in {name}/"
    return None


def _clear_fresh_home(target: Path) -> None:
    """Remove what 'gm init' made (no data: _data_held said so), leaving the folder empty."""
    for name in INIT_FILES:
        with suppress(FileNotFoundError):
            (target / name).unlink()
    for name in INIT_FOLDERS:
        shutil.rmtree(target / name, ignore_errors=True)


def _unpack(backup: Path, manifest: Manifest, into: Path) -> None:
    """Write every file with its permission bits (hashing it again: the backup may not change
    between the check and here), then give each folder its own."""
    expected = {member_name(f.path): f for f in manifest.files}
    with tarfile.open(backup, "r:*") as tar:
        for member in tar:
            kept = expected.get(member.name)
            if kept is None or not member.isfile():
                continue
            path = into / kept.path
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as sink:
                size, digest = _copy(_file_bytes(tar, member), sink)
            if (size, digest) != (kept.size, kept.sha256):
                raise GMError(
                    f"{backup} changed while it was being restored ({kept.path}). Nothing was changed; restore again."
                )
            os.chmod(path, kept_mode(kept.path, kept.mode, folder=False))
            os.utime(path, (member.mtime, member.mtime))
            crash_point("restore:mid-unpack")
    # The deepest first and the home itself last: a folder without write permission is made so last.
    for name, mode in sorted(manifest.folders, key=lambda item: (item[0] == ".", -item[0].count("/"))):
        folder = into if name == "." else into / name
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, kept_mode(name, mode, folder=True))
