"""The start of a game: the world (from the scenario or the generator), the seats, and the
empires War Bounty and Land Game start with, laid out fairly by gm."""

from __future__ import annotations

import heapq
from collections import deque

from gm.core import scenarios
from gm.core.model import JSONObject, SeatInfo
from gm.core.ruleset import ScenarioError, TurnSeeds

from . import cities, economy
from .turn import MAX_TROOPS, Turn
from .world import FREE
from .worldgen import generate_world, world_side

# Land Game starts with nothing and earns its 5 E$ in the first round (rule D-MC-15).
START_MONEY = {economy.ORIGINAL: 10, economy.WAR_BOUNTY: 0, economy.LAND_GAME: 0}
START_BLOCKS = {economy.WAR_BOUNTY: 300, economy.LAND_GAME: 50}
WAR_BOUNTY_CITIES = 5  # "5 cities(including capital)"
DEFAULT_OPTIONS = {
    "mode": economy.ORIGINAL,
    "round-limit": 0,
    "declarations": False,
    "peace": False,
    "borders": False,
    "alliances": False,
    "amphibious": False,
    "retreat": False,
}
# Land each seat needs in a generated world: room to grow, and War Bounty's 300 blocks with
# space between the empires.
BLOCKS_PER_SEAT = {economy.ORIGINAL: 200, economy.LAND_GAME: 200, economy.WAR_BOUNTY: 760}


def options_of(scenario: JSONObject) -> JSONObject:
    given = scenario.get("options") or {}
    return {key: given.get(key, default) for key, default in DEFAULT_OPTIONS.items()}


def make_world(scenario: JSONObject, seats: int, mode: str, seeds: TurnSeeds) -> JSONObject:
    """The scenario's own map, or a generated one (seeded by the game, so it is made again
    identically when the game is replayed)."""
    world = scenario["world"]
    if world.get("terrain"):
        return {
            "width": len(world["terrain"][0]),
            "height": len(world["terrain"]),
            "terrain": list(world["terrain"]),
            "sites": [list(s) for s in world["sites"][:seats]],
        }
    side = world.get("size") or world_side(seats, BLOCKS_PER_SEAT[mode])
    try:
        made = generate_world(side, side, seats, seeds.rng("world"))
    except ValueError as err:
        raise ScenarioError(str(err)) from None
    return {"width": side, "height": side, "terrain": made["terrain"], "sites": made["sites"]}


