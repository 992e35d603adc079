"""Wonders & Warriors: warriors (build, activate, upgrade, move, displace, chase the robber), the
dragon (rules D-IM-6, D-IM-11) and the event die."""

from __future__ import annotations

from collections import deque
from typing import cast

from gm.core.model import JSONObject, Order

from .awards import longest
from .board import Geometry
from .goods import COSTS, IMPROVEMENTS, LIMITS, pay
from .places import PIPS, pieces_of
from .robber import move_robber
from .setup import order_of_play
from .turn import Turn
from .wonders import STRATEGIC_LEVEL, free_towns, give_card, hand_limit, wrong_mode

PIECES_PER_LEVEL = 2  # 2 regular, 2 strong and 2 mighty warriors a player, as the implementation has them
LEVEL_NAMES = {1: "regular", 2: "strong", 3: "mighty"}
DRAGON_STEPS = 7  # rule D-IM-6
DRAGONSLAYER_POINTS = 8  # the implementation's Defender points for a whole game (rule D-IM-10)


def warriors_of(state: JSONObject, seat: str, level: int | None = None) -> list[int]:
    return sorted(
        int(v) for v, w in state["warriors"].items() if w["owner"] == seat and (level is None or w["level"] == level)
    )


def strength(state: JSONObject, seat: str) -> int:
    """The strength of a seat's active warriors: 1, 2 or 3 each (rule D-IM-6)."""
    return sum(w["level"] for w in state["warriors"].values() if w["owner"] == seat and w["active"])


