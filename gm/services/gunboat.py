"""Gunboat games: who plays which seat is hidden from the players (setting gunboat) until the
end, then revealed or not (gunboat-reveal). Every seat is named by its code in the game's
state and in every table a report, a page or a mail shows of the seats."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from gm.services.game_settings import game_setting
from gm.store.records import GameRecord, SeatRecord


def is_gunboat(game: GameRecord) -> bool:
    return bool(game_setting(game, "gunboat"))


def hidden_name(code: str) -> str:
    """What a seat's player is called in a gunboat game: by the seat alone."""
    return f"Player {code}"


def names_hidden(game: GameRecord, over: bool) -> bool:
    """Whether the players' names stay out of what the seats read: a gunboat game's, while it
    runs, and after its end unless the GM reveals them (gunboat-reveal)."""
    return is_gunboat(game) and (not over or not game_setting(game, "gunboat-reveal"))


def as_shown(game: GameRecord, seats: list[SeatRecord], over: bool) -> list[SeatRecord]:
    """The seats as a table every seat reads shows them: the players' names hidden where
    names_hidden says so (their addresses are in no such table)."""
    if not names_hidden(game, over):
        return seats
    return [dataclasses.replace(seat, name=hidden_name(seat.code), email="") for seat in seats]


def unmasked(game: GameRecord, seats: list[SeatRecord], over: bool, value: Any) -> Any:
    """At the end of a gunboat game whose names are revealed, `value` (a seat's view, its
    events) with every seat's masked name (hidden_name, which the state has held since the
    start) given as its player's name, so the rulesets' own tables name them as the standings
    do; anything else as it is. The state is not touched: the game replays as played."""
    if not (is_gunboat(game) and over and not names_hidden(game, over)) or not seats:
        return value
    names = {seat.code: seat.name for seat in seats}
    masked = re.compile(
        r"\bPlayer (" + "|".join(re.escape(code) for code in sorted(names, key=len, reverse=True)) + r")\b"
    )

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return masked.sub(lambda found: names[found[1]], item)
        if isinstance(item, list):
            return [walk(part) for part in item]
        if isinstance(item, dict):
            return {key: walk(part) for key, part in item.items()}
        return item

    return walk(value)
