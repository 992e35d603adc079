"""What the Imperials rule book and its decisions promise of every turn, for the invariant battery
(gm.testing.battery): each check returns one line per broken rule, named by the book's section
and the decision that reads it, [] when the turn keeps it.

The bank and the hands together always hold the bank's 24 of each resource and 12 of each
commodity, no pile below zero; every change of a hand is an event of the turn at the book's price;
on a 7 exactly the players over their discard limit give back half; a theft is from a player at
the robber's tile;
the limits (roads, villages, towns, fences, improvements, warriors, action cards) hold at the end
of every round; every action card is in a deck, a hand, or (Basic) played; settlements keep the
distance rule; the longest route, the strongest army, the Dragonslayer points and the wonders are
as the book awards them; no event every seat reads names what a hand holds or lacks; a win comes
in the winner's own turn; the order of play rotates; a trade gives a card each way, never a type
for itself; a Basic action card is played at most one a turn, never in the turn it is bought; a
warrior acts only if not activated in the turn.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from gm.core.model import Event, JSONObject, Order, TurnResult

from .awards import ARMY_MIN, ROUTE_MIN, points, route_length
from .board import Geometry
from .cards import BASIC_DECK, SHOWN_POINTS, WONDERS_DECKS
from .goods import (
    BANK,
    CARD_LIMIT,
    COMMODITY_FOR,
    COMMODITY_OF,
    COSTS,
    DISCARD_LIMIT,
    FENCE_BONUS,
    FENCE_LIMIT,
    GOODS,
    IMPROVEMENT_LIMIT,
    LIMITS,
    YIELDS,
)
from .science import MEDICINE
from .setup import order_of_play
from .turn import board_geometry
from .warriors import DRAGONSLAYER_POINTS, PIECES_PER_LEVEL

BANKED = "The bank (D-IM-1, 24 of each resource and 12 of each commodity)"
PRICES = "Prices (Basic building costs, Action Cards, Wonders & Warriors)"
LIMIT = "Limits (15 roads, 5 villages, 4 towns, 3 fences, 5 improvements, 4 action cards, D-IM-13)"
CARDS = "Action cards (D-IM-2, D-IM-10)"
DISTANCE = "Villages and towns (not adjacent to any other village or town)"
ROUTE = "Longest trade route (Extra Victory Points, D-IM-7)"
ARMY = "Strongest army (Extra Victory Points)"
SLAYER = "Dragonslayer points (Dragons, D-IM-10, D-IM-11)"
WONDER = "Wonders (Wonders & Warriors)"
HIDDEN = "Hidden hands (D-ALL-5)"
WIN = "Victory Conditions (a win in the winner's own turn, after the roll)"
ROTATE = "Order of play (D-ALL-4)"
ROBBER = "Robber (moves on every 7, to a different tile, never under fog; a 7 produces nothing)"
OFFERS = "Trade offers (D-IM-8, D-IM-9)"
THEFT = "Robber (a card stolen from another player with a settlement at the robber's tile)"
DISCARDS = "Robber (more cards than the discard limit, 7 and 2 more a fence, give back half; D-IM-1, D-IM-13)"
TRADES = "Trade (each side gives at least one card, never of a type it gets)"
PLAYS = "Action Cards (Basic, up to one a turn, never in the turn it is bought)"
ACTIONS = "Warriors (an action only by a warrior not activated during the current turn)"
PLACES = "Roads, villages and towns (where each may be built)"
EVENT_DIE = "Event dice (a card of its colour to each player with 1 or more and at least red - 1 improvements, D-IM-5)"
PRODUCE = "Production (a village 1 and a town 2 from each adjacent tile of the number rolled)"
DRAGON = "Dragons (strength the towns on the board; the verdict, D-IM-6, D-IM-11)"
END = "Victory Conditions (the end, the winner and the scores; the round limit)"
GRANARY = "Strategic Improvements (the granary, with 3 science improvements, after a roll that gave the player nothing)"
WAR = "Dragons (all warriors are deactivated after the war)"
CHASE = "Warriors (a warrior chases the robber only from a tile adjacent to it)"
TOWNED = "Commodities & Improvements (improvements only with at least one town on the board)"
DISPLACE = "Warriors (a warrior moves onto an empty corner or another player's weaker warrior)"
RATES = "Trade with the market (4 cards, 3 at a general port, 2 at a port of the type, the guild's 2 commodities)"
DRAGON_TRACK = "Dragons (a step on each black roll; the war after 7, then from the start, D-IM-6)"
STAY = "Pieces (a road or a settlement leaves the board or changes hands only by the book's events)"
UPGRADE = "Warriors (regular to strong, strong to mighty, one level at a time, no further)"
SETUP = "Game start (two villages, W&W a village and a town, each with a road, there and back)"
assert all(
    ": " not in name
    for name in (
        BANKED,
        PRICES,
        LIMIT,
        CARDS,
        DISTANCE,
        ROUTE,
        ARMY,
        SLAYER,
        WONDER,
        HIDDEN,
        WIN,
        ROTATE,
        DISCARDS,
        THEFT,
        TRADES,
        PLAYS,
        ACTIONS,
        PLACES,
        PRODUCE,
        EVENT_DIE,
        DRAGON,
        END,
        GRANARY,
        WAR,
        CHASE,
        TOWNED,
        DISPLACE,
        RATES,
        DRAGON_TRACK,
        STAY,
        SETUP,
        UPGRADE,
    )
)

# Events only some seats read; every other event is read by all (rule D-ALL-5).
PRIVATE = {
    "order_failed",
    "robber_choice",
    "trade_failed",
    "offer_unanswered",
    "card_drawn",
    "card_dropped",
    "discard_cards",
    "theft_card",
    "cards_taken",
    "card_taken",
}
# What an event every seat reads must never say of a hand: what it lacks, that it holds none or
# no longer holds some, or which cards it holds.
HAND_WORDS = re.compile(
    r"\black(s|ed)?\b|\bholds? no\b|\bno longer holds?\b|\bholds? \d+ (" + "|".join(GOODS) + r")\b"
    r"|\bholds? (an? |the )?(" + "|".join(("Warrior", "Year of Plenty", "Monopoly", "Bishop", "Spy")) + ")",
    re.IGNORECASE,
)
Check = Callable[[JSONObject, JSONObject, tuple[Event, ...]], list[str]]


def invariants(before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
    """Every rule of the book the turn from `before` to result.state broke."""
    found = _offers(before, orders, result.events)
    checks: tuple[Check, ...] = (
        _bank,
        _hands,
        _discards,
        _limits,
        _action_cards,
        _distance,
        _route,
        _army,
        _dragonslayer,
        _wonders,
        _hidden,
        _win,
        _rotation,
        _robber,
        _thefts,
        _trades,
        _plays,
        _warrior_actions,
        _placements,
        _granaries,
        _war_ends,
        _chases,
        _displacements,
        _market_rates,
        _dragon_track,
        _pieces_stay,
        _setup,
        _end,
    )
    return found + [line for check in checks for line in check(before, result.state, result.events)]


def _of(events: tuple[Event, ...], *kinds: str) -> list[JSONObject]:
    return [e.data for e in events if e.kind in kinds]


def _bank(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    found = []
    for good in GOODS:
        held = after["bank"][good] + sum(s["hand"][good] for s in after["seats"].values())
        if held != BANK[good]:
            found.append(f"{BANKED}: the bank and the hands hold {held} {good}, not {BANK[good]}")
        piles = [("the bank", after["bank"][good])] + [(c, s["hand"][good]) for c, s in after["seats"].items()]
        found += [f"{BANKED}: {who} holds {n} {good}" for who, n in piles if n < 0]
    return found


# ----------------------------------------------------------------------------------------------
# Every change of a hand is an event of the turn, at the book's price.


def _hands(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    ledger: dict[str, Counter[str]] = {seat: Counter() for seat in after["seats"]}
    found: list[str] = []
    for event in events:
        for seat, cards in _moves(event, found):
            ledger[seat].update(cards)
    for seat, now in after["seats"].items():
        was = before["seats"][seat]["hand"]
        changed = {g: now["hand"][g] - was[g] for g in GOODS if now["hand"][g] != was[g]}
        explained = {g: n for g, n in ledger[seat].items() if n}
        if changed != explained:
            found.append(f"{PRICES}: {seat}'s hand changed by {changed}; the events explain {explained}")
    return found


def _minus(cards: JSONObject) -> dict[str, int]:
    return {g: -n for g, n in cards.items()}


def _moves(event: Event, found: list[str]) -> list[tuple[str, dict[str, int]]]:
    """The cards an event moves into (+) or out of (-) seats' hands; wrong prices into found."""
    data, kind = event.data, event.kind
    if kind == "production":
        return list(data["produced"].items())
    if kind in ("starting_resources", "granary", "fog_bonus"):
        return [(data["seat"], data["cards"])]
    if kind == "discard_cards":
        return [(data["seat"], _minus(data["cards"]))]
    if kind == "theft_card":
        return [(data["thief"], {data["good"]: 1}), (data["victim"], {data["good"]: -1})]
    if kind in ("trade", "harbor_trade"):
        return [
            (data["seat"], {**_minus(data["give"]), **data["get"]}),
            (data["partner"], {**data["give"], **_minus(data["get"])}),
        ]
    if kind == "market":
        return [(data["seat"], {**_minus(data["give"]), **data["get"]})]
    if kind == "monopoly_gives":
        return [(data["seat"], {data["good"]: -data["count"]}), (data["to"], {data["good"]: data["count"]})]
    if kind == "cards_taken":
        return [(data["seat"], data["cards"]), (data["victim"], _minus(data["cards"]))]
    if kind == "gift":
        return [(data["seat"], _minus(data["cards"])), (data["partner"], data["cards"])]
    if kind == "play" and data.get("card") == "plenty":
        return [(data["seat"], data["cards"])]
    if kind == "play" and data.get("card") in ("irrigation", "mining") and data["count"]:
        return [(data["seat"], {data["good"]: data["count"]})]
    return _paid(event, found)


