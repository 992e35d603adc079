"""Imperials orders: the parser (grammar.py) and the check of a seat's orders against the state
of the turn being collected. What can be known at submission is a line-numbered problem: a
village too close to another, a road that does not connect (the seat's own earlier orders in the
file count), a trade of one type for itself, an action card played in the turn it is bought.
What depends on the dice and the other players' turns (the cards in hand when the order runs)
is checked when it runs, and a failure there is an event in the report."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from gm.core.model import JSONObject, Order, Problem

from .board import Geometry
from .cards import TITLES, WONDERS_DECKS, other_mode
from .goods import FENCE_LIMIT, LIMITS, RESOURCES, Cards
from .grammar import ACTIONS, CARD_ARGS, SETUP, STANDING, WONDERS_ONLY, parse_orders, well_formed
from .military import deserted, deserter_spot, open_roads
from .places import count, road_problem, town_problem, village_problem
from .science import FIXED_NUMBERS
from .setup import order_of_play
from .trade import offer_problem
from .turn import board_geometry, voice
from .warnings import order_warnings as hand_warnings
from .warriors import DRAGON_STEPS, PIECES_PER_LEVEL, route_from, warrior_place_problem, warriors_of

__all__ = ["parse_orders", "check_orders", "check_alone", "order_problem", "order_warnings", "Plan"]


def check_orders(state: JSONObject, seat: str, orders: list[Order], alone: bool = False) -> list[Problem]:
    """The problems with a seat's orders now; an empty list means the orders are accepted.
    alone: as if nobody played before the seat, so that no order stands on a place another
    player may free (the order form's examples)."""
    if seat not in state["seats"]:
        return [Problem(0, f"{seat} has no seat in this game")]
    if state["phase"] == "over":
        return [Problem(getattr(o, "line", 0), "the game is over; no orders are needed") for o in orders]
    problems: list[Problem] = []
    plan = Plan(state, seat, alone)
    for order in orders:
        message = order_problem(plan, order)
        if message:
            problems.append(Problem(order.line if isinstance(order, Order) else 0, message))
    return sorted(problems, key=lambda p: p.line)


def check_alone(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    return check_orders(state, seat, orders, alone=True)


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is probably a slip (warnings.py), and each limit the check let pass because a player
    before the seat in the round may yet free a place (rule D-ALL-3). Never raises: the orders
    may be the ones the check refused."""
    found = hand_warnings(state, seat, orders)
    if seat in state.get("seats", {}) and state.get("phase") == "play":
        plan = Plan(state, seat)
        for order in orders:
            order_problem(plan, order)
        found += [Problem(line, message) for line, message in plan.maybe]
    return sorted(found, key=lambda p: p.line)


class Plan:
    """The board as the seat's own orders so far would leave it (costs and dice aside), so each
    order is checked against the ones written before it."""

    def __init__(self, state: JSONObject, seat: str, alone: bool = False):
        self.state = {
            **state,
            "roads": dict(state["roads"]),
            "buildings": {v: dict(b) for v, b in state["buildings"].items()},
            "warriors": {v: dict(w) for v, w in state["warriors"].items()},
            "board": {**state["board"], "tiles": {c: dict(t) for c, t in state["board"]["tiles"].items()}},
        }
        self.seat, self.geo = seat, board_geometry(state)
        self.fogged = {c for c, t in state["board"]["tiles"].items() if t["fog"]}  # as the seat sees it now
        self.you = voice(state, seat, you=True)
        self.bought = False
        self.plays = 0
        self.alchemist = False
        self.line = 0  # the line of the order being checked
        # Places a player before the seat in the round may yet free (rule D-ALL-3), used up as
        # orders past a limit stand on them; maybe: (line, why the order may still fail).
        self.freed = {} if alone else _may_be_freed(state, seat)
        sequence = order_of_play(state)
        # Whether a player plays before the seat in the coming round (rule D-ALL-4).
        self.later = not alone and state["phase"] == "play" and seat in sequence[1:]
        self.open = set(open_roads(state, self.geo)) if self.freed.get("diplomat") else set()
        self.towns = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat and b["kind"] == "town"}
        # Whether the dragon may reach the island before the seat's actions (its war deactivates
        # every warrior and may burn towns), and the corners where this file puts a warrior.
        self.war = not alone and dragon_may_come(state, seat)
        self.placed: set[int] = set()
        self.maybe: list[tuple[int, str]] = []

    def stands_if_freed(self, what: str, message: str, unless: str, places: int = 1) -> bool:
        """Whether an order refused for want of places (`what`) stands on ones a player before
        the seat may free; if so the warning says it fails unless that happens."""
        if places < 1 or self.freed.get(what, 0) < places:
            return False
        self.freed[what] -= places
        self.maybe.append((self.line, f"{message}: it fails unless {unless} before your turn"))
        return True

    def doomed(self, message: str) -> str | None:
        """An order the seat's own pieces already doom: a warning, not a problem (None). It fails
        on its own when the turn runs and is reported (rule D-ALL-3), so it neither refuses the
        seat's whole file nor makes a case written from the book see a problem; the plan goes on
        as if it stood."""
        self.maybe.append((self.line, f"{message}: this order will fail when the turn runs"))
        return None


def _may_be_freed(state: JSONObject, seat: str) -> dict[str, int]:
    """How many towns, roads and regular warriors of the seat's may leave the board before its
    actions in the coming round, by what happens in the turns before them (its own roll
    included). Wonders & Warriors only: in the Basic game no piece ever leaves the board.
    A town: the dragon, when the rolls up to the seat's own may bring it to the island and the
    seat has a town without a wonder to lose (one at most: it comes once in 7 black rolls).
    A road: a Diplomat of a player before the seat removes an open road (there are 2 Diplomats),
    one of the seat's under the limit or one on the edge it wants. A regular warrior: a Deserter, an Intrigue or a displacement by a player
    before it (each of the seat's regular warriors may go)."""
    if state.get("mode") != "wonders" or state.get("phase") != "play":
        return {}
    sequence = order_of_play(state)
    before = sequence.index(seat) if seat in sequence else 0
    towns = [b for b in state["buildings"].values() if b["owner"] == seat and b["kind"] == "town"]
    dragon = dragon_may_come(state, seat) and any(not b.get("wonder") for b in towns)
    return {
        "town": 1 if dragon else 0,
        "diplomat": WONDERS_DECKS["military"]["diplomat"] if before else 0,
        "warrior": len(warriors_of(state, seat, 1)) if before else 0,
    }


def dragon_may_come(state: JSONObject, seat: str) -> bool:
    """Whether the dragon may reach the island in the coming round before the seat's actions:
    the steps it lacks are no more than the rolls up to the seat's own (Wonders & Warriors)."""
    if state.get("mode") != "wonders" or state.get("phase") != "play":
        return False
    sequence = order_of_play(state)
    before = sequence.index(seat) if seat in sequence else 0
    return bool(DRAGON_STEPS - state["dragon"] <= before + 1)


def order_problem(plan: Plan, order: Order) -> str | None:
    """Why one order cannot stand after the seat's earlier ones in the plan (None if it can);
    an order that can stand is added to the plan. The robot checks its own orders with it."""
    if not well_formed(order):
        return "this order could not be read"
    state, verb = plan.state, order.verb
    plan.line = order.line
    if state["mode"] == "basic" and verb in WONDERS_ONLY:
        return f"{verb} is an order of Wonders & Warriors; this game plays the Basic rules"
    if verb in STANDING:
        return _standing_problem(plan, order)
    if state["phase"] == "setup":
        if verb not in SETUP:
            return (
                f"{verb} is not an order for this turn: this turn is the set-up; list where "
                "you want your villages with SETTLE <vertex> <edge>, best first"
            )
        return _settle_problem(plan, *order.args)
    if verb in SETUP:
        return "the set-up is over: SETTLE is only for the first turn"
    check = CHECKS.get(verb)
    return None if check is None else check(plan, *order.args)


def _settle_problem(plan: Plan, vertex: int, edge: str) -> str | None:
    geo = plan.geo
    if not geo.is_vertex(vertex):
        return f"{vertex} is not a vertex of this island (they are numbered 1 to {geo.vertex_count})"
    if edge is not None:
        if edge not in geo.edge_ends:
            return f"{edge} is not an edge of this island: name an edge by the two vertices at its ends"
        if vertex not in geo.edge_ends[edge]:
            return f"the road {edge} does not touch vertex {vertex}"
    return None


def _road(plan: Plan, edge: str) -> str | None:
    problem = road_problem(plan.state, plan.geo, plan.seat, edge, plan.you)
    if problem and _stands_past_diplomats(plan, edge, problem):
        problem = None
    if problem is None:
        lay_road(plan.state, plan.geo, plan.seat, edge)
    return problem


def lay_road(state: JSONObject, geo: Geometry, seat: str, edge: str) -> None:
    """A road the seat's orders build, in a plan of the board: it lifts the fog round its ends.
    The player's own check (offline.py) plans the Basic board with it too."""
    state["roads"][edge] = seat
    for end in geo.edge_ends[edge]:
        for code in geo.vertex_tiles[end]:
            state["board"]["tiles"][code]["fog"] = False


def _stands_past_diplomats(plan: Plan, edge: str, problem: str) -> bool:
    """Whether a ROAD refused on an edge another road holds, or past the limit of 15, stands
    where it would with that road gone, or one of the seat's: Diplomats played before the seat's
    turn (Wonders & Warriors) may remove an open road. Either must be open now."""
    if not plan.freed.get("diplomat") or edge not in plan.geo.edge_ends:
        return False
    roads, ends = plan.state["roads"], set(plan.geo.edge_ends[edge])
    gone, unless = [], []
    holder = roads.get(edge)
    if holder is not None:
        if edge not in plan.open:
            return False
        gone.append(edge)
        unless.append("the road on it")
    if count(plan.state, plan.seat, "road") - (holder == plan.seat) >= LIMITS["road"]:
        # one of the seat's open roads; the plan takes one that neither helps nor hinders this
        spare = next(
            (e for e, o in roads.items() if o == plan.seat and e != edge and not ends & set(plan.geo.edge_ends[e])),
            None,
        )
        if spare is None or not any(roads.get(e) == plan.seat for e in plan.open - {edge}):
            return False
        gone.append(spare)
        unless.append("one of your roads")
    if not gone:
        return False
    kept = {e: roads.pop(e) for e in gone}
    fewer = road_problem(plan.state, plan.geo, plan.seat, edge, plan.you)
    roads.update(kept)
    whom = " and ".join(unless)
    return fewer is None and plan.stands_if_freed(
        "diplomat", problem, f"{'a Diplomat removes' if len(gone) == 1 else 'Diplomats remove'} {whom}", len(gone)
    )


def _past_a_warrior(plan: Plan, vertex: int, check: Callable[[], str | None]) -> str | None:
    """A check of a corner as if another player's warrior there had left it: it may leave before
    the order runs (its owner's MOVE, a displacement, an Intrigue or a Deserter earlier in the
    round), so its being there now refuses nothing; if it stays, the order fails when it runs
    (rule D-ALL-3), and a warning says so. When the order can stand the plan drops the warrior."""
    key = str(vertex)
    warrior = plan.state["warriors"].get(key)
    if warrior is None or warrior["owner"] == plan.seat:
        return check()
    del plan.state["warriors"][key]
    problem = check()
    if problem:
        plan.state["warriors"][key] = warrior
    return problem


def _village(plan: Plan, vertex: int) -> str | None:
    problem = _past_a_warrior(plan, vertex, lambda: village_problem(plan.state, plan.geo, plan.seat, vertex, plan.you))
    if problem is None:
        plan.state["buildings"][str(vertex)] = {"owner": plan.seat, "kind": "village", "fence": False, "wonder": None}
    return problem


def _town(plan: Plan, vertex: int) -> str | None:
    problem = town_problem(plan.state, plan.geo, plan.seat, vertex, plan.you)
    building = plan.state["buildings"].get(str(vertex))
    if problem and building is not None and building["owner"] == plan.seat:
        # Wonders & Warriors: the dragon may burn a town of the seat's before its turn, which
        # frees a place under the limit, or makes a town it held a village again.
        unless = None
        if building["kind"] == "village":
            unless = "the dragon burns one of your towns"
        elif vertex in plan.towns and not building.get("wonder"):
            unless = "the dragon burns it"
        if unless and plan.stands_if_freed("town", problem, unless):
            problem = None
    if problem is None:
        plan.state["buildings"][str(vertex)]["kind"] = "town"
    return problem


def _buy(plan: Plan) -> str | None:
    if plan.state["mode"] == "wonders":
        return "in Wonders & Warriors action cards come from improvements and cannot be bought"
    plan.bought = True
    return None


def _play(plan: Plan, card: str, *args: str | int) -> str | None:
    state = plan.state
    mode = state["mode"]
    if other_mode(card, mode):
        return other_mode(card, mode)
    plan.plays += 1
    if mode == "basic":
        if plan.plays > 1:
            return "only one action card may be played in a turn: this is a second PLAY"
        held = [c["card"] for c in state["seats"][plan.seat]["cards"]]
        if card not in held:
            if plan.bought:
                return f"you hold no {TITLES[card]} card now, and a card cannot be played in the turn it is bought"
            return f"you hold no {TITLES[card]} card"
    if card == "alchemist" and plan.alchemist:
        return "one Alchemist a turn: it sets the dice of your roll"
    plan.alchemist = plan.alchemist or card == "alchemist"
    if card == "inventor" and len(args) == 2 and args[0] == args[1]:
        return plan.doomed("the Inventor swaps the numbers of two different tiles")
    _, kinds = CARD_ARGS[card]
    for kind, arg in zip(kinds, args):
        problem = _arg_problem(plan, card, kind, arg)
        if problem:
            return problem
    check = _CARD_CHECKS.get(card)
    if check is not None:
        doom = check(plan, *args)
        return plan.doomed(doom) if doom else None
    effect = _PLAN_EFFECTS.get(card)
    if effect is not None:
        effect(plan, *args)
    return None


def _arg_problem(plan: Plan, card: str, kind: str, arg: str | int) -> str | None:
    """What is wrong with one word of a PLAY that can be known when the file arrives."""
    if kind == "tile":
        problem = _tile_problem(plan, cast(str, arg), FOGGED.get(card, FOGGED["robber"]))  # kinds CARD_ARGS names
        return problem or (_swapped_number(plan, cast(str, arg)) if card == "inventor" else None)
    if kind == "seat":
        return _seat_problem(plan, cast(str, arg), "the card")
    if kind == "vertex" and not plan.geo.is_vertex(cast(int, arg)):
        return f"{arg} is not a vertex of this island (they are numbered 1 to {plan.geo.vertex_count})"
    if kind == "edge" and card == "roads":
        return _road(plan, cast(str, arg))
    if kind == "edge" and arg not in plan.geo.edge_ends:
        return f"{arg} is not an edge of this island: name an edge by the two vertices at its ends"
    return None


def _market(plan: Plan, give: str, get: str, most: int | None = None) -> str | None:
    # `most`, the number written, is held against the rate when the trade runs: a port may come
    # earlier in the turn (rule D-ALL-3).
    return market_problem(plan.state["mode"], give, get)


def market_problem(mode: str, give: str, get: str) -> str | None:
    """What the rules forbid in a MARKET trade whatever the hand: the mode and the two goods
    settle it (the player's own check asks it too, offline.py)."""
    if give == get:
        return f"a trade must give one type of card for another, not {give} for {give}"
    if mode == "basic" and (give not in RESOURCES or get not in RESOURCES):
        return "commodities are only in Wonders & Warriors"
    return None


def _offer(plan: Plan, to: str, give: Cards, get: Cards) -> str | None:
    return posting_problem(plan.state, plan.seat, to, give, get)


def posting_problem(state: JSONObject, seat: str, to: str, give: Cards, get: Cards) -> str | None:
    """offer_problem as an OFFER line is answered: an unknown seat told the codes to write.
    It reads the seats, the seating and the mode only (the player's own check builds those
    from the report)."""
    problem = offer_problem(state, seat, to, give, get)
    if problem and problem.startswith(to + " is not a seat"):
        return f"{to} is not a seat in this game; write a seat code ({', '.join(state['seating'])}) or ALL"
    return problem


def _choose_problem(plan: Plan, number: int, *seats: str) -> str | None:
    return choose_problem(plan.state["offers"], plan.state["seating"], plan.seat, number, *seats)


# The answers to offers (ACCEPT, WITHDRAW, CHOOSE) read the open offers and the seating, which
# every report shows: the player's own check (offline.py) asks these same functions.
def choose_problem(offers: list[JSONObject], seating: list[str], seat: str, number: int, *seats: str) -> str | None:
    offer = own_offer(offers, seat, number)
    if offer is None:
        return f"you have no open offer #{number}"
    for code in seats:
        if code == seat:
            return "you cannot trade with yourself"
        problem = stranger(seating, code)
        if problem:
            return problem
        if offer["to"] not in ("ALL", code):
            return f"offer #{number} is made to {offer['to']} only"
    return None


def own_offer(offers: list[JSONObject], seat: str, number: int) -> JSONObject | None:
    return next((o for o in offers if o["id"] == number and o["from"] == seat), None)


def accept_problem(offers: list[JSONObject], seat: str, numbers: tuple[int, ...]) -> str | None:
    for number in numbers:
        offer = next((o for o in offers if o["id"] == number), None)
        if offer is None:
            return f"there is no open offer #{number}"
        if offer["from"] == seat:
            return f"offer #{number} is your own"
        if offer["to"] not in ("ALL", seat):
            return f"offer #{number} is made to {offer['to']}, not to you"
    return None


def withdraw_problem(offers: list[JSONObject], seat: str, number: int) -> str | None:
    return None if own_offer(offers, seat, number) else f"you have no open offer #{number}"


def stranger(seating: list[str], code: str) -> str | None:
    """A seat named as a victim or a partner that is not in the game."""
    return None if code in seating else f"{code} is not a seat in this game ({', '.join(seating)})"


# Why a tile under fog will not do, by what the order names it for: the robber (a ROBBER answer,
# CHASE, the Warrior and Bishop cards), the Inventor's swap or the merchant.
FOGGED = {
    "robber": "the robber cannot go there",
    "inventor": "the Inventor cannot swap its number",
    "merchant": "the merchant cannot go there",
}


def _tile_problem(plan: Plan, code: str, why: str = FOGGED["robber"]) -> str | None:
    tiles = plan.state["board"]["tiles"]
    if code not in tiles:
        return f"{code} is not a tile of this island (they are lettered A to {plan.geo.tiles[-1]})"
    if tiles[code]["fog"]:
        problem = f"tile {code} is under fog; {why}"
        if not plan.later:
            return problem
        # A player before the seat may build a road that lifts the fog (rule D-ALL-3).
        plan.maybe.append((plan.line, f"{problem} now: it counts only if a road built before your turn lifts the fog"))
    return None


def _swapped_number(plan: Plan, code: str) -> str | None:
    """A tile whose number the Inventor may not move: no Inventor ever moves one, so it is known
    now. A tile under fog now hides its number from the seat (rule D-ALL-5): it is left to the
    turn, even where a road of the seat's earlier in the file lifts the fog."""
    tile = plan.state["board"]["tiles"][code]
    if code in plan.fogged or (tile["number"] is not None and tile["number"] not in FIXED_NUMBERS):
        return None
    return plan.doomed(f"the number of tile {code} may not move (the Inventor leaves no number, 2, 12, 6 and 8)")


def _seat_problem(plan: Plan, code: str | None, chooser: str = "the robber") -> str | None:
    """A seat named as a victim (of the robber, or of a card): one not in the game is a problem;
    the seat's own code a warning, as the turn passes over it to gm's choice, the rule's way
    for a victim that will not do (the README's "robber by default" and the cards')."""
    if code is None:
        return None
    if code not in plan.state["seats"]:
        return stranger(plan.state["seating"], code)
    if code == plan.seat:
        plan.maybe.append((plan.line, f"you cannot name yourself: gm chooses the other player for {chooser}"))
    return None


def _improve(plan: Plan, colour: str, vertex: int) -> str | None:
    towns = [v for v, b in plan.state["buildings"].items() if b["owner"] == plan.seat and b["kind"] == "town"]
    if not towns:
        return "improvements need a town, and you have none"
    if vertex is not None and str(vertex) not in towns:
        # The turn builds the improvement all the same and puts a wonder it makes on the
        # lowest-numbered free town, so the file stands (rule D-ALL-3).
        plan.maybe.append(
            (
                plan.line,
                f"vertex {vertex} is not one of your towns: a wonder this improvement makes goes on "
                "your lowest-numbered town without one",
            )
        )
    return None


def _fence(plan: Plan, vertex: int) -> str | None:
    building = plan.state["buildings"].get(str(vertex))
    if building is None or building["owner"] != plan.seat or building["kind"] != "town":
        return f"vertex {vertex} is not one of your towns"
    if building.get("fence"):
        # Only the dragon takes a fence, with its town, and then FENCE fails all the same.
        return plan.doomed(f"the town at vertex {vertex} has a fence already")
    fences = [b for b in plan.state["buildings"].values() if b["owner"] == plan.seat and b.get("fence")]
    if len(fences) >= FENCE_LIMIT:
        problem = f"you have {FENCE_LIMIT} fences, the most a player may build"
        burnable = any(not b.get("wonder") and b["kind"] == "town" for b in fences)
        if not (burnable and plan.stands_if_freed("town", problem, "the dragon burns a town of yours with a fence")):
            return plan.doomed(problem)
    building["fence"] = True
    return None


def _warrior(plan: Plan, vertex: int) -> str | None:
    problem = _past_a_warrior(
        plan, vertex, lambda: warrior_place_problem(plan.state, plan.geo, plan.seat, vertex, "you")
    )
    if problem:
        problem = problem.replace("you's", "your").replace("you has", "you have")
        # Its other conditions met, a warrior past the limit of regular ones stands if one may
        # leave the board in a turn before the seat's (Wonders & Warriors: a Deserter takes it,
        # an Intrigue or a stronger warrior displaces it where it has nowhere to go).
        regulars = len(warriors_of(plan.state, plan.seat, 1)) >= PIECES_PER_LEVEL
        if not (regulars and problem.endswith("on the board already")) or not plan.stands_if_freed(
            "warrior", problem, "a player before you takes or removes one of them"
        ):
            return problem
    plan.state["warriors"][str(vertex)] = {"owner": plan.seat, "level": 1, "active": False, "activated": None}
    plan.placed.add(vertex)
    return None


def _own_warrior(plan: Plan, vertex: int, *rest: object) -> str | None:
    warrior = plan.state["warriors"].get(str(vertex))
    if warrior is None or warrior["owner"] != plan.seat:
        return f"you have no warrior at vertex {vertex}"
    return None


def _activate(plan: Plan, vertex: int) -> str | None:
    """A warrior active now stays active until the dragon's war, which deactivates every
    warrior: only a war that may come by the seat's own roll lets ACTIVATE of it stand."""
    problem = _own_warrior(plan, vertex)
    if problem:
        return problem
    warrior = plan.state["warriors"][str(vertex)]
    if warrior.get("woken"):
        # A Warlord earlier in the file wakes it if the card is played (W&W cards are not
        # checked as held): then this order fails.
        plan.maybe.append(
            (
                plan.line,
                f"the PLAY WARLORD before it activates the warrior at vertex {vertex}: ACTIVATE {vertex} fails if that card is played",
            )
        )
    elif warrior["active"]:
        problem = f"the warrior at vertex {vertex} is active already"
        if warrior.get("activated") == plan.state["round"] or not plan.war:
            return plan.doomed(problem)
        plan.maybe.append((plan.line, f"{problem}: it fails unless the dragon's war deactivates it before your turn"))
    warrior.update(active=True, activated=plan.state["round"], woken=False)
    return None


def _ready(plan: Plan, vertex: int) -> str | None:
    """Why the seat's warrior at a vertex may not act (MOVE, CHASE): nobody else's turn wakes
    a warrior, and one activated earlier in this turn acts next turn (Warriors)."""
    problem = _own_warrior(plan, vertex)
    if problem:
        return problem
    warrior = plan.state["warriors"][str(vertex)]
    if warrior.get("woken"):
        return plan.doomed(
            f"the warrior at vertex {vertex} is not active, and the Warlord activates it only to act next turn"
        )
    if not warrior["active"]:
        return plan.doomed(f"the warrior at vertex {vertex} is not active")
    if warrior.get("activated") == plan.state["round"]:
        return plan.doomed(f"the warrior at vertex {vertex} was activated this turn; it may act next turn")
    return None


def _upgrade(plan: Plan, vertex: int) -> str | None:
    problem = _own_warrior(plan, vertex)
    if problem is None and plan.state["warriors"][str(vertex)]["level"] >= 3:
        return plan.doomed(f"the warrior at vertex {vertex} is mighty; it cannot be upgraded further")
    if problem is None:
        _stronger(plan, vertex)
    return problem


def _stronger(plan: Plan, vertex: int) -> None:
    """The seat's warrior at vertex one level up in the plan: a regular warrior's place is free
    for a WARRIOR after it. Costs and the barracks aside, as the plan leaves them: an upgrade
    that fails when it runs fails there, and so does a WARRIOR that needed its place (D-ALL-3)."""
    warrior = plan.state["warriors"].get(str(vertex))
    if warrior is not None and warrior["owner"] == plan.seat and warrior["level"] < 3:
        warrior["level"] += 1


# What a card the seat plays does to the plan, where a later order of the file may depend on it:
# the plan never stands stricter than the turn will (a village the card made a town takes
# improvements and fences, a freed place takes a piece). A card's own failure is the turn's.
def _smith(plan: Plan, *vertices: int) -> None:
    for vertex in dict.fromkeys(v for v in vertices if v is not None):
        _stronger(plan, vertex)


def _diplomat(plan: Plan, edge: str, again: str | None = None) -> None:
    owner = plan.state["roads"].pop(edge, None)
    if owner == plan.seat and again is not None and again not in plan.state["roads"]:
        plan.state["roads"][again] = plan.seat


def _deserter(plan: Plan, target: str, vertex: int | None = None) -> None:
    deserting = deserted(plan.state, plan.seat, target)
    if deserting is None:
        return
    warrior = plan.state["warriors"].pop(str(deserting[1]))
    spot = deserter_spot(plan.state, plan.geo, plan.seat, warrior["level"], vertex)
    if spot is not None:
        plan.state["warriors"][str(spot)] = {**warrior, "owner": plan.seat, "activated": None}
        plan.placed.add(spot)


def _warlord(plan: Plan) -> None:
    for warrior in plan.state["warriors"].values():
        if warrior["owner"] == plan.seat and not warrior["active"]:
            warrior["woken"] = True


def _intrigue(plan: Plan, vertex: int) -> None:
    warrior = plan.state["warriors"].get(str(vertex))
    if warrior is not None and warrior["owner"] != plan.seat:
        del plan.state["warriors"][str(vertex)]


_PLAN_EFFECTS: dict[str, Callable[..., None]] = {
    "warlord": _warlord,
    "deserter": _deserter,
    "diplomat": _diplomat,
    "intrigue": _intrigue,
}


def _harvest(kind: str) -> Callable[[Plan], str | None]:
    """Irrigation and Mining: the seat's villages and towns at a farm (a mine) are its own, and
    nobody else's turn adds one. A tile under fog now hides its kind (rule D-ALL-5): a piece at one
    leaves the order to the turn."""

    def check(plan: Plan) -> str | None:
        tiles, geo = plan.state["board"]["tiles"], plan.geo
        own = {int(v) for v, b in plan.state["buildings"].items() if b["owner"] == plan.seat}
        for code in geo.tiles:
            if own & set(geo.tile_vertices[code]) and (code in plan.fogged or tiles[code]["kind"] == kind):
                return None
        return f"you have no village or town at a {kind}"

    return check


def _smith_check(plan: Plan, *vertices: int) -> str | None:
    for vertex in dict.fromkeys(v for v in vertices if v is not None):
        problem = _own_warrior(plan, vertex)
        if problem:
            return problem
    _smith(plan, *vertices)
    return None


# What a card needs that the seat's own pieces settle when the file arrives, checked as the
# order it stands for (Medicine is a TOWN): the card then changes the plan as that order does.
_CARD_CHECKS: dict[str, Callable[..., str | None]] = {
    "medicine": lambda plan, vertex: _town(plan, vertex),
    "irrigation": _harvest("farm"),
    "mining": _harvest("mine"),
    "smith": _smith_check,
}


def _move(plan: Plan, start: int, end: int) -> str | None:
    warned = len(plan.maybe)
    problem = _ready(plan, start)
    if problem:
        return problem
    if not plan.geo.is_vertex(end):
        return f"{end} is not a vertex of this island (they are numbered 1 to {plan.geo.vertex_count})"
    if start == end:
        return "a warrior must move to another vertex"
    if len(plan.maybe) == warned:  # one warning an order: a warrior that cannot act says why
        _warn_of_destination(plan, start, end)
    warrior = plan.state["warriors"].pop(str(start))
    plan.state["warriors"][str(end)] = {**warrior, "active": False}
    plan.placed.add(end)
    return None


def _warn_of_destination(plan: Plan, start: int, end: int) -> None:
    """Warn of what dooms a move that no other player's turn can change: the seat's own roads and
    the settlements on the island (only the dragon may remove a town, where it may reach the
    island by the seat's roll), and a warrior of the seat's this file put there (one that stands
    there now may be displaced by a player before the seat). A warning, not a problem (Plan.doomed)."""
    if not plan.war:
        if end not in route_from(plan.state, plan.geo, plan.seat, start):
            plan.doomed(f"vertex {end} cannot be reached along your roads")
            return
        if str(end) in plan.state["buildings"]:
            plan.doomed(f"a settlement stands on vertex {end}")
            return
    other = plan.state["warriors"].get(str(end))
    if other is not None and other["owner"] == plan.seat and (end in plan.placed or not plan.later):
        plan.doomed(f"the warrior at vertex {end} is not a weaker warrior of another player")


def _chase(plan: Plan, vertex: int, tile: str | None, victim: str | None) -> str | None:
    problem = _ready(plan, vertex) or (_tile_problem(plan, tile) if tile else None) or _seat_problem(plan, victim)
    if problem is None:
        plan.state["warriors"][str(vertex)]["active"] = False
    return problem


# Each check takes the arguments grammar.SHAPES gives its verb, which well_formed guarantees.
CHECKS: dict[str, Callable[..., str | None]] = {
    "ROAD": _road,
    "VILLAGE": _village,
    "TOWN": _town,
    "BUY": _buy,
    "PLAY": _play,
    "MARKET": _market,
    "OFFER": _offer,
    "IMPROVE": _improve,
    "FENCE": _fence,
    "WARRIOR": _warrior,
    "ACTIVATE": _activate,
    "UPGRADE": _upgrade,
    "MOVE": _move,
    "CHASE": _chase,
}
assert set(CHECKS) == set(ACTIONS)


def _standing_problem(plan: Plan, order: Order) -> str | None:
    state, args = plan.state, order.args
    if order.verb == "ROBBER":
        return _tile_problem(plan, args[0]) or _seat_problem(plan, args[1])
    if order.verb == "ACCEPT":
        return accept_problem(state["offers"], plan.seat, args)
    if order.verb == "WITHDRAW":
        return withdraw_problem(state["offers"], plan.seat, args[0])
    if order.verb == "CHOOSE":
        return _choose_problem(plan, *args)
    if order.verb == "DEMOTE":
        bad = [v for v in args if not plan.geo.is_vertex(v)]
        return f"{bad[0]} is not a vertex of this island" if bad else None
    return None
