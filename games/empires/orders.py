"""Empires orders: up to 16 numbered actions in the four-field form (`ACTION WHERE WHERE-TO
NUMBER`), the parser (never raises) and the check against the turn being collected."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeGuard

from gm.core.maps import shown as _shown
from gm.core.model import JSONObject, Order, OrderArgs, Problem
from gm.core.warnings import did_you_mean

from .battle import Battle
from .board import Board, nation

MAX_ACTIONS = 16
MAX_FORT = 3  # FORTIFY: "max 3" (D-EMP-4)
ARMY_COST = 3  # "ARMY builds armies into the army reserve at 3 BPs each"
RESERVE_COST = 1  # rule D-EMP-4
MOVE_COST = 1  # rule D-EMP-4: "A MOVE or an ATTACK costs 1 BP"
VERBS = (
    "LEVY",
    "ARMY",
    "RESERVE",
    "GROW",
    "FORTIFY",
    "RAZE",
    "MOVE",
    "ATTACK",
    "DEFEND",
    "ENTRENCH",
    "AMBUSH",
    "RETREAT",
    "GIFT",
)
DEFENCE = ("DEFEND", "ENTRENCH", "AMBUSH", "RETREAT")
# What each field holds: area, country, amount, "-" (unused); a "?" amount may be left as "-"
# and then means ALL (an ARMY so builds all the BPs pay for: the publisher's rulebook, 5.3).
SHAPES = {
    "LEVY": ("area", "-", "amount?"),
    "ARMY": ("-", "-", "amount?"),
    "RESERVE": ("area", "-", "amount"),
    "GROW": ("area", "-", "-"),
    "FORTIFY": ("area", "-", "-"),
    "RAZE": ("area", "-", "amount?"),
    "MOVE": ("area", "area", "amount"),
    "ATTACK": ("area", "area", "amount"),
    "DEFEND": ("area", "-", "-"),
    "ENTRENCH": ("area", "area", "-"),
    "AMBUSH": ("area", "-", "-"),
    "RETREAT": ("area", "area", "-"),
    "GIFT": ("-", "country", "amount"),
}
USAGE = {
    "LEVY": "LEVY <area> - [n|ALL]",
    "ARMY": "ARMY - - [n|ALL|AB-n]",
    "RESERVE": "RESERVE <area> - <n|ALL|AB-n>",
    "GROW": "GROW <area>",
    "FORTIFY": "FORTIFY <area>",
    "RAZE": "RAZE <area> - [levels|ALL]",
    "MOVE": "MOVE <from> <to> <n|ALL|AB-n>",
    "ATTACK": "ATTACK <from> <target> <n|ALL|AB-n>",
    "DEFEND": "DEFEND <area>",
    "ENTRENCH": "ENTRENCH <area> <against>",
    "AMBUSH": "AMBUSH <area>",
    "RETREAT": "RETREAT <area> <to>",
    "GIFT": "GIFT - <country> <BPs|ALL|AB-n>",
}
AREA = re.compile(r"[A-Za-z]{3}")
COUNTRY = re.compile(r"[A-Za-z]{2}")
NUMBER = re.compile(r"[0-9]{1,6}")
ALL_BUT = re.compile(r"AB-([0-9]{1,6})", re.IGNORECASE)
ACTION_NUMBER = re.compile(r"([0-9]{1,3})[.):]?")


# An action's amount as the parser reads it: a number, ALL, or AB-n (all but n).
Amount = int | str


def make_order(
    number: int, verb: str, where: str | None = None, where_to: str | None = None, amount: Amount | None = None
) -> Order:
    """An order as the robot or the implicit 17th action writes it (line 0)."""
    return Order(verb, (number, where, where_to, amount), 0, _fields(number, verb, where, where_to, amount))


def order_line(order: Order) -> str:
    """The order in the rule book's four-field form, its action number first: "3 MOVE PAR BUR 2"."""
    return _fields(*order.args[:1], order.verb, *order.args[1:])


