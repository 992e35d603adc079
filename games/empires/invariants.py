"""What the Empires rule book (chapter 11 and the decisions that fill in the other chapters)
promises of every turn, for the invariant battery (gm.testing.battery): each check returns a
line per broken rule, named by its section or decision, [] when the turn keeps it.

BPs never go below zero, and every BP spent, given, earned and paid in supply is an event at the
book's price, and a shortfall disperses armies from the largest excess first, ties by area code;
armies, population and forts change only as the turn's events say; an area changes hands only
by capture or an elimination; victory points move only as 11.2, 11.4 and 11.5 count them;
census turns come three to five turns apart; an eliminated country owns nothing and a surviving
one is not out by 11.1; a warning is given when a possible win is first achieved and stands
until the next census turn, the points target stays the one set at the start, and the game
ends, with the winner and discount, exactly as 11.6 and 11.7 say; the report's roundup gives
the current leader's VP and tells of a census only once it is held (11.3); every seat's report
carries the standing warning and, at the end, the result the state records, told to every seat
once; the state holds the map's land areas and no sea; each action finds the area it names as
the actions before it left it (a LEVY half the population at most, a MOVE between the
country's own areas, an ATTACK from its own on another's, no more armies than are there, a
battle against what the area holds then), and the actions run by number in the order of play,
each the country's order of that number as written; a country's BPs and failed orders are told
to it alone.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

from gm.core.model import Event, JSONObject, Order, TurnResult

from .board import NEUTRAL, income, owned, supply
from .orders import ARMY_COST, MAX_FORT, MOVE_COST, RESERVE_COST
from .terrain import TERRAINS
from .view import view

BPS = "BPs (D-EMP-2, D-EMP-3, D-EMP-4)"
PRICES = "Prices (ARMY 3, RESERVE 1, GROW, FORTIFY, RAZE, D-EMP-4)"
ARMY_ALL = "Leftover BPs, the implicit ARMY ALL"
SUPPLY = "Supply (D-EMP-3)"
ARMIES = "Armies (LEVY, ARMY, RESERVE, D-EMP-5, D-EMP-3)"
AREAS = "Areas (LEVY, GROW, FORTIFY max 3, RAZE, D-EMP-6)"
HANDS = "Areas change hands by capture (D-EMP-5, D-EMP-14)"
BATTLE = "Battle (D-EMP-5, D-EMP-6)"
VP = "Victory points (11.2, 11.4, 11.5, D-EMP-7, D-EMP-8)"
CENSUS = "Census turns (11.3, D-EMP-8)"
ELIMINATION = "Elimination (11.1, D-EMP-14)"
END = "Victory conditions and game end (11.6, D-EMP-9..13)"
DISCOUNTS = "Prize discounts (11.7, D-EMP-15)"
ORDER = "Order of play (D-EMP-1)"
ROUNDUP = "The roundup (11.3)"
BOARD = "The map (seas never owned, D-EMP-12's target)"
REPORTS = "Every report (11.6 warning, D-EMP-13, the end)"
EACH_AREA = "Each area, action by action (LEVY, GROW, FORTIFY, RAZE, RESERVE, MOVE, ATTACK, D-EMP-3, D-EMP-5, D-EMP-6)"
INTERLEAVED = "Actions interleaved by number in the order of play (D-EMP-1)"
READERS = "Who is told what (D-ALL-5: treasury and failed orders)"
ORDERED = "Each action as ordered (ACTION WHERE WHERE-TO NUMBER)"
VERBS = {
    "levy": "LEVY",
    "army": "ARMY",
    "reserve": "RESERVE",
    "grow": "GROW",
    "fortify": "FORTIFY",
    "raze": "RAZE",
    "move": "MOVE",
    "battle": "ATTACK",
    "gift": "GIFT",
}
# The events that tell a country's BPs (a price paid, its books, what it gives) or a failed
# order of its: its own seat reads them, and a gift's receiver reads the gift (D-ALL-5).
OWN_EVENTS = ("order_failed", "finances", "army", "reserve", "grow", "fortify", "raze")

ACTIONS = ("levy", "army", "reserve", "grow", "fortify", "raze", "move", "gift", "defence")

Check = Callable[[JSONObject, JSONObject, tuple[Event, ...]], list[str]]


def invariants(before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
    """Every rule of the book the turn from `before` to result.state broke."""
    if before["phase"] == "over":
        return []
    checks: tuple[Check, ...] = (
        _bps,
        _dispersal,
        _prices,
        _armies,
        _areas,
        _hands,
        _battles,
        _victory_points,
        _census,
        _elimination,
        _end,
        _warning,
        _order_of_play,
        _roundup,
        _the_board,
        _game_over,
        _reports,
        _each_area,
        _interleaved,
        _readers,
    )
    found = [line for check in checks for line in check(before, result.state, result.events)]
    return found + _as_ordered(before, orders, result.events)  # the one check that reads the orders


def _of(events: Iterable[Event], *kinds: str) -> list[JSONObject]:
    return [e.data for e in events if e.kind in kinds]


def _alive(state: JSONObject) -> list[str]:
    return [seat for seat in state["seating"] if seat not in state["victory"]["eliminated"]]


def _newly_out(before: JSONObject, after: JSONObject) -> set[str]:
    return set(after["victory"]["eliminated"]) - set(before["victory"]["eliminated"])


def _spent(events: tuple[Event, ...]) -> Counter[str]:
    """BPs each country spent by the events: the prices paid, 1 a move or attack, its gifts."""
    spent: Counter[str] = Counter()
    for data in _of(events, "army", "reserve", "grow", "fortify", "raze"):
        spent[data["seat"]] += data["cost"]
    for data in _of(events, "move"):
        spent[data["seat"]] += MOVE_COST
    for data in _of(events, "battle"):
        spent[data["attacker"]] += MOVE_COST
    for data in _of(events, "gift"):
        spent[data["seat"]] += data["bps"]
    return spent


def _bps(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """BPs left after the actions are the turn's BPs less what the events spent plus gifts
    received; next turn's are income + leftover - supply, 0 when that is negative (D-EMP-3)."""
    spent, received = _spent(events), Counter[str]()
    for data in _of(events, "gift"):
        received[data["to"]] += data["bps"]
    found = [f"{BPS}: {seat} has {c['bps']} BPs" for seat, c in after["countries"].items() if c["bps"] < 0]
    books = {data["seat"]: data for data in _of(events, "finances")}
    for seat in _alive(before):
        book = books.get(seat)
        if book is None:
            found.append(f"{BPS}: {seat} has no finances this turn")
            continue
        was = before["countries"][seat]["bps"]
        if book["leftover"] != was - spent[seat] + received[seat]:
            found.append(
                f"{BPS}: {seat} began with {was}, spent {spent[seat]}, received {received[seat]}, "
                f"yet has {book['leftover']} left"
            )
        balance = book["income"] + book["leftover"] - book["supply"]
        now = 0 if seat in _newly_out(before, after) else max(0, balance)
        if (book["next"], after["countries"][seat]["bps"]) != (max(0, balance), now):
            found.append(
                f"{BPS}: {seat} has {after['countries'][seat]['bps']} BPs for next turn, {balance} by the book"
            )
        if book["leftover"] >= ARMY_COST:
            found.append(f"{ARMY_ALL}: {seat} ends its actions with {book['leftover']} BPs, enough for an army")
    return found + _supply(before, after, books)


