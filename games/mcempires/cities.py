"""Cities: placement, founding, infrastructure, spawning, capture and the defender's destruction."""

from __future__ import annotations

from gm.core.model import JSONObject

from . import capitulation, economy
from .turn import CITY_DEFAULTS, MAX_TROOPS, Turn

CITY_SPACING = 6  # rule D-MC-4: centres at Manhattan distance 6 or more
CAPITAL_TROOPS = 2  # "Capital Cities start with a Treasury and 2 Troops."


def new_city(founder: str, x: int, y: int, capital: bool) -> JSONObject:
    """A city record. owner, founder: seat codes. capital: founded as its founder's capital.
    bases: the round each military base was bought (a base spawns from the round after).
    treasury_by: the empire that bought its treasury (None for a capital's free one): what the
    treasury price counts (rule D-MC-15).
    occupier: the empire whose group stands on the centre, or None; held: the rounds it has
    held it so far (rule D-MC-6).
    restored: the round from which it is its owner's in full again after an occupier fell
    (rule D-MC-12). spawns_from: the first round its bases spawn again after a peace treaty
    ended its occupation (rule D-MC-14). 0 when neither applies."""
    return {"owner": founder, "x": x, "y": y, **CITY_DEFAULTS, "capital": capital, "founder": founder}


def placement_problem(turn: Turn, seat: str, i: int, capital: bool) -> str | None:
    """Why a city cannot be founded on block i (the City Placement Restrictions)."""
    board = turn.board
    here = turn.name(i)
    if board.water[i]:
        return f"{here} is {board.terrain_name(i)}: cities cannot be founded on water"
    owner = turn.owner(i)
    if capital and owner not in (None, seat):
        return f"{here} is territory of {turn.nation(owner)}"
    if not capital and owner != seat:
        whose = "nobody's" if owner is None else f"{turn.nation(owner)}'s"
        return f"{here} is {whose} territory: a city can only be founded in {turn.your(seat)} own territory"
    if i in turn.city_at:
        return f"{here} is a city already"
    x, y = board.xy(i)
    for cid, city in turn.cities.items():
        far = abs(city["x"] - x) + abs(city["y"] - y)
        if far < CITY_SPACING:
            return (
                f"{here} is {far} blocks from city {cid} at {city['x']},{city['y']}; "
                f"city centres must be at least {CITY_SPACING} blocks apart"
            )
    other = turn.foreign_at(seat, i)
    if other:
        return f"{here} holds group {other} of {turn.nation(turn.groups[other]['owner'])}"
    return None


def near_cities(turn: Turn) -> set[int]:
    """Blocks closer than CITY_SPACING to a city centre (rule D-MC-4): no city may go there."""
    near: set[int] = set()
    for city in turn.cities.values():
        add_near(turn, near, city["x"], city["y"])
    return near


def add_near(turn: Turn, near: set[int], x: int, y: int) -> None:
    reach = CITY_SPACING - 1
    for dy in range(-reach, reach + 1):
        for dx in range(abs(dy) - reach, reach - abs(dy) + 1):
            if turn.board.on_map(x + dx, y + dy):
                near.add(turn.board.index(x + dx, y + dy))


def found_capital(turn: Turn, seat: str, i: int, how: str) -> None:
    """Found the capital on block i (already checked): its 3x3 square of free land becomes
    territory; in Original it has a treasury, and 2 troops in every mode but War Bounty."""
    cid = _add_city(turn, seat, i, capital=True)
    for n in turn.board.around(i):
        if not turn.board.water[n] and turn.owner(n) is None:
            turn.claim(n, seat)
    city = turn.cities[cid]
    city["treasury"] = turn.mode == economy.ORIGINAL
    _garrison(turn, seat, i, CAPITAL_TROOPS)
    turn.seats[seat]["capital"] = cid
    extra = " with a treasury and" if city["treasury"] else " with"
    turn.add(
        "capital",
        f"{turn.nation(seat)} founds its capital {cid} at {turn.name(i)},{extra} {CAPITAL_TROOPS} troops.",
        seat=seat,
        city=cid,
        block=turn.name(i),
    )
    if how:  # why not where it was ordered: the empire's own to know (D-ALL-5), as its failed order is
        turn.private(seat, "capital_site", f"{turn.nation(seat)}'s capital stands at {turn.name(i)}{how}.", city=cid)


def found_city(turn: Turn, seat: str, i: int) -> str:
    cid = _add_city(turn, seat, i, capital=False)
    turn.bought_city.add(seat)
    return cid


def _add_city(turn: Turn, seat: str, i: int, capital: bool) -> str:
    me = turn.seats[seat]
    me["founded"] += 1
    while f"{seat}{me['founded']}" in turn.cities:  # never reuse a city's name
        me["founded"] += 1
    cid = f"{seat}{me['founded']}"
    x, y = turn.board.xy(i)
    turn.cities[cid] = new_city(seat, x, y, capital)
    turn.city_at[i] = cid
    return cid


