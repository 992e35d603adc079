"""Clash of Empires resolution: set-up, the claiming draft, placing, rounds, combat and the end."""
from __future__ import annotations

import copy
from dataclasses import dataclass

from gm.core.model import Event, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import ScenarioError, TurnSeeds

from .orders import (NEUTRAL, PLAY_VERBS, TROOP_COST, action_problem, controlled, core_of,
                     free_to_claim, holder, nation, order_of_play, order_text, place_name,
                     place_problem, places, troops_of, troops_words, unknown_code, voice,
                     well_formed)


def _settle(territory: dict) -> None:
    # No units means nobody controls the territory (FAQ).
    if territory["troops"] == 0:
        territory["owner"] = None


# ----------------------------------------------------------------------------------------------
# A new game.

def new_game(scenario: dict, seats: list[SeatInfo], seeds: TurnSeeds) -> dict:
    """The state before the first turn: claiming, placing or straight into round 1."""
    listed = {s["code"]: s for s in scenario["seats"]}
    codes = [s.code for s in seats]
    low, high = scenario["min_seats"], scenario["max_seats"]
    if not low <= len(codes) <= high:
        raise ScenarioError(f"{scenario['name']} is for {low} to {high} seats, not {len(codes)}")
    for code in codes:
        if code not in listed:
            raise ScenarioError(f"seat {code} is not in {scenario['name']} "
                                f"(its seats are {', '.join(listed)})")
    if len(set(codes)) != len(codes):
        raise ScenarioError("each seat may take part only once")
    names = {s.code: s.name for s in seats}
    seating = [code for code in listed if code in names]
    state = {
        "ruleset": "clash",
        "scenario": copy.deepcopy(scenario),
        "phase": "claim", "round": 0, "rounds": scenario["rounds"],
        "seating": seating,
        "start": seeds.rng("start").choice(seating),  # the first starting player (rule D-ALL-4)
        "seats": {code: {"name": names[code], "nation": listed[code]["name"],
                         "colour": listed[code]["colour"], "money": 0, "vp": 0}
                  for code in seating},
        "territories": {
            t["code"]: {"owner": NEUTRAL if t["neutral"] else None, "troops": t["neutral"],
                        "core_of": None}
            for t in scenario["territories"]},
    }
    if scenario["setup"] == "fixed":
        _fixed_setup(state, [listed[code] for code in seating])
    return state


def _fixed_setup(state: dict, seats: list[dict]) -> None:
    # Core territories of seats that do not take part stay empty and belong to nobody.
    for seat in seats:
        for code in seat["core"]:
            state["territories"][code]["core_of"] = seat["code"]
        for code, count in seat["troops"].items():
            state["territories"][code].update(owner=seat["code"], troops=count)
    given = all(seat["troops"] for seat in seats)
    state["phase"], state["round"] = ("play", 1) if given else ("place", 0)


# ----------------------------------------------------------------------------------------------
# Resolution.

def resolve(state: dict, orders_by_seat: dict, seeds: TurnSeeds) -> TurnResult:
    """One mail turn: the claiming draft, the placing, or one round (rule D-ALL-4)."""
    state = copy.deepcopy(state)
    orders = {seat: _orders_of(orders_by_seat, seat) for seat in state["seating"]}
    events: list[Event] = []
    if state["phase"] == "claim":
        _claim(state, orders, seeds, events)
    elif state["phase"] == "place":
        _place(state, orders, events)
    elif state["phase"] == "play":
        _round(state, orders, seeds, events)
    return TurnResult(state, tuple(events))


def _orders_of(orders_by_seat: dict, seat: str) -> list:
    # A seat with no entry, or with something that is not a list of orders, passes.
    given = orders_by_seat.get(seat)
    return list(given) if isinstance(given, (list, tuple)) else []


def _event(kind: str, text: str, **data) -> Event:
    return Event(kind, {"text": text, **data})


def _failed(state: dict, seat: str, order, reason: str, in_part: bool = False) -> Event:
    text = order_text(order) if isinstance(order, Order) else "an unreadable order"
    fails = "fails in part" if in_part else "fails"
    return _event("order_failed", f"{nation(state, seat)}'s order {text} {fails}: {reason}.",
                  seat=seat, order=text, reason=reason)


