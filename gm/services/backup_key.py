"""The key that signs gm's backups, and the signature: an HMAC-SHA256 of the backup's manifest.

The manifest holds every file's SHA-256, so its signature stands for the whole backup: whoever
changes a ledger row (and its running balances, and the manifest's hashes) cannot
sign the result without the key. The key is kept outside every home, so no backup carries it:
by default in the GM's own config folder, $XDG_CONFIG_HOME/gm/backup.key (~/.config/gm/...),
made on the first `gm backup`, readable by the GM only. Not in the home (even left out of its
backups): a restore is for the day the home is lost, and the key would be lost with it. A
restore on another machine needs a copy of the key there (or --key FILE); keep that copy apart
from the backups, as you keep the GM's other secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from gm.errors import GMError

SIGNATURE = "manifest.sig"  # the tar member beside manifest.json
KEY_ENV = "GM_BACKUP_KEY"  # the key file, instead of the default below (a cron job, a second GM)
SIGNATURE_MOST = 1000  # bytes: a signature gm writes is 78; a larger member is refused unread
_KEY = re.compile(r"[0-9a-f]{64}")
_SIGNED = re.compile(r"hmac-sha256 ([0-9a-f]{64})\n?")


def default_key_path() -> Path:
    """$XDG_CONFIG_HOME/gm/backup.key, or ~/.config/gm/backup.key."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config).expanduser() / "gm" / "backup.key"


def key_path(given: Path | None) -> Path:
    """The key file: --key FILE, else $GM_BACKUP_KEY, else the default."""
    chosen = given if given is not None else Path(os.environ[KEY_ENV]) if os.environ.get(KEY_ENV) else None
    return (chosen or default_key_path()).expanduser().resolve()


def key_for_backup(path: Path, home_root: Path) -> tuple[bytes, bool]:
    """(the key, whether it was made now): read it, or make it on the first backup."""
    if path.is_relative_to(home_root):
        raise GMError(
            f"the backup key {path} is inside the home {home_root}: every backup would carry the key that "
            f"signs it. Keep it outside the home (by default {default_key_path()}). No backup was written."
        )
    made = False
    if not path.exists():
        made = _make_key(path)
    return read_key(path), made


def read_key(path: Path) -> bytes:
    """The key in `path`; GMError when it is not one gm made."""
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError as exc:
        raise GMError(f"cannot read the backup key {path} ({exc.strerror}). Nothing was changed.") from exc
    if not _KEY.fullmatch(text):
        raise GMError(f"{path} is not a gm backup key (64 hexadecimal digits). Nothing was changed.")
    return bytes.fromhex(text)


def _make_key(path: Path) -> bool:
    """Write a new random key, readable by the GM only; False when another backup made it first."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    spare = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(32) + "\n")
        out.flush()
        os.fsync(out.fileno())
    try:
        os.link(spare, path)  # whole or not at all, and never over a key another backup made meanwhile
    except FileExistsError:
        return False
    finally:
        spare.unlink()
    return True


def sign(key: bytes, manifest: bytes) -> bytes:
    """The signature member's bytes for these manifest bytes."""
    return f"hmac-sha256 {hmac.new(key, manifest, hashlib.sha256).hexdigest()}\n".encode("ascii")


def signed_by(key: bytes, manifest: bytes, signature: bytes) -> bool:
    """Whether `signature` is this key's for these manifest bytes."""
    found = _SIGNED.fullmatch(signature.decode("ascii", errors="replace"))
    wanted = hmac.new(key, manifest, hashlib.sha256).hexdigest()
    return found is not None and hmac.compare_digest(found[1], wanted)
