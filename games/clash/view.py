"""What one seat sees of a Clash of Empires game: the report's view, its order form and labels."""

from __future__ import annotations

from functools import partial
from typing import cast

from gm.core.forms import first_example, wrapped_comment
from gm.core.known import NOBODY, Column, Sighting, listing
from gm.core.model import JSONObject

from .board import (
    NEUTRAL,
    controlled,
    core_of,
    free_to_claim,
    holder,
    nation,
    order_of_play,
    places,
    troops_of,
)
from .orders import TROOP_COST, check_orders, parse_orders
from .rules import outcome

EMPTY_COLOUR = "#d9d9d9"  # light grey for territories nobody controls


def turn_label(state: JSONObject) -> str:
    phase = state["phase"]
    if phase == "claim":
        return "Set-up: claiming territories"
    if phase == "place":
        return f"Set-up: placing {state['scenario']['start_units']} units"
    if phase == "play":
        return f"Round {state['round']} of {state['rounds']}"
    return "Game over"


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a seat's report. Clash is open information, so all seats see the board."""
    result = outcome(state)
    return {
        "ruleset": "clash",
        "title": state["scenario"]["title"],
        "seat": seat,
        "phase": state["phase"],
        "round": state["round"],
        "rounds": state["rounds"],
        # The scenario's public numbers (the rule book's 20 units and 100 cubes): the player's
        # own check warns of units left unplaced and a recruit past the limit from them.
        "start_units": state["scenario"]["start_units"],
        "unit_limit": state["scenario"]["unit_limit"],
        "turn_label": turn_label(state),
        "map": _map(state),
        "seats": [_seat_line(state, code) for code in state["seating"]],
        "you": _you(state, seat) if seat in state["seats"] else None,
        "order_of_play": order_of_play(state),
        "known": known(state, seat),
        "outcome": result.to_json() if result else None,
    }


def _colour(state: JSONObject, owner: str | None) -> str:
    if owner is None:
        return EMPTY_COLOUR
    if owner == NEUTRAL:
        return cast(str, state["scenario"]["neutral_colour"])
    return cast(str, state["seats"][owner]["colour"])


def _map(state: JSONObject) -> JSONObject:
    scenario = state["scenario"]
    territories = []
    for place in scenario["territories"]:
        code = place["code"]
        owner = holder(state, code)
        territories.append(
            {
                "code": code,
                "name": place["name"],
                "x": place["x"],
                "y": place["y"],
                "neighbours": list(place["neighbours"]),
                "owner": owner,
                "troops": state["territories"][code]["troops"],
                "core_of": state["territories"][code]["core_of"],
                "colour": _colour(state, owner),
            }
        )
    return {"width": scenario["width"], "height": scenario["height"], "territories": territories}


def _seat_line(state: JSONObject, code: str) -> JSONObject:
    seat = state["seats"][code]
    return {
        "code": code,
        "name": seat["name"],
        "nation": seat["nation"],
        "colour": seat["colour"],
        "money": seat["money"],
        "vp": seat["vp"],
        "territories": len(controlled(state, code)),
        "troops": troops_of(state, code),
    }


def _you(state: JSONObject, code: str) -> JSONObject:
    seat = state["seats"][code]
    known = places(state)
    held = [
        {
            "code": c,
            "name": known[c]["name"],
            "troops": state["territories"][c]["troops"],
            "neighbours": list(known[c]["neighbours"]),
        }
        for c in controlled(state, code)
    ]
    return {
        "code": code,
        "name": seat["name"],
        "nation": seat["nation"],
        "colour": seat["colour"],
        "money": seat["money"],
        "vp": seat["vp"],
        "core": core_of(state, code),
        "territories": held,
    }


KNOWN_COLUMNS = (Column("Troops", numeric=True), Column("Home of"), Column("Next to yours"))


def known(state: JSONObject, seat: str) -> JSONObject:
    """Every territory the seat does not hold, by holder: the board is open (every troop on it
    is in plain sight), so troops, whose home it is and which of the seat's territories border it."""
    known_places = places(state)
    mine = set(controlled(state, seat))
    sightings = []
    for place in state["scenario"]["territories"]:
        code = place["code"]
        if code in mine:
            continue
        territory = state["territories"][code]
        home = territory["core_of"]
        near = " ".join(n for n in known_places[code]["neighbours"] if n in mine)
        sightings.append(
            Sighting(
                code,
                place["name"],
                holder(state, code) or NOBODY,
                (territory["troops"], nation(state, home) if home else "", near),
            )
        )
    return listing(
        "Every territory you see",
        "Territory",
        ("territory", "territories"),
        KNOWN_COLUMNS,
        sightings,
        state["seating"],
        {NEUTRAL: "Neutral troops", NOBODY: "Empty"},
    )


# ----------------------------------------------------------------------------------------------
# The order form: the ruleset's lines of the prefilled form for the turn being collected.


