"""Questions for the GM: mail a person wrote without a turn file, kept until the GM answers it."""
from __future__ import annotations

from dataclasses import asdict, dataclass

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import read_letter
from gm.store import mail_taken
from gm.store.archive import archived_path
from gm.store.database import transaction


@dataclass(frozen=True)
class Question:
    """A question in the GM's list.

    id: the number gm inbox answered takes (the mail's row in mail_taken).
    received: when gm took the mail (UTC ISO). sender, name: its From address and display name.
    subject: its subject. text: what the person wrote, as gm read it (every text part).
    answered: when the GM marked it answered, None while it waits.
    """

    id: int
    received: str
    sender: str | None
    name: str
    subject: str
    text: str
    answered: str | None

    def to_json(self) -> dict:
        return asdict(self)


def questions(db: sqlite_utils.Database, home: Home, every: bool = False) -> list[Question]:
    """The questions waiting for the GM, oldest first (every=True: the answered ones too)."""
    return [_question(home, *row) for row in mail_taken.questions(db, every)]


def mark_answered(db: sqlite_utils.Database, home: Home, clock: Clock, number: int) -> Question:
    """The GM answered question `number` (by hand, outside gm): it leaves the waiting list."""
    with transaction(db):
        changed = mail_taken.mark_answered(db, number, iso(clock.now()))
    if not changed:
        raise GMError(f"there is no question {number}. See them with 'gm inbox questions --all'.")
    return next(q for q in questions(db, home, every=True) if q.id == number)


def _question(home: Home, number, received, sender, subject, digest, answered) -> Question:
    # The archive keeps the raw mail; what it says is read from there, as intake read it.
    try:
        letter = read_letter(archived_path(home.archive, digest).read_bytes())
    except OSError:
        return Question(number, received, sender, "", subject, "(the archived mail is missing)", answered)
    name = letter.answer_to.display_name if letter.answer_to else ""
    text = "\n\n".join(t.text.strip() for t in letter.texts if t.text.strip())
    return Question(number, received, sender, " ".join(name.split()), subject, text, answered)