def _fields(number: object, verb: str, *fields: object) -> str:
    return " ".join([str(number), verb, *("-" if field is None else str(field) for field in fields)])


# ----------------------------------------------------------------------------------------------
# Parsing.


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    """Parse the body lines of a turn file. Never raises: bad lines become problems."""
    orders: list[Order] = []
    problems: list[Problem] = []
    used: dict[int, int] = {}
    last = 0
    for line, raw in lines:
        text = str(raw).strip()
        words = text.replace(",", " ").split()
        if not words:
            continue
        number, words = _action_number(words)
        parsed = _parse_words(words)
        if isinstance(parsed, str):
            problems.append(Problem(line, parsed))
            continue
        number = number if number is not None else last + 1
        problem = _number_problem(number, used)
        if problem:
            problems.append(Problem(line, problem))
            continue
        used[number], last = line, number
        orders.append(Order(parsed[0], (number, *parsed[1]), line, text))
    return orders, problems


def _action_number(words: list[str]) -> tuple[int | None, list[str]]:
    match = ACTION_NUMBER.fullmatch(words[0])
    if match and len(words) > 1:
        return int(match[1]), words[1:]
    return None, words


def _number_problem(number: int, used: dict[int, int]) -> str | None:
    if not 1 <= number <= MAX_ACTIONS:
        return (
            f"action {number} is out of range: a turn has actions 1 to {MAX_ACTIONS} (the 17th, ARMY ALL, is automatic)"
        )
    if number in used:
        return f"action {number} is given twice (first on line {used[number]})"
    return None


def _parse_words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb = words[0].upper()
    if verb not in VERBS:
        return f"{_shown(words[0])} is not an action{did_you_mean(words[0], VERBS)}; the actions are {', '.join(VERBS)}"
    fields = words[1:]
    if len(fields) > 3:
        return f"{verb} has at most three fields after it: {USAGE[verb]}"
    if verb == "ARMY" and [f.upper() for f in fields] == ["ALL"]:
        # DECISIONS.md names the 17th action "ARMY ALL": written so, it is ARMY - - ALL.
        fields = ["-", "-", "ALL"]
    fields += ["-"] * (3 - len(fields))
    values: list[Amount | None] = []
    for kind, word in zip(SHAPES[verb], fields, strict=True):
        value = _field(kind, word, verb)
        if isinstance(value, tuple):  # a problem, wrapped so it cannot pass for a value
            return value[0]
        values.append(value)
    return verb, tuple(values)


def _field(kind: str, word: str, verb: str) -> Amount | tuple[str] | None:
    blank = word == "-"
    if kind == "-":
        return None if blank else (f"{verb} has no use for {_shown(word)}: {USAGE[verb]}",)
    if kind == "area":
        if blank:
            return (f"{verb} needs an area there: {USAGE[verb]}",)
        if AREA.fullmatch(word):
            return word.upper()
        return (field_problem(kind, _shown(word)),)
    if kind == "country":
        if COUNTRY.fullmatch(word):
            return word.upper()
        return (field_problem(kind, _shown(word)),)
    return _amount(word, verb, optional=kind == "amount?")


def field_problem(kind: str, word: str) -> str:
    """The parser's words for an area or country field that is not shaped like one (AREA,
    COUNTRY); the order grammar says them too (offline.order_grammar)."""
    if kind == "area":
        return f"{word} is not an area code; area codes are three letters, like PAR"
    return f"{word} is not a country code; country codes are two letters, like FR"


def _amount(word: str, verb: str, optional: bool) -> Amount | tuple[str]:
    if word == "-":
        return "ALL" if optional else (f"{verb} needs a number, ALL or AB-n: {USAGE[verb]}",)
    if word.upper() == "ALL":
        return "ALL"
    but = ALL_BUT.fullmatch(word)
    if but:
        return f"AB-{int(but[1])}"
    if not NUMBER.fullmatch(word):
        return (f"{_shown(word)} is not a number; write a whole number, ALL, or AB-2 for all but 2",)
    if int(word) < 1:
        return ("the number must be at least 1",)
    return int(word)


