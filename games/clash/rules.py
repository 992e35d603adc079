"""Clash of Empires resolution: set-up, the claiming draft, placing, rounds, combat and the end."""

from __future__ import annotations

import copy

from gm.core import scenarios
from gm.core.model import Event, JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds

from .battle import move
from .board import (
    NEUTRAL,
    add_troops,
    controlled,
    core_of,
    event,
    free_to_claim,
    holder,
    nation,
    order_of_play,
    order_text,
    own_event,
    place_name,
    places,
    settle,
    troops_of,
    troops_words,
)
from .orders import PLAY_VERBS, TROOP_COST, action_problem, place_problem, unknown_code, voice, well_formed

# ----------------------------------------------------------------------------------------------
# A new game.


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """The state before the first turn: claiming, placing or straight into round 1."""
    listed = {s["code"]: s for s in scenario["seats"]}
    seating = scenarios.seating(scenario, list(listed), seats)
    names = {s.code: s.name for s in seats}
    state = {
        "ruleset": "clash",
        "scenario": copy.deepcopy(scenario),
        "phase": "claim",
        "round": 0,
        "rounds": scenario["rounds"],
        "seating": seating,
        "start": seeds.rng("start").choice(seating),  # the first starting player (rule D-ALL-4)
        "seats": {
            code: {
                "name": names[code],
                "nation": listed[code]["name"],
                "colour": listed[code]["colour"],
                "money": 0,
                "vp": 0,
            }
            for code in seating
        },
        "territories": {
            t["code"]: {"owner": NEUTRAL if t["neutral"] else None, "troops": t["neutral"], "core_of": None}
            for t in scenario["territories"]
        },
    }
    if scenario["setup"] == "fixed":
        _fixed_setup(state, [listed[code] for code in seating])
    return state


def _fixed_setup(state: JSONObject, seats: list[JSONObject]) -> None:
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


def resolve(state: JSONObject, orders_by_seat: JSONObject, seeds: TurnSeeds) -> TurnResult:
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


def _orders_of(orders_by_seat: dict[str, list[Order]], seat: str) -> list[object]:
    # A seat with no entry, or with something that is not a list of orders, passes.
    given = orders_by_seat.get(seat)
    return list(given) if isinstance(given, (list, tuple)) else []


def _failed(state: JSONObject, seat: str, order: object, reason: str, in_part: bool = False) -> Event:
    text = order_text(order) if isinstance(order, Order) else "an unreadable order"
    fails = "fails in part" if in_part else "fails"
    # Its own seat's alone: the others see only what happened on the board (rule D-ALL-5).
    return own_event(
        "order_failed", seat, f"{nation(state, seat)}'s order {text} {fails}: {reason}.", order=text, reason=reason
    )


def _claim(state: JSONObject, orders: JSONObject, seeds: TurnSeeds, events: list[Event]) -> None:
    rng = seeds.rng("draft")
    draft = list(state["seating"])
    rng.shuffle(draft)
    events.append(
        event(
            "draft_order",
            "The draft order, drawn by lot: " + ", ".join(nation(state, s) for s in draft) + ".",
            order=draft,
        )
    )
    wishes = {seat: _wish_list(state, seat, orders[seat], events) for seat in draft}
    free = free_to_claim(state)
    pick = 0
    while free:
        for seat in draft:
            if not free:
                break
            pick += 1
            code = next((c for c in wishes[seat] if c in free), None)
            drawn = code is None
            if code is None:  # "a seeded draft for seats that send none"
                code = rng.choice(free)
            free.remove(code)
            state["territories"][code]["core_of"] = seat  # rule D-CE-1
            events.append(
                event(
                    "claim",
                    f"Pick {pick}: {nation(state, seat)} claims {place_name(state, code)}.",
                    seat=seat,
                    territory=code,
                    pick=pick,
                )
            )
            if drawn:
                events.append(_claim_draw(state, seat, code, pick, bool(wishes[seat])))
    state["phase"] = "place"
    units = state["scenario"]["start_units"]
    events.append(
        event(
            "phase",
            f"Claiming is over. Next turn every empire places its {units} units anywhere on the board "
            "where no other troops stand.",
            phase="place",
        )
    )


