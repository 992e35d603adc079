"""Acknowledgements: the answer to each mail taken, saying what each of its turn files came to
(accepted, rejected, refused, a request done), a report sent again, or that a question went to the GM."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from email.headerregistry import Address
from typing import Any, TypedDict

import jinja2
import sqlite_utils

from gm.clock import Clock
from gm.core import agreement
from gm.core.envelope import Envelope
from gm.core.model import JSONObject, Order, Problem
from gm.core.ruleset import Ruleset
from gm.errors import GMError
from gm.home import Home
from gm.intake.finding import TurnFile
from gm.intake.letter import Letter
from gm.mail.settings import MailSettings
from gm.mail.templates import Written, write_mail
from gm.rulesets import get_ruleset
from gm.services import report_mails, turnfiles, votes
from gm.services.press import PressResult
from gm.services.signups import CONFIRM_HOURS, Confirmation
from gm.store import outbox, records
from gm.store.games import id_of_game
from gm.store.submissions import stored_submission

# What one turn file of a mail came to (or the mail itself, refused whole): its verdict and what
# the acknowledgement says of it (the keys of _SHOWN), kept with the mail (mail_taken) as JSON.
Result = dict[str, Any]


class SeatsIn(TypedDict):
    """How many of the game's active seats have orders that count (count), of how many (of),
    and how many of those are marked FINAL (final)."""

    count: int
    of: int
    final: int


class Unread(TypedDict):
    """A mail with more turn files than gm reads: how many it holds (found), how many gm reads
    (most), how many it left (left); numbers as the answer writes them."""

    found: str
    most: int
    left: str


class Threading(TypedDict):
    """What puts an answer in the thread of the mail it answers."""

    in_reply_to: str | None
    references: tuple[str, ...]


class About(TypedDict, total=False):
    """The game, seat and turn an answer is filed under in the outbox, when it is about one."""

    game_id: int
    seat: str
    turn: int


# Every key an acknowledgement template may use, so a GM's template never meets a missing one.
_SHOWN: Result = {
    "where": "",
    "verdict": "",
    "reason": "",
    "game": None,
    "seat": None,
    "turn": None,
    "final": False,
    "replaced": False,
    "deadline": None,
    "orders": [],
    "problems": [],
    "earlier": False,
    "note": "",
    "warnings": [],
    "seats_in": None,
    "press": [],
    "vote": None,
}


def shown(result: Result) -> Result:
    """A result with every key an acknowledgement template may use (_SHOWN's defaults)."""
    return dict(_SHOWN, **result)


# Verdicts given only after a seat's secret was checked and right (with the seat named).
_PROVED = ("accepted", "rejected", "press", "request")


def proves_a_seat(results: Iterable[Result]) -> bool:
    """Whether a mail's results show it carried a seat's right secret: its answer then goes to the
    player, not to whoever wrote their address in a From (Answerer)."""
    return any(r.get("verdict") in _PROVED and r.get("seat") for r in results)


def refused(where: str, reason: str) -> Result:
    return {"where": where, "verdict": "refused", "reason": reason}


def from_receipt(db: sqlite_utils.Database, receipt: turnfiles.Receipt, found: TurnFile) -> Result:
    """A submitted turn file's result: accepted or rejected with its orders and problems, or
    refused; a file of press only, verdict 'press'; and what became of each press message."""
    checked = receipt.checked
    game, seat = checked.game, checked.seat
    press = {"press": _press(receipt.press, found)} if receipt.press else {}
    if checked.press_only and seat is not None:
        assert game is not None, "a seat is looked for only in a game found (turnfiles.check_turn_file)"
        return {
            "where": found.where,
            "verdict": "press",
            "game": game.name,
            "seat": seat.code,
            "turn": game.turn,
            **press,
        }
    if checked.refusal is not None:
        refusal = turnfiles.refusal_at(checked, lambda p: Problem(found.sent_line(p.line), p.message))
        return dict(refused(found.where, refusal or checked.refusal), **press)
    assert game is not None and seat is not None, "a file not refused was checked against its game and seat"
    ruleset = get_ruleset(game.ruleset).for_game(game.name)
    sent = found.text.split("\n")  # once: a file of 80,000 mistaken lines is read once, not once a mistake
    result: Result = {
        "where": found.where,
        "verdict": "accepted" if checked.accepted else "rejected",
        "game": game.name,
        "seat": seat.code,
        "turn": game.turn,
        "final": checked.final,
        "replaced": receipt.replaced,
        "deadline": game.deadline,
        "orders": [_order(ruleset, o, found) for o in checked.orders],
        "problems": [_problem(p.to_json(), found, sent) for p in checked.problems],
        "warnings": [_problem(w.to_json(), found, sent) for w in checked.warnings],
        "seats_in": seats_in(db, game.id, game.turn),
        "vote": _vote(game, checked),
        **press,
    }
    if not checked.accepted:
        # Whether a valid submission of this seat still counts.
        result["earlier"] = records.has_current_submission(db, game.id, game.turn, seat.id)
    return result


def from_press_sent(press: Iterable[PressResult], found: TurnFile, envelope: Envelope) -> Result:
    """The result of a file of press only that an earlier, interrupted run sent."""
    return {
        "where": found.where,
        "verdict": "press",
        "game": envelope.game,
        "seat": envelope.player,
        "press": _press(press, found),
    }


def from_submission(
    db: sqlite_utils.Database, submission_id: int, found: TurnFile, press: Iterable[PressResult] = ()
) -> Result:
    """The result of a turn file stored by an earlier, interrupted run, read back from its row
    (with the press it sent then)."""
    stored = stored_submission(db, submission_id)
    ruleset = get_ruleset(records.game_by_name(db, stored.game).ruleset).for_game(stored.game)
    sent = found.text.split("\n")
    return {
        "seats_in": seats_in(db, stored.game_id, stored.turn),
        "where": found.where,
        "verdict": stored.verdict,
        "game": stored.game,
        "seat": stored.seat,
        "turn": stored.turn,
        "final": stored.final,
        "replaced": stored.earlier and stored.verdict == "accepted",
        "deadline": stored.deadline,
        "earlier": stored.earlier,
        "orders": [_order(ruleset, Order.from_json(o), found) for o in stored.orders],
        "problems": [_problem(p, found, sent) for p in stored.problems],
        "press": _press(press, found),
    }


def _vote(game: records.GameRecord, checked: turnfiles.Checked) -> str | None:
    """The seat's own vote in words, for a game that takes votes (None for one that takes none)."""
    if all(rule == agreement.OFF for rule in votes.rules_of(game).values()):
        return None
    return checked.vote.words() if checked.vote else "none"


def seats_in(db: sqlite_utils.Database, game_id: int, turn: int) -> SeatsIn:
    """How many of the game's active seats have orders that count for the turn ('in'), of how
    many, and how many of those are marked FINAL: what a player wants to know after sending."""
    count, of, final = records.seats_in(db, game_id, turn)
    return {"count": count, "of": of, "final": final}


# Every line number an acknowledgement gives is the line of what the player sent (the mail's
# body or attachment), as `gm orders check` and the portal give it, not of the turn file cut
# from it at its GAME line.


def _order(ruleset: Ruleset, order: Order, found: TurnFile) -> JSONObject:
    """An order as the game understood it: its line, and the order as the ruleset writes it,
    in the player's words (a line the player could send again)."""
    return {"line": found.sent_line(order.line), "order": ruleset.order_line(order)}


def _problem(problem: JSONObject, found: TurnFile, lines: list[str]) -> JSONObject:
    """A problem of the file as the acknowledgement gives it: its line as sent, and that line's
    text (`lines`: the file's lines, split once by the caller)."""
    line = problem["line"]
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return dict(problem, line=found.sent_line(line), text=text)


def _press(results: Iterable[PressResult], found: TurnFile) -> list[JSONObject]:
    return [dict(shown, line=found.sent_line(shown["line"])) for shown in (r.to_json() for r in results)]


def reply_subject(subject: str) -> str:
    subject = subject.strip() or "your turn file"
    return subject if subject[:3].lower() == "re:" else f"Re: {subject}"


@dataclass
class Answerer:
    """Queues the answer to a mail: an acknowledgement of every result, and reports asked for again.

    Never to a program's mail (the caller does not ask), never to gm's own address, and no more
    than [mail] replies_per_hour to one address, so two robots cannot answer each other for ever;
    and no more than [mail] stranger_replies_per_hour in all to addresses that hold no seat here
    and confirmed no sign-up, so mail from a thousand forged senders does not make gm a reflector
    that answers each of them (players' own addresses are never held up by it).

    An answer to a mail that proved a seat's secret counts only against the answers to such mails:
    to that address in the hour, and to all addresses that hold no seat (the strangers' number
    again, an hour of its own). So mail forged from a player's address, or a flood of strangers,
    cannot keep the player's own acknowledgement back, and a player's Reply-Tos cannot make gm a
    reflector either.
    """

    db: sqlite_utils.Database
    home: Home
    clock: Clock
    settings: MailSettings
    env: jinja2.Environment

    def answer(
        self, letter: Letter, results: list[Result], to_sender: bool = False, unread: Unread | None = None
    ) -> str:
        """Queue the answer (inside the caller's transaction); returns 'outbox <ids>' or why none.
        to_sender: to the From address, never to a Reply-To (what a sign-up's answers need).
        unread: the mail held more turn files than gm reads ({found, most, left}), said on top."""
        proved = proves_a_seat(results)
        to = self._addressee(letter, to_sender, proved)
        if isinstance(to, str):
            return to
        now = self.clock.now()
        address, name = to.addr_spec.lower(), " ".join(to.display_name.split())
        threading = Threading(in_reply_to=letter.message_id, references=letter.references)
        queued: list[int] = []
        for result in results:
            if result.get("resend"):
                queued += self._resend(result.pop("resend"), threading, proved)
        # A report sent again to the address that asked is its own answer; anything else is told.
        told = [shown(r) for r in results if not r.pop("quiet", False)]
        if told or unread:
            written = write_mail(
                self.env,
                "acknowledgement.txt",
                {
                    "reply_subject": reply_subject(letter.subject),
                    "name": name,
                    "results": told,
                    "unread": unread,
                    "gm_name": self.settings.name,
                },
            )
            queued.append(
                outbox.queue(
                    self.db,
                    now,
                    kind="acknowledgement",
                    recipient=address,
                    recipient_name=name,
                    subject=written.subject,
                    body=written.body,
                    domain=self.settings.domain,
                    **threading,
                    **self._about(told),
                    proved=proved,
                )
            )
        return "outbox " + ", ".join(map(str, queued))

    def _about(self, shown: list[Result]) -> About:
        """The game, seat and turn an acknowledgement is about, when all its turn files name the
        same ones (its file in outbox/ is then named g1-3-BR-acknowledgement.eml); else nothing."""
        about = {(r["game"], r["seat"], r["turn"]) for r in shown}
        if len(about) != 1 or None in next(iter(about)):
            return {}
        game, seat, turn = next(iter(about))
        found = id_of_game(self.db, game)
        return {"game_id": found, "seat": seat, "turn": turn} if found is not None else {}

    def answer_confirmation(self, letter: Letter, confirmation: Confirmation) -> str:
        """Ask the address a sign-up names to confirm it (templates/mail/confirm.txt, with the
        code): to the From address only, never to a Reply-To, so whoever forged the From learns
        nothing. Same limits as every answer."""
        to = self._addressee(letter, to_sender=True)
        if isinstance(to, str):
            return to
        name = " ".join(to.display_name.split())
        written = write_mail(
            self.env,
            "confirm.txt",
            {
                "name": name,
                "email": to.addr_spec.lower(),
                "code": confirmation.code,
                "until": confirmation.until,
                "hours": CONFIRM_HOURS,
                "wanted": confirmation.wanted,
                "preferences": list(confirmation.preferences),
                "gm_name": self.settings.name,
            },
        )
        return self._queue_answer(letter, to, name, written)

    def answer_question(self, letter: Letter) -> str:
        """The one polite answer to a person's mail without a turn file (templates/mail/
        question.txt): it has gone to the GM. Same limits as every answer; and none to a mail that
        answers one of gm's own automatic answers: an auto-responder that sets none of the headers
        programs are known by replied to each with another question, and gm answered it, 20 times
        an hour for ever."""
        if letter.parent is not None and outbox.is_answer(self.db, letter.parent):
            return "none: it replies to gm's own answer (an auto-reply, or thanks); it waits for the GM"
        return self._answer_with(letter, "question.txt", {})

    def answer_fault(self, letter: Letter, games: list[str]) -> str:
        """The answer to a mail kept because the ruleset of `games` raised while reading it
        (templates/mail/fault.txt): it could not be processed, the GM has been told, it is read
        again once that is put right. Same limits as every answer."""
        return self._answer_with(letter, "fault.txt", {"games": games})

    def _answer_with(self, letter: Letter, template: str, context: JSONObject) -> str:
        """Queue a one-template answer to the whole mail, in its thread; 'outbox ID' or why none."""
        to = self._addressee(letter, to_sender=False)
        if isinstance(to, str):
            return to
        name = " ".join(to.display_name.split())
        written = write_mail(
            self.env,
            template,
            {
                "reply_subject": reply_subject(letter.subject),
                "subject": letter.subject,
                "name": name,
                "gm_name": self.settings.name,
                **context,
            },
        )
        return self._queue_answer(letter, to, name, written)

    def _queue_answer(self, letter: Letter, to: Address, name: str, written: Written) -> str:
        """Queue a written answer to the whole mail, in its thread; returns 'outbox ID'."""
        queued = outbox.queue(
            self.db,
            self.clock.now(),
            kind="acknowledgement",
            recipient=to.addr_spec.lower(),
            recipient_name=name,
            subject=written.subject,
            body=written.body,
            domain=self.settings.domain,
            in_reply_to=letter.message_id,
            references=letter.references,
        )
        return f"outbox {queued}"

    def _addressee(self, letter: Letter, to_sender: bool, proved: bool = False) -> Address | str:
        """Whom the answer goes to (_recipient), or why the mail gets none ('none: ...')."""
        to = self._recipient(letter, to_sender)
        if to is None:
            return "none: the mail has no usable From address"
        return self._no_answer(to, proved) or to

    @staticmethod
    def _recipient(letter: Letter, to_sender: bool) -> Address | None:
        """Whom an answer goes to: Reply-To else From; with to_sender From alone (its name kept
        only when Reply-To is the same address)."""
        if not to_sender or letter.answer_to is None or letter.answer_to.addr_spec.lower() == letter.sender:
            return letter.answer_to
        return Address(addr_spec=letter.sender) if letter.sender else None

    def _no_answer(self, to: Address, proved: bool = False) -> str | None:
        """Why an answer to this address is not sent ('none: ...'), or None: gm's own address,
        or [mail] replies_per_hour answers to that address in the last hour, or the strangers'
        hour is spent (for a mail that proved a seat's secret, counting answers to such mails only)."""
        address = to.addr_spec.lower()
        if self.settings.address and address == self.settings.address.lower():
            return "none: the mail came from gm's own address"
        hour_ago = self.clock.now() - timedelta(hours=1)
        recent = outbox.answers_since(self.db, address, hour_ago, proved)
        if recent >= self.settings.replies_per_hour:
            mails = " to mails with a seat's secret" if proved else ""
            return f"none: {recent} answers{mails} to {address} in the last hour already"
        if outbox.is_known(self.db, address):
            return None
        strangers = outbox.answers_to_strangers_since(self.db, hour_ago, proved)
        if strangers >= self.settings.stranger_replies_per_hour:
            mails = " to mails with a seat's secret" if proved else ""
            return (
                f"none: {strangers} answers{mails} to addresses that hold no seat here in the last hour already "
                "([mail] stranger_replies_per_hour)"
            )
        return None

    def _resend(self, resend: JSONObject, threading: Threading, proved: bool) -> list[int]:
        game = records.game_by_name(self.db, resend["game"])
        seat = records.seat_by_code(self.db, game, resend["seat"])
        try:
            mail = report_mails.report_mail(self.db, self.home, self.env, game, seat, resend["turn"], again=True)
        except GMError:
            mail = None  # its files are gone (a re-run turn): nothing to send again
        if mail is None:
            return []
        return [
            outbox.queue(
                self.db,
                self.clock.now(),
                kind="resend",
                domain=self.settings.domain,
                proved=proved,
                **mail,
                **threading,
            )
        ]
