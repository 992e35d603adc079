"""The dice and what they produce: the roll of a player's turn, villages and towns on the rolled
tiles, gold by the owner's choice, commodities from towns (Wonders & Warriors), the robber's tile
silent, the bank's shortage (rule D-IM-4), the granary, and fog lifting when a road reaches it."""

from __future__ import annotations

from collections.abc import Collection

from gm.core.model import JSONObject

from .goods import COMMODITY_OF, GOODS, RESOURCES, YIELDS, cards_text, take
from .turn import Turn

GRANARY_LEVEL = 3  # "When any player builds 3 improvements of a type ... a strategic improvement"
EVENT_FACES = ("science", "trade", "military", "black", "black", "black")  # rule D-IM-5
EVENT_COLOUR = {"science": "green", "trade": "yellow", "military": "blue", "black": "black"}


def gold_order(state: JSONObject, seat: str) -> list[str]:
    """The resources a seat takes from gold (and its granary), best first: its GOLD answer's,
    then the resources it holds fewest of (book order on a tie)."""
    hand = state["seats"][seat]["hand"]
    listed = [g for g in state["seats"][seat]["standing"].get("gold", []) if g in RESOURCES]
    return listed + sorted(RESOURCES, key=lambda g: (hand[g], RESOURCES.index(g)))


def from_bank(state: JSONObject, choices: list[str], barred: Collection[str] = ()) -> str | None:
    """The first of the choices the bank holds and that is not barred (short this roll, rule
    D-IM-4); None when there is none."""
    return next((g for g in choices if state["bank"][g] > 0 and g not in barred), None)


def roll(turn: Turn, seat: str, chosen: tuple[int, int] | None = None) -> JSONObject:
    """The number dice (white and red) and, in Wonders & Warriors, the event die. chosen: the
    white and red an Alchemist sets; the event die is rolled all the same."""
    rng = turn.rng("roll")
    white, red = chosen if chosen else (rng.randint(1, 6), rng.randint(1, 6))
    record: JSONObject = {
        "seat": seat,
        "white": white,
        "red": red,
        "total": white + red,
        "event": None,
        "produced": {},
        "shortage": [],
        "robber": None,
        "trades": [],
    }
    if turn.wonders_mode:
        record["event"] = EVENT_FACES[rng.randint(1, 6) - 1]
    event = f", event die {EVENT_COLOUR[record['event']]}" if record["event"] else ""
    turn.add(
        "dice",
        f"{turn.name(seat)} rolls {white} (white) and {red} (red): {white + red}{event}.",
        seat=seat,
        white=white,
        red=red,
        total=white + red,
        event=record["event"],
        round=turn.state["round"],
    )
    return record


def claims(turn: Turn, total: int) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """What every settlement on the rolled tiles is owed: the cards of resource and commodity
    tiles, {seat: {card: n}}, and the gold cards, {seat: n}, whose resource is chosen when paid."""
    state, geo = turn.state, turn.geo
    owed: dict[str, dict[str, int]] = {}
    gold: dict[str, int] = {}
    for code in geo.tiles:
        tile = state["board"]["tiles"][code]
        if tile["number"] != total or tile["fog"] or code == state["robber"]:
            continue
        for vertex in geo.tile_vertices[code]:
            building = state["buildings"].get(str(vertex))
            if building is None:
                continue
            seat, town = building["owner"], building["kind"] == "town"
            if tile["kind"] == "gold":
                gold[seat] = gold.get(seat, 0) + (2 if town else 1)
                continue
            mine = owed.setdefault(seat, {})
            if town and turn.wonders_mode and tile["kind"] in COMMODITY_OF:
                for good in (YIELDS[tile["kind"]], COMMODITY_OF[tile["kind"]]):
                    mine[good] = mine.get(good, 0) + 1
            else:
                good = YIELDS[tile["kind"]]
                mine[good] = mine.get(good, 0) + (2 if town else 1)
    return owed, gold


