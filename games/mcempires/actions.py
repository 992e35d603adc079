"""Carrying out one order of an empire's turn: each returns None when done, or the reason it
fails (rule D-ALL-3). resolve, check_orders and the robot all call `execute`."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from gm.core.model import Order
from gm.core.warnings import did_you_mean

from . import capitulation, cities, combat, diplomacy, economy, moves, rails
from .turn import Turn

STANDING = ("DEFEND", "DESTROY")  # standing orders: read before any turn (rule D-MC-9)


def block_of(turn: Turn, text: str) -> int | None:
    """The block an "x,y" names, or None when it is off the map."""
    x, y = (int(v) for v in text.split(","))
    return turn.board.index(x, y) if turn.board.on_map(x, y) else None


def off_map(turn: Turn, text: str) -> str:
    return off_world(text, turn.board.width, turn.board.height)


def off_world(text: str, width: int, height: int) -> str:
    """Why x,y names no block of a world of width x height (the player's check says it too)."""
    return f"{text} is off the map (x runs 0 to {width - 1}, y 0 to {height - 1})"


def city_named(turn: Turn, text: str) -> str | None:
    """A city by its id (RE2) or by the block of its centre (12,40)."""
    if "," in text:
        i = block_of(turn, text)
        return turn.city_at.get(i) if i is not None else None
    return text if text in turn.cities else None


def own_city(turn: Turn, seat: str, text: str) -> tuple[str | None, str | None]:
    """(city id, None) for a city of the empire that nobody occupies, else (None, reason)."""
    cid = city_named(turn, text)
    if cid is None:
        return None, turn.no_city(text)
    city = turn.cities[cid]
    if city["owner"] != seat:
        return None, f"{cid} is not {turn.yours(seat)} (it belongs to {turn.nation(city['owner'])})"
    if city["occupier"]:
        return None, f"{cid} is occupied by {turn.nation(city['occupier'])}"
    if not turn.in_full(cid):  # rule D-MC-12
        return (
            None,
            f"{cid} was under occupation this round: it is {turn.yours(seat)} in full from round {city['restored']}",
        )
    return cid, None


def execute(turn: Turn, seat: str, order: Order) -> str | None:
    if not turn.seats[seat]["alive"]:
        return f"{turn.nation(seat)} is out of the game"
    return unused_option(turn, order.verb) or ACTIONS[order.verb](turn, seat, *order.args)


# The words of the optional rules (rule D-MC-7): the verbs and agreements of diplomacy, and the
# RETREAT of a standing DEFEND ("the Defender must choose the number of Troops to fight and/or
# Retreat*").
OPTIONAL_WORDS = {**diplomacy.OPTION_OF, "RETREAT": "retreat"}


def unused_option(turn: Turn, word: str) -> str | None:
    """Why an order that needs an optional rule the game does not use fails, if it does."""
    option = OPTIONAL_WORDS.get(word)
    if option and not turn.options[option]:
        return f"{word} belongs to an optional rule this game does not use ({option})"
    return None


def standing_problem(turn: Turn, seat: str, order: Order) -> str | None:
    """Why a standing order (DEFEND, DESTROY) fails as the round starts, when every empire's are
    read (rule D-MC-9): a group or a city that is not the empire's then, a retreat off the map,
    or a retreat in a game without the option. The check refuses the same (it reads them alike)."""
    what = order.args[0]
    if order.verb == "DESTROY":
        cid = city_named(turn, what) if what != "ALL" else "ALL"
        if cid is None or (cid != "ALL" and turn.cities[cid]["owner"] != seat):
            slip = did_you_mean(what, turn.cities_of(seat)) if cid is None else ""
            return f"{what} is not one of {turn.your(seat)} cities{slip}"
        return None
    retreat = order.args[2]
    if what != "ALL" and turn.groups.get(what, {}).get("owner") != seat:
        return f"{what} is not one of {turn.your(seat)} groups"
    if what != "ALL" and "," in retreat and block_of(turn, retreat) is None:
        return f"{retreat} is off the map"
    return unused_option(turn, "RETREAT") if retreat else None


def _capital(turn: Turn, seat: str, where: str) -> str | None:
    if turn.seats[seat]["capital"]:
        return f"{turn.has(seat)} a capital already"
    return "the capital is founded at the start of the turn"  # done by rules.start_turn


def _city(turn: Turn, seat: str, where: str) -> str | None:
    i = block_of(turn, where)
    if i is None:
        return off_map(turn, where)
    if seat in turn.bought_city:
        return "a maximum of 1 regular city may be purchased per round"
    problem = cities.placement_problem(turn, seat, i, capital=False)
    if problem:
        return problem
    price = economy.city_price(turn.regular_cities(seat))
    problem = economy.pay(turn, seat, price, "a regular city")
    if problem:
        return problem
    cid = cities.found_city(turn, seat, i)
    turn.add(
        "city",
        f"{turn.nation(seat)} founds the city {cid} at {turn.name(i)} for {price} E$.",
        seat=seat,
        city=cid,
        block=turn.name(i),
        cost=price,
    )
    return None


def _land(turn: Turn, seat: str, corner: str, other: str = "") -> str | None:
    corners = _corners(turn, corner, other)
    if isinstance(corners, str):
        return corners
    a, b = corners
    area = _rectangle(turn, a, b)
    free = [i for i in area if not turn.board.water[i] and turn.owner(i) is None]
    if not free:
        return _no_land(turn, seat, area)
    naval = any(turn.cities[c]["naval"] for c in turn.cities_of(seat))
    home = _home_landmass(turn, seat)
    buying = free if naval else [i for i in free if turn.board.landmass[i] == home]
    if not buying:
        return (
            f"{_area(turn, a, b)} is not on the landmass of {turn.your(seat)} capital; land "
            "there can only be bought once the empire has a naval base"
        )
    price = economy.land_price(len(buying))
    problem = economy.pay(turn, seat, price, f"land of {len(buying)} block{'s' if len(buying) != 1 else ''}")
    if problem:
        return problem
    for i in buying:
        turn.claim(i, seat)
    skipped = len(area) - len(buying)
    note = (
        f" ({skipped} block{'s' if skipped != 1 else ''} of water, claimed land or another landmass left out)"
        if skipped
        else ""
    )
    turn.private(
        seat,
        "land",
        f"{turn.nation(seat)} buys {len(buying)} block"
        f"{'s' if len(buying) != 1 else ''} of territory at {_area(turn, a, b)} for "
        f"{price} E${note}.",
        blocks=len(buying),
        cost=price,
    )
    return None


def _corners(turn: Turn, corner: str, far: str) -> tuple[int, int] | str:
    """A rectangle's corners (one block: both the same), or why a corner is not on the map."""
    a, b = block_of(turn, corner), block_of(turn, far or corner)
    if a is None:
        return off_map(turn, corner)
    if b is None:
        return off_map(turn, far)
    return a, b


def _rectangle(turn: Turn, a: int, b: int) -> list[int]:
    """The blocks of the rectangle with corners a and b, row by row."""
    (x1, y1), (x2, y2) = turn.board.xy(a), turn.board.xy(b)
    return [
        turn.board.index(x, y) for y in range(min(y1, y2), max(y1, y2) + 1) for x in range(min(x1, x2), max(x1, x2) + 1)
    ]


def _area(turn: Turn, a: int, b: int) -> str:
    return turn.name(a) if a == b else f"{turn.name(a)} to {turn.name(b)}"


def _no_land(turn: Turn, seat: str, area: list[int]) -> str:
    i = area[0]
    if len(area) == 1 and turn.board.water[i]:
        return f"{turn.name(i)} is {turn.board.terrain_name(i)}: bodies of water cannot be purchased"
    if len(area) == 1:
        owner = turn.owner(i)
        whose = "yours already" if owner == seat else f"claimed by {turn.nation(cast(str, owner))}"  # not free
        return f"{turn.name(i)} is {whose}"
    return "every block there is water or claimed already"


def _home_landmass(turn: Turn, seat: str) -> int:
    """The landmass the empire's capital stands on, whoever holds it now ("land that your
    Capital City does not reside in" is another landmass, rule D-MC-13); -2, matching no
    block, once the capital is gone (abandoned)."""
    capital = turn.cities.get(turn.seats[seat]["capital"] or "")
    return turn.board.landmass[turn.board.index(capital["x"], capital["y"])] if capital else -2


def _base(turn: Turn, seat: str, where: str) -> str | None:
    cid, problem = own_city(turn, seat, where)
    if cid is None:  # then problem says why
        return problem
    city = turn.cities[cid]
    if len(city["bases"]) >= economy.MAX_BASES:
        return f"{cid} has {economy.MAX_BASES} military bases already (the most a city may have)"
    price = economy.BASE_PRICES[len(city["bases"])]
    problem = economy.pay(turn, seat, price, "a military base" if not city["bases"] else "a second military base")
    if problem:
        return problem
    city["bases"] = [*city["bases"], turn.round]
    return _bought(turn, seat, cid, "base", "a military base", price, "it spawns troops from next round")


def _transport(turn: Turn, seat: str, where: str) -> str | None:
    return _building(turn, seat, where, "transport", "transport infrastructure", economy.TRANSPORT_PRICE)


def _naval(turn: Turn, seat: str, where: str) -> str | None:
    cid, problem = own_city(turn, seat, where)
    if cid is None:  # then problem says why
        return problem
    if not turn.board.coastal[turn.city_block(cid)]:
        return f"{cid} is not beside water: naval bases can only be built in coastal cities"
    return _building(turn, seat, where, "naval", "a naval base", economy.NAVAL_PRICE)


def _treasury(turn: Turn, seat: str, where: str) -> str | None:
    if not economy.treasuries_allowed(turn):
        return f"treasuries cannot be bought in {turn.mode.replace('-', ' ').title()}"
    price = economy.treasury_price(economy.purchased_treasuries(turn, seat))
    problem = _building(turn, seat, where, "treasury", "a treasury", price)
    if problem is None:
        turn.cities[cast(str, city_named(turn, where))]["treasury_by"] = seat
    return problem


def _building(turn: Turn, seat: str, where: str, key: str, what: str, price: int) -> str | None:
    cid, problem = own_city(turn, seat, where)
    if cid is None:  # then problem says why
        return problem
    if turn.cities[cid][key]:
        return f"{cid} has {what} already (only one per city)"
    problem = economy.pay(turn, seat, price, what)
    if problem:
        return problem
    turn.cities[cid][key] = True
    return _bought(turn, seat, cid, key, what, price, "")


def _bought(turn: Turn, seat: str, cid: str, kind: str, what: str, price: int, note: str) -> str | None:
    note = f"; {note}" if note else ""
    turn.private(
        seat,
        "build",
        f"{turn.nation(seat)} buys {what} in {cid} for {price} E${note}.",
        city=cid,
        what=what,
        kind=kind,
        cost=price,
    )
    return None


def _rail(turn: Turn, seat: str, a: str, b: str, *via: str) -> str | None:
    ends = []
    for text in (a, b):
        cid = city_named(turn, text)
        if cid is None:
            return turn.no_city(text)
        ends.append(cid)
    waypoints = []
    for text in via:
        i = block_of(turn, text)
        if i is None:
            return off_map(turn, text)
        waypoints.append(i)
    return rails.build(turn, seat, ends[0], ends[1], waypoints)


def _move(turn: Turn, seat: str, gid: str, count: int | str, *targets: str) -> str | None:
    blocks = []
    for text in targets:
        if "," in text:
            i = block_of(turn, text)
            if i is None:
                return off_map(turn, text)
        elif text in turn.cities:
            i = turn.city_block(text)
        else:
            return turn.no_city(text)
        blocks.append(i)
    return moves.move(turn, seat, gid, count, blocks)


def _train(turn: Turn, seat: str, gid: str, count: int | str, city: str) -> str | None:
    cid = city_named(turn, city)
    return rails.ride(turn, seat, gid, count, cid or city)


def _attack(turn: Turn, seat: str, gid: str, count: int | str, target: str) -> str | None:
    group = turn.groups.get(gid)
    if group is None or group["owner"] != seat:
        return f"{gid} is not one of {turn.your(seat)} groups"
    if "," in target:
        i = block_of(turn, target)
        if i is None:
            return off_map(turn, target)
        found = _target_at(turn, seat, i)
        if found is None:
            return f"there is no group of another empire at {target}"
        if isinstance(found, list):
            return (
                f"{target} holds groups of two empires ({', '.join(found)}), neither or both at war "
                "with " + ("you" if turn.you else turn.nation(seat)) + ": name the group to attack"
            )
        target = found
    return combat.attack(turn, seat, gid, count, target)


def _target_at(turn: Turn, seat: str, i: int) -> str | list[str] | None:
    """The group of another empire that ATTACK x,y means. Two empires' groups share a block only
    in an occupied city (the occupier and the owner's defenders): the one of an empire at war
    with the attacker is meant, for attacking the other would start a war the order did not name
    ("Attacking a Troop of an Empire you are not at war with will initiate a war"); when both or
    neither are, the groups (for the player to name one)."""
    found = [g for g in turn.groups_at(i) if turn.groups[g]["owner"] != seat]
    if len(found) <= 1:
        return found[0] if found else None
    enemies = [g for g in found if diplomacy.at_war(turn, seat, turn.groups[g]["owner"])]
    return enemies[0] if len(enemies) == 1 else sorted(found, key=lambda g: int(g[1:]))


def _declare(turn: Turn, seat: str, enemy: str) -> str | None:
    return diplomacy.declare(turn, seat, enemy)


def _peace(turn: Turn, seat: str, other: str, *ceded: str) -> str | None:
    """The terms: the cities ceded, by id, then the blocks of land ceded ("Territory may be
    ceded through a Peace Treaty"), by name: those of either side in each LAND's rectangle,
    city centres left out (a city is ceded by naming it)."""
    cities: list[str] = []
    blocks: dict[str, None] = {}  # in the order named, each once
    words = list(ceded)
    while words:
        text = words.pop(0)
        if text == "LAND":  # the block, or the rectangle's two corners (the parser's reading)
            corners = [words.pop(0)]
            if words and "," in words[0]:
                corners.append(words.pop(0))
            land = _ceded_land(turn, seat, other, *corners)
            if isinstance(land, str):
                return land
            blocks.update(dict.fromkeys(land))
            continue
        cid = city_named(turn, text)
        if cid is None:
            return turn.no_city(text)
        cities.append(cid)
    return diplomacy.propose(turn, seat, "peace", other, cities + list(blocks))


def _ceded_land(turn: Turn, seat: str, other: str, corner: str, far: str = "") -> list[str] | str:
    corners = _corners(turn, corner, far)
    if isinstance(corners, str):
        return corners
    a, b = corners
    area = _rectangle(turn, a, b)
    land = [turn.name(i) for i in area if turn.owner(i) in (seat, other) and i not in turn.city_at]
    if not land:
        return (
            f"{_area(turn, a, b)} holds no territory of {turn.yours(seat)} or {turn.nation(other)}'s "
            "to cede (a city is ceded by naming it)"
        )
    return land


def _borders(turn: Turn, seat: str, other: str, which: str) -> str | None:
    return diplomacy.propose(turn, seat, "borders", other, which)


def _ally(turn: Turn, seat: str, other: str) -> str | None:
    return diplomacy.propose(turn, seat, "ally", other, None)


def _leave(turn: Turn, seat: str) -> str | None:
    return diplomacy.leave(turn, seat)


def _accept(turn: Turn, seat: str, kind: str, other: str) -> str | None:
    problem = unused_option(turn, kind) or diplomacy.accept(turn, seat, diplomacy.KINDS[kind], other)
    if problem is None and kind == "PEACE":
        capitulation.after_peace(turn, (other, seat))
    return problem


def _pay(turn: Turn, seat: str, other: str, amount: int) -> str | None:
    return diplomacy.payment(turn, seat, other, amount)


# Each action takes the arguments grammar gives its verb, which well_formed guarantees.
ACTIONS: dict[str, Callable[..., str | None]] = {
    "CAPITAL": _capital,
    "CITY": _city,
    "LAND": _land,
    "BASE": _base,
    "TRANSPORT": _transport,
    "NAVAL": _naval,
    "TREASURY": _treasury,
    "RAIL": _rail,
    "MOVE": _move,
    "TRAIN": _train,
    "ATTACK": _attack,
    "DECLARE": _declare,
    "PEACE": _peace,
    "BORDERS": _borders,
    "ALLY": _ally,
    "LEAVE": _leave,
    "ACCEPT": _accept,
    "PAY": _pay,
}
