"""Seeded randomness (rule D-ALL-1): one random.Random per (game seed, turn, purpose)."""

from __future__ import annotations

import hashlib
from random import Random


def derive_seed(game_seed: int, turn: int, purpose: str) -> int:
    """A stable 64-bit seed from SHA-256 of the game seed, the turn number and the purpose."""
    digest = hashlib.sha256(f"{game_seed}:{turn}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(game_seed: int, turn: int, purpose: str) -> Random:
    """The generator for one purpose in one turn; the same arguments give the same sequence."""
    return Random(derive_seed(game_seed, turn, purpose))
