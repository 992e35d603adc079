"""What the Conqueror! rule book promises of every turn, for the invariant battery
(gm.testing.battery): each check returns a line per broken rule, named by the book's section
and the decision that reads it, [] when the turn keeps it.

Gold never goes below zero and changes only by taxes, rush-buys and winter pay, each an event;
a nation's armies change only as made, bought, lost in battle, deserted or lost to a rebellion;
influence in a province sums to 100; cultural influence comes only from a neighbour of greater
power above 160, and no more than the formula gives; a diplomat reaches a province of its own
nation's and gives 10, several arriving together as README choice 6 says; a conquest costs the conqueror 10; the
rest of the Effects on Control Levels table moves the owner's control where nothing else does, and
what a nation loses the neutral player gains; every move and attack goes to a neighbour, a move into a
province the nation holds, an attack on one it does not; each province's armies follow the turn's
events; labour finishes items at the Production Costs table's prices, a levied labour unit is a
gold, and each item has what it requires; cultural power is its formula; battles are fought duel by duel as D-CQ-2 says; winter
comes every 4th turn and pays what the support formula asks; a province that must rebel does;
a province changes hands by conquest or rebellion; population grows only by farms, culture and
fortifications only by building, and resources never change; a province's labour is never
less than half its maximum for want of control; a nation out of the game owns nothing, one in
it holds its capital; the score is the Score Table's; the game ends at the game limit with the
best score winning; each event is told to whom the rules let see it (D-ALL-5); only the troops
that cannot be paid desert; and a report shows a province's attitude to its owner and to its
reader, never another's share, in the words of the book's tables; each move and attack is an
order of its player's, with no more armies than it asked for, and every order (up to five) is
drawn from its stack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from copy import deepcopy
from fractions import Fraction
from math import floor

from gm.core.model import Event, JSONObject, Order, TurnResult

from .board import NEUTRAL, Board, control, owned
from .economy import (
    ATTACK_WEIGHT,
    FIELD_WEIGHT,
    GARRISON,
    REPEATED,
    SIEGE_WEIGHT,
    SURCHARGE,
    WINTER_EVERY,
    requirement,
)
from .moves import show_internal_moves
from .orders import MAX_MOVES
from .view import view

GOLD = "Gold (Gold, Support Costs, D-CQ-4, D-CQ-5)"
BUYING = "Rush-buying (Gold, Culture Table, D-CQ-4)"
ARMIES = "Armies (Production, Battle, Support Costs, D-CQ-2, D-CQ-5, D-CQ-7)"
INFLUENCE = "Influence sums to 100 (Influence, D-CQ-6)"
SPREAD = "Cultural spread (Culture, D-CQ-8)"
DIPLOMATS = "Diplomats (Effects on Control Levels, D-CQ-6)"
CONQUEST = "Conquest (Effects on Control Levels, D-CQ-6)"
CONTROL = "Effects on Control Levels (Influence, D-CQ-6)"
# The book's table, written out here rather than read from economy.py, so that the check holds the
# code to the book: a change to the code's numbers is found, not followed.
CONTROL_TABLE = {"FORT": 10, "KEEP": 10, "CASTLE": 10, "DEVELOP": 5, "ADVANCE": 10}
CONTROL_PER_TURN = {"SOLDIERS": 1, "TAXES": 1}
CONTROL_DESERTS = 5
# The Production Costs table, also written from the book: labour a unit ("Levy Taxes | 1",
# "Recruit Soldiers | 5", ...); farms cost "(pop+1)2", the population growing with each.
BOOK_COSTS: dict[str, int | None] = {
    "TAXES": 1,
    "SOLDIERS": 5,
    "DIPLOMAT": 5,
    "FORT": 50,
    "KEEP": 100,
    "CASTLE": 150,
    "FARMS": None,
    "DEVELOP": 60,
    "ADVANCE": 135,
}
STACKS = "Five orders a turn (Orders, D-CQ-1)"
MOVES = "Each troop moves once a turn (Orders)"
BATTLE = "Battle (Battles, Fortifications, D-CQ-2)"
WINTER = "Winter pay (Support Costs, D-CQ-5)"
REBELLION = "Rebellion (Control, D-CQ-7)"
HANDS = "Provinces change hands by conquest or rebellion"
LABOUR = "Productivity (Productivity, D-CQ-3)"
LAND = "Population, resources, culture and fortifications (Population, Productivity, Culture, Fortifications)"
NATIONS = "Nations in and out of the game"
SCORE = "Score Table (D-CQ-8)"
ROUTES = "Moves and attacks go to an adjacent country (Orders)"
PROVINCE_ARMIES = "Each province's armies (Orders, Battle, Production, Support Costs, D-CQ-7)"
PROGRESS = "Production costs (Production Costs, D-CQ-4)"
TAXES = "Levy Taxes adds 1 gold a labour unit (Production Costs, D-CQ-4)"
REQUIRES = "What an item requires (Production Costs, Culture, Fortifications)"
POWER = "Cultural power (Culture, D-CQ-8)"
YIELDED = "A lost point of influence goes to the neutral player (Influence, D-CQ-6)"
END = "Game limit (Game Options, D-CQ-9)"
READERS = "Who is told what (D-ALL-5; Game Options, Show Internal Moves)"
ATTITUDES = "Only the attitudes to the owner and to you are seen (Influence, D-ALL-5)"
DESERTERS = "Only the troops that cannot be paid desert (Gold, Support Costs, D-CQ-5)"
ORDERED = "A move is executed as planned, with no more armies than ordered (Orders)"
WORDS = "The words a report gives (Productivity and Influence tables, D-CQ-6)"
# The book's tables, lowest level of each band first (D-CQ-6: lower-bound inclusive):
# "rebellious | restless | content | supportive | devoted" and "hostile | suspicious | neutral |
# sympathetic | friendly" for 0-20%, 20-40%, ... 80-100%; "barely | somewhat | moderately |
# highly | extremely" for 1-4, 5-9, 10-14, 15-19, 20 or more labour units.
CONTROL_BANDS = ((0, "rebellious"), (20, "restless"), (40, "content"), (60, "supportive"), (80, "devoted"))
INFLUENCE_BANDS = ((0, "hostile"), (20, "suspicious"), (40, "neutral"), (60, "sympathetic"), (80, "friendly"))
PRODUCTIVITY_BANDS = ((1, "barely"), (5, "somewhat"), (10, "moderately"), (15, "highly"), (20, "extremely"))
# Who may read each kind of event, from the rules rather than from the code: a nation's own
# business goes to its seat alone (its failed orders, purchases, diplomats, production, cultural
# spread, winter pay, its control in a province it took, and how many armies it ordered when
# fewer went); what happens on the board
# goes to everyone; a move between a nation's own provinces to everyone while Show Internal
# Moves is on (the book's default), else to the mover alone; the stack draw to nobody.
OWN_EVENTS = (
    "attack_short",
    "move_short",
    "order_failed",
    "buy",
    "diplomat",
    "production",
    "influence",
    "winter",
    "conquest",
)
OPEN_EVENTS = ("battle", "capital", "eliminated", "desertion", "rebellion", "game_over")

Check = Callable[[JSONObject, dict[str, list[Order]], JSONObject, tuple[Event, ...]], list[str]]


def invariants(before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
    """Every rule of the book the turn from `before` to result.state broke."""
    if before["phase"] == "over":
        return []
    checks: tuple[Check, ...] = (
        _gold,
        _buying,
        _armies,
        _influence,
        _spread,
        _diplomats,
        _stacks,
        _moves,
        _routes,
        _province_armies,
        _progress,
        _taxes,
        _requirements,
        _power,
        _yielded,
        _battles,
        _conquest,
        _control,
        _winter,
        _rebellion,
        _hands,
        _land,
        _labour_given,
        _nations,
        _score,
        _end,
        _readers,
        _deserters,
        _attitudes,
        _words,
        _labour_exact,
        _as_ordered,
        _every_order_drawn,
    )
    return [line for check in checks for line in check(before, orders, result.state, result.events)]


def _of(events: Iterable[Event], *kinds: str) -> list[JSONObject]:
    return [e.data for e in events if e.kind in kinds]


def _gold(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Gold comes from taxes and goes on rush-buys and winter pay; never below zero; a nation
    out of the game has none."""
    change: Counter[str] = Counter()
    for data in _of(events, "production"):
        change[data["seat"]] += data["taxes"]
    for data in _of(events, "buy"):
        change[data["seat"]] -= data["price"]
    for data in _of(events, "winter"):
        change[data["seat"]] -= data["paid"]
    out = {d["seat"] for d in _of(events, "eliminated")}
    found = []
    for seat, now in after["seats"].items():
        gold, was = now["gold"], before["seats"][seat]["gold"]
        if gold < 0 or (seat not in out and gold - was != change[seat]) or (seat in out and gold):
            found.append(f"{GOLD}: {seat}'s gold went from {was} to {gold}; the events explain {change[seat]:+}")
    return found


