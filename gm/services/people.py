"""A person across games: their address changed (by the GM, or by mail confirmed from the new
address), and the requests by mail that wait for a code (a new address, a resignation, an
export, erasure: the last two are done in gm/services/confirming.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.schedule import describe
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.seat_secrets import new_secret
from gm.services import seats
from gm.services.games import check_player
from gm.services.signups import CODE_GROUPS, code_hash
from gm.store import outbox, people, records
from gm.store.database import atomic
from gm.store.people import Person, Request

# A code mailed for a request by mail counts this long (docs/people.md).
CODE_HOURS = 24
# Wrong codes sent from the address a request waits on before every request waiting there lapses.
MOST_WRONG_CODES = 5
# Requests by mail one player may make in CODE_HOURS: each mails a code, so a secret cannot be
# used to flood an address (a new one, above all) with them.
MOST_REQUESTS = 5
CONFIRM_HOW = "CONFIRM and the code, on a line of its own, in a mail from the address gm sent the code to"


@dataclass(frozen=True)
class Asked:
    """A request by mail waiting for its code: what it asks (in words), the address the code went
    to and until when it counts (in words)."""

    what: str
    to: str
    until: str

    def note(self) -> str:
        return (
            f"Asked: {self.what}. Nothing has changed yet: gm mailed a code to {self.to}. Answer that mail "
            f"from {self.to} with the line CONFIRM and the code, by {self.until}."
        )


def find_person(db: sqlite_utils.Database, email: str) -> Person:
    found = people.person(db, email.strip())
    if found is None:
        raise GMError(f"no player has the address '{email}'. Check it: 'gm game show GAME' lists each seat's player.")
    return found


def current_address(db: sqlite_utils.Database, email: str) -> str:
    """The address gm has now for whoever had `email` (itself when it never changed)."""
    email = email.strip()
    return email if people.person(db, email) is not None else people.address_now(db, email) or email


def change_address(db: sqlite_utils.Database, clock: Clock, old: str, new: str, by: str = "gm") -> Person:
    """The account at `old` is at `new` from now: every seat, the books, the portal and mail not
    yet sent follow; the history keeps the change. A refusal changes nothing."""
    with atomic(db):
        person = find_person(db, old)
        address = _new_address(db, person, new)
        now = iso(clock.now())
        people.set_address(db, person.id, address, person.email, now, by)
        people.follow_address(db, person.email, address)
        records.audit(db, now, None, "address changed", {"old": person.email, "new": address, "by": by})
    return Person(person.id, address, person.name, person.created)


def _new_address(db: sqlite_utils.Database, person: Person, new: str, taken_refused: bool = True) -> str:
    """The new address, checked; taken_refused=False leaves out whether another player has it
    (ADDRESS by mail: its answer must not say who plays here; the change refuses it when confirmed)."""
    address, _ = check_player(new, "player")  # the address only: a name kept before checks changed still moves
    if address.lower() == person.email.lower():
        raise GMError(f"{person.name} has the address {person.email} already.")
    if taken_refused and people.person(db, address) is not None:
        raise GMError(f"the address {address} is another player's. Each player has an address of their own.")
    return address


def ask(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    person: Person,
    kind: str,
    detail: dict[str, Any],
    what: str,
    proved: bool = True,
) -> Asked:
    """Record a request waiting for its code and mail the code (kept only as its hash) to the
    address that must confirm it: the new address for a change of address, else the person's.
    proved: asked with a seat's secret. A request asked by the From address alone (unproved),
    which anyone can forge, counts against every request of the person; one asked with the
    secret only against those asked with it, so forged mail cannot use up the player's."""
    to = detail.get("new", person.email)
    now = clock.now()
    if not proved:
        detail = {**detail, "unproved": True}
    since = iso(now - timedelta(hours=CODE_HOURS))
    if people.requests_since(db, person.id, since, proved) >= MOST_REQUESTS:
        raise GMError(
            f"{person.name} has made {MOST_REQUESTS} requests by mail in the last {CODE_HOURS} hours, "
            "each with a code mailed; ask again later, or ask the game master"
        )
    code, until = new_secret(CODE_GROUPS), now + timedelta(hours=CODE_HOURS)
    people.add_request(db, person.id, kind, to, detail, code_hash(code), iso(until), iso(now))
    context = {
        "email": to,
        "what": what,
        "code": code,
        "until": describe(until, "UTC"),
        "hours": CODE_HOURS,
        "tries": MOST_WRONG_CODES,
    }
    _notice(db, home, clock, to, person.name, "person_code.txt", context)
    return Asked(what, to, describe(until, "UTC"))


