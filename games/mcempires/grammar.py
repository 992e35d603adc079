"""The turn-file grammar: order lines to orders, with no knowledge of the game (never raises)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeGuard

from gm.core.maps import shown
from gm.core.model import Order, OrderArgs, Problem
from gm.core.warnings import did_you_mean

BLOCK = re.compile(r"[0-9]{1,4},[0-9]{1,4}")
GROUP = re.compile(r"G[0-9]{1,6}")
CITY = re.compile(r"[A-Z]{2}[0-9]{1,4}")
SEAT = re.compile(r"[A-Z]{2}")
COUNT = re.compile(r"[0-9]{1,2}")
AMOUNT = re.compile(r"[0-9]{1,6}")  # E$ a PAY order gives: 1 to 999,999
SIDE_WORDS = ("N", "E", "S", "W")
BUILDINGS = ("BASE", "TRANSPORT", "NAVAL", "TREASURY")
BORDER_TERMS = ("MINE", "THEIRS", "BOTH")
MAX_WAYPOINTS = 20  # a path is searched for each: a turn file cannot make the turn run for ages
MAX_ORDERS = 200  # orders an empire may give in a round (its turn's work stays bounded)
ACCEPTABLE = ("PEACE", "BORDERS", "ALLY")

USAGE = {
    "CAPITAL": "CAPITAL x,y",
    "CITY": "CITY x,y",
    "LAND": "LAND x,y [x2,y2]",
    "BASE": "BASE <city>",
    "TRANSPORT": "TRANSPORT <city>",
    "NAVAL": "NAVAL <city>",
    "TREASURY": "TREASURY <city>",
    "RAIL": "RAIL <city> <city> [x,y ...]",
    "MOVE": "MOVE <group> [n] <x,y or city> [x,y ...]",
    "TRAIN": "TRAIN <group> [n] <city>",
    "ATTACK": "ATTACK <group> [n] <enemy group or x,y>",
    "DEFEND": "DEFEND <group or ALL> <n or ALL> [RETREAT <N, E, S, W or x,y>]",
    "DESTROY": "DESTROY <city or ALL>",
    "DECLARE": "DECLARE <empire>",
    "PEACE": "PEACE <empire> [CEDE <city or LAND x,y [x2,y2]> ...]",
    "BORDERS": "BORDERS <empire> MINE|THEIRS|BOTH",
    "ALLY": "ALLY <empire>",
    "LEAVE": "LEAVE",
    "ACCEPT": "ACCEPT PEACE|BORDERS|ALLY <empire>",
    "PAY": "PAY <empire> <E$>",
}
VERBS = tuple(USAGE)
# DEFEND as the order form gives it without the option `retreat` (rule D-MC-7).
DEFEND_NO_RETREAT = "DEFEND <group or ALL> <n or ALL> (the others stand aside)"


def make_order(verb: str, *args: object) -> Order:
    """An order as the robot or the order form writes it (line 0, text rebuilt from the args)."""
    return Order(verb, tuple(args), 0, order_line(verb, args))


def order_line(verb: str, args: Sequence[object]) -> str:
    words = [verb]
    for n, arg in enumerate(args):
        if verb in ("MOVE", "TRAIN", "ATTACK") and n == 1 and arg == "ALL":
            continue
        if verb == "DEFEND" and n == 2 and arg:
            words.append("RETREAT")
        if verb == "PEACE" and n == 1:
            words.append("CEDE")
        if arg != "":
            words.append(str(arg))
    return " ".join(words)


def order_text(order: object) -> str:
    if not isinstance(order, Order):
        return "an unreadable order"
    return order.text or order_line(order.verb, order.args)


def words_of(text: str) -> list[str]:
    """A line's words: "12, 40" and "(12,40)" become one word 12,40; everything upper case."""
    text = re.sub(r"([0-9]+)\s*,\s*([0-9]+)", r"\1,\2", str(text).replace("(", " ").replace(")", " "))
    return text.upper().split()


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    """Parse the body lines of a turn file. Never raises: a bad line becomes a Problem."""
    orders, problems = [], []
    for number, raw in lines:
        words = words_of(raw)
        if not words:
            continue
        parsed = parse_words(words)
        if isinstance(parsed, str):
            problems.append(Problem(number, parsed))
        else:
            orders.append(Order(parsed[0], parsed[1], number, str(raw).strip()))
    return orders, problems


