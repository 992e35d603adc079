"""Carrying out one Empires action during resolution: builds, moves, gifts and land battles
(D-EMP-4..7). Every function changes the working copy of the state held by a Turn."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from gm.core import vp
from gm.core.model import Event, JSONObject, Order

from .battle import Battle
from .board import NEUTRAL, Board, nation, nations, plural
from .orders import ARMY_COST, MAX_FORT, MOVE_COST, RESERVE_COST, Amount, resolve_amount


class Turn:
    """The working state of one turn's resolution: the state copy, the map, the events so far,
    the defence modes set this turn, the areas grown, the countries that raised armies by an
    ARMY action, battles fought and VP changes."""

    def __init__(self, state: JSONObject, board: Board, number: int):
        self.state, self.board, self.number = state, board, number
        self.events: list[Event] = []
        # Area -> its standing defence order: mode, to, owner, spent, and the order itself (a
        # RETREAT that fails at the first attack is reported to its seat by it).
        self.modes: dict[str, JSONObject] = {}
        self.grown: set[str] = set()
        self.armed: set[str] = set()
        self.battles = 0
        self.vp: list[vp.VPChange] = []

    def event(self, kind: str, text: str, seats: Iterable[str] | None = None, **data: object) -> None:
        data["text"] = text
        self.events.append(Event(kind, data, tuple(s for s in seats if s != NEUTRAL) if seats is not None else None))

    def fail(self, seat: str, order: Order, reason: str) -> None:
        number = order.args[0] if order.args else 0
        self.event(
            "order_failed",
            f"Action {number}: {nations(self.state, seat)} {describe(order)} fails: {reason}.",
            (seat,),
            seat=seat,
            action=number,
            order=describe(order),
            reason=reason,
        )

    def spend(self, seat: str, cost: int) -> None:
        country = self.state["countries"][seat]
        country["bps"] -= cost
        self.state["books"][seat]["spent"] += cost

    def bps(self, seat: str) -> int:
        return cast(int, self.state["countries"][seat]["bps"])


def describe(order: Order) -> str:
    if not order.args or len(order.args) != 4:
        return order.text or order.verb
    _, where, where_to, amount = order.args
    return " ".join(str(x) for x in (order.verb, where or "-", where_to or "-", "-" if amount is None else amount))


def _afford(turn: Turn, seat: str, cost: int) -> str | None:
    have = turn.bps(seat)
    return None if cost <= have else f"it costs {plural(cost, 'BP')} and {nation(turn.state, seat)} has {have}"


def _own(turn: Turn, seat: str, code: str) -> str | None:
    owner = turn.state["areas"][code]["owner"]
    if owner == seat:
        return None
    return f"{turn.board.label(code)} is not {nations(turn.state, seat)} (it is held by {nation(turn.state, owner)})"


def _none_left(amount: Amount, available: int, there: str) -> str | None:
    """Why an AB-n amount comes to nothing where there is something: n is all of it or more.
    (With nothing there, the action's own reason says so.)"""
    if isinstance(amount, str) and amount.startswith("AB-") and available > 0:
        return f"{there}: all but {amount[3:]} leaves none"
    return None


def act(turn: Turn, seat: str, order: Order) -> None:
    """Carry out one action, or record why it fails (rule D-ALL-3); never raises. Defence
    orders are not actions here: they stand from the start of the turn (rules.set_defences)."""
    number, where, where_to, amount = order.args
    if where is not None and order.verb != "ARMY":
        problem = _own(turn, seat, where) if turn.board.is_land(where) else f"{where} is not a land area"
        if problem:
            return turn.fail(seat, order, problem)
    handler = HANDLERS[order.verb]
    problem = handler(turn, seat, order, where, where_to, amount)
    if problem:
        turn.fail(seat, order, problem)


def _levy(turn: Turn, seat: str, order: Order, where: str, where_to: None, amount: Amount) -> str | None:
    area = turn.state["areas"][where]
    half = area["population"] // 2  # half, rounded down
    count, why = resolve_amount(amount, half)
    if why or count < 1:
        return (
            (why and f"half the population of {turn.board.label(where)} is {half}, not {amount}")
            or _none_left(amount, half, f"half the population of {turn.board.label(where)} is {half}")
            or f"{turn.board.label(where)} has too few people to levy"
        )
    area["population"] -= count
    area["armies"] += count
    turn.event(
        "levy",
        f"Action {order.args[0]}: {nation(turn.state, seat)} levies "
        f"{plural(count, 'army')} from the people of {turn.board.label(where)}.",
        (seat,),
        seat=seat,
        area=where,
        armies=count,
    )
    return None


def _army(turn: Turn, seat: str, order: Order, where: None, where_to: None, amount: Amount) -> str | None:
    have = turn.bps(seat)
    count, why = resolve_amount(amount, have // ARMY_COST)
    if why:
        return f"{nation(turn.state, seat)} has {plural(have, 'BP')}, enough for {plural(have // ARMY_COST, 'army')}, not {amount}"
    if count < 1:
        return (
            _none_left(
                amount,
                have // ARMY_COST,
                f"{nation(turn.state, seat)} has {plural(have, 'BP')}, enough for {plural(have // ARMY_COST, 'army')}",
            )
            or f"{nation(turn.state, seat)} has {plural(have, 'BP')}, too few for an army"
        )
    build(turn, seat, count, f"Action {order.args[0]}")
    turn.armed.add(seat)
    return None


def build(turn: Turn, seat: str, count: int, label: str) -> None:
    turn.spend(seat, count * ARMY_COST)
    turn.state["countries"][seat]["reserve"] += count
    turn.event(
        "army",
        f"{label}: {nation(turn.state, seat)} raises {plural(count, 'army')} into "
        f"the reserve for {count * ARMY_COST} BPs.",
        (seat,),
        seat=seat,
        armies=count,
        cost=count * ARMY_COST,
    )


def _reserve(turn: Turn, seat: str, order: Order, where: str, where_to: None, amount: Amount) -> str | None:
    country = turn.state["countries"][seat]
    if seat in turn.armed:
        # The publisher's rulebook, 5.3: "armies built this way can't be placed on the map until
        # the following turn, because you can't RESERVE after an ARMY action".
        return f"{nation(turn.state, seat)} raised armies by an ARMY action this turn, and no RESERVE can follow one"
    if isinstance(amount, int):
        if amount > country["reserve"]:
            return f"the reserve holds {plural(country['reserve'], 'army')}, not {amount}"
        count = amount
    else:
        placeable = min(country["reserve"], turn.bps(seat) // RESERVE_COST)
        count, _ = resolve_amount(amount, placeable)
        if count < 1:
            return _none_left(
                amount,
                placeable,
                f"{nation(turn.state, seat)} can place {plural(placeable, 'reserve army')} "
                f"(the reserve holds {country['reserve']}; {plural(turn.bps(seat), 'BP')})",
            ) or (
                "the reserve is empty"
                if not country["reserve"]
                else f"{nation(turn.state, seat)} has no BPs to place reserves"
            )
    problem = _afford(turn, seat, count * RESERVE_COST)
    if problem:
        return problem
    turn.spend(seat, count * RESERVE_COST)
    country["reserve"] -= count
    turn.state["areas"][where]["armies"] += count
    turn.event(
        "reserve",
        f"Action {order.args[0]}: {nation(turn.state, seat)} places "
        f"{plural(count, 'reserve army')} in {turn.board.label(where)} for {plural(count, 'BP')}.",
        (seat,),
        seat=seat,
        area=where,
        armies=count,
        cost=count * RESERVE_COST,
    )
    return None


def _grow(turn: Turn, seat: str, order: Order, where: str, where_to: None, amount: None) -> str | None:
    if where in turn.grown:
        return f"{turn.board.label(where)} has grown once this turn already"
    area = turn.state["areas"][where]
    cost = area["population"] + turn.board.terrain(where).grow
    problem = _afford(turn, seat, cost)
    if problem:
        return problem
    turn.spend(seat, cost)
    area["population"] += 1
    turn.grown.add(where)
    turn.event(
        "grow",
        f"Action {order.args[0]}: {turn.board.label(where)} grows to population {area['population']} for {plural(cost, 'BP')}.",
        (seat,),
        seat=seat,
        area=where,
        population=area["population"],
        cost=cost,
    )
    return None


def _fortify(turn: Turn, seat: str, order: Order, where: str, where_to: None, amount: None) -> str | None:
    area = turn.state["areas"][where]
    if area["fort"] >= MAX_FORT:
        return f"the fort of {turn.board.label(where)} is at the highest level, {MAX_FORT}"
    cost = 2 * (area["fort"] + 1)  # rule D-EMP-4: 2 BPs times the new level
    problem = _afford(turn, seat, cost)
    if problem:
        return problem
    turn.spend(seat, cost)
    area["fort"] += 1
    turn.event(
        "fortify",
        f"Action {order.args[0]}: {turn.board.label(where)} is fortified to level {area['fort']} for {plural(cost, 'BP')}.",
        (seat,),
        seat=seat,
        area=where,
        fort=area["fort"],
        cost=cost,
    )
    return None


def _raze(turn: Turn, seat: str, order: Order, where: str, where_to: None, amount: Amount) -> str | None:
    area = turn.state["areas"][where]
    levels, why = resolve_amount(amount, area["fort"])
    if why or levels < 1:
        return (
            (why and f"the fort of {turn.board.label(where)} has {plural(area['fort'], 'level')}, not {amount}")
            or _none_left(amount, area["fort"], f"the fort of {turn.board.label(where)} is at level {area['fort']}")
            or f"{turn.board.label(where)} has no fort to raze"
        )
    problem = _afford(turn, seat, levels)
    if problem:
        return problem
    turn.spend(seat, levels)
    area["fort"] -= levels
    turn.event(
        "raze",
        f"Action {order.args[0]}: {nation(turn.state, seat)} razes "
        f"{plural(levels, 'fort level')} in {turn.board.label(where)} for {plural(levels, 'BP')}.",
        (seat,),
        seat=seat,
        area=where,
        levels=levels,
        cost=levels,
    )
    return None


def _gift(turn: Turn, seat: str, order: Order, where: None, where_to: str, amount: Amount) -> str | None:
    if where_to not in turn.state["countries"] or where_to == seat or where_to in turn.state["victory"]["eliminated"]:
        return f"{where_to} is not a country that can take a gift"
    count, why = resolve_amount(amount, turn.bps(seat))
    if why:
        return f"{nation(turn.state, seat)} has {plural(turn.bps(seat), 'BP')}, not {amount}"
    if count < 1:
        return _none_left(amount, turn.bps(seat), f"{nation(turn.state, seat)} has {plural(turn.bps(seat), 'BP')}") or (
            f"{nation(turn.state, seat)} has no BPs to give"
        )
    turn.spend(seat, count)
    turn.state["countries"][where_to]["bps"] += count
    turn.state["books"][where_to]["gifts"] += count
    turn.event(
        "gift",
        f"Action {order.args[0]}: {nation(turn.state, seat)} gives {plural(count, 'BP')} to {nation(turn.state, where_to)}.",
        (seat, where_to),
        seat=seat,
        to=where_to,
        bps=count,
    )
    return None


def _move(turn: Turn, seat: str, order: Order, where: str, where_to: str, amount: Amount) -> str | None:
    if where_to not in turn.board.reach[where]:
        return f"{turn.board.label(where)} and {turn.board.label(where_to)} are not next to each other"
    if order.verb == "MOVE" and turn.state["areas"][where_to]["owner"] != seat:
        return _own(turn, seat, where_to)
    if order.verb == "ATTACK" and turn.state["areas"][where_to]["owner"] == seat:
        return f"{turn.board.label(where_to)} is {nations(turn.state, seat)} own area"
    source = turn.state["areas"][where]
    count, why = resolve_amount(amount, source["armies"])
    if why or count < 1:
        return (
            why
            or _none_left(amount, source["armies"], f"{turn.board.label(where)} has {plural(source['armies'], 'army')}")
            or f"{turn.board.label(where)} has no armies to send"
        )
    problem = _afford(turn, seat, MOVE_COST)
    if problem:
        return problem
    turn.spend(seat, MOVE_COST)
    source["armies"] -= count
    if order.verb == "MOVE":
        turn.state["areas"][where_to]["armies"] += count
        turn.event(
            "move",
            f"Action {order.args[0]}: {nation(turn.state, seat)} moves "
            f"{plural(count, 'army')} from {turn.board.label(where)} to "
            f"{turn.board.label(where_to)}.",
            (seat,),
            seat=seat,
            **{"from": where},
            to=where_to,
            armies=count,
        )
    else:
        fight(turn, seat, order.args[0], where, where_to, count)
    return None


# Each handler's arguments have the shape orders.SHAPES gives its verb, which the parser and
# well_formed guarantee; the table itself can only say so in words.
HANDLERS: dict[str, Callable[..., str | None]] = {
    "LEVY": _levy,
    "ARMY": _army,
    "RESERVE": _reserve,
    "GROW": _grow,
    "FORTIFY": _fortify,
    "RAZE": _raze,
    "MOVE": _move,
    "ATTACK": _move,
    "GIFT": _gift,
}


# ----------------------------------------------------------------------------------------------
# Land battles.


def _before_battle(turn: Turn, target: str, source: str, attacking: int) -> tuple[int, JSONObject]:
    """A standing RETREAT or AMBUSH on the target acts on its first attack; returns the attackers
    left and what happened, for the battle's event."""
    mode = turn.modes.get(target)
    area = turn.state["areas"][target]
    if not mode or mode["spent"] or mode["owner"] != area["owner"]:
        return attacking, {}
    if mode["mode"] == "retreat":
        mode["spent"] = True
        refuge = turn.state["areas"].get(mode["to"])
        if refuge is not None and refuge["owner"] != area["owner"]:
            # The refuge was lost earlier in the turn: the order fails now, told to its own seat
            # only (D-ALL-3, D-ALL-5); the attacker learns nothing of it.
            turn.fail(
                area["owner"],
                mode["order"],
                f"at the first attack on {turn.board.label(target)}, {turn.board.label(mode['to'])} is not "
                f"{nations(turn.state, area['owner'])} (it is held by {nation(turn.state, refuge['owner'])})",
            )
        elif refuge is not None and area["armies"]:
            refuge["armies"] += area["armies"]
            moved, area["armies"] = area["armies"], 0
            return attacking, {"retreat": moved, "retreat_to": mode["to"]}
    if mode["mode"] == "ambush":
        mode["spent"] = True
        toll = min(attacking, area["armies"] // 2)
        return attacking - toll, {"ambush": toll}
    return attacking, {}


def fight(turn: Turn, seat: str, action: int, source: str, target: str, attacking: int) -> None:
    """An ATTACK's land battle: losses, collateral damage, capture or return, VP (D-EMP-5..7)."""
    area = turn.state["areas"][target]
    defender = area["owner"]
    sent = attacking
    attacking, before = _before_battle(turn, target, source, attacking)
    mode = turn.modes.get(target, {})
    held = mode.get("owner") == defender
    entrenched = int(held and mode.get("mode") == "entrench" and mode.get("to") == source)
    fort = 0 if held and mode.get("mode") == "ambush" else area["fort"]
    battle = Battle(attacking, area["armies"], area["population"], fort, turn.board.terrain(target).defence, entrenched)
    turn.battles += 1
    area["armies"] -= battle.defender_losses
    area["population"] -= battle.collateral
    if battle.captured:
        area["owner"], area["armies"] = seat, battle.survivors
        turn.modes.pop(target, None)
    else:
        turn.state["areas"][source]["armies"] += battle.survivors
    changes = vp.battle_changes(
        seat,
        None if defender == NEUTRAL else defender,
        battle.captured,
        battle.population,
        battle.collateral,
        turn.board.label(target),
    )
    turn.vp += changes
    _battle_event(turn, seat, defender, action, source, target, sent, battle, before, changes)


def _battle_event(
    turn: Turn,
    seat: str,
    defender: str,
    action: int,
    source: str,
    target: str,
    sent: int,
    battle: Battle,
    before: JSONObject,
    changes: list[vp.VPChange],
) -> None:
    who, place = nation(turn.state, seat), turn.board.label(target)
    text = (
        f"Battle {turn.battles} (action {action}): {who} attacks {place} from "
        f"{turn.board.label(source)} with {plural(sent, 'army')}"
    )
    if before.get("ambush") is not None:
        text += f"; an ambush costs {before['ambush']} of them"
    if before.get("retreat"):
        text += f"; the defenders retreat to {turn.board.label(before['retreat_to'])}"
    text += (
        f". Attack {battle.attacking} against defence {battle.defence}: {who} loses "
        f"{battle.attacker_losses}, {nation(turn.state, defender)} lose"
        f"{'' if defender == NEUTRAL else 's'} {battle.defender_losses}"
    )
    text += f", {battle.collateral} population perish" if battle.collateral else ""
    text += (
        f"; {who} captures {place}." if battle.captured else f"; the attack fails and {battle.survivors} return home."
    )
    turn.event(
        "battle",
        text,
        (seat, defender),
        number=turn.battles,
        action=action,
        attacker=seat,
        defender=defender,
        **{"from": source},
        to=target,
        attacking=battle.attacking,
        defending=battle.defence,
        armies=battle.armies,
        population=battle.population,
        fort=battle.fort,
        terrain=battle.terrain,
        entrenched=battle.entrenched,
        attacker_losses=battle.attacker_losses,
        defender_losses=battle.defender_losses,
        collateral=battle.collateral,
        captured=battle.captured,
        survivors=battle.survivors,
        vp={c.seat: c.points for c in changes},
        **before,
    )