def _wish_list(state: JSONObject, seat: str, orders: list[object], events: list[Event]) -> list[str]:
    wishes: list[str] = []
    for order in orders:
        if not well_formed(order) or order.verb != "CLAIM":
            events.append(_failed(state, seat, order, "this turn is for claiming territories"))
            continue
        for code in order.args:
            unknown = unknown_code(state, code)
            if unknown or not places(state)[code]["claimable"]:
                reason = unknown or f"{place_name(state, code)} cannot be claimed"
                events.append(_failed(state, seat, order, f"{reason}, so it is left out of the list", in_part=True))
            elif code not in wishes:
                wishes.append(code)
    return wishes


def _claim_draw(state: JSONObject, seat: str, code: str, pick: int, listed: bool) -> Event:
    # Why gm drew for the seat is its own (rule D-ALL-5): whether it sent a list, and that every
    # territory on it was taken, is about orders that were not carried out. The others read the
    # claim alone; the seat reads the draw (rule D-ALL-1).
    why = "none on its list was free" if listed else "it sent no list"
    text = f"Pick {pick}: {why}, so {place_name(state, code)} was drawn for {nation(state, seat)} by lot."
    return own_event("claim_draw", seat, text, territory=code, pick=pick, listed=listed)


def _place(state: JSONObject, orders: JSONObject, events: list[Event]) -> None:
    units = state["scenario"]["start_units"]
    limit = state["scenario"]["unit_limit"]
    # In the order of play (rule D-ALL-4): the first to place on an empty territory holds it,
    # and a later PLACE there fails on its own (rule D-ALL-3). It comes of the starting player
    # drawn with the game, so the event records it (rule D-ALL-1).
    sequence = order_of_play(state)
    events.append(_order_of_play_event(state, sequence))
    for seat in sequence:
        v = voice(state, seat, you=False)
        left = min(units, limit - troops_of(state, seat))
        for order in orders[seat]:
            problem = place_problem(state, seat, order, left, v) if isinstance(order, Order) else "it could not be read"
            if problem:
                events.append(_failed(state, seat, order, problem))
                continue
            code, count = order.args
            add_troops(state, seat, code, count)
            left -= count
            events.append(
                event(
                    "place",
                    f"{v.nation} places {troops_words(count)} in {v.place(code)}.",
                    seat=seat,
                    territory=code,
                    troops=count,
                )
            )
        _spread(state, seat, left, events)
    state["phase"], state["round"] = "play", 1
    events.append(event("phase", "Set-up is over. Round 1 begins.", phase="play"))


def _spread(state: JSONObject, seat: str, left: int, events: list[Event]) -> None:
    # Units not placed go one at a time round-robin over the core territories in code order
    # (those another empire or neutrals hold are skipped). When others hold every one, over the
    # territories where no troops stand: "Each player gets 20 units that can be played anywhere
    # on the board", so they are not lost.
    cores = [c for c in core_of(state, seat) if holder(state, c) in (None, seat)]
    spots = cores or [c for c in sorted(state["territories"]) if holder(state, c) is None]
    if left <= 0 or not spots:
        return
    placed = {code: 0 for code in spots}
    for i in range(left):
        placed[spots[i % len(spots)]] += 1
    placed = {code: n for code, n in placed.items() if n}
    for code, n in placed.items():
        add_troops(state, seat, code, n)
    where = ", ".join(f"{place_name(state, c)} +{n}" for c, n in placed.items())
    over = "its core territories" if cores else "the empty territories (others hold all its core territories)"
    events.append(
        event(
            "spread",
            f"{nation(state, seat)}'s {left} unplaced units are spread over {over}: {where}.",
            seat=seat,
            units=left,
            placed=placed,
        )
    )


def _round(state: JSONObject, orders: JSONObject, seeds: TurnSeeds, events: list[Event]) -> None:
    number = state["round"]
    die = seeds.rng("roll").randint(1, 6)  # rule D-CE-2: one die per round
    if die == 6:
        events.append(
            event(
                "roll",
                f"Round {number}: the die shows 6. Every empire gains 1 VP "
                "and $1 per territory it controls, a new starting player is drawn, "
                "and there are no actions this round.",
                round=number,
                die=die,
            )
        )
        _six(state, seeds, events)
    else:
        events.append(
            event("roll", f"Round {number}: the die shows {die}; every empire takes its action.", round=number, die=die)
        )
        _actions(state, orders, events)
    if number >= state["rounds"]:
        _finish(state, events)
    else:
        state["round"] = number + 1