def ask_address(db: sqlite_utils.Database, home: Home, clock: Clock, email: str, new: str) -> Asked:
    """ADDRESS by mail: checked as the GM's change is, then waiting for the code sent to `new`.
    An address another player has is answered as any other (D-ALL-5: a player must not find out
    who plays here by asking): the code goes there, and only its holder, confirming, is refused."""
    person = find_person(db, email)
    address = _new_address(db, person, new, taken_refused=False)
    return ask(db, home, clock, person, "address", {"new": address}, f"the address {person.email} becomes {address}")


def waiting_request(db: sqlite_utils.Database, clock: Clock, sender: str, code: str) -> Request | None:
    """The request waiting for this code from this address, or None when no request ever had it;
    a GMError when it had and it is done, lapsed or refused."""
    found = people.request_with_code(db, sender, code_hash(code))
    if found is None:
        return None
    if found.outcome is not None:
        raise GMError(f"that code counts no more: its request is {_SETTLED.get(found.outcome, found.outcome)}")
    if found.expires <= iso(clock.now()):
        raise GMError(f"that code has lapsed ({CODE_HOURS} hours after gm sent it); ask again for a new code")
    return found


_SETTLED = {
    "done": "done already",
    "superseded": "replaced by a later one (use the code of the newest mail)",
    "too many wrong codes": f"lapsed after {MOST_WRONG_CODES} wrong codes; ask again for a new code",
}


def wrong_code(db: sqlite_utils.Database, clock: Clock, sender: str) -> str | None:
    """A wrong code from an address a request waits on: counted against every request waiting
    there, the MOST_WRONG_CODES-th lapses those asked by the From address alone; why nothing
    changed. None: no request waits there.

    A request asked with the seat's secret does not lapse: anyone can write the address in a
    From, and five wrong codes forged from it lapsed the player's request, again each time they
    asked, until their requests for the day were spent; its code (about 79 bits) needs no lapse
    to stay unguessed."""
    now = iso(clock.now())
    waiting = people.open_requests(db, sender)
    if not waiting:
        return None
    people.count_wrong_code(db, [r.id for r in waiting])
    lapsing = [r for r in waiting if r.detail.get("unproved")]
    if lapsing and max(r.tries for r in lapsing) + 1 >= MOST_WRONG_CODES:
        for request in lapsing:
            people.settle(db, request.id, now, "too many wrong codes")
        return (
            f"that is wrong code number {MOST_WRONG_CODES} from {sender}: every request waiting for a code "
            "there that was asked without the seat's secret has lapsed, and nothing changed; ask again "
            "for a new code"
        )
    return f"that code is not the one gm sent to {sender}, or it has lapsed ({CODE_HOURS} hours after it was sent)"


def carry_out(db: sqlite_utils.Database, home: Home, clock: Clock, request: Request) -> str:
    """Do what a confirmed ADDRESS or RESIGN asked, in the caller's transaction; the sentence for
    the answer (FORGET ME and EXPORT: gm/services/confirming.py)."""
    now = iso(clock.now())
    person = people.person_by_id(db, request.account_id)
    if request.kind == "address":
        moved = change_address(db, clock, person.email, request.detail["new"], by="mail")
        _tell_old_address(db, home, clock, person, moved.email)
        done = f"Done: the address of {moved.name} is {moved.email} now, in every game, the books and the portal."
    else:
        done = _resign(db, clock, request)
    people.settle(db, request.id, now, "done")
    return done


def _tell_old_address(db: sqlite_utils.Database, home: Home, clock: Clock, person: Person, new: str) -> None:
    """A change by mail is told at the old address too: whoever had the secret asked for it, and
    the player at the old address must hear of it if it was not them."""
    _notice(db, home, clock, person.email, person.name, "address_changed.txt", {"old": person.email, "new": new})


def _notice(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    to: str,
    name: str,
    template: str,
    context: dict[str, Any],
) -> None:
    """Queue a notice (kind 'notice', of no game) to a person, written from a mail template."""
    settings = mail_settings(home)
    written = write_mail(
        mail_environment(home.templates), template, {"name": name, "gm_name": settings.name, **context}
    )
    outbox.queue(
        db,
        clock.now(),
        kind="notice",
        recipient=to,
        recipient_name=name,
        subject=written.subject,
        body=written.body,
        domain=settings.domain,
    )


def _resign(db: sqlite_utils.Database, clock: Clock, request: Request) -> str:
    game, seat = seats.leaving(db, request.detail["game"], request.detail["seat"])
    seats.leave(db, game, seat, "resigned", False, iso(clock.now()), "resigned by mail")
    return (
        f"Done: you resigned seat {seat.code} of {game.name}. From the next turn a standby takes it over if one "
        "waits, else the robot plays it; your discount stays yours."
    )