def _supply(before: JSONObject, after: JSONObject, books: dict[str, JSONObject]) -> list[str]:
    """Income is the population of the country's land, supply its armies beyond population; a
    shortfall disperses that many armies (D-EMP-2, D-EMP-3)."""
    found = []
    for seat in _alive(after):
        book = books[seat]
        gone = sum(book["dispersed"].values())
        shortfall = max(0, book["supply"] - book["income"] - book["leftover"])
        if book["income"] != income(after, seat) or book["supply"] - gone != supply(after, seat) or gone != shortfall:
            found.append(
                f"{SUPPLY}: {seat} income {book['income']}, supply {book['supply']}, {gone} dispersed; "
                f"its land has population {income(after, seat)} and supply {supply(after, seat)} after"
            )
    return found


def _dispersal(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Which armies a shortfall disperses: one at a time from the area with the largest excess
    over its population, ties by area code (D-EMP-3), counted from the areas as the actions
    left them (after the turn, plus what dispersed)."""
    held, areas, found = _held_at_the_end(before, events), after["areas"], []
    for book in _of(events, "finances"):
        seat, gone = book["seat"], book["dispersed"]
        if not gone:
            continue
        excess = {
            code: areas[code]["armies"] + gone.get(code, 0) - areas[code]["population"]
            for code, owner in held.items()
            if owner == seat
        }
        expected: Counter[str] = Counter()
        for _ in range(sum(gone.values())):
            code = min(excess, key=lambda c: (-excess[c], c))
            excess[code] -= 1
            expected[code] += 1
        if dict(expected) != gone:
            found.append(
                f"{SUPPLY}: {seat}'s shortfall dispersed {gone}; the largest excesses first give {dict(expected)}"
            )
    return found


def _prices(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """ARMY 3 BPs an army, RESERVE 1 an army, GROW the population plus the terrain's extra,
    FORTIFY 2 times the new level, RAZE 1 a level."""
    terrain = {a["code"]: TERRAINS[a["terrain"]] for a in after["scenario"]["areas"]}
    wrong = [
        *(d for d in _of(events, "army") if d["cost"] != ARMY_COST * d["armies"]),
        *(d for d in _of(events, "reserve") if d["cost"] != RESERVE_COST * d["armies"]),
        *(d for d in _of(events, "grow") if d["cost"] != d["population"] - 1 + terrain[d["area"]].grow),
        *(d for d in _of(events, "fortify") if d["cost"] != 2 * d["fort"]),
        *(d for d in _of(events, "raze") if d["cost"] != d["levels"]),
    ]
    return [f"{PRICES}: {d['seat']} paid {d['cost']}: {d['text']}" for d in wrong]


def _armies(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A country's armies (on the map and in reserve) grow by LEVY and ARMY only and shrink by
    battle losses (an ambush's toll included) and dispersal; moves, reserves and retreats only
    move them. Neutral armies shrink by battle losses only."""
    change: Counter[str] = Counter()
    for data in _of(events, "levy", "army"):
        change[data["seat"]] += data["armies"]
    for data in _of(events, "battle"):
        change[data["attacker"]] -= data["attacker_losses"] + data.get("ambush", 0)
        change[data["defender"]] -= data["defender_losses"]
    for data in _of(events, "finances"):
        change[data["seat"]] -= sum(data["dispersed"].values())
    # A country out this turn leaves its areas to the neutrals with their armies (choice 10) and
    # loses its reserve (choice 6): what it had then is what the neutrals gained and the reserve.
    out = _newly_out(before, after)
    handed = {code: seat for code, seat in _held_at_the_end(before, events).items() if seat in out}
    reserve = _reserve_at_the_end(before, events)
    found = []
    for side in [seat for seat in before["seating"] if seat not in before["victory"]["eliminated"]] + [NEUTRAL]:
        was = _armies_of(before, side)
        if side in out:
            now = reserve[side] + sum(after["areas"][code]["armies"] for code, seat in handed.items() if seat == side)
        else:
            now = _armies_of(after, side)
        if side == NEUTRAL:
            now -= sum(after["areas"][code]["armies"] for code in handed)
        if now - was != change[side]:
            found.append(f"{ARMIES}: {side} had {was} armies and has {now}; the events explain {change[side]:+}")
    return found


def _held_at_the_end(before: JSONObject, events: tuple[Event, ...]) -> dict[str, str]:
    """Who held each area when the actions were over: the owners at the start, changed by the
    turn's captures in the order they came (nothing but a capture moves an area in the actions)."""
    owners = {code: area["owner"] for code, area in before["areas"].items()}
    for data in _of(events, "battle"):
        if data["captured"]:
            owners[data["to"]] = data["attacker"]
    return owners


def _reserve_at_the_end(before: JSONObject, events: tuple[Event, ...]) -> Counter[str]:
    """Each country's reserve when the actions were over: ARMY (the 17th action's included) adds
    to it, RESERVE takes from it."""
    reserve = Counter({seat: country["reserve"] for seat, country in before["countries"].items()})
    for data in _of(events, "army"):
        reserve[data["seat"]] += data["armies"]
    for data in _of(events, "reserve"):
        reserve[data["seat"]] -= data["armies"]
    return reserve


def _armies_of(state: JSONObject, side: str) -> int:
    reserve = state["countries"][side]["reserve"] if side in state["countries"] else 0
    return int(sum(a["armies"] for a in state["areas"].values() if a["owner"] == side) + reserve)


def _areas(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """An area's population changes only by LEVY (half at most, rounded down), GROW (once a
    turn) and collateral damage; its fort only by FORTIFY and RAZE, from 0 to 3; nothing is
    negative."""
    people: Counter[str] = Counter()
    forts: Counter[str] = Counter()
    found = []
    for data in _of(events, "levy"):
        people[data["area"]] -= data["armies"]
        if data["armies"] > before["areas"][data["area"]]["population"] // 2:
            found.append(f"{AREAS}: {data['seat']} levied {data['armies']} in {data['area']}")
    grown = Counter(d["area"] for d in _of(events, "grow"))
    people.update(grown)
    for data in _of(events, "battle"):
        people[data["to"]] -= data["collateral"]
    forts.update(d["area"] for d in _of(events, "fortify"))
    for data in _of(events, "raze"):
        forts[data["area"]] -= data["levels"]
    found += [f"{AREAS}: {code} grew {n} times in one turn" for code, n in grown.items() if n > 1]
    for code, area in after["areas"].items():
        was = before["areas"][code]
        if area["population"] - was["population"] != people[code] or area["fort"] - was["fort"] != forts[code]:
            found.append(f"{AREAS}: {code} went from {_area_text(was)} to {_area_text(area)} unexplained")
        if min(area["armies"], area["population"], area["fort"]) < 0 or area["fort"] > MAX_FORT:
            found.append(f"{AREAS}: {code} has {_area_text(area)}")
    return found


def _area_text(area: JSONObject) -> str:
    return f"population {area['population']}, fort {area['fort']}, armies {area['armies']}"


def _hands(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """An area changes owner only when captured by its new owner, or turns neutral when its
    owner is eliminated; an owner is a country of the game or the neutrals."""
    held = _held_at_the_end(before, events)
    out = _newly_out(before, after)
    found = []
    for code, area in after["areas"].items():
        was, now = before["areas"][code]["owner"], area["owner"]
        if now not in after["countries"] and now != NEUTRAL:
            found.append(f"{HANDS}: {code} is owned by {now}")
        elif held[code] in out and now != NEUTRAL:
            found.append(f"{HANDS}: {code} of {held[code]}, eliminated, went to {now}, not to the neutrals")
        elif held[code] not in out and now != held[code]:
            found.append(f"{HANDS}: {code} passed from {was} to {now} without a capture")
    return found


def _battles(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """D = defending armies + population + fort + terrain (+1 entrenched); the attacker loses
    D/2, the defenders A/2, the weaker side also |A-D|/2, nobody more than it has; collateral
    (losses)/4 population at most; a capture when no defender is left and an attacker is."""
    terrain = {a["code"]: TERRAINS[a["terrain"]] for a in after["scenario"]["areas"]}
    found = []
    for d in _of(events, "battle"):
        a, armies = d["attacking"], d["armies"]
        defence = armies + d["population"] + d["fort"] + d["terrain"] + d["entrenched"]
        lost_a = min(a, defence // 2 + max(0, defence - a) // 2)
        lost_d = min(armies, a // 2 + max(0, a - defence) // 2)
        collateral = min(d["population"], (lost_a + lost_d) // 4)
        taken = armies == lost_d and a > lost_a
        expected = (defence, lost_a, lost_d, collateral, taken, a - lost_a, terrain[d["to"]].defence)
        given = tuple(d[k] for k in ("defending", "attacker_losses", "defender_losses", "collateral", "captured"))
        if (*given, d["survivors"], d["terrain"]) != expected:
            found.append(f"{BATTLE}: {d['text']}")
        if d["attacker"] == d["defender"]:
            found.append(f"{BATTLE}: {d['attacker']} attacked its own {d['to']}")
    return found


def _battle_vp(data: JSONObject) -> dict[str, int]:
    """11.4 and 11.5 by D-EMP-7: a capture gives p0 - c and costs the loser 1 + p0; a failed
    attack costs the attacker c + 1 and the defender c; neutrals lose nothing."""
    p0, c, attacker, defender = data["population"], data["collateral"], data["attacker"], data["defender"]
    change = {attacker: p0 - c if data["captured"] else -(c + 1)}
    if defender != NEUTRAL:
        change[defender] = -(1 + p0) if data["captured"] else -c
    return {seat: n for seat, n in change.items() if n}


def _victory_points(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """VP move only by battles (11.4, 11.5) and a census (11.2: 1 VP a populated land area)."""
    change: Counter[str] = Counter()
    found = []
    for data in _of(events, "battle"):
        if {k: v for k, v in data["vp"].items() if v} != _battle_vp(data):
            found.append(f"{VP}: {data['vp']} for battle {data['number']}, the book says {_battle_vp(data)}")
        change.update(_battle_vp(data))
    if _of(events, "census"):
        for seat in _alive(after):
            change[seat] += sum(1 for code in owned(after, seat) if after["areas"][code]["population"] > 0)
    for seat in before["seating"]:
        was, now = before["vp"][seat], after["vp"][seat]
        if now - was != change[seat]:
            found.append(f"{VP}: {seat} went from {was} to {now} VP; the book counts {change[seat]:+}")
    return found


def _census(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The first census is turn 3, 4 or 5, each next one 3, 4 or 5 turns after the last."""
    turn, last = before["turn"], before["last_census"] or 0
    held = bool(_of(events, "census"))
    first = before["last_census"] is None
    if held and not (3 <= turn - last <= 5):
        return [f"{CENSUS}: a census on turn {turn}, the last was {'none' if first else f'turn {last}'}"]
    if not held and turn - last >= 5:
        return [f"{CENSUS}: no census on turn {turn}, the last was {'none' if first else f'turn {last}'}"]
    return []


def _elimination(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A country with no land areas, or no BPs and no income, is out: it owns nothing and has
    nothing; every other country is still in; nobody comes back, and nobody out acts."""
    found = [
        f"{ELIMINATION}: {seat} is back in the game"
        for seat in before["victory"]["eliminated"]
        if seat in _alive(after)
    ]
    for seat in after["victory"]["eliminated"]:
        country, areas = after["countries"][seat], owned(after, seat)
        if areas or country["bps"] or country["reserve"]:
            found.append(
                f"{ELIMINATION}: {seat} is out but owns {len(areas)} areas, {country['bps']} BPs, {country['reserve']} in reserve"
            )
    for seat in _alive(after):
        if not owned(after, seat) or (after["countries"][seat]["bps"] <= 0 and income(after, seat) <= 0):
            found.append(
                f"{ELIMINATION}: {seat} is still in with {len(owned(after, seat))} areas and no BPs or no income"
            )
    acting = {d["seat"] for d in _of(events, *ACTIONS)} | {d["attacker"] for d in _of(events, "battle")}
    found += [
        f"{ELIMINATION}: {seat}, out before the turn, acted" for seat in acting & set(before["victory"]["eliminated"])
    ]
    return found + _eliminated_now(before, after, events)


def _eliminated_now(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A country put out this turn met 11.1 at the end of the turn (no land areas when the
    actions were over, or no BPs for the next turn and no income), is out from this turn, and
    every seat is told so, once (choice 14)."""
    out, turn = _newly_out(before, after), before["turn"]
    held = Counter(_held_at_the_end(before, events).values())
    books = {data["seat"]: data for data in _of(events, "finances")}
    found = []
    for seat in sorted(out):
        book = books.get(seat, {})
        if held[seat] and (book.get("next"), book.get("income")) != (0, 0):
            found.append(
                f"{ELIMINATION}: {seat} is out with {held[seat]} areas, {book.get('next')} BPs and "
                f"income {book.get('income')}"
            )
        if after["victory"]["eliminated"][seat] != turn:
            found.append(
                f"{ELIMINATION}: {seat}, out on turn {turn}, is recorded out on {after['victory']['eliminated'][seat]}"
            )
    news = [e for e in events if e.kind == "eliminated"]
    told = Counter(str(e.data.get("seat")) for e in news if e.seats is None)
    if told != Counter(out) or told.total() != len(news):
        found.append(
            f"{ELIMINATION}: {sorted(out)} out on turn {turn}; every seat is told of {sorted(told.elements())}"
        )
    return found


def _standing(vp: dict[str, int], alive: list[str], target: int) -> tuple[str | None, list[str]]:
    """The leader strictly above every other survivor (D-EMP-9) and the wins it holds, best
    first: runaway (> 0 and at least double the next, D-EMP-10), knockout (at least 40 % of all
    survivors' VP, D-EMP-11), points (above the target, D-EMP-12)."""
    ranked = sorted((vp[seat] for seat in alive), reverse=True)
    if not ranked or ranked[1:2] == ranked[:1]:
        return None, []
    top, leader = ranked[0], next(seat for seat in alive if vp[seat] == ranked[0])
    holds = []
    if top > 0 and (len(ranked) == 1 or top >= 2 * ranked[1]):
        holds.append("runaway")
    if sum(ranked) > 0 and top >= Fraction(2, 5) * sum(ranked):
        holds.append("knockout")
    if top > target:
        holds.append("points")
    return (leader, holds) if holds else (None, [])


def _end(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The first turn a win holds brings the warning; the game ends at the end of the next census
    turn after it if any win holds then (the leader wins, runaway or knockout before points),
    else the warning is withdrawn; no other turn ends it while a country survives."""
    record, warned = after["victory"], before["victory"]["warning"]
    alive = _alive(after)
    leader, holds = _standing(after["vp"], alive, record["target"])
    census = bool(_of(events, "census"))
    over = after["phase"] == "over"
    if not alive:
        nobody = (True, None, None, dict.fromkeys(after["seating"], 1))
        given = (over, record["winner"], record["condition"], record["discounts"])
        return [] if given == nobody else [f"{END}: every country is out: {given}; choice 12 says {nobody}"]
    if warned is not None and census:
        expected = (True, leader, holds[0]) if holds else (False, None, None)
        if (over, record["winner"], record["condition"]) != expected:
            return [
                f"{END}: census after the warning: over {over}, {record['winner']} {record['condition']}; the book: {expected}"
            ]
        return _discounts(after) if over else []
    if over:
        return [f"{END}: the game ended on turn {before['turn']} (census {census}, warning {warned})"]
    return []


def _warning(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """A warning is given the turn a possible win is first achieved, so that the game end is
    announced "a few turns" ahead, and it stands until the next census turn after it; there the
    game ends or, with no win condition met, the warning is withdrawn (D-EMP-13). The points
    target is the one "set at the start of the game" (D-EMP-12)."""
    record, warned, turn = after["victory"], before["victory"]["warning"], before["turn"]
    found = []
    if record["target"] != before["victory"]["target"]:
        found.append(f"{END}: the points target went from {before['victory']['target']} to {record['target']}")
    if after["phase"] == "over":
        return found
    leader, holds = _standing(after["vp"], _alive(after), record["target"])
    if warned is None:
        expected = turn if holds else None
    else:
        expected = None if _of(events, "census") else warned
    if record["warning"] != expected:
        found.append(
            f"{END}: on turn {turn} the warning is {record['warning']}, the book: {expected} "
            f"(given {warned}, {leader} holds {holds}, census {bool(_of(events, 'census'))})"
        )
    told = (bool(_of(events, "warning")), bool(_of(events, "warning_withdrawn")))
    if told != (warned is None and expected is not None, warned is not None and expected is None):
        found.append(f"{END}: on turn {turn} the warning went from {warned} to {expected}; the reports say {told}")
    return found


def _discounts(after: JSONObject) -> list[str]:
    """A runaway or knockout win earns 3 bonus turns, a points win 2, every other country 1."""
    record = after["victory"]
    won = 3 if record["condition"] in ("runaway", "knockout") else 2
    expected = {seat: won if seat == record["winner"] else 1 for seat in after["seating"]}
    return [] if record["discounts"] == expected else [f"{DISCOUNTS}: {record['discounts']}, the book: {expected}"]


def _order_of_play(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The order of play rotates by one seat each turn among the countries still in the game:
    the next turn starts with the first of them after this turn's first (D-ALL-4), every seat
    kept in its place in the circle."""
    cycle, alive = before["order_of_play"], set(_alive(after))
    first = next((s for s in cycle if s not in before["victory"]["eliminated"]), None)
    if first is None or not alive:
        return []
    turned = cycle[cycle.index(first) + 1 :] + cycle[: cycle.index(first) + 1]
    skip = next(i for i, seat in enumerate(turned) if seat in alive)
    expected = turned[skip:] + turned[:skip]
    return [] if after["order_of_play"] == expected else [f"{ORDER}: {cycle} became {after['order_of_play']}"]


def _roundup(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """11.3: "The current score of the current leader is given in the game report (in the
    roundup section) each turn", and census turns "are not indicated in advance": a report
    tells of a census on the turn it was held, not before."""
    alive = _alive(after)
    if not alive:
        return []
    seen = view(after, alive[0])
    top = max(after["vp"][seat] for seat in alive)
    leaders = sorted(seat for seat in alive if after["vp"][seat] == top)
    found = []
    if (seen["leader"]["vp"], sorted(seen["leader"]["codes"])) != (top, leaders):
        found.append(f"{ROUNDUP}: the report gives the leader {seen['leader']}; the leader is {leaders} with {top} VP")
    if seen["census_now"] != bool(_of(events, "census")):
        found.append(f"{ROUNDUP}: the report of turn {before['turn']} tells of a census: {seen['census_now']}")
    return found


def _the_board(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The state holds every land area of the map and nothing else (seas are never owned and
    hold no armies); the points target is the one the scenario set at the start (D-EMP-12:
    "default: the number of land areas on the map"); a census held this turn is the last one."""
    land = {a["code"] for a in after["scenario"]["areas"] if a["land"]}
    found = []
    if set(after["areas"]) != land:
        found.append(f"{BOARD}: the state holds {sorted(set(after['areas']) ^ land)} beside the map's land areas")
    found += [
        f"{ARMIES}: {seat} has {country['reserve']} reserve armies"
        for seat, country in after["countries"].items()
        if country["reserve"] < 0
    ]
    if after["victory"]["target"] != after["scenario"]["points_target"]:
        found.append(
            f"{BOARD}: the points target is {after['victory']['target']}, the scenario's "
            f"{after['scenario']['points_target']}"
        )
    last = before["turn"] if _of(events, "census") else before["last_census"]
    if after["last_census"] != last:
        found.append(f"{CENSUS}: after turn {before['turn']} the last census is {after['last_census']}, not {last}")
    return found


def _game_over(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """The end is told to every seat once, on the turn the game ends, with the winner, the
    condition and every country's VP as the state has them; the winner has "the highest total
    of victory points" among the survivors, strictly (D-EMP-9), and holds the condition."""
    news = [e for e in events if e.kind == "game_over"]
    over = after["phase"] == "over"
    if len(news) != int(over) or any(e.seats is not None for e in news):
        return [f"{END}: the game is over: {over}; the end is told {len(news)} times, to {[e.seats for e in news]}"]
    if not over:
        return []
    record, data = after["victory"], news[0].data
    found = []
    if (data["winner"], data["condition"], data["scores"]) != (record["winner"], record["condition"], after["vp"]):
        found.append(f"{END}: the end tells {data['winner']} {data['condition']} {data['scores']}; the state {record}")
    if record["ended"] != before["turn"]:
        found.append(f"{END}: the game ended on turn {before['turn']}, recorded {record['ended']}")
    if record["winner"] is not None:
        leader, holds = _standing(after["vp"], _alive(after), record["target"])
        if record["winner"] != leader or record["condition"] not in holds:
            found.append(
                f"{END}: {record['winner']} won a {record['condition']} win; the leader {leader} holds {holds}"
            )
    return found


def _reports(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Every seat's report (the first and the last seat's and those out, as samples) carries
    the standing warning ("A warning is given in the game report when a possible win has been
    achieved", "every report carries the warning", D-EMP-13) and none once it is withdrawn or
    the game is over; once over, each gives the result the state records; each gives the points
    target "set at the start"."""
    record, over = after["victory"], after["phase"] == "over"
    standing = None if over else record["warning"]
    winners = [record["winner"]] if over and record["winner"] is not None else []
    found = [
        f"{REPORTS}: the {e.kind} of turn {before['turn']} is told to {list(e.seats)} only"
        for e in events
        if e.kind in ("census", "warning", "warning_withdrawn", "order_of_play") and e.seats is not None
    ]
    # No report names a condition, then or now: a runaway or a knockout would tell the others'
    # VP (D-ALL-5, 11.3); the book's warning says only that a possible win was achieved (11.6).
    found += [
        f"{REPORTS}: the warning of turn {before['turn']} names the conditions {e.data['holds']}"
        for e in events
        if e.kind == "warning" and "holds" in e.data
    ]
    # 11.3: "Census turns are not indicated in advance": a report is the same whatever the
    # census turns still to come.
    turns = after["census"]["turns"]
    moved = [t if t <= before["turn"] else t + 1 for t in turns]
    seating = after["seating"]
    first = view(after, seating[0])
    if view(dict(after, census=dict(after["census"], turns=moved)), seating[0]) != first:
        found.append(f"{CENSUS}: the report of turn {before['turn']} changes with the census turns to come")
    # The first and the last seat, and every seat out (their reports go on): a view per seat of
    # a 32-country game each turn would cost more than the rest of the battery.
    for seat in [s for s in seating if s in (seating[0], seating[-1]) or s in record["eliminated"]]:
        seen = first if seat == seating[0] else view(after, seat)
        warned = seen["warning"]["since"] if seen["warning"] else None
        if warned != standing:
            found.append(
                f"{REPORTS}: {seat}'s report of turn {before['turn']} gives the warning {warned}, not {standing}"
            )
        elif seen["warning"] and "holds" in seen["warning"]:
            found.append(f"{REPORTS}: {seat}'s report of turn {before['turn']} names the conditions that held")
        result = seen["outcome"]
        given = (result["winners"], result["scores"]) if result else None
        if given != ((winners, after["vp"]) if over else None):
            found.append(f"{REPORTS}: {seat}'s report of turn {before['turn']} gives the result {given}")
        if seen["target"] != record["target"]:
            found.append(f"{REPORTS}: {seat}'s report gives the points target {seen['target']}")
    return found


def _each_area(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """Each action finds the area it says, when it runs, and the actions replayed in order leave
    the areas the turn ends with. "LEVY turns half an area's population (rounded down) into
    armies"; GROW raises the population by 1, FORTIFY the fort by one level, RAZE removes levels
    there are; "MOVE goes to an area you own, ATTACK to a land area you don't own", each from an
    area of the country's, and "An explicit number larger than what is there makes the order
    fail" (the DECISIONS' summary of the rulebook); a battle is fought against the armies,
    population and fort the area holds then (D-EMP-5), the population it counts for 11.4 and
    11.5 is the one there before the battle (D-EMP-7), and the survivors move in or go back;
    a shortfall disperses armies (D-EMP-3) and an eliminated country's areas turn neutral with
    their armies (D-EMP-14)."""
    areas = {code: dict(area) for code, area in before["areas"].items()}
    modes: dict[str, str] = {}  # area -> the defence mode standing there (for _each_battle)
    found: list[str] = []

    def mine(seat: str, code: str, what: str) -> None:
        if areas[code]["owner"] != seat:
            found.append(f"{EACH_AREA}: {seat}'s {what} in {code}, held by {areas[code]['owner']}")

    for event in events:
        d, kind = event.data, event.kind
        if kind == "levy":
            area = areas[d["area"]]
            mine(d["seat"], d["area"], kind)
            if not 1 <= d["armies"] <= area["population"] // 2:
                found.append(f"{EACH_AREA}: {d['seat']} levied {d['armies']} from {area['population']} in {d['area']}")
            area["population"] -= d["armies"]
            area["armies"] += d["armies"]
        elif kind in ("grow", "fortify", "raze", "reserve"):
            area = areas[d["area"]]
            mine(d["seat"], d["area"], kind)
            if kind == "grow":
                area["population"] += 1
                wrong = d["population"] != area["population"]
            elif kind == "fortify":
                area["fort"] += 1
                wrong = d["fort"] != area["fort"]
            elif kind == "raze":
                wrong = not 1 <= d["levels"] <= area["fort"]
                area["fort"] -= d["levels"]
            else:
                area["armies"] += d["armies"]
                wrong = d["armies"] < 1
            if wrong:
                found.append(f"{EACH_AREA}: {d['text']} (the area had {_area_text(area)} after it)")
        elif kind == "move":
            mine(d["seat"], d["from"], "move")
            mine(d["seat"], d["to"], "move")
            if not 1 <= d["armies"] <= areas[d["from"]]["armies"]:
                found.append(
                    f"{EACH_AREA}: {d['seat']} moved {d['armies']} from {d['from']}, which held {areas[d['from']]['armies']}"
                )
            areas[d["from"]]["armies"] -= d["armies"]
            areas[d["to"]]["armies"] += d["armies"]
        elif kind == "defence":
            modes[d["area"]] = d["mode"]
        elif kind == "battle":
            found += _each_battle(areas, d, modes.get(d["to"]))
            if d["captured"]:
                modes.pop(d["to"], None)
        elif kind == "finances":
            for code, count in d["dispersed"].items():
                areas[code]["armies"] -= count
        elif kind == "eliminated":
            for area in areas.values():
                if area["owner"] == d["seat"]:
                    area["owner"] = NEUTRAL
    for code, area in after["areas"].items():
        replayed = {k: areas[code][k] for k in ("owner", "armies", "population", "fort")}
        if replayed != {k: area[k] for k in replayed}:
            found.append(f"{EACH_AREA}: the events leave {code} {replayed}; the turn ends with {area}")
    return found


def _each_battle(areas: dict[str, JSONObject], d: JSONObject, mode: str | None) -> list[str]:
    """One battle on the areas as the actions before it left them, with the defence mode
    standing on its area (for _each_area)."""
    source, target, found = areas[d["from"]], areas[d["to"]], []
    sent = d["attacking"] + d.get("ambush", 0)
    if source["owner"] != d["attacker"] or not 1 <= sent <= source["armies"]:
        found.append(f"{EACH_AREA}: {d['text']} ({d['from']} was {source['owner']}'s with {source['armies']})")
    if target["owner"] in (d["attacker"], None) or target["owner"] != d["defender"]:
        found.append(f"{EACH_AREA}: {d['text']} ({d['to']} was {target['owner']}'s)")
    source["armies"] -= sent
    if d.get("retreat"):
        refuge = areas[d["retreat_to"]]
        if refuge["owner"] != target["owner"] or d["retreat"] != target["armies"]:
            found.append(f"{EACH_AREA}: {d['text']} ({target['armies']} there, {d['retreat_to']} {refuge['owner']}'s)")
        refuge["armies"] += target["armies"]
        target["armies"] = 0
    # While an AMBUSH stands its armies are out in the field: no fort counts (README choice 3).
    forts = (target["fort"], 0) if mode == "ambush" or "ambush" in d else (target["fort"],)
    if (d["armies"], d["population"]) != (target["armies"], target["population"]) or d["fort"] not in forts:
        found.append(f"{EACH_AREA}: {d['text']} ({d['to']} held {_area_text(target)})")
    target["armies"] -= d["defender_losses"]
    target["population"] -= d["collateral"]
    if d["captured"]:
        target["owner"] = d["attacker"]
        target["armies"] += d["survivors"]
    else:
        source["armies"] += d["survivors"]
    return found


ACTION_NUMBER = re.compile(r"Action (\d+)")


def _interleaved(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """D-EMP-1: "Actions are executed interleaved by number (everyone's action 1, then everyone's
    action 2, ...), in an order of play": the turn's order of play is the countries still in the
    game in the order the state holds them, and the actions run by number, 1 to 16 and the
    implicit 17th (ARMY ALL), and within a number in that order."""
    orders = [data["order"] for data in _of(events, "order_of_play")]
    sequence = [seat for seat in before["order_of_play"] if seat in _alive(before)]
    if orders != [sequence]:
        return [f"{INTERLEAVED}: the turn's order of play is {orders}, the state's {sequence}"]
    place, last, found = {seat: n for n, seat in enumerate(sequence)}, (0, -1), []
    for event in events:
        if event.kind not in (*ACTIONS, "battle") or event.kind == "defence":
            continue
        d = event.data
        seat = d["attacker"] if event.kind == "battle" else d["seat"]
        match = ACTION_NUMBER.match(d["text"])
        number = d["action"] if event.kind == "battle" else int(match.group(1)) if match else 0
        if not 1 <= number <= 16 + (event.kind == "army") or seat not in place:
            found.append(f"{INTERLEAVED}: {d['text']}")
            continue
        # The 17th actions, each a country's own ARMY ALL seen by it alone, come after every
        # action 16; among themselves their order can change nothing anyone reads.
        key = (number, -1 if number == 17 else place[seat])
        if key < last:
            found.append(f"{INTERLEAVED}: {d['text']} came after action {last[0]} of {sequence[last[1]]}")
        last = key
    return found


def _readers(before: JSONObject, after: JSONObject, events: tuple[Event, ...]) -> list[str]:
    """D-ALL-5: "What the rules keep from a player (another's hand, treasury, ...) never
    reaches that player ... an order that fails for want of something is reported to its own
    seat with the reason; the others see only what happened on the board (nothing, for a failed
    order)": an event that tells a country's BPs or a failed order of its is read by its seat
    alone (a gift by its giver and its receiver); a battle is read by its attacker and by the
    country defending, if any, whose area it is fought in."""
    found = []
    for event in events:
        d, readers = event.data, None if event.seats is None else set(event.seats)
        if event.kind in OWN_EVENTS:
            want = {d["seat"]}
        elif event.kind == "gift":
            want = {d["seat"], d["to"]}
        elif event.kind == "battle":
            parties = {d["attacker"], d["defender"]} - {NEUTRAL}
            if readers is not None and not parties <= readers:
                found.append(f"{READERS}: battle {d['number']} is told to {sorted(readers)}, not to {sorted(parties)}")
            continue
        else:
            continue
        if readers != want:
            found.append(f"{READERS}: a {event.kind} of {d['seat']} is told to {sorted(readers or ['everyone'])}")
    return found


def _action_number(event: Event) -> int:
    """The action an event carries out: a battle says it, the others' text begins with it."""
    if event.kind == "battle":
        return int(event.data["action"])
    match = ACTION_NUMBER.match(event.data["text"])
    return int(match.group(1)) if match else 0


def _as_ordered(before: JSONObject, orders: dict[str, list[Order]], events: tuple[Event, ...]) -> list[str]:
    """ "An order line has four fields: ACTION WHERE WHERE-TO NUMBER"; "An explicit number
    larger than what is there makes the order fail": each action carried out is the country's
    order of that number, on the areas (or country) it names, and an explicit number is what
    goes, no more and no fewer (ALL and AB-n leave it to what is there). The 17th action, ARMY
    ALL, is no order."""
    plans: dict[str, dict[object, Order]] = {}
    for seat, listed in orders.items():
        for given in listed:
            if given.args:
                plans.setdefault(seat, {}).setdefault(given.args[0], given)
    found = []
    for event in events:
        if event.kind not in VERBS:
            continue
        d, number = event.data, _action_number(event)
        if event.kind == "army" and number == 17:
            continue
        seat = d["attacker"] if event.kind == "battle" else d["seat"]
        order = plans.get(seat, {}).get(number)
        where = {
            "levy": (d.get("area"), None),
            "reserve": (d.get("area"), None),
            "grow": (d.get("area"), None),
            "fortify": (d.get("area"), None),
            "raze": (d.get("area"), None),
            "move": (d.get("from"), d.get("to")),
            "battle": (d.get("from"), d.get("to")),
            "gift": (None, d.get("to")),
            "army": (None, None),
        }[event.kind]
        count = {
            "levy": d.get("armies"),
            "army": d.get("armies"),
            "reserve": d.get("armies"),
            "move": d.get("armies"),
            "raze": d.get("levels"),
            "gift": d.get("bps"),
            "battle": d.get("attacking", 0) + d.get("ambush", 0),
        }.get(event.kind)
        if order is None or order.verb != VERBS[event.kind] or tuple(order.args[1:3]) != where:
            found.append(f"{ORDERED}: {seat}'s action {number} is no order of its: {d['text']}")
        elif isinstance(order.args[3], int) and count is not None and count != order.args[3]:
            found.append(f"{ORDERED}: {seat}'s action {number} ({order.text}) carried out {count}: {d['text']}")
    return found
