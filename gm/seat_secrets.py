"""Seat secrets: generated once, shown once, stored only as a salted scrypt hash."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# No 0/o, 1/l/i: players copy secrets from paper reports into mail by hand.
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
# scrypt's cost is sized to what it guards. A seat secret is drawn at random, 59 bits, never
# chosen by a person: n=2**10 (1 MiB, about 3 ms a check) puts an offline search of one stolen
# hash at 2**58 checks, some 27 million CPU-years, and lets the house check a mailbox's secrets,
# and a stranger's wrong ones, 16 times cheaper than n=2**14. Passwords people choose (GM and staff
# accounts, gm.services.portal_access) keep n=2**14. A stored hash names its own n, so hashes made
# with the old n still check.
_N, _R, _P = 2**10, 8, 1


def new_secret(groups: int = 3) -> str:
    """A secret like '7f3k-29qa-xm4p': groups of four (about 20 bits each; three: 59 bits)."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(groups))


def hash_secret(secret: str) -> str:
    """scrypt (hashlib, the standard library's) with a random salt, as 'scrypt$n$r$p$salt$hash'."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(_normal(secret), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return "$".join(["scrypt", str(_N), str(_R), str(_P), _b64(salt), _b64(digest)])


# A hash of a secret nobody has, made as hash_secret makes them: an unknown seat is checked
# against it, so that a sign-in takes as long whether or not the seat exists.
DECOY_HASH = "$".join(["scrypt", str(_N), str(_R), str(_P), "A" * 22 + "==", "A" * 43 + "="])


def check_secret(secret: str, stored: str) -> bool:
    """True when secret matches the stored hash; compared in constant time."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        actual = hashlib.scrypt(
            _normal(secret), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=len(_unb64(digest))
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, _unb64(digest))


def _normal(secret: str) -> bytes:
    # Secrets are case-insensitive: a player may type them in capitals from a printed report.
    return secret.strip().lower().encode("utf-8")


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"))
