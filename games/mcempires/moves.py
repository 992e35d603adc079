"""Moving groups: the bonuses a group has this round, a MOVE through waypoints to a destination
(the shortest legal path, or as far as the round allows), and what happens where it stops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from . import diplomacy
from .paths import Walker, explore, route, seek
from .turn import MAX_TROOPS, Turn


def round_bonus(turn: Turn, seat: str) -> None:
    """Each group's bonuses for this round, fixed at the start of its empire's turn: troops
    that start their round in a city with Transport (or a Naval Base, or at sea) have them."""
    for gid, group in turn.groups.items():
        if group["owner"] != seat:
            continue
        i = turn.place(gid)
        cid = turn.city_at.get(i)
        city = turn.cities[cid] if cid and turn.cities[cid]["owner"] == seat and turn.in_full(cid) else None
        transport = bool(city and city["transport"])
        naval = turn.board.water[i] or bool(city and city["naval"])
        turn.bonus[gid] = (transport, naval)


def entry_problem(turn: Turn, seat: str, i: int) -> str | None:
    """Why a group of `seat` may not enter block i at all, or None."""
    other = turn.foreign_at(seat, i)
    if other:
        return f"{turn.name(i)} holds group {other} of {turn.nation(turn.groups[other]['owner'])}"
    owner = turn.owner(i)
    if owner and owner != seat and not diplomacy.may_pass(turn, seat, owner):
        return (
            f"{turn.name(i)} is territory of {turn.nation(owner)}, and without war, an "
            "alliance or an open border agreement troops may not enter it"
        )
    return None


def stop_problem(turn: Turn, gid: str, troops: int, i: int) -> str | None:
    """Why the moving troops may not end their move on block i."""
    seat = turn.groups[gid]["owner"]
    problem = entry_problem(turn, seat, i)
    if problem:
        return problem
    mine = turn.group_of(seat, i)
    if mine and mine != gid and turn.groups[mine]["troops"] + troops > MAX_TROOPS:
        return (
            f"{turn.name(i)} holds {mine} with {turn.groups[mine]['troops']} troops; "
            f"{troops} more would make a group of more than {MAX_TROOPS}"
        )
    cid = turn.city_at.get(i)
    if cid and turn.cities[cid]["owner"] != seat:
        return diplomacy.occupy_problem(turn, seat, turn.cities[cid]["owner"])
    return None


@dataclass(frozen=True)
class Plan:
    """Where a move ends this round: path (blocks from the start, both ends included) and,
    when it stops short of what was asked, why."""

    path: list[int]
    short: str = ""


def plan(turn: Turn, gid: str, troops: int, targets: list[int]) -> Plan | str:
    """The path for a MOVE through `targets` (waypoints, the last one the destination), or why
    the group cannot set off at all."""
    walker = Walker(turn, gid)
    node, steps = walker.start(turn.place(gid)), 0
    path = [turn.place(gid)]
    for number, target in enumerate(targets):
        last = number == len(targets) - 1
        found = seek(walker, node, steps, target) if target != path[-1] else ([target], node)
        if found is None:
            result = _towards(turn, gid, troops, walker, node, steps, path, target)
            if isinstance(result, Plan) and len(result.path) > 1:
                # It ends where it stopped: at a waypoint, perhaps (a city centre or a landing
                # ends a move), which must take the group as a destination would.
                problem = stop_problem(turn, gid, troops, result.path[-1])
                if problem:
                    return f"{problem} (the move would end there)"
            return result
        if last:
            problem = stop_problem(turn, gid, troops, target)
            if problem:
                return problem
        steps += len(found[0]) - 1
        path += found[0][1:]
        node = found[1]
    return Plan(path)


def _short(path: list[int], why: str) -> Plan | str:
    """A move that stops early keeps what it walked, or fails when it walked nothing."""
    return Plan(path, why) if len(path) > 1 else why


def _towards(
    turn: Turn, gid: str, troops: int, walker: Walker, node: int, steps: int, path: list[int], target: int
) -> Plan | str:
    """The target is out of reach this round: go as far along a route to it as the round allows."""
    if turn.board.water[target] and not walker.naval:
        return _short(path, f"{turn.name(target)} is water and the group has no naval bonus this round")
    owner = turn.owner(target)
    seat = turn.groups[gid]["owner"]
    if owner and owner != seat and not diplomacy.may_pass(turn, seat, owner):
        return _short(path, cast(str, entry_problem(turn, seat, target)))  # may_pass said no, so it says why
    way = route(walker, path[-1], target)
    if way is None:
        return _short(path, f"there is no way for the group to {turn.name(target)}")
    reach = explore(walker, node, steps)
    why = entry_problem(turn, turn.groups[gid]["owner"], target) or f"{turn.name(target)} is out of reach this round"
    for i in reversed(way):
        if (
            i in reach.first
            and i != path[-1]
            and not stop_problem(turn, gid, troops, i)
            and not _at_peace_city(turn, seat, i)
        ):
            far = turn.board.distance(i, target)
            return Plan(path + reach.path(i)[1:], f"{why}; the group stops {far} block{'s' if far != 1 else ''} short")
    return _short(path, why)


def _at_peace_city(turn: Turn, seat: str, i: int) -> bool:
    """Whether block i is the centre of a city of an empire `seat` is not at war with. A move
    that stops short of a far block does not stop there: marching into the city would start a
    war, and a war starts by the player's choice (attacking, or a move sent to the city), not by
    where gm halts a march that the round's limits cut short."""
    cid = turn.city_at.get(i)
    if cid is None:
        return False
    owner = turn.cities[cid]["owner"]
    return owner != seat and not diplomacy.at_war(turn, seat, owner)


