"""The player's own check (gm orders check --report): what the empire's report settles alone.

The report shows the world's size and the empire's own groups, so a block off the map and a
group that is not the empire's fail here as in the GM's dry run (orders.check_orders), in its
words and in its order of checks. Cities the report may not show, money and paths are left to
the GM. A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .actions import off_world
from .grammar import (
    ACCEPTABLE,
    BLOCK,
    BORDER_TERMS,
    CITY,
    COUNT,
    GROUP,
    SEAT,
    SIDE_WORDS,
    USAGE,
    VERBS,
    well_formed,
)


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """One problem per order that the view settles: the first the GM's check would give."""
    world, you = view.get("world"), view.get("you")
    if not isinstance(world, dict) or not isinstance(you, dict):
        return []
    width, height = world.get("width"), world.get("height")
    if type(width) is not int or type(height) is not int:
        return []
    if you.get("alive") is False:
        return [Problem(o.line, "your empire is out of the game and gives no more orders") for o in orders]
    listed = you.get("groups")
    groups: set[object] = {
        g.get("id")
        for g in (listed if isinstance(listed, list) else [])
        if isinstance(g, dict) and isinstance(g.get("id"), str)
    }
    # CAPITAL founds the capital and its first group at the start of the turn: a group named
    # after it may be that one, which the report cannot show.
    mine = None if any(o.verb == "CAPITAL" for o in orders if well_formed(o)) else groups
    found = []
    for order in orders:
        if well_formed(order):
            problem = _problem(order, width, height, mine)
            if problem:
                found.append(Problem(order.line, problem))
    return found


def _problem(order: Order, width: int, height: int, groups: set[object] | None) -> str | None:
    """What the dry run would say first of this order, as far as the view can tell."""
    verb, args = order.verb, order.args

    def off(text: object) -> bool:
        if not isinstance(text, str) or not BLOCK.fullmatch(text):
            return False
        x, y = (int(v) for v in text.split(","))
        return not (0 <= x < width and 0 <= y < height)

    def stranger(gid: object) -> str | None:
        return f"{gid} is not one of your groups" if groups is not None and gid not in groups else None

    if verb in ("CITY", "LAND"):
        return next((off_world(a, width, height) for a in args if off(a)), None)
    if verb == "RAIL":
        bad_end = next((f"there is no city {a}" for a in args[:2] if off(a)), None)
        return bad_end or next((off_world(a, width, height) for a in args[2:] if off(a)), None)
    if verb == "MOVE":
        return next((off_world(a, width, height) for a in args[2:] if off(a)), None) or stranger(args[0])
    if verb == "TRAIN":
        return stranger(args[0])
    if verb == "ATTACK":
        return stranger(args[0]) or (off_world(args[2], width, height) if off(args[2]) else None)
    if verb == "DEFEND" and args[0] != "ALL":
        return stranger(args[0]) or (f"{args[2]} is off the map" if off(args[2]) else None)
    return None


def order_grammar(view: JSONObject, seat: str) -> OrderGrammar | None:
    """Minecraft EMPIRES' orders as data (gm.core.order_grammar), read as its parser reads them:
    a grammar of pairs (a block is one word x,y, "12, 40" too), each finding the parser's own
    words. Where the parser's finding hangs on a word further on (a troop count between a group
    and where it goes, an empire named before its terms), the argument is left to the parser:
    the declaration settles less, never something else. The view gives the builder's choices
    (the empire's groups and cities, the other empires); whether a block is on the map is left
    to check_by_view, which says it in the GM's words for each order."""
    you, seats = view.get("you"), view.get("seats")
    if not isinstance(you, dict) or you.get("alive") is False or not isinstance(seats, list):
        return None
    words = tuple(
        OrderWord(verb, _shapes(verb), repeats=verb in _REPEATS, count=_said(verb), usage=USAGE[verb]) for verb in VERBS
    )
    unknown = "{word} is not an order{near}; the orders are " + ", ".join(VERBS[:-1]) + f" and {VERBS[-1]}"
    groups, cities = _ids(you.get("groups")), _ids(you.get("cities"))
    empires = [
        s["code"]
        for s in seats
        if isinstance(s, dict) and isinstance(s.get("code"), str) and s["code"] != seat and s.get("alive") is not False
    ]
    facts = {
        "group": tuple(groups),
        "group|ALL": (*groups, "ALL"),
        "city": tuple(cities),
        "city|ALL": (*cities, "ALL"),
        "empire": tuple(empires),
    }
    return OrderGrammar(words, unknown, facts=facts, pairs=True)


def _ids(rows: object) -> list[str]:
    listed = rows if isinstance(rows, list) else []
    return [r["id"] for r in listed if isinstance(r, dict) and isinstance(r.get("id"), str)]


