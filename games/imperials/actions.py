"""A player's actions in their own turn, in the order written: roads, villages, towns, buying and
playing action cards, the market; offers and the Wonders & Warriors actions come from trade.py
and wonders.py. Each action checks what it needs when it comes to run (rule D-ALL-3): an order
that cannot run fails alone, with an event saying why, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.model import JSONObject, Order, OrderArgs

from .awards import longest, update_army
from .cards import COLOUR_OF, TITLES
from .goods import COSTS, YIELDS, Cards, cards_text, pay, take
from .places import road_problem, town_problem, village_problem
from .produce import reveal_fog
from .robber import move_robber
from .turn import Turn, voice


def build_road(turn: Turn, seat: str, order: Order, edge: str, free: bool = False) -> bool:
    state = turn.state
    problem = road_problem(state, turn.geo, seat, edge, voice(state, seat, you=False))
    problem = problem or (None if free else turn.lacks(seat, COSTS["road"]))
    if problem:
        turn.failed(seat, order, problem)
        return False
    if not free:
        pay(state, seat, COSTS["road"])
    state["roads"][edge] = seat
    turn.add(
        "road",
        f"{turn.name(seat)} builds a road on {edge}{' for free' if free else ''}.",
        seat=seat,
        edge=edge,
        free=free,
    )
    reveal_fog(turn, edge)
    longest(turn)
    return True


def build_village(turn: Turn, seat: str, order: Order, vertex: int) -> None:
    state = turn.state
    problem = village_problem(state, turn.geo, seat, vertex, voice(state, seat, you=False))
    problem = problem or turn.lacks(seat, COSTS["village"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, COSTS["village"])
    state["buildings"][str(vertex)] = {"owner": seat, "kind": "village", "fence": False, "wonder": None}
    turn.add("village", f"{turn.name(seat)} builds a village at vertex {vertex}.", seat=seat, vertex=vertex)
    longest(turn)  # a village can interrupt another player's route


def build_town(turn: Turn, seat: str, order: Order, vertex: int, cost: Cards | None = None) -> None:
    state = turn.state
    cost = COSTS["town"] if cost is None else cost
    problem = town_problem(state, turn.geo, seat, vertex, voice(state, seat, you=False))
    problem = problem or turn.lacks(seat, cost)
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, cost)
    state["buildings"][str(vertex)]["kind"] = "town"
    turn.add("town", f"{turn.name(seat)} makes the village at vertex {vertex} a town.", seat=seat, vertex=vertex)


def buy_card(turn: Turn, seat: str, order: Order) -> None:
    state = turn.state
    if not state["decks"]["basic"]:
        return turn.failed(seat, order, "the deck of action cards is empty")
    problem = turn.lacks(seat, COSTS["card"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, COSTS["card"])
    card = state["decks"]["basic"].pop(0)
    state["seats"][seat]["cards"].append({"card": card, "round": state["round"], "bought": True})
    turn.add("buy", f"{turn.name(seat)} buys an action card.", seat=seat)
    turn.add("card_drawn", f"You draw {TITLES[card]}.", (seat,), seat=seat, card=card)


# ----------------------------------------------------------------------------------------------
# Action cards.


def playable(turn: Turn, seat: str, card: str) -> JSONObject | None:
    """The card a seat may play now: held, and (Basic) not bought this round (rule D-IM-2)."""
    state = turn.state
    entry: JSONObject
    for entry in state["seats"][seat]["cards"]:
        if entry["card"] == card and not (entry.get("bought") and entry["round"] == state["round"]):
            return entry
    return None


def play_card(turn: Turn, seat: str, order: Order, card: str, args: OrderArgs) -> None:
    state = turn.state
    if state["mode"] == "basic" and turn.played:
        return turn.failed(seat, order, "only one action card may be played in a turn")
    if state["mode"] == "basic" and card in COLOUR_OF and card not in ("roads", "plenty", "monopoly"):
        return turn.failed(seat, order, f"{TITLES[card]} is a card of Wonders & Warriors")
    entry = playable(turn, seat, card)
    if entry is None:
        held = any(c["card"] == card for c in state["seats"][seat]["cards"])
        reason = (
            "a card cannot be played in the turn it is bought"
            if held
            else f"{turn.name(seat)} holds no {TITLES[card]} card"
        )
        return turn.failed(seat, order, reason)
    problem = EFFECTS[card](turn, seat, order, *args)
    if problem:  # the effect could not start: the card stays in the hand
        return turn.failed(seat, order, problem)
    state["seats"][seat]["cards"].remove(entry)
    turn.played += 1
    if state["mode"] == "wonders":
        state["decks"][COLOUR_OF[card]].append(card)  # back under its deck, to be dealt again


def _warrior(turn: Turn, seat: str, order: Order, tile: str | None = None, victim: str | None = None) -> None:
    turn.add("play", f"{turn.name(seat)} plays a Warrior card.", seat=seat, card="warrior")
    move_robber(turn, seat, tile, victim)
    turn.seats[seat]["warriors_played"] += 1

    def note(old: str | None, new: str, played: int) -> None:
        turn.add(
            "strongest_army",
            f"{turn.name(new)} now has the strongest army ({played} Warrior cards played): 2 victory points.",
            seat=new,
            lost=old,
            count=played,
        )

    update_army(turn.state, seat, note)


def _roads(turn: Turn, seat: str, order: Order, *edges: str) -> str | None:
    state = turn.state
    v = voice(state, seat, you=False)
    first = road_problem(state, turn.geo, seat, edges[0], v)
    if first:
        return first
    turn.add("play", f"{turn.name(seat)} plays Road Building.", seat=seat, card="roads")
    for edge in edges:
        build_road(turn, seat, order, edge, free=True)
    return None


def _plenty(turn: Turn, seat: str, order: Order, *goods: str) -> str | None:
    state = turn.state
    wanted: dict[str, int] = {}
    for good in goods:
        wanted[good] = wanted.get(good, 0) + 1
    short = [g for g, n in wanted.items() if state["bank"][g] < n]
    if short:
        return f"the bank has too few {', '.join(short)}"
    for good, n in wanted.items():
        take(state, seat, good, n)
    turn.add(
        "play",
        f"{turn.name(seat)} plays Year of Plenty and takes {cards_text(wanted)}.",
        seat=seat,
        card="plenty",
        cards=wanted,
    )
    return None


def _monopoly(turn: Turn, seat: str, order: Order, good: str) -> None:
    state = turn.state
    total = 0
    for other in state["seating"]:
        n = state["seats"][other]["hand"][good] if other != seat else 0
        if n:
            state["seats"][other]["hand"][good] = 0
            state["seats"][seat]["hand"][good] += n
            total += n
            turn.add("monopoly_gives", f"{turn.name(other)} gives {n} {good}.", seat=other, good=good, count=n)
    turn.add(
        "play",
        f"{turn.name(seat)} plays Monopoly on {good} and gets {total}.",
        seat=seat,
        card="monopoly",
        good=good,
        count=total,
    )


def _harvest(kind: str, card: str) -> Callable[[Turn, str, Order], None]:
    def effect(turn: Turn, seat: str, order: Order) -> None:
        # 2 of the tile's resource for each such tile next to the player's settlements.
        state, geo = turn.state, turn.geo
        good = YIELDS[kind]
        tiles = [
            c
            for c in geo.tiles
            if state["board"]["tiles"][c]["kind"] == kind
            and not state["board"]["tiles"][c]["fog"]
            and any(state["buildings"].get(str(v), {}).get("owner") == seat for v in geo.tile_vertices[c])
        ]
        n = min(2 * len(tiles), state["bank"][good])
        if n:
            take(state, seat, good, n)
        turn.add(
            "play",
            f"{turn.name(seat)} plays {TITLES[card]}: {n} {good} from {len(tiles)} tile(s).",
            seat=seat,
            card=card,
            good=good,
            count=n,
        )

    return effect


def _effects() -> dict[str, Callable[..., str | None]]:
    from .warriors import smith, warlord
    from .wonders import bishop, engineer, merchant

    return {
        "warrior": _warrior,
        "roads": _roads,
        "plenty": _plenty,
        "monopoly": _monopoly,
        "irrigation": _harvest("farm", "irrigation"),
        "mining": _harvest("mine", "mining"),
        "engineer": engineer,
        "merchant": merchant,
        "warlord": warlord,
        "smith": smith,
        "bishop": bishop,
    }


EFFECTS = _effects()
