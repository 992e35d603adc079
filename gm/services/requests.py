"""Requests by mail: a turn file whose only lines are RESEND, JSON ON/OFF, ADDRESS, RESIGN,
FORGET ME or EXPORT asks rather than orders. The last four wait for a code (gm/services/people.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import sqlite_utils

from gm.clock import Clock
from gm.core.envelope import Envelope
from gm.core.person_lines import PersonLine
from gm.core.warnings import meant_name
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import Letter
from gm.services import people
from gm.services.credits import account_position
from gm.services.erasure import refuse_while_playing
from gm.services.seats import leaving
from gm.services.turn_charges import held_turns
from gm.services.turnfiles import unknown_game
from gm.store import people as people_store, records
from gm.store.database import atomic
from gm.store.games import game_exists
from gm.store.people import Person
from gm.store.records import GameRecord, SeatRecord
from gm.store.reports import seat_reports
from gm.store.seats import set_wants_json

# RESEND: the last report again, as Eressea, Atlantis and Olympia players know it.
# JSON ON/OFF: whether report mails carry the JSON report too.
# RESIGN: the player leaves the seat, as gm seat resign does, once confirmed with a code;
# FORGET ME and EXPORT: gm person forget and export, by mail, once confirmed with a code.
REQUEST_WORDS = ("RESEND", "JSON ON", "JSON OFF", "RESIGN", "FORGET ME", "EXPORT")
_CONFIRMED = ("RESIGN", "FORGET ME", "EXPORT")
# ADDRESS new@example.org: the player's address changes, once confirmed from the new one.
ADDRESS = "ADDRESS"


def _words(text: str) -> str:
    return " ".join(text.upper().split())


def _is_request_line(text: str) -> bool:
    words = text.split()
    return _words(text) in REQUEST_WORDS or (len(words) == 2 and words[0].upper() == ADDRESS)


def is_request(envelope: Envelope) -> bool:
    """A complete envelope whose every line is a request (never mixed with orders)."""
    return envelope.ok and bool(envelope.lines) and all(_is_request_line(text) for _, text in envelope.lines)


def answer_request(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    secret_check: Callable[[str, str], bool],
    envelope: Envelope,
    letter: Letter,
    where: str,
    near: Callable[[], Iterable[str]] = tuple,
) -> dict[str, Any]:
    """Check the seat and secret as for orders, then do what was asked; returns the result for the
    acknowledgement. A RESEND result carries "resend" for the caller to queue with the answer.
    near(): the games an unknown GAME line may be corrected to (check_seat)."""
    refusal, game, seat = check_seat(db, secret_check, envelope, near)
    if game is None or seat is None:
        return {"where": where, "verdict": "refused", "reason": refusal}
    asked = [_words(text) for _, text in envelope.lines]
    notes: list[str] = []
    result: dict[str, Any] = {
        "where": where,
        "verdict": "request",
        "game": game.name,
        "seat": seat.code,
        "turn": game.turn,
        "deadline": game.deadline if game.status != "over" else None,
    }
    for (_, text), word in zip(envelope.lines, asked):
        if word.startswith(ADDRESS) or word in _CONFIRMED:
            notes.append(_ask(db, home, clock, seat, game, text, letter.sender or ""))
        elif word.startswith("JSON"):
            with atomic(db):
                set_wants_json(db, seat.id, word == "JSON ON")
            notes.append(
                f"Report mails for {seat.code} in {game.name} will {'' if word == 'JSON ON' else 'not '}"
                "carry the JSON report too."
            )
    if "RESEND" in asked:
        held = _resend(db, game, seat, result, notes)
        # The report sent again answers a lone RESEND from the seat's own address; a held one needs words.
        result["quiet"] = "resend" in result and not held and len(asked) == 1 and letter.sender == seat.email.lower()
    result["note"] = "\n".join(notes)
    return result


def _ask(
    db: sqlite_utils.Database, home: Home, clock: Clock, seat: SeatRecord, game: GameRecord, text: str, sender: str
) -> str:
    """ADDRESS, RESIGN, FORGET ME or EXPORT: checked now, done once confirmed with the code mailed
    for it; the sentence for the answer, which says how to confirm, or why nothing will change.
    ADDRESS comes from the old address: the code proves only the new one."""
    words = text.split()
    try:
        with atomic(db):
            if words[0].upper() == ADDRESS:
                if sender != seat.email.lower():
                    raise GMError(
                        "send ADDRESS from the address gm has for you now; if you can no longer write from "
                        "it, ask the game master"
                    )
                return people.ask_address(db, home, clock, seat.email, words[1]).note()
            person = people.find_person(db, seat.email)
            kind, detail, what = _asked(db, person, seat, game, _words(text))
            return people.ask(db, home, clock, person, kind, detail, what).note()
    except GMError as exc:
        return f"NOT DONE: {' '.join(words)}: {str(exc).rstrip('.')}. Nothing changed."


def ask_by_line(
    db: sqlite_utils.Database, home: Home, clock: Clock, sender: str, line: PersonLine | None, problem: str | None
) -> dict[str, Any]:
    """RESIGN GAME, FORGET ME or EXPORT in a mail without a turn file: the player is the one at the
    From address, and the code goes to that address, so a forged From asks nothing the player does
    not confirm. The result for the answer (to the From address alone)."""
    try:
        if problem or line is None:
            raise GMError(problem or "the mail asks for nothing")
        with atomic(db):
            person = people_store.person(db, sender)
            if person is None:
                raise GMError(
                    f"gm has no player at {sender or 'this address'}: write from the address gm has for you, "
                    "or send a turn file with your seat's secret"
                )
            game, seat = _seat_named(db, person, line) if line.word == "RESIGN" else (None, None)
            kind, detail, what = _asked(db, person, seat, game, line.word)
            note = people.ask(db, home, clock, person, kind, detail, what, proved=False).note()
    except GMError as exc:
        words = " ".join(w for w in (line.word, line.game) if w) if line else "your request"
        return {
            "verdict": "request",
            "asked": "",
            "note": f"NOT DONE: {words}: {str(exc).rstrip('.')}. Nothing changed.",
        }
    return {"verdict": "request", "asked": f"{kind} for {sender}", "note": note}


def _seat_named(db: sqlite_utils.Database, person: Person, line: PersonLine) -> tuple[GameRecord, SeatRecord]:
    """The game RESIGN names and the person's seat in it. A game that does not exist and one they
    have no seat in get the same answer, which offers only their own games' names: a mail never
    tells a player which other games the house runs (D-ALL-5)."""
    name = line.game or ""
    game = records.find_game(db, name)
    seats = records.seats_of(db, game.id) if game is not None else []
    seat = next((s for s in seats if s.email.lower() == person.email.lower()), None)
    if game is None or seat is None:
        meant = meant_name(name, records.game_names_of(db, person.email))
        raise GMError(f"{person.email} has no seat in a game named '{name}'" + (f" ({meant})" if meant else ""))
    return game, seat


def _asked(
    db: sqlite_utils.Database, person: Person, seat: SeatRecord | None, game: GameRecord | None, word: str
) -> tuple[str, dict[str, Any], str]:
    """(kind, detail, in words) of a request that waits for a code; a GMError when it could not
    be done even if confirmed. seat and game: RESIGN's."""
    if word == "RESIGN" and seat is not None and game is not None:
        leaving(db, game.name, seat.code)
        return "resign", {"game": game.name, "seat": seat.code}, f"{seat.name} resigns seat {seat.code} of {game.name}"
    if word == "FORGET ME":
        refuse_while_playing(db, person, by_mail=True)
        return "forget", {}, f"gm forgets {person.name}: a pseudonym in their place, their mails removed"
    return "export", {}, f"gm mails {person.name} everything it holds of them, as one zip"