# The parser's reading of each order's words (grammar.READERS), as patterns and its findings.
_PLACE = f"{CITY.pattern}|{BLOCK.pattern}"
_NOT_A_CITY = "{word} is not a city (a name like RE2, or its centre x,y)"
_NOT_AN_EMPIRE = "{word} is not an empire's code (like RE)"
_BORDER_TERMS = "name the empire and MINE (it may cross yours), THEIRS (you may cross its) or BOTH"
_ACCEPTED = "say what you accept (PEACE, BORDERS or ALLY) and from whom"
_RETREAT = "say where the others retreat: N, E, S, W or a block x,y"
_TARGET = "name one enemy group (like G7) or the block x,y it stands on"
_TROOPS = f"{COUNT.pattern}|ALL"  # a troop count the parser reads (whether 1 to 6 is its to say)
_REPEATS = ("RAIL", "MOVE", "TRAIN", "ATTACK", "DEFEND", "PEACE")
_COUNTS = {
    "CAPITAL": "give one block",
    "CITY": "give one block",
    "LAND": "give a block, or two corners of a rectangle",
    "RAIL": "name two cities",
    "MOVE": "name a group",
    "TRAIN": "name a group",
    "ATTACK": "name a group",
    "DEFEND": "name a group (or ALL) and how many troops fight",
    "DESTROY": "name one city or ALL",
    "DECLARE": "name one empire by its code",
    "PEACE": "name the empire",
    "BORDERS": _BORDER_TERMS,
    "ALLY": "name one empire by its code",
    "LEAVE": "LEAVE takes nothing after it",
    "ACCEPT": _ACCEPTED,
    "PAY": "name the empire and the E$ to pay it",
}
_BUILDINGS = ("BASE", "TRANSPORT", "NAVAL", "TREASURY")


def _said(verb: str, problem: str = "") -> str:
    """The parser's finding as parse_words words it: the reader's problem and the usage."""
    return f"{problem or _COUNTS.get(verb, 'name one city')}: write {USAGE[verb]}"


def _shapes(verb: str) -> tuple[Argument, ...]:
    """The arguments of one order word, each with the parser's pattern and finding."""
    block = Argument("x,y", pattern=BLOCK.pattern, wrong=_said(verb, "{word} is not a block x,y"))
    city = Argument("city", pattern=_PLACE, wrong=_said(verb, _NOT_A_CITY), offer="city")
    group = Argument(
        "group", pattern=GROUP.pattern, wrong=_said(verb, "{word} is not a group (like G12)"), offer="group"
    )
    empire = Argument("empire", pattern=SEAT.pattern, wrong=_said(verb, _NOT_AN_EMPIRE), offer="empire")
    if verb in ("CAPITAL", "CITY"):
        return (block,)
    if verb == "LAND":
        return (block, replace(block, name="x2,y2", optional=True))
    if verb in _BUILDINGS:
        return (city,)
    if verb == "RAIL":
        waypoint = Argument(
            "x,y", pattern=BLOCK.pattern, wrong=_said(verb, "{word} is not a waypoint x,y"), optional=True
        )
        return (replace(city, name="from"), replace(city, name="to"), waypoint)
    if verb == "MOVE":
        where = f"{BLOCK.pattern}|{CITY.pattern}"
        wrong = _said(verb, "{word} is not a block x,y or a city")
        return (
            group,
            Argument("n|ALL or x,y|city", pattern=f"{_TROOPS}|{where}", wrong=wrong, optional=True),
            Argument("x,y|city after a count", pattern=where, wrong=wrong, optional=True),
        )
    if verb == "TRAIN":
        # A second city is the parser's "name one city", not "is not a city": left to it.
        return (
            group,
            Argument("n|ALL or city", pattern=f"{_TROOPS}|{_PLACE}", wrong=_said(verb, _NOT_A_CITY), optional=True),
            Argument("city after a count", optional=True, offer="city"),
        )
    if verb == "ATTACK":
        target = f"{GROUP.pattern}|{BLOCK.pattern}"
        return (
            group,
            Argument("n|ALL or target", pattern=f"{_TROOPS}|{target}", wrong=_said(verb, _TARGET), optional=True),
            Argument("target after a count", pattern=target, wrong=_said(verb, _TARGET), optional=True),
        )
    if verb == "DEFEND":
        sides = "|".join(SIDE_WORDS)
        return (
            Argument(
                "group|ALL",
                pattern=f"{GROUP.pattern}|ALL",
                wrong=_said(verb, "{word} is not a group (like G12) or ALL"),
                offer="group|ALL",
            ),
            Argument(
                "n|ALL",
                pattern="0?[0-6]|ALL",
                wrong=_said(verb, "{word} is not a number of troops from 0 to 6, or ALL"),
            ),
            Argument("RETREAT", pattern=f"RETREAT|{sides}|{BLOCK.pattern}", wrong=_said(verb, _RETREAT), optional=True),
            Argument("N|E|S|W|x,y", pattern=f"{sides}|{BLOCK.pattern}", wrong=_said(verb, _RETREAT), optional=True),
        )
    if verb == "DESTROY":
        return (replace(city, name="city|ALL", pattern=f"ALL|{_PLACE}", offer="city|ALL"),)
    if verb in ("DECLARE", "ALLY"):
        return (empire,)
    if verb == "PEACE":
        # CEDE may be written or not: the builder offers the cities, and leaves it out. LAND and
        # its blocks read as places here; which block may follow which is left to the parser.
        ceded = replace(city, name="ceded city", optional=True, pattern=f"LAND|{_PLACE}")
        return (empire, replace(ceded, pattern=f"CEDE|LAND|{_PLACE}"), replace(ceded, name="another ceded city"))
    if verb == "BORDERS":
        # The parser reads the terms before the empire: a bad code with bad terms is its "name
        # the empire and MINE ...", so the code is left to it.
        terms = Argument("MINE|THEIRS|BOTH", pattern="|".join(BORDER_TERMS), wrong=_said(verb))
        return (Argument("empire", offer="empire"), terms)
    if verb == "ACCEPT":
        what = Argument("PEACE|BORDERS|ALLY", pattern="|".join(ACCEPTABLE), wrong=_said(verb))
        return (what, empire)
    if verb == "PAY":
        amount = Argument(
            "E$", pattern="(?=[0-9]*[1-9])[0-9]{1,6}", wrong=_said(verb, "{word} is not an amount of E$ (1 to 999999)")
        )
        return (empire, amount)
    return ()  # LEAVE
