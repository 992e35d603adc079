"""An audit entry's details in words, for `gm audit` and the GM's portal page: "turn 3, state
68e86dbdba97", "account ann@example.org, credits 10, money 25.00" ( `gm audit --json` keeps the
details as stored)."""

from __future__ import annotations

import re
from typing import Any

from gm.core.words import counted
from gm.services.credits import format_money

# Keys said otherwise than their name: a digest by its first 12 characters, like gm turn run.
_LABELS = {"state_hash": "state", "from_turn": "from turn"}
_DIGEST = re.compile(r"^[0-9a-f]{40,64}$")


def detail_words(detail: object) -> str:
    """The details as "key value, key value, ...", in the order they were written."""
    if isinstance(detail, dict):
        return ", ".join(
            f"{_LABELS.get(key, key.replace('_', ' '))} {_value(key, value)}" for key, value in detail.items()
        )
    return _value("", detail)


def _value(key: str, value: object) -> str:
    if key == "money" and isinstance(value, int):
        return format_money(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, str):
        return value[:12] if _DIGEST.match(value) else value
    if isinstance(value, dict):
        return f"({detail_words(value)})" if value else "none"
    if isinstance(value, list):
        return _list(key, value)
    return str(value)


def _list(key: str, items: list[Any]) -> str:
    """A list of plain values in full; of records (turns a re-run discarded, say) by number when
    they have one, else how many."""
    if not items:
        return "none"
    if all(isinstance(item, dict) for item in items):
        numbers = [item.get("number") for item in items]
        if all(isinstance(n, int) for n in numbers):
            return ", ".join(map(str, numbers))
        return counted(len(items), "entry", "entries")
    return ", ".join(_value(key, item) for item in items)
