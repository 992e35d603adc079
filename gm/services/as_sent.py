"""A submission as its player knows it: how it came (by mail, uploaded, typed in the portal...),
what it was called (the mail's subject and the part that held it, the file's name) and its size,
for the portal's "What you sent". Never gm's own names for it: the archive's keys, where the mail
was read from, or the paths of the GM's files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from gm.store import mail_taken
from gm.store.archive import archived_path, noted_path
from gm.store.submissions import Version

# How the portal names what it sent (gm/web/player.py): its source, and the source's end when
# the seat signed in with a one-time link rather than its secret.
_PORTAL = {"portal form": "typed or pasted in the portal", "portal final": "marked final in the portal"}
_UPLOAD = "portal upload "
_BY_LINK = " (signed in by link)"


@dataclass(frozen=True)
class AsSent:
    """how: the way it reached gm, in words ("by mail", "uploaded to the portal"); name: what
    the player called it ("“Orders”, attachment br.txt", "br.txt"), "" when it had no name of its
    own (typed in the portal, entered by the GM); size: its bytes as gm keeps them (the turn
    file alone, GAME to END, for a mail), None when gm no longer knows it."""

    how: str
    name: str
    size: int | None


def as_sent(db: sqlite_utils.Database, archive: Path, version: Version) -> AsSent:
    """The submission `version` as its player knows it."""
    how, name = _mail(db, version.source) if version.channel == "mail" else _how(version.channel, version.source)
    return AsSent(how, name, _size(archive, version.archive))


def _mail(db: sqlite_utils.Database, source: str) -> tuple[str, str]:
    """Intake names a mail's turn files "mail:<the message's archive key>:<n>"."""
    _, digest, number = source.split(":", 2)
    taken = mail_taken.turn_file_taken(db, digest, int(number)) if number.isdigit() else None
    if taken is None:  # its mail_taken row comes after the submission: a crash in between leaves none
        return "by mail", ""
    subject, where = taken
    part = "in the mail's text" if where == "body" else (where or "")
    return "by mail", ", ".join(p for p in (f"“{subject}”" if subject else "(no subject)", part) if p)


def _how(channel: str, source: str) -> tuple[str, str]:
    if channel == "web":
        plain = source.removesuffix(_BY_LINK)
        if plain.startswith(_UPLOAD):
            how, name = "uploaded to the portal", plain[len(_UPLOAD) :]
        else:
            how, name = _PORTAL.get(plain, "in the portal"), ""
        return how + (", signed in by link" if plain != source else ""), name
    # `gm submit` and a re-run's corrections: the GM's own files, named by paths on the GM's machine.
    words = {"file": "entered by your GM", "gm": "corrected by your GM", "postal": "typed in by your GM"}
    return words.get(channel, channel), ""


def _size(archive: Path, digest: str) -> int | None:
    """The archived bytes' size, or the one their note keeps once `gm archive prune` took them."""
    try:
        return archived_path(archive, digest).stat().st_size
    except OSError:
        pass
    try:
        size = json.loads(noted_path(archive, digest).read_text(encoding="utf-8")).get("size")
    except (OSError, ValueError, AttributeError):
        return None
    return size if isinstance(size, int) else None
