"""The portal's defences: CSRF tokens, the sign-in limiter, the secret vault, who is signed in."""
from __future__ import annotations

import hashlib
import hmac
import mmap
import multiprocessing
import secrets
import struct
import time
from contextlib import contextmanager
from pathlib import Path

from flask import abort, request, session
from werkzeug.exceptions import TooManyRequests

from gm.store.failures import FailureTable
from gm.web.known_browsers import KnownBrowsers
from gm.web.sessions import SessionRegister


def csrf_token() -> str:
    """The session's CSRF token, made on first use; every form posts it back."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf(form_token: str | None) -> None:
    """Refuse a POST whose token is missing or differs from the session's (400)."""
    expected = session.get("csrf")
    if not expected or not form_token or not hmac.compare_digest(expected, form_token):
        abort(400, "This form has expired or did not come from this portal. Go back, reload the page and try again.")


def start_session(sessions: SessionRegister, who: str, **data) -> None:
    """A fresh session for someone who just signed in (`who`: 'seat:ID' or 'gm'), recorded on the
    server: a new id and token, nothing kept from before but the time zone; a session this browser
    had before ends."""
    zone, before = session.get("zone"), session.get("sid")
    if before is not None:
        sessions.end(before)
    session.clear()
    session.permanent = True
    session.update(data, csrf=secrets.token_urlsafe(24), sid=secrets.token_urlsafe(16))
    sessions.begin(session["sid"], who)
    if zone:
        session["zone"] = zone


def end_session(sessions: SessionRegister, vault: SecretVault) -> None:
    """Sign out: the session ends on the server (every copy of its cookie stops working), its
    secret leaves memory, the cookie is emptied."""
    sid = session.get("sid")
    if sid is not None:
        sessions.end(sid)
        vault.forget(sid)
    session.clear()


def guess_keys(known: KnownBrowsers, target: str) -> tuple[str, ...]:
    """What an attempt at `target` ('seat:GAME/SEAT' or 'gm') counts against: for a browser that
    signed in to it before, that browser alone; for any other, its client address and the target,
    which every stranger shares (so many addresses get no more guesses than one)."""
    browser = known.known_for(request, target)
    if browser is not None:
        return (f"browser:{browser}",)
    return (f"address:{request.remote_addr}", target)


_ELSEWHERE = "A browser you signed in with before is not held up by this"
_BLOCKED = {
    "address": "Too many failed sign-ins from here.",
    "browser": "Too many failed sign-ins from this browser.",
    "seat": f"Too many wrong secrets for this seat lately, from anywhere. {_ELSEWHERE}; or ask for a "
            "one-time sign-in link by mail (\"Lost your secret?\" on the first page), which works at once.",
    "gm": f"Too many wrong GM passwords lately, from anywhere. {_ELSEWHERE}; on the server, "
          "'gm portal link --gm' makes a one-time link that signs you in here.",
}


def refuse_if_blocked(limiter: SignInLimiter, *keys: str) -> None:
    """429 with Retry-After, saying why, while any of the keys has used up its failed sign-ins."""
    waits = limiter.waits(*keys)
    if waits:
        key = max(waits, key=waits.get)
        minutes = max(1, round(waits[key] / 60))
        raise TooManyRequests(f"{_BLOCKED[key.split(':', 1)[0]]} Try again in about {minutes} minute(s).",
                              retry_after=int(waits[key]) + 1)


class SignInLimiter(FailureTable):
    """Failed sign-ins per key (client address, seat, 'gm') in a sliding window; successes are free,
    so players who know their secret are never slowed by someone guessing.

    The failures are kept in the SQLite file at `path`, so every worker process of `gm serve`
    (and every server on the same home) counts the same failures, and a restart forgets none;
    `scope` keeps limiters sharing a file apart."""

    def __init__(self, failures: int, window: float, path: Path, scope: str = "sign-in"):
        self.failures, self.window, self.scope = failures, window, scope
        super().__init__(path)

    def blocked(self, *keys: str) -> float:
        """Seconds until one more attempt is allowed for every key; 0 when allowed now."""
        return max(self.waits(*keys).values(), default=0.0)

    def waits(self, *keys: str) -> dict[str, float]:
        """Each key that must wait, with the seconds until its next attempt is allowed."""
        # Wall-clock time: the same in every process and after a restart.
        now = time.time()
        rows = self.failures_since(self.scope, keys, now - self.window)
        seen: dict[str, int] = {}
        waits = {}
        for key, at in rows:
            seen[key] = seen.get(key, 0) + 1
            # The failures-th newest failure in the window: once it leaves, one more try is allowed.
            if seen[key] == self.failures:
                waits[key] = at + self.window - now
        return waits

    def failed(self, *keys: str) -> None:
        now = time.time()
        self.add_failures(self.scope, keys, now, now - self.window)


