"""Who may use the portal: seat secrets, one-time sign-in links, passwords' hashes, the signing key
(the GMs' own accounts and links: gm.services.staff)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import timedelta

import sqlite_utils
from itsdangerous import BadSignature, URLSafeTimedSerializer

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.home import Home
from gm.seat_secrets import DECOY_HASH, check_secret
from gm.services.seats import LEFT
from gm.store import portal_links, records
from gm.store.database import transaction
from gm.store.games import id_of_game

_LINK_SALT = "gm-portal-link"
LINK_DAYS = 7  # the longest a seat's one-time link may last
_PASSWORD_N, _PASSWORD_R, _PASSWORD_P = 2**14, 8, 1


def portal_key(home: Home) -> bytes:
    """The key that signs session cookies and links, made once per GM home (delete it to sign
    everybody out and void every link)."""
    path = home.root / "portal.key"
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(32) + "\n")
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


def fingerprint(stored_hash: str) -> str:
    """A short tag of a stored hash: a session carries it, so a new secret or password signs
    out every session made with the old one."""
    return hashlib.sha256(stored_hash.encode("utf-8")).hexdigest()[:16]


CHANGED, GONE = "changed", "left"  # why a session or a link no longer speaks for its seat


def holder(seat: records.SeatRecord) -> str:
    """A tag of who holds the seat and with which secret. A session and a one-time link carry the
    tag of the seat they were made for: a new secret ('gm game secret') or a new player (a
    standby taking the seat) gives the seat another tag, and ends them."""
    return fingerprint(f"{seat.email.lower()}\0{seat.secret_hash}")


def no_longer_theirs(seat: records.SeatRecord, made_for: str | None) -> str | None:
    """Why a session or link made for the holder tag `made_for` no longer speaks for the seat:
    GONE when the seat's player left the game, CHANGED when the seat has another secret or
    player since; None when it still does."""
    if seat.status in LEFT:
        return GONE
    if made_for is None or not hmac.compare_digest(holder(seat), made_for):
        return CHANGED
    return None


class VerifiedSecrets:
    """Secrets that passed scrypt lately, so a busy portal does not pay scrypt per repeat sign-in.

    Only successes are kept, keyed by an HMAC (a key made per process) of the stored hash and
    the secret as typed, for `seconds`; a wrong secret always costs a full scrypt check, and a
    new secret changes the stored hash, so an old entry can never match again.
    """

    def __init__(self, seconds: float = 600, size: int = 10_000):
        self.seconds, self.size = seconds, size
        self._key = secrets.token_bytes(32)
        self._until: dict[bytes, float] = {}
        self._lock = threading.Lock()

    def check(self, secret: str, stored_hash: str) -> bool:
        tag = hmac.new(self._key, f"{stored_hash}\0{secret}".encode(), hashlib.sha256).digest()
        now = time.monotonic()
        with self._lock:
            if self._until.get(tag, 0) > now:
                return True
        if not check_secret(secret, stored_hash):
            return False
        with self._lock:
            if len(self._until) >= self.size:
                self._until = {k: v for k, v in self._until.items() if v > now}
                while len(self._until) >= self.size:
                    self._until.pop(next(iter(self._until)))
            self._until[tag] = now + self.seconds
        return True


def seat_sign_in(
    db: sqlite_utils.Database, verified: VerifiedSecrets, game_name: str, seat_code: str, secret: str
) -> records.SeatRecord | None:
    """The seat when game, seat and secret match; None otherwise, the same for every reason."""
    game_id = id_of_game(db, game_name.strip().lower())
    code = seat_code.strip().upper()
    seat = None
    if game_id is not None:
        seat = next((s for s in records.seats_of(db, game_id) if s.code == code), None)
    # An unknown game or seat still costs a secret check, so timing does not tell seats apart.
    stored = seat.secret_hash if seat else DECOY_HASH
    ok = verified.check(secret, stored)
    return seat if ok and seat is not None else None


# What the portal writes on the PASSWORD line of a turn file it sends for a signed-in seat: the
# session proved the seat (with its secret or a one-time link), so the secret need not travel
# again, nor be kept anywhere to be written in. No secret gm makes looks like this, and only the
# portal's own check (session_vouches) accepts it: by mail or `gm submit` it is a wrong password.
SIGNED_IN = "(signed-in)"


def session_vouches(stored_hash: str, seat: records.SeatRecord, session_holder: str | None) -> bool:
    """Whether a signed-in session vouches for a turn file checked against `stored_hash`: the
    hash is the session's own seat's, and the seat is still held by the player and the secret
    the session signed in with (a new secret, a standby taking the seat, or the player leaving
    ends the session's say)."""
    return hmac.compare_digest(stored_hash, seat.secret_hash) and no_longer_theirs(seat, session_holder) is None


def seat_by_id(db: sqlite_utils.Database, seat_id: int) -> tuple[records.GameRecord, records.SeatRecord] | None:
    found = seat_in_game(db, seat_id)
    return None if found is None else found[:2]


def seat_in_game(
    db: sqlite_utils.Database, seat_id: int
) -> tuple[records.GameRecord, records.SeatRecord, list[records.SeatRecord]] | None:
    """(game, seat, every seat of the game) for a seat id; None when there is no such seat.
    The seats come with it because they are read anyway, and a request checking orders needs them."""
    game = records.game_of_seat(db, seat_id)
    if game is None:
        return None
    seats = records.seats_of(db, game.id)
    return game, next(s for s in seats if s.id == seat_id), seats


def make_link(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game_name: str,
    seat_code: str,
    base_url: str | None = None,
    minutes: int | None = None,
) -> tuple[str, str]:
    """A one-time sign-in link for a seat and when it expires, as (link, expiry ISO text)."""
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, seat_code)
    if seat.status in LEFT:
        raise GMError(
            f"seat {seat.code} of '{game.name}' has {seat.status}: {seat.name} no longer plays it, so a link "
            "would sign in to nothing."
        )
    minutes = link_minutes(home, minutes)
    base = base_url_of(home, base_url)
    nonce = secrets.token_urlsafe(18)
    now = clock.now()
    expires = iso(now + timedelta(minutes=minutes))
    with transaction(db):
        portal_links.add_link(db, nonce, seat.id, iso(now), expires)
        records.audit(db, iso(now), game.id, "portal link", {"seat": seat.code, "expires": expires})
    # The link is the seat's holder's, with this secret: signed in the token, so nobody can move it.
    token = URLSafeTimedSerializer(portal_key(home), salt=_LINK_SALT).dumps({"n": nonce, "h": holder(seat)})
    return f"{base}/link/{token}", expires


