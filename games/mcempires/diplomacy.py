"""Wars, and the optional agreements (rule D-MC-7): declarations of war, peace treaties, open
border agreements and alliances, proposed in one round and accepted in the next."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, cast

from gm.core.model import JSONObject

from . import economy
from .turn import Turn

AGREEMENT_ROUNDS = 10  # "Open Border Agreements cannot be cancelled and last 10 rounds."
# "A maximum of 3 people can form one alliance.", under the heading "Alliances in War Bounty*": the
# general "Alliances*" rules give no size, so other modes have none.
ALLIANCE_SIZE = 3
# The land one peace may cede, in blocks (cities are ceded by name, each with its one-block
# radius, outside it): a 10 x 10 province, or a strip of a long border; more than a quarter of the
# ~380 blocks of land the frontier world gives an empire. The terms are kept block by block in the game's state
# and in both empires' reports, so the order of one empire must not make them grow without end.
PEACE_LAND_AT_MOST = 100
KINDS = {"PEACE": "peace", "BORDERS": "borders", "ALLY": "ally"}
OPTION_OF = {
    "DECLARE": "declarations",
    "PEACE": "peace",
    "BORDERS": "borders",
    "ALLY": "alliances",
    "LEAVE": "alliances",
}


def pair(a: str, b: str) -> list[str]:
    return sorted([a, b])


def war_of(turn: Turn, a: str, b: str) -> JSONObject | None:
    sides = pair(a, b)
    return next((w for w in turn.state["wars"] if w["sides"] == sides), None)


def at_war(turn: Turn, a: str, b: str) -> bool:
    return war_of(turn, a, b) is not None


def alliance_of(turn: Turn, seat: str) -> JSONObject | None:
    return next((a for a in turn.state["alliances"] if seat in a["members"]), None)


def allied(turn: Turn, a: str, b: str) -> bool:
    alliance = alliance_of(turn, a)
    return a != b and alliance is not None and b in alliance["members"]


def may_pass(turn: Turn, seat: str, owner: str) -> bool:
    """Whether troops of `seat` may enter territory of `owner`. Without the open-border rule
    the world is open; with it, only at war, allied, or by an agreement."""
    if not turn.options["borders"] or at_war(turn, seat, owner) or allied(turn, seat, owner):
        return True
    return any(b["host"] == owner and b["guest"] == seat and b["until"] >= turn.round for b in turn.state["borders"])


def permissions(turn: Turn) -> set[tuple[str, str]]:
    """(guest, host): the living empires whose troops may be in another's territory now, under
    the open-border rule (none without it: the world is open)."""
    if not turn.options["borders"]:
        return set()
    alive = [s for s in turn.state["seating"] if turn.seats[s]["alive"]]
    return {(guest, host) for guest in alive for host in alive if guest != host and may_pass(turn, guest, host)}


def shut_out(turn: Turn, before: set[tuple[str, str]]) -> None:
    """gm's choice (README, "Open borders that end"): when an empire's permission to be in
    another's territory ends (an agreement or an alliance runs out, an alliance is left or
    broken), its troops still inside are moved out at that moment, as at a declaration of war
    ("Troops inside enemy territory when War is declared are automatically moved to the nearest
    neutral or owned land tile outside enemy borders"). `before`: permissions() before the change."""
    for guest, host in sorted(before - permissions(turn)):
        if turn.seats[guest]["alive"] and turn.seats[host]["alive"]:
            _withdraw(turn, guest, host)


def passes_after_this_round(turn: Turn, seat: str, owner: str) -> bool:
    """Whether `seat` may still be in `owner`'s territory once this round's agreements have run
    out (a war, an alliance or an agreement lasting past it)."""
    if not turn.options["borders"] or at_war(turn, seat, owner):
        return True
    alliance = alliance_of(turn, seat)
    if allied(turn, seat, owner) and alliance is not None and alliance["until"] > turn.round:
        return True
    return any(b["host"] == owner and b["guest"] == seat and b["until"] > turn.round for b in turn.state["borders"])


def hostile_problem(turn: Turn, seat: str, other: str) -> str | None:
    """Why `seat` may not attack troops of `other` (None: it may, starting a war if there is
    none: "Attacking a Troop of an Empire you are not at war with will initiate a war with that
    Empire, regardless of alliances"; an ally's troop too, which leaves the alliance early,
    rule D-MC-14). With declarations of war, only a declared war lets troops fight."""
    if other == seat:
        return "it is your own"
    if not turn.seats[other]["alive"]:
        return f"{turn.nation(other)} is out of the game"
    if turn.options["declarations"] and not at_war(turn, seat, other):
        if allied(turn, seat, other):
            return f"{turn.nation(other)} is {turn.your(seat)} ally; leave the alliance (LEAVE) and declare war first"
        return (
            f"{turn.who(seat)} {'are' if turn.you else 'is'} not at war with "
            f"{turn.nation(other)}; declare war first (DECLARE {other})"
        )
    return None


def occupy_problem(turn: Turn, seat: str, owner: str) -> str | None:
    """Why `seat` may not march into a city of `owner`: as for an attack, and never into an
    ally's city (the book lets an attack on a troop break an alliance, not a march)."""
    problem = hostile_problem(turn, seat, owner)
    if problem is None and allied(turn, seat, owner):
        problem = f"{turn.nation(owner)} is {turn.your(seat)} ally; leave the alliance first (LEAVE)"
    return f"the city belongs to {turn.nation(owner)}: {problem}" if problem else None


# ----------------------------------------------------------------------------------------------
# War.


def start_war(turn: Turn, seat: str, enemy: str, how: str) -> None:
    """A new war between seat and enemy; the seat's allies join it (rule of the Alliances)."""
    if at_war(turn, seat, enemy):
        return
    sides = [seat]
    alliance = alliance_of(turn, seat)
    if alliance:
        sides += [
            m
            for m in alliance["members"]
            if m not in (seat, enemy) and not at_war(turn, m, enemy) and not allied(turn, m, enemy)
        ]
    for side in sides:
        turn.state["wars"].append({"sides": pair(side, enemy), "since": turn.round, "taken": {}})
        turn.state["borders"] = [b for b in turn.state["borders"] if {b["host"], b["guest"]} != {side, enemy}]
    joined = f"; its allies {_names(turn, sides[1:])} join the war" if sides[1:] else ""
    turn.add(
        "war", f"War: {turn.nation(seat)} {how} {turn.nation(enemy)}{joined}.", seat=seat, enemy=enemy, sides=sides
    )
    if turn.options["declarations"]:
        for side in sides:
            _withdraw(turn, side, enemy)
            _withdraw(turn, enemy, side)


def _withdraw(turn: Turn, seat: str, host: str) -> None:
    """ "Troops inside enemy territory when War is declared are automatically moved to the
    nearest neutral or owned land tile outside enemy borders." (also after a peace treaty)"""
    for gid in sorted((g for g, grp in turn.groups.items() if grp["owner"] == seat), key=lambda g: int(g[1:])):
        i = turn.place(gid)
        if turn.owner(i) != host and not _foreign_city(turn, seat, i, host):
            continue
        spot = _move_out(turn, seat, gid)
        if spot is None:
            continue
        turn.add(
            "withdraw",
            f"{turn.nation(seat)}'s group {gid} is moved out of {turn.nation(host)}'s territory to {turn.name(spot)}.",
            seat=seat,
            group=gid,
            block=turn.name(spot),
        )


def _move_out(turn: Turn, seat: str, gid: str) -> int | None:
    """Move the group to the nearest neutral or own land block with room for it (joining its
    empire's group there); the block, or None when there is none and it stays."""
    spot = _nearest_refuge(turn, seat, turn.place(gid), turn.groups[gid]["troops"])
    if spot is None:
        return None
    turn.relocate(gid, spot)
    mine = [g for g in turn.groups_at(spot) if g != gid and turn.groups[g]["owner"] == seat]
    if mine:
        turn.groups[mine[0]]["troops"] += turn.groups[gid]["troops"]
        turn.remove(gid)
    return spot


def _foreign_city(turn: Turn, seat: str, i: int, host: str) -> bool:
    cid = turn.city_at.get(i)
    return cid is not None and turn.cities[cid]["owner"] == host


def _nearest_refuge(turn: Turn, seat: str, start: int, troops: int) -> int | None:
    seen, queue = {start}, deque([start])
    while queue:
        i = queue.popleft()
        if i != start and _refuge(turn, seat, i, troops):
            return i
        for n in turn.board.neighbours[i]:
            if n not in seen and not turn.board.water[n]:
                seen.add(n)
                queue.append(n)
    return None


def _refuge(turn: Turn, seat: str, i: int, troops: int) -> bool:
    """A neutral or own land block with room for the group."""
    return turn.owner(i) in (None, seat) and turn.may_stand(seat, i, troops)


def declare(turn: Turn, seat: str, enemy: str) -> str | None:
    if enemy not in turn.seats or enemy == seat:
        return f"{enemy} is not another empire of this game"
    if at_war(turn, seat, enemy):
        return f"{turn.who(seat)} {'are' if turn.you else 'is'} at war with {turn.nation(enemy)} already"
    if not turn.seats[enemy]["alive"]:
        return f"{turn.nation(enemy)} is out of the game"
    if allied(turn, seat, enemy):
        return f"{turn.nation(enemy)} is an ally: empires in an alliance cannot declare war on each other"
    start_war(turn, seat, enemy, "declares war on")
    return None


# ----------------------------------------------------------------------------------------------
# Proposals and acceptances.


def propose(turn: Turn, seat: str, kind: str, other: str, terms: object) -> str | None:
    problem = _proposal_problem(turn, seat, kind, other, terms)
    if problem:
        return problem
    turn.state["proposals"] = [
        p
        for p in turn.state["proposals"]
        if not (p["from"] == seat and p["to"] == other and p["kind"] == kind and p["round"] == turn.round)
    ]
    turn.state["proposals"].append({"from": seat, "to": other, "kind": kind, "terms": terms, "round": turn.round})
    named = kind == "borders" and terms != "BOTH"  # one way: the description names the other already
    turn.add(
        "proposal",
        f"{turn.nation(seat)} proposes {describe(turn, kind, seat, other, terms)}"
        f"{'' if named else ' to ' + turn.nation(other)}; {turn.nation(other)} may accept in round {turn.round + 1}.",
        (seat, other),
        seat=seat,
        to=other,
        kind=kind,
        terms=terms,
    )
    return None


def describe(turn: Turn, kind: str, seat: str, other: str, terms: object) -> str:
    if kind == "peace":
        cities, blocks = _terms(cast(list[str], terms))
        land = f"{len(blocks)} block{'s' if len(blocks) > 1 else ''} of land" if blocks else ""
        ceded = " and ".join(part for part in (", ".join(cities), land) if part)
        return f"a peace treaty, {ceded} ceded" if ceded else "a peace treaty, every city taken in the war returned"
    if kind == "borders":
        return {
            "MINE": f"to open its borders to {turn.nation(other)}",
            "THEIRS": f"that {turn.nation(other)} open its borders to it",
            "BOTH": "open borders both ways",
        }[cast(str, terms)] + f" for {AGREEMENT_ROUNDS} rounds"
    return f"an alliance for {AGREEMENT_ROUNDS} rounds"


def _proposal_problem(turn: Turn, seat: str, kind: str, other: str, terms: object) -> str | None:
    if other not in turn.seats or other == seat:
        return f"{other} is not another empire of this game"
    if not turn.seats[other]["alive"]:
        return f"{turn.nation(other)} is out of the game"
    if kind == "peace":
        if not at_war(turn, seat, other):
            return f"there is no war with {turn.nation(other)}"
        cities, blocks = _terms(cast(list[str], terms))  # a peace's terms: what is ceded
        for cid in cities:
            if cid not in turn.cities or turn.cities[cid]["owner"] not in (seat, other):
                return f"{cid} is not a city of either side"
        if len(blocks) > PEACE_LAND_AT_MOST:
            return (
                f"a peace may cede at most {PEACE_LAND_AT_MOST} blocks of land, and these terms name "
                f"{len(blocks)} (a city is ceded by naming it, with the land in its one-block radius)"
            )
        for name in blocks:
            if turn.owner(_block(turn, name)) not in (seat, other):
                return f"{name} is not territory of either side"
    if kind == "ally":
        return _alliance_problem(turn, seat, other)
    if kind == "borders" and at_war(turn, seat, other):
        return f"{turn.nation(other)} is an enemy: make peace first"
    return None


def _alliance_problem(turn: Turn, seat: str, other: str) -> str | None:
    if turn.state["alliances_closed"]:
        return "no more alliances may be formed in this War Bounty game"
    if at_war(turn, seat, other):
        return f"{turn.nation(other)} is an enemy: make peace first"
    if allied(turn, seat, other):
        until = cast(JSONObject, alliance_of(turn, seat))["until"]
        if until == turn.round:
            # "The duration of an Alliance is 10 rounds and is renewable after that duration":
            # proposed in its last round, accepted in the next, as it ends.
            return None
        return f"{turn.nation(other)} is an ally already"
    mine, theirs = alliance_of(turn, seat), alliance_of(turn, other)
    if mine and theirs:
        return "both empires are in alliances already"
    joined = mine or theirs
    if joined and turn.mode == economy.WAR_BOUNTY and len(joined["members"]) >= ALLIANCE_SIZE:
        return f"an alliance has at most {ALLIANCE_SIZE} members"
    if joined:
        # Rule D-MC-14: "An empire at war with a member cannot join that alliance."
        newcomer = other if joined is mine else seat
        enemies = [m for m in joined["members"] if at_war(turn, m, newcomer)]
        if enemies:
            return (
                f"{turn.nation(newcomer)} is at war with {_names(turn, enemies)}, a member of that "
                "alliance, and cannot join it: make peace first"
            )
    return None


def accept(turn: Turn, seat: str, kind: str, other: str) -> str | None:
    found = next(
        (
            p
            for p in turn.state["proposals"]
            if p["from"] == other and p["to"] == seat and p["kind"] == kind and p["round"] == turn.round - 1
        ),
        None,
    )
    if found is None:
        return (
            f"{turn.nation(other) if other in turn.seats else other} made no {kind} proposal "
            f"to {turn.who(seat)} in round {turn.round - 1}"
        )
    # Judged from the accepter's side, so that its report names the other empire, not itself.
    problem = _proposal_problem(turn, seat, kind, other, found["terms"])
    if problem:
        _not_carried_out(turn, seat, found)
        return problem
    turn.state["proposals"] = [p for p in turn.state["proposals"] if p is not found]
    agreements: dict[str, Callable[[Turn, str, str, Any], None]] = {
        "peace": make_peace,
        "borders": open_borders,
        "ally": ally,
    }
    agreements[kind](turn, other, seat, found["terms"])
    return None


def _not_carried_out(turn: Turn, seat: str, proposal: JSONObject) -> None:
    """An agreement is "tradeable with other Empires" (rule D-MC-14), and "a failed trade tells
    both parties that it could not be carried out, not which side lacked what" (rule D-ALL-5):
    the proposer reads that its proposal was accepted and not carried out; the reason is in the
    accepter's own failed order only."""
    other = proposal["from"]
    what = describe(turn, proposal["kind"], other, seat, proposal["terms"])
    turn.add(
        "acceptance_failed",
        f"{turn.nation(seat)} accepts {turn.nation(other)}'s proposal of round {proposal['round']} "
        f"({what}), but it could not be carried out.",
        (seat, other),
        seat=seat,
        other=other,
        kind=proposal["kind"],
    )


def make_peace(turn: Turn, a: str, b: str, ceded: list[str]) -> None:
    war = war_of(turn, a, b)
    assert war is not None, "peace is accepted only between empires at war (_proposal_problem)"
    turn.state["wars"] = [w for w in turn.state["wars"] if w is not war]
    moves = []
    for cid, before in war["taken"].items():
        if (
            cid in turn.cities
            and cid not in ceded
            and turn.cities[cid]["owner"] in (a, b)
            and turn.cities[cid]["owner"] != before
        ):
            moves.append((cid, before))
    cities, blocks = _terms(ceded)
    land = {i: _other(a, b, _before_the_war(turn, war, i)) for i in (_block(turn, name) for name in blocks)}
    for cid in cities:  # a ceded city goes from its owner before the war to the other side
        before = war["taken"].get(cid, turn.cities[cid]["owner"])
        new = b if before == a else a
        if turn.cities[cid]["owner"] != new:  # a city taken in the war is ceded where it stands
            moves.append((cid, new))
    ended = {
        cid: occupation_end(turn, city)
        for cid, city in turn.cities.items()
        if city["owner"] in (a, b) and city["occupier"] in (a, b)
    }
    # A city the treaty hands on may be occupied by a third empire, which signs nothing.
    outsiders = {
        cid: (turn.cities[cid]["occupier"], turn.cities[cid]["held"])
        for cid, _ in moves
        if turn.cities[cid]["occupier"] not in (None, a, b)
    }
    for cid, new in moves:
        _hand(turn, cid, new)
    # "Territory may be ceded through a Peace Treaty": the blocks named, after the cities (a
    # block the treaty names goes where it says, even in a city's radius).
    land = {i: new for i, new in land.items() if turn.owner(i) != new}
    for i, new in land.items():
        turn.claim(i, new)
    for cid, last in ended.items():
        # "If a Peace Treaty is signed before the 2 rounds are over, the Military Base will not
        # spawn any troops for the remaining rounds" (rule D-MC-14).
        turn.cities[cid].update(occupier=None, held=0, spawns_from=last + 1)
    occupied, evicted = _outsiders(turn, outsiders)
    _withdraw(turn, a, b)
    _withdraw(turn, b, a)
    handed = (
        "; ".join([f"{cid} to {turn.nation(new)}" for cid, new in moves] + _land_text(turn, a, b, land))
        or "no city changes hands"
    )
    quiet = "".join(
        f" The occupation of {cid} ends: its bases spawn nothing until round {last + 1}." for cid, last in ended.items()
    )
    turn.add(
        "peace",
        f"Peace between {turn.nation(a)} and {turn.nation(b)}: {handed}.{quiet}",
        seat=a,
        other=b,
        cities=[[cid, new] for cid, new in moves],
        land=[[turn.name(i), new] for i, new in land.items()],
        quiet=[[cid, last + 1] for cid, last in ended.items()],
        occupied=occupied,
    )
    for cid, seat, gid, spot in evicted:
        where = f"; its group {gid} is moved out to {turn.name(spot)}" if spot is not None else ""
        turn.add(
            "occupation_ends",
            f"{cid} is {turn.nation(turn.cities[cid]['owner'])}'s by the peace, and "
            f"{turn.nation(seat)} is not at war with it: the occupation by {turn.nation(seat)} "
            f"ends{where}.",
            seat=seat,
            city=cid,
        )


def _outsiders(
    turn: Turn, outsiders: dict[str, tuple[str, int]]
) -> tuple[list[list[object]], list[tuple[str, str, str, int | None]]]:
    """The occupations of cities a peace handed on, by an empire that is not one of its two
    signers: one at war with the city's new owner goes on, counted as before (its troops still
    "occupy the City Center"); any other ends, and its troops on the centre are moved out to the
    nearest neutral or own land, as at a declaration of war (an empire occupies only where it is
    at war). Returns ([city, occupier, rounds held] going on, [(city, occupier, group, block)]
    ended)."""
    occupied: list[list[object]] = []
    evicted: list[tuple[str, str, str, int | None]] = []
    for cid, (seat, held) in outsiders.items():
        city = turn.cities[cid]
        if at_war(turn, seat, city["owner"]):
            city.update(occupier=seat, held=held)
            occupied.append([cid, seat, held])
            continue
        gid = turn.group_of(seat, turn.city_block(cid))
        spot = _move_out(turn, seat, gid) if gid else None
        evicted.append((cid, seat, gid or "", spot))
    return occupied, evicted


def _terms(terms: list[str]) -> tuple[list[str], list[str]]:
    """A peace's terms as (cities ceded, by id; blocks of land ceded, by name x,y)."""
    return [t for t in terms if "," not in t], [t for t in terms if "," in t]


def _block(turn: Turn, name: str) -> int:
    x, y = (int(v) for v in name.split(","))
    return turn.board.index(x, y)


def _other(a: str, b: str, side: str | None) -> str:
    return b if side == a else a


def _before_the_war(turn: Turn, war: JSONObject, i: int) -> str | None:
    """Who held block i when the war began: a war moves land only with the cities it takes,
    each with its one-block radius, so a block of the radius of a city taken in it, held with
    that city, was its owner's before the war; any other block is held as it was."""
    owner = turn.owner(i)
    for cid, before in war["taken"].items():
        city = turn.cities.get(cid)
        if city and city["owner"] == owner != before and i in turn.board.around(turn.city_block(cid)):
            return cast(str, before)
    return owner


def _land_text(turn: Turn, a: str, b: str, land: dict[int, str]) -> list[str]:
    counts = {side: sum(1 for new in land.values() if new == side) for side in (a, b)}
    return [f"{n} block{'s' if n > 1 else ''} of land to {turn.nation(side)}" for side, n in counts.items() if n]


def occupation_end(turn: Turn, city: JSONObject) -> int:
    """The last round of an occupation if nothing interrupts it: it is counted at the end of
    each of the occupier's turns, and the city is captured at the second count (rule D-MC-6)."""
    counts_left: int = 2 - city["held"]
    return turn.round + counts_left - (0 if city["occupier"] in turn.played else 1)


def _hand(turn: Turn, cid: str, new: str) -> None:
    """A city and the territory in a one-block radius of it pass to a new owner (a city the new
    owner had lost is back, rule D-MC-11)."""
    old = turn.cities[cid]["owner"]
    turn.pass_city(cid, new)
    for n in turn.board.around(turn.city_block(cid)):
        if not turn.board.water[n] and turn.owner(n) in (old, None):
            turn.claim(n, new)


def open_borders(turn: Turn, proposer: str, accepter: str, terms: str) -> None:
    until = turn.round + AGREEMENT_ROUNDS - 1
    hosts = {
        "MINE": [(proposer, accepter)],
        "THEIRS": [(accepter, proposer)],
        "BOTH": [(proposer, accepter), (accepter, proposer)],
    }[terms]
    for host, guest in hosts:
        turn.state["borders"].append({"host": host, "guest": guest, "until": until})
    text = "; ".join(f"{turn.nation(guest)} may pass through {turn.nation(host)}'s territory" for host, guest in hosts)
    turn.add(
        "borders", f"Open border agreement until round {until}: {text}.", seat=proposer, other=accepter, until=until
    )


def ally(turn: Turn, proposer: str, accepter: str, _terms: object = None) -> None:
    joined = alliance_of(turn, proposer) or alliance_of(turn, accepter)
    if joined:
        joined["members"] = sorted({*joined["members"], proposer, accepter})
        members = joined["members"]
    else:
        members = pair(proposer, accepter)
        turn.state["alliances"].append({"members": members, "until": turn.round + AGREEMENT_ROUNDS - 1})
    alliance = alliance_of(turn, proposer)
    assert alliance is not None, "formed or joined just above"
    turn.add(
        "alliance",
        f"Alliance of {_names(turn, members)} until round {alliance['until']}.",
        seat=proposer,
        other=accepter,
        members=members,
        until=alliance["until"],
    )


def leave(turn: Turn, seat: str, attacked: str | None = None) -> str | None:
    """LEAVE, or an attack on a troop of the ally `attacked` (rule D-MC-14): the empire leaves
    its alliance early and pays 15 E$ to each other member, or cannot and stays."""
    alliance = alliance_of(turn, seat)
    if alliance is None:
        return f"{turn.who(seat)} {'are' if turn.you else 'is'} in no alliance"
    others = [m for m in alliance["members"] if m != seat and turn.seats[m]["alive"]]
    what = "leaving the alliance early" + (
        f", as attacking {turn.nation(attacked)}, an ally, does," if attacked else ""
    )
    problem = economy.pay(turn, seat, economy.ALLIANCE_PENALTY * len(others), what)
    if problem:
        return problem
    why = f" attacks a troop of its ally {turn.nation(attacked)}, and so" if attacked else ""
    for m in others:
        turn.seats[m]["money"] += economy.ALLIANCE_PENALTY
    before = permissions(turn)
    _part(turn, alliance, seat)
    turn.add(
        "alliance_left",
        f"{turn.nation(seat)}{why} leaves its alliance early and pays "
        f"{economy.ALLIANCE_PENALTY} E$ to each of {_names(turn, others)}.",
        seat=seat,
        paid=economy.ALLIANCE_PENALTY * len(others),
        to=others,
    )
    if not attacked:  # an attack starts its war first: combat.attack moves the troops out then
        shut_out(turn, before)
    return None


def _part(turn: Turn, alliance: JSONObject, seat: str) -> None:
    alliance["members"] = [m for m in alliance["members"] if m != seat]
    if len(alliance["members"]) < 2:
        turn.state["alliances"] = [a for a in turn.state["alliances"] if a is not alliance]


def end_of_round(turn: Turn) -> None:
    """Agreements that run out, proposals nobody accepted, and War Bounty's rule that an
    alliance which has defeated all its opposition is broken."""
    number = turn.round
    turn.state["proposals"] = [p for p in turn.state["proposals"] if p["round"] >= number]
    turn.state["borders"] = [b for b in turn.state["borders"] if b["until"] > number]
    for alliance in list(turn.state["alliances"]):
        if alliance["until"] <= number:
            turn.state["alliances"].remove(alliance)
            turn.add(
                "alliance_ends",
                f"The alliance of {_names(turn, alliance['members'])} "
                f"ends after {AGREEMENT_ROUNDS} rounds; it may be formed again.",
                members=alliance["members"],
            )
    break_the_victors(turn)
    _trespassers_out(turn)  # the troops of every permission that ended here, and any others inside


def _trespassers_out(turn: Turn) -> None:
    """gm's choice (README, "Open borders that end"): with the open-border rule, no troop ends a
    round in another empire's territory without a war, an alliance or an agreement. Besides the
    permissions that ended (shut_out), land can become another's under a group: land bought
    (LAND) or a city's territory claimed round it, after a peace moved its troops out. Such
    groups are moved out at the end of the round, as at a declaration of war. Run last in the
    round, it is also what moves the troops of agreements and alliances that run out then."""
    if not turn.options["borders"]:
        return
    allowed = permissions(turn)
    alive = [s for s in turn.state["seating"] if turn.seats[s]["alive"]]
    # In shut_out's order (sorted pairs), so a round's withdrawals read as they did before.
    for guest, host in sorted((g, h) for g in alive for h in alive if g != h and (g, h) not in allowed):
        _withdraw(turn, guest, host)


def break_the_victors(turn: Turn) -> None:
    """War Bounty: "When an alliance has defeated all of its opposition, the alliance is
    immediately broken": called when an empire capitulates, in the middle of a round, and at
    the end of every round (an empire out with no city)."""
    alive = [s for s in turn.state["seating"] if turn.seats[s]["alive"]]
    if turn.mode == economy.WAR_BOUNTY:
        before = permissions(turn)
        for alliance in list(turn.state["alliances"]):
            if len(alive) > 1 and set(alive) <= set(alliance["members"]):
                turn.state["alliances"].remove(alliance)
                turn.state["alliances_closed"] = True
                turn.add(
                    "alliance_ends",
                    f"The alliance of {_names(turn, alliance['members'])} "
                    "has defeated all its opposition and is broken; no alliance may be "
                    "formed from now on.",
                    members=alliance["members"],
                )
        shut_out(turn, before)


def payment(turn: Turn, seat: str, other: str, amount: int) -> str | None:
    """PAY: E$ to another empire, at any time of the empire's own turn ("Negotiable/Sellable:
    ... tradeable with other Empires (including the use of E$ in trade)", rule D-MC-14)."""
    if other not in turn.seats or other == seat:
        return f"{other} is not another empire of this game"
    if not turn.seats[other]["alive"]:
        return f"{turn.nation(other)} is out of the game"
    money = turn.seats[seat]["money"]
    if amount > money:
        return f"{turn.has(seat)} {money} E$, not the {amount} E$ to pay"
    turn.seats[seat]["money"] = money - amount
    turn.seats[other]["money"] += amount
    turn.add(
        "payment",
        f"{turn.nation(seat)} pays {amount} E$ to {turn.nation(other)}.",
        (seat, other),
        seat=seat,
        to=other,
        amount=amount,
    )
    return None


def forget(turn: Turn, seat: str) -> None:
    """An empire out of the game: its wars end, its agreements and proposals lapse."""
    state = turn.state
    state["wars"] = [w for w in state["wars"] if seat not in w["sides"]]
    state["borders"] = [b for b in state["borders"] if seat not in (b["host"], b["guest"])]
    state["proposals"] = [p for p in state["proposals"] if seat not in (p["from"], p["to"])]
    alliance = alliance_of(turn, seat)
    if alliance:
        _part(turn, alliance, seat)


def _names(turn: Turn, seats: list[str]) -> str:
    names = [turn.nation(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
