"""The player's own check (gm orders check --report): what the country's report settles alone.

The whole map is in the report, seas marked as seas, with every area's owner and every
country: the GM's check (orders.board_problems) reads nothing else, so it is asked here of a
state and board built from the report alone and says all it would, in its words; an eliminated
country gives no orders. A report file may hold anything: what is not of its kind settles only
the map's codes, or nothing.
"""

from __future__ import annotations

import re

from gm.core.maps import next_to, view_places
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import Board
from .orders import (
    AREA,
    COUNTRY,
    SHAPES,
    USAGE,
    VERBS,
    area_problem,
    board_problems,
    field_problem,
    order_warnings,
    unused_actions,
    well_formed,
)
from .terrain import TERRAINS
from .view import SEA_OWNER


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict):
        return []
    if you.get("eliminated"):
        return [Problem(o.line, "your country has been eliminated; no orders are needed") for o in orders]
    known = _known(view, places)
    if known is None:
        problems = []
        for order in (o for o in orders if well_formed(o)):
            problem = area_problem(order, places.__contains__, lambda code: places[code].get("owner") != SEA_OWNER)
            if problem:
                problems.append(Problem(order.line, problem))
        return problems
    return board_problems(*known, seat, [o for o in orders if well_formed(o)])


def warnings_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The warnings of order_warnings, for a country still in the game: the report holds all
    they read (every area's owner, armies, population, fort and terrain in its open listing, and
    the country's own BPs and reserve), so order_warnings itself is asked of a state built from
    the report alone; a report that is not one gm writes settles only the actions left unused,
    which the file alone tells."""
    you = view.get("you")
    if view.get("phase") != "play" or not isinstance(you, dict) or you.get("eliminated") or you.get("code") != seat:
        return []
    places = view_places(view)
    known = _known(view, places) if places is not None else None
    standing = _standing(view, you, known) if known is not None else None
    if standing is None:
        return unused_actions(orders)
    return order_warnings(standing, seat, orders)


_FACTS = ("Terrain", "Population", "Armies", "Fort")  # the listing's columns order_warnings reads
_COUNT = re.compile("[0-9]{1,6}")  # ASCII digits, few enough for int() (str.isdigit takes "²")


def _standing(view: JSONObject, you: JSONObject, known: tuple[JSONObject, Board]) -> JSONObject | None:
    """The state order_warnings reads, from the report: the land areas with their owners (the
    map), armies, population and fort (the listing of every area), the scenario's land with its
    terrain and reach, and the seat's own BPs and reserve; None when a part is missing or not of
    its kind."""
    state, board = known
    bps, reserve = you.get("bps"), you.get("reserve")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (bps, reserve)):
        return None
    facts = _listed(view.get("known"))
    if facts is None or any(code not in facts for code in board.land):
        return None
    areas = {}
    for code in board.land:
        terrain, population, armies, fort = facts[code]
        if terrain not in TERRAINS or not all(_COUNT.fullmatch(n) for n in (population, armies, fort)):
            return None
        areas[code] = {
            "owner": state["areas"][code]["owner"],
            "armies": int(armies),
            "population": int(population),
            "fort": int(fort),
        }
    scenario = [
        dict(board.places[code], code=code, reach=sorted(board.reach[code]), terrain=facts[code][0])
        for code in board.land
    ]
    countries = {code: dict(country) for code, country in state["countries"].items()}
    countries.setdefault(you["code"], {})
    countries[you["code"]].update(bps=bps, reserve=reserve)
    return dict(state, phase="play", areas=areas, countries=countries, scenario={"areas": scenario})


def _listed(listing: object) -> dict[str, tuple[str, ...]] | None:
    """Each area's facts (_FACTS, as printed) from the report's listing of every area; None
    when the listing is not of its kind."""
    if not isinstance(listing, dict) or not isinstance(listing.get("groups"), list):
        return None
    columns = listing.get("columns")
    labels = [c.get("label") for c in columns if isinstance(c, dict)] if isinstance(columns, list) else []
    if not all(label in labels for label in _FACTS):
        return None
    at = [labels.index(label) for label in _FACTS]
    found = {}
    for group in listing["groups"]:
        rows = group.get("places") if isinstance(group, dict) else None
        for row in rows if isinstance(rows, list) else []:
            cells = row.get("cells") if isinstance(row, dict) else None
            if not isinstance(cells, list) or len(cells) != len(labels) or not isinstance(row.get("code"), str):
                return None
            if not all(isinstance(c, str) for c in cells):
                return None
            found[row["code"]] = tuple(cells[i] for i in at)
    return found


def _known(view: JSONObject, places: dict[str, JSONObject]) -> tuple[JSONObject, Board] | None:
    """The state and board check_orders reads (the owners, the countries, who is eliminated,
    the map and its crossings), built from the report's public map alone; None when the view
    is not one gm writes, and then only the map's codes are checked."""
    seats = view.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) and isinstance(s.get("code"), str) for s in seats):
        return None
    if not all(
        (p.get("owner") is None or isinstance(p.get("owner"), str)) and isinstance(p.get("neighbours"), list)
        for p in places.values()
    ):
        return None
    land = {code: p.get("owner") != SEA_OWNER for code, p in places.items()}
    links = {code: [n for n in p["neighbours"] if isinstance(n, str) and n in places] for code, p in places.items()}
    reach = {code: frozenset(_reach(code, links, land)) if land[code] else frozenset() for code in places}
    board = Board(
        {code: {"name": p.get("name"), "land": land[code]} for code, p in places.items()},
        reach,
        tuple(code for code in places if land[code]),
    )
    state = {
        "areas": {code: {"owner": p.get("owner")} for code, p in places.items()},
        "countries": {s["code"]: {"nation": s.get("nation")} for s in seats},
        "victory": {"eliminated": {s["code"]: s["eliminated"] for s in seats if s.get("eliminated") is not None}},
    }
    return state, board


