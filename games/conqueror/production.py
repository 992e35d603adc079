"""Conqueror! production: standing production orders, rush-buying, and each province's labour."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.model import JSONObject, Order

from .board import NEUTRAL, nation
from .diplomacy import Envoy, send, words
from .economy import (
    CONTROL_COST_PER_TURN,
    CONTROL_GAIN,
    REPEATED,
    fixed_cost,
    gain,
    lose,
    productivity,
    requirement,
    unit_cost,
)
from .orders import buy_cost, buy_problem, produce_problem, production_after, voice
from .turn import Turn

ONE_OFF = {
    "FORT": ("fort", 1),
    "KEEP": ("fort", 2),
    "CASTLE": ("fort", 3),
    "DEVELOP": ("culture", 2),
    "ADVANCE": ("culture", 3),
}
NEXT_WORDS = {
    "SOLDIERS": "the next army",
    "DIPLOMAT": "the next diplomat",
    "FARMS": "more farms",
    "FORT": "a fort",
    "KEEP": "a keep",
    "CASTLE": "a castle",
    "DEVELOP": "developed culture",
    "ADVANCE": "advanced culture",
}
DONE_WORDS = {
    "FORT": "a fort",
    "KEEP": "a keep",
    "CASTLE": "a castle",
    "DEVELOP": "developed culture",
    "ADVANCE": "advanced culture",
}


def set_production(turn: Turn, orders: dict[str, list[Order]]) -> None:
    """PRODUCE orders replace a province's standing production before anything else happens."""
    for seat in turn.state["seating"]:
        v = voice(turn.state, seat, False, turn.board)
        done: set[str] = set()
        for order in (o for o in orders.get(seat, []) if o.verb == "PRODUCE"):
            code, item, *target = order.args
            problem = (
                f"a second PRODUCE for {v.place(code)} this turn"
                if code in done
                else produce_problem(turn.state, seat, order, v)
            )
            if problem:
                turn.failed(seat, order, problem)
                continue
            done.add(code)
            province = turn.provinces[code]
            item, progress = production_after(province, item)
            province.update(
                item=item, progress=progress, target=(target[0] if target else code) if item == "DIPLOMAT" else None
            )


def rush_buys(turn: Turn, orders: dict[str, list[Order]]) -> None:
    """BUY orders finish production at once for gold, before any army moves (rule D-CQ-4), so
    bought soldiers defend the province this very turn. Bought diplomats arrive together once
    every buy is made (README choice 6)."""
    envoys: list[Envoy] = []
    for seat in turn.state["seating"]:
        v = voice(turn.state, seat, False, turn.board)
        me = turn.seats[seat]
        done: set[str] = set()
        for order in (o for o in orders.get(seat, []) if o.verb == "BUY"):
            code, units = order.args
            province = turn.provinces.get(code)
            problem: str | None
            if code in done:
                problem = f"a second BUY for {v.place(code)} this turn"
            else:
                item, progress = (province["item"], province["progress"]) if province else ("", 0)
                problem = buy_problem(turn.state, seat, code, units, item, progress, me["gold"], v)
            if problem:
                turn.failed(seat, order, problem)
                continue
            done.add(code)
            province = turn.provinces[code]  # there: buy_problem rejects an unknown code
            item = province["item"]
            price = buy_cost(province, item, province["progress"], units)
            me["gold"] -= price
            province["progress"] = 0
            what = complete(turn, code, item, units, envoys)
            turn.add(
                "buy",
                f"{v.nation} rush-buys {what} in {v.place(code)} for {price} gold.",
                (seat,),
                seat=seat,
                province=code,
                item=item,
                units=units,
                price=price,
            )
    send(turn, envoys, bought=True)


