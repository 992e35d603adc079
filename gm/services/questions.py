"""Questions for the GM: mail a person wrote without a turn file, kept until the GM answers it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import read_letter
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.render.environment import when
from gm.services.acknowledgements import reply_subject
from gm.store import mail_taken, outbox, records
from gm.store.archive import archived_path
from gm.store.database import atomic, transaction


@dataclass(frozen=True)
class Question:
    """A question in the GM's list.

    id: the number gm inbox answered takes (the mail's row in mail_taken).
    received: when gm took the mail (UTC ISO). sender, name: its From address and display name.
    subject: its subject. text: what the person wrote, as gm read it (every text part).
    answered: when the GM marked it answered, None while it waits.
    answer_to: where an answer goes (Reply-To, else From), None when the mail has no usable one.
    message_id, references: what an answer lists in In-Reply-To and References, so it threads.
    """

    id: int
    received: str
    sender: str | None
    name: str
    subject: str
    text: str
    answered: str | None
    answer_to: str | None = None
    message_id: str | None = None
    references: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def answered_elsewhere(self) -> bool:
        """True when an answer goes to another address than the From the GM reads (the mail's
        Reply-To): anyone can write a player's From and their own Reply-To, so the GM is told."""
        return self.answer_to is not None and self.answer_to.lower() != (self.sender or "").lower()


def questions(
    db: sqlite_utils.Database, home: Home, every: bool = False, most: int = -1, players_first: bool = False
) -> list[Question]:
    """The questions waiting for the GM, oldest first (every=True: the answered ones too); the
    first `most` of them (-1: all); players_first: those from addresses that hold or held a seat
    or confirmed a sign-up before the strangers'. Each is read again from its mail in the archive."""
    return [_question(home, *row) for row in mail_taken.questions(db, every, most, players_first)]


def count(db: sqlite_utils.Database, every: bool = False) -> int:
    """How many questions questions() gives, without reading a mail: a flood of 5,000 made the
    GM's page read all 5,000 mails to count them."""
    return mail_taken.count_questions(db, every)


def question(db: sqlite_utils.Database, home: Home, number: int) -> Question | None:
    """Question `number`, answered or not, with its own mail read from the archive and no other
    (a flood of 5,000 questions made marking each answered read all 5,000 mails again: 0.8 CPU-s
    a question, an hour to clear them); None when there is no such question."""
    row = mail_taken.question(db, number)
    return _question(home, *row) if row is not None else None


def mark_answered(db: sqlite_utils.Database, home: Home, clock: Clock, number: int, how: str = "elsewhere") -> Question:
    """The GM answered question `number` (how: "elsewhere", by hand outside gm, or "by mail",
    through gm): it leaves the waiting list, and the audit log says so."""
    return _mark(db, clock, _asked(db, home, number), how)


def _mark(db: sqlite_utils.Database, clock: Clock, question: Question, how: str) -> Question:
    with atomic(db):
        mail_taken.mark_answered(db, question.id, iso(clock.now()))
        records.audit(
            db,
            iso(clock.now()),
            None,
            "question answered",
            {"question": question.id, "from": question.sender, "how": how},
        )
    return question


def reply(db: sqlite_utils.Database, home: Home, clock: Clock, number: int, text: str) -> Question:
    """Answer question `number` by mail through gm (templates/mail/answer.txt: the GM's text, then
    their mail quoted), threaded under it, and mark it answered; one transaction."""
    text = "\n".join(line.rstrip() for line in text.strip().splitlines())
    if not text:
        raise GMError("the answer is empty. Write what to tell them, then send it.")
    question = _asked(db, home, number)
    if question.answer_to is None:
        raise GMError(f"question {number} came without an address to answer to. Mark it answered instead.")
    settings = mail_settings(home)
    if not settings.address:
        raise GMError(
            "answers go by mail, and gm.toml names no [mail] address. Set one (see docs/mail.md), then answer again."
        )
    written = write_mail(
        mail_environment(home.templates),
        "answer.txt",
        {
            "reply_subject": reply_subject(question.subject),
            "name": question.name,
            "answer": text,
            "received": when(question.received),
            "quoted": question.text,
            "gm_name": settings.name,
        },
    )
    with transaction(db):
        outbox.queue(
            db,
            clock.now(),
            kind="notice",
            recipient=question.answer_to,
            recipient_name=question.name,
            subject=written.subject,
            body=written.body,
            domain=settings.domain,
            in_reply_to=question.message_id,
            references=question.references,
        )
        return _mark(db, clock, question, how="by mail")


def _asked(db: sqlite_utils.Database, home: Home, number: int) -> Question:
    found = question(db, home, number)
    if found is None:
        raise GMError(f"there is no question {number}. See them with 'gm inbox questions --all'.")
    return found


def _question(
    home: Home, number: int, received: str, sender: str | None, subject: str, digest: str, answered: str | None
) -> Question:
    # The archive keeps the raw mail; what it says is read from there, as intake read it.
    try:
        letter = read_letter(archived_path(home.archive, digest).read_bytes())
    except OSError:
        return Question(number, received, sender, "", subject, "(the archived mail is missing)", answered)
    name = letter.answer_to.display_name if letter.answer_to else ""
    text = "\n\n".join(t.text.strip() for t in letter.texts if t.text.strip())
    return Question(
        number,
        received,
        sender,
        " ".join(name.split()),
        subject,
        text,
        answered,
        letter.answer_to.addr_spec.lower() if letter.answer_to else None,
        letter.message_id,
        tuple(letter.references),
    )
