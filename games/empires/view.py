"""What one seat sees of an Empires game: the report's view, its order form and turn labels.

Never in a view: the census schedule, other countries' VP (only the leader's, 11.3), other
countries' BPs, reserves and orders, and events the seat may not see.
"""

from __future__ import annotations

from random import Random
from typing import cast

from gm.core import victory
from gm.core.forms import wrapped_comment
from gm.core.known import Column, Sighting, listing
from gm.core.model import JSONObject

from .board import NEUTRAL, Board, alive, armies_on_map, nation, owned, plural
from .rules import outcome

SEA_OWNER = "sea"  # how seas appear on the shared map (the legend names them "sea")


def turn_label(state: JSONObject) -> str:
    return "Game over" if state.get("phase") == "over" else f"Turn {state['turn']}"


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a seat's report."""
    result = outcome(state)
    record = state[victory.STATE_KEY]
    survivors = alive(state)
    top = max((state["vp"][s] for s in survivors), default=None)
    return {
        "ruleset": "empires",
        "title": state["scenario"]["title"],
        "seat": seat,
        "phase": state["phase"],
        "turn": state["turn"] - 1,
        "turn_label": turn_label(state),
        "map": _map(state),
        "seats": [_roundup_line(state, code, seat) for code in state["seating"]],
        "leader": {"codes": [s for s in survivors if state["vp"][s] == top], "vp": top},
        "warning": _warning(state, record),
        "last_census": state["last_census"],
        "census_now": state["last_census"] is not None and state["last_census"] == state["turn"] - 1,
        "target": record["target"],
        "you": _you(state, seat) if seat in state["countries"] else None,
        "order_of_play": [s for s in state["order_of_play"] if s in survivors],
        "known": known(state, seat),
        "outcome": result.to_json() if result else None,
    }


def _warning(state: JSONObject, record: JSONObject) -> JSONObject | None:
    if record["warning"] is None or state["phase"] == "over":
        return None
    leader = record.get("leader")
    return {
        "since": record["warning"],
        "leader": leader,
        "nation": nation(state, leader) if leader else None,
        "vp": state["vp"].get(leader) if leader else None,
    }


def _colour(state: JSONObject, owner: str | None) -> str:
    if owner == NEUTRAL or owner is None:
        return cast(str, state["scenario"]["neutral_colour"])
    return cast(str, state["countries"][owner]["colour"])


def _map(state: JSONObject) -> JSONObject:
    scenario = state["scenario"]
    capitals = {c["capital"]: code for code, c in state["countries"].items()}
    territories = []
    for place in scenario["areas"]:
        code = place["code"]
        if place["land"]:
            area = state["areas"][code]
            owner, troops, colour = area["owner"], area["armies"], _colour(state, area["owner"])
        else:
            owner, troops, colour = SEA_OWNER, "", scenario["sea_colour"]
        territories.append(
            {
                "code": code,
                "name": place["name"],
                "x": place["x"],
                "y": place["y"],
                "neighbours": list(place["neighbours"]),
                "owner": owner,
                "troops": troops,
                "core_of": capitals.get(code),
                "colour": colour,
            }
        )
    return {"width": scenario["width"], "height": scenario["height"], "territories": territories}


def _roundup_line(state: JSONObject, code: str, seat: str) -> JSONObject:
    # The reserve is off the board and is where a country's leftover BPs go (ARMY ALL): another
    # country's would tell its treasury, and a gift between two others (D-ALL-5).
    country = state["countries"][code]
    return {
        "code": code,
        "nation": country["nation"],
        "name": country["name"],
        "colour": country["colour"],
        "areas": len(owned(state, code)),
        "armies": armies_on_map(state, code),
        "reserve": country["reserve"] if code == seat else None,
        "capital": country["capital"],
        "eliminated": state[victory.STATE_KEY]["eliminated"].get(code),
    }


def _you(state: JSONObject, seat: str) -> JSONObject:
    board = Board.of(state)
    country = state["countries"][seat]
    mine = owned(state, seat)
    areas = [
        dict(
            state["areas"][c],
            code=c,
            name=board.name(c),
            terrain=board.places[c]["terrain"],
            capital=c == country["capital"],
            reach=sorted(board.reach[c]),
        )
        for c in mine
    ]
    return {
        "code": seat,
        "nation": country["nation"],
        "name": country["name"],
        "colour": country["colour"],
        "vp": state["vp"][seat],
        "bps": country["bps"],
        "reserve": country["reserve"],
        "capital": country["capital"],
        "eliminated": state[victory.STATE_KEY]["eliminated"].get(seat),
        "areas": areas,
        "finances": dict(state["books"][seat]),
        "vp_changes": [c for c in state["vp_changes"] if c["seat"] == seat],
        "neighbours": _neighbours(state, board, seat, mine),
    }