def _claim(state: dict, orders: dict, seeds: TurnSeeds, events: list) -> None:
    rng = seeds.rng("draft")
    draft = list(state["seating"])
    rng.shuffle(draft)
    events.append(_event("draft_order", "The draft order, drawn by lot: "
                         + ", ".join(nation(state, s) for s in draft) + ".", order=draft))
    wishes = {seat: _wish_list(state, seat, orders[seat], events) for seat in draft}
    free = free_to_claim(state)
    pick = 0
    while free:
        for seat in draft:
            if not free:
                break
            pick += 1
            code = next((c for c in wishes[seat] if c in free), None)
            how = "preference" if code else "draw"
            if code is None:  # "a seeded draft for seats that send none"
                code = rng.choice(free)
            free.remove(code)
            state["territories"][code]["core_of"] = seat  # rule D-CE-1
            events.append(_claim_event(state, seat, code, pick, how, bool(wishes[seat])))
    state["phase"] = "place"
    units = state["scenario"]["start_units"]
    events.append(_event("phase", f"Claiming is over. Next turn every empire places its {units} "
                         "units on its core territories.", phase="place"))


def _wish_list(state: dict, seat: str, orders: list, events: list) -> list[str]:
    wishes: list[str] = []
    for order in orders:
        if not well_formed(order) or order.verb != "CLAIM":
            events.append(_failed(state, seat, order, "this turn is for claiming territories"))
            continue
        for code in order.args:
            unknown = unknown_code(state, code)
            if unknown or not places(state)[code]["claimable"]:
                reason = unknown or f"{place_name(state, code)} cannot be claimed"
                events.append(_failed(state, seat, order, f"{reason}, so it is left out of "
                                      "the list", in_part=True))
            elif code not in wishes:
                wishes.append(code)
    return wishes


def _claim_event(state: dict, seat: str, code: str, pick: int, how: str, listed: bool) -> Event:
    who, name = nation(state, seat), place_name(state, code)
    if how == "preference":
        text = f"Pick {pick}: {who} claims {name}, the first free territory on its list."
    else:
        why = "none on its list is free" if listed else "it sent no list"
        text = f"Pick {pick}: {who} is given {name} by a seeded draw ({why})."
    return _event("claim", text, seat=seat, territory=code, pick=pick, how=how)


def _place(state: dict, orders: dict, events: list) -> None:
    units = state["scenario"]["start_units"]
    limit = state["scenario"]["unit_limit"]
    for seat in state["seating"]:
        v = voice(state, seat, you=False)
        left = min(units, limit - troops_of(state, seat))
        for order in orders[seat]:
            problem = (place_problem(state, seat, order, left, v) if isinstance(order, Order)
                       else "it could not be read")
            if problem:
                events.append(_failed(state, seat, order, problem))
                continue
            code, count = order.args
            _add_troops(state, seat, code, count)
            left -= count
            events.append(_event("place", f"{v.nation} places {troops_words(count)} in "
                                 f"{v.place(code)}.", seat=seat, territory=code, troops=count))
        _spread(state, seat, left, events)
    state["phase"], state["round"] = "play", 1
    events.append(_event("phase", "Set-up is over. Round 1 begins.", phase="play"))


def _add_troops(state: dict, seat: str, code: str, count: int) -> None:
    territory = state["territories"][code]
    territory["troops"] += count
    territory["owner"] = seat


def _spread(state: dict, seat: str, left: int, events: list) -> None:
    # Units not placed go one at a time round-robin over the core territories in code order
    # (those another empire or neutrals hold are skipped).
    cores = [c for c in core_of(state, seat) if holder(state, c) in (None, seat)]
    if left <= 0 or not cores:
        return
    placed = {code: 0 for code in cores}
    for i in range(left):
        placed[cores[i % len(cores)]] += 1
    placed = {code: n for code, n in placed.items() if n}
    for code, n in placed.items():
        _add_troops(state, seat, code, n)
    where = ", ".join(f"{place_name(state, c)} +{n}" for c, n in placed.items())
    events.append(_event("spread", f"{nation(state, seat)}'s {left} unplaced units are spread "
                         f"over its core territories: {where}.", seat=seat, units=left,
                         placed=placed))