def resolve_amount(amount: Amount, available: int) -> tuple[int, str | None]:
    """(how many, why not) for an amount against what is there: an explicit number larger than
    what is there makes the order fail; ALL takes everything; AB-n everything but n."""
    if amount == "ALL":
        return available, None
    if isinstance(amount, str):  # AB-n: the only other word the parser gives
        return max(0, available - int(amount[3:])), None
    if amount > available:
        return 0, f"only {available} {'is' if available == 1 else 'are'} there, not {amount}"
    return amount, None


def well_formed(order: object) -> TypeGuard[Order]:
    """Whether an order has the shape the parser gives (guards resolve against odd input)."""
    if not isinstance(order, Order) or order.verb not in SHAPES or len(order.args) != 4:
        return False
    number, *fields = order.args
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_ACTIONS:
        return False
    for kind, value in zip(SHAPES[order.verb], fields, strict=True):
        if kind == "-" and value is not None:
            return False
        if kind in ("area", "country") and not isinstance(value, str):
            return False
        if kind.startswith("amount") and not _is_amount(value):
            return False
    return True


def _is_amount(value: object) -> bool:
    if value == "ALL":
        return True
    if isinstance(value, str):
        return bool(ALL_BUT.fullmatch(value))
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


# ----------------------------------------------------------------------------------------------
# Checking against the state of the turn being collected: only what cannot change during the
# turn is a problem (an area captured by an earlier action may be used by a later one).


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems with a seat's orders now; an empty list means they are accepted."""
    if seat not in state["countries"]:
        return [Problem(0, f"{seat} has no seat in this game")]
    if state["phase"] == "over":
        return [Problem(o.line, "the game is over; no orders are needed") for o in orders]
    if seat in state["victory"]["eliminated"]:
        return [Problem(o.line, "your country has been eliminated; no orders are needed") for o in orders]
    return board_problems(state, Board.of(state), seat, orders)


def board_problems(state: JSONObject, board: Board, seat: str, orders: list[Order]) -> list[Problem]:
    """check_orders' problems of a seat in the game: what the board and its owners settle. The
    player's own check (offline.py) asks it of a state and board built from the report alone,
    so it reads nothing but the areas' owners, the countries' names, who is eliminated and the
    map."""
    problems = []
    for order in sorted(orders, key=lambda o: o.args[0]):
        message = _order_problem(state, board, seat, order, orders)
        if message:
            problems.append(Problem(order.line, message))
    return sorted(problems, key=lambda p: p.line)


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is probably a slip, beside the problems: actions left unused, a number of armies
    the area will not have, an attack that cannot take its target. The orders still count;
    never raises, whatever the orders. It reads only what the seat's report shows (the open
    map's areas and terrain, the seat's own BPs and reserve): the player's own check asks it of
    a state built from the report (offline.warnings_by_view)."""
    if state["phase"] == "over" or seat in state["victory"]["eliminated"] or seat not in state["countries"]:
        return []
    listed = sorted((o for o in orders if well_formed(o)), key=lambda o: o.args[0])
    found = [
        Problem(o.line, w)
        for o in listed
        if o.verb in ("MOVE", "ATTACK")
        and (w := _own_target(state, seat, o) or _armies_warning(state, seat, o, listed))
    ]
    found += _grown_again(listed)
    found += _defence_again(listed)
    found += [Problem(o.line, w) for o in listed if (w := _bound_to_fail(state, seat, o, listed))]
    found += [Problem(o.line, w) for o in listed if (w := _reserve_warning(state, seat, o, listed))]
    found += [Problem(o.line, w) for o in listed if (w := _capture_warning(state, seat, o, listed))]
    found += _short_of_bps(state, seat, listed)
    found += unused_actions(orders)
    return sorted(found, key=lambda p: p.line)


def unused_actions(orders: list[Order]) -> list[Problem]:
    """The warning of actions left unused (none when all are used): the file alone settles it,
    so the player's own check gives it even from a report it cannot read further
    (offline.warnings_by_view)."""
    used = len({o.args[0] for o in orders if o.args and isinstance(o.args[0], int)})
    if used >= MAX_ACTIONS:
        return []
    return [
        Problem(
            0,
            f"you use {used} of your {MAX_ACTIONS} actions; the other {MAX_ACTIONS - used} "
            "are lost this turn (only the automatic ARMY ALL follows them)",
        )
    ]


def _armies_warning(state: JSONObject, seat: str, order: Order, orders: list[Order]) -> str | None:
    """A MOVE or ATTACK that asks for more armies than its area will hold, or an ATTACK too weak
    to capture, as the map stands and with the most the seat's earlier actions can bring in."""
    number, source, target, amount = order.args
    areas = state["areas"]
    if source not in areas or target not in areas or areas[source]["owner"] != seat:
        return None
    present = areas[source]["armies"]
    extra = _brought_at_most(state, seat, orders, number, source)
    if extra is None:
        return None  # what reaches the source first is not known now
    most = present + extra
    armies = f"{source} has {present} {'army' if present == 1 else 'armies'}"
    brings = f"your earlier actions bring at most {extra} more" if extra else "no earlier action of yours brings more"
    if isinstance(amount, int) and amount > most:
        # DECISIONS.md, the order line: "An explicit number larger than what is there makes the
        # order fail."
        return f"{armies} and {brings}: asking for {amount} makes the order fail"
    if resolve_amount(amount, most)[0] < 1:
        return f"{armies} and {brings}: {amount} of them is none, so the order fails"
    if order.verb != "ATTACK" or areas[target]["owner"] == seat or extra:
        return None
    return _too_weak(state, target, resolve_amount(amount, present)[0])