# ----------------------------------------------------------------------------------------------
# Carrying a move out.


def move(turn: Turn, seat: str, gid: str, count: int | str, targets: list[int]) -> str | None:
    """MOVE: the group (or `count` of its troops) goes through the targets as far as it may."""
    group = turn.groups.get(gid)
    if group is None or group["owner"] != seat:
        return f"{gid} is not one of {turn.your(seat)} groups"
    if gid in turn.moved:
        return f"{gid} has moved already this round"
    troops: int = group["troops"] if isinstance(count, str) else count  # the one word a count may be is ALL
    if troops > group["troops"]:
        return f"{gid} has {group['troops']} troops, not {troops}"
    if targets == [turn.place(gid)]:
        return f"{gid} is at {turn.name(targets[0])} already"
    result = plan(turn, gid, troops, targets)
    if isinstance(result, str):
        return result
    arrive(turn, seat, gid, troops, result.path, short=result.short)
    return None


def arrive(
    turn: Turn, seat: str, gid: str, troops: int, path: list[int], by_rail: bool = False, short: str = ""
) -> None:
    """Put the moving troops at the end of the path: those left behind become a new group,
    an own group there takes them in, another empire's city is occupied."""
    group = turn.groups[gid]
    start, end = path[0], path[-1]
    left = ""
    if troops < group["troops"]:
        stay = turn.new_group(seat, start, group["troops"] - troops)
        turn.bonus[stay] = turn.bonus.get(gid, (False, False))
        if gid in turn.attacked:  # the troops left behind attacked with the group this round
            turn.attacked.add(stay)
        group["troops"] = troops
        left = f" ({stay} stays behind at {turn.name(start)})"
    mine = turn.group_of(seat, end)
    turn.relocate(gid, end)
    joined = ""
    if mine and mine != gid:
        turn.groups[mine]["troops"] += troops
        turn.remove(gid)
        turn.moved.add(mine)
        if gid in turn.attacked:  # troops that attacked this round do not attack again in another group
            turn.attacked.add(mine)
        joined = f" and joins {mine}, now {turn.groups[mine]['troops']} troops"
    turn.moved.add(gid)
    how = "by rail" if by_rail else f"{len(path) - 1} block{'s' if len(path) != 2 else ''}"
    text = (
        f"{turn.nation(seat)}'s {gid} ({troops} troop{'s' if troops > 1 else ''}) moves "
        f"{how} from {turn.name(start)} to {turn.name(end)}{joined}{left}."
    )
    if short:
        text += f" It stops there: {short}."
    turn.private(seat, "move", text, group=gid, troops=troops, path=[turn.name(i) for i in path], short=short)
    cid = turn.city_at.get(end)
    if cid and turn.cities[cid]["owner"] != seat:
        occupy(turn, seat, mine or gid, cid)


def occupy(turn: Turn, seat: str, gid: str, cid: str) -> None:
    city = turn.cities[cid]
    owner = city["owner"]
    if not diplomacy.at_war(turn, seat, owner):
        diplomacy.start_war(turn, seat, owner, "marches into a city of")
    if city["occupier"] == seat:
        return
    city.update(occupier=seat, held=0)
    turn.add(
        "occupation",
        f"{turn.nation(seat)}'s {gid} occupies {cid} of {turn.nation(owner)} "
        f"at {turn.name(turn.city_block(cid))}. It captures the city if it holds the centre, "
        "with no defender left in it, at the end of this turn and the next.",
        seat=seat,
        owner=owner,
        city=cid,
        group=gid,
    )
