"""What one seat sees of a Minecraft EMPIRES game: the report's view, its order form, the turn
label, and the one thing a seat keeps to itself (its standing orders)."""

from __future__ import annotations

from random import Random

from gm.core.forms import not_possible, spaced_examples
from gm.core.known import Column, Sighting, listing
from gm.core.model import JSONObject

from . import economy
from .capitulation import captured
from .examples import examples
from .grammar import DEFEND_NO_RETREAT, USAGE, parse_orders
from .moves import round_bonus
from .orders import check_orders
from .paths import Walker
from .rules import order_of_play, outcome
from .turn import Turn, options_of
from .world import FULL_SPEED, TERRAIN_NAMES

PALETTE = {
    ".": "#a9cc7e",
    "^": "#9c968c",
    ":": "#ead9a2",
    "*": "#f5f7fa",
    "~": "#5d8fd6",
    "=": "#7eabe3",
    "o": "#4fb8c8",
}
MODE_NAMES = {economy.ORIGINAL: "Original", economy.WAR_BOUNTY: "War Bounty", economy.LAND_GAME: "Land Game"}
REGION_MARGIN, REGION_MIN, REGION_MAX = 6, 30, 64


def turn_label(state: JSONObject) -> str:
    if state["phase"] == "over":
        return "Game over"
    limit = state["options"]["round-limit"]
    return f"Round {state['round']}" + (f" of {limit}" if limit else "")


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a seat's report. The world is open, as a Minecraft world is: land,
    cities, troops, E$ and wars are shown to all; an empire's standing orders and the proposals
    between two others are not."""
    turn = Turn(state)
    result = outcome(state)
    mine = seat in state["seats"]
    return {
        "ruleset": "mcempires",
        "title": state["title"],
        "seat": seat,
        "phase": state["phase"],
        "round": state["round"],
        "turn_label": turn_label(state),
        "mode": MODE_NAMES[state["options"]["mode"]],
        "options": [
            k for k in ("declarations", "peace", "borders", "alliances", "amphibious", "retreat") if turn.options[k]
        ],
        "round_limit": state["options"]["round-limit"],
        "world": world_drawing(state),
        "region": region(turn, seat) if mine else None,
        "legend": [{"letter": k, "name": TERRAIN_NAMES[k], "colour": v} for k, v in PALETTE.items()],
        "seats": [_seat_line(turn, code) for code in state["seating"]],
        "order_of_play": order_of_play(state) if state["phase"] == "play" else [],
        "you": _you(turn, seat) if mine else None,
        "occupations": _occupations(turn),
        "wars": [{"sides": w["sides"], "since": w["since"]} for w in state["wars"]],
        "borders": [dict(b) for b in state["borders"]],
        "alliances": [dict(a) for a in state["alliances"]],
        "proposals": [dict(p) for p in state["proposals"] if seat in (p["from"], p["to"])],
        "known": known(turn, seat),
        "outcome": result.to_json() if result else None,
    }


def world_drawing(state: JSONObject) -> JSONObject:
    """The map's data for gm/render/gridmap.py: the same for every seat, so it is drawn once."""
    seats = state["seats"]
    capitals = {s["capital"] for s in seats.values() if s["capital"]}
    marks = []
    for cid, city in sorted(state["cities"].items()):
        owner = seats[city["owner"]]
        is_capital = cid == owner["capital"]
        marks.append(
            {
                "x": city["x"],
                "y": city["y"],
                "shape": "capital" if is_capital else "city",
                "colour": owner["colour"],
                "label": cid,
                "tag": city["owner"] if is_capital and cid in capitals else "",
            }
        )
    for _gid, group in sorted(state["groups"].items(), key=lambda g: int(g[0][1:])):
        marks.append(
            {
                "x": group["x"],
                "y": group["y"],
                "shape": "group",
                "colour": seats[group["owner"]]["colour"],
                "label": str(group["troops"]),
                "note": group["owner"],
            }
        )  # with 16 empires colours alone can look alike
    return {
        "width": state["world"]["width"],
        "height": state["world"]["height"],
        "terrain": state["world"]["terrain"],
        "palette": PALETTE,
        "territory": state["territory"],
        "owners": {s["mark"]: s["colour"] for s in seats.values()},
        "lines": [{"colour": seats[r["owner"]]["colour"], "blocks": r["blocks"]} for r in state["rails"]],
        "marks": marks,
        "every": 10,
    }


