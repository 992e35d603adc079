"""Seat secrets: generated once, shown once, stored only as a salted scrypt hash."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# No 0/o, 1/l/i: players copy secrets from paper reports into mail by hand.
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_N, _R, _P = 2**14, 8, 1


def new_secret(groups: int = 3) -> str:
    """A secret like '7f3k-29qa-xm4p': groups of four (about 20 bits each; three: 59 bits)."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(groups))


def hash_secret(secret: str) -> str:
    """scrypt (hashlib, the standard library's) with a random salt, as 'scrypt$n$r$p$salt$hash'."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(_normal(secret), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return "$".join(["scrypt", str(_N), str(_R), str(_P), _b64(salt), _b64(digest)])


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