def _brought_at_most(state: JSONObject, seat: str, orders: list[Order], number: int, code: str) -> int | None:
    """The most armies the seat's actions before `number` can add to its area `code`: a RESERVE
    or LEVY of a written number brings that many if the reserve or half the population can hold
    it (else it fails and brings none), ALL what they can hold; a MOVE of a written number that
    many. None when it cannot be bounded now: a MOVE of ALL (what reaches its start first), a
    RETREAT onto the area (another country's attack sets it off). An ATTACK on the area brings nothing here: on the seat's own
    area it fails, and what takes another's is counted by _left_by."""
    earlier = [o for o in orders if o.args[0] < number]
    if any(o.verb == "RETREAT" and o.args[2] == code for o in orders):
        return None
    population = state["areas"][code]["population"] + sum(1 for o in earlier if o.verb == "GROW" and o.args[1] == code)
    total = 0
    for order in earlier:
        _, where, where_to, amount = order.args
        if order.verb in ("RESERVE", "LEVY") and where == code:
            if order.verb == "RESERVE":
                room = _reserve_at_most(state, seat, orders, order.args[0])
            else:
                room = population // 2
            total += resolve_amount(amount, room)[0]
        elif order.verb == "MOVE" and where_to == code:  # an ATTACK brings only what takes it (_left_by)
            if not isinstance(amount, int):
                return None
            total += amount
    return total


def _reserve_at_most(state: JSONObject, seat: str, orders: list[Order], number: int) -> int:
    """The most the reserve can hold for a RESERVE at the seat's action `number` that is carried
    out: today's, less what its earlier RESERVE actions place. An earlier ARMY adds nothing to
    it: a RESERVE after an ARMY that is carried out fails (the publisher's rulebook, 5.3)."""
    reserve: int = state["countries"][seat]["reserve"]
    for order in sorted(orders, key=lambda o: o.args[0]):
        if order.args[0] >= number:
            break
        if order.verb == "RESERVE":
            reserve -= resolve_amount(order.args[3], reserve)[0]
    return reserve