def _buying(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Rush-buying pays the missing labour in gold with the culture's surcharge (+100 %
    primitive, +50 % developed, +25 % advanced), rounded up; checked where no PRODUCE changed the
    province's production this turn, so that its progress is the turn's start (an AI nation's
    orders are made inside resolve, so its buys are left out). Taxes are never bought, and a
    building or culture level only once (README choice 7)."""
    found = [
        f"{BUYING}: {d['seat']} bought {d['units']} {d['item']} in {d['province']}"
        for d in _of(events, "buy")
        if d["item"] == "TAXES" or d["units"] < 1 or (d["item"] in LEVELS and d["units"] != 1)
    ]
    for data in _of(events, "buy"):
        code, seat = data["province"], data["seat"]
        if before["seats"][seat]["ai"] or any(o.verb == "PRODUCE" and o.args[0] == code for o in orders.get(seat, [])):
            continue
        province = before["provinces"][code]
        missing = max(_labour(data["item"], data["units"], province["population"]) - province["progress"], 0)
        price = -(-missing * (100 + SURCHARGE[province["culture"]]) // 100)
        if data["price"] != price or data["item"] != province["item"]:
            found.append(
                f"{BUYING}: {seat} paid {data['price']} for {data['units']} {data['item']} in {code}, the book {price}"
            )
    return found


def _labour(item: str, units: int, population: int) -> int:
    """The labour of `units` of an item: the menu's price each, farms (population + 1)² each as
    the population grows."""
    cost = BOOK_COSTS[item]
    return sum((population + k) ** 2 for k in range(1, units + 1)) if cost is None else units * cost


def _armies(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """A nation's armies grow only by soldiers raised or bought and shrink only by battle
    losses, desertion in winter and provinces lost to rebellion; moves only move them."""
    change: Counter[str] = Counter()
    for data in _of(events, "production"):
        change[data["seat"]] += sum(m["units"] for m in data["made"].values() if m["item"] == "SOLDIERS")
    for data in _of(events, "buy"):
        change[data["seat"]] += data["units"] if data["item"] == "SOLDIERS" else 0
    for data in _of(events, "battle"):
        change[data["attacker"]] -= data["attacker_losses"]
        change[data["defender"]] -= data["defender_losses"]
    for data in _of(events, "desertion"):
        change[data["seat"]] -= sum(data["deserted"].values())
    for data in _of(events, "rebellion"):
        change[data["seat"]] -= data["was"]
    found = []
    for seat in before["seating"]:
        was, now = _armies_of(before, seat), _armies_of(after, seat)
        if now - was != change[seat]:
            found.append(f"{ARMIES}: {seat} had {was} armies and has {now}; the events explain {change[seat]:+}")
    return found


def _armies_of(state: JSONObject, seat: str) -> int:
    return int(sum(state["provinces"][code]["armies"] for code in owned(state, seat)))


def _influence(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """In every province the influence of all players and the neutral player sums to 100, each
    between 0 and 100."""
    parties = {*after["seating"], NEUTRAL}
    found = []
    for code, province in after["provinces"].items():
        influence = province["influence"]
        if (
            set(influence) != parties
            or sum(influence.values()) != 100
            or not all(0 <= v <= 100 for v in influence.values())
        ):
            found.append(f"{INFLUENCE}: {code} has {influence}")
    return found


def _spread(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "If the cultural power of a province is greater than 160 points, then it can add its
    owner's influence to surrounding provinces ... the one with the greater Cultural Power can
    influence the lesser one": each gain in a province comes from a neighbour of its nation's with
    power above 160 and above the province's, and is at most what the formula gives from all
    of them, Prestige x CPa/CPb x POPa/POPb x TYPEa/TYPEb rounded down (divisors at least 1:
    D-CQ-8), with the prestige the nation began the turn with. Powers are those recorded at the
    spread; a province that rebelled afterwards was still its nation's then."""
    board = Board(after["scenario"])
    rebelled: dict[str, str] = {d["province"]: d["seat"] for d in _of(events, "rebellion")}
    provinces = after["provinces"]

    def owner(code: str) -> str:
        return rebelled.get(code, str(provinces[code]["owner"]))

    found = []
    for data in _of(events, "influence"):
        seat = data["seat"]
        for b, points in data["gains"].items():
            power_b, pop_b = provinces[b]["power"], provinces[b]["population"]
            sources = [
                a
                for a in board.neighbours[b]
                if owner(a) == seat and provinces[a]["power"] > 160 and provinces[a]["power"] > power_b
            ]
            most = sum(
                floor(
                    Fraction(before["seats"][seat]["prestige"] * provinces[a]["power"], max(power_b, 1))
                    * Fraction(provinces[a]["population"], max(pop_b, 1))
                    * Fraction(3, 1 if owner(b) == NEUTRAL else 3)
                )
                for a in sources
            )
            if not sources or not 0 < points <= most:
                found.append(
                    f"{SPREAD}: {seat} gained {points} in {b} (power {power_b}) from {sources or 'no neighbour'}; "
                    f"the formula gives at most {most}"
                )
    return found


