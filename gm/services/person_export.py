"""gm person export: everything gm holds of one person, as one zip: their mails as they came,
their turn files and the orders read from them, their reports and their ledger rows."""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import sqlite_utils

from gm.clock import Clock
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.services import people
from gm.services.credits import export_csv
from gm.store import outbox, people as people_store
from gm.store.archive import archived_path
from gm.store.erasure import addresses_of
from gm.store.people import Person, Tenure

# An export asked for by mail is attached up to this many bytes ([mail] max_attachment_bytes).
MAX_ATTACHMENT_BYTES = 5_000_000
# Every member of the zip gets this time, so the same holdings make the same bytes.
_STAMP = (2000, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Export:
    """A person's export: the zip's bytes and how many mails, turn files, reports and ledger
    rows it holds."""

    data: bytes
    mails: int
    turn_files: int
    reports: int
    ledger_rows: int


def export(db: sqlite_utils.Database, home: Home, email: str) -> Export:
    """Everything gm holds of the person at `email` (or who had it once), as one zip."""
    person = people.find_person(db, people.current_address(db, email))
    tenures = people_store.tenures(db, person.id)
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        mails = _mails(db, home, archive, addresses_of(db, person.id))
        turn_files, orders = _turn_files(db, home, archive, tenures)
        reports = _reports(db, home, archive, tenures)
        ledger = export_csv(db, person.email)
        _put(archive, "ledger.csv", ledger.encode("utf-8"))
        _put(archive, "orders.json", _json(orders))
        _put(archive, "person.json", _json(_about(db, person, tenures)))
    rows = ledger.count("\r\n") - 1
    return Export(buffer.getvalue(), mails, turn_files, reports, rows)


def mail_export(db: sqlite_utils.Database, home: Home, clock: Clock, account_id: int) -> str:
    """EXPORT by mail, confirmed: the zip attached to a mail of its own to the person, when it is
    at most [mail] max_attachment_bytes; else the answer says to ask the GM. The sentence for
    the answer. The zip waits in outbox/exports/ for the mail (gm person forget removes it)."""
    person = people_store.person_by_id(db, account_id)
    made = export(db, home, person.email)
    limit = home.setting("mail", "max_attachment_bytes", MAX_ATTACHMENT_BYTES)
    if len(made.data) > limit:
        return (
            f"Your export is {len(made.data):,} bytes, more than gm mails ({limit:,} bytes at most): "
            "ask the game master for it (gm person export). Nothing was sent."
        )
    digest = hashlib.sha256(made.data).hexdigest()
    path = export_folder(home) / f"player-{account_id}-{digest[:16]}.zip"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(made.data)
    settings = mail_settings(home)
    written = write_mail(
        mail_environment(home.templates),
        "export.txt",
        {
            "name": person.name,
            "mails": made.mails,
            "turn_files": made.turn_files,
            "reports": made.reports,
            "ledger_rows": made.ledger_rows,
            "gm_name": settings.name,
        },
    )
    attachment = {
        "path": str(path.relative_to(home.root)),
        "filename": "gm-export.zip",
        "type": "application/zip",
        "sha256": digest,
    }
    outbox.queue(
        db,
        clock.now(),
        kind="notice",
        recipient=person.email,
        recipient_name=person.name,
        subject=written.subject,
        body=written.body,
        domain=settings.domain,
        attachments=[attachment],
    )
    return f"Done: everything gm holds of you comes as one zip ({len(made.data):,} bytes) in a mail of its own."


def export_folder(home: Home) -> Path:
    """Where the zips mailed to players wait for their mail: outbox/exports/ of the home."""
    return home.outbox / "exports"


def _about(db: sqlite_utils.Database, person: Person, tenures: list[Tenure]) -> dict[str, Any]:
    return {
        "name": person.name,
        "email": person.email,
        "since": person.created,
        "seats": [
            {"game": t.game, "seat": t.code, "from_turn": t.from_turn, "until_turn": t.until_turn} for t in tenures
        ],
        "address_changes": [
            {"old": c.old_email, "new": c.new_email, "at": c.at, "by": c.by}
            for c in people_store.address_history(db, person.id)
        ],
    }


def _mails(db: sqlite_utils.Database, home: Home, archive: zipfile.ZipFile, addresses: list[str]) -> int:
    """Every mail taken from one of the addresses, as it came (mails/), when the archive keeps it."""
    count = 0
    for digest, received, _, _ in people_store.mails_from(db, addresses):
        raw = _archived(home, digest)
        if raw is not None:
            _put(archive, f"mails/{received[:10]}-{digest[:12]}.eml", raw)
            count += 1
    return count


def _turn_files(
    db: sqlite_utils.Database, home: Home, archive: zipfile.ZipFile, tenures: list[Tenure]
) -> tuple[int, list[dict[str, Any]]]:
    """Every turn file stored for the person's seats (turn-files/) and what gm read in each."""
    count, orders = 0, []
    for tenure in tenures:
        for row in people_store.submissions_of(db, tenure):
            name = f"turn-files/{tenure.game}-{tenure.code}-turn{row['turn']}-{row['id']}.txt"
            raw = _archived(home, row["archive"])
            if raw is not None:
                _put(archive, name, raw)
                count += 1
            orders.append(
                {
                    "game": tenure.game,
                    "seat": tenure.code,
                    "turn": row["turn"],
                    "received": row["received"],
                    "channel": row["channel"],
                    "verdict": row["verdict"],
                    "counts": bool(row["current"]),
                    "final": bool(row["final"]),
                    "orders": json.loads(row["orders"]),
                    "problems": json.loads(row["problems"]),
                    "file": name if raw is not None else None,
                }
            )
    return count, orders


def _reports(db: sqlite_utils.Database, home: Home, archive: zipfile.ZipFile, tenures: list[Tenure]) -> int:
    """The reports of the turns the person played each seat (reports/), PDF and JSON."""
    count = 0
    for tenure in tenures:
        for turn, *files in people_store.reports_of(db, tenure):
            for relative in files:
                path = home.root / relative
                if path.is_file():
                    name = f"reports/{tenure.game}/turn{turn}-{Path(relative).name}"
                    _put(archive, name, path.read_bytes())
                    count += 1
    return count


def _archived(home: Home, digest: str) -> bytes | None:
    path = archived_path(home.archive, digest)
    return path.read_bytes() if path.is_file() else None


def _put(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    member = zipfile.ZipInfo(name, _STAMP)
    member.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(member, data)


def _json(value: object) -> bytes:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8")
