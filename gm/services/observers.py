"""Observers (gm game observe GAME EMAIL): an address that receives each turn's public pages by
mail, what every seat of the turn reads alike (the scores, what every seat saw happen, how the
game ended), and nothing of any seat's own report."""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.model import Event, JSONObject
from gm.core.ruleset import Ruleset
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.services import gunboat, observer_portal, scores
from gm.services.games import check_player, game_ruleset, score_title
from gm.store import outbox, records
from gm.store.database import transaction
from gm.store.observers import add_observer, observing, observing_ids, stop_observer
from gm.store.records import GameRecord, SeatRecord, TurnRecord

PUBLIC_PDF = "public.pdf"  # reports/GAME/TURN/public.pdf: the turn's public pages
PUBLIC_TEMPLATE = "public.html"
MOST_OBSERVERS = 50  # per game: each turn mails every one of them


def observe(db: sqlite_utils.Database, clock: Clock, game_name: str, email: str) -> str:
    """The address receives the game's public pages from its next published turn on (audited)."""
    game = records.game_by_name(db, game_name)
    email, _ = check_player(email, "observer")
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; it has no more turns to observe.")
    now = observing(db, game.id)
    if email.lower() in (e.lower() for e in now):
        raise GMError(f"{email} observes '{game.name}' already. To stop: gm game observe {game.name} {email} --stop.")
    if len(now) >= MOST_OBSERVERS:
        raise GMError(
            f"'{game.name}' has {MOST_OBSERVERS} observers, the most a game may have; stop one first (--stop)."
        )
    with transaction(db):
        add_observer(db, game.id, email, iso(clock.now()))
        records.audit(db, iso(clock.now()), game.id, "observer added", {"email": email})
    return email


def stop(db: sqlite_utils.Database, clock: Clock, game_name: str, email: str) -> None:
    """The address observes the game no more: no mail of a turn published from now on."""
    game = records.game_by_name(db, game_name)
    with transaction(db):
        if not stop_observer(db, game.id, email.strip(), iso(clock.now())):
            raise GMError(
                f"{email.strip()} does not observe '{game.name}'. Its observers: gm game observe {game.name}."
            )
        records.audit(db, iso(clock.now()), game.id, "observer stopped", {"email": email.strip()})


def observed(db: sqlite_utils.Database, game: GameRecord) -> bool:
    return bool(observing(db, game.id))


def observers_of(db: sqlite_utils.Database, game_name: str) -> list[str]:
    """The addresses that observe the game now."""
    return observing(db, records.game_by_name(db, game_name).id)


def public_context(
    game: GameRecord, ruleset: Ruleset, turn: TurnRecord, seats: list[SeatRecord], before: JSONObject
) -> dict[str, Any]:
    """What the public pages of a turn show (templates/public.html): no seat's view but the
    scores every report prints (the nations as the first seat's view names them: every seat's
    view names them alike), the events every seat sees, and the outcome at the end."""
    outcome = ruleset.is_over(turn.state)
    view = ruleset.view(turn.state, seats[0].code) if seats else {}
    shown = gunboat.as_shown(game, seats, outcome is not None)
    return {
        "game": {"name": game.name, "title": view.get("title", ruleset.title), "ruleset": ruleset.name},
        "turn": turn.number,
        "turn_label": ruleset.turn_label(before),
        "created": turn.resolved,
        "scores": scores.score_rows(ruleset, turn.state, view, shown),
        "score_title": score_title(ruleset, turn.state),
        "events": [
            {"kind": e.kind, "data": e.data}
            for e in (Event.from_json(event) for event in turn.events)
            if e.seats is None
        ],
        "outcome": outcome.to_json() if outcome else None,
    }


def queue_public(db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, turn: int) -> int:
    """Queue the turn's public pages to every observer (inside the caller's transaction); how
    many. None when the pages were not rendered (nobody observed when they were)."""
    pdf = home.reports / game.name / str(turn) / PUBLIC_PDF
    if not pdf.is_file():
        return 0
    settings = mail_settings(home)
    env = mail_environment(home.templates)
    attachment = {
        "path": str(pdf.relative_to(home.root)),
        "filename": f"{game.name}-{turn}-public.pdf",
        "type": "application/pdf",
        "sha256": _digest(pdf),
    }
    over = game.status == "over"
    addresses = observing_ids(db, game.id)
    for observer_id, email in addresses:
        link, expires = ("", "") if over else _sign_in_link(db, home, clock, observer_id)
        written = write_mail(
            env,
            "observer.txt",
            {"game": game.name, "turn": turn, "gm_name": settings.name, "over": over, "link": link, "expires": expires},
        )
        outbox.queue(
            db,
            clock.now(),
            kind="observer",
            recipient=email,
            recipient_name="",
            subject=written.subject,
            body=written.body,
            domain=settings.domain,
            attachments=[attachment],
            game_id=game.id,
            turn=turn,
        )
    return len(addresses)


def _sign_in_link(db: sqlite_utils.Database, home: Home, clock: Clock, observer_id: int) -> tuple[str, str]:
    """A one-time portal link for the observer's mail (gm.services.observer_portal), and when it
    expires as the mail says it; none (the mail still goes) when [portal] base_url is no web address."""
    try:
        link, expires = observer_portal.make_link(db, home, clock, observer_id)
    except GMError:
        return "", ""
    return link, datetime.fromisoformat(expires.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M UTC")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def public_turns(db: sqlite_utils.Database, game: GameRecord) -> list[int]:
    """The game's published turns, every one of whose public pages an observer may read."""
    held = set(records.unpublished_turns(db, game.id))
    return [n for n in records.resolved_turns(db, game.id) if n not in held]


def public_page(db: sqlite_utils.Database, game: GameRecord, number: int) -> dict[str, Any] | None:
    """What the public pages of a published turn show (observers.public_context: the scores,
    the events every seat saw, the ending; the players' names as gunboat shows them); None for
    a turn not published."""
    if number not in public_turns(db, game):
        return None
    ruleset, _ = game_ruleset(game)
    turn, before = records.turn_record(db, game, number), records.turn_record(db, game, number - 1)
    return public_context(game, ruleset, turn, records.seats_of(db, game.id), before.state)