def region(turn: Turn, seat: str) -> JSONObject | None:
    """The part of the world the seat's enlarged map shows: its territory and what is near."""
    me = turn.seats[seat]
    width = turn.board.width
    held = turn.territory(seat)
    xs, ys = [i % width for i in held], [i // width for i in held]
    if not xs:
        if not me["alive"]:
            return None
        xs, ys = [me["site"][0]], [me["site"][1]]
    return {axis: value for axis, value in zip(("x0", "x1"), _span(min(xs), max(xs), turn.board.width))} | {
        axis: value for axis, value in zip(("y0", "y1"), _span(min(ys), max(ys), turn.board.height))
    }


def _span(low: int, high: int, size: int) -> tuple[int, int]:
    low, high = low - REGION_MARGIN, high + REGION_MARGIN + 1
    if high - low < REGION_MIN:
        grow = REGION_MIN - (high - low)
        low, high = low - grow // 2, high + grow - grow // 2
    if high - low > REGION_MAX:
        middle = (low + high) // 2
        low, high = middle - REGION_MAX // 2, middle + REGION_MAX // 2
    if low < 0:
        low, high = 0, high - low
    if high > size:
        low, high = max(0, low - (high - size)), size
    return low, high


def _seat_line(turn: Turn, code: str) -> JSONObject:
    seat = turn.seats[code]
    return {
        "code": code,
        "name": seat["name"],
        "nation": seat["nation"],
        "colour": seat["colour"],
        "mark": seat["mark"],
        "alive": seat["alive"],
        "fell": seat["fell"],
        "fate": _fate(seat),
        "money": seat["money"],
        "cities": len(turn.cities_of(code)),
        "blocks": turn.blocks_of(code),
        "troops": turn.troops_of(code),
        "capital": seat["capital"],
    }


def _fate(seat: JSONObject) -> str | None:
    """How the empire left the game, if it has: a game of version 1.0 knew no other way than
    capitulation and did not record it."""
    return None if seat["alive"] else seat["fate"] or "capitulated"


def _you(turn: Turn, seat: str) -> JSONObject:
    me = turn.seats[seat]
    lines = economy.income_lines(turn, seat) if me["alive"] else []
    return {
        "code": seat,
        "nation": me["nation"],
        "colour": me["colour"],
        "alive": me["alive"],
        "money": me["money"],
        "income": [{"what": w, "amount": a} for w, a in lines],
        "income_total": sum(a for _, a in lines),
        "capital": me["capital"],
        "site": me["site"],
        "rail_stock": me["rail_stock"],
        "cities": [_city_row(turn, cid) for cid in sorted(turn.cities_of(seat), key=_number)],
        "groups": _group_rows(turn, seat),
        "prices": _prices(turn, seat),
        "standing": list(turn.state["standing"].get(seat, [])),
        "lost": captured(turn, seat),
        "fell": me["fell"],
        "fate": _fate(me),
    }


def _number(cid: str) -> tuple[str, int]:
    return (cid[:2], int(cid[2:]))


def _city_row(turn: Turn, cid: str) -> JSONObject:
    city = turn.cities[cid]
    i = turn.city_block(cid)
    gid = turn.group_of(city["owner"], i)
    ready = sum(1 for r in city["bases"] if r < turn.round)
    return {
        "id": cid,
        "x": city["x"],
        "y": city["y"],
        "capital": cid == turn.seats[city["owner"]]["capital"],
        "founder": city["founder"],
        "bases": len(city["bases"]),
        "bases_ready": ready,
        "transport": city["transport"],
        "naval": city["naval"],
        "treasury": city["treasury"],
        "coastal": turn.board.coastal[i],
        "group": gid,
        "troops": turn.groups[gid]["troops"] if gid else 0,
        "occupier": city["occupier"],
        "held": city["held"],
        "restored": city["restored"],
        "spawns_from": city["spawns_from"],
    }


def _group_rows(turn: Turn, seat: str) -> list[JSONObject]:
    round_bonus(turn, seat)  # the bonuses the groups will have next round
    rows = []
    for gid, group in sorted(turn.groups.items(), key=lambda g: int(g[0][1:])):
        if group["owner"] != seat:
            continue
        i = turn.place(gid)
        transport, naval = turn.bonus.get(gid, (False, False))
        limit = Walker(turn, gid).start(i) >> 2 & 15
        rows.append(
            {
                "id": gid,
                "troops": group["troops"],
                "x": group["x"],
                "y": group["y"],
                "terrain": turn.board.terrain_name(i),
                "city": turn.city_at.get(i),
                "transport": transport,
                "naval": naval,
                "limit": limit,
                "why": _limit_words(turn, seat, i, transport, naval, limit),
            }
        )
    return rows


def _limit_words(turn: Turn, seat: str, i: int, transport: bool, naval: bool, limit: int) -> str:
    if turn.board.water[i]:
        return "at sea: 12 on water, stops on landing"
    why = (
        "transport bonus"
        if transport
        else "own territory"
        if turn.owner(i) == seat and limit == FULL_SPEED
        else turn.board.terrain_name(i)
    )
    extra = "; naval bonus" if naval else ""
    return f"up to {limit} blocks ({why}), less where the terrain is slower{extra}"


def _prices(turn: Turn, seat: str) -> list[JSONObject]:
    rows = [
        {"what": "regular city (10n+10)", "price": economy.city_price(turn.regular_cities(seat))},
        {"what": "military base (second in a city: 25)", "price": economy.BASE_PRICES[0]},
        {"what": "transport infrastructure", "price": economy.TRANSPORT_PRICE},
        {"what": "naval base (coastal cities)", "price": economy.NAVAL_PRICE},
        {"what": "territory: 2 blocks", "price": 1},
    ]
    if economy.treasuries_allowed(turn):
        rows.insert(
            1, {"what": "treasury (5n+20)", "price": economy.treasury_price(economy.purchased_treasuries(turn, seat))}
        )
    rows.append(
        {
            "what": f"railroad: {economy.RAIL_LOT} pieces (from round {economy.RAIL_FROM_ROUND})",
            "price": economy.RAIL_PRICE,
        }
    )
    return rows


KNOWN_COLUMNS = (
    Column("What"),
    Column("At"),
    Column("Troops", numeric=True),
    Column("Infrastructure, or where it stands"),
)


def known(turn: Turn, seat: str) -> JSONObject:
    """Every city and group of the other empires, by empire: the world is open, as a Minecraft
    world is, so a city's infrastructure (its blocks: bases, transport, naval base, treasury),
    the troops in it and an occupation are all in sight; a group shows its troops and the
    block it stands on."""
    sightings = []
    for cid in sorted(turn.cities, key=_number):
        city = turn.cities[cid]
        if city["owner"] != seat:
            sightings.append(_city_sighting(turn, cid))
    for gid, group in sorted(turn.groups.items(), key=lambda g: int(g[0][1:])):
        i = turn.place(gid)
        if group["owner"] != seat and turn.city_at.get(i) is None:
            sightings.append(
                Sighting(
                    gid,
                    "",
                    group["owner"],
                    ("group", f"{group['x']},{group['y']}", group["troops"], turn.board.terrain_name(i)),
                )
            )
    return listing(
        "Every city and group of the others you see",
        "Name",
        ("place", "places"),
        KNOWN_COLUMNS,
        sightings,
        turn.state["seating"],
        {},
    )


def _city_sighting(turn: Turn, cid: str) -> Sighting:
    row = _city_row(turn, cid)
    works = [f"{row['bases']} base{'s' if row['bases'] != 1 else ''}" if row["bases"] else ""]
    works += [
        name
        for key, name in (("transport", "transport"), ("naval", "naval base"), ("treasury", "treasury"))
        if row[key]
    ]
    if row["group"]:
        works.append(f"its group {row['group']}")
    if row["occupier"]:
        works.append(f"occupied by {turn.nation(row['occupier'])}, held {row['held']} of 2")
    return Sighting(
        cid,
        "",
        turn.cities[cid]["owner"],
        (
            "capital" if row["capital"] else "city",
            f"{row['x']},{row['y']}",
            row["troops"],
            ", ".join(w for w in works if w),
        ),
    )


def _occupations(turn: Turn) -> list[JSONObject]:
    return [
        {"city": cid, "owner": c["owner"], "occupier": c["occupier"], "held": c["held"], "x": c["x"], "y": c["y"]}
        for cid, c in sorted(turn.cities.items())
        if c["occupier"]
    ]


# ----------------------------------------------------------------------------------------------
# The order form: the ruleset's lines of the prefilled turn file.


def order_form(state: JSONObject, seat: str) -> list[str]:
    if seat not in state["seats"]:
        return [f"# {seat} has no empire in this game."]
    if state["phase"] == "over":
        return ["# The game is over: no orders are needed."]
    me = state["seats"][seat]
    if not me["alive"]:
        return ["# Your empire is out of the game: no orders are needed."]
    turn = Turn(state)
    total = sum(a for _, a in economy.income_lines(turn, seat))
    lines = [
        f"# {turn_label(state)}, {MODE_NAMES[state['options']['mode']]}. {me['nation']} has "
        f"{me['money']} E$; income next turn {total:+d}.",
        # The rules' round earns income first, then spends: the examples' checks and "you have
        # n E$" below count it, and a player who reads only the line above wonders why.
        "# The income comes at the start of your turn, before your orders run.",
        "# Orders run in the order written. Blocks are x,y with 0,0 at the top left.",
        "# Build: " + " | ".join(USAGE[v] for v in ("CITY", "LAND", "BASE")),
        "#   " + " | ".join(USAGE[v] for v in ("TRANSPORT", "NAVAL", "TREASURY")),
        "#   " + USAGE["RAIL"] + " (from round 31)",
        "# Troops: " + USAGE["MOVE"],
        "#   " + USAGE["TRAIN"] + " | " + USAGE["ATTACK"],
        "# Standing orders for other empires' turns (without them all troops fight):",
        "#   " + (USAGE["DEFEND"] if turn.options["retreat"] else DEFEND_NO_RETREAT),
        "#   " + USAGE["DESTROY"] + " (100 E$, one round before a capture)",
        "# E$ to another empire, at any time of your turn: " + USAGE["PAY"],
    ]
    optional = [
        v
        for v, key in (("DECLARE", "declarations"), ("PEACE", "peace"), ("BORDERS", "borders"), ("ALLY", "alliances"))
        if state["options"][key]
    ]
    if optional:
        lines.append("# Agreements: " + ", ".join(optional) + " (see the rules); ACCEPT <kind> <empire> next round")
    lines += _summary(turn, seat)
    found, none = examples(state, seat)
    lines += (["# For example, now:", *spaced_examples(found)] if found else []) + not_possible(none)
    if not me["capital"]:
        x, y = me["site"]
        lines += ["# Found your capital (round 1). gm suggests this site:", f"CAPITAL {x},{y}"]
    lines += _kept_standing(state, seat)
    return [line if len(line) <= 84 else line[:81] + "..." for line in lines]


def _summary(turn: Turn, seat: str) -> list[str]:
    round_bonus(turn, seat)
    lines = []
    cities = [_city_row(turn, cid) for cid in sorted(turn.cities_of(seat), key=_number)]
    if cities:
        lines.append("# Your cities:")
        lines += _wrapped([f"{c['id']} {c['x']},{c['y']}" + _stuff(c) for c in cities])
    groups = _group_rows(turn, seat)
    if groups:
        lines.append("# Your groups (id troops at x,y, blocks it may move):")
        lines += _wrapped([f"{g['id']} {g['troops']} at {g['x']},{g['y']} ({g['limit']})" for g in groups])
    return lines


def _stuff(city: JSONObject) -> str:
    """What a city has, in words: "(capital, treasury, 2 military bases)"."""
    parts = (["capital"] if city["capital"] else []) + [
        name
        for key, name in (("treasury", "treasury"), ("transport", "transport"), ("naval", "naval base"))
        if city[key]
    ]
    if city["bases"]:
        parts.append(f"{city['bases']} military base{'s' if city['bases'] > 1 else ''}")
    if city["occupier"]:
        parts.append(f"occupied by {city['occupier']}")
    return f" ({', '.join(parts)})" if parts else ""


def _wrapped(items: list[str], width: int = 84) -> list[str]:
    # 84 characters fit the report's form box, so no line wraps there and loses its "#".
    lines, line = [], "#  "
    for item in items:
        if len(line) + 2 + len(item) > width and line != "#  ":
            lines.append(line.rstrip(";"))
            line = "#  "
        line += (" " if line == "#  " else "; ") + item
    return lines + [line]


def _kept_standing(state: JSONObject, seat: str) -> list[str]:
    """Last round's standing orders that still make sense, so a player who sends the form
    back keeps them."""
    kept = []
    for text in state["standing"].get(seat, []):
        parsed, problems = parse_orders([(1, text)])
        if parsed and not problems and not check_orders(state, seat, parsed):
            kept.append(text)
    return (["# Your standing orders from last turn:"] + kept) if kept else []


def hidden_variant(state: JSONObject, seat: str, rng: Random) -> JSONObject:
    """A copy of the state where only what `seat` alone knows differs: its standing orders, and
    the site gm suggests for its capital (its own order form's, rule D-ALL-5)."""
    new = dict(state)
    if options_of(state)["retreat"]:
        choice = rng.choice(["DEFEND ALL 1 RETREAT N", "DESTROY ALL", "DEFEND ALL 0 RETREAT S"])
    else:  # RETREAT is an optional rule (D-MC-7) the order form would not keep
        choice = rng.choice(["DEFEND ALL 1", "DESTROY ALL", "DEFEND ALL 2"])
    new["standing"] = {**state["standing"], seat: [choice]}
    if seat in state["seats"]:
        world = state["world"]
        site = [rng.randrange(world["width"]), rng.randrange(world["height"])]
        new["seats"] = {**state["seats"], seat: {**state["seats"][seat], "site": site}}
    return new


__all__ = ["hidden_variant", "order_form", "turn_label", "view", "world_drawing"]
