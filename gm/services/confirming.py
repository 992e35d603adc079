"""A CONFIRM mail: the code of a request by mail (a new address, a resignation, erasure, an
export) or of a sign-up."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import Letter
from gm.services import people, person_export
from gm.services.erasure import FORGET_CONFIRMED, refuse_while_playing
from gm.services.signups import take_confirm
from gm.store import people as people_store
from gm.store.database import atomic
from gm.store.people import Request


def confirm(
    db: sqlite_utils.Database, home: Home, clock: Clock, letter: Letter, code: str | None, problem: str | None
) -> dict[str, Any]:
    """Act on a CONFIRM line inside the caller's transaction: the request by mail waiting for that
    code from the sender is done; else the sign-up waiting for it counts. The result for the
    answer; a wrong code changes nothing but the count of wrong codes (people.wrong_code)."""
    sender = letter.sender or ""
    try:
        request = people.waiting_request(db, clock, sender, code) if code and not problem else None
    except GMError as exc:
        return _not_done(str(exc))
    if request is None:
        signed = take_confirm(db, home, clock, letter, code, problem)
        wrong = None if signed["taken"] or problem else people.wrong_code(db, clock, sender)
        return signed if wrong is None else _not_done(wrong)
    try:
        with atomic(db):
            note = _carry_out(db, home, clock, request)
    except GMError as exc:
        return _not_done(str(exc))
    return {"verdict": "signup", "taken": True, "request": f"{request.kind} of {request.confirm_from}", "note": note}


def _carry_out(db: sqlite_utils.Database, home: Home, clock: Clock, request: Request) -> str:
    """Do what a confirmed request asked (in the caller's transaction); the answer's sentence.
    FORGET ME is done once this answer has gone (erasure.forget_asked, after gm mail send), so
    that gm's last mail to the person can still reach them."""
    if request.kind == "export":
        done = person_export.mail_export(db, home, clock, request.account_id)
    elif request.kind == "forget":
        refuse_while_playing(db, people_store.person_by_id(db, request.account_id), by_mail=True)
        people_store.settle(db, request.id, iso(clock.now()), FORGET_CONFIRMED)
        return (
            "Confirmed: gm forgets you as soon as this mail has gone. Your name and address become a "
            "pseudonym everywhere and the mails you sent leave its archive; the orders you played and "
            "the ledger's amounts stay, so every game still replays and the books balance. This is "
            "the last mail gm sends you."
        )
    else:
        return people.carry_out(db, home, clock, request)
    people_store.settle(db, request.id, iso(clock.now()), "done")
    return done


def _not_done(reason: str) -> dict[str, Any]:
    return {
        "verdict": "signup",
        "taken": False,
        "request": "",
        "note": f"NOT DONE: your confirmation: {reason.rstrip('.')}.\nNothing changed. Write {people.CONFIRM_HOW}.",
    }