def _round(state: dict, orders: dict, seeds: TurnSeeds, events: list) -> None:
    number = state["round"]
    die = seeds.rng("roll").randint(1, 6)  # rule D-CE-2: one die per round
    if die == 6:
        events.append(_event("roll", f"Round {number}: the die shows 6. Every empire gains 1 VP "
                             "and $1 per territory it controls, a new starting player is drawn, "
                             "and there are no actions this round.", round=number, die=die))
        _six(state, seeds, events)
    else:
        events.append(_event("roll", f"Round {number}: the die shows {die}; "
                             "every empire takes its action.", round=number, die=die))
        _actions(state, orders, events)
    if number >= state["rounds"]:
        _finish(state, events)
    else:
        state["round"] = number + 1


def _six(state: dict, seeds: TurnSeeds, events: list) -> None:
    for seat in state["seating"]:
        count = len(controlled(state, seat))
        state["seats"][seat]["vp"] += 1
        state["seats"][seat]["money"] += count
        held = "territory" if count == 1 else "territories"
        events.append(_event("bonus", f"{nation(state, seat)} gains 1 VP and ${count} for the "
                             f"{count} {held} it controls.", seat=seat, vp=1, money=count,
                             territories=count))
    state["start"] = seeds.rng("start").choice(state["seating"])
    events.append(_event("start_player", f"{nation(state, state['start'])} is drawn to start the "
                         "next round.", seat=state["start"]))


def _actions(state: dict, orders: dict, events: list) -> None:
    sequence = order_of_play(state)
    events.append(_event("order_of_play", "Order of play: "
                         + ", ".join(nation(state, s) for s in sequence) + ".", order=sequence))
    for seat in sequence:
        actions = [o for o in orders[seat] if isinstance(o, Order) and o.verb in PLAY_VERBS]
        for order in orders[seat]:
            if order not in actions:
                events.append(_failed(state, seat, order, "it is not an action of a round"))
        if not actions:  # an empty order list passes
            _pass(state, seat, events, sent=False)
            continue
        _act(state, seat, actions[0], events)
        for extra in actions[1:]:
            events.append(_failed(state, seat, extra, "only one action per round"))
    # The order of play rotates by one seat after each action phase (rule D-ALL-4).
    state["start"] = sequence[1 % len(sequence)]


def _act(state: dict, seat: str, order: Order, events: list) -> None:
    problem = action_problem(state, seat, order, voice(state, seat, you=False))
    if problem:  # rule D-ALL-3: the order fails on its own and nothing else happens
        events.append(_failed(state, seat, order, problem))
    elif order.verb == "PASS":
        _pass(state, seat, events, sent=True)
    elif order.verb == "RECRUIT":
        _recruit(state, seat, *order.args, events)
    elif order.verb == "REVOLT":
        _revolt(state, seat, order.args[0], events)
    else:
        _move(state, seat, *order.args, events)


def _pass(state: dict, seat: str, events: list, sent: bool) -> None:
    state["seats"][seat]["money"] += 1
    how = "passes" if sent else "sends no action, so it passes"
    events.append(_event("pass", f"{nation(state, seat)} {how} and gains $1.", seat=seat,
                         money=1, sent=sent))


def _recruit(state: dict, seat: str, code: str, count: int, events: list) -> None:
    cost = count * TROOP_COST  # rule D-CE-3
    state["seats"][seat]["money"] -= cost
    _add_troops(state, seat, code, count)
    events.append(_event("recruit", f"{nation(state, seat)} recruits {troops_words(count)} in "
                         f"{place_name(state, code)} for ${cost}.", seat=seat, territory=code,
                         troops=count, cost=cost))


def _revolt(state: dict, seat: str, code: str, events: list) -> None:
    territory = state["territories"][code]
    victim = territory["owner"]
    territory["troops"] -= 1  # rule D-CE-5: one non-own troop, neutral included
    _settle(territory)
    left = territory["troops"]
    troop = "one neutral troop" if victim == NEUTRAL else f"one troop of {nation(state, victim)}"
    after = f"{left} remain" if left else f"{place_name(state, code)} is now empty"
    events.append(_event("revolt", f"{nation(state, seat)} raises a revolt in "
                         f"{place_name(state, code)} and removes {troop}; {after}.",
                         seat=seat, territory=code, victim=victim, left=left))


@dataclass(frozen=True)
class Battle:
    """One combat by rule D-CE-4: simultaneous losses, one point of strength per troop.

    attacking: the troops that attack (all of them strike and can be lost).
    defending: the troops in the territory at the start of the battle.
    """

    attacking: int
    defending: int

    @property
    def defender_losses(self) -> int:
        return min(self.attacking, self.defending)

    @property
    def attacker_losses(self) -> int:
        return min(self.defending, self.attacking)

    @property
    def survivors(self) -> int:
        return self.attacking - self.attacker_losses

    @property
    def defenders_left(self) -> int:
        return self.defending - self.defender_losses

    @property
    def captured(self) -> bool:
        return self.defenders_left == 0 and self.survivors > 0


