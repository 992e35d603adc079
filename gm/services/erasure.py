"""gm person forget: a person's name and addresses replaced by a pseudonym everywhere gm wrote
them, their raw mails and turn files removed from the archive; the orders read from them, the
turns and the ledger's amounts stay, so every game replays and the books balance.

What is kept and why is in docs/people.md ("Forgetting a person")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.statehash import state_hash
from gm.errors import GMError
from gm.home import Home
from gm.services import people
from gm.services.person_export import export_folder
from gm.services.turns import verify_turns
from gm.store import erasure, people as people_store, records
from gm.store.archive import erase
from gm.store.database import transaction
from gm.store.people import Person, Tenure

# A FORGET ME confirmed by mail, waiting for its answer to go (forget_asked does it then).
FORGET_CONFIRMED = "confirmed"
# A pseudonym's address: .invalid is reserved (RFC 2606), so no mail can ever reach it.
PSEUDONYM_DOMAIN = "forgotten.invalid"


@dataclass(frozen=True)
class Forgotten:
    """What forgetting did: the pseudonym (address and name), how many of the person's
    addresses were replaced, how many archived files removed, the games still replaying, and
    how many waiting-list and standby entries they were taken off."""

    email: str
    name: str
    addresses: int
    removed: int
    games: tuple[str, ...]
    lists: int = 0


def pseudonym(account_id: int) -> tuple[str, str]:
    """The stable pseudonym of an account: the same every time, and nothing of the person in it
    (a hash of the address could be checked against a guess)."""
    return f"player-{account_id}@{PSEUDONYM_DOMAIN}", f"Forgotten player {account_id}"


def forget(db: sqlite_utils.Database, home: Home, clock: Clock, email: str) -> Forgotten:
    """Forget the person at `email` (or who had it once). Refused while they still play a seat
    of a game not over. Run again, it removes what a crash left in the archive. An address that
    never played but observes, or observed, a game is forgotten as an observer."""
    if people_store.person(db, people.current_address(db, email)) is None and erasure.observer_ids(db, email):
        return _forget_observer(db, home, clock, email.strip())
    person = people.find_person(db, people.current_address(db, email))
    tenures = people_store.tenures(db, person.id)
    refuse_while_playing(db, person)
    alias, alias_name = pseudonym(person.id)
    addresses = [a for a in erasure.addresses_of(db, person.id) if a != alias]
    games = sorted({t.game for t in tenures})
    replaying = {game: verify_turns(db, game)[1] for game in games}
    with transaction(db):
        lists = erasure.leave_lists(db, person.id, addresses)
        for address in addresses:
            erasure.stop_observing(db, address, iso(clock.now()))
            erasure.replace_address(db, address, alias)
            erasure.replace_in_memos(db, address, alias)
        erasure.rename_account(db, person.id, alias)
        if person.name != alias_name:
            erasure.replace_name(db, person.id, person.name, alias_name, [alias])
            _rewrite_turns(db, tenures, person.name, alias_name)
        _hold_replays(db, replaying)
        if addresses or person.name != alias_name:
            records.audit(db, iso(clock.now()), None, "person forgotten", {"pseudonym": alias})
    removed = sum(erase(home.archive, digest) for digest in _raw_files(db, person.id, tenures, alias))
    for mailed in export_folder(home).glob(f"player-{person.id}-*.zip"):  # EXPORT by mail, sent or not
        mailed.unlink()
        removed += 1
    return Forgotten(alias, alias_name, len(addresses), removed, tuple(games), lists)


def _forget_observer(db: sqlite_utils.Database, home: Home, clock: Clock, email: str) -> Forgotten:
    """Forget an observer who has no player account: their observing ends, and their address is
    a pseudonym everywhere it stands (the observers table, the mails sent them, the audit log,
    mail taken from them), and the raw mails they sent leave the archive."""
    first = min(erasure.observer_ids(db, email))
    alias, alias_name = f"observer-{first}@{PSEUDONYM_DOMAIN}", f"Forgotten observer {first}"
    with transaction(db):
        erasure.stop_observing(db, email, iso(clock.now()))
        erasure.replace_address(db, email, alias)
        erasure.replace_in_memos(db, email, alias)
        records.audit(db, iso(clock.now()), None, "person forgotten", {"pseudonym": alias})
    removed = sum(erase(home.archive, digest) for digest, *_ in people_store.mails_from(db, [alias]))
    return Forgotten(alias, alias_name, 1, removed, ())


def forget_asked(db: sqlite_utils.Database, home: Home, clock: Clock) -> list[Forgotten | str]:
    """Forget each person who confirmed FORGET ME by mail once no mail to them waits to be sent
    (gm's answer went, or failed for good); what was done, or why not (the request waits)."""
    done: list[Forgotten | str] = []
    for request in people_store.requests_settled_as(db, "forget", FORGET_CONFIRMED):
        person = people_store.person_by_id(db, request.account_id)
        if people_store.mail_waiting(db, erasure.addresses_of(db, person.id)):
            continue
        try:
            done.append(forget(db, home, clock, person.email))
        except GMError as exc:
            done.append(f"{person.email} asked to be forgotten, not done: {exc}")
            continue
        with transaction(db):
            people_store.settle(db, request.id, iso(clock.now()), "done")
    return done


def refuse_while_playing(db: sqlite_utils.Database, person: Person, by_mail: bool = False) -> None:
    """A GMError while the person still plays a seat of a game not over; it says what to do in
    the GM's words, or with by_mail in the player's."""
    playing = still_playing(db, person)
    if not playing:
        return
    game, code = playing[0]
    what = (
        f"; send RESIGN {game} first (then FORGET ME again)"
        if by_mail
        else f". Forget a player once they have left every game still going: gm seat resign {game} {code}."
    )
    raise GMError(f"{person.name} <{person.email}> still plays {code} in {game}{what}")


def still_playing(db: sqlite_utils.Database, person: Person) -> list[tuple[str, str]]:
    """(game, seat) of every seat the person still plays in a game not over."""
    return [
        (game.name, seat.code)
        for game in records.all_games(db)
        if game.status != "over"
        for seat in records.seats_of(db, game.id)
        if seat.email.lower() == person.email.lower() and seat.status == "active"
    ]


def _rewrite_turns(db: sqlite_utils.Database, tenures: list[Tenure], name: str, alias: str) -> None:
    """The name as a value in the stored turns of the person's games (the seat's name in a
    state, an event naming the player) becomes the pseudonym; each state's hash is made again,
    and gm turn verify (made again from the seats, named by the pseudonym now) still agrees."""
    for turn_id, state_text, events_text in erasure.turns_of_games(db, [t.game_id for t in tenures]):
        state, events = _renamed(json.loads(state_text), name, alias), _renamed(json.loads(events_text), name, alias)
        erasure.rewrite_turn(db, turn_id, state, events, state_hash(state))


def _renamed(value: Any, name: str, alias: str) -> Any:
    """value with every string equal to name replaced by alias, at any depth."""
    if isinstance(value, str):
        return alias if value == name else value
    if isinstance(value, list):
        return [_renamed(item, name, alias) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, name, alias) for key, item in value.items()}
    return value


def _hold_replays(db: sqlite_utils.Database, before: dict[str, list[str]]) -> None:
    """Every game that replayed before still replays (its transaction is rolled back if not)."""
    for game, problems in before.items():
        after = verify_turns(db, game)[1]
        new = [p for p in after if p not in problems]
        if new:
            raise GMError(
                f"forgetting would stop game '{game}' from replaying ({new[0]}); nothing was changed. "
                "Report this as a bug."
            )


def _raw_files(db: sqlite_utils.Database, account_id: int, tenures: list[Tenure], alias: str) -> list[str]:
    """The archive digests of the person's mails (from their addresses, now the pseudonym's)
    and of the turn files stored for their seats in the turns they played them."""
    mails = [digest for digest, *_ in people_store.mails_from(db, [alias])]
    files = [d for t in tenures for d in erasure.archives_of_seat(db, t.seat_id, t.from_turn, t.until_turn)]
    return list(dict.fromkeys(mails + files))