@dataclass(frozen=True)
class LinkUse:
    """What using a one-time link came to: the seat it was made for (None when forged, expired or
    used before), and why it does not sign in to it (CHANGED, GONE; None when it does)."""

    seat_id: int | None
    refusal: str | None = None


def use_link(db: sqlite_utils.Database, home: Home, clock: Clock, token: str) -> LinkUse:
    """Use up a link, and say whom it signs in: only the player and the secret it was made for
    (a link made by a gm before links carried that is taken as made for another)."""
    serializer = URLSafeTimedSerializer(portal_key(home), salt=_LINK_SALT)
    try:
        made = serializer.loads(token, max_age=LINK_DAYS * 24 * 3600)
        nonce, made_for = made["n"], made.get("h")
    except (BadSignature, KeyError, TypeError, AttributeError):
        return LinkUse(None)
    now = iso(clock.now())
    with transaction(db):
        seat_id = portal_links.use_link(db, nonce, now)
    found = seat_by_id(db, seat_id) if seat_id is not None else None
    if found is None:
        return LinkUse(None)
    return LinkUse(seat_id, no_longer_theirs(found[1], made_for))


def link_minutes(home: Home, minutes: int | None, longest_days: int = LINK_DAYS, what: str = "a sign-in link") -> int:
    """How long a one-time link lasts: `minutes`, else [portal] link_minutes (60); a GMError
    unless it is 1 minute to `longest_days` days (a seat's, an observer's and a GM's link)."""
    minutes = minutes if minutes is not None else home.setting("portal", "link_minutes", 60)
    if not 1 <= minutes <= longest_days * 24 * 60:
        days = f"{longest_days} day" + ("" if longest_days == 1 else "s")
        raise GMError(f"{what} must last between 1 minute and {days}.")
    return minutes


def base_url_of(home: Home, base_url: str | None) -> str:
    base = (base_url or home.setting("portal", "base_url", "http://127.0.0.1:8000")).rstrip("/")
    if not re.match(r"^https?://[^\s/?#]+(/[^\s?#]*)?$", base):
        raise GMError(f"'{base}' is not a web address like https://pbm.example.org (set [portal] base_url).")
    return base


def hash_password(password: str) -> str:
    """scrypt with a random salt, as 'scrypt$n$r$p$salt$hash'; unlike seat secrets, case counts."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_PASSWORD_N, r=_PASSWORD_R, p=_PASSWORD_P, dklen=32)
    return "$".join(
        [
            "scrypt",
            str(_PASSWORD_N),
            str(_PASSWORD_R),
            str(_PASSWORD_P),
            base64.b64encode(salt).decode(),
            base64.b64encode(digest).decode(),
        ]
    )


def check_password(password: str, stored: str) -> bool:
    """True when password matches the stored hash; compared in constant time."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(
            password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=len(expected)
        )
    except (ValueError, TypeError):
        return False
    return scheme == "scrypt" and hmac.compare_digest(actual, expected)