def order_form(state: JSONObject, seat: str) -> list[str]:
    if seat not in state["seats"]:
        return [f"# {seat} has no seat in this game."]
    forms = {"claim": _claim_form, "place": _place_form, "play": _play_form}
    if state["phase"] not in forms:
        return ["# The game is over: no orders are needed."]
    return forms[state["phase"]](state, seat)


def _claim_form(state: JSONObject, seat: str) -> list[str]:
    known = places(state)
    free = [f"{c} {known[c]['name']}" for c in free_to_claim(state)]
    return [
        "# Set-up: claim your core territories. List the ones you want, best first, on one",
        "# or more CLAIM lines. Seats pick one at a time in a draft order drawn by lot; each",
        "# pick takes the first free territory on your list, or a seeded draw when none of it",
        "# is free (or you send no list). Picking goes round until every territory is",
        "# claimed.",
        *wrapped_comment("# Free to claim:", free, separator=","),
        *_for_example(state, seat, [f"CLAIM {' '.join(free_to_claim(state)[:3])}"]),
    ]


def _place_form(state: JSONObject, seat: str) -> list[str]:
    cores = core_of(state, seat)
    known = places(state)
    units = min(state["scenario"]["start_units"], state["scenario"]["unit_limit"] - troops_of(state, seat))
    lines = [
        f"# Set-up: place your {units} units anywhere on the board where no other troops stand:",
        "# PLACE <territory> <n>. Empires place in the order of play; a territory another",
        "# reaches first is theirs, and your order there fails: its units go to your orders",
        "# below it. Units you do not place are spread one at a time over your core",
        "# territories, in code order.",
        "# Your core territories and their neighbours:",
    ]
    lines += [f"#   {c} {known[c]['name']}: next to {', '.join(known[c]['neighbours'])}" for c in cores]
    # The prefilled orders spread the units evenly, as the default spreading would.
    free = [c for c in cores if holder(state, c) in (None, seat)]
    if not free:
        return lines + [
            "#   (none you can place on: others hold them all, so units you do not place are",
            "#   spread over the territories where no troops stand, in code order)",
        ]
    share = {c: units // len(free) + (i < units % len(free)) for i, c in enumerate(free)}
    return lines + [f"PLACE {c} {n}" for c, n in share.items() if n]


def _play_form(state: JSONObject, seat: str) -> list[str]:
    me = state["seats"][seat]
    known = places(state)
    on_board, limit = troops_of(state, seat), state["scenario"]["unit_limit"]
    afford = min(me["money"] // TROOP_COST, limit - on_board)
    lines = [
        f"# {turn_label(state)}: {me['nation']} has ${me['money']}, {me['vp']} VP and "
        f"{on_board} of {limit} troops on the board.",
        "# Your one action this round: PASS, RECRUIT <territory> <n>, REVOLT <territory>,",
        "#   or MOVE <from> <to> <n|ALL>.",
        f"#   PASS gains $1. RECRUIT costs ${TROOP_COST} a troop: you can afford {afford} now.",
        "#   REVOLT removes one foreign troop from one of your core territories.",
        "#   MOVE into an enemy or neutral territory attacks it; taking it gains 1 VP.",
        "#   If the die shows 6 there are no actions this round.",
        "# Your territories (troops: neighbours):",
    ]
    for code in controlled(state, seat):
        near = [f"{n}({_short_owner(state, n, seat)})" for n in known[code]["neighbours"]]
        lines += wrapped_comment(f"#   {code} {state['territories'][code]['troops']}:", near, indent="#       ")
    return lines + _for_example(state, seat, *_actions(state, seat, afford)) + ["PASS"]


def _actions(state: JSONObject, seat: str, afford: int) -> list[list[str]]:
    """Candidates for each action drawn from the seat's territories now, likeliest first: a
    MOVE that takes a territory (else one to a territory of its own), a RECRUIT it can pay."""
    known, troops = places(state), {c: t["troops"] for c, t in state["territories"].items()}
    mine = sorted(controlled(state, seat), key=lambda c: (-troops[c], c))
    attacks = [
        f"MOVE {c} {n} {troops[c]}"
        for c in mine
        for n in known[c]["neighbours"]
        if holder(state, n) != seat and troops[c] > (troops[n] if holder(state, n) else 0)
    ]
    moves = [f"MOVE {c} {n} {troops[c]}" for c in mine for n in known[c]["neighbours"] if holder(state, n) == seat]
    return [attacks + moves, [f"RECRUIT {c} {afford}" for c in mine if afford]]


def _for_example(state: JSONObject, seat: str, *candidates: list[str]) -> list[str]:
    """For each list of candidates, the first the GM's check passes as written: examples true
    for their reader now (none when nothing fits)."""
    check = partial(check_orders, state, seat)
    found = [e for lines in candidates if (e := first_example(lines[:8], parse_orders, check)[0])]
    return ["# For example:  " + "  ".join(found)] if found else []


def _short_owner(state: JSONObject, code: str, seat: str) -> str:
    owner = holder(state, code)
    if owner is None:
        return "empty"
    label = "yours" if owner == seat else ("neutral" if owner == NEUTRAL else owner)
    return f"{label} {state['territories'][code]['troops']}"
