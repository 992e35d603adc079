"""Canonical JSON for states, and the state hash stored with every turn."""

from __future__ import annotations

import hashlib
import json

from gm.core.model import JSONObject


def canonical_json(value: object) -> str:
    """JSON with sorted keys and no spaces: the same value always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: JSONObject) -> str:
    """SHA-256 of the canonical JSON of a state, as hex."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()