def _reach(code: str, links: dict[str, list[str]], land: dict[str, bool]) -> set[str]:
    """The land areas armies in `code` can move to or attack, as the scenario counts them
    (scenario._reach): land next door, and land on the far side of a sea next to it."""
    found = {other for other in links[code] if land[other]}
    found.update(x for other in links[code] if not land[other] for x in links[other] if land[x])
    found.discard(code)
    return found


_AMOUNT = "[0-9]{1,6}|ALL|AB-[0-9]{1,6}|-"  # a "-" amount is the parser's to judge (ALL, or missing)


def order_grammar(view: JSONObject, seat: str) -> OrderGrammar | None:
    """Empires' actions as data (gm.core.order_grammar), in the parser's and the map check's
    words: up to three fields after the action, '-' where one is unused; areas are the map's,
    countries the game's; the builder offers the seat's own areas to start from."""
    places = view_places(view)
    if places is None:
        return None
    seats = [s.get("code") for s in view.get("seats") or [] if isinstance(s, dict)]
    own = sorted(c for c, p in places.items() if p.get("owner") == seat)
    words = tuple(
        OrderWord(
            verb, _fields(verb), count=f"{verb} has at most three fields after it: {USAGE[verb]}", usage=USAGE[verb]
        )
        for verb in VERBS
    )
    unknown = "{word} is not an action{near}; the actions are " + ", ".join(VERBS)
    facts = {
        "place": tuple(sorted(places)),
        "own": tuple(own),
        # Every country is checked (a gift to your own is the GM's check's to refuse, in its words);
        # the builder offers the others.
        "seat": tuple(sorted(str(s) for s in seats if s)),
        "others": tuple(sorted(str(s) for s in seats if s and s != seat)),
    }
    return OrderGrammar(words, unknown, numbered=True, facts=facts, next_to=next_to(places))


def _fields(verb: str) -> tuple[Argument, ...]:
    names = [n.strip("<>[]") for n in USAGE[verb].split()[1:]] + ["-"] * 3
    fields = []
    for index, (kind, name) in enumerate(zip(SHAPES[verb], names, strict=False)):
        if kind == "-":
            # ARMY ALL, as DECISIONS.md names the 17th action, leaves its two "-" out (the parser).
            unused = "-|ALL" if verb == "ARMY" and index == 0 else "-"
            fields.append(
                Argument("-", pattern=unused, wrong=f"{verb} has no use for {{word}}: {USAGE[verb]}", optional=True)
            )
        elif kind == "area":
            offer, beside = ("own", -1) if index == 0 else ("", 0)  # a move's target: beside its start
            wrong = "{word} is not an area on this map"
            fields.append(
                Argument(name, "place", "-", wrong, True, offer, beside, AREA.pattern, field_problem(kind, "{word}"))
            )
        elif kind == "country":
            wrong = "{word} is not a country in this game"
            misshapen = field_problem(kind, "{word}")
            fields.append(
                Argument(name, "seat", "-", wrong, True, "others", shape=COUNTRY.pattern, misshapen=misshapen)
            )
        else:
            wrong = "{word} is not a number; write a whole number, ALL, or AB-2 for all but 2"
            fields.append(Argument(name, pattern=_AMOUNT, wrong=wrong, optional=True))
    return tuple(fields)
