"""Railroads: building a line between two cities (after round 30, 40 E$ for 5 pieces) and riding
it, one hop between two connected cities per move."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from gm.core.model import JSONObject

from . import economy
from .moves import arrive
from .turn import MAX_TROOPS, Turn
from .world import SIDES, Board


def pieces(turn: Turn) -> dict[int, int]:
    """Block -> the number of the line whose piece lies there."""
    return {turn.board.index(x, y): n for n, line in enumerate(turn.state["rails"]) for x, y in line["blocks"]}


def lines_between(turn: Turn, a: str, b: str) -> list[JSONObject]:
    return [line for line in turn.state["rails"] if sorted(line["ends"]) == sorted([a, b])]


def usable(turn: Turn, seat: str, a: str, b: str) -> bool:
    """A line can be ridden by the empire that owns both its cities: the builder, or an empire
    that captured both ("you are allowed to use the Railroads between both captured Cities")."""
    return bool(lines_between(turn, a, b)) and all(turn.cities[c]["owner"] == seat for c in (a, b))


def build(turn: Turn, seat: str, a: str, b: str, waypoints: list[int]) -> str | None:
    """RAIL: lay the shortest legal line from city a to city b (through the waypoints)."""
    if turn.round < economy.RAIL_FROM_ROUND:
        return (
            f"railroads can be bought from round {economy.RAIL_FROM_ROUND} on "
            f'("After 30 rounds of the game"); this is round {turn.round}'
        )
    for cid in (a, b):
        if cid not in turn.cities or turn.cities[cid]["owner"] != seat:
            return f"{cid} is not one of {turn.your(seat)} cities"
    if a == b:
        return "a line joins two different cities"
    if lines_between(turn, a, b):
        return f"{a} and {b} are joined by a line already"
    # Cities are 6 blocks apart, so a line is at least 5 pieces: too poor for that, say so
    # before any search.
    if turn.seats[seat]["money"] < economy.RAIL_PRICE and turn.seats[seat]["rail_stock"] < economy.RAIL_LOT:
        return (
            f"{economy.RAIL_LOT} pieces cost {economy.RAIL_PRICE} E$ and "
            f"{turn.has(seat)} {turn.seats[seat]['money']} E$"
        )
    path = _lay(turn, seat, a, b, waypoints)
    if isinstance(path, str):
        return path
    me = turn.seats[seat]
    need = len(path) - me["rail_stock"]
    bought = economy.lots_for(need) if need > 0 else 0
    problem = economy.pay(turn, seat, economy.rail_price(bought), f"{len(path)} pieces ({bought} to buy)")
    if problem:
        return problem
    me["rail_stock"] += bought - len(path)
    turn.state["rails"].append({"owner": seat, "ends": [a, b], "blocks": [list(turn.board.xy(i)) for i in path]})
    turn.private(
        seat,
        "rail",
        f"{turn.nation(seat)} lays a railroad of {len(path)} pieces from "
        f"{a} to {b} (bought {bought} pieces for {economy.rail_price(bought)} E$; "
        f"{me['rail_stock']} left in stock).",
        ends=[a, b],
        pieces=len(path),
        bought=bought,
        cost=economy.rail_price(bought),
    )
    return None


def _lay(turn: Turn, seat: str, a: str, b: str, waypoints: list[int]) -> list[int] | str:
    taken = pieces(turn)
    own = {i for i, n in taken.items() if turn.state["rails"][n]["owner"] == seat}
    board = turn.board
    ends = {a: turn.city_block(a), b: turn.city_block(b)}
    centres = set(turn.city_at)

    def allowed(i: int, city: str | None) -> bool:
        owner = turn.owner(i)
        if i in taken or i in centres or owner not in (None, seat):
            return False  # "Railroads cannot be built over Enemy territory."
        near = [n for n in board.neighbours[i] if n in centres]
        if any(n != (ends.get(city) if city is not None else None) for n in near):
            return False  # only a line's end may touch a city centre, and only its own city
        return not any(n in own for n in board.neighbours[i])  # own lines may not touch

    starts = [i for i in (board.side(ends[a], d) for d in SIDES) if i is not None and allowed(i, a)]
    goals = {i for i in (board.side(ends[b], d) for d in SIDES) if i is not None and allowed(i, b)}
    if not starts:
        return f"{a} has no free side for another line (at most 4, one on each side)"
    if not goals:
        return f"{b} has no free side for another line (at most 4, one on each side)"
    path: list[int] = []
    current = starts
    for target in [*waypoints, None]:

        def may_lay(i: int, target: int | None = target) -> bool:
            return allowed(i, None) or i in goals or i == target

        leg = _search(board, current, goals if target is None else {target}, may_lay, path)
        if leg is None:
            where = f"{board.name(target)}" if target is not None else b
            return f"no line can be laid to {where} over free land, water or own territory"
        path += leg if not path else leg[1:]
        current = [path[-1]]
    return path


def _search(
    board: Board, starts: list[int], goals: set[int], allowed: Callable[[int], bool], used: list[int]
) -> list[int] | None:
    came: dict[int, int | None] = {s: None for s in starts}
    queue = deque(starts)
    blocked = set(used[:-1]) if used else set()
    while queue:
        i = queue.popleft()
        if i in goals:
            way = []
            step: int | None = i
            while step is not None:
                way.append(step)
                step = came[step]
            return way[::-1]
        for n in board.neighbours[i]:
            if n not in came and n not in blocked and allowed(n):
                came[n] = i
                queue.append(n)
    return None


def ride(turn: Turn, seat: str, gid: str, count: int | str, city: str) -> str | None:
    """TRAIN: troops in a city go to a directly connected city at once; this is their move."""
    group = turn.groups.get(gid)
    if group is None or group["owner"] != seat:
        return f"{gid} is not one of {turn.your(seat)} groups"
    if gid in turn.moved:
        return f"{gid} has moved already this round"
    here = turn.city_at.get(turn.place(gid))
    if here is None or turn.cities[here]["owner"] != seat:
        return f"{gid} is not in one of {turn.your(seat)} cities"
    if city not in turn.cities:
        return turn.no_city(city)
    if not usable(turn, seat, here, city):
        return f"no railroad that {turn.who(seat)} may use joins {here} and {city}"
    troops: int = group["troops"] if isinstance(count, str) else count  # the one word a count may be is ALL
    if troops > group["troops"]:
        return f"{gid} has {group['troops']} troops, not {troops}"
    goal = turn.city_block(city)
    other = turn.foreign_at(seat, goal)
    # "If there are Railroads previously built from an enemy Empire's City to another City of
    # that Empire that you are currently capturing, that Railroad can only be used by the enemy
    # Empire": the owner rides into its own city beside the empire capturing it, as its
    # spawned defenders stand there; no other empire's group shares a block.
    if other and turn.groups[other]["owner"] != turn.cities[city]["occupier"]:
        return f"{city} holds group {other} of {turn.nation(turn.groups[other]['owner'])}"
    mine = turn.group_of(seat, goal)
    if mine and turn.groups[mine]["troops"] + troops > MAX_TROOPS:
        return f"{city} holds {mine} with {turn.groups[mine]['troops']} troops; no room for {troops}"
    arrive(turn, seat, gid, troops, [turn.place(gid), goal], by_rail=True)
    return None
