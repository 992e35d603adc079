"""Seat secrets as stored: a salted scrypt hash whose cost suits a 59-bit random secret."""

from __future__ import annotations

import base64
import hashlib

from gm import seat_secrets
from gm.seat_secrets import DECOY_HASH, check_secret, hash_secret, new_secret


def _params(stored: str) -> tuple[str, int, int, int]:
    scheme, n, r, p, _salt, _digest = stored.split("$")
    return scheme, int(n), int(r), int(p)


def test_a_secret_is_stored_salted_and_checked_case_blind():
    secret = new_secret()
    first, second = hash_secret(secret), hash_secret(secret)
    assert first != second and secret not in first  # a salt each time, no plaintext
    assert check_secret(secret.upper(), first) and check_secret(f"  {secret} ", second)
    assert not check_secret(secret[:-1] + ("2" if secret[-1] != "2" else "3"), first)


def test_the_work_an_offline_search_pays_stays_memory_hard():
    # 59 random bits at n=2**10, r=8 (1 MiB a check): a stolen hash takes 2**58 checks of 1 MiB.
    scheme, n, r, p = _params(hash_secret(new_secret()))
    assert scheme == "scrypt" and 128 * n * r >= 2**20 and p >= 1
    assert len(new_secret()) == 14 and len(seat_secrets._ALPHABET) ** 12 >= 2**59


def test_an_unknown_seat_is_checked_at_the_cost_of_a_known_one():
    # The decoy is made with the parameters of every new hash, so timing cannot tell them apart.
    assert _params(DECOY_HASH) == _params(hash_secret(new_secret()))
    assert not check_secret("", DECOY_HASH) and not check_secret("aaaa-aaaa-aaaa", DECOY_HASH)


def test_a_hash_made_with_the_former_cost_still_checks():
    # Homes made before the cost was sized to the secret hold n=2**14 hashes; their players sign in.
    secret, salt = "7f3k-29qa-xm4p", b"s" * 16
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    old = "$".join(["scrypt", "16384", "8", "1", base64.b64encode(salt).decode(), base64.b64encode(digest).decode()])
    assert check_secret("7F3K-29QA-XM4P", old) and not check_secret("7f3k-29qa-xm4q", old)
