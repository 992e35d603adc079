"""An observer on the portal (issue 33): a one-time sign-in link in each observer mail starts a
read-only session that sees the public pages of the game's published turns, what public.pdf
shows (the scores, the events every seat saw, how the game ended), and nothing of any seat's own.

A link is made as a seat's is (gm.services.portal_access): random, signed with the home's key,
lasting [portal] link_minutes, used up by the button of /link/<token> (a mail scanner that opens
links uses nothing); its nonce is stored only as its SHA-256. A link or a session speaks for the
observer only while they observe: stopped (`gm game observe --stop`), forgotten (`gm person
forget`: their observing stops) or the game over, both end at their next use.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

import sqlite_utils
from itsdangerous import BadSignature, URLSafeTimedSerializer

from gm.clock import Clock, iso
from gm.home import Home
from gm.services.portal_access import LINK_DAYS, base_url_of, link_minutes, portal_key
from gm.store import observers, records
from gm.store.database import transaction
from gm.store.records import GameRecord

_SALT = "gm-portal-observer-link"  # not a seat's nor a GM's: no token signs in as another kind
LONGEST_DAYS = LINK_DAYS  # the longest a link may last, as a seat's


@dataclass(frozen=True)
class Watching:
    """A signed-in observer: their row's id, their address, the game they observe."""

    observer_id: int
    email: str
    game: GameRecord


def watching(db: sqlite_utils.Database, observer_id: int) -> Watching | None:
    """The observer while they observe a game that is not over; None once they stopped (or were
    forgotten) or the game ended: then their links and sessions speak for nobody."""
    row = observers.observer_row(db, observer_id)
    if row is None or row[2] is not None:
        return None
    game_id, email, _ = row
    game = records.game_by_id(db, game_id)
    if game is None or game.status == "over":
        return None
    return Watching(observer_id, email, game)


def make_link(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    observer_id: int,
    base_url: str | None = None,
    minutes: int | None = None,
) -> tuple[str, str]:
    """A one-time link that signs the observer in, and when it expires (ISO text). The caller
    may hold the transaction (a turn's publish does)."""
    minutes = link_minutes(home, minutes, LONGEST_DAYS)
    base = base_url_of(home, base_url)
    nonce = secrets.token_urlsafe(18)
    now = clock.now()
    expires = iso(now + timedelta(minutes=minutes))
    observers.add_link(db, _hashed(nonce), observer_id, iso(now), expires)
    token = URLSafeTimedSerializer(portal_key(home), salt=_SALT).dumps({"o": nonce})
    return f"{base}/link/{token}", expires


def use_link(db: sqlite_utils.Database, home: Home, clock: Clock, token: str) -> Watching | None:
    """The observer a link signs in, using it up; None when it is no observer's link, forged,
    expired, used before, or its observer observes no more."""
    try:
        nonce = URLSafeTimedSerializer(portal_key(home), salt=_SALT).loads(token, max_age=LONGEST_DAYS * 24 * 3600)["o"]
    except (BadSignature, KeyError, TypeError, IndexError):
        return None
    if not isinstance(nonce, str):
        return None
    with transaction(db):
        observer_id = observers.use_link(db, _hashed(nonce), iso(clock.now()))
    return None if observer_id is None else watching(db, observer_id)


def _hashed(nonce: str) -> str:
    return hashlib.sha256(nonce.encode("ascii")).hexdigest()
