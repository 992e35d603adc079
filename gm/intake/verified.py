"""Seat secrets this process has verified already, so a mailbox of turn files pays scrypt once per seat."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor

from gm.seat_secrets import check_secret

# Enough for every seat of a large PBM house; past it the memory starts again (and scrypt is paid again).
MOST_REMEMBERED = 100_000


class VerifiedSecrets:
    """A secret check (secret, stored hash) -> bool that remembers its successes for this process.

    scrypt costs about 50 ms on purpose, to make guessing slow; a mailbox of 10,000 turn files
    would spend 8 minutes re-proving the same few dozen secrets. What is remembered is an HMAC of
    (stored hash, secret) under a key drawn at random for this process: no plaintext, nothing that
    outlives the process, nothing that can be tested offline. Wrong secrets are never remembered,
    so every guess still costs a full scrypt; a new secret (a new stored hash) is a new key.

    prove(pairs) starts checking pairs in background threads (scrypt lets other threads run), so
    a mailbox's secrets are checked while earlier mail is decided; the check of a pair asked for
    later waits for that result and uses it once: a success is remembered as above, a failure
    answers that one check only, so each guess still costs its own scrypt.
    """

    def __init__(self, check: Callable[[str, str], bool] = check_secret) -> None:
        self._key = secrets.token_bytes(32)
        self._known: set[bytes] = set()
        self._check = check
        self._proving: dict[bytes, Future[bool]] = {}
        self._lock = threading.Lock()
        self._threads: ThreadPoolExecutor | None = None

    def __call__(self, secret: str, stored: str) -> bool:
        tag = self._tag(secret, stored)
        if tag in self._known:
            return True
        with self._lock:
            proving = self._proving.pop(tag, None)
        right = proving.result() if proving is not None else self._check(secret, stored)
        if right:
            self._remember(tag)
        return right

    def known(self, secret: str, stored: str) -> bool:
        """Whether this process has verified the pair already (a check of it costs nothing)."""
        return self._tag(secret, stored) in self._known

    def prove(self, pairs: Iterable[tuple[str, str]], threads: int) -> None:
        """Start checking each (secret, stored hash) not known yet nor being checked."""
        for secret, stored in pairs:
            tag = self._tag(secret, stored)
            with self._lock:
                if tag in self._known or tag in self._proving:
                    continue
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(max(1, threads), thread_name_prefix="gm-secrets")
                self._proving[tag] = self._threads.submit(self._check, secret, stored)

    def close(self) -> None:
        """Stop the background threads (checks not asked for yet are dropped)."""
        with self._lock:
            threads, self._threads = self._threads, None
            self._proving.clear()
        if threads is not None:
            threads.shutdown(wait=True, cancel_futures=True)

    def _tag(self, secret: str, stored: str) -> bytes:
        return hmac.new(self._key, stored.encode() + b"\0" + secret.encode("utf-8", "replace"), hashlib.sha256).digest()

    def _remember(self, tag: bytes) -> None:
        if len(self._known) >= MOST_REMEMBERED:
            self._known.clear()
        self._known.add(tag)
