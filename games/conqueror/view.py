"""What one seat sees of a Conqueror! game: the report's view, its order form and turn labels."""

from __future__ import annotations

import copy
from random import Random
from typing import cast

from gm.core.forms import first_example, not_possible, spaced_examples, wrapped_comment
from gm.core.known import Column, Sighting, listing
from gm.core.model import JSONObject

from .board import NEUTRAL, Board, control, owned
from .economy import (
    CONTROL_WORDS,
    CULTURE_WORDS,
    FORT_WORDS,
    INFLUENCE_WORDS,
    ITEM_WORDS,
    PRESTIGE_WORDS,
    WINTER_EVERY,
    band,
    is_winter,
    prestige_for,
    productivity,
    productivity_word,
    requirement,
    unit_cost,
)
from .orders import MAX_MOVES, buy_cost, check_orders, parse_orders
from .realm import support_bill
from .rules import outcome, public_score, scores

SEASONS = ("spring", "summer", "autumn", "winter")
FIRST_YEAR = 859  # "year DCCCLVIX, by the reckoning of the Christian calendar"


def season(turn: int) -> str:
    return f"{SEASONS[(turn - 1) % 4]} {FIRST_YEAR + (turn - 1) // 4}"


def turn_label(state: JSONObject) -> str:
    if state["phase"] == "over":
        return "Game over"
    return f"Turn {state['turn']} of {state['turns']}: {season(state['turn'])}"


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a seat's report. The map, the armies and the provinces' scores are open;
    a nation's treasury (and so its whole score and prestige, which count it, until the game is
    over), production and influence are shown to that nation only (D-ALL-5)."""
    board = Board(state["scenario"])
    result = outcome(state)
    points = scores(state)
    return {
        "ruleset": "conqueror",
        "title": state["title"],
        "seat": seat,
        "phase": state["phase"],
        "turn": state["turn"],
        "turns": state["turns"],
        "turn_label": turn_label(state),
        "winter": state["phase"] == "play" and is_winter(state["turn"]),
        "map": _map(state),
        "neutral_colour": state["scenario"]["neutral_colour"],
        "seats": [_seat_line(state, code, points[code]) for code in state["seating"]],
        "you": _you(state, seat, board) if seat in state["seats"] else None,
        "influence": _influence(state, seat, board) if seat in state["seats"] else [],
        "known": known(state, seat, board),
        "outcome": result.to_json() if result else None,
    }


def hidden_variant(state: JSONObject, seat: str, rng: Random) -> JSONObject:
    """The state with only what `seat` alone may know changed (the contract's check, D-ALL-5):
    its treasury, with the whole score and prestige that count it, and each of its provinces'
    production: what it makes (any item the province may make), a diplomat's target and how
    far it has got. Once the game is over the whole scores are everyone's (so the treasury is
    left as it is), but its production stays its own: the book reveals nothing more at the end."""
    other = copy.deepcopy(state)
    me = other["seats"].get(seat)
    if me is None or not me["alive"]:
        return other
    if state["phase"] != "over":
        gold = me["gold"] + rng.randint(1, 400)
        me["score"] += gold // 2 - me["gold"] // 2
        me["gold"], me["prestige"] = gold, prestige_for(me["score"])
    board = Board(state["scenario"])
    for code in owned(other, seat):
        province = other["provinces"][code]
        item = rng.choice([i for i in ITEM_WORDS if requirement(i, province) is None])
        mine = [n for n in board.neighbours[code] if other["provinces"][n]["owner"] == seat]
        target = rng.choice([code, *mine]) if item == "DIPLOMAT" else None
        cost = unit_cost(item, province["population"])
        progress = 0 if item == "TAXES" else rng.randrange(max(cost, 1))
        province.update(item=item, target=target, progress=progress)
    return other


def _colour(state: JSONObject, owner: str) -> str:
    if owner == NEUTRAL:
        return cast(str, state["scenario"]["neutral_colour"])
    return cast(str, state["seats"][owner]["colour"])


def _map(state: JSONObject) -> JSONObject:
    scenario = state["scenario"]
    capitals = {s["capital"]: code for code, s in state["seats"].items() if s["alive"]}
    territories = []
    for place in scenario["provinces"]:
        code = place["code"]
        province = state["provinces"][code]
        territories.append(
            {
                "code": code,
                "name": place["name"],
                "x": place["x"],
                "y": place["y"],
                "neighbours": list(place["neighbours"]),
                "owner": province["owner"],
                "troops": province["armies"],
                "core_of": capitals.get(code),
                "colour": _colour(state, province["owner"]),
            }
        )
    return {"width": scenario["width"], "height": scenario["height"], "territories": territories}


def _seat_line(state: JSONObject, code: str, score: int) -> JSONObject:
    """What every seat sees of a nation. Its score is the scores every report prints (without
    its treasury's points while the game runs); its prestige, reckoned from the whole score, is
    its own until the game is over."""
    seat = state["seats"][code]
    held = owned(state, code)
    shown = state["phase"] == "over"
    return {
        "code": code,
        "name": seat["name"],
        "nation": seat["nation"],
        "colour": seat["colour"],
        "ai": seat["ai"],
        "alive": seat["alive"],
        "provinces": len(held),
        "armies": sum(state["provinces"][c]["armies"] for c in held),
        "score": score,
        "prestige": seat["prestige"] if shown else None,
        "title": PRESTIGE_WORDS[seat["prestige"]] if shown else None,
        "capital": seat["capital"],
    }


def _you(state: JSONObject, code: str, board: Board) -> JSONObject:
    seat = state["seats"][code]
    bill = support_bill(state, board, code) if seat["alive"] else {}
    rows = [_province_row(state, board, c, bill.get(c, 0), c == seat["capital"]) for c in owned(state, code)]
    turn = state["turn"]
    return {
        "code": code,
        "name": seat["name"],
        "nation": seat["nation"],
        "colour": seat["colour"],
        "gold": seat["gold"],
        "score": seat["score"],
        "province_score": public_score(seat),
        "prestige": seat["prestige"],
        "title": PRESTIGE_WORDS[seat["prestige"]],
        "alive": seat["alive"],
        "capital": seat["capital"],
        "support": sum(bill.values()),
        "next_winter": turn + (WINTER_EVERY - turn % WINTER_EVERY) % WINTER_EVERY,
        "taxes": sum(r["productivity"] for r in rows if r["item"] == "TAXES"),
        "provinces": rows,
    }


def _province_row(state: JSONObject, board: Board, code: str, support: int, capital: bool) -> JSONObject:
    province = state["provinces"][code]
    labour = productivity(province, conquered=False)  # what it gives next turn
    item = province["item"]
    price = None
    if item != "TAXES" and not requirement(item, province):
        price = buy_cost(province, item, province["progress"], 1)
    return {
        "code": code,
        "name": board.name(code),
        "capital": capital,
        "population": province["population"],
        "resources": province["resources"],
        "culture": province["culture"],
        "culture_word": CULTURE_WORDS[province["culture"]],
        "fort": province["fort"],
        "fort_word": FORT_WORDS[province["fort"]],
        "armies": province["armies"],
        "productivity": labour,
        "productivity_word": productivity_word(labour),
        "control": control(province),
        "control_word": band(control(province), CONTROL_WORDS),
        "item": item,
        "item_words": ITEM_WORDS[item],
        "target": province["target"],
        "progress": province["progress"],
        "cost": unit_cost(item, province["population"]),
        "buy_price": price,
        "power": province["power"],
        "conquered": province["conquered"],
        "support": support,
        "neighbours": list(board.neighbours[code]),
    }


def _influence(state: JSONObject, seat: str, board: Board) -> list[JSONObject]:
    """Foreign provinces where the seat has influence: its own and the owner's."""
    rows = []
    for code in board.order:
        province = state["provinces"][code]
        yours = province["influence"].get(seat, 0)
        if province["owner"] == seat or yours <= 0:
            continue
        owner = province["owner"]
        rows.append(
            {
                "code": code,
                "name": board.name(code),
                "owner": owner,
                # The owner's control is seen as a word, never the number (D-ALL-5: with the
                # seat's own share beside it, the rest of the province's influence would follow).
                "owner_control": None,
                "owner_word": band(control(province), CONTROL_WORDS),
                "yours": yours,
                "yours_word": band(yours, INFLUENCE_WORDS),
            }
        )
    return rows


KNOWN_COLUMNS = (
    Column("Armies", numeric=True),
    Column("Productive"),
    Column("To its ruler"),
    Column("To you"),
    Column("Next to yours"),
)


def known(state: JSONObject, seat: str, board: Board) -> JSONObject:
    """Every province the seat does not hold, by holder. The armies are open; of the rest the
    seat sees what the rule text says anyone sees of a foreign province: how productive it is
    ("Barely" to "Extremely Productive") and its attitude to its owner and to the seat
    (Influence: "you will see both the province's attitude to both its owner and to you").
    Never its production, its treasury or the exact influence of others."""
    mine = set(owned(state, seat))
    capitals = {s["capital"] for s in state["seats"].values() if s["alive"]}
    sightings = []
    for code in board.order:
        province = state["provinces"][code]
        if code in mine:
            continue
        owner = province["owner"]
        ruler = band(control(province), CONTROL_WORDS)
        yours = band(province["influence"].get(seat, 0), INFLUENCE_WORDS) if seat in state["seats"] else ""
        near = " ".join(n for n in board.neighbours[code] if n in mine)
        cells = (province["armies"], productivity_word(productivity(province, conquered=False)), ruler, yours, near)
        sightings.append(Sighting(code, board.name(code), owner, cells, "capital" if code in capitals else ""))
    return listing(
        "Every province you see",
        "Province",
        ("province", "provinces"),
        KNOWN_COLUMNS,
        sightings,
        state["seating"],
        {NEUTRAL: "Local leaders (neutral)"},
        "Armies are in plain sight; of a foreign province you also see how productive it is and "
        "its people's attitude to its ruler and to you.",
    )


# ----------------------------------------------------------------------------------------------
# The order form: the ruleset's lines of the prefilled form for the turn being collected.


def order_form(state: JSONObject, seat: str) -> list[str]:
    if seat not in state["seats"]:
        return [f"# {seat} has no seat in this game."]
    if state["phase"] == "over":
        return ["# The game is over: no orders are needed."]
    me = state["seats"][seat]
    if not me["alive"]:
        return ["# Your nation has lost every province: no orders are needed."]
    board = Board(state["scenario"])
    you = _you(state, seat, board)
    lines = [
        f"# {turn_label(state)}. {me['nation']} has {me['gold']} gold.",
        f"# Next winter (turn {you['next_winter']}) your troops cost about {you['support']} gold.",
        f"# Up to {MAX_MOVES} orders MOVE <from> <to> <n|ALL> (to your own province) or ATTACK",
        "#   <from> <to> <n|ALL> (to one not yours), run in your order; each army moves once.",
        "# PRODUCE <province> <item> [<diplomat's target>] stands until changed. Labour:",
        "#   TAXES 1 a gold, SOLDIERS 5, DIPLOMAT 5 (developed), FORT 50, KEEP 100 (fort,",
        "#   developed), CASTLE 150 (keep, advanced), FARMS (population+1)^2, DEVELOP 60,",
        "#   ADVANCE 135 (developed).",
        "# BUY <province> [<n>]: finish it now for gold (labour +100%/+50%/+25% by culture).",
        "# Your provinces (armies, labour, control; neighbours: owner armies):",
    ]
    for row in you["provinces"]:
        near = [f"{n}({_short_owner(state, n, seat)})" for n in row["neighbours"]]
        making = "" if row["item"] == "TAXES" else f" {row['progress']}/{row['cost']}"
        buy = f" buy {row['buy_price']}g" if row["buy_price"] is not None else ""
        lines += wrapped_comment(
            f"#   {row['code']} {row['armies']}a {row['productivity']}L {row['control']}% {row['item']}{making}{buy}:",
            near,
            indent="#        ",
        )
    lines += _examples(state, seat, you["provinces"])
    for row in you["provinces"]:
        if requirement(row["item"], state["provinces"][row["code"]]) is None:
            target = row["target"] if row["item"] == "DIPLOMAT" and row["target"] != row["code"] else ""
            if target and state["provinces"][target]["owner"] != seat:  # lost: its diplomats stay home
                target = ""
            lines.append(f"PRODUCE {row['code']} {row['item']} {target}".rstrip())
    return lines


def _examples(state: JSONObject, seat: str, rows: list[JSONObject]) -> list[str]:
    """An ATTACK, a MOVE and a BUY drawn from the seat's provinces now, each only if the GM's
    check passes it as written; what has none is said."""
    strongest = sorted(rows, key=lambda r: (-r["armies"], r["code"]))
    owners = {code: state["provinces"][code]["owner"] for row in rows for code in row["neighbours"]}
    attacks = [f"ATTACK {r['code']} {n} {r['armies']}" for r in strongest for n in r["neighbours"] if owners[n] != seat]
    moves = [
        f"MOVE {r['code']} {n} {r['armies'] // 2 or 1}" for r in strongest for n in r["neighbours"] if owners[n] == seat
    ]
    gold = state["seats"][seat]["gold"]
    buys = [f"BUY {r['code']}" for r in rows if r["buy_price"] is not None and r["buy_price"] <= gold]
    found, none = [], []
    for word, candidates in (("ATTACK", attacks), ("MOVE", moves), ("BUY", buys)):
        example, refused = first_example(candidates, parse_orders, lambda orders: check_orders(state, seat, orders))
        if example:
            found.append(example)
        else:
            none.append(f"{word} ({refused or NONE_FITS[word]})")
    lines = ["# For example, now:"] + spaced_examples(found) if found else []
    return lines + not_possible(none)


# Why an order word has no example now, in the form's words.
NONE_FITS = {
    "ATTACK": "no armies of yours next to a province not yours",
    "MOVE": "no armies of yours next to another province of yours",
    "BUY": "you cannot pay to finish anything now",
}


def _short_owner(state: JSONObject, code: str, seat: str) -> str:
    province = state["provinces"][code]
    owner = province["owner"]
    label = "yours" if owner == seat else owner
    return f"{label} {province['armies']}"
