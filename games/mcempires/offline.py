"""The player's own check (gm orders check --report): what the empire's report settles alone.

The report shows the world's size and terrain, the empire's own groups, the game's optional rules,
every empire and every war and alliance, so a block off the map, land that is all water, a
group that is not the empire's, an order of an optional rule the game does not use and a
declaration of war the diplomacy refuses fail here as in the GM's dry run (orders.check_orders),
in its words and in its order of checks. Cities the report may not show, money (income, and what
empires playing earlier may pay) and paths are left to the GM, and so is whatever hangs on them:
a second CITY or LAND is refused by the GM only if the first one founds or buys. A report file
may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.model import JSONObject, Order, Problem
from gm.core.names import named
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .actions import OPTIONAL_WORDS, off_world
from .diplomacy import KINDS, OPTION_OF
from .grammar import (
    ACCEPTABLE,
    BLOCK,
    BORDER_TERMS,
    BUILDINGS,
    CITY,
    COUNT,
    GROUP,
    MAX_ORDERS,
    SEAT,
    SIDE_WORDS,
    USAGE,
    VERBS,
    well_formed,
)
from .world import TERRAIN_NAMES, WATER


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
    terrain = world.get("terrain")
    rows = terrain if isinstance(terrain, list) and _grid(terrain, width, height) else None
    diplomacy = _Diplomacy(view, seat)
    found = []
    for order in [o for o in orders if well_formed(o)][:MAX_ORDERS]:  # past that, the GM's own words
        problem = _problem(order, width, height, mine) or _water(order, rows) or diplomacy.problem(order)
        if problem:
            found.append(Problem(order.line, problem))
    return found


def _grid(rows: list[object], width: int, height: int) -> bool:
    return len(rows) == height and all(isinstance(r, str) and len(r) == width for r in rows)


def _water(order: Order, rows: list[str] | None) -> str | None:
    """actions._land's refusal of land that is all water: the terrain never changes, so no order
    before it and no other empire's turn can make any of it land (claims can change: left to the
    GM). Off the map is _problem's."""
    if order.verb != "LAND" or rows is None:
        return None
    corners = [tuple(int(v) for v in a.split(",")) for a in order.args if isinstance(a, str) and BLOCK.fullmatch(a)]
    if not corners or len(corners) != len([a for a in order.args if a]):
        return None
    (x1, y1), (x2, y2) = corners[0], corners[-1]
    if not all(0 <= y < len(rows) and 0 <= x < len(rows[0]) for x, y in ((x1, y1), (x2, y2))):
        return None
    area = [rows[y][x] for y in range(min(y1, y2), max(y1, y2) + 1) for x in range(min(x1, x2), max(x1, x2) + 1)]
    if not all(letter in WATER for letter in area):
        return None
    if len(area) == 1:
        return f"{x1},{y1} is {TERRAIN_NAMES[area[0]]}: bodies of water cannot be purchased"
    return "every block there is water or claimed already"


class _Diplomacy:
    """The optional rules the game uses, every empire, and the wars and alliances, as the report
    shows them: what the dry run refuses of an order of an optional rule the game does not use,
    and of a DECLARE, in its words. The wars a DECLARE earlier in the file starts count, as in
    the dry run; after an ACCEPT or a LEAVE (an alliance joined or left, a peace made) the rest
    of the file's declarations are left to the GM."""

    def __init__(self, view: JSONObject, seat: str) -> None:
        self.seat = seat
        options = view.get("options")
        self.options = set(options) if isinstance(options, list) and all(isinstance(o, str) for o in options) else None
        self.empires: dict[str, tuple[str, bool]] | None = None
        self.wars: set[str] = set()
        self.allies: set[str] = set()
        self.sure = False
        self.proposed: set[tuple[object, object]] | None = None
        self.round = 0
        seats, wars, alliances = view.get("seats"), view.get("wars"), view.get("alliances")
        if not (isinstance(seats, list) and isinstance(wars, list) and isinstance(alliances, list)):
            return
        if not all(isinstance(s, dict) and isinstance(s.get("code"), str) for s in seats):
            return
        self.empires = {s["code"]: (named(s.get("nation"), s["code"]), s.get("alive") is not False) for s in seats}
        for war in wars:
            sides = war.get("sides") if isinstance(war, dict) else None
            if not (isinstance(sides, list) and len(sides) == 2 and all(isinstance(x, str) for x in sides)):
                return
            if seat in sides:
                self.wars.add(sides[1] if sides[0] == seat else sides[0])
        for alliance in alliances:
            members = alliance.get("members") if isinstance(alliance, dict) else None
            if not (isinstance(members, list) and all(isinstance(m, str) for m in members)):
                return
            if seat in members:
                self.allies |= set(members) - {seat}
        rows, now = view.get("proposals"), view.get("round")
        if isinstance(rows, list) and all(isinstance(p, dict) for p in rows) and type(now) is int:
            self.proposed = {
                (p.get("from"), p.get("kind")) for p in rows if p.get("to") == seat and p.get("round") == now - 1
            }
            self.round = now
        self.sure = True

    def _accept(self, kind: str, other: str) -> str | None:
        """diplomacy.accept: a proposal the other empire made to this one last round; none made
        then can come after (this empire's own proposals are its own). Accepting one may make a
        peace or an alliance: the file's later declarations are then left to the GM (one refused
        changes nothing)."""
        option = OPTIONAL_WORDS.get(kind)
        if option and self.options is not None and option not in self.options:
            return f"{kind} belongs to an optional rule this game does not use ({option})"
        if self.proposed is None or self.empires is None or (other, KINDS[kind]) in self.proposed:
            self.sure = False
            return None
        whom = self.empires[other][0] if other in self.empires else other
        return f"{whom} made no {KINDS[kind]} proposal to you in round {self.round - 1}"

    def problem(self, order: Order) -> str | None:
        verb = order.verb
        option = OPTION_OF.get(verb)
        if option and self.options is not None and option not in self.options:
            return f"{verb} belongs to an optional rule this game does not use ({OPTIONAL_WORDS[verb]})"
        if verb == "ACCEPT":
            return self._accept(*order.args)
        if verb == "LEAVE":
            self.sure = False
        if verb not in ("DECLARE", "BORDERS", "ALLY", "PAY") or self.empires is None:
            return None
        enemy = order.args[0]
        if enemy not in self.empires or enemy == self.seat:
            return f"{enemy} is not another empire of this game"
        nation, alive = self.empires[enemy]
        if verb != "DECLARE":  # a proposal, a payment: to an empire out of the game (none comes back)
            return None if alive else f"{nation} is out of the game"
        if not self.sure:
            return None
        if enemy in self.wars:
            return f"you are at war with {nation} already"
        if not alive:
            return f"{nation} is out of the game"
        if enemy in self.allies:
            return f"{nation} is an ally: empires in an alliance cannot declare war on each other"
        self.wars.add(enemy)
        return None


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


def warnings_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """None, as BaseRuleset's default: each of Minecraft EMPIRES' order warnings needs the whole
    state (docs/writing-a-ruleset.md)."""
    return []


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
    if verb in BUILDINGS:
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