def _six(state: JSONObject, seeds: TurnSeeds, events: list[Event]) -> None:
    for seat in state["seating"]:
        count = len(controlled(state, seat))
        state["seats"][seat]["vp"] += 1
        state["seats"][seat]["money"] += count
        held = "territory" if count == 1 else "territories"
        events.append(
            event(
                "bonus",
                f"{nation(state, seat)} gains 1 VP and ${count} for the {count} {held} it controls.",
                seat=seat,
                vp=1,
                money=count,
                territories=count,
            )
        )
    state["start"] = seeds.rng("start").choice(state["seating"])
    events.append(
        event("start_player", f"{nation(state, state['start'])} is drawn to start the next round.", seat=state["start"])
    )


def _actions(state: JSONObject, orders: JSONObject, events: list[Event]) -> None:
    sequence = order_of_play(state)
    events.append(_order_of_play_event(state, sequence))
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


def _order_of_play_event(state: JSONObject, sequence: list[str]) -> Event:
    text = "Order of play: " + ", ".join(nation(state, s) for s in sequence) + "."
    return event("order_of_play", text, order=sequence)


def _act(state: JSONObject, seat: str, order: Order, events: list[Event]) -> None:
    problem = action_problem(state, seat, order, voice(state, seat, you=False))
    if problem:  # rule D-ALL-3: the order fails on its own and nothing else happens
        events.append(_failed(state, seat, order, problem))
    elif order.verb == "PASS":
        _pass(state, seat, events, sent=True)
    elif order.verb == "RECRUIT":
        code, count = order.args
        _recruit(state, seat, code, count, events)
    elif order.verb == "REVOLT":
        _revolt(state, seat, order.args[0], events)
    else:
        source, target, amount = order.args
        move(state, seat, source, target, amount, events)


def _pass(state: JSONObject, seat: str, events: list[Event], sent: bool) -> None:
    state["seats"][seat]["money"] += 1
    how = "passes" if sent else "sends no action, so it passes"
    events.append(event("pass", f"{nation(state, seat)} {how} and gains $1.", seat=seat, money=1, sent=sent))


def _recruit(state: JSONObject, seat: str, code: str, count: int, events: list[Event]) -> None:
    cost = count * TROOP_COST  # rule D-CE-3
    state["seats"][seat]["money"] -= cost
    add_troops(state, seat, code, count)
    events.append(
        event(
            "recruit",
            f"{nation(state, seat)} recruits {troops_words(count)} in {place_name(state, code)} for ${cost}.",
            seat=seat,
            territory=code,
            troops=count,
            cost=cost,
        )
    )


def _revolt(state: JSONObject, seat: str, code: str, events: list[Event]) -> None:
    territory = state["territories"][code]
    victim = territory["owner"]
    territory["troops"] -= 1  # rule D-CE-5: one non-own troop, neutral included
    settle(territory)
    left = territory["troops"]
    troop = "one neutral troop" if victim == NEUTRAL else f"one troop of {nation(state, victim)}"
    after = f"{left} remain" if left else f"{place_name(state, code)} is now empty"
    events.append(
        event(
            "revolt",
            f"{nation(state, seat)} raises a revolt in {place_name(state, code)} and removes {troop}; {after}.",
            seat=seat,
            territory=code,
            victim=victim,
            left=left,
        )
    )


# ----------------------------------------------------------------------------------------------
# The end (rule D-CE-6).


def scores(state: JSONObject) -> dict[str, int]:
    return {seat: state["seats"][seat]["vp"] for seat in state["seating"]}


def score_label(state: JSONObject) -> tuple[str, str]:
    """What scores counts, for the report's table: (title, column)."""
    return ("Victory points", "VP")


def winners(state: JSONObject) -> list[str]:
    points = scores(state)
    best = max(points.values())
    return [seat for seat in state["seating"] if points[seat] == best]


def _finish(state: JSONObject, events: list[Event]) -> None:
    state["phase"] = "over"
    won, points = winners(state), scores(state)
    best = points[won[0]]
    over = f"After round {state['rounds']} the game is over"
    if len(won) == 1:
        text = f"{over}: {nation(state, won[0])} wins with {best} VP."
    else:
        names = " and ".join(nation(state, s) for s in won)
        text = f"{over}: {names} share the win with {best} VP each."
    events.append(event("game_over", text, winners=won, scores=points, tie=len(won) > 1))


def outcome(state: JSONObject) -> Outcome | None:
    if state["phase"] != "over":
        return None
    won = winners(state)
    rounds = state["rounds"]
    reason = (
        f"most victory points after round {rounds}"
        if len(won) == 1
        else f"tied on victory points after round {rounds}: the win is shared"
    )
    return Outcome(tuple(won), reason, scores(state))
