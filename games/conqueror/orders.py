"""Conqueror! orders: the parser (never raises), what each order needs, and check_orders."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from gm.core.maps import parse_lines, shown as _shown
from gm.core.model import JSONObject, Order, OrderArgs, Problem
from gm.core.warnings import did_you_mean

from .board import NEUTRAL, Board, armies_words, nation
from .economy import COSTS, CULTURE_WORDS, REPEATED, buy_price, labour_for, requirement

MAX_MOVES = 5  # rule D-CQ-1
MOVE_VERBS = ("MOVE", "ATTACK")
VERBS = ("MOVE", "ATTACK", "PRODUCE", "BUY")
ALIASES = {"BUILD": "PRODUCE"}
ITEM_NAMES = {
    "TAXES": "TAXES",
    "TAX": "TAXES",
    "LEVY": "TAXES",
    "SOLDIERS": "SOLDIERS",
    "SOLDIER": "SOLDIERS",
    "RECRUIT": "SOLDIERS",
    "ARMY": "SOLDIERS",
    "ARMIES": "SOLDIERS",
    "DIPLOMAT": "DIPLOMAT",
    "DIPLOMATS": "DIPLOMAT",
    "FORT": "FORT",
    "KEEP": "KEEP",
    "CASTLE": "CASTLE",
    "FARMS": "FARMS",
    "FARM": "FARMS",
    "DEVELOP": "DEVELOP",
    "ADVANCE": "ADVANCE",
}
# The production menu as the rule book names it ("Item / Action"): two words, the second any
# spelling ITEM_NAMES takes. `PRODUCE ARD Recruit Soldiers` is `PRODUCE ARD SOLDIERS`.
BOOK_ITEMS = {
    ("LEVY", "TAXES"): "TAXES",
    ("RECRUIT", "SOLDIERS"): "SOLDIERS",
    ("SEND", "DIPLOMAT"): "DIPLOMAT",
    ("BUILD", "FORT"): "FORT",
    ("BUILD", "KEEP"): "KEEP",
    ("BUILD", "CASTLE"): "CASTLE",
    ("BUILD", "FARMS"): "FARMS",
    ("DEVELOP", "CULTURE"): "DEVELOP",
    ("ADVANCE", "CULTURE"): "ADVANCE",
}
USAGE = {
    "MOVE": "MOVE <from> <to> <n|ALL>",
    "ATTACK": "ATTACK <from> <to> <n|ALL>",
    "PRODUCE": "PRODUCE <province> <item> [<diplomat's target>]",
    "BUY": "BUY <province> [<n>]",
}
CODE = re.compile(r"[A-Za-z]{3}")
NUMBER = re.compile(r"[0-9]{1,6}")  # ASCII digits only, and short enough for int() to be safe


def make_order(verb: str, *args: str | int) -> Order:
    """An order as the robot or an order form writes it (line 0, text rebuilt from the args)."""
    return Order(verb, tuple(args), 0, " ".join([verb, *(str(a) for a in args)]))


def order_text(order: object) -> str:
    if not isinstance(order, Order):
        return "an unreadable order"
    return order.text or " ".join([str(order.verb), *(str(a) for a in order.args)])


# ----------------------------------------------------------------------------------------------
# Parsing: text to orders, with no knowledge of the game state.


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    """Parse the body lines of a turn file. Never raises: bad lines become problems."""
    return parse_lines(lines, _parse_words)


def _parse_words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb = ALIASES.get(words[0].upper(), words[0].upper())
    rest = words[1:]
    if verb not in VERBS:
        return f"{_shown(words[0])} is not an order{did_you_mean(words[0], VERBS)}; the orders are MOVE, ATTACK, PRODUCE and BUY"
    if verb in MOVE_VERBS:
        if len(rest) != 3:
            return f"{verb} needs a province to leave, one to enter and a number or ALL: {USAGE[verb]}"
        return _args(verb, zip(("code", "code", "amount"), rest))
    if verb == "PRODUCE":
        rest = _book_item(rest)
        if len(rest) not in (2, 3):
            return f"PRODUCE needs a province and what it makes: {USAGE[verb]}"
        item = ITEM_NAMES.get(rest[1].upper())
        if item is None:
            return (
                f"{_shown(rest[1])} is not something a province makes; choose TAXES, SOLDIERS, "
                "DIPLOMAT, FORT, KEEP, CASTLE, FARMS, DEVELOP or ADVANCE"
            )
        if len(rest) == 3 and item != "DIPLOMAT":
            return f"only a DIPLOMAT takes a target province: PRODUCE {rest[0].upper()} {item}"
        parsed = _args(verb, zip(("code", "code"), rest[:1] + rest[2:]))
        if isinstance(parsed, str):
            return parsed
        code, *target = parsed[1]
        return verb, (code, item, *target)
    if len(rest) not in (1, 2):
        return f"BUY needs a province and, if more than one, how many: {USAGE[verb]}"
    parsed = _args(verb, zip(("code", "count"), rest))
    if isinstance(parsed, str):
        return parsed
    return verb, parsed[1] if len(rest) == 2 else (parsed[1][0], 1)


def _book_item(rest: list[str]) -> list[str]:
    """PRODUCE's words with an item named as the book's menu names it ("Build Fort") made one."""
    if len(rest) >= 3:
        second = rest[2].upper()
        item = BOOK_ITEMS.get((rest[1].upper(), ITEM_NAMES.get(second, second)))
        if item:
            return [rest[0], item, *rest[3:]]
    return rest


def _args(verb: str, shaped: Iterable[tuple[str, str]]) -> tuple[str, OrderArgs] | str:
    args: list[str | int] = []
    for kind, word in shaped:
        if kind == "code":
            if not CODE.fullmatch(word):
                return not_a_code(_shown(word))
            args.append(word.upper())
        elif kind == "amount" and word.upper() == "ALL":
            args.append("ALL")
        elif not NUMBER.fullmatch(word):
            return f"{_shown(word)} is not a number; write a whole number such as 3"
        elif int(word) < 1:
            return "the number must be at least 1"
        else:
            args.append(int(word))
    return verb, tuple(args)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _codes(*args: object) -> bool:
    return all(isinstance(x, str) for x in args)


def well_formed(order: object) -> TypeGuard[Order]:
    """Whether an order has the shape the parser gives (guards resolve against junk)."""
    if not isinstance(order, Order) or not isinstance(order.args, tuple):
        return False
    args = order.args
    if order.verb in MOVE_VERBS:
        return len(args) == 3 and _codes(*args[:2]) and (args[2] == "ALL" or _is_count(args[2]))
    if order.verb == "PRODUCE":
        return len(args) in (2, 3) and _codes(*args) and args[1] in COSTS and (len(args) == 2 or args[1] == "DIPLOMAT")
    if order.verb == "BUY":
        return len(args) == 2 and _codes(args[0]) and _is_count(args[1])
    return False


# ----------------------------------------------------------------------------------------------
# What is legal. The same checks answer a player at submission and explain a failed order in the
# report (rule D-ALL-3), so each message is phrased through a Voice.


@dataclass(frozen=True)
class Voice:
    """Who a legality message speaks to: the player (codes, "you") or every reader of the report
    (province names, the nation's name)."""

    you: bool
    nation: str
    board: Board

    def place(self, code: str) -> str:
        return code if self.you else self.board.label(code)

    def has(self) -> str:
        return "you have" if self.you else f"{self.nation} has"

    def yours(self) -> str:
        return "yours" if self.you else f"{self.nation}'s"


def voice(state: JSONObject, seat: str, you: bool, board: Board) -> Voice:
    return Voice(you, nation(state, seat), board)


def _held_by(state: JSONObject, code: str, v: Voice) -> str:
    owner = state["provinces"][code]["owner"]
    who = "the local leaders" if owner == NEUTRAL else nation(state, owner)
    return f"{v.place(code)} is not {v.yours()} (it is held by {who})"


def unknown_code(state: JSONObject, *codes: str) -> str | None:
    for code in codes:
        if code not in state["provinces"]:
            return not_a_province(code)
    return None


def not_a_code(word: str) -> str:
    """The parser's words for a province not shaped like a code (CODE); the order grammar says
    them too (offline.order_grammar)."""
    return f"{word} is not a province code; codes are three letters, like WES"


def not_a_province(code: str) -> str:
    return f"{code} is not a province on this map"


def too_many_moves(line: int) -> str:
    return f"only {MAX_MOVES} move or attack orders a turn: line {line} is one too many"


def move_problem(state: JSONObject, seat: str, order: Order, free: int, v: Voice, planning: bool) -> str | None:
    """Why a MOVE or ATTACK cannot go now; free is how many armies may still leave the source.
    At planning the target's owner must fit the verb; at execution a MOVE whose target was lost
    fails, and an ATTACK on a province that has become the seat's own simply moves in."""
    source, target, amount = order.args
    problem = map_move_problem(state, seat, order, v, planning)
    if problem:
        return problem
    if free < 1:
        return f"{v.place(source)} has no armies left that can move this turn"
    if amount != "ALL" and amount > free and planning:
        return f"{v.place(source)} has {armies_words(free)} free to move; you cannot move {amount}"
    return None


def map_move_problem(state: JSONObject, seat: str, order: Order, v: Voice, planning: bool) -> str | None:
    """move_problem's checks of the map and its owners alone, first as there: the player's own
    check (offline.py) asks them of the owners its report shows."""
    source, target, _ = order.args
    problem = unknown_code(state, source, target)
    if problem:
        return problem
    provinces = state["provinces"]
    if provinces[source]["owner"] != seat:
        return _held_by(state, source, v)
    if source == target:
        return f"an order needs two different provinces, not {v.place(source)} twice"
    if not v.board.adjacent(source, target):
        return f"{v.place(source)} and {v.place(target)} are not neighbours"
    mine = provinces[target]["owner"] == seat
    if order.verb == "MOVE" and not mine:
        if planning:
            return f"{_held_by(state, target, v)}; to attack it write ATTACK"
        owner = provinces[target]["owner"]
        who = "the local leaders" if owner == NEUTRAL else nation(state, owner)
        return f"{v.place(target)} is held by {who} when the move comes"
    if order.verb == "ATTACK" and mine and planning:
        return f"{v.place(target)} is {v.yours()} already; to send armies there write MOVE"
    return None


def produce_problem(state: JSONObject, seat: str, order: Order, v: Voice) -> str | None:
    code, item, *target = order.args
    problem = produce_owner_problem(state, seat, order, v)
    if problem:
        return problem
    province = state["provinces"][code]
    lacking = requirement(item, province)
    if lacking:
        return f"{v.place(code)} cannot {item_verb(item)}: {lacking}"
    if target and target[0] != code and not v.board.adjacent(code, target[0]):
        return (
            f"a diplomat from {v.place(code)} goes to {v.place(code)} itself or a neighbour, not {v.place(target[0])}"
        )
    return None


def produce_owner_problem(state: JSONObject, seat: str, order: Order, v: Voice) -> str | None:
    """produce_problem's first checks, of the map and its owners alone (offline.py asks them).
    A diplomat goes to a province of its nation's: its one effect is "adds 10% to control level
    in province", and the control level is the owner's influence."""
    code, _, *target = order.args
    problem = unknown_code(state, code, *target)
    if problem:
        return problem
    if state["provinces"][code]["owner"] != seat:
        return _held_by(state, code, v)
    if target and state["provinces"][target[0]]["owner"] != seat:
        return f"a diplomat adds to the control level of a province of {v.yours()}: {_held_by(state, target[0], v)}"
    return None


def item_verb(item: str) -> str:
    return {
        "TAXES": "levy taxes",
        "SOLDIERS": "recruit soldiers",
        "DIPLOMAT": "send a diplomat",
        "FORT": "build a fort",
        "KEEP": "build a keep",
        "CASTLE": "build a castle",
        "FARMS": "build farms",
        "DEVELOP": "develop its culture",
        "ADVANCE": "advance its culture",
    }[item]


def buy_cost(province: JSONObject, item: str, progress: int, units: int) -> int:
    """Gold to finish `units` of the province's item now (rule D-CQ-4)."""
    labour = labour_for(item, units, province["population"], progress)
    return buy_price(labour, province["culture"])


def buy_problem(
    state: JSONObject, seat: str, code: str, units: int, item: str, progress: int, gold: int, v: Voice
) -> str | None:
    """Why a BUY cannot be paid for; item and progress are the province's after any PRODUCE."""
    problem = unknown_code(state, code)
    if problem:
        return problem
    province = state["provinces"][code]
    if province["owner"] != seat:
        return _held_by(state, code, v)
    if item == "TAXES":
        return f"{v.place(code)} levies taxes; taxes cannot be rush-bought"
    if item not in REPEATED and units > 1:
        return f"{v.place(code)} can {item_verb(item)} only once; buy 1"
    lacking = requirement(item, province)
    if lacking:
        return f"{v.place(code)} cannot {item_verb(item)}: {lacking}"
    price = buy_cost(province, item, progress, units)
    if price > gold:
        return (
            f"{v.has()} {gold} gold; buying {units} x {item} in {v.place(code)} "
            f"({CULTURE_WORDS[province['culture']]} culture) costs {price}"
        )
    return None


def production_after(province: JSONObject, item: str) -> tuple[str, int]:
    """The item and progress of a province once an order sets its production: the labour so far
    stays only when the item is the same (a new item starts from nothing)."""
    progress = province["progress"] if item == province["item"] else 0
    return item, progress


# ----------------------------------------------------------------------------------------------
# Checking: parsed orders against the state of the turn being collected.


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems with a seat's orders now; an empty list means the orders are accepted."""
    if seat not in state["seats"]:
        return [Problem(0, f"{seat} has no seat in this game")]
    if state["phase"] == "over":
        return [Problem(o.line, "the game is over; no orders are needed") for o in orders]
    if not state["seats"][seat]["alive"]:
        return [Problem(o.line, "your nation has lost every province; it gives no more orders") for o in orders]
    board = Board(state["scenario"])
    v = voice(state, seat, True, board)
    problems: list[Problem] = []
    produced: dict[str, tuple[str, int]] = {}
    for order in (o for o in orders if o.verb == "PRODUCE"):
        code = order.args[0]
        message = (
            f"a second PRODUCE for {code}: a province makes one thing at a time"
            if code in produced
            else produce_problem(state, seat, order, v)
        )
        if message:
            problems.append(Problem(order.line, message))
        else:
            produced[code] = production_after(state["provinces"][code], order.args[1])
    bought, buy_problems = _check_buys(state, seat, [o for o in orders if o.verb == "BUY"], produced, v)
    problems += buy_problems + _check_moves(state, seat, [o for o in orders if o.verb in MOVE_VERBS], bought, v)
    return sorted(problems, key=lambda p: p.line)


def _check_moves(state: JSONObject, seat: str, moves: list[Order], bought: dict[str, int], v: Voice) -> list[Problem]:
    """Soldiers rush-bought this turn stand before any army moves, and may move (resolve buys
    first), so they count among a province's armies here too."""
    problems = []
    leaving: dict[str, int] = {}
    for count, order in enumerate(moves, 1):
        if count > MAX_MOVES:  # rule D-CQ-1
            problems.append(Problem(order.line, too_many_moves(order.line)))
            continue
        source, amount = order.args[0], order.args[2]
        present = state["provinces"].get(source, {}).get("armies", 0) + bought.get(source, 0)
        free = present - leaving.get(source, 0)
        message = move_problem(state, seat, order, free, v, planning=True)
        if message:
            problems.append(Problem(order.line, message))
        else:
            leaving[source] = leaving.get(source, 0) + (free if amount == "ALL" else amount)
    return problems


def _check_buys(
    state: JSONObject, seat: str, buys: list[Order], produced: JSONObject, v: Voice
) -> tuple[dict[str, int], list[Problem]]:
    """The problems of the BUY orders, and the soldiers the accepted ones add, by province."""
    problems = []
    gold = state["seats"][seat]["gold"]
    bought: set[str] = set()
    soldiers: dict[str, int] = {}
    for order in buys:
        code, units = order.args
        province = state["provinces"].get(code)
        if code in bought:
            problems.append(Problem(order.line, f"a second BUY for {code}: buy more units in one line, BUY {code} <n>"))
            continue
        item, progress = produced.get(code) or ((province["item"], province["progress"]) if province else ("TAXES", 0))
        message = buy_problem(state, seat, code, units, item, progress, gold, v)
        if message:
            problems.append(Problem(order.line, message))
        else:
            bought.add(code)
            gold -= buy_cost(province, item, progress, units)
            if item == "SOLDIERS":
                soldiers[code] = units
    return soldiers, problems