def _paid(event: Event, found: list[str]) -> list[tuple[str, dict[str, int]]]:
    """What a build paid the market, checked against the book's price."""
    data, kind = event.data, event.kind
    fixed = {"road": "road", "village": "village", "warrior": "warrior", "upgrade": "upgrade", "fence": "fence"}
    if kind in fixed:
        return [] if data.get("free") else [(data["seat"], _minus(COSTS[fixed[kind]]))]
    if kind == "activate":
        return [(data["seat"], _minus(COSTS["activate"]))]
    if kind == "buy":
        return [(data["seat"], _minus(COSTS["card"]))]
    if kind == "town":
        if data["cost"] not in (COSTS["town"], MEDICINE):
            found.append(f"{PRICES}: {data['seat']} paid {data['cost']} for a town")
        return [(data["seat"], _minus(data["cost"]))]
    if kind == "improve":
        commodity = COMMODITY_FOR[data["improvement"]]
        if data["cost"] not in ({commodity: data["level"]}, {commodity: data["level"] - 1}):  # Crane: 1 less
            found.append(f"{PRICES}: {data['seat']} paid {data['cost']} for {data['improvement']} {data['level']}")
        return [(data["seat"], _minus(data["cost"]))]
    return []


def _discards(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """On every 7, each player holding more cards than its discard limit (7, and 2 for each fence
    it has then) gives back half, rounded down, and nobody else does: the hands are followed
    through the turn's events from the hands before it."""
    sizes = {seat: sum(s["hand"].values()) for seat, s in before["seats"].items()}
    fenced = {v: b["owner"] for v, b in before["buildings"].items() if b.get("fence")}
    found: list[str] = []
    seven: dict[str, int] | None = None  # the hand sizes at the roll of a 7 whose discards are due
    given: dict[str, tuple[int, int]] = {}

    def close() -> None:
        for seat, held in (seven or {}).items():
            fences = sum(1 for owner in fenced.values() if owner == seat)
            limit = DISCARD_LIMIT + FENCE_BONUS * fences
            want = (held, held // 2) if held > limit else None
            if given.get(seat) != want:
                found.append(
                    f"{DISCARDS}: {seat} held {held} cards at a 7 (limit {limit}) and gave back {given.get(seat)}"
                )

    for event in events:
        data = event.data
        if event.kind == "dice" or (event.kind == "robber" and seven is not None):
            close()
            seven, given = None, {}
        if event.kind == "dice" and data["total"] == 7:
            seven = dict(sizes)
        if event.kind == "discard" and seven is not None and "limit" in data:
            given[data["seat"]] = (data["held"], data["count"])
        if event.kind == "fence":
            fenced[str(data["vertex"])] = data["seat"]
        if event.kind == "demote":
            fenced.pop(str(data["vertex"]), None)
        for seat, cards in _moves(event, []):
            sizes[seat] += sum(cards.values())
    close()
    return found


# ----------------------------------------------------------------------------------------------
# Limits, cards and the board.


def _limits(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    found = []
    wonders = after["mode"] == "wonders"
    for seat, me in after["seats"].items():
        pieces = Counter(b["kind"] for b in after["buildings"].values() if b["owner"] == seat)
        pieces["road"] = sum(1 for owner in after["roads"].values() if owner == seat)
        found += [f"{LIMIT}: {seat} has {pieces[k]} {k}s" for k, most in LIMITS.items() if pieces[k] > most]
        fences = [v for v, b in after["buildings"].items() if b["owner"] == seat and b.get("fence")]
        if len(fences) > FENCE_LIMIT or any(after["buildings"][v]["kind"] != "town" for v in fences):
            found.append(f"{LIMIT}: {seat}'s fences stand at {fences}")
        found += [
            f"{LIMIT}: {seat} has {n} {colour} improvements"
            for colour, n in me["improvements"].items()
            if not 0 <= n <= IMPROVEMENT_LIMIT
        ]
        levels = Counter(w["level"] for w in after["warriors"].values() if w["owner"] == seat)
        found += [f"{LIMIT}: {seat} has {n} warriors of level {lv}" for lv, n in levels.items() if n > PIECES_PER_LEVEL]
        if levels[3] and me["improvements"]["military"] < 3:
            found.append(f"{LIMIT}: {seat} has a mighty warrior without the barracks")
        if wonders and seat != after["winner"] and len(me["cards"]) > CARD_LIMIT:
            found.append(f"{LIMIT}: {seat} holds {len(me['cards'])} action cards after the round")
    return found


def _action_cards(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """W&W: every card in a deck or a hand, the shown points as many as left their deck, none bought. Basic:
    cards leave the game only by being played."""

    def count(state: JSONObject) -> Counter[str]:
        held = Counter(c for deck in state["decks"].values() for c in deck)
        held.update(c["card"] for s in state["seats"].values() for c in s["cards"])
        return held

    now = count(after)
    if after["mode"] == "wonders":
        # "Improvements produce action cards for the player (which cannot be purchased)"
        bought = [f"{CARDS}: {data['seat']} buys an action card in Wonders & Warriors" for data in _of(events, "buy")]
        made = Counter({c: n for deck in WONDERS_DECKS.values() for c, n in deck.items()})
        shown = sum(s["shown_points"] for s in after["seats"].values())
        found = bought + [
            f"{CARDS}: {now[c]} {c} cards, not {n}" for c, n in made.items() if c not in SHOWN_POINTS and now[c] != n
        ]
        if shown + sum(now[c] for c in SHOWN_POINTS) != sum(made[c] for c in SHOWN_POINTS):
            found.append(f"{CARDS}: {shown} points shown, {sum(now[c] for c in SHOWN_POINTS)} point cards unshown")
        return found
    played = Counter(e["card"] for e in _of(events, "play"))
    was = count(before)
    return [
        f"{CARDS}: {was[c] - now[c]} {c} cards left the game, {played[c]} were played"
        for c in BASIC_DECK
        if was[c] - now[c] != played[c]
    ]


def _distance(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    geo = board_geometry(after)
    built = {int(v) for v in after["buildings"]}
    found = [
        f"{DISTANCE}: settlements at {v} and {n}"
        for v in sorted(built)
        for n in geo.vertex_neighbours[v]
        if n in built and v < n
    ]
    found += [
        f"{DISTANCE}: a warrior stands on the settlement at {v}" for v in after["warriors"] if v in after["buildings"]
    ]
    tiles = after["board"]["tiles"]
    if after["robber"] and tiles[after["robber"]]["fog"]:
        found.append(f"{DISTANCE}: the robber stands on tile {after['robber']} under fog")
    merchant = after.get("merchant")
    if merchant and tiles[merchant["tile"]]["kind"] not in YIELDS:
        found.append(f"{CARDS}: the merchant stands on {merchant['tile']}, a tile of no resource")
    return found


# ----------------------------------------------------------------------------------------------
# Awards, hidden hands, the end.


def _route(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    geo = board_geometry(after)
    lengths = {seat: route_length(after, geo, seat) for seat in after["seating"]}
    holder, best = after["longest"]["seat"], max(lengths.values(), default=0)
    if holder is not None and (lengths[holder] < ROUTE_MIN or lengths[holder] < best):
        return [f"{ROUTE}: {holder} holds it with {lengths[holder]} roads; the longest is {best}"]
    leaders = [s for s in after["seating"] if lengths[s] == best]
    if holder is None and best >= ROUTE_MIN:
        return [f"{ROUTE}: nobody holds it though {leaders[0]} has the longest, {best} roads"]
    return []


def _army(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    played = {seat: s["warriors_played"] for seat, s in after["seats"].items()}
    holder = after["army"]["seat"]
    if holder is None:
        return [f"{ARMY}: nobody holds it though {s} played {n}" for s, n in played.items() if n >= ARMY_MIN]
    if played[holder] < ARMY_MIN or played[holder] < max(played.values()):
        return [
            f"{ARMY}: {holder} holds it with {played[holder]} Warrior cards; the most played is {max(played.values())}"
        ]
    return []


def _dragonslayer(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    won = sum(s["dragonslayer"] for s in after["seats"].values())
    if won + after["dragonslayer_left"] != DRAGONSLAYER_POINTS or after["dragonslayer_left"] < 0:
        return [f"{SLAYER}: {won} won and {after['dragonslayer_left']} left of {DRAGONSLAYER_POINTS}"]
    return []


def _wonders(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    found = []
    for colour, wonder in after["wonders"].items():
        if wonder is None:
            continue
        town = after["buildings"].get(wonder["town"])
        if town is None or town["owner"] != wonder["seat"] or town["kind"] != "town" or town.get("wonder") != colour:
            found.append(f"{WONDER}: the {colour} wonder of {wonder['seat']} is not on its town {wonder['town']}")
        level = after["seats"][wonder["seat"]]["improvements"][colour]
        if level < 4 or (wonder["great"] and level < IMPROVEMENT_LIMIT):
            found.append(f"{WONDER}: {wonder['seat']} holds the {colour} wonder with {level} improvements")
    marked = [(v, b["wonder"]) for v, b in after["buildings"].items() if b.get("wonder")]
    found += [
        f"{WONDER}: town {v} holds a {c} wonder nobody has"
        for v, c in marked
        if (after["wonders"][c] or {}).get("town") != v
    ]
    return found


def _granaries(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "The granary provides one resource of the player's choice when a dice roll does not produce
    any resource for the player's civilization": only with the granary ("3 improvements of a type"),
    only after a roll that gave the player nothing (a commodity is something, D-IM-13)."""
    levels = {seat: s["improvements"]["science"] for seat, s in before["seats"].items()}
    produced: set[str] = set()
    found = []
    for event in events:
        data = event.data
        if event.kind == "improve" and data["improvement"] == "science":
            levels[data["seat"]] = data["level"]
        elif event.kind == "dice":
            produced = set()
        elif event.kind == "production":
            produced = {s for s, cards in data["produced"].items() if any(cards.values())}
        elif event.kind == "granary":
            seat = data["seat"]
            if levels[seat] < 3 or seat in produced:
                found.append(f"{GRANARY}: {seat} with {levels[seat]} science improvements gets {data['cards']}")
    return found


def _war_ends(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "Regardless of the result of the dragon war, all warriors are deactivated after the war": a
    warrior active when the round ends after the dragon's war is its owner's woken after it (an
    ACTIVATE, the Warlord) or placed by a Deserter after it, active as it was."""
    wars = [i for i, e in enumerate(events) if e.kind == "dragon_battle"]
    if not wars:
        return []
    woken = {
        e.data.get("seat")
        for e in events[wars[-1] + 1 :]
        if e.kind == "activate"
        or (e.kind == "warrior" and e.data.get("free"))
        or (e.kind == "play" and e.data.get("card") == "warlord")
    }
    return [
        f"{WAR}: {w['owner']}'s warrior at {v} is active after the war, woken by nothing since"
        for v, w in sorted(after["warriors"].items(), key=lambda item: int(item[0]))
        if w["active"] and w["owner"] not in woken
    ]


def _chases(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "A warrior may chase away the robber if the robber is on a tile adjacent to the warrior":
    the robber, followed through the round, stands at a tile of the chasing warrior's vertex."""
    geo = board_geometry(after)
    robber, found = before["robber"], []
    for event in events:
        if event.kind == "robber":
            robber = event.data["tile"]
        elif event.kind == "chase" and robber not in geo.vertex_tiles[event.data["vertex"]]:
            found.append(f"{CHASE}: the warrior at {event.data['vertex']} chases the robber from tile {robber}")
    return found


def _displacements(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A moved warrior's "location must be empty or contain another player's warrior of lesser
    strength": strong displaces regular, mighty strong or regular, and a mighty warrior is never
    displaced. Each warrior's owner and level are followed through the round's events, and each
    upgrade raises its own warrior one level, to mighty at most."""
    board = {int(v): (w["owner"], w["level"]) for v, w in before["warriors"].items()}
    moved_onto: tuple[str, int] | None = None  # the warrior a move found on its corner, to be displaced
    deserted: int | None = None  # the level of the warrior a Deserter took, to be placed again
    found = []
    for event in events:
        data, kind = event.data, event.kind
        if kind == "warrior":
            board[data["vertex"]] = (data["seat"], deserted if data.get("free") and deserted else 1)
            deserted = None
        elif kind == "upgrade":
            was = board.get(data["vertex"])
            # "a regular warrior will be upgraded to a strong warrior"; "The player may further
            # upgrade a strong warrior to a mighty warrior"; "Mighty warriors cannot be upgraded further"
            if was is None or was[0] != data["seat"] or data["level"] != was[1] + 1 or data["level"] > 3:
                found.append(
                    f"{UPGRADE}: {data['seat']}'s warrior at {data['vertex']} ({was}) becomes level {data['level']}"
                )
            board[data["vertex"]] = (data["seat"], data["level"])
        elif kind == "play" and data.get("card") == "deserter":
            board.pop(data["vertex"], None)
            deserted = data["level"]
        elif kind == "deserter_lost":
            deserted = None
        elif kind == "warrior_moves":
            mover = board.pop(data["start"], (data["seat"], 0))
            moved_onto = board.get(data["end"])
            if moved_onto is not None and (moved_onto[0] == data["seat"] or moved_onto[1] >= mover[1]):
                found.append(f"{DISPLACE}: {data['text']} (its level {mover[1]}, {moved_onto} there)")
            board[data["end"]] = mover
        elif kind in ("warrior_displaced", "warrior_removed"):
            at = data["start"] if kind == "warrior_displaced" else data["vertex"]
            piece = moved_onto if moved_onto is not None and moved_onto[0] == data["seat"] else board.pop(at, None)
            moved_onto = None
            if kind == "warrior_displaced" and piece is not None:
                board[data["end"]] = piece
    return found


def _hidden(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    found = []
    for event in events:
        text = str(event.data.get("text", ""))
        if event.seats is None and event.kind in PRIVATE:
            found.append(f"{HIDDEN}: every seat reads {event.kind}: {text}")
        elif event.seats is None and HAND_WORDS.search(text):
            found.append(f"{HIDDEN}: every seat reads what a hand holds or lacks: {text}")
        elif event.seats is not None and not set(event.seats) <= _concerned(event):
            found.append(f"{HIDDEN}: {', '.join(event.seats)} read {event.kind}, which is not theirs: {text}")
    return found


def _concerned(event: Event) -> set[str]:
    """The seats a private event may reach: those it is about."""
    data = event.data
    named = {data.get(k) for k in ("seat", "thief", "victim")}
    if event.kind == "trade_failed":
        return set(event.seats or ())  # the maker and those who accepted: _offers checks them
    return {s for s in named if isinstance(s, str)}


def _win(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    found = []
    winner = after["winner"]
    if winner is not None:
        rolled = [e["seat"] for e in _of(events, "dice")]
        if not rolled or rolled[-1] != winner:
            found.append(f"{WIN}: {winner} won in {rolled[-1] if rolled else 'nobody'}'s turn")
        if points(after, winner, hidden=True) < after["target"]:
            found.append(f"{WIN}: {winner} won with {points(after, winner, hidden=True)} points")
    rolled = [e["seat"] for e in _of(events, "dice")]
    if winner is None and rolled and points(after, rolled[-1], hidden=True) >= after["target"]:
        # Nothing comes after the round's last turn: its player reached the target in it.
        last = rolled[-1]
        found.append(f"{WIN}: {last} ended its own turn with {points(after, last, hidden=True)} points and did not win")
    if after["round_limit"] and after["round"] > after["round_limit"] and after["phase"] != "over":
        found.append(f"{WIN}: round {after['round']} after the limit of {after['round_limit']}, and the game goes on")
    return found


def _rotation(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    if before["phase"] != "play" or after["phase"] != "play":
        return []
    sequence = order_of_play(before)
    if after["first"] != sequence[1 % len(sequence)]:
        return [f"{ROTATE}: {before['first']} began the round and {after['first']} begins the next"]
    return []


def _robber(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each move of the robber (a seven, a Warrior, a Bishop, a chasing warrior) is to another
    tile, never one under fog."""
    found, at = [], before["robber"]
    for data in _of(events, "robber"):
        if data["tile"] == at:
            found.append(f"{ROBBER}: {data['seat']} moves the robber to tile {at}, where it stood")
        at = data["tile"]
    # "Whenever 7 is rolled ... the current player must move the robber", and a 7 produces nothing.
    roller: str | None = None
    seven = False
    for event in (*events, Event("dice", {"seat": None, "total": 0})):
        if event.kind == "dice" and roller is not None:
            found.append(f"{ROBBER}: {roller} rolled a 7 and did not move the robber")
        if event.kind == "dice":
            roller = event.data["seat"] if event.data["total"] == 7 else None
            seven = event.data["total"] == 7
        elif event.kind == "robber" and event.data["seat"] == roller:
            roller = None
        elif event.kind in ("production", "granary") and seven:
            found.append(f"{ROBBER}: a roll of 7 produces cards ({event.kind})")
    return found


def _thefts(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each theft after the robber moves is the mover's, from another player with a settlement
    at a corner of the robber's new tile (the Bishop's, rule D-IM-10: with any piece there); and
    when such a player holds a card, "the current player must choose one of these players to
    steal one random resource card from": the move is followed by a theft."""
    corners = board_geometry(after).tile_vertices
    found: list[str] = []
    mover, tile, bishop, last_play = None, None, False, None
    sizes = {seat: sum(s["hand"].values()) for seat, s in before["seats"].items()}
    due: list[str] = []  # who the robber just moved may rob: "the current player must choose one"
    # The settlements as they stand at each moment: those of the turn's start, each village built
    # during it (a robber moved after it may rob its owner), less each town the dragon burns away
    # (rule D-IM-13; a robber moved before it may rob its owner, one moved after it may not).
    placed = {vertex: building["owner"] for vertex, building in before["buildings"].items()}
    for event in events:
        data = event.data
        if event.kind == "village":
            placed[str(data["vertex"])] = data["seat"]
        if event.kind == "demote" and data.get("removed"):
            placed.pop(str(data["vertex"]), None)
        if due and not (event.kind == "theft" and data["thief"] == mover and data["victim"] in due):
            found.append(f"{THEFT}: {mover} moves the robber to {tile} and robs none of {due}")
        due = []
        for seat, cards in _moves(event, []):
            sizes[seat] += sum(cards.values())
        if event.kind == "play":
            last_play = data.get("card")
        if event.kind == "robber":
            mover, tile, bishop, last_play = data["seat"], data["tile"], last_play == "bishop", None
            standing = [placed[str(v)] for v in corners[tile] if str(v) in placed]
            due = [] if bishop else sorted({s for s in standing if s != mover and sizes[s] > 0})
        if event.kind in ("dice", "chase"):
            last_play = None
        if event.kind != "theft":
            continue
        kinds = ("buildings", "warriors") if bishop else ("buildings",)
        owners = {
            state[kind][str(v)]["owner"]
            for state in (before, after)
            for kind in kinds
            for v in (corners[tile] if tile else ())
            if str(v) in state[kind]
        }
        if data["thief"] != mover or data["victim"] == mover or data["victim"] not in owners:
            found.append(f"{THEFT}: {data['thief']} robs {data['victim']} with the robber on {tile}, moved by {mover}")
    if due:
        found.append(f"{THEFT}: {mover} moves the robber to {tile} and robs none of {due}")
    return found


def _offers(before: JSONObject, orders: dict[str, list[Order]], events: tuple[Event, ...]) -> list[str]:
    """A trade carries out an offer posted in an earlier round, with a player it was made to who
    accepted it; not one its maker withdrew, and with one the maker chose if it chose; a failed
    trade is read by its maker and those who accepted, no one else."""
    posted = {o["id"]: o for o in before["offers"] if o["round"] < before["round"]}
    accepted = {(seat, n) for seat, listed in orders.items() for o in listed if o.verb == "ACCEPT" for n in o.args}
    said = {
        (o.verb, o.args[0]): o.args[1:]
        for listed in orders.values()
        for o in reversed(listed)
        if o.verb in ("WITHDRAW", "CHOOSE")
    }
    found = []
    for event in events:
        data = event.data
        if event.kind == "trade":
            offer = posted.get(data["offer"])
            partner = data["partner"]
            if offer is None or offer["from"] != data["seat"] or offer["to"] not in ("ALL", partner):
                found.append(f"{OFFERS}: trade #{data['offer']} of {data['seat']} with {partner} is no offer due to it")
            elif (partner, data["offer"]) not in accepted or ("WITHDRAW", data["offer"]) in said:
                found.append(
                    f"{OFFERS}: offer #{data['offer']} carried out without {partner}'s ACCEPT or after WITHDRAW"
                )
            elif partner not in said.get(("CHOOSE", data["offer"]), (partner,)):
                found.append(
                    f"{OFFERS}: offer #{data['offer']} carried out with {partner}, whom its maker did not choose"
                )
        if event.kind == "trade_failed":
            to = posted[data["offer"]]["to"] if data["offer"] in posted else None
            takers = {s for s, n in accepted if n == data["offer"] and to in ("ALL", s)}
            if set(event.seats or ()) != {data["seat"]} | takers:
                found.append(f"{OFFERS}: the failed trade #{data['offer']} is read by {event.seats}")
    return found


def _trades(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Trade: "Resources of the same type may not be exchanged during a trade" and "At least one
    resource must be given by each player", between players and with the market (4, 3 or 2
    cards of one type for one of another)."""
    found = []
    for event in events:
        if event.kind not in ("trade", "market"):
            continue
        give = {g for g, n in event.data["give"].items() if n > 0}
        get = {g for g, n in event.data["get"].items() if n > 0}
        if not give or not get or give & get:
            found.append(f"{TRADES}: {event.data['text']}")
        if event.kind == "market" and (len(give) != 1 or sum(event.data["get"].values()) != 1):
            found.append(f"{TRADES}: the market trades one type for one card, not {event.data['text']}")
    return found


def _plays(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Basic: "Players may play upto one action card every turn"; "An action card may not be
    played on the turn it is purchased", and in the Basic game a card comes only by purchase, so
    each card played was in its player's hand when the round began (D-IM-2)."""
    if before["mode"] != "basic" or before["phase"] != "play":
        return []
    found = []
    held = {code: Counter(c["card"] for c in seat["cards"]) for code, seat in before["seats"].items()}
    played: Counter[str] = Counter()
    for data in _of(events, "play"):
        seat, card = data["seat"], data["card"]
        played[seat] += 1
        if played[seat] == 2:
            found.append(f"{PLAYS}: {seat} plays a second action card in its turn")
        if held[seat][card] <= 0:
            found.append(f"{PLAYS}: {seat} plays a {card} card it did not hold when its turn began")
        held[seat][card] -= 1
    return found


def _warrior_actions(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Warriors: "An action may be performed only if the warrior was not activated during the
    current turn" (after an action it "may be reactivated again in the same turn, but not perform
    another action"): no warrior moves or chases the robber from a corner where its owner
    activated it in this round (each player's one turn)."""
    found, activated = [], set()
    for event in events:
        data = event.data
        if event.kind == "activate":
            activated.add((data["seat"], data["vertex"]))
        elif event.kind == "warrior_moves" and (data["seat"], data["start"]) in activated:
            found.append(f"{ACTIONS}: {data['text']}")
        elif event.kind == "chase" and (data["seat"], data["vertex"]) in activated:
            found.append(f"{ACTIONS}: {data['text']}")
    return found


# ----------------------------------------------------------------------------------------------
# Where things are built, the awards as they pass, the dragon: followed event by event.


def _placements(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The board is followed through the turn's events from the board before it, and each
    placement is checked on the board as it then stood: "The player may build roads adjacent to
    any settlement belonging to the player or adjacent to another road", not past "another
    player's settlement"; villages "adjacent to a road belonging to the player" (the set-up
    village with its road "adjacent to the village"); a town on the player's own village (rule
    D-IM-3); a warrior "similar to settlements", on an empty vertex at the end of its owner's road.
    The longest route and the strongest army pass only to a player strictly ahead of their
    holder (rule D-IM-7: the holder keeps them on a tie); the dragon's strength is the towns on
    the board and its verdict counts active warriors (rules D-IM-6, D-IM-11); "you may build
    improvements only when you have at least one town on the board"."""
    geo = board_geometry(after)
    roads: dict[str, str] = dict(before["roads"])
    buildings: dict[str, JSONObject] = {v: dict(b) for v, b in before["buildings"].items()}
    board = {"roads": roads, "buildings": buildings}
    played = {seat: s["warriors_played"] for seat, s in before["seats"].items()}
    army = before["army"]["seat"]
    found: list[str] = []
    battle: JSONObject | None = None  # the dragon's battle whose verdict is being followed
    verdict: list[tuple[str, str]] = []
    tiles = {code: dict(tile) for code, tile in before["board"]["tiles"].items()}
    robber = before["robber"]
    owed: JSONObject | None = None  # what the roll being followed owes each seat
    levels = {seat: dict(s["improvements"]) for seat, s in before["seats"].items()}
    die: JSONObject | None = None  # the colour the event die shows, who is owed a card, who got one
    deck = list(before["decks"].get("basic", ()))
    bought = False

    def own(seat: str, vertex: int) -> JSONObject | None:
        building = buildings.get(str(vertex))
        return building if building is not None and building["owner"] == seat else None

    def reaches(seat: str, vertex: int) -> bool:
        if str(vertex) in buildings:
            return own(seat, vertex) is not None
        return any(roads.get(e) == seat for e in geo.vertex_edges[vertex])

    def close() -> None:
        if battle is not None:
            found.extend(_verdict(battle, verdict))
        if owed is not None and not owed["short"]:
            found.extend(_produced(owed, {}))
        if die is not None and die["got"] != die["owed"]:
            found.append(f"{EVENT_DIE}: {die['colour']} with red {die['red']} and {levels} gives cards to {die['got']}")

    for event in events:
        data, kind = event.data, event.kind
        seat: str = data.get("seat") or ""
        if kind in ("dice", "dragon_battle", "order_of_play", "game_over"):
            close()
            owed = die = None
            battle, verdict = (dict(data), []) if kind == "dragon_battle" else (None, [])
            if battle is not None:  # the board the dragon finds
                battle["towns"] = sum(1 for b in buildings.values() if b["kind"] == "town")
                battle["exposed"] = {b["owner"] for b in buildings.values() if b["kind"] == "town" and not b["wonder"]}
        if kind == "dice" and data.get("event") not in (None, "black"):
            need = max(1, data["red"] - 1)
            colour = data["event"]
            die = {"colour": colour, "red": data["red"], "got": set()}
            die["owed"] = {who for who, level in levels.items() if level[colour] >= need}
        if kind in ("card", "card_point", "deck_empty") and die is not None and battle is None:
            die["got"].add(seat)
        if kind == "improve":
            levels[seat][data["improvement"]] = data["level"]
            if not any(b["owner"] == seat and b["kind"] == "town" for b in buildings.values()):
                found.append(f"{TOWNED}: {seat} builds {data['improvement']} {data['level']} with no town")
        if kind == "buy" or (kind == "card_drawn" and bought):
            bought = kind == "buy"
            if kind == "card_drawn" and (not deck or deck.pop(0) != data["card"]):
                found.append(f"{CARDS}: {seat} draws {data['card']}, not the top of the deck")
        if kind == "dice" and data["total"] != 7:
            owed = _owed(tiles, robber, buildings, geo, data["total"], after["mode"] == "wonders")
        if kind == "shortage" and owed is not None:
            owed["short"] = True
        if kind == "production" and owed is not None:
            found += [] if owed["short"] else _produced(owed, data["produced"])
            owed = None
        if kind == "robber":
            robber = data["tile"]
        if kind == "fog_lifted":
            tiles[data["tile"]]["fog"] = False
        if kind == "play" and data.get("card") == "inventor":
            a, b = data["tiles"]
            tiles[a]["number"], tiles[b]["number"] = tiles[b]["number"], tiles[a]["number"]
        if kind in ("dragonslayer", "card", "card_point", "deck_empty", "demote") and battle is not None:
            verdict.append((kind, seat))
        if kind == "settle" and data["vertex"] is not None:
            buildings[str(data["vertex"])] = {"owner": seat, "kind": data["piece"], "wonder": None}
            if data["edge"] is not None:
                if data["vertex"] not in geo.edge_ends[data["edge"]]:
                    found.append(
                        f"{PLACES}: {seat}'s set-up road {data['edge']} is not at its village {data['vertex']}"
                    )
                roads[data["edge"]] = seat
        elif kind == "road":
            if not any(reaches(seat, end) for end in geo.edge_ends[data["edge"]]):
                found.append(f"{PLACES}: {seat}'s road on {data['edge']} touches none of its roads or settlements")
            roads[data["edge"]] = seat
            found += _at_all_times(board, seat, "road")
        elif kind == "village":
            if not any(roads.get(e) == seat for e in geo.vertex_edges[data["vertex"]]):
                found.append(f"{PLACES}: {seat}'s village at {data['vertex']} is at the end of none of its roads")
            buildings[str(data["vertex"])] = {"owner": seat, "kind": "village", "wonder": None}
            found += _at_all_times(board, seat, "village")
        elif kind == "town":
            building = own(seat, data["vertex"])
            if building is None or building["kind"] != "village":
                found.append(f"{PLACES}: {seat}'s town at {data['vertex']} is not on a village of its own")
            buildings[str(data["vertex"])] = {"owner": seat, "kind": "town", "wonder": None}
            found += _at_all_times(board, seat, "town")
        elif kind == "warrior":
            vertex = data["vertex"]
            if str(vertex) in buildings or not any(roads.get(e) == seat for e in geo.vertex_edges[vertex]):
                found.append(f"{PLACES}: {seat}'s warrior at {vertex} is not on an empty vertex at the end of its road")
        elif kind == "demote":
            if data["removed"]:
                buildings.pop(str(data["vertex"]), None)
            else:
                buildings[str(data["vertex"])]["kind"] = "village"
                found += _at_all_times(board, seat, "village")
        elif kind == "play" and data.get("card") == "diplomat":
            roads.pop(data["edge"], None)
        elif kind == "play" and data.get("card") == "warrior":
            played[seat] += 1
        elif kind == "wonder" and "vertex" in data:
            for building in buildings.values():
                if building.get("wonder") == data["improvement"]:
                    building["wonder"] = None
            buildings[str(data["vertex"])]["wonder"] = data["improvement"]
        elif kind == "longest_route":
            found += _route_passes(board, geo, after["seating"], data)
        elif kind == "strongest_army":
            if not seat or played[seat] < ARMY_MIN or (army is not None and played[seat] <= played[army]):
                found.append(f"{ARMY}: it passes from {army} to {seat} with the Warrior cards played at {played}")
            army = seat
    close()
    return found


def _at_all_times(board: JSONObject, seat: str, kind: str) -> list[str]:
    """D-IM-13: "A player may have a maximum of 15 roads on the board at any time", 5 villages,
    4 towns: after each placement, not only at the end of the round."""
    if kind == "road":
        held = sum(1 for owner in board["roads"].values() if owner == seat)
    else:
        held = sum(1 for b in board["buildings"].values() if b["owner"] == seat and b["kind"] == kind)
    return [f"{LIMIT}: {seat} has {held} {kind}s on the board at once"] if held > LIMITS[kind] else []


def _owed(
    tiles: JSONObject, robber: str | None, buildings: JSONObject, geo: Geometry, total: int, wonders: bool
) -> JSONObject:
    """What a roll owes each seat by the book: "A village produces one resource from any adjacent
    tile while towns produces two", nothing from a tile under the robber, the desert or fog; in
    Wonders & Warriors a town on wood, wool or ore "one wood and one paper" (cloth, coin). Gold
    is counted apart, "any resource of the player's choice"."""
    fixed: dict[str, Counter[str]] = {}
    gold: Counter[str] = Counter()
    for code, tile in tiles.items():
        if tile["number"] != total or tile["fog"] or code == robber:
            continue
        for vertex in geo.tile_vertices[code]:
            building = buildings.get(str(vertex))
            if building is None:
                continue
            seat, n = building["owner"], 2 if building["kind"] == "town" else 1
            mine = fixed.setdefault(seat, Counter())
            if tile["kind"] == "gold":
                gold[seat] += n
            elif n == 2 and wonders and tile["kind"] in COMMODITY_OF:
                mine.update((YIELDS[tile["kind"]], COMMODITY_OF[tile["kind"]]))
            elif tile["kind"] in YIELDS:
                mine[YIELDS[tile["kind"]]] += n
    return {"total": total, "fixed": fixed, "gold": gold, "short": False}


def _produced(owed: JSONObject, produced: JSONObject) -> list[str]:
    """A roll the bank could pay in full (D-IM-4) gives every seat what it is owed: its fixed
    cards, and as many more cards as its gold tiles owe it."""
    found = []
    for seat in sorted(set(produced) | set(owed["fixed"]) | set(owed["gold"])):
        got = Counter({g: n for g, n in produced.get(seat, {}).items() if n})
        fixed: Counter[str] = owed["fixed"].get(seat, Counter())
        extra = got - fixed
        if fixed - got or extra.total() != owed["gold"][seat]:
            found.append(
                f"{PRODUCE}: the roll of {owed['total']} gives {seat} {dict(got)}, owed {dict(fixed)} and {owed['gold'][seat]} gold"
            )
    return found


def _route_passes(board: JSONObject, geo: Geometry, seating: list[str], data: JSONObject) -> list[str]:
    """The longest route passes to a player with 5 or more roads, strictly longer than its holder;
    its holder loses it to nobody only below 5, when nobody else has 5 (rule D-IM-7)."""
    lengths = {seat: route_length(board, geo, seat) for seat in seating}
    new, old = data["seat"], data["lost"]
    best = max(lengths.values(), default=0)
    if new is None:
        kept = old is not None and lengths[old] >= ROUTE_MIN
        return [f"{ROUTE}: {old} loses it to nobody with the lengths {lengths}"] if kept or best >= ROUTE_MIN else []
    if lengths[new] < max(ROUTE_MIN, best) or (old is not None and lengths[old] >= lengths[new]):
        return [f"{ROUTE}: it passes from {old} to {new} with the lengths {lengths}"]
    return []


def _verdict(battle: JSONObject, verdict: list[tuple[str, str]]) -> list[str]:
    """The dragon's strength is "the total number of towns on the board"; it is defeated when "the
    total strength of the army is equal or greater"; then one player with more active warriors
    than any other is the Dragonslayer, an equal number at the top takes a card each; else "the
    player(s) with the fewest number of active knights", among those with a town without a
    wonder, lose a town each (rules D-IM-6, D-IM-11)."""
    towns, exposed = battle["towns"], battle["exposed"]
    counts: dict[str, int] = battle["warriors"]
    found = []
    if battle["attack"] != towns or battle["defence"] != sum(battle["forces"].values()):
        found.append(
            f"{DRAGON}: strength {battle['attack']} against {battle['defence']} with {towns} towns on the board"
        )
    if battle["won"] != (battle["defence"] >= battle["attack"]):
        found.append(f"{DRAGON}: the strength {battle['defence']} against {battle['attack']} gives won={battle['won']}")
    top = max(counts.values(), default=0)
    leaders = {s for s, n in counts.items() if n == top}
    slayers = {s for k, s in verdict if k == "dragonslayer"}
    rewarded = {s for k, s in verdict if k in ("card", "card_point", "deck_empty")}
    burnt = {s for k, s in verdict if k == "demote"}
    if battle["won"]:
        want = (leaders, set()) if len(leaders) == 1 else (set(), leaders)
        if (slayers, rewarded) != want or burnt:
            found.append(f"{DRAGON}: a defeat with active warriors {counts} gives {verdict}")
    else:
        fewest = min((counts[s] for s in exposed), default=0)
        if slayers or burnt != {s for s in exposed if counts[s] == fewest}:
            found.append(f"{DRAGON}: a victory with active warriors {counts} gives {verdict}")
    return found


def _end(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The game is over when a player reaches the target in its own turn, or (gm's round-limit
    option) after the last round, the most points winning, hidden cards included, a tie shared;
    nothing happens after the end, and the final scores are the points with the cards in hand."""
    ends = [e.data for e in events if e.kind == "game_over"]
    if before["phase"] == "over":
        return [f"{END}: a turn after the game is over has {len(events)} events"] if events or after != before else []
    if after["phase"] != "over":
        return [f"{END}: the game goes on after a game_over event"] if ends else []
    full = {seat: points(after, seat, hidden=True) for seat in after["seating"]}
    found = [] if len(ends) == 1 and events[-1].kind == "game_over" else [f"{END}: the game ends with {ends}"]
    if after["winner"] is not None:
        want = [after["winner"]]
    elif after["round_limit"] and after["round"] == after["round_limit"]:
        want = [seat for seat in after["seating"] if full[seat] == max(full.values())]
    else:
        return found + [f"{END}: round {after['round']} ends the game with no winner (limit {after['round_limit']})"]
    if ends and (ends[-1]["winners"] != want or ends[-1]["scores"] != full):
        found.append(f"{END}: the game ends with {ends[-1]['winners']} and {ends[-1]['scores']}, not {want} and {full}")
    return found


# ----------------------------------------------------------------------------------------------
# The eleventh session's ledger: the market's rates, the dragon's track, pieces that stay, the
# game's start.

DRAGON_STEPS = 7  # rule D-IM-6: "The dragon arrives after 7 black rolls, then starts again at 7"
GUILD = 3  # "When any player builds 3 improvements of a type (e.g. Science), they build a strategic improvement"


def _market_rates(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "The player can give any 4 cards of the same type in exchange for one card of any other
    type"; "If the player has a village adjacent to a general port, they may do the same trade
    with 3 cards"; "adjacent to a resource port ... with 2 cards of the same type for that type";
    the guild: "trade two commodities of the same type for any other resource or commodity";
    the Merchant and the Merchant Fleet's 2 for 1 (rule D-IM-10). No trade with the market is
    cheaper than one of these; the settlements, improvements and cards are followed through
    the round's events (a port counts from the settlement built beside it)."""
    ports: dict[int, set[str]] = {}
    geo = board_geometry(before)
    for port in before["board"]["ports"]:
        for vertex in geo.edge_ends[port["edge"]]:
            ports.setdefault(vertex, set()).add(port["kind"])
    owners = {int(v): b["owner"] for v, b in before["buildings"].items()}
    trade = {seat: s["improvements"]["trade"] for seat, s in before["seats"].items()}
    merchant = before.get("merchant")
    fleet: dict[str, set[str]] = {}
    found = []
    for event in events:
        data, kind = event.data, event.kind
        if kind in ("settle", "village") and data.get("vertex") is not None:
            owners[data["vertex"]] = data["seat"]
        elif kind == "improve":
            trade[data["seat"]] = max(trade[data["seat"]], data["level"] if data["improvement"] == "trade" else 0)
        elif kind == "play" and data.get("card") == "merchant":
            merchant = {"seat": data["seat"], "tile": data["tile"]}
        elif kind == "play" and data.get("card") == "fleet":
            fleet.setdefault(data["seat"], set()).add(data["good"])
        elif kind == "dice":
            fleet = {}  # "the Merchant Fleet lasts the turn it is played in"
        elif kind == "market":
            seat = data["seat"]
            [(give, count)] = [(g, n) for g, n in data["give"].items() if n > 0] or [("?", 0)]
            kinds = {k for v, owner in owners.items() if owner == seat for k in ports.get(v, ())}
            rates = {4}
            if "3:1" in kinds:
                rates.add(3)
            tile = before["board"]["tiles"][merchant["tile"]] if merchant and merchant["seat"] == seat else None
            if (
                give in kinds
                or (give in COMMODITY_FOR.values() and trade[seat] >= GUILD)
                or (tile is not None and YIELDS.get(tile["kind"]) == give)
                or give in fleet.get(seat, ())
            ):
                rates.add(2)
            if count < min(rates):
                found.append(
                    f"{RATES}: {seat} gives the market {count} {give} for one card, its rates are {sorted(rates)}"
                )
    return found


def _dragon_track(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "If the event dice rolls black, the dragon moves towards the island by one step" and,
    "When the dragon reaches the island", the war; it then starts again (rule D-IM-6). The
    round's black rolls move it from where it stood to where it stands, with one war each time
    it reached the island, right after the black roll that brought it there."""
    if before["mode"] != "wonders":
        return []
    step, found = before["dragon"], []
    for event in events:
        if event.kind == "dice" and event.data.get("event") == "black":
            step += 1
        elif event.kind == "dragon_battle":
            if step != DRAGON_STEPS:
                found.append(f"{DRAGON_TRACK}: the dragon makes war at step {step} of {DRAGON_STEPS}")
            step = 0
        elif event.kind == "dice" and step >= DRAGON_STEPS:
            found.append(f"{DRAGON_TRACK}: the dragon reached the island and made no war")
            step = 0
    if step >= DRAGON_STEPS:
        found.append(f"{DRAGON_TRACK}: the dragon reached the island and made no war")
        step = 0
    if after["dragon"] != step:
        found.append(
            f"{DRAGON_TRACK}: the dragon stands at {after['dragon']} after the round; the black rolls put it at {step}"
        )
    return found


def _pieces_stay(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """What is built stays, its owner's: a road leaves the board only by the Diplomat (rule
    D-IM-10); a village becomes a town ("upgrade it to a town", rule D-IM-3); a town becomes a
    village again, or leaves the board, only when the dragon demotes it ("the dragon will destroy
    one of their towns and reduce it to a village", rule D-IM-13)."""
    removed = {data["edge"] for data in _of(events, "play") if data.get("card") == "diplomat"}
    demoted = {str(data["vertex"]): data for data in _of(events, "demote")}
    found = [
        f"{STAY}: {owner}'s road on {edge} is {after['roads'].get(edge) or 'gone'} after the round"
        for edge, owner in before["roads"].items()
        if after["roads"].get(edge) != owner and edge not in removed
    ]
    for vertex, building in before["buildings"].items():
        now = after["buildings"].get(vertex)
        if now is None:
            if not demoted.get(vertex, {}).get("removed"):
                found.append(f"{STAY}: {building['owner']}'s {building['kind']} at {vertex} is gone")
        elif now["owner"] != building["owner"]:
            found.append(f"{STAY}: {building['owner']}'s {building['kind']} at {vertex} is {now['owner']}'s")
        elif building["kind"] == "town" and now["kind"] != "town" and vertex not in demoted:
            found.append(f"{STAY}: {building['owner']}'s town at {vertex} is a {now['kind']} with no dragon")
    return found


def _setup(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ "At the start of the game, you are allowed to place two villages and one road adjacent to
    each of them. The first player must start placing, after which each player takes turn to
    place a village. When all players have placed one village, they place one village in reverse
    back to the first player"; in Wonders & Warriors "the players place one village and one town"."""
    if before["phase"] != "setup":
        return []
    placed = [(data["seat"], data["piece"]) for data in _of(events, "settle")]
    sequence = order_of_play(before)
    want = [*sequence, *reversed(sequence)]
    found = []
    if [seat for seat, _ in placed] != want:
        found.append(f"{SETUP}: the places were taken by {[s for s, _ in placed]}, not {want}")
    pieces = {"village": 2} if before["mode"] != "wonders" else {"village": 1, "town": 1}
    for seat in sequence:
        got = Counter(piece for s, piece in placed if s == seat)
        if got != Counter(pieces):
            found.append(f"{SETUP}: {seat} placed {dict(got)}, not {pieces}")
    unbuilt = [data["seat"] for data in _of(events, "settle") if data["vertex"] is None or data["edge"] is None]
    if unbuilt:
        found.append(f"{SETUP}: {unbuilt} placed a settlement without its road")
    return found