def _resend(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, result: dict[str, Any], notes: list[str]
) -> bool:
    """RESEND: the seat's newest report that is not held for credits goes again (result["resend"]
    for the caller to queue); a held one is named, never sent. Adds the sentences for the answer
    to notes; True when the newest report is held."""
    turns = [turn for turn, _ in seat_reports(db, game.id, seat.code)]
    if not turns:
        notes.append(f"There is no report for {seat.code} in {game.name} yet; the first comes when turn 1 is run.")
        return False
    held = held_turns(db, game, seat)
    if turns[0] in held:
        short = -account_position(db, seat.email).balance
        notes.append(
            f"Your report for turn {turns[0]} of {game.name} is held until it is paid for: your account is "
            f"{counted(short, 'turn credit')} short. The held notice gm sent you says how to pay; "
            "it comes as soon as your payment is recorded."
        )
    last = next((turn for turn in turns if turn not in held), None)
    if last is not None:
        result["resend"] = {"game": game.name, "seat": seat.code, "turn": last}
        notes.append(
            f"Your report for turn {last} of {game.name} was sent again to the address gm has for {seat.code}."
        )
    return turns[0] in held


def check_seat(
    db: sqlite_utils.Database,
    secret_check: Callable[[str, str], bool],
    envelope: Envelope,
    near: Callable[[], Iterable[str]] = tuple,
) -> tuple[str | None, GameRecord | None, SeatRecord | None]:
    """(refusal, game, seat) with the same sentences as a refused turn file: a refusal and no
    game or seat, or the game and seat and no refusal. near(): the games an unknown GAME line
    may be corrected to (turnfiles.check_turn_file)."""
    name = envelope.game or ""  # a complete envelope (is_request, a slip) has a GAME line
    if not game_exists(db, name):
        return unknown_game(name, near()), None, None
    game = records.game_by_name(db, name)
    seat = next((s for s in records.seats_of(db, game.id) if s.code == envelope.player), None)
    if seat is None:
        return f"game '{game.name}' has no player '{envelope.player}' (check the PLAYER line)", None, None
    if not secret_check(envelope.password or "", seat.secret_hash):
        return f"wrong password for player {seat.code} of '{game.name}'", None, None
    return None, game, seat
