"""Clash of Empires orders: the parser (never raises), what each order needs of the board, and
the check of a seat's orders against the current state."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeGuard

from gm.core.maps import parse_lines, shown as _shown
from gm.core.model import JSONObject, Order, OrderArgs, Problem
from gm.core.warnings import did_you_mean

from .board import NEUTRAL, holder, nation, order_of_play, order_text, place_names, places, troops_of, troops_words

PLAY_VERBS = ("PASS", "RECRUIT", "REVOLT", "MOVE")
TROOP_COST = 2  # rule D-CE-3
VERBS = ("CLAIM", "PLACE", "PASS", "RECRUIT", "REVOLT", "MOVE")
USAGE = {
    "CLAIM": "CLAIM <territory> <territory> ...",
    "PLACE": "PLACE <territory> <n>",
    "PASS": "PASS",
    "RECRUIT": "RECRUIT <territory> <n>",
    "REVOLT": "REVOLT <territory>",
    "MOVE": "MOVE <from> <to> <n|ALL>",
}
NEEDS = {
    "CLAIM": "at least one territory",
    "PLACE": "a territory and a number",
    "PASS": "nothing after it",
    "RECRUIT": "a territory and a number",
    "REVOLT": "one territory",
    "MOVE": "a territory to move from, one to move to, and a number or ALL",
}
# Argument kinds per verb; CLAIM takes any number of codes.
SHAPES = {
    "PLACE": ("code", "count"),
    "PASS": (),
    "RECRUIT": ("code", "count"),
    "REVOLT": ("code",),
    "MOVE": ("code", "code", "amount"),
}
CODE = re.compile(r"[A-Za-z]{3}")
NUMBER = re.compile(r"[0-9]{1,6}")  # ASCII digits only, and short enough for int() to be safe


def make_order(verb: str, *args: str | int) -> Order:
    """An order as the robot or an order form writes it (line 0, text rebuilt from the args)."""
    return Order(verb, tuple(args), 0, " ".join([verb, *(str(a) for a in args)]))


# ----------------------------------------------------------------------------------------------
# Parsing: text to orders, with no knowledge of the game state.


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    """Parse the body lines of a turn file. Never raises: bad lines become problems."""
    return parse_lines(lines, _parse_words)


def _parse_words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb, rest = words[0].upper(), words[1:]
    if verb not in VERBS:
        return f"{_shown(words[0])} is not an order{did_you_mean(words[0], VERBS)}; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE"
    shape = ("code",) * len(rest) if verb == "CLAIM" else SHAPES[verb]
    if len(rest) != len(shape) or (verb == "CLAIM" and not rest):
        return f"{verb} needs {NEEDS[verb]}: {USAGE[verb]}"
    args = []
    for kind, word in zip(shape, rest, strict=True):
        value = _parse_arg(kind, word)
        if isinstance(value, tuple):  # a problem, wrapped so it cannot pass for an argument
            return value[0]
        args.append(value)
    return verb, tuple(args)


def _parse_arg(kind: str, word: str) -> str | int | tuple[str]:
    if kind == "code":
        if CODE.fullmatch(word):
            return word.upper()
        return (not_a_code(_shown(word)),)
    if kind == "amount" and word.upper() == "ALL":
        return "ALL"
    if not NUMBER.fullmatch(word):
        return (f"{_shown(word)} is not a number of troops; write a whole number such as 3",)
    if int(word) < 1:
        return ("the number of troops must be at least 1",)
    return int(word)


# ----------------------------------------------------------------------------------------------
# What is legal. The same checks answer a player at submission and explain a failed order in the
# report (rule D-ALL-3), so each message is phrased through a Voice.


@dataclass(frozen=True)
class Voice:
    """Who a legality message speaks to.

    you: True for the player who wrote the order (codes, "you"); False for every reader of the
        report (territory names, the nation's name).
    nation: the seat's nation, used when you is False.
    names: territory names by code.
    """

    you: bool
    nation: str
    names: dict[str, str]

    def place(self, code: str) -> str:
        return code if self.you else self.names.get(code, code)

    def has(self) -> str:
        return "you have" if self.you else f"{self.nation} has"

    def yours(self) -> str:
        return "yours" if self.you else f"{self.nation}'s"

    def your(self) -> str:
        return "your" if self.you else f"{self.nation}'s"

    def cannot(self) -> str:
        return "you cannot" if self.you else f"{self.nation} cannot"


def voice(state: JSONObject, seat: str, you: bool) -> Voice:
    # The player's own voice names territories by their codes (Voice.place): the names are made
    # for a report's voice only, not for every check of a turn file, which never read them.
    return Voice(you, nation(state, seat), {} if you else place_names(state))


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def well_formed(order: object) -> TypeGuard[Order]:
    """Whether an order's arguments have the shape the parser gives (guards resolve)."""
    if not isinstance(order, Order):
        return False
    if order.verb == "CLAIM":
        return len(order.args) >= 1 and all(isinstance(a, str) for a in order.args)
    shape = SHAPES.get(order.verb)
    if shape is None or len(order.args) != len(shape):
        return False
    return all(_ARG_TESTS[kind](arg) for kind, arg in zip(shape, order.args, strict=True))


# What each argument kind of SHAPES must be (well_formed).
_ARG_TESTS: dict[str, Callable[[object], bool]] = {
    "code": lambda a: isinstance(a, str),
    "count": _is_count,
    "amount": lambda a: a == "ALL" or _is_count(a),
}


def not_held(state: JSONObject, code: str, v: Voice) -> str:
    who = holder(state, code)
    by = (
        "nobody holds it"
        if who is None
        else ("it is held by neutral troops" if who == NEUTRAL else f"it is held by {nation(state, who)}")
    )
    return f"{v.place(code)} is not {v.yours()} ({by})"


def unknown_code(state: JSONObject, *codes: str) -> str | None:
    for code in codes:
        if code not in state["territories"]:
            return not_a_territory(code)
    return None


def not_a_code(word: str) -> str:
    """The parser's words for a territory not shaped like a code (CODE); the order grammar says
    them too (offline.order_grammar)."""
    return f"{word} is not a territory code; codes are three letters, like ENG"


def not_a_territory(code: str) -> str:
    return f"{code} is not a territory on this map"


def action_problem(state: JSONObject, seat: str, order: Order, v: Voice) -> str | None:
    """Why a play-phase action cannot be carried out now, or None when it can."""
    if not well_formed(order) or order.verb not in PLAY_VERBS:
        return f"{order_text(order)} is not an action of this round"
    if order.verb == "PASS":
        return None
    codes = [a for kind, a in zip(SHAPES[order.verb], order.args, strict=True) if kind == "code"]
    problem = unknown_code(state, *codes)
    if problem:
        return problem
    if order.verb == "RECRUIT":
        code, count = order.args
        return recruit_problem(state, seat, code, count, v)
    if order.verb == "REVOLT":
        return revolt_problem(state, seat, order.args[0], v)
    source, target, amount = order.args
    return move_problem(state, seat, source, target, amount, v)


def recruit_problem(state: JSONObject, seat: str, code: str, count: int, v: Voice) -> str | None:
    # The unit limit is read last: the player's own check (offline.py) asks only what comes
    # before it, of a board built from the report, which has no scenario limits.
    money, on_board = state["seats"][seat]["money"], troops_of(state, seat)
    if holder(state, code) != seat:
        return not_held(state, code, v)
    if count * TROOP_COST > money:
        return f"{v.has()} ${money}; {troops_words(count)} cost ${count * TROOP_COST}"
    limit = state["scenario"]["unit_limit"]
    if on_board + count > limit:  # rule D-CE-3: at most 100 troops on the board
        return f"{v.has()} {troops_words(on_board)} on the board; {count} more would pass the limit of {limit}"
    return None


def revolt_problem(state: JSONObject, seat: str, code: str, v: Voice) -> str | None:
    if state["territories"][code]["core_of"] != seat:
        return f"{v.place(code)} is not one of {v.your()} core territories"
    who = holder(state, code)
    if who is None:
        return f"{v.place(code)} is empty; there is no troop to remove"
    if who == seat:
        return f"{v.place(code)} holds only {v.your()} own troops; there is no troop to remove"
    return None


def move_problem(state: JSONObject, seat: str, source: str, target: str, amount: int | str, v: Voice) -> str | None:
    if holder(state, source) != seat:
        return not_held(state, source, v)
    if source == target:
        return f"a move needs two different territories, not {v.place(source)} twice"
    if target not in places(state)[source]["neighbours"]:
        return f"{v.place(source)} and {v.place(target)} are not neighbours"
    present = state["territories"][source]["troops"]
    if amount != "ALL" and amount > present:
        return f"{v.place(source)} has {troops_words(present)}; {v.cannot()} move {amount}"
    return None


def place_problem(state: JSONObject, seat: str, order: Order, left: int, v: Voice) -> str | None:
    """Why a set-up PLACE order cannot be carried out, given the units the seat has left."""
    if not well_formed(order) or order.verb != "PLACE":
        return f"{order_text(order)} is not a placing order"
    code, count = order.args
    problem = unknown_code(state, code)
    if problem:
        return problem
    # Setting up the game, 2: "Each player gets 20 units that can be played anywhere on the
    # board": on any territory, a core of its own or not, where no other troops stand.
    if holder(state, code) not in (None, seat):
        return not_held(state, code, v)
    if count > left:
        total = state["scenario"]["start_units"]
        return f"only {left} of {v.your()} {total} units are left to place; this order places {count}"
    return None


# ----------------------------------------------------------------------------------------------
# Checking: parsed orders against the state of the turn being collected.


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems with a seat's orders now; an empty list means the orders are accepted."""
    if seat not in state["seats"]:
        return [Problem(0, f"{seat} has no seat in this game")]
    phase = state["phase"]
    if phase == "over":
        return [Problem(o.line, "the game is over; no orders are needed") for o in orders]
    checks = {"claim": _check_claim, "place": _check_place, "play": _check_play}
    return checks[phase](state, seat, orders)


WRONG_PHASE = {
    "claim": "is not an order for this turn: this turn is for claiming territories with CLAIM",
    "place": "is not an order for this turn: this turn is for placing units with PLACE",
    "play": "is a set-up order; in a round your one action is PASS, RECRUIT, REVOLT or MOVE",
}


def _check_claim(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    problems = []
    known = places(state)
    for order in orders:
        if order.verb != "CLAIM":
            problems.append(Problem(order.line, f"{order.verb} {WRONG_PHASE['claim']}"))
            continue
        for code in order.args:
            message = _claim_problem(state, known, code)
            if message:
                problems.append(Problem(order.line, message))
    return problems


def _claim_problem(state: JSONObject, known: JSONObject, code: str) -> str | None:
    if code not in known:
        return not_a_territory(code)
    if not known[code]["claimable"]:
        return f"{code} cannot be claimed"
    taken = state["territories"][code]["core_of"]
    if taken is not None:
        return f"{code} is already claimed by {nation(state, taken)}"
    return None


def _check_place(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    problems = []
    for order, problem, _ in _place_lines(state, seat, orders):
        if order.verb != "PLACE":
            problems.append(Problem(order.line, f"{order.verb} {WRONG_PHASE['place']}"))
        elif problem:
            problems.append(Problem(order.line, problem))
    return problems


def _place_lines(state: JSONObject, seat: str, orders: list[Order]) -> list[tuple[Order, str | None, str | None]]:
    """Each order of a placing file with its problem (it cannot run) or its warning (it runs only
    if a PLACE above it fails), in order.

    Seats place one after another (D-ALL-4), the first to place on an empty territory holds it
    and a later PLACE there fails on its own (D-ALL-3), and its units stay to place. So when a
    seat places before this one, a PLACE past the units left after the orders above may still
    run: refusing it would refuse a fallback ("ENG 20; if another got there first, HOL 20").
    Only what no player before can change is a problem: units left after the orders above that
    must run (those on territories the seat holds already; every one when the seat is first)."""
    v = voice(state, seat, you=True)
    scenario = state["scenario"]
    units = min(scenario["start_units"], scenario["unit_limit"] - troops_of(state, seat))
    first = order_of_play(state)[0] == seat
    left = sure_left = units  # after every order above that may run; after those that must
    lines: list[tuple[Order, str | None, str | None]] = []
    for order in orders:
        if order.verb != "PLACE":
            lines.append((order, None, None))
            continue
        problem = place_problem(state, seat, order, sure_left, v)  # None: a well-formed PLACE
        if problem:
            lines.append((order, problem, None))
            continue
        code, count = order.args
        warning = None
        if count > left:  # only when a seat places first: otherwise left == sure_left
            warning = (
                f"only {left} of your {scenario['start_units']} units are left after the orders above; this order "
                f"places {count}: it fails unless a player before you places first where an order above places"
            )
        elif first or holder(state, code) == seat:
            sure_left -= count
        left = max(0, left - count)
        lines.append((order, None, warning))
    return lines


def _check_play(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    problems = []
    first = None
    for order in orders:
        if order.verb not in PLAY_VERBS:
            problems.append(Problem(order.line, f"{order.verb} {WRONG_PHASE['play']}"))
        elif first is not None:
            problems.append(Problem(order.line, f"only one action per round: line {order.line} is a second one"))
        else:
            first = order
    if first is not None:
        message = action_problem(state, seat, first, voice(state, seat, you=True))
        if message and not _may_come_good(state, seat, first):
            problems.append(Problem(first.line, message))
    return sorted(problems, key=lambda p: p.line)


def _may_come_good(state: JSONObject, seat: str, order: Order) -> bool:
    # Only what no player before the seat in the round can change refuses the file (D-ALL-3).
    return _revolt_may_come_good(state, seat, order) or _recruit_may_come_good(state, seat, order)


def _revolt_may_come_good(state: JSONObject, seat: str, order: Order) -> bool:
    """A REVOLT on one of the seat's own core territories that has no enemy troop now, when
    another player acts before the seat in the round: that player may move one in (D-ALL-4),
    and the revolt then runs. Rule D-ALL-3 fails it on its own if not, so the check warns
    (_revolt_warning) and does not refuse the file. When the seat acts first nobody can, and
    the check refuses it, as it does a recruit past the unit limit."""
    code = order.args[0] if order.verb == "REVOLT" and well_formed(order) else None
    return (
        code in state["territories"]
        and state["territories"][code]["core_of"] == seat
        and order_of_play(state)[0] != seat
    )


def _recruit_may_come_good(state: JSONObject, seat: str, order: Order) -> bool:
    """A RECRUIT on a territory of the seat's that it can pay for, when another player acts
    before it in the round: that player may remove some of its troops first, by an attack or a
    revolt (D-ALL-4), and a recruit past the unit limit as the board stands then runs. It never
    can when its troops alone, with the one it keeps on the territory, pass the limit. Rule
    D-ALL-3 fails it on its own if not, so the check warns (_recruit_warning) and does not
    refuse the file."""
    if order.verb != "RECRUIT" or not well_formed(order) or order.args[0] not in state["territories"]:
        return False
    code, count = order.args
    return (
        holder(state, code) == seat
        and count * TROOP_COST <= state["seats"][seat]["money"]
        and count < state["scenario"]["unit_limit"]
        and order_of_play(state)[0] != seat
    )


# ----------------------------------------------------------------------------------------------
# Warnings, as echeck gives them: what is probably a slip. The orders still count.


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """Units left unplaced at the set-up, an attack too weak to take its target, a revolt with
    no enemy troop to remove and a recruit past the unit limit, as the board stands. Never raises: the orders may be the ones
    the check refused."""
    if seat not in state.get("seats", {}):
        return []
    if state["phase"] == "place":
        fallbacks = [Problem(o.line, w) for o, _, w in _place_lines(state, seat, orders) if w]
        return fallbacks + _unplaced(state, seat, orders)
    if state["phase"] == "play":
        return [
            Problem(o.line, w)
            for o in orders
            if (w := _too_weak(state, seat, o) or _revolt_warning(state, seat, o) or _recruit_warning(state, seat, o))
        ]
    return []


def _revolt_warning(state: JSONObject, seat: str, order: Order) -> str | None:
    """A REVOLT on the seat's own core territory with no enemy troop there as the board stands."""
    if not _revolt_may_come_good(state, seat, order):
        return None
    code = order.args[0]
    who = holder(state, code)
    if who is None:
        return f"{code} is empty now: the revolt fails unless another player moves troops in before your action"
    if who == seat:
        return (
            f"{code} holds only your own troops now: the revolt fails unless another player takes it before your action"
        )
    return None


def _recruit_warning(state: JSONObject, seat: str, order: Order) -> str | None:
    """A RECRUIT past the unit limit as the board stands, which a player before the seat may
    bring within it (rule D-CE-3)."""
    if not _recruit_may_come_good(state, seat, order):
        return None
    count, on_board, limit = order.args[1], troops_of(state, seat), state["scenario"]["unit_limit"]
    if on_board + count <= limit:
        return None
    return (
        f"you have {troops_words(on_board)} on the board now; {count} more would pass the limit of {limit}: "
        f"the recruit fails unless players before you remove at least {on_board + count - limit} of them"
    )


def _unplaced(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    # Setting up the game, 2: "Each player gets 20 units"; what a seat leaves unplaced gm
    # spreads over its core territories (games/clash/README.md), not where the player wants them.
    scenario = state["scenario"]
    units = min(scenario["start_units"], scenario["unit_limit"] - troops_of(state, seat))
    placed = sum(o.args[1] for o in orders if well_formed(o) and o.verb == "PLACE")
    if placed >= units:
        return []
    # As rules._spread does: over the core territories no one else holds, else the empty ones.
    free = any(holder(state, code) in (None, seat) for code, t in state["territories"].items() if t["core_of"] == seat)
    where = (
        "your core territories"
        if free
        else "the territories where no troops stand (others hold all your core territories)"
    )
    return [
        Problem(
            0,
            f"you place {placed} of your {units} units; the other {units - placed} are spread one at a time over {where}, in code order",
        )
    ]


def _too_weak(state: JSONObject, seat: str, order: Order) -> str | None:
    # Combat Rules (rule D-CE-4): the defender loses one troop per attacker and the territory is
    # taken only when no defender is left, so n attackers never take it from n or more.
    if not well_formed(order) or order.verb != "MOVE" or unknown_code(state, *order.args[:2]):
        return None
    source, target, amount = order.args
    defender = holder(state, target)
    if holder(state, source) != seat or defender in (None, seat):
        return None
    present = state["territories"][source]["troops"]
    attacking = present if amount == "ALL" else min(amount, present)
    defending = state["territories"][target]["troops"]
    if attacking > defending:
        return None
    outcome = (
        "both sides are wiped out and it is left empty"
        if attacking == defending
        else f"{defending - attacking} of its defenders survive and hold it"
    )
    return (
        f"{troops_words(attacking)} against {defending} in {target}: {outcome} (Combat Rules), "
        "unless someone weakens it before your action"
    )