def complete(turn: Turn, code: str, item: str, units: int, envoys: list[Envoy]) -> str:
    """Finish units of an item in a province: its effect and its control gain; diplomats join
    `envoys`, to be sent with the phase's others. Returns words."""
    province = turn.provinces[code]
    owner = province["owner"]
    if item == "SOLDIERS":
        province["armies"] += units
        return f"{units} {'army' if units == 1 else 'armies'}"
    if item == "DIPLOMAT":
        target = province["target"] or code
        if turn.provinces[target]["owner"] != owner:  # lost since it was chosen: the diplomat stays
            target = province["target"] = code
        envoys.append(Envoy(owner, code, target, units))
        return words(units) + ("" if target == code else f" sent to {turn.board.label(target)}")
    if item == "FARMS":
        province["population"] += units
        return f"farms (population {province['population']})"
    field, level = ONE_OFF[item]
    province[field] = level
    province.update(item="TAXES", target=None, progress=0)
    gain(province["influence"], owner, CONTROL_GAIN[item], turn.parties())
    return DONE_WORDS[item]


def produce(turn: Turn) -> None:
    """Every province puts this turn's labour into its production (rule D-CQ-3). A nation's
    production event says in words what each province did, and in its data the gold levied
    (`taxes`) and what was finished (`made`: province -> item and units). The diplomats made
    arrive together after every province's labour (README choice 6)."""
    envoys: list[Envoy] = []
    notes: dict[str, list[str]] = {seat: [] for seat in turn.state["seating"]}
    taxes = {seat: 0 for seat in turn.state["seating"]}
    made: dict[str, dict[str, JSONObject]] = {seat: {} for seat in turn.state["seating"]}
    for code in turn.board.order:
        province = turn.provinces[code]
        labour = productivity(province)
        province["labour"] = labour
        owner = province["owner"]
        if owner == NEUTRAL:
            _neutral_levy(province, labour)
        elif labour > 0:
            work = _work(turn, code, labour, envoys)
            notes[owner].append(f"{turn.board.label(code)} {work.words}")
            taxes[owner] += work.gold
            if work.units:
                made[owner][code] = {"item": work.item, "units": work.units}
    send(turn, envoys, bought=False)
    for seat, lines in notes.items():
        if lines:
            text = f"Production of {nation(turn.state, seat)}: " + "; ".join(lines) + "."
            turn.add("production", text, (seat,), seat=seat, taxes=taxes[seat], made=made[seat])


@dataclass(frozen=True)
class Work:
    """What one province's labour did this turn.

    words: for the report. gold: the taxes it levied. item, units: what it finished (0 units: nothing).
    """

    words: str
    gold: int = 0
    item: str = ""
    units: int = 0


def _work(turn: Turn, code: str, labour: int, envoys: list[Envoy]) -> Work:
    province = turn.provinces[code]
    owner, item = province["owner"], province["item"]
    if requirement(item, province):  # only a hand-made state gets here; fall back to taxes
        province.update(item="TAXES", target=None, progress=0)
        item = "TAXES"
    if item in CONTROL_COST_PER_TURN:  # control table: -1 a turn while levying or recruiting
        lose(province["influence"], owner, CONTROL_COST_PER_TURN[item])
    if item == "TAXES":
        turn.seats[owner]["gold"] += labour
        return Work(f"{labour} gold in taxes", gold=labour)
    province["progress"] += labour
    units = _units_paid(province, item)
    if units:
        return Work(f"{labour} labour: {complete(turn, code, item, units, envoys)}", item=item, units=units)
    cost = unit_cost(item, province["population"])
    return Work(f"{labour} labour, {province['progress']} of {cost} towards {NEXT_WORDS[item]}")


def _units_paid(province: JSONObject, item: str) -> int:
    """How many units the labour so far pays for; their labour is taken off the progress."""
    if item == "FARMS":
        units: int = 0
        while province["progress"] >= (province["population"] + units + 1) ** 2:
            units += 1
            province["progress"] -= (province["population"] + units) ** 2
        return units
    cost = fixed_cost(item)
    if item in REPEATED:
        units = province["progress"] // cost
        province["progress"] -= units * cost
        return units
    if province["progress"] >= cost:
        province["progress"] = 0  # labour beyond a building's cost is lost
        return 1
    return 0


def _neutral_levy(province: JSONObject, labour: int) -> None:
    # The local leaders recruit with their (halved) labour until they hold their population.
    province["progress"] += labour
    while province["progress"] >= fixed_cost("SOLDIERS") and province["armies"] < province["population"]:
        province["progress"] -= fixed_cost("SOLDIERS")
        province["armies"] += 1
    if province["armies"] >= province["population"]:
        province["progress"] = 0