def _reserve_warning(state: JSONObject, seat: str, order: Order, orders: list[Order]) -> str | None:
    """A RESERVE after an ARMY action of the seat's, which fails if the ARMY is carried out (the
    publisher's rulebook, 5.3: "you can't RESERVE after an ARMY action"); or one of more armies
    than the reserve will hold, less what the seat's earlier RESERVE actions place: nothing
    else fills it during the turn, so the order fails when it comes."""
    number, _, _, amount = order.args
    if order.verb != "RESERVE":
        return None
    army = min((o.args[0] for o in orders if o.verb == "ARMY" and o.args[0] < number), default=None)
    if army is not None:
        return (
            f"your ARMY of action {army} comes first, and no RESERVE can follow an ARMY action in the same "
            "turn: this RESERVE fails if that ARMY is carried out"
        )
    reserve = _reserve_at_most(state, seat, orders, number)
    now = state["countries"][seat]["reserve"]
    earlier = any(o.verb == "RESERVE" and o.args[0] < number for o in orders)
    holds = f"your reserve holds {now}" + (f", {reserve} after your earlier RESERVE actions" if earlier else "")
    if isinstance(amount, int) and amount > reserve:
        return f"{holds}: placing {amount} makes this RESERVE fail"
    if resolve_amount(amount, reserve)[0] < 1:
        return f"{holds}: {amount} of it is none, so this RESERVE fails"
    return None


def _own_target(state: JSONObject, seat: str, order: Order) -> str | None:
    """An ATTACK on an area the seat owns now: it fails, unless another country takes the area
    by an earlier action of the turn, so it is a warning and not a problem (rule D-ALL-3: only
    what no earlier action can change refuses a file)."""
    target = order.args[2]
    if order.verb != "ATTACK" or target not in state["areas"] or state["areas"][target]["owner"] != seat:
        return None
    return (
        f"{target} is your own area now: the attack fails unless it is taken from you by an earlier "
        "action; to send armies there, MOVE"
    )


def _too_weak(state: JSONObject, target: str, attacking: int) -> str | None:
    # Rule D-EMP-5: the area is captured only when no defending army is left; a failed attack
    # costs the attacker the collateral plus 1 VP (11.5).
    area = state["areas"][target]
    terrain = Board.of(state).terrain(target)
    battle = Battle(attacking, area["armies"], area["population"], area["fort"], terrain.defence)
    if attacking == 0 or battle.captured:
        return None
    return (
        f"{attacking} {'army' if attacking == 1 else 'armies'} against a defence of {battle.defence} in "
        f"{target} ({area['armies']} armies, population {area['population']}, fort {area['fort']}, "
        f"+{terrain.defence} for its terrain) cannot take it as the map stands; a failed attack costs "
        "you at least 1 VP"
    )


def _defence_again(orders: list[Order]) -> list[Problem]:
    """A defence order on an area an earlier one of the turn names: a warning, not a problem.
    The later one cancels the earlier (the publisher's rulebook, 7.7-7.9: "if you set a new one
    then the old one is cancelled"), which is what a player changing his mind writes; but two
    are also a slip of an area code."""
    found: list[Problem] = []
    first: dict[str, Order] = {}
    for order in orders:
        if order.verb not in DEFENCE:
            continue
        where = order.args[1]
        if where in first:
            earlier = first[where]
            found.append(
                Problem(
                    order.line,
                    f"{where} already has action {earlier.args[0]} ({earlier.verb}): a new defence order on an "
                    f"area cancels the old, so action {earlier.args[0]} is not carried out if this one is",
                )
            )
        first[where] = order
    return found