def _diplomats(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "Send Diplomat | +10 per diplomat", and README choice 6 for the diplomats of several
    nations reaching a province in one phase (rush-bought, or made by labour): each nation wants
    10 a diplomat, less only what it lacked of 100 (its influence after, less its points, is what
    it had); they arrive at once, so every report of them shows a party at the same influence; a
    lone nation gets its whole want; several never more than their wants, equal wants
    equal points and a larger want never fewer, so none gains by being counted last; and short of
    their wants only when the parties sending none there are left with nothing but the few
    points (fewer than the senders) that equal wants could not share."""
    phases: dict[tuple[bool, str], list[JSONObject]] = {}
    for data in _of(events, "diplomat"):
        phases.setdefault((data["bought"], data["province"]), []).append(data)
    found = _diplomats_at_home(before, events)
    for (bought, code), sent in phases.items():
        want = {d["seat"]: min(10 * d["diplomats"], 100 - d["influence"][d["seat"]] + d["points"]) for d in sent}
        got = {d["seat"]: d["points"] for d in sent}
        short = any(got[s] < want[s] for s in got)
        whole = [d["influence"] for d in _of(events, "diplomacy") if (d["bought"], d["province"]) == (bought, code)]
        left = [v for after in whole for q, v in after.items() if q not in got]
        shown = {(q, v) for d in sent for q, v in d["influence"].items()} | {
            (q, v) for after in whole for q, v in after.items() if q in got
        }
        fair = all(
            0 <= got[s] <= want[s] and (want[s] <= want[t] or got[s] >= got[t]) for s in got for t in got
        ) and all(got[s] == got[t] for s in got for t in got if want[s] == want[t])
        if (
            not fair
            or len(shown) != len({q for q, _ in shown})
            or (short and (len(sent) == 1 or any(v >= len(sent) for v in left)))
        ):
            found += [
                f"{DIPLOMATS}: {d['diplomats']} diplomats of {d['seat']} in {code} gave {d['points']} influence "
                f"(now {d['influence'][d['seat']]})"
                for d in sent
            ]
    return found


def _diplomats_at_home(before: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A diplomat "adds 10% to control level in province", the control level being "the
    influence that the owner of a province has": it reaches a province its nation holds then
    (followed through the turn's captures)."""
    owners = {code: str(p["owner"]) for code, p in before["provinces"].items()}
    found = []
    for event in events:
        d = event.data
        if event.kind == "battle" and d["captured"]:
            owners[d["to"]] = d["attacker"]
        if event.kind == "diplomat" and owners[d["province"]] != d["seat"]:
            found.append(
                f"{DIPLOMATS}: {d['diplomats']} diplomats of {d['seat']} reached {d['province']}, "
                f"which is {owners[d['province']]}'s"
            )
    return found


def _stacks(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """At most five move or attack orders of a player run a turn, each stack in its order."""
    found = []
    for data in _of(events, "stacks"):
        drawn: dict[str, list[int]] = {}
        for seat, number in data["order"]:
            drawn.setdefault(seat, []).append(number)
        found += [
            f"{STACKS}: {seat}'s orders ran as {numbers}"
            for seat, numbers in drawn.items()
            if numbers != list(range(1, len(numbers) + 1)) or len(numbers) > MAX_MOVES
        ]
    return found


def _moves(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Each army moves (or attacks) once a turn: no province sends out more armies than it held
    at the start, with the soldiers bought before the moves; and no army moves out of a province
    attacked earlier in the turn (it stays to defend it)."""
    bought = Counter({d["province"]: d["units"] for d in _of(events, "buy") if d["item"] == "SOLDIERS"})
    sent: Counter[str] = Counter()
    attacked: set[str] = set()
    found = []
    for event in events:
        if event.kind == "move":
            if event.data["from"] in attacked:
                found.append(f"{MOVES}: {event.data['seat']} moved out of {event.data['from']} after it was attacked")
            sent[event.data["from"]] += event.data["armies"]
        elif event.kind == "battle":
            sent[event.data["from"]] += event.data["attacking"]
            attacked.add(event.data["to"])
    for code, count in sent.items():
        if count > before["provinces"][code]["armies"] + bought[code]:
            found.append(f"{MOVES}: {count} armies left {code}, which held {before['provinces'][code]['armies']}")
    return found


def _owners_during_moves(before: JSONObject, events: tuple[Event, ...]) -> list[tuple[Event, dict[str, str]]]:
    """Each move and battle event with the owners it found, followed through the turn's captures."""
    owners = {code: str(p["owner"]) for code, p in before["provinces"].items()}
    found = []
    for event in events:
        if event.kind in ("move", "battle"):
            found.append((event, dict(owners)))
            if event.kind == "battle" and event.data["captured"]:
                owners[event.data["to"]] = event.data["attacker"]
    return found


def _routes(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "You may order any number of troops to move (or attack) from one country to an adjacent
    country": every move and attack leaves a province of the nation's for a neighbouring one; a
    move ("Green signifies a move between friendly countries") goes to a province the nation
    holds when it runs ("unless ... you no longer hold the country to which you had planned to
    move"), an attack ("red signifies an attack") to one it does not hold, and the battle's
    defender is the province's owner then."""
    board = Board(after["scenario"])
    found = []
    for event, owners in _owners_during_moves(before, events):
        d = event.data
        seat = d["seat"] if event.kind == "move" else d["attacker"]
        source, target = d["from"], d["to"]
        wrong = []
        if not board.adjacent(source, target):
            wrong.append(f"{target} is not next to {source}")
        if owners[source] != seat:
            wrong.append(f"{source} is {owners[source]}'s")
        if event.kind == "move" and owners[target] != seat:
            wrong.append(f"the move's target {target} is {owners[target]}'s")
        if event.kind == "battle" and (owners[target] == seat or d["defender"] != owners[target]):
            wrong.append(f"the attack on {target} names {d['defender']} as defender; it was {owners[target]}'s")
        if wrong:
            found.append(f"{ROUTES}: {seat} {event.kind} {source} -> {target}: {'; '.join(wrong)}")
    return found


def _province_armies(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Each province's armies, followed through the turn: soldiers rush-bought, then every move
    (out of one province, into the other) and battle (the attackers leave their province; the
    defenders left hold it, or the attackers left take it) as the events tell them, with the
    defenders a battle names being the province's armies then; then the soldiers recruited, the
    armies that deserted in winter, and a rebel province's population's worth ("it becomes
    neutral with its population's worth of armies", D-CQ-7). A neutral province recruits with its
    own labour, halved, until it holds its population; no province holds fewer than none."""
    armies = {code: int(p["armies"]) for code, p in before["provinces"].items()}
    for d in _of(events, "buy"):
        armies[d["province"]] += d["units"] if d["item"] == "SOLDIERS" else 0
    found = []
    for event in events:
        d = event.data
        if event.kind == "move":
            armies[d["from"]] -= d["armies"]
            armies[d["to"]] += d["armies"]
        elif event.kind == "battle":
            if d["defending"] != armies[d["to"]] or d["attacking"] > armies[d["from"]]:
                found.append(
                    f"{PROVINCE_ARMIES}: {d['attacker']} attacked {d['to']} ({armies[d['to']]} armies) from "
                    f"{d['from']} ({armies[d['from']]}); the battle says {d['attacking']} against {d['defending']}"
                )
            armies[d["from"]] -= d["attacking"]
            left = d["attacking"] - d["attacker_losses"] if d["captured"] else d["defending"] - d["defender_losses"]
            armies[d["to"]] = left
    for d in _of(events, "production"):
        for code, m in d["made"].items():
            armies[code] += m["units"] if m["item"] == "SOLDIERS" else 0
    for d in _of(events, "winter"):
        for code, n in d["deserted"].items():
            armies[code] -= n
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    for code, province in after["provinces"].items():
        now, was = province["armies"], before["provinces"][code]
        if code in rebelled:
            expected: tuple[int, int] = (province["population"], province["population"])
        elif province["owner"] == NEUTRAL and was["owner"] == NEUTRAL:
            levied = (was["progress"] + province["labour"]) // int(BOOK_COSTS["SOLDIERS"] or 0)
            top = max(armies[code], min(armies[code] + levied, province["population"]))
            expected = (armies[code], top)
        else:
            expected = (armies[code], armies[code])
        if now < 0 or not expected[0] <= now <= expected[1]:
            found.append(f"{PROVINCE_ARMIES}: {code} holds {now} armies; the turn's events give {expected}")
    return found


def _progress(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """The Production Costs table: labour goes into the province's item and finishes a unit at
    its cost, "Recruit Soldiers | 5", "Send Diplomat | 5", "Build Fort | 50", "Build Keep | 100",
    "Build Castle | 150", "Build Farms | (pop+1)2", "Develop Culture | 60", "Advance Culture |
    135"; what is left over waits for the next unit (a building's is lost, README choice 4).
    Checked in a province its nation held all turn, with no PRODUCE or BUY for it (an AI nation's
    orders are made inside resolve, so its provinces are left out). A PRODUCE of another item
    starts it from nothing; one that failed leaves the province out."""
    bought = {d["province"] for d in _of(events, "buy")}
    made = {c: m for d in _of(events, "production") for c, m in d["made"].items()}
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    refused: dict[str, set[str]] = {}  # provinces whose PRODUCE failed: its words are the seat's own
    for d in _of(events, "order_failed"):
        words = d["order"].split()
        if len(words) > 1 and words[0] == "PRODUCE":
            refused.setdefault(d["seat"], set()).add(words[1])
    found = []
    for code, now in after["provinces"].items():
        was = before["provinces"][code]
        seat = was["owner"]
        if (
            seat == NEUTRAL
            or now["owner"] != seat
            or code in bought
            or code in rebelled
            or now["conquered"]
            or before["seats"][seat]["ai"]
            or code in refused.get(seat, ())
        ):
            continue
        item, start = was["item"], was["progress"]
        ordered = [o for o in orders.get(seat, []) if o.verb == "PRODUCE" and o.args and o.args[0] == code]
        if ordered and ordered[0].args[1] != item:  # "a new item starts from nothing"
            item, start = ordered[0].args[1], 0
        labour, units = now["labour"], 0
        if item == "TAXES" or requirement(item, was):
            continue
        if code in made:
            if made[code]["item"] != item:
                found.append(f"{PROGRESS}: {code} made {made[code]['item']} while it was making {item}")
                continue
            units = made[code]["units"]
        total = start + labour
        if item in REPEATED:
            cost = _labour(item, units, was["population"])
            following = _labour(item, 1, was["population"] + units)
            fine = now["item"] == item and now["progress"] == total - cost and 0 <= now["progress"] < following
        else:
            cost = int(BOOK_COSTS[item] or 0)
            done = total >= cost
            fine = (
                (units, now["progress"], now["item"]) == (1, 0, "TAXES")
                if done
                else (units, now["progress"], now["item"]) == (0, total, item)
            )
        if not fine:
            found.append(
                f"{PROGRESS}: {code} ({item}) had {start} labour and gave {labour}; it finished {units} "
                f"and holds {now['progress']} towards {now['item']}"
            )
    return found


def _taxes(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "Levy Taxes | 1 | adds 1 gold to your treasury": the gold a nation levies is the labour of
    its provinces that levy taxes (a province that rebels at the end of the turn may have levied
    or not: its labour is the margin)."""
    made = {c for d in _of(events, "production") for c in d["made"]}
    rebelled = {d["province"]: d["seat"] for d in _of(events, "rebellion")}
    levied = Counter({d["seat"]: d["taxes"] for d in _of(events, "production")})
    least: Counter[str] = Counter()
    margin: Counter[str] = Counter()
    for code, province in after["provinces"].items():
        if code in rebelled:
            margin[rebelled[code]] += province["labour"]
        elif province["owner"] != NEUTRAL and province["item"] == "TAXES" and code not in made:
            least[province["owner"]] += province["labour"]
    return [
        f"{TAXES}: {seat} levied {levied[seat]} gold; its levying provinces gave {least[seat]} labour"
        for seat in before["seating"]
        if not least[seat] <= levied[seat] <= least[seat] + margin[seat]
    ]


# What each one-off item makes of its province: the level it sets, and the culture it needs
# (the Fortifications Table's "culture required": fort primitive, keep developed, castle advanced).
LEVELS = {
    "FORT": ("fort", 1, 1),
    "KEEP": ("fort", 2, 2),
    "CASTLE": ("fort", 3, 3),
    "DEVELOP": ("culture", 2, 1),
    "ADVANCE": ("culture", 3, 2),
}


def _requirements(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """The Production Costs table's "Requires" and the culture and fortifications tables: a
    diplomat needs developed culture, a keep a fort and developed culture, a castle a keep and
    advanced culture, advanced culture developed culture; "you can't have more than one of any
    of these in the same province", so a fortification is 0 to 3 and culture 1 to 3."""
    found = []
    built = [(c, m["item"]) for d in _of(events, "production") for c, m in d["made"].items()]
    built += [(d["province"], d["item"]) for d in _of(events, "buy")]
    for code, item in built:
        province = after["provinces"][code]
        if item == "DIPLOMAT" and province["culture"] < 2:
            found.append(f"{REQUIRES}: {code} sent a diplomat at {province['culture']} culture")
        if item in LEVELS:
            field, level, culture = LEVELS[item]
            if province[field] != level or province["culture"] < culture:
                found.append(
                    f"{REQUIRES}: {code} finished {item} and has fort {province['fort']}, culture {province['culture']}"
                )
    for code, province in after["provinces"].items():
        if not (1 <= province["culture"] <= 3 and 0 <= province["fort"] <= 3 and province["population"] >= 0):
            found.append(f"{REQUIRES}: {code} has culture {province['culture']}, fort {province['fort']}")
    return found


def _power(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "CULTURAL POWER = (Culture * Control) - (5*distance)", distance "from the Empire's
    capital" (a neutral province: its culture times the local leaders' influence, README choice
    8). Checked where the power's inputs end the turn as they were at the spread: no cultural
    gain into the province, no desertion from it, its nation's capital not moved by a rebellion."""
    board = Board(after["scenario"])
    rebelled = {d["province"]: d["seat"] for d in _of(events, "rebellion")}
    moved = {b for d in _of(events, "influence") for b in d["gains"]}
    moved |= {c for d in _of(events, "winter") for c in d["deserted"]}
    unsettled = set(rebelled.values()) & {d["seat"] for d in _of(events, "capital", "eliminated")}
    found = []
    for code, province in after["provinces"].items():
        owner = rebelled.get(code, province["owner"])
        if code in moved or owner in unsettled:
            continue
        distance = 0 if owner == NEUTRAL else board.distance(after["seats"][owner]["capital"], code)
        power = province["culture"] * province["influence"][owner] - 5 * distance
        if province["power"] != power:
            found.append(
                f"{POWER}: {code} ({owner}, culture {province['culture']}, control {province['influence'][owner]}, "
                f"{distance} from the capital) has power {province['power']}; the formula gives {power}"
            )
    return found


def _yielded(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "If an action causes a player to lose influence, then the neutral player will gain that
    same amount to make up the difference": in a province where no diplomat, cultural spread or
    conquest moved influence, no other nation's influence rises; where the owner gained nothing
    (no fortification or culture finished), what its control lost the neutral player gained,
    and the other nations' influence stands."""
    moved = {d["province"] for d in _of(events, "diplomat")}
    moved |= {b for d in _of(events, "influence") for b in d["gains"]}
    moved |= {d["to"] for d in _of(events, "battle") if d["captured"]}
    gained = {c for d in _of(events, "production") for c, m in d["made"].items() if m["item"] in LEVELS}
    gained |= {d["province"] for d in _of(events, "buy") if d["item"] in LEVELS}
    found = []
    for code, province in after["provinces"].items():
        if code in moved:
            continue
        was, now = before["provinces"][code]["influence"], province["influence"]
        owner = before["provinces"][code]["owner"]
        others = [q for q in now if q not in (owner, NEUTRAL)]
        risen = [q for q in others if now[q] > was.get(q, 0)]
        if owner == NEUTRAL or code not in gained:
            lost = 0 if owner == NEUTRAL else was.get(owner, 0) - now[owner]
            fine = not risen and all(now[q] == was.get(q, 0) for q in others) and now[NEUTRAL] - was[NEUTRAL] == lost
        else:
            fine = not risen
        if not fine:
            found.append(f"{YIELDED}: {code}'s influence went from {was} to {now}")
    return found


def _battles(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Duels one to one until one side has no armies: the field first at 10 : 11, then the
    garrison (1, 2, 3 armies in a fort, keep, castle) at 10 : 15, 20, 30; a roll below 10 is the
    attacker's duel. The province is taken when no defender is left."""
    found = []
    for d in _of(events, "battle"):
        garrison = min(d["defending"], GARRISON[d["fort"]])
        duels, rolls = d["field_duels"] + d["siege_duels"], d["rolls"]
        weights = [FIELD_WEIGHT] * len(d["field_duels"]) + [SIEGE_WEIGHT.get(d["fort"], 0)] * len(d["siege_duels"])
        fair = len(rolls) == len(duels) and all(
            0 <= roll < ATTACK_WEIGHT + weight and (roll < ATTACK_WEIGHT) == (duel == "A")
            for roll, duel, weight in zip(rolls, duels, weights)
        )
        losses = (duels.count("D"), duels.count("A"))
        ended = d["attacking"] == losses[0] or d["defending"] == losses[1]
        taken = d["defending"] == losses[1] and d["attacking"] > losses[0]
        if not fair or (d["garrison"], d["field"]) != (garrison, d["defending"] - garrison):
            found.append(f"{BATTLE}: the duels of {d['attacker']} against {d['to']} are {duels} from rolls {rolls}")
        elif (d["attacker_losses"], d["defender_losses"]) != losses or not ended or d["captured"] != taken:
            found.append(f"{BATTLE}: {d['text']}")
    return found


def _conquest(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "Conquest | -10 to conqueror": a nation that takes a province holds it at its influence
    there less 10 (not below 0). Followed through the turn's events: a diplomat event tells its
    sender's influence after it, and leaves the others' unknown; a capture sets the
    conqueror's."""
    known: dict[tuple[str, str], int | None] = {}

    def influence(code: str, seat: str) -> int | None:
        return known.get((code, seat), before["provinces"][code]["influence"].get(seat, 0))

    found = []
    for event in events:
        d = event.data
        if event.kind == "diplomat":
            for seat in before["seating"]:
                known[d["province"], seat] = d["influence"][seat] if seat == d["seat"] else None
        elif event.kind == "conquest":  # the conqueror's own word of a capture (the battle's open)
            had = influence(d["province"], d["seat"])
            if had is not None and d["control"] != max(had - 10, 0):
                found.append(
                    f"{CONQUEST}: {d['seat']} took {d['province']} at {had} influence and holds it at {d['control']}"
                )
            known[d["province"], d["seat"]] = d["control"]
    return found


def _control(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """The Effects on Control Levels table, in a province its nation held all turn where no other
    influence moved (no conquest, diplomat or cultural spread there): "Recruit Soldiers | -1 per
    turn", "Levy Taxes | -1 per turn" (in a turn it gives labour, README choice 13), "Build Fort,
    Keep, or Castle | +10", "Develop Culture | +5", "Advance Culture | +10" (rush-bought or made),
    "Army Deserts | -5 per army"; the owner's control moves by these and nothing else, never
    past 0 or 100."""
    moved = {d["province"] for d in _of(events, "diplomat")}
    moved |= {b for d in _of(events, "influence") for b in d["gains"]}
    bought = {d["province"]: d["item"] for d in _of(events, "buy")}
    made = {c: m["item"] for d in _of(events, "production") for c, m in d["made"].items()}
    deserted = Counter({c: n for d in _of(events, "winter") for c, n in d["deserted"].items()})
    found = []
    for code, province in after["provinces"].items():
        was, owner = before["provinces"][code], province["owner"]
        if owner == NEUTRAL or was["owner"] != owner or province["conquered"] or code in moved:
            continue
        level = control(was)
        level = min(level + CONTROL_TABLE.get(bought.get(code, ""), 0), 100)
        item = made.get(code, province["item"])
        if province["labour"] > 0:
            level = max(level - CONTROL_PER_TURN.get(item, 0), 0)
        if code in made:
            level = min(level + CONTROL_TABLE.get(made[code], 0), 100)
        level = max(level - CONTROL_DESERTS * deserted[code], 0)
        if control(province) != level:
            found.append(
                f"{CONTROL}: {owner}'s control of {code} went from {control(was)} to {control(province)}; the table gives {level}"
            )
    return found


def _winter(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Every 4th turn is a winter turn: each nation pays (armies - population) x (distance from
    capital + 1) for each province; armies that cannot be paid desert, so no treasury goes below
    zero, and no army deserts that could be paid."""
    winters = _of(events, "winter")
    if bool(winters) != (before["turn"] % WINTER_EVERY == 0):
        return [f"{WINTER}: turn {before['turn']} has {len(winters)} winter events"]
    board, moved = Board(after["scenario"]), {d["seat"] for d in _of(events, "capital", "eliminated")}
    found = []
    for data in winters:
        seat = data["seat"]
        if data["gold"] < 0 or data["paid"] > data["owed"] or (data["deserted"] and data["paid"] == data["owed"]):
            found.append(f"{WINTER}: {seat} owed {data['owed']}, paid {data['paid']}, holds {data['gold']}")
        if seat in moved:
            continue
        capital = after["seats"][seat]["capital"]
        bill = sum(
            max(after["provinces"][c]["armies"] - after["provinces"][c]["population"], 0)
            * (board.distance(capital, c) + 1)
            for c in owned(after, seat)
        )
        if bill != data["paid"]:
            found.append(f"{WINTER}: {seat} paid {data['paid']}; its armies cost {bill} by the formula")
    return found


def _rebellion(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """A province whose owner's control is below 20 at the end of a turn and which holds fewer
    armies than its population rebels: it becomes neutral with its population's worth of armies."""
    found = []
    for code, province in after["provinces"].items():
        if province["owner"] != NEUTRAL and control(province) < 20 and province["armies"] < province["population"]:
            found.append(
                f"{REBELLION}: {code} of {province['owner']} ends the turn at control {control(province)} with {province['armies']} of {province['population']}"
            )
    for data in _of(events, "rebellion"):
        province = after["provinces"][data["province"]]
        # Rebellion is the turn's last step: the former owner's influence is its control then.
        had = province["influence"].get(data["seat"], 0)
        if had >= 20 or data["was"] >= province["population"]:
            found.append(f"{REBELLION}: {data['province']} rebelled at control {had} with {data['was']} armies")
        if province["owner"] != NEUTRAL or province["armies"] != province["population"]:
            found.append(
                f"{REBELLION}: {data['province']} rebelled and is held by {province['owner']} with "
                f"{province['armies']} armies, not neutral with its population's {province['population']}"
            )
    return found


def _hands(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """A province passes to a nation only by conquest, and turns neutral only by rebellion."""
    taken = {(d["to"], d["attacker"]) for d in _of(events, "battle") if d["captured"]}
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    found = []
    for code, province in after["provinces"].items():
        was, now = before["provinces"][code]["owner"], province["owner"]
        if was != now and (code, now) not in taken and not (now == NEUTRAL and code in rebelled):
            found.append(f"{HANDS}: {code} passed from {was} to {now}")
    return found


# What finishing an item raises: farms add a population point each; the others set a level.
BUILT = {
    "FARMS": "population",
    "DEVELOP": "culture",
    "ADVANCE": "culture",
    "FORT": "fort",
    "KEEP": "fort",
    "CASTLE": "fort",
}


def _built(events: tuple[Event, ...], bought_only: bool) -> Counter[tuple[str, str]]:
    """(province, field) -> levels or points built this turn: rush-bought, and made by labour."""
    built: Counter[tuple[str, str]] = Counter()
    made = [] if bought_only else [(c, m) for d in _of(events, "production") for c, m in d["made"].items()]
    made += [(d["province"], d) for d in _of(events, "buy")]
    for code, data in made:
        if data["item"] in BUILT:
            built[code, BUILT[data["item"]]] += data["units"]
    return built


def _land(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """The book: "Each province has a population which will grow only if you build farms there", a
    point a farm; "Countries that begin with a resource bonus will keep it throughout the game";
    culture rises a level by developing or advancing, a fortification by building (a fort is upgraded
    to a keep, a keep to a castle); nothing else changes them."""
    built = _built(events, bought_only=False)
    found = []
    for code, province in after["provinces"].items():
        was = before["provinces"][code]
        for field in ("population", "resources", "culture", "fort"):
            if province[field] - was[field] != built[code, field]:
                found.append(
                    f"{LAND}: {code}'s {field} went from {was[field]} to {province[field]}; "
                    f"{built[code, field]} built this turn"
                )
    return found


def _labour_given(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Each province gives (population + resources) x culture labour, "A 100% devoted country
    will suffer no penalties to productivity whatsoever ... The production rate will never be
    less than 50% of its maximum due to the control rate"; halved again when just conquered, and
    for a neutral province. The population and culture are those after the rush-buys, the owner
    the one before any rebellion at the end of the turn."""
    bought = _built(events, bought_only=True)
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    found = []
    for code, province in after["provinces"].items():
        was = before["provinces"][code]
        population = was["population"] + bought[code, "population"]
        culture = was["culture"] + bought[code, "culture"]
        best = (population + was["resources"]) * culture
        for halved in (province["conquered"], province["owner"] == NEUTRAL and code not in rebelled):
            best = best // 2 if halved else best
        # Halving a whole number twice and rounding down each time is rounding down once.
        if not best // 2 <= province["labour"] <= best:
            found.append(f"{LABOUR}: {code} gave {province['labour']} labour; the book {best // 2} to {best}")
    return found


def _nations(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """A nation in the game holds its capital; one out of it owns nothing and never comes back."""
    found = []
    for seat, me in after["seats"].items():
        mine = owned(after, seat)
        if me["alive"] and me["capital"] not in mine:
            found.append(f"{NATIONS}: {seat}'s capital {me['capital']} is not one of its {len(mine)} provinces")
        if not me["alive"] and (mine or me["gold"] or me["score"]):
            found.append(f"{NATIONS}: {seat} is out with {len(mine)} provinces, {me['gold']} gold, score {me['score']}")
        if me["alive"] and not before["seats"][seat]["alive"]:
            found.append(f"{NATIONS}: {seat} is back in the game")
    return found


def _score(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Each province: +1 an army, +3 a population point, +5 a culture level, +2 a resource
    point, +1 a fortification level, +20 the capital; and a point per two gold. Prestige rises a
    level per 100 points, from Baron (1) to Emperor (6) (D-CQ-8)."""
    found = []
    for seat, me in after["seats"].items():
        points = sum(
            p["armies"]
            + 3 * p["population"]
            + 5 * p["culture"]
            + 2 * p["resources"]
            + p["fort"]
            + 20 * (c == me["capital"])
            for c in owned(after, seat)
            for p in [after["provinces"][c]]
        )
        expected = points + me["gold"] // 2 if me["alive"] else 0
        if me["score"] != expected or (me["alive"] and me["prestige"] != min(1 + max(expected, 0) // 100, 6)):
            found.append(
                f"{SCORE}: {seat} scores {me['score']} at prestige {me['prestige']}; the table gives {expected}"
            )
    return found


def _end(before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The game ends when the game limit (turns) is reached, not before, with one game_over; the
    best whole score wins ("the player with the best score wins"), a tie shares the win, and the
    end tells every nation's whole score (the treasury's points included)."""
    last = before["turn"] >= before["turns"]
    ended = _of(events, "game_over")
    if (
        last != (after["phase"] == "over")
        or (not last and after["turn"] != before["turn"] + 1)
        or (last and after["turn"] != before["turn"])
        or len(ended) != last
    ):
        return [
            f"{END}: turn {before['turn']} of {before['turns']} led to {after['phase']} turn {after['turn']} "
            f"with {len(ended)} game_over events"
        ]
    if not last:
        return []
    best = max(s["score"] for s in after["seats"].values())
    winners = [seat for seat in after["seating"] if after["seats"][seat]["score"] == best]
    whole = {seat: after["seats"][seat]["score"] for seat in after["seating"]}
    [over] = ended
    if over["winners"] != winners or over["scores"] != whole or over["tie"] != (len(winners) > 1):
        return [
            f"{END}: {over['winners']} win with {over['scores']} (tie {over['tie']}); the best score is {winners}'s"
        ]
    return []


def _readers(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """Each event reaches whom the rules let see it (D-ALL-5): see OWN_EVENTS and OPEN_EVENTS;
    the game option internal-moves, on unless the GM turned it off, opens the moves."""
    shown = show_internal_moves(before)
    found = []
    for event in events:
        want: tuple[str, ...] | None
        if event.kind in ("stacks", "diplomacy"):
            want = ()
        elif event.kind in OPEN_EVENTS or (event.kind == "move" and shown):
            want = None
        elif event.kind in OWN_EVENTS or event.kind == "move":
            want = (event.data["seat"],)
        else:
            found.append(f"{READERS}: an event of a kind the rules do not name: {event.kind}")
            continue
        got = None if event.seats is None else tuple(event.seats)
        if got != want:
            told = "everyone" if got is None else ", ".join(got) or "nobody"
            meant = "everyone" if want is None else ", ".join(want) or "nobody"
            found.append(
                f"{READERS}: a {event.kind} event is told to {told}, not {meant}: {event.data.get('text', '')}"
            )
    return found


def _deserters(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "at the end of the winter turn any troops that you cannot afford to pay will desert":
    an army within its province's population costs nothing, so none of those deserts (a
    province deserted from keeps at least its population's worth), and the gold left after
    the pay could not have paid one more deserter ((distance from capital + 1) gold, D-CQ-5)."""
    board, moved = Board(after["scenario"]), {d["seat"] for d in _of(events, "capital", "eliminated")}
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    found = []
    for data in _of(events, "winter"):
        seat = data["seat"]
        if not data["deserted"] or seat in moved:
            continue
        capital = after["seats"][seat]["capital"]
        for code, count in data["deserted"].items():
            province, cost = after["provinces"][code], board.distance(capital, code) + 1
            kept = province["armies"] if code not in rebelled else None
            if (kept is not None and kept < province["population"]) or data["gold"] >= cost:
                found.append(
                    f"{DESERTERS}: {count} of {seat}'s armies deserted {code} (each {cost} gold, "
                    f"{kept} left there, population {province['population']}) with {data['gold']} gold left"
                )
    return found


def _attitudes(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "Whenever you're looking at a foreign province, you will see both the province's
    attitude to both its owner and to you. If it's your province you're viewing you will only
    see its attitude towards you": a seat's view is the same whatever the influence of the
    other parties in each province (neither its owner nor the seat), so long as theirs stand.
    Looked at for the first and the last seat."""
    seating, found = after["seating"], []
    for seat in dict.fromkeys((seating[0], seating[-1])):
        other, changed = deepcopy(after), False
        for province in other["provinces"].values():
            influence = province["influence"]
            others = [q for q in influence if q not in (province["owner"], seat)]
            shares = [influence[q] for q in others]
            turned = shares[1:] + shares[:1]
            if turned != shares:
                influence.update(zip(others, turned, strict=True))
                changed = True
        if changed and view(other, seat) != view(after, seat):
            found.append(f"{ATTITUDES}: {seat}'s report changes with the influence of others in provinces")
    return found


def _word(level: int, bands: tuple[tuple[int, str], ...]) -> str | None:
    """The book's word for a level: the band with the highest bottom at or below it."""
    return next((word for bottom, word in reversed(bands) if level >= bottom), None)


def _words(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """A report names control, influence and productivity by the book's tables: a nation's own
    provinces by its control there and their productivity, and every foreign province by its
    attitude "to both its owner and to you". Looked at for the first and the last seat."""
    found = []
    for seat in dict.fromkeys((after["seating"][0], after["seating"][-1])):
        seen, provinces = view(after, seat), after["provinces"]
        shown: list[tuple[str, str, str | None]] = []
        for row in (seen["you"] or {}).get("provinces", []):
            shown.append((row["code"], row["control_word"], _word(control(provinces[row["code"]]), CONTROL_BANDS)))
            if row["productivity"] > 0:
                shown.append((row["code"], row["productivity_word"], _word(row["productivity"], PRODUCTIVITY_BANDS)))
        for row in seen["influence"]:
            province = provinces[row["code"]]
            shown.append((row["code"], row["owner_word"], _word(control(province), CONTROL_BANDS)))
            shown.append((row["code"], row["yours_word"], _word(province["influence"][seat], INFLUENCE_BANDS)))
        for group in seen["known"]["groups"]:
            for place in group["places"]:
                province = provinces[place["code"]]
                shown.append((place["code"], place["cells"][2], _word(control(province), CONTROL_BANDS)))
                if seat in province["influence"]:
                    shown.append(
                        (place["code"], place["cells"][3], _word(province["influence"][seat], INFLUENCE_BANDS))
                    )
        found += [
            f"{WORDS}: {seat}'s report calls {code} {word}, the book {book}"
            for code, word, book in shown
            if word != book
        ]
    return found


def _labour_exact(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """D-CQ-3: "base = (population + resources) × culture. The owner's control c (0-100) scales
    it by (100 + c) / 200 ... A province conquered this turn, and a neutral province, produce
    half. Round down." Checked where the control the labour was given at is known: a province
    its holder kept all turn, that no diplomat reached by a rush-buy before the labour, at its
    control at the start plus what a fortification or culture bought then added (the Effects on
    Control Levels table)."""
    bought = _built(events, bought_only=True)
    levels = {d["province"]: d["item"] for d in _of(events, "buy") if d["item"] in CONTROL_TABLE}
    reached = {d["province"] for d in _of(events, "diplomat") if d["bought"]}
    reached |= {d["to"] for d in _of(events, "battle") if d["captured"]}
    rebelled = {d["province"] for d in _of(events, "rebellion")}
    found = []
    for code, province in after["provinces"].items():
        was = before["provinces"][code]
        if code in reached or code in rebelled or province["conquered"] or province["owner"] != was["owner"]:
            continue
        population = was["population"] + bought[code, "population"]
        culture = was["culture"] + bought[code, "culture"]
        level = min(control(was) + CONTROL_TABLE.get(levels.get(code, ""), 0), 100)
        halves = 2 if was["owner"] == NEUTRAL else 1
        labour = floor(Fraction((population + was["resources"]) * culture * (100 + level), 200 * halves))
        if province["labour"] != labour:
            found.append(
                f"{LABOUR}: {code} gave {province['labour']} labour; ({population} + {was['resources']}) x {culture} "
                f"at control {level} gives {labour}"
            )
    return found


def _at_most(asked: object, count: int) -> bool:
    """Whether an order's number (a whole number or ALL) lets `count` armies go."""
    return asked == "ALL" or (isinstance(asked, int) and count <= asked)


def _as_ordered(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "A dialog box appears allowing you to select how many armies will be moved between the
    two countries, or will leave the first country to attack the second"; "A move from one
    friendly country to another is executed exactly as you planned": each move and attack of a
    player's is one of its orders, from and to the provinces it names, with no more armies than
    it asked for (ALL: what is there). An attack on a province taken earlier in the turn moves
    in (README choice 1), so a move may be an ATTACK order's. An AI nation's orders are made
    inside resolve, so its moves are left out."""
    left = {seat: [o for o in orders.get(seat, []) if o.verb in ("MOVE", "ATTACK")] for seat in orders}
    found = []
    for event in events:
        if event.kind not in ("move", "battle"):
            continue
        d = event.data
        seat = d["seat"] if event.kind == "move" else d["attacker"]
        if before["seats"][seat]["ai"]:
            continue
        count = d["armies"] if event.kind == "move" else d["attacking"]
        verbs = ("MOVE", "ATTACK") if event.kind == "move" else ("ATTACK",)
        match = next(
            (
                o
                for o in left.get(seat, [])
                if o.verb in verbs and tuple(o.args[:2]) == (d["from"], d["to"]) and _at_most(o.args[2], count)
            ),
            None,
        )
        if match is None:
            found.append(f"{ORDERED}: {seat}'s {event.kind} of {count} from {d['from']} to {d['to']} was not ordered")
        else:
            left[seat].remove(match)
    return found


def _every_order_drawn(
    before: JSONObject, orders: dict[str, list[Order]], after: JSONObject, events: tuple[Event, ...]
) -> list[str]:
    """ "The computer picks one of the player's stacks at random, takes the top card, and
    executes that order ... and so on, until there are no stacks left": every move or attack
    order a player gave, up to five (D-CQ-1: extra lines are rejected), is drawn, once. An AI
    nation's orders are made inside resolve, so it is left out."""
    drawn = Counter(seat for data in _of(events, "stacks") for seat, _ in data["order"])
    found = []
    for seat, listed in orders.items():
        if seat not in before["seats"] or before["seats"][seat]["ai"] or not before["seats"][seat]["alive"]:
            continue
        given = min(sum(1 for o in listed if o.verb in ("MOVE", "ATTACK")), MAX_MOVES)
        if drawn[seat] != given:
            found.append(f"{STACKS}: {seat} gave {given} move and attack orders; {drawn[seat]} were drawn")
    return found
