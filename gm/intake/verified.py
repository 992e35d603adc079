"""Seat secrets this process has verified already, so a mailbox of turn files pays scrypt once per seat."""
from __future__ import annotations

import hashlib
import hmac
import secrets

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
    """

    def __init__(self, check=check_secret):
        self._key = secrets.token_bytes(32)
        self._known: set[bytes] = set()
        self._check = check

    def __call__(self, secret: str, stored: str) -> bool:
        tag = hmac.new(self._key, stored.encode() + b"\0" + secret.encode("utf-8", "replace"), hashlib.sha256).digest()
        if tag in self._known:
            return True
        if not self._check(secret, stored):
            return False
        if len(self._known) >= MOST_REMEMBERED:
            self._known.clear()
        self._known.add(tag)
        return True