def _garrison(turn: Turn, seat: str, i: int, troops: int) -> None:
    gid = turn.group_of(seat, i)
    if gid:
        turn.groups[gid]["troops"] = min(MAX_TROOPS, turn.groups[gid]["troops"] + troops)
    else:
        turn.new_group(seat, i, troops)


# ----------------------------------------------------------------------------------------------
# Spawning: "Spawns 1 Troop per Round per every Military Base in each City."


def spawn(turn: Turn, seat: str) -> None:
    """Troops from the empire's military bases, into the group on each city centre, halted at 6.
    In an occupied city they spawn for the owner as a garrison beside the occupier."""
    for cid in turn.cities_of(seat):
        city = turn.cities[cid]
        ready = sum(1 for bought in city["bases"] if bought < turn.round)
        if ready and city["spawns_from"] > turn.round:
            turn.private(
                seat,
                "spawn",
                f"{cid} spawns nothing: a peace treaty ended its occupation, and its bases spawn "
                f"no troops for the rest of it (from round {city['spawns_from']} again).",
                city=cid,
                troops=0,
            )
            continue
        if not ready:
            continue
        i = turn.city_block(cid)
        gid = turn.group_of(seat, i)
        have = turn.groups[gid]["troops"] if gid else 0
        count = min(ready, MAX_TROOPS - have)
        if count <= 0:
            turn.private(
                seat,
                "spawn",
                f"{cid}'s group is full (6 troops): its base{'s' if ready > 1 else ''} spawn nothing.",
                city=cid,
                troops=0,
            )
            continue
        if gid:
            turn.groups[gid]["troops"] += count
        else:
            gid = turn.new_group(seat, i, count)
        where = " (a garrison inside the occupied city)" if city["occupier"] else ""
        turn.private(
            seat,
            "spawn",
            f"{cid} spawns {count} troop{'s' if count > 1 else ''} into {gid}{where}.",
            city=cid,
            group=gid,
            troops=count,
        )


# ----------------------------------------------------------------------------------------------
# Capture (rule D-MC-6); capitulation.py says whether it ends the loser.


def capture(turn: Turn, cid: str, seat: str) -> None:
    city = turn.cities[cid]
    loser = city["owner"]
    turn.pass_city(cid, seat)
    centre = turn.city_block(cid)
    for n in turn.board.around(centre):
        if turn.owner(n) == loser:
            turn.claim(n, seat)
    for war in turn.state["wars"]:
        if sorted(war["sides"]) == sorted([seat, loser]) and cid not in war["taken"]:
            war["taken"] = {**war["taken"], cid: loser}
    # A city taken twice counts once (rule D-MC-11).
    turn.seats[loser]["lost"] = [*(c for c in turn.seats[loser]["lost"] if c != cid), cid]
    if cid == turn.seats[loser]["capital"]:
        turn.seats[loser]["captor"] = seat  # the capital may change hands or be abandoned later
    turn.add(
        "capture",
        f"{turn.nation(seat)} captures {cid} at {turn.name(centre)} from "
        f"{turn.nation(loser)}; its infrastructure is now {turn.nation(seat)}'s.",
        seat=seat,
        loser=loser,
        city=cid,
    )
    economy.bounty(turn, seat, economy.BOUNTY_CITY, f"capturing {cid}", kind="city", loser=loser)
    if capitulation.capitulates(turn, loser):
        capitulation.capitulate(turn, loser, seat)


def destroy_infrastructure(turn: Turn, seat: str, cid: str, standing: bool) -> str | None:
    """The defender's 100 E$ destruction, one round before the capture (or why not)."""
    city = turn.cities.get(cid)
    if city is None or city["owner"] != seat:
        return f"{cid} is not {turn.yours(seat)}"
    if not city["occupier"] or city["held"] != 1:
        return f"{cid} is not one round from being captured"
    if not (city["bases"] or city["transport"] or city["naval"] or city["treasury"]):
        return f"{cid} has no infrastructure to destroy"
    problem = economy.pay(turn, seat, economy.DESTROY_PRICE, "destroying its infrastructure")
    if problem:
        return problem
    city.update(bases=[], transport=False, naval=False, treasury=False, treasury_by=None)
    turn.destroyed.add(cid)
    how = " (standing order)" if standing else ""
    turn.add(
        "destroy",
        f"{turn.nation(seat)} destroys the infrastructure of {cid}{how} for "
        f"{economy.DESTROY_PRICE} E$, so {turn.nation(city['occupier'])} cannot use it.",
        seat=seat,
        city=cid,
    )
    return None
