"""A CONFIRM mail: the code of a request by mail (a new address, a resignation) or of a sign-up."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from gm.clock import Clock
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import Letter
from gm.services import people
from gm.services.signups import take_confirm
from gm.store.database import atomic


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
            note = people.carry_out(db, home, clock, request)
    except GMError as exc:
        return _not_done(str(exc))
    return {"verdict": "signup", "taken": True, "request": f"{request.kind} of {request.confirm_from}", "note": note}


def _not_done(reason: str) -> dict[str, Any]:
    return {
        "verdict": "signup",
        "taken": False,
        "request": "",
        "note": f"NOT DONE: your confirmation: {reason.rstrip('.')}.\nNothing changed. Write {people.CONFIRM_HOW}.",
    }