def build_warrior(turn: Turn, seat: str, order: Order, vertex: int) -> None:
    if wrong_mode(turn, seat, order):
        return
    state, geo = turn.state, turn.geo
    problem = warrior_place_problem(state, geo, seat, vertex, turn.name(seat))
    problem = problem or turn.lacks(seat, COSTS["warrior"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, COSTS["warrior"])
    state["warriors"][str(vertex)] = {"owner": seat, "level": 1, "active": False, "activated": None}
    turn.add(
        "warrior",
        f"{turn.name(seat)} places a regular warrior at vertex {vertex}.",
        seat=seat,
        vertex=vertex,
        free=False,
    )


def warrior_place_problem(state: JSONObject, geo: Geometry, seat: str, vertex: int, name: str) -> str | None:
    if not geo.is_vertex(vertex):
        return f"{vertex} is not a vertex of this island"
    if str(vertex) in state["buildings"] or str(vertex) in state["warriors"]:
        return f"vertex {vertex} is not empty"
    if not any(state["roads"].get(e) == seat for e in geo.vertex_edges[vertex]):
        return f"vertex {vertex} is not at the end of one of {name}'s roads"
    if len(warriors_of(state, seat, 1)) >= PIECES_PER_LEVEL:
        return f"{name} has {PIECES_PER_LEVEL} regular warriors on the board already"
    return None


def own_warrior(turn: Turn, seat: str, order: Order, vertex: int) -> JSONObject | None:
    warrior: JSONObject | None = turn.state["warriors"].get(str(vertex))
    if warrior is None or warrior["owner"] != seat:
        turn.failed(seat, order, f"{turn.name(seat)} has no warrior at vertex {vertex}")
        return None
    return warrior


def activate(turn: Turn, seat: str, order: Order, vertex: int) -> None:
    if wrong_mode(turn, seat, order):
        return
    warrior = own_warrior(turn, seat, order, vertex)
    if warrior is None:
        return
    if warrior["active"]:
        return turn.failed(seat, order, f"the warrior at vertex {vertex} is active already")
    problem = turn.lacks(seat, COSTS["activate"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(turn.state, seat, COSTS["activate"])
    warrior.update(active=True, activated=turn.state["round"])
    turn.add("activate", f"{turn.name(seat)} activates the warrior at vertex {vertex}.", seat=seat, vertex=vertex)


def upgrade_problem(state: JSONObject, seat: str, warrior: JSONObject, vertex: int) -> str | None:
    level = warrior["level"]
    if level >= 3:
        return f"the warrior at vertex {vertex} is mighty; it cannot be upgraded further"
    if level == 2 and state["seats"][seat]["improvements"]["military"] < STRATEGIC_LEVEL:
        return "a mighty warrior needs the barracks (3 military improvements)"
    if len(warriors_of(state, seat, level + 1)) >= PIECES_PER_LEVEL:
        return f"there are {PIECES_PER_LEVEL} {LEVEL_NAMES[level + 1]} warriors on the board already"
    return None


def upgrade(turn: Turn, seat: str, order: Order, vertex: int, free: bool = False) -> str | None:
    if wrong_mode(turn, seat, order):
        return None
    warrior = own_warrior(turn, seat, order, vertex)
    if warrior is None:
        return None
    problem = upgrade_problem(turn.state, seat, warrior, vertex)
    problem = problem or (None if free else turn.lacks(seat, COSTS["upgrade"]))
    if problem:
        turn.failed(seat, order, problem)
        return problem
    if not free:
        pay(turn.state, seat, COSTS["upgrade"])
    warrior["level"] += 1
    turn.add(
        "upgrade",
        f"{turn.name(seat)} makes the warrior at vertex {vertex} {LEVEL_NAMES[warrior['level']]}.",
        seat=seat,
        vertex=vertex,
        level=warrior["level"],
        free=free,
    )
    return None


def ready(turn: Turn, seat: str, order: Order, vertex: int) -> JSONObject | None:
    """A warrior that may act: the seat's, active, and not activated in this turn."""
    warrior = own_warrior(turn, seat, order, vertex)
    if warrior is None:
        return None
    if not warrior["active"]:
        turn.failed(seat, order, f"the warrior at vertex {vertex} is not active")
        return None
    if warrior["activated"] == turn.state["round"]:
        turn.failed(seat, order, f"the warrior at vertex {vertex} was activated this turn; it may act next turn")
        return None
    return warrior


def route_from(state: JSONObject, geo: Geometry, seat: str, start: int) -> dict[int, int]:
    """Vertex -> steps, for every vertex a seat's warrior at `start` can reach along the seat's
    connected roads, passing any corner without another player's village or town; warriors,
    its owner's or another's, do not interrupt the way (rule D-IM-12)."""
    reached, queue = {start: 0}, deque([start])
    while queue:
        at = queue.popleft()
        if at != start and state["buildings"].get(str(at), {}).get("owner", seat) != seat:
            continue  # the corner of another player's village or town: the way ends there
        for edge in geo.vertex_edges[at]:
            if state["roads"].get(edge) != seat:
                continue
            a, b = geo.edge_ends[edge]
            other = b if a == at else a
            if other not in reached:
                reached[other] = reached[at] + 1
                queue.append(other)
    return reached


def move_warrior(turn: Turn, seat: str, order: Order, start: int, end: int) -> None:
    if wrong_mode(turn, seat, order):
        return
    state, geo = turn.state, turn.geo
    warrior = ready(turn, seat, order, start)
    if warrior is None:
        return
    if not geo.is_vertex(end) or end == start or end not in route_from(state, geo, seat, start):
        return turn.failed(seat, order, f"vertex {end} cannot be reached along {turn.name(seat)}'s roads")
    if str(end) in state["buildings"]:
        return turn.failed(seat, order, f"a settlement stands on vertex {end}")
    other = state["warriors"].get(str(end))
    if other is not None and (other["owner"] == seat or other["level"] >= warrior["level"]):
        return turn.failed(seat, order, f"the warrior at vertex {end} is not a weaker warrior of another player")
    del state["warriors"][str(start)]
    warrior["active"] = False
    state["warriors"][str(end)] = warrior
    turn.add(
        "warrior_moves",
        f"{turn.name(seat)}'s warrior moves from vertex {start} to {end}.",
        seat=seat,
        start=start,
        end=end,
    )
    if other is not None:
        displace(turn, other, end, vacated=start)


def displace(turn: Turn, warrior: JSONObject, at: int, vacated: int | None = None) -> None:
    # gm's choice: the displaced warrior goes to the nearest empty vertex its owner's roads reach
    # (lowest number on a tie); with none, it leaves the board. vacated: the corner its displacer
    # came from, not free to it (the implementation displaces before the displacer leaves it).
    state, geo = turn.state, turn.geo
    owner = warrior["owner"]
    reach = route_from(state, geo, owner, at)
    taken = {at, vacated} | {int(v) for v in state["warriors"]} | {int(v) for v in state["buildings"]}
    free = [v for v in reach if v not in taken]
    if not free:
        turn.add(
            "warrior_removed",
            f"{turn.name(owner)}'s warrior is displaced from vertex {at} and, with nowhere to go, leaves the board.",
            seat=owner,
            vertex=at,
        )
        return
    to = min(free, key=lambda v: (reach[v], v))
    state["warriors"][str(to)] = warrior
    turn.add(
        "warrior_displaced",
        f"{turn.name(owner)}'s warrior is displaced from vertex {at} to {to}.",
        seat=owner,
        start=at,
        end=to,
    )


def chase(turn: Turn, seat: str, order: Order, vertex: int, tile: str | None, victim: str | None) -> None:
    if wrong_mode(turn, seat, order):
        return
    state, geo = turn.state, turn.geo
    warrior = ready(turn, seat, order, vertex)
    if warrior is None:
        return
    if state["robber"] not in geo.vertex_tiles[vertex]:
        return turn.failed(seat, order, f"the robber is not on a tile next to vertex {vertex}")
    warrior["active"] = False
    turn.add(
        "chase", f"{turn.name(seat)}'s warrior at vertex {vertex} chases the robber away.", seat=seat, vertex=vertex
    )
    move_robber(turn, seat, tile, victim)


# ----------------------------------------------------------------------------------------------
# The dragon (rule D-IM-6).


def dragon_step(turn: Turn) -> None:
    state = turn.state
    state["dragon"] += 1
    left = DRAGON_STEPS - state["dragon"]
    turn.add(
        "dragon",
        f"The event die shows black: the dragon comes one step closer ({state['dragon']} of {DRAGON_STEPS}).",
        step=state["dragon"],
    )
    if left <= 0:
        battle(turn)
        state["dragon"] = 0


def active_warriors(state: JSONObject, seat: str) -> int:
    """How many active warriors a seat has, whatever their levels: the dragon's verdict counts
    these (rule D-IM-11), its defence their strengths (rule D-IM-6)."""
    return sum(1 for w in state["warriors"].values() if w["owner"] == seat and w["active"])


def battle(turn: Turn) -> None:
    state = turn.state
    attack = sum(1 for b in state["buildings"].values() if b["kind"] == "town")
    defence = {seat: strength(state, seat) for seat in state["seating"]}
    counts = {seat: active_warriors(state, seat) for seat in state["seating"]}
    total = sum(defence.values())
    won = total >= attack
    forces = ", ".join(f"{turn.name(s)} {n}" for s, n in defence.items())
    turn.add(
        "dragon_battle",
        f"The dragon reaches the island with strength {attack} (the towns on "
        f"the board); the warriors' strength is {total} ({forces}): the dragon is "
        f"{'defeated' if won else 'not stopped'}.",
        attack=attack,
        defence=total,
        forces=defence,
        warriors=counts,
        won=won,
    )
    if won:
        _reward(turn, counts)
    else:
        _demote(turn, counts)
    for warrior in state["warriors"].values():
        warrior["active"] = False


def _reward(turn: Turn, counts: JSONObject) -> None:
    """ "If one player has more active warriors than any other player, they receive an extra
    victory point"; an equal number shares the card reward (rule D-IM-11), none included: the
    book's "an equal number" and the implementation's count both take it in."""
    top = max(counts.values(), default=0)
    leaders = [s for s in turn.state["seating"] if counts[s] == top]
    if len(leaders) == 1:
        return _dragonslayer(turn, leaders[0], top)
    for seat in leaders:
        give_card(turn, seat, dragon_colour(turn.state, seat), "a share of the dragon's defeat")


def _dragonslayer(turn: Turn, seat: str, count: int) -> None:
    # The implementation holds DRAGONSLAYER_POINTS points for the whole game (rule D-IM-10).
    state = turn.state
    if state["dragonslayer_left"] <= 0:
        turn.add(
            "dragonslayer",
            f"{turn.name(seat)} has the most active warriors ({count}), but all {DRAGONSLAYER_POINTS} "
            "Dragonslayer points have been won: no point this time.",
            seat=seat,
            point=False,
        )
        return
    state["dragonslayer_left"] -= 1
    turn.seats[seat]["dragonslayer"] += 1
    turn.add(
        "dragonslayer",
        f"{turn.name(seat)} has the most active warriors ({count}) and is the Dragonslayer: 1 victory point.",
        seat=seat,
        point=True,
    )


def dragon_colour(state: JSONObject, seat: str) -> str:
    """The deck a seat takes its card from after a tied victory: its DRAGON answer, else the
    colour of its most improvements (science, trade, military on a tie) with cards left."""
    me = state["seats"][seat]
    wanted: str | None = me["standing"].get("dragon")
    if wanted in IMPROVEMENTS and state["decks"][wanted]:
        return wanted
    ranked = sorted(IMPROVEMENTS, key=lambda c: (-me["improvements"][c], IMPROVEMENTS.index(c)))
    return next((c for c in ranked if state["decks"][c]), ranked[0])


def _demote(turn: Turn, counts: JSONObject) -> None:
    """The players with the fewest active warriors, among those with a town not holding a
    wonder, lose a town each (rule D-IM-11)."""
    state = turn.state
    exposed = [s for s in state["seating"] if free_towns(state, s)]
    if not exposed:
        return
    low = min(counts[s] for s in exposed)
    for seat in (s for s in exposed if counts[s] == low):
        towns = free_towns(state, seat)
        wanted = [v for v in state["seats"][seat]["standing"].get("demote", []) if v in towns]
        burn(turn, seat, wanted[0] if wanted else min(towns, key=lambda v: (_worth(turn, v), v)))


def burn(turn: Turn, seat: str, vertex: int) -> None:
    """The dragon makes a town a village again, fence gone; a player who has 5 villages on the
    board already loses the town outright, its place free (rule D-IM-13)."""
    state = turn.state
    if len(pieces_of(state, seat, "village")) >= LIMITS["village"]:
        del state["buildings"][str(vertex)]
        turn.add(
            "demote",
            f"The dragon burns {turn.name(seat)}'s town at vertex {vertex}: with {LIMITS['village']} "
            "villages on the board already, nothing of it is left.",
            seat=seat,
            vertex=vertex,
            removed=True,
        )
        longest(turn)  # a settlement gone no longer interrupts another player's route
        return
    state["buildings"][str(vertex)].update(kind="village", fence=False)
    turn.add(
        "demote",
        f"The dragon burns {turn.name(seat)}'s town at vertex {vertex}: it is a "
        "village again (its fence, if any, is gone).",
        seat=seat,
        vertex=vertex,
        removed=False,
    )


def _worth(turn: Turn, vertex: int) -> int:
    tiles = turn.state["board"]["tiles"]
    return sum(PIPS.get(tiles[c]["number"], 0) for c in turn.geo.vertex_tiles[vertex] if not tiles[c]["fog"])


# ----------------------------------------------------------------------------------------------
# The event die.


def event_die(turn: Turn, record: JSONObject) -> None:
    """The event die: black moves the dragon; a colour gives that colour's card to every player
    with at least 1 improvement of it and at least (red die - 1) (rule D-IM-5), in order of play
    from the roller; then each other player over the hand limit gives cards back, in the same
    order (the book is silent on the order; the implementation deals every card first,
    game/dice.go RollEventDiceWith, so a card given back is not dealt again in the same roll)."""
    face = record["event"]
    if face == "black":
        return dragon_step(turn)
    state = turn.state
    need = max(1, record["red"] - 1)
    sequence = order_of_play(state)
    start = sequence.index(cast(str, turn.mover))  # events happen on a mover's turn
    rotation = sequence[start:] + sequence[:start]
    for seat in rotation:
        level = state["seats"][seat]["improvements"][face]
        if level >= need:
            give_card(turn, seat, face, f"{face} {level}, red die {record['red']}", limit=False)
    for seat in rotation[1:]:
        hand_limit(turn, seat)