def _move(state: dict, seat: str, source: str, target: str, amount, events: list) -> None:
    origin = state["territories"][source]
    count = origin["troops"] if amount == "ALL" else amount
    defender = holder(state, target)
    origin["troops"] -= count
    if defender in (None, seat):
        _add_troops(state, seat, target, count)
        events.append(_move_event(state, seat, source, target, count, took=defender is None))
    else:
        battle = Battle(count, state["territories"][target]["troops"])
        _fight(state, seat, source, target, battle, events)
    _settle(origin)


def _move_event(state: dict, seat: str, source: str, target: str, count: int, took: bool) -> Event:
    who, src, dst = nation(state, seat), place_name(state, source), place_name(state, target)
    if took:  # rule D-CE-5: an empty territory is taken without combat and without VP
        text = (f"{who} moves {troops_words(count)} from {src} into empty {dst} "
                "and takes it (no VP).")
    else:
        text = f"{who} moves {troops_words(count)} from {src} to {dst}."
    return _event("move", text, seat=seat, **{"from": source, "to": target}, troops=count,
                  took=took)


def _fight(state: dict, seat: str, source: str, target: str, battle: Battle, events: list) -> None:
    place = state["territories"][target]
    defender = place["owner"]
    place["troops"] -= battle.defender_losses
    _settle(place)
    if battle.captured:
        _add_troops(state, seat, target, battle.survivors)
        state["seats"][seat]["vp"] += 1
    else:  # the survivors stay in the source territory
        state["territories"][source]["troops"] += battle.survivors
    events.append(_battle_event(state, seat, defender, source, target, battle))


def _battle_event(state: dict, seat: str, defender: str, source: str, target: str,
                  battle: Battle) -> Event:
    who, dst = nation(state, seat), place_name(state, target)
    text = (f"{who} attacks {dst} from {place_name(state, source)} with "
            f"{troops_words(battle.attacking)} against {battle.defending}: {who} loses "
            f"{battle.attacker_losses}, the defenders lose {battle.defender_losses}; ")
    if battle.captured:
        text += f"{who} takes {dst} and gains 1 VP."
    elif battle.defenders_left:
        keeps = ("the neutral troops keep" if defender == NEUTRAL
                 else f"{nation(state, defender)} keeps")
        text += f"{keeps} {dst} with {battle.defenders_left}"
        # Cannot happen with D-CE-4's arithmetic, but the rule says where survivors go.
        back = f", and {battle.survivors} survivors return to {place_name(state, source)}"
        text += (back if battle.survivors else "") + "."
    else:
        text += f"nobody is left, and {dst} is now empty."
    return _event("battle", text, attacker=seat, defender=defender, **{"from": source},
                  to=target, attacking=battle.attacking, defending=battle.defending,
                  attacker_losses=battle.attacker_losses,
                  defender_losses=battle.defender_losses, captured=battle.captured,
                  vp=1 if battle.captured else 0)


# ----------------------------------------------------------------------------------------------
# The end (rule D-CE-6).

def scores(state: dict) -> dict[str, int]:
    return {seat: state["seats"][seat]["vp"] for seat in state["seating"]}


def winners(state: dict) -> list[str]:
    points = scores(state)
    best = max(points.values())
    return [seat for seat in state["seating"] if points[seat] == best]


def _finish(state: dict, events: list) -> None:
    state["phase"] = "over"
    won, points = winners(state), scores(state)
    best = points[won[0]]
    over = f"After round {state['rounds']} the game is over"
    if len(won) == 1:
        text = f"{over}: {nation(state, won[0])} wins with {best} VP."
    else:
        names = " and ".join(nation(state, s) for s in won)
        text = f"{over}: {names} share the win with {best} VP each."
    events.append(_event("game_over", text, winners=won, scores=points, tie=len(won) > 1))


def outcome(state: dict) -> Outcome | None:
    if state["phase"] != "over":
        return None
    won = winners(state)
    rounds = state["rounds"]
    reason = (f"most victory points after round {rounds}" if len(won) == 1 else
              f"tied on victory points after round {rounds}: the win is shared")
    return Outcome(tuple(won), reason, scores(state))