def _bound_to_fail(state: JSONObject, seat: str, order: Order, orders: list[Order]) -> str | None:
    """A FORTIFY, RAZE or LEVY of an area of the seat's that cannot be carried out as the area
    stands, after the seat's earlier FORTIFY, RAZE or LEVY there if they are carried out: a fort
    changes only by its owner's FORTIFY and RAZE, and the population grows only by its GROW, so
    unless an earlier action of the seat's goes the other way, the order fails."""
    number, where, _, amount = order.args
    area = state["areas"].get(where) if isinstance(where, str) else None
    if order.verb not in ("FORTIFY", "RAZE", "LEVY") or area is None or area["owner"] != seat:
        return None
    before = [o for o in sorted(orders, key=lambda o: o.args[0]) if o.args[0] < number and o.args[1] == where]
    earlier = {o.verb for o in before}
    same = [o for o in before if o.verb == order.verb]
    yours = f" and your earlier {order.verb} {'actions' if len(same) > 1 else 'action'}"
    ending = "" if len(same) > 1 else "s"  # "actions raise", "action raises"
    if order.verb == "FORTIFY" and "RAZE" not in earlier and area["fort"] + len(same) >= MAX_FORT:
        if not same:
            return (
                f"the fort of {where} is at level {MAX_FORT}, the highest, and no earlier RAZE of yours "
                "lowers it: this FORTIFY fails"
            )
        return f"the fort of {where} is at level {area['fort']}{yours} raise{ending} it to {MAX_FORT}, the highest: this FORTIFY fails"
    if order.verb == "RAZE" and "FORTIFY" not in earlier:
        fort = area["fort"]
        for raze in same:
            fort -= resolve_amount(raze.args[3], fort)[0]
        levels, why = resolve_amount(amount, fort)
        if (why or levels < 1) and not same:
            return f"the fort of {where} is at level {area['fort']} and no earlier FORTIFY of yours raises it: this RAZE fails"
        if why or levels < 1:
            return f"the fort of {where} is at level {area['fort']}{yours} leave{ending} {fort}: this RAZE fails"
    if order.verb == "LEVY" and "GROW" not in earlier:
        population = area["population"]
        for levy in same:
            population -= resolve_amount(levy.args[3], population // 2)[0]
        half = population // 2
        count, why = resolve_amount(amount, half)
        if (why or count < 1) and not same:
            return f"half the population of {where} is {half} and no earlier GROW of yours adds to it: this LEVY fails"
        if why or count < 1:
            return (
                f"the population of {where} is {area['population']}{yours} leave{ending} {population}, half of it "
                f"{half}, and no earlier GROW of yours adds to it: this LEVY fails"
            )
    return None


def _short_of_bps(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """Actions that cost more BPs than the seat will have when they come, its earlier actions
    paid for as the turn would carry them out on its own areas as they stand (one it cannot pay
    for fails and costs nothing): the order fails unless a gift reaches the seat first. Only the
    seat's own BPs are used, which its report shows it (D-ALL-5)."""
    if not orders:
        return []
    board = Board.of(state)
    areas = state["areas"]
    bps: int = state["countries"][seat]["bps"]
    reserve: int = state["countries"][seat]["reserve"]
    population = {code: area["population"] for code, area in areas.items() if area["owner"] == seat}
    fort = {code: areas[code]["fort"] for code in population}
    grown: set[str] = set()
    armed = False  # an ARMY action carried out: a RESERVE after it fails and costs nothing
    found = []
    for order in orders:
        _, where, _, amount = order.args
        cost: int | None = None  # None: free, or not known now
        if order.verb == "ARMY":
            count, why = resolve_amount(amount, bps // ARMY_COST)
            if isinstance(amount, str) and amount != "ALL" and count < 1 <= bps // ARMY_COST:
                found.append(
                    Problem(
                        order.line,
                        f"you will have {bps} BPs when this ARMY comes, after your earlier actions, enough for "
                        f"{bps // ARMY_COST}: {amount} of them is none, so it fails unless a gift reaches you first",
                    )
                )
                continue
            cost = ARMY_COST * (amount if why and isinstance(amount, int) else max(count, 1))
        elif order.verb == "RESERVE" and not armed:
            count, why = resolve_amount(
                amount, min(reserve, bps // RESERVE_COST) if amount == "ALL" or isinstance(amount, str) else reserve
            )
            cost = None if why or count < 1 else count * RESERVE_COST
        elif order.verb in ("MOVE", "ATTACK"):
            cost = MOVE_COST
        elif order.verb == "GIFT":
            count, why = resolve_amount(amount, bps)
            cost = amount if why and isinstance(amount, int) else (count or None)
        elif where in population and order.verb == "GROW" and where not in grown:
            cost = population[where] + board.terrain(where).grow
        elif where in fort and order.verb == "FORTIFY" and fort[where] < MAX_FORT:
            cost = 2 * (fort[where] + 1)  # rule D-EMP-4: 2 BPs times the new level
        elif where in fort and order.verb == "RAZE":
            levels, why = resolve_amount(amount, fort[where])
            cost = None if why or levels < 1 else levels
        elif where in population and order.verb == "LEVY":
            count, why = resolve_amount(amount, population[where] // 2)
            population[where] -= 0 if why else count
        if cost is None:
            continue
        if cost > bps:
            found.append(
                Problem(
                    order.line,
                    f"this {order.verb} costs {cost} BP{'' if cost == 1 else 's'} and you will have {bps} "
                    "when it comes, after your earlier actions: it fails unless a gift reaches you first",
                )
            )
            continue
        bps -= cost
        if order.verb == "ARMY":
            reserve += cost // ARMY_COST
            armed = True
        elif order.verb == "RESERVE":
            reserve -= cost // RESERVE_COST
        elif order.verb == "GROW":
            population[where] += 1
            grown.add(where)
        elif order.verb in ("FORTIFY", "RAZE"):
            fort[where] += 1 if order.verb == "FORTIFY" else -cost
    return found


def _grown_again(orders: list[Order]) -> list[Problem]:
    """A GROW of an area an earlier GROW of the turn names: a warning, not a problem, since
    "once per area per turn" counts the growth, and the earlier one may fail when it comes
    (for want of BPs a gift brings later, or the area lost and won back): rule D-ALL-3."""
    first: dict[str, int] = {}
    found = []
    for order in orders:
        number, where = order.args[0], order.args[1]
        if order.verb != "GROW":
            continue
        if where in first:
            found.append(
                Problem(
                    order.line,
                    f"{where} already grows at action {first[where]} (GROW once per area per turn): "
                    "this one fails unless that one does",
                )
            )
        else:
            first[where] = number
    return found


def _capture_warning(state: JSONObject, seat: str, order: Order, orders: list[Order]) -> str | None:
    """An action that counts on the seat's earlier ATTACK on an area and that the attack, as the
    map stands and with the most armies its earlier actions bring, leaves to fail: an action on
    the area when no such attack can take it, a MOVE or ATTACK from it of more armies than the
    attack leaves there, an ATTACK on it when an earlier one takes it (an attack on one's own area
    fails). Warnings: another country's attack or a defence order of the owner's may change the
    battle first."""
    number, where, where_to, amount = order.args
    areas = state["areas"]
    codes = [] if order.verb in DEFENCE or order.verb in ("ARMY", "GIFT") else [where]
    if order.verb in ("MOVE", "ATTACK"):
        codes.append(where_to)
    for code in codes:
        if code not in areas or areas[code]["owner"] == seat:
            continue
        attacks = [o for o in orders if o.verb == "ATTACK" and o.args[2] == code and o.args[0] < number]
        left = [_left_by(state, seat, o, orders) for o in attacks]
        if not attacks or None in left:
            continue
        numbers = ", ".join(str(o.args[0]) for o in attacks)
        if order.verb == "ATTACK" and code == where_to:
            # Taken for sure only with the armies there now: what earlier actions bring is a most.
            exact = [
                n
                for o, n in zip(attacks, left, strict=True)
                if not _brought_at_most(state, seat, orders, o.args[0], o.args[1])
            ]
            if any(exact):
                return f"your attack at action {numbers} takes {code} as the map stands: this ATTACK on it then fails, as one on your own area"
            continue
        if not any(left):
            return (
                f"{code} is not yours now and your attack on it (action {numbers}) cannot take it as the map "
                f"stands: this {order.verb} fails unless it does"
            )
        extra = _brought_at_most(state, seat, orders, number, code)
        if order.verb in ("MOVE", "ATTACK") and code == where and extra is not None:
            most = max(n or 0 for n in left) + extra
            if (isinstance(amount, int) and amount > most) or resolve_amount(amount, most)[0] < 1:
                return (
                    f"your attack at action {numbers} takes {code} as the map stands with at most {most - extra} "
                    f"armies left there, and your earlier actions bring at most {extra} more: {amount} of them "
                    f"makes this {order.verb} fail"
                )
    return None


def _left_by(state: JSONObject, seat: str, attack: Order, orders: list[Order]) -> int | None:
    """The armies an ATTACK of the seat's leaves in the area it takes, as the map stands and with
    the most armies its earlier actions bring to the attack's start: 0 when it cannot take it,
    None when that is not known now."""
    number, source, target, amount = attack.args
    areas = state["areas"]
    if source not in areas or areas[source]["owner"] != seat or areas[target]["owner"] == seat:
        return None
    extra = _brought_at_most(state, seat, orders, number, source)
    if extra is None:
        return None
    most = areas[source]["armies"] + extra
    attacking, why = resolve_amount(amount, most)
    if why or attacking < 1:
        return 0
    area = areas[target]
    terrain = Board.of(state).terrain(target)
    battle = Battle(attacking, area["armies"], area["population"], area["fort"], terrain.defence)
    return battle.survivors if battle.captured else 0


def _may_capture(orders: list[Order], number: int, code: str) -> bool:
    return any(o.verb == "ATTACK" and o.args[2] == code and o.args[0] < number for o in orders)


def _order_problem(state: JSONObject, board: Board, seat: str, order: Order, orders: list[Order]) -> str | None:
    number, where, where_to, _ = order.args
    problem = area_problem(order, lambda code: code in board.places, board.is_land)
    if problem:
        return problem
    if order.verb == "GIFT":
        return _gift_problem(state, seat, where_to)
    if order.verb in DEFENCE and state["areas"][where]["owner"] != seat:
        # A defence order stands from the start of the turn (rules.set_defences), before any
        # attack of the seat's can take the area, so no earlier action changes its fate.
        if _may_capture(orders, number, where):
            return f"{_not_yours(state, where)}: a defence order stands from the start of the turn, before your attack takes it"
        return _not_yours(state, where)
    if order.verb != "ARMY" and not _yours(state, where, seat, orders, number):
        return _not_yours(state, where)
    if order.verb in ("MOVE", "ATTACK", "ENTRENCH", "RETREAT"):
        if where_to not in board.reach[where]:
            return f"{where} and {where_to} are not next to each other (nor across one sea)"
    # A RETREAT acts at the area's first attack, whenever in the turn that comes, so any ATTACK
    # of the seat's on the refuge may have taken it by then (rule D-ALL-3); a MOVE acts at its
    # number.
    by = number if order.verb == "MOVE" else MAX_ACTIONS + 1
    if order.verb in ("MOVE", "RETREAT") and not _yours(state, where_to, seat, orders, by):
        return f"{where_to} is not yours; {order.verb} goes to an area you own (to take it, ATTACK)"
    return None


def area_problem(order: Order, on_map: Callable[[str], bool], is_land: Callable[[str], bool]) -> str | None:
    """An area an order names that is not on the map or is a sea, as the GM's check and the
    player's (offline.py) say it first."""
    _, where, where_to, _ = order.args
    for code in (where, None if order.verb == "GIFT" else where_to):
        if code is not None and not on_map(code):
            return f"{code} is not an area on this map"
        if code is not None and not is_land(code):
            return f"{code} is a sea; armies cross seas but cannot stand or fight there"
    return None


def _yours(state: JSONObject, code: str, seat: str, orders: list[Order], number: int) -> bool:
    return state["areas"][code]["owner"] == seat or _may_capture(orders, number, code)


def _not_yours(state: JSONObject, code: str) -> str:
    owner = state["areas"][code]["owner"]
    return f"{code} is not yours (it is held by {nation(state, owner)})"


def _gift_problem(state: JSONObject, seat: str, country: str) -> str | None:
    if country == seat:
        return "a gift goes to another country, not your own"
    if country not in state["countries"]:
        return f"{country} is not a country in this game"
    if country in state["victory"]["eliminated"]:
        return f"{nation(state, country)} has been eliminated and cannot take gifts"
    return None