def _neighbours(state: JSONObject, board: Board, seat: str, mine: list[str]) -> list[JSONObject]:
    near: dict[str, list[str]] = {}
    for code in mine:
        for other in board.reach[code]:
            if state["areas"][other]["owner"] != seat:
                near.setdefault(other, []).append(code)
    out = []
    for code in sorted(near):
        area = state["areas"][code]
        out.append(
            {
                "code": code,
                "name": board.name(code),
                "terrain": board.places[code]["terrain"],
                "owner": area["owner"],
                "nation": nation(state, area["owner"]),
                "population": area["population"],
                "armies": area["armies"],
                "fort": area["fort"],
                "next_to": near[code],
            }
        )
    return out


KNOWN_COLUMNS = (
    Column("Terrain"),
    Column("Population", numeric=True),
    Column("Armies", numeric=True),
    Column("Fort", numeric=True),
)


def known(state: JSONObject, seat: str) -> JSONObject:
    """Every land area, by holder, the seat's own too: the map is open (areas, their owners,
    armies, population and forts), so every seat reads the same listing and the report lays it
    out once a turn (gm.render.turnpages). Which foreign areas are next to the seat's is in
    its neighbours table. Never another country's BPs, VP or orders (11.3)."""
    board = Board.of(state)
    capitals = {c["capital"] for c in state["countries"].values()}
    sightings = []
    for code in board.land:
        area = state["areas"][code]
        cells = (board.places[code]["terrain"], area["population"], area["armies"], area["fort"])
        sightings.append(Sighting(code, board.name(code), area["owner"], cells, "capital" if code in capitals else ""))
    return listing(
        "Every area on the board",
        "Area",
        ("area", "areas"),
        KNOWN_COLUMNS,
        sightings,
        state["seating"],
        {NEUTRAL: "Neutral areas"},
        'The map is open: every land area, yours too, by who holds it. The foreign areas next to yours are listed under "Your neighbours".',
        everyone=True,
    )


# ----------------------------------------------------------------------------------------------
# The order form: the ruleset's lines of the prefilled turn file.


def order_form(state: JSONObject, seat: str) -> list[str]:
    if seat not in state["countries"]:
        return [f"# {seat} has no seat in this game."]
    if state["phase"] == "over":
        return ["# The game is over: no orders are needed."]
    if seat in state[victory.STATE_KEY]["eliminated"]:
        return ["# Your country has been eliminated: no orders are needed."]
    country = state["countries"][seat]
    board = Board.of(state)
    lines = [
        f"# {turn_label(state)}: {country['nation']} has {plural(country['bps'], 'BP')} and {plural(country['reserve'], 'reserve army')}.",
        "# Up to 16 actions, one a line: [N] ACTION WHERE WHERE-TO NUMBER, with '-' for",
        "# an unused field; NUMBER is a number, ALL, or AB-n (all but n).",
        "# Everyone's action 1 is carried out first, then everyone's action 2, ...",
        "# ARMY - - n       3 BPs an army, into the reserve (no n: all the BPs pay for)",
        "# RESERVE area - n 1 BP a reserve army placed on the map (not after an ARMY)",
        "# LEVY area        half the population becomes armies, free",
        "# GROW area        population + 1, for population + terrain BPs",
        "# FORTIFY area     2 BPs x the new level (3 at most); RAZE area - n: 1 BP a level",
        "# MOVE from to n, ATTACK from target n: 1 BP;  GIFT - country n: give BPs",
        "# DEFEND area, AMBUSH area, ENTRENCH area against, RETREAT area to: free, all turn",
        "# Leftover BPs become armies, 3 BPs each: the automatic 17th action, ARMY ALL.",
        "# Your areas (population/armies/fort: can reach):",
    ]
    example = None
    for code in owned(state, seat):
        area = state["areas"][code]
        reach = sorted(board.reach[code])
        head = f"#   {code} {area['population']}/{area['armies']}/{area['fort']}:"
        lines += wrapped_comment(head, reach, indent="#" + " " * len(head))
        foreign = [r for r in reach if state["areas"][r]["owner"] != seat]
        if example is None and foreign and area["armies"]:
            example = f"# For example:  1 ATTACK {code} {foreign[0]} {area['armies']}"
    return lines + [example or "# For example:  1 ARMY - - ALL"]


def hidden_variant(state: JSONObject, seat: str, rng: Random) -> JSONObject:
    """The state with only what `seat` alone may know changed (the contract's check, D-ALL-5):
    its BPs, its books and its reserve, and, while the game runs and it does not lead, its VP
    (lowered, so the leader, whose score is public by 11.3, stays the same)."""
    other = dict(state, countries=dict(state["countries"]), books=dict(state["books"]), vp=dict(state["vp"]))
    extra = rng.randint(1, 5)
    country = state["countries"][seat]
    other["countries"][seat] = dict(country, bps=country["bps"] + extra, reserve=country["reserve"] + rng.randint(1, 5))
    other["books"][seat] = dict(state["books"][seat], next=state["books"][seat]["next"] + extra)
    survivors = alive(state)
    top = max((state["vp"][s] for s in survivors), default=None)
    if state["phase"] != "over" and state["vp"][seat] != top:
        other["vp"][seat] = state["vp"][seat] - rng.randint(1, 5)
    return other
