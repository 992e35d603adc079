"""One-time sign-in links by mail: the GM mails one ('gm portal link --mail'), or a player who lost
the secret asks the portal for one. Either way the link goes only to the seat's registered address,
through the outbox (kind 'link'), from templates/mail/link.txt."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.headerregistry import Address
from pathlib import Path
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import MailSettings, mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.services.portal_access import make_link
from gm.store import outbox, records
from gm.store.database import transaction
from gm.store.games import id_of_game
from gm.store.locks import HomeLock

log = logging.getLogger("gm.web")

# At most one mailed link per seat in this many minutes when players ask on the portal.
MAILED_LINK_MINUTES = 10
# Requests for a mailed link from one client address in an hour.
LINK_REQUESTS_PER_HOUR = 10

# Check-then-queue must not interleave between the portal's threads, nor its worker processes.
_LOCKS: dict[Path, HomeLock] = {}


def _one_at_a_time(home: Home) -> HomeLock:
    """The lock of this home's link requests (one per home, shared by every thread and worker)."""
    path = home.root / "portal-links.lock"
    return _LOCKS.setdefault(path, HomeLock(path))


@dataclass(frozen=True)
class MailedLink:
    """A queued sign-in link mail: its outbox id, where it goes, when the link expires."""

    outbox_id: int
    game: str
    seat: str
    recipient: str
    expires: str


def can_mail(home: Home) -> bool:
    """True when this home sends mail at all ([mail] address is set)."""
    return bool(mail_settings(home).address)


def _settings(home: Home) -> MailSettings:
    settings = mail_settings(home)
    if not settings.address:
        raise GMError(
            "gm.toml has no [mail] address, so gm cannot mail the link. Set [mail] address (see "
            "README, 'Taking turns by mail'), or leave out --mail and send the printed link yourself."
        )
    settings.sender()  # a clear error now for an address that is not one
    return settings


def _mail_address(game: records.GameRecord, seat: records.SeatRecord) -> str:
    """The seat's registered address, or a clear error when it has none gm can mail to."""
    email = (seat.email or "").strip()
    if not email or not mailable(email):
        raise GMError(
            f"seat {seat.code} of '{game.name}' has no mail address ({email or 'none'}). Leave out "
            "--mail and give the player the printed link yourself."
        )
    try:
        Address(addr_spec=email)
    except (ValueError, IndexError, TypeError):
        raise GMError(f"seat {seat.code} of '{game.name}' has an address gm cannot mail to ({email!r}).") from None
    return email


def display_name(name: str | None) -> str:
    """The player's name for the To header; a name holding a line break or another control
    character is dropped (the address stays), so it can never add a header."""
    name = name or ""
    if any(not ch.isprintable() for ch in name):
        return ""
    return name


def _readable(expires: str) -> str:
    return datetime.fromisoformat(expires.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M UTC")


def _context(
    game: records.GameRecord, seat: records.SeatRecord, link: str, expires: str, minutes: int, asked: bool, gm_name: str
) -> dict[str, Any]:
    return {
        "game": game.name,
        "seat": seat.code,
        "player": " ".join(seat.name.split()),
        "link": link,
        "expires": _readable(expires),
        "minutes": minutes,
        "asked": asked,
        "gm_name": gm_name,
    }


def mail_link(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game_name: str,
    seat_code: str,
    base_url: str | None = None,
    minutes: int | None = None,
    asked: bool = False,
) -> MailedLink:
    """Make a one-time link for a seat and queue it to the seat's registered address.

    Raises GMError with a clear message when the home sends no mail, the game or seat is unknown,
    the seat has no address, or the template does not render; then nothing is made or queued.
    """
    settings = _settings(home)
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, seat_code)
    recipient = _mail_address(game, seat)
    minutes = minutes if minutes is not None else home.setting("portal", "link_minutes", 60)
    env = mail_environment(home.templates)
    # Render once with a stand-in link first: a broken template leaves no unused link behind.
    write_mail(
        env,
        "link.txt",
        _context(game, seat, "https://example.invalid/link/x", iso(clock.now()), minutes, asked, settings.name),
    )
    link, expires = make_link(db, home, clock, game.name, seat.code, base_url, minutes)
    written = write_mail(env, "link.txt", _context(game, seat, link, expires, minutes, asked, settings.name))
    with transaction(db):
        mail_id = outbox.queue(
            db,
            clock.now(),
            kind="link",
            recipient=recipient,
            recipient_name=display_name(seat.name),
            subject=written.subject,
            body=written.body,
            domain=settings.domain,
            game_id=game.id,
            seat=seat.code,
        )
    return MailedLink(mail_id, game.name, seat.code, recipient, expires)


def links_mailed_since(db: sqlite_utils.Database, game_id: int, seat_code: str, since: datetime) -> int:
    """Link mails queued for a seat since a moment (whoever asked, whatever became of them)."""
    return outbox.links_since(db, game_id, seat_code, since)


def request_link(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, seat_code: str) -> bool:
    """A player asked the portal for a link: queue one if the game and seat exist, the seat is
    active, has a mail address and has not had a link mailed in the last [portal]
    mailed_link_minutes. True when a mail was queued; never says why not (the portal answers the
    same either way, so nobody learns which seats exist)."""
    if not can_mail(home):
        return False
    name, code = game_name.strip().lower()[:100], seat_code.strip().upper()[:100]
    game_id = id_of_game(db, name)
    if game_id is None:
        return False
    seat = next((s for s in records.seats_of(db, game_id) if s.code == code), None)
    if seat is None or seat.status != "active":
        return False
    every = home.setting("portal", "mailed_link_minutes", MAILED_LINK_MINUTES)
    with _one_at_a_time(home)():
        if every > 0 and links_mailed_since(db, game_id, code, clock.now() - timedelta(minutes=every)):
            return False
        try:
            mail_link(db, home, clock, name, code, asked=True)
        except GMError as exc:
            # No usable address, a broken template or base_url: the player is told nothing more,
            # the GM finds it in the server's log (and 'gm portal link --mail' says it too).
            log.warning("no sign-in link mailed for %r %r: %s", name, code, exc)
            return False
    return True