def new_state(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    listed = {s["code"]: s for s in scenario["seats"]}
    seating = scenarios.seating(scenario, list(listed), seats, "empires")
    options = options_of(scenario)
    if options["mode"] not in economy.MODES:
        raise ScenarioError(f"mode must be one of {', '.join(economy.MODES)}, not {options['mode']!r}")
    names = {s.code: s.name for s in seats}
    world = make_world(scenario, len(seating), options["mode"], seeds)
    state = {
        "ruleset": "mcempires",
        "title": scenario["title"],
        "scenario": {"name": scenario["name"], "title": scenario["title"]},
        "options": options,
        "round": 1,
        "phase": "play",
        "seating": seating,
        "first": seeds.rng("order").randrange(len(seating)),  # rule D-ALL-4: a seeded draw
        "seats": {
            code: _seat(listed[code], names[code], world["sites"][n], options["mode"]) for n, code in enumerate(seating)
        },
        "world": {k: world[k] for k in ("width", "height", "terrain")},
        "territory": [FREE * world["width"]] * world["height"],
        "cities": {},
        "groups": {},
        "next_group": 1,
        "rails": [],
        "wars": [],
        "borders": [],
        "alliances": [],
        "proposals": [],
        "standing": {},
        "alliances_closed": False,
        "result": None,
    }
    if options["mode"] != economy.ORIGINAL:
        state = _laid_out(state)
    return state


def _seat(listed: JSONObject, player: str, site: list[int], mode: str) -> JSONObject:
    """A seat's record. site: where gm suggests (and, if none is ordered, founds) its capital.
    lost: cities captured from it that it has not got back, each once (rule D-MC-11); captor:
    who captured its capital. fell: the round it capitulated or went out, fate: which of the two
    ("capitulated", "out (no city)"). routed: War Bounty's
    50 E$ for all its troops has been paid, which happens once a game (rule D-MC-15)."""
    return {
        "name": player,
        "nation": listed["name"],
        "colour": listed["colour"],
        "mark": listed["mark"],
        "money": START_MONEY[mode],
        "alive": True,
        "capital": None,
        "founded": 0,
        "rail_stock": 0,
        "lost": [],
        "captor": None,
        "fell": None,
        "fate": None,
        "routed": False,
        "site": list(site),
    }


def _laid_out(state: JSONObject) -> JSONObject:
    """War Bounty and Land Game start with land (and cities) already held: gm founds each
    capital on its site and grows the territories together, a block each in turn."""
    turn = Turn(state)
    mode = turn.mode
    for seat in state["seating"]:
        x, y = turn.seats[seat]["site"]
        cities.found_capital(turn, seat, turn.board.index(x, y), " (laid out by gm)")
    grown = _grow(turn, START_BLOCKS[mode])
    if mode == economy.WAR_BOUNTY:
        # Every empire's naval city first, then the other cities: a city of one empire laid
        # out before another's naval city could stand within 5 blocks of that empire's only
        # coast (rule D-MC-4), and "1 Naval Base" would have no city to stand in.
        near = cities.near_cities(turn)
        for seat in state["seating"]:
            _reach_the_water(turn, seat, grown[seat], near)
            _naval_city(turn, seat, near)
        for seat in state["seating"]:
            _war_bounty_empire(turn, seat, near)
    turn.events.clear()
    return turn.finish()


def _grow(turn: Turn, blocks: int) -> dict[str, list[int]]:
    """Grow every territory to `blocks`, a block each in turn, nearest its capital first.
    Returns each seat's blocks in the order it took them (after the capital's square): every
    one touches one taken before it, so any first part of the list with the square is land in
    one piece."""
    board = turn.board
    taken_by: dict[str, list[int]] = {seat: [] for seat in turn.state["seating"]}
    frontier: dict[str, list[tuple[int, int]]] = {}
    size: dict[str, int] = {}
    for seat in turn.state["seating"]:
        centre = turn.city_block(turn.seats[seat]["capital"])
        frontier[seat] = []
        size[seat] = turn.blocks_of(seat)
        for i in board.around(centre):
            if turn.owner(i) == seat:
                _push(turn, frontier[seat], centre, i)
    growing = list(turn.state["seating"])
    while growing:
        for seat in list(growing):
            centre = turn.city_block(turn.seats[seat]["capital"])
            taken = None
            while frontier[seat] and taken is None:
                _, i = heapq.heappop(frontier[seat])
                if turn.owner(i) is None and not board.water[i]:
                    taken = i
            if taken is None or size[seat] >= blocks:
                growing.remove(seat)
                continue
            turn.claim(taken, seat)
            taken_by[seat].append(taken)
            size[seat] += 1
            _push(turn, frontier[seat], centre, taken)
    return taken_by


def _reach_the_water(turn: Turn, seat: str, grown: list[int], near: set[int]) -> None:
    """War Bounty starts with "1 Naval Base", and "Naval Bases can only be built in cities
    adjacent to water": a territory grown round a capital far inland (the generator puts
    capitals on the largest land mass, some 20 to 30 blocks from any water) has no block beside
    water, or none a city may stand on (each is within 5 blocks of a city, rule D-MC-4). Then
    the territory reaches the water by a strip of free land to the nearest free block beside it
    that a city may stand on, giving up as many of its last-grown blocks, so that it keeps its
    size and stays in one piece. Unchanged when it has such a block, or when no free land leads
    to one. near: the blocks within 5 of a city."""
    board = turn.board
    own = turn.territory(seat)
    if any(board.coastal[i] and i not in near for i in own):
        return
    base = len(own) - len(grown)  # the capital's square
    best: tuple[int, list[int]] | None = None
    for keep in range(len(grown), -1, -1):
        strip = _strip_to_water(turn, set(own) - set(grown[keep:]), set(grown[keep:]), near)
        if strip is None:
            return
        if keep + len(strip) <= len(grown):
            best = (keep, strip)
            break
    if best is None:
        return
    keep, strip = best
    for i in grown[keep:]:
        turn.claim(i, None)
    for i in strip:
        turn.claim(i, seat)
    extra = [i for i in grown[keep:] if i not in strip]
    for i in extra[: len(grown) - keep - len(strip)]:  # back in growing order: each touches one kept
        turn.claim(i, seat)
    assert turn.blocks_of(seat) == base + len(grown)


def _strip_to_water(turn: Turn, kept: set[int], given_up: set[int], near: set[int]) -> list[int] | None:
    """The fewest blocks of free land (or of those `given_up`) joining `kept` to a block beside
    water that is not `near` a city, that block last; None when there is no such way."""
    board = turn.board
    came: dict[int, int] = {i: -1 for i in kept}
    queue = deque(sorted(kept))
    while queue:
        i = queue.popleft()
        if i not in kept and board.coastal[i] and i not in near:
            strip = []
            while i not in kept:
                strip.append(i)
                i = came[i]
            return strip[::-1]
        for n in board.neighbours[i]:
            if n not in came and not board.water[n] and (turn.owner(n) is None or n in given_up):
                came[n] = i
                queue.append(n)
    return None


def _push(turn: Turn, heap: list[tuple[int, int]], centre: int, i: int) -> None:
    board = turn.board
    cx, cy = board.xy(centre)
    for n in board.neighbours[i]:
        if turn.owner(n) is None and not board.water[n]:
            x, y = board.xy(n)
            heapq.heappush(heap, ((x - cx) ** 2 + (y - cy) ** 2, n))


def _naval_city(turn: Turn, seat: str, near: set[int]) -> None:
    """ "1 Naval Base": the empire's first regular city on its coastal block nearest its
    capital that a city may stand on, with the naval base (none when it has no such block)."""
    board = turn.board
    capital = turn.city_block(turn.seats[seat]["capital"])
    coastal = sorted(
        (i for i in turn.territory(seat) if board.coastal[i] and i not in near),
        key=lambda i: (board.distance(i, capital), i),
    )
    if coastal:
        cid = cities.found_city(turn, seat, coastal[0])
        turn.cities[cid]["naval"] = True
        cities.add_near(turn, near, *board.xy(coastal[0]))
    turn.bought_city.discard(seat)


def _war_bounty_empire(turn: Turn, seat: str, near: set[int]) -> None:
    """ "5 cities (including capital) ... 30 troops (6 in each city) ... 1 Naval Base, 1
    Transport Infrastructure": the cities (the naval one already founded) spread over its land.
    near: the blocks within 5 of a city, own land away from every city being fit for one."""
    capital = turn.seats[seat]["capital"]
    board = turn.board
    own = turn.territory(seat)
    while len(turn.cities_of(seat)) < WAR_BOUNTY_CITIES:
        spots = [i for i in own if i not in near]
        if not spots:
            break
        mine = [turn.city_block(c) for c in turn.cities_of(seat)]
        best = max(spots, key=lambda i: (min(board.distance(i, c) for c in mine), -i))
        cities.found_city(turn, seat, best)
        cities.add_near(turn, near, *board.xy(best))
    turn.bought_city.discard(seat)
    turn.cities[capital]["transport"] = True
    for cid in turn.cities_of(seat):
        centre = turn.city_block(cid)
        gid = turn.group_of(seat, centre)
        if gid:
            turn.groups[gid]["troops"] = MAX_TROOPS
        else:
            turn.new_group(seat, centre, MAX_TROOPS)
