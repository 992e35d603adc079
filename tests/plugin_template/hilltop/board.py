"""What the rules and the view both read of a Hilltop state: hills, holders, neighbours."""

from __future__ import annotations

from typing import cast

from gm.core.model import JSONObject
from gm.core.names import named


def hills(state: JSONObject) -> dict[str, JSONObject]:
    """The scenario's hills by code, in map order."""
    return {str(h["code"]): h for h in state["scenario"]["hills"]}


def holder(state: JSONObject, hill: str) -> str | None:
    return cast(str | None, state["hills"][hill]["owner"])


def warriors(state: JSONObject, hill: str) -> int:
    return int(state["hills"][hill]["warriors"])


def held(state: JSONObject, seat: str) -> list[str]:
    """The seat's hills, in map order."""
    return [code for code in hills(state) if holder(state, code) == seat]


def clans(state: JSONObject) -> list[str]:
    """The clans playing, in seating order."""
    return [str(code) for code in state["clans"]]


def hill_name(state: JSONObject, hill: str) -> str:
    """ "North Hill (N)": as the map labels it."""
    return named(hills(state)[hill]["name"], hill)


def clan_name(state: JSONObject, seat: str) -> str:
    return named(state["seats"][seat]["name"], seat)