class SecretVault:
    """Seat secrets of signed-in sessions, in memory only, so the portal can write the PASSWORD
    line for the player. Never in the cookie (signed is not secret), never on disk; gone at
    sign-out, after `seconds`, or when the server stops (the player then types it once).

    The memory is an anonymous shared mapping made before `gm serve` forks its workers, so a
    session's next request finds the secret whichever worker answers it. It holds `size`
    sessions in buckets of a few slots, keyed by a hash of the session id; when a bucket is full
    the entry closest to expiry gives way (that player types the secret once)."""

    _WAYS, _SLOT, _HEAD = 4, 512, 26  # slot: tag 16 bytes, expiry 8, length 2, then the secret

    def __init__(self, seconds: float, size: int = 10_000):
        self.seconds, self.size = seconds, size
        self._buckets = max(1, -(-size // self._WAYS))
        self._memory = mmap.mmap(-1, self._buckets * self._WAYS * self._SLOT)  # anonymous: shared, not a file
        self._lock = multiprocessing.Lock()  # a semaphore: holds across the worker processes and their threads

    def keep(self, sid: str, secret: str) -> None:
        data = secret.encode("utf-8")
        if not sid or len(data) > self._SLOT - self._HEAD:
            return
        tag = self._tag(sid)
        with self._locked() as ok:
            if not ok:
                return
            now = time.monotonic()
            slots = self._slots(tag)
            where = next((at for at in slots if self._memory[at:at + 16] == tag), None)
            if where is None:
                where = min(slots, key=lambda at: self._expiry(at) if self._memory[at:at + 16] != _EMPTY else -1.0)
            self._memory[where:where + self._SLOT] = (tag + struct.pack("<dH", now + self.seconds, len(data)) + data
                                                     ).ljust(self._SLOT, b"\0")

    def get(self, sid: str | None) -> str | None:
        if not sid:
            return None
        tag = self._tag(sid)
        with self._locked() as ok:
            if not ok:
                return None
            for at in self._slots(tag):
                if self._memory[at:at + 16] != tag:
                    continue
                if self._expiry(at) <= time.monotonic():
                    self._memory[at:at + self._SLOT] = bytes(self._SLOT)
                    return None
                length = struct.unpack_from("<H", self._memory, at + 24)[0]
                return self._memory[at + self._HEAD:at + self._HEAD + length].decode("utf-8")
        return None

    def forget(self, sid: str | None) -> None:
        if not sid:
            return
        tag = self._tag(sid)
        with self._locked() as ok:
            if ok:
                for at in self._slots(tag):
                    if self._memory[at:at + 16] == tag:
                        self._memory[at:at + self._SLOT] = bytes(self._SLOT)

    @staticmethod
    def _tag(sid: str) -> bytes:
        tag = hashlib.sha256(sid.encode("utf-8")).digest()[:16]
        return tag if tag != _EMPTY else b"\1" + tag[1:]

    def _slots(self, tag: bytes) -> list[int]:
        first = int.from_bytes(tag[:8], "little") % self._buckets * self._WAYS * self._SLOT
        return [first + way * self._SLOT for way in range(self._WAYS)]

    def _expiry(self, at: int) -> float:
        return struct.unpack_from("<d", self._memory, at + 16)[0]

    @contextmanager
    def _locked(self):
        # A worker killed while holding the lock must not stop the others: after a second without
        # it, the vault answers "not kept" (the player types the secret) instead of waiting.
        ok = self._lock.acquire(timeout=1.0)
        try:
            yield ok
        finally:
            if ok:
                self._lock.release()


_EMPTY = bytes(16)
