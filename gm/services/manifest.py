"""The manifest of a gm backup (manifest.json): each file and folder of the home with its size,
SHA-256 and permission bits; and what a manifest may say, so that a changed one is refused
before anything is written.

The hashes find damage; the manifest's signature (gm/services/backup_key.py) finds a forger
without the key. What a restore must never do, whatever the manifest says, is write outside the home,
follow or make a link, or give a file a mode gm never makes (set-ID, sticky, writable by
anyone). gm backup writes only the modes gm makes (files 0600 or 0644, folders 0700 or 0755),
and gm restore sets those itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath
from typing import Any

from gm.core.model import JSONObject

FORMAT = "gm-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
PREFIX = "home"  # every file of the home sits under home/ in the tar, beside manifest.json

# Files gm itself makes readable by the GM only, whatever a manifest says of them.
PRIVATE = frozenset({"portal.key", "portal-gm-link"})
_SHA256 = re.compile(r"[0-9a-f]{64}")
_MODE = re.compile(r"[0-7]{1,4}")
_UNSAFE = ((0o4000, "set-user-ID"), (0o2000, "set-group-ID"), (0o1000, "sticky"), (0o002, "writable by anyone"))


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
        """The manifest in data; ValueError (with a message a GM can act on) when it is not one,
        or when it asks for what gm never writes (see the module's docstring)."""
        raw = _parsed(data)
        try:
            files = tuple(_kept_file(f) for f in raw["files"])
            folders = tuple(_kept_folder(entry) for entry in raw["folders"])
            manifest = cls(
                str(raw["made"]),
                str(raw["gm_version"]),
                str(raw["source"]),
                tuple(raw["migrations"]),
                folders,
                files,
                tuple(raw["skipped"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"its manifest is incomplete ({type(exc).__name__}: {exc})") from None
        _check_layout(manifest)
        return manifest


def kept_mode(path: str, mode: int, folder: bool) -> int:
    """The permission bits gm writes for a file or folder of the home: 0600 or 0644 (0700 or
    0755 for a folder), by whether others than the GM may read it; never set-ID, sticky,
    writable by others or executable. gm's own secrets are always 0600."""
    if folder:
        return 0o755 if mode & 0o055 else 0o700
    return 0o644 if mode & 0o044 and path not in PRIVATE else 0o600


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


def _parsed(data: bytes) -> JSONObject:
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"its manifest is not JSON ({exc})") from None
    except RecursionError:
        raise ValueError("its manifest is nested deeper than JSON gm writes") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError("its manifest is not a gm backup's")
    if raw.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"it is a gm backup of format {raw.get('version')}, which this gm does not read; restore it with a newer gm"
        )
    return raw


def _kept_file(entry: Any) -> KeptFile:
    # entry: whatever the manifest lists; one that is no object with these keys raises the
    # KeyError or TypeError that from_json turns into "incomplete".
    path, size, sha256 = _path(entry["path"]), entry["size"], entry["sha256"]
    if type(size) is not int or size < 0:
        raise ValueError(f"its manifest gives {path} a size that is no size ({str(size)[:20]})")
    if not isinstance(sha256, str) or not _SHA256.fullmatch(sha256):
        raise ValueError(f"its manifest gives {path} a SHA-256 that is no SHA-256")
    return KeptFile(path, size, sha256, _mode(path, entry["mode"]))


def _kept_folder(entry: object) -> tuple[str, int]:
    if not isinstance(entry, list) or len(entry) != 2:
        raise ValueError("its manifest lists a folder that is not a path and a mode")
    path = _path(entry[0])
    return path, _mode("the home itself" if path == "." else path, entry[1])


def _path(path: object) -> str:
    if not isinstance(path, str) or not path.isprintable() or not safe_path(path):
        shown = path if isinstance(path, str) and path.isprintable() else ascii(path)
        raise ValueError(f"its manifest names a path outside the home or no path at all ({shown[:80]})")
    return path


def _mode(path: str, mode: object) -> int:
    if not isinstance(mode, str) or not _MODE.fullmatch(mode):
        raise ValueError(f"its manifest gives {path} a mode that is no mode ({str(mode)[:20]})")
    bits = int(mode, 8)
    unsafe = [name for bit, name in _UNSAFE if bits & bit]
    if unsafe:
        raise ValueError(
            f"its manifest gives {path} mode {mode} ({', '.join(unsafe)}), which gm never writes: the backup was "
            "changed after it was made"
        )
    return bits


def _check_layout(manifest: Manifest) -> None:
    """Every path once, as a file or a folder; every file and folder inside a folder the
    manifest lists, the home itself among them."""
    folders = [path for path, _ in manifest.folders]
    paths = folders + [f.path for f in manifest.files]
    seen: set[str] = set()
    for path in paths:
        if path in seen:
            raise ValueError(f"its manifest lists {path} twice")
        seen.add(path)
    if "." not in seen:
        raise ValueError("its manifest does not list the home itself")
    listed = set(folders)
    for path in paths:
        parent = str(PurePosixPath(path).parent)
        if path != "." and parent not in listed:
            raise ValueError(f"its manifest lists {path}, but not the folder {parent} it is in")