def produce(turn: Turn, record: JSONObject) -> None:
    """Pay every claim of the roll, except cards the bank cannot pay to everyone (D-IM-4); then
    gold from what the bank has left."""
    state = turn.state
    owed, gold = claims(turn, record["total"])
    choosing = {seat: gold_order(state, seat) for seat in gold}  # by the hands before the roll
    wanted: dict[str, int] = {}
    for cards in owed.values():
        for good, n in cards.items():
            wanted[good] = wanted.get(good, 0) + n
    short = sorted((g for g, n in wanted.items() if n > state["bank"][g]), key=_book_order)
    for good in short:
        # What the bank holds stays unsaid (rule D-ALL-5): with every hand's size open it would
        # tell the others what a player holds. That it cannot pay what the board owes is public.
        turn.add(
            "shortage",
            f"The bank cannot pay the {wanted[good]} {good} owed: nobody gets {good} this roll.",
            good=good,
            owed=wanted[good],
        )
    record["shortage"] = short
    for seat in state["seating"]:
        got = {g: n for g, n in owed.get(seat, {}).items() if g not in short}
        for good, n in got.items():
            take(state, seat, good, n)
        if got:
            record["produced"][seat] = got
    _gold(turn, record, gold, choosing)
    record["produced"] = {s: record["produced"][s] for s in state["seating"] if s in record["produced"]}
    if record["produced"]:
        text = "; ".join(f"{turn.name(s)} {cards_text(c)}" for s, c in record["produced"].items())
        turn.add(
            "production",
            f"The roll of {record['total']} produces: {text}.",
            total=record["total"],
            produced={s: dict(c) for s, c in record["produced"].items()},
        )
    if turn.wonders_mode:
        _granary(turn, record)


def _book_order(good: str) -> int:
    return GOODS.index(good)


def _gold(turn: Turn, record: JSONObject, gold: dict[str, int], choosing: dict[str, list[str]]) -> None:
    # A gold card is a claim on no resource in particular ("any resource of the player's
    # choice"), so it is left out of D-IM-4's count; the implementation pays gold after the other
    # claims, from what the bank has left (game/dice.go, GiveGold). A resource short this roll is
    # nobody's (D-IM-4: "nobody gets that resource this roll"). Players in order of play from the
    # roller, card by card.
    state, seating = turn.state, turn.state["seating"]
    start = seating.index(turn.mover) if turn.mover in seating else 0
    for seat in seating[start:] + seating[:start]:
        for _ in range(gold.get(seat, 0)):
            good = from_bank(state, choosing[seat], barred=record["shortage"])
            if good is None:
                break
            take(state, seat, good, 1)
            got = record["produced"].setdefault(seat, {})
            got[good] = got.get(good, 0) + 1


def _granary(turn: Turn, record: JSONObject) -> None:
    # "The granary provides one resource of the player's choice when a dice roll does not produce
    # any resource for the player's civilization."
    state = turn.state
    for seat in state["seating"]:
        if state["seats"][seat]["improvements"]["science"] < GRANARY_LEVEL or record["produced"].get(seat):
            continue
        good = from_bank(state, gold_order(state, seat))
        if good is None:
            continue
        take(state, seat, good, 1)
        record["produced"][seat] = {good: 1}
        turn.add(
            "granary",
            f"{turn.name(seat)}'s granary gives 1 {good}: the roll produced nothing for it.",
            seat=seat,
            cards={good: 1},
        )


def reveal_fog(turn: Turn, edge: str, seat: str) -> None:
    """Fog lifts from every tile at either end of a road a seat builds ("revealed when someone
    builds an adjacent road"; the implementation lifts the tiles round both ends), and the seat
    takes one card of what each lifted tile yields, bank permitting (the implementation's bonus;
    the book is silent)."""
    ends = turn.geo.edge_ends[edge]
    touched = {code for end in ends for code in turn.geo.vertex_tiles[end]}
    for code in (c for c in turn.geo.tiles if c in touched):
        tile = turn.state["board"]["tiles"][code]
        if tile["fog"]:
            tile["fog"] = False
            number = f" with number {tile['number']}" if tile["number"] else ""
            turn.add(
                "fog_lifted",
                f"The fog over tile {code} lifts: it is {tile['kind']}{number}.",
                tile=code,
                kind=tile["kind"],
                number=tile["number"],
            )
            _fog_bonus(turn, seat, code, YIELDS.get(tile["kind"]))


def _fog_bonus(turn: Turn, seat: str, code: str, good: str | None) -> None:
    # As in the implementation: a resource tile only (not gold, not desert), if the bank has one.
    if good is None or turn.state["bank"][good] <= 0:
        return
    take(turn.state, seat, good, 1)
    turn.add(
        "fog_bonus",
        f"{turn.name(seat)} lifted the fog over tile {code} and takes 1 {good}.",
        seat=seat,
        tile=code,
        cards={good: 1},
    )
