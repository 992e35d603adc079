"""What one clan sees of a Hilltop game: the report's view, its order form and the turn's label."""

from __future__ import annotations

from gm.core.known import NOBODY, Column, Sighting, listing
from gm.core.model import JSONObject

from .board import clans, held, hills, holder, warriors
from .rules import outcome

EMPTY = "#dddddd"  # a hill nobody holds


def turn_label(state: JSONObject) -> str:
    if outcome(state):
        return "Game over"
    return f"Turn {state['turn']} of {state['turns']}"


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a clan's report. The hills are in plain sight: every clan sees them all."""
    over = outcome(state)
    return {
        "ruleset": "hilltop",
        "title": state["scenario"]["title"],
        "seat": seat,
        "turn": state["turn"],
        "turns": state["turns"],
        "seats": [_clan(state, code) for code in clans(state)],
        "map": _map(state),
        "known": _known(state, seat),
        "you": {"hills": held(state, seat)} if seat in state["seats"] else None,
        "outcome": over.to_json() if over else None,
    }


def _clan(state: JSONObject, code: str) -> JSONObject:
    seat = state["seats"][code]
    return {"code": code, "name": seat["player"], "nation": seat["name"], "colour": seat["colour"]}


def _map(state: JSONObject) -> JSONObject:
    """A graph map: the shared page draws it. width and height are the frame of x and y."""
    scenario = state["scenario"]
    territories = []
    for code, hill in hills(state).items():
        owner = holder(state, code)
        territories.append(
            {
                "code": code,
                "name": hill["name"],
                "x": hill["x"],
                "y": hill["y"],
                "neighbours": list(hill["neighbours"]),
                "owner": owner,
                "troops": warriors(state, code),
                "colour": state["seats"][owner]["colour"] if owner else EMPTY,
            }
        )
    return {"width": scenario["width"], "height": scenario["height"], "territories": territories}


def _known(state: JSONObject, seat: str) -> JSONObject:
    """Every hill the clan does not hold: holder and warriors are in plain sight."""
    mine = set(held(state, seat))
    sightings = [
        Sighting(code, hill["name"], holder(state, code) or NOBODY, (warriors(state, code),))
        for code, hill in hills(state).items()
        if code not in mine
    ]
    columns = (Column("Warriors", numeric=True),)
    return listing("Every hill you see", "Hill", ("hill", "hills"), columns, sightings, clans(state), {NOBODY: "Empty"})


def order_form(state: JSONObject, seat: str) -> list[str]:
    if outcome(state):
        return ["# The game is over: no orders are needed."]
    lines = ["# MOVE FROM TO N: send N warriors from your hill FROM to the hill TO next to it."]
    for code in held(state, seat):
        near = " ".join(hills(state)[code]["neighbours"])
        lines.append(f"#   {code}: {warriors(state, code)} warriors, next to {near}")
    return lines
