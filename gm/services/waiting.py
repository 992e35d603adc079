"""Waiting lists: players waiting for a seat in a game open for players, or in the next game of
a ruleset; filled from sign-ups by mail and from return slips."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.rulesets import installed
from gm.store import outbox, records, waiting as store
from gm.store.database import atomic
from gm.store.records import GameRecord
from gm.store.waiting import Waiting

# Sign-ups by mail of one address that may wait for their confirmation at once; a newer one makes
# the oldest lapse (docs/mail.md).
MOST_UNCONFIRMED = 3


def add(
    db: sqlite_utils.Database,
    now: str,
    target: str,
    email: str,
    name: str,
    preferences: list[str],
    came: str,
    source: str,
    confirm: tuple[str, str] | None = None,
) -> tuple[str, bool]:
    """Put a player on the list of a game open for players or of a ruleset's next game, inside
    the caller's transaction, once per list and player; returns what they wait for, in words,
    and whether the entry waits for its confirmation.

    confirm: (the hash of the code mailed, when it lapses) for a sign-up by mail, which counts
    only once confirmed; an unconfirmed entry of the same list takes the new code. Without it
    (a slip, vouched for by the seat's secret) the entry counts at once, and confirms one that
    waited."""
    game, ruleset, described = _list_of(db, target)
    account = records.account_id(db, email, name, now)
    found = store.waiting_entry(db, account, ruleset, game.id if game else None)
    if found is not None and found[1] is None:
        return described, False  # on the list already, confirmed
    if found is None and confirm is not None and store.unconfirmed_count(db, account, now) >= MOST_UNCONFIRMED:
        _make_room(db, now, account, email)
    if found is not None:
        store.set_confirmation(db, found[0], *(confirm or (None, None)))
        records.audit(
            db, now, game.id if game else None, "waiting list", _said(email, described, came, preferences, confirm)
        )
        return described, confirm is not None
    store.add_waiting(
        db,
        game_id=game.id if game else None,
        ruleset=ruleset,
        account_id=account,
        name=name,
        preferences=preferences,
        came=came,
        source=source,
        now=now,
        confirm_hash=confirm[0] if confirm else None,
        confirm_by=confirm[1] if confirm else None,
    )
    records.audit(
        db, now, game.id if game else None, "waiting list", _said(email, described, came, preferences, confirm)
    )
    return described, confirm is not None


def _make_room(db: sqlite_utils.Database, now: str, account: int, email: str) -> None:
    """The address's oldest sign-up waiting for its confirmation lapses, so the new one may wait.
    Anyone can write an address in a From: refusing the fourth let three forged JOINs keep the
    address's owner from signing up for CONFIRM_HOURS; a code mailed for a forged JOIN is one its
    owner ignores."""
    lapsed = store.lapse_oldest_unconfirmed(db, account, now)
    if lapsed is not None:
        number, game_id = lapsed
        why = f"a newer sign-up came from {email}, which may have {MOST_UNCONFIRMED} waiting for their confirmation"
        records.audit(db, now, game_id, "waiting list", {"email": email, "lapsed": number, "why": why})


def _list_of(db: sqlite_utils.Database, target: str) -> tuple[GameRecord | None, str, str]:
    """(the game or None, the ruleset, what is waited for in words) of a JOIN's target."""
    game = records.find_game(db, target)
    if game is not None and game.status != "open":
        raise GMError(
            f"{game.name} has started and takes no new players; ask for the next game of "
            f"{game.ruleset} instead (JOIN {game.ruleset})"
        )
    if game is None and target not in installed():
        raise GMError(f"gm has no game or ruleset '{target}'; rulesets: {', '.join(sorted(installed()))}")
    ruleset = game.ruleset if game else target
    return game, ruleset, f"game {game.name}" if game else f"the next game of {ruleset}"


def _said(
    email: str, described: str, came: str, preferences: list[str], confirm: tuple[str, str] | None
) -> dict[str, Any]:
    said = {"email": email, "for": described, "came": came, "preferences": preferences}
    return dict(said, unconfirmed_until=confirm[1]) if confirm else said


def confirm(db: sqlite_utils.Database, now: str, email: str, code_hash: str) -> tuple[str, str] | None:
    """Confirm the address's sign-up waiting for the code with this hash, inside the caller's
    transaction (audited); (what it waits for: a game's or a ruleset's name, the same in words),
    or None when no sign-up of that address waits for that code or it has lapsed (it stays so)."""
    found = store.waiting_with_code(db, email, code_hash)
    if found is None or found[1] <= now:
        return None
    number, _, game_name, ruleset = found
    store.set_confirmation(db, number, None, None)
    game = records.find_game(db, game_name) if game_name else None
    described = f"game {game_name}" if game_name else f"the next game of {ruleset}"
    records.audit(db, now, game.id if game else None, "waiting confirmed", {"email": email, "for": described})
    return game_name or ruleset, described


def waiting_for(db: sqlite_utils.Database, game_name: str, unconfirmed: bool = False) -> list[Waiting]:
    """Who waits for a game: its own list, then its ruleset's next-game list, first come first;
    those who may be seated, or with unconfirmed also the sign-ups waiting for their confirmation."""
    game = records.game_by_name(db, game_name)
    return store.waiting_for(db, game.id, game.ruleset, unconfirmed)


def remove(db: sqlite_utils.Database, clock: Clock, game_name: str, number: int, reason: str = "") -> Waiting:
    """Take entry `number` off the lists `gm game waiting GAME` shows (the game's own, or its
    ruleset's next-game list), before anybody seats them; written in the audit log."""
    found = next((w for w in waiting_for(db, game_name, unconfirmed=True) if w.number == number), None)
    if found is None:
        raise GMError(
            f"nobody waits as number {number} for {game_name}. See who waits, and their numbers, "
            f"with 'gm game waiting {game_name}'."
        )
    reason = " ".join(reason.split())[:500]
    waited = records.game_by_name(db, found.game) if found.game else None
    with atomic(db):
        if not store.remove_waiting(db, number):  # seated meanwhile
            raise GMError(f"number {number} has just been seated; nothing was removed.")
        records.audit(
            db,
            iso(clock.now()),
            waited.id if waited else None,
            "waiting removed",
            {
                "email": found.email,
                "name": found.name,
                "for": f"game {found.game}" if found.game else f"the next game of {found.ruleset}",
                "came": found.came,
                "reason": reason,
            },
        )
    return found


def clear(
    db: sqlite_utils.Database, clock: Clock, game_name: str, unconfirmed: bool = False, sender: str | None = None
) -> list[Waiting]:
    """Take off the lists `gm game waiting GAME` shows everyone not seated yet (a flood of
    sign-ups): only the unconfirmed with `unconfirmed`, only addresses matching the shell
    pattern `sender` (`*@spam.example`, any case) with it; one audit entry names them all. The
    answers still unsent to the unconfirmed among them whom the house does not know (their codes)
    are cancelled, so they no longer count against [mail] stranger_replies_per_hour and a
    newcomer's sign-up is answered again at once."""
    pattern = sender.strip().lower() if sender else None
    gone = [
        w
        for w in waiting_for(db, game_name, unconfirmed=True)
        if (w.confirm_by is not None or not unconfirmed) and (pattern is None or fnmatchcase(w.email.lower(), pattern))
    ]
    game = records.game_by_name(db, game_name)
    with atomic(db):
        gone = [w for w in gone if store.remove_waiting(db, w.number)]
        outbox.cancel_answers_to_strangers(db, [w.email for w in gone if w.confirm_by is not None])
        if gone:
            records.audit(
                db,
                iso(clock.now()),
                game.id,
                "waiting cleared",
                {"unconfirmed": unconfirmed, "from": pattern, "emails": [w.email for w in gone]},
            )
    return gone