def parse_words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb, rest = words[0], words[1:]
    if verb not in VERBS:
        return (
            f"{shown(verb)} is not an order{did_you_mean(verb, VERBS)}; the orders are "
            + ", ".join(VERBS[:-1])
            + f" and {VERBS[-1]}"
        )
    reader = READERS[verb]
    got = reader(rest)
    if isinstance(got, str):
        return f"{got}: write {USAGE[verb]}"
    return verb, got


def _expect(word: str, pattern: re.Pattern[str], what: str) -> str | None:
    return None if pattern.fullmatch(word) else f"{shown(word)} is not {what}"


def _one_block(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 1:
        return "give one block"
    return _expect(rest[0], BLOCK, "a block x,y") or (rest[0],)


def _land(rest: list[str]) -> OrderArgs | str:
    if len(rest) not in (1, 2):
        return "give a block, or two corners of a rectangle"
    for word in rest:
        problem = _expect(word, BLOCK, "a block x,y")
        if problem:
            return problem
    return tuple(rest)


def _place(word: str) -> str | None:
    """A city by its name (RE2) or by its centre (x,y)."""
    if CITY.fullmatch(word) or BLOCK.fullmatch(word):
        return None
    return f"{shown(word)} is not a city (a name like RE2, or its centre x,y)"


def _building(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 1:
        return "name one city"
    return _place(rest[0]) or (rest[0],)


def _rail(rest: list[str]) -> OrderArgs | str:
    if len(rest) < 2:
        return "name two cities"
    problem = _place(rest[0]) or _place(rest[1])
    if problem:
        return problem
    if len(rest) - 2 > MAX_WAYPOINTS:
        return f"at most {MAX_WAYPOINTS} waypoints"
    for word in rest[2:]:
        problem = _expect(word, BLOCK, "a waypoint x,y")
        if problem:
            return problem
    return tuple(rest)


def _count(rest: list[str]) -> tuple[object, list[str]] | str:
    """An optional number of troops after the group: (count or "ALL", the words after it)."""
    if rest and rest[0] == "ALL":
        return "ALL", rest[1:]
    if rest and COUNT.fullmatch(rest[0]):
        if not 1 <= int(rest[0]) <= 6:
            return f"{rest[0]} troops: a group has 1 to 6"
        return int(rest[0]), rest[1:]
    return "ALL", rest


def _troops(rest: list[str], what: str) -> OrderArgs | str:
    if not rest:
        return "name a group"
    problem = _expect(rest[0], GROUP, "a group (like G12)")
    if problem:
        return problem
    counted = _count(rest[1:])
    if isinstance(counted, str):
        return counted
    count, tail = counted
    if not tail:
        return f"say {what}"
    return rest[0], count, tail


def _move(rest: list[str]) -> OrderArgs | str:
    got = _troops(rest, "where to")
    if isinstance(got, str):
        return got
    gid, count, tail = got
    if len(tail) > MAX_WAYPOINTS + 1:
        return f"at most {MAX_WAYPOINTS} waypoints before the destination"
    for word in tail:
        if not (BLOCK.fullmatch(word) or CITY.fullmatch(word)):
            return f"{shown(word)} is not a block x,y or a city"
    return (gid, count, *tail)


def _train(rest: list[str]) -> OrderArgs | str:
    got = _troops(rest, "to which city")
    if isinstance(got, str):
        return got
    gid, count, tail = got
    if len(tail) != 1:
        return "name one city to ride to"
    return _place(tail[0]) or (gid, count, tail[0])


def _attack(rest: list[str]) -> OrderArgs | str:
    got = _troops(rest, "which group to attack")
    if isinstance(got, str):
        return got
    gid, count, tail = got
    if len(tail) != 1 or not (GROUP.fullmatch(tail[0]) or BLOCK.fullmatch(tail[0])):
        return "name one enemy group (like G7) or the block x,y it stands on"
    return gid, count, tail[0]


def _defend(rest: list[str]) -> OrderArgs | str:
    if len(rest) < 2:
        return "name a group (or ALL) and how many troops fight"
    key, word, tail = rest[0], rest[1], rest[2:]
    fight: str | int = word  # ALL, or the number read from the word
    if key != "ALL":
        problem = _expect(key, GROUP, "a group (like G12) or ALL")
        if problem:
            return problem
    if fight != "ALL":
        if not COUNT.fullmatch(word) or int(word) > 6:
            return f"{shown(word)} is not a number of troops from 0 to 6, or ALL"
        fight = int(word)
    if tail and tail[0] == "RETREAT":
        tail = tail[1:]
    if len(tail) > 1 or (tail and tail[0] not in SIDE_WORDS and not BLOCK.fullmatch(tail[0])):
        return "say where the others retreat: N, E, S, W or a block x,y"
    retreat = tail[0] if tail else ""
    if fight == 0 and not retreat:
        return "with no troop fighting all retreat: give 1 to 6 or ALL, or add RETREAT and N, E, S, W or a block"
    return key, fight, retreat


def _destroy(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 1:
        return "name one city or ALL"
    return (rest[0],) if rest[0] == "ALL" else (_place(rest[0]) or (rest[0],))


def _seat(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 1:
        return "name one empire by its code"
    return _expect(rest[0], SEAT, "an empire's code (like RE)") or (rest[0],)


def _peace(rest: list[str]) -> OrderArgs | str:
    if not rest:
        return "name the empire"
    problem = _expect(rest[0], SEAT, "an empire's code (like RE)")
    if problem:
        return problem
    tail = rest[1:]
    if tail and tail[0] == "CEDE":
        tail = tail[1:]
    corners = 0  # blocks still to read after LAND: the block, or the rectangle's two corners
    for word in tail:
        if word == "LAND":
            if corners == 2:
                return "give a block, or two corners of a rectangle, after LAND"
            corners = 2
        elif corners and BLOCK.fullmatch(word):
            corners -= 1
        elif corners == 2:
            return _place(word) or "give a block, or two corners of a rectangle, after LAND"
        else:
            corners, problem = 0, _place(word)
            if problem:
                return problem
    if corners == 2:
        return "give a block, or two corners of a rectangle, after LAND"
    return (rest[0], *tail)


def _borders(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 2 or rest[1] not in BORDER_TERMS:
        return "name the empire and MINE (it may cross yours), THEIRS (you may cross its) or BOTH"
    return _expect(rest[0], SEAT, "an empire's code (like RE)") or (rest[0], rest[1])


def _leave(rest: list[str]) -> OrderArgs | str:
    return "LEAVE takes nothing after it" if rest else ()


def _accept(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 2 or rest[0] not in ACCEPTABLE:
        return "say what you accept (PEACE, BORDERS or ALLY) and from whom"
    return _expect(rest[1], SEAT, "an empire's code (like RE)") or (rest[0], rest[1])


def _pay(rest: list[str]) -> OrderArgs | str:
    if len(rest) != 2:
        return "name the empire and the E$ to pay it"
    problem = _expect(rest[0], SEAT, "an empire's code (like RE)")
    if problem:
        return problem
    if not AMOUNT.fullmatch(rest[1]) or int(rest[1]) < 1:
        return f"{shown(rest[1])} is not an amount of E$ (1 to 999999)"
    return rest[0], int(rest[1])


READERS = {
    "CAPITAL": _one_block,
    "CITY": _one_block,
    "LAND": _land,
    "BASE": _building,
    "TRANSPORT": _building,
    "NAVAL": _building,
    "TREASURY": _building,
    "RAIL": _rail,
    "MOVE": _move,
    "TRAIN": _train,
    "ATTACK": _attack,
    "DEFEND": _defend,
    "DESTROY": _destroy,
    "DECLARE": _seat,
    "PEACE": _peace,
    "BORDERS": _borders,
    "ALLY": _seat,
    "LEAVE": _leave,
    "ACCEPT": _accept,
    "PAY": _pay,
}


def well_formed(order: object) -> TypeGuard[Order]:
    """Whether an order has exactly the shape the parser gives (guards resolve against junk
    from a damaged database or a robot's bug): its words parse back to the same order."""
    if not isinstance(order, Order) or not isinstance(order.args, tuple):
        return False
    if not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in order.args):
        return False
    if order.verb not in READERS:
        return False
    return parse_words(words_of(order_line(order.verb, order.args))) == (order.verb, order.args)
