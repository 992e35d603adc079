"""Imperials' rule-book invariants (games/imperials/invariants.py): robot games of both modes keep
them, and each fault planted in the rules or in a turn's result is found and named."""

from __future__ import annotations

import copy

import pytest
from gm_games.imperials import actions, produce, robber, ruleset, turn as imperials_turn, warriors
from gm_games.imperials.invariants import (
    ACTIONS,
    ARMY,
    BANKED,
    CARDS,
    CHASE,
    DISCARDS,
    DISPLACE,
    DISTANCE,
    DRAGON,
    DRAGON_TRACK,
    END,
    EVENT_DIE,
    GRANARY,
    HIDDEN,
    LIMIT,
    OFFERS,
    PLACES,
    PLAYS,
    PRICES,
    PRODUCE,
    RATES,
    ROBBER,
    ROUTE,
    SETUP,
    SLAYER,
    STAY,
    THEFT,
    TOWNED,
    TRADES,
    UPGRADE,
    WAR,
    WIN,
    invariants,
)

from gm.core.model import Event, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds
from gm.testing.battery import run_battery


def game(mode: str, seed: int, turns: int) -> tuple[dict, dict, TurnResult]:
    """(state before, orders, result) of the last of `turns` robot turns of a 4-seat game."""
    loaded = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    loaded = {**loaded, "options": {**loaded.get("options", {}), "mode": mode}}
    codes = ruleset.seat_codes(loaded)[:4]
    state = ruleset.new_game(loaded, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))
    for number in range(1, turns + 1):
        seeds = TurnSeeds(seed, number)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        result = ruleset.resolve(state, orders, seeds)
        if number < turns:
            state = result.state
    return state, orders, result


def named(lines: list[str]) -> set[str]:
    return {line.split(": ", 1)[0] for line in lines}


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_robot_games_keep_the_book(mode):
    for seed in range(3):
        for turns in (1, 2, 6, 12):
            before, orders, result = game(mode, seed, turns)
            assert invariants(before, orders, result) == []


def tampered(mode: str, change) -> list[str]:
    before, orders, result = game(mode, 5, 10)
    after = copy.deepcopy(result.state)
    events = change(after)
    return invariants(before, orders, TurnResult(after, (*result.events, *(events or ()))))


def test_a_card_made_or_lost_is_found():
    def wood_from_nowhere(state):
        state["seats"][state["seating"][0]]["hand"]["wood"] += 1

    assert named(tampered("basic", wood_from_nowhere)) == {BANKED, PRICES}


def test_towns_past_the_limit_fences_past_three_and_neighbours_are_found():
    def grow(state):
        seat = state["seating"][0]
        for vertex in range(1, 40):
            state["buildings"].setdefault(str(vertex), {"owner": seat, "kind": "town", "fence": True, "wonder": None})

    lines = tampered("wonders", grow)
    assert LIMIT in named(lines) and DISTANCE in named(lines)
    assert any("towns" in line for line in lines) and any("fences" in line for line in lines)


def test_a_hand_named_in_public_is_found():
    def leak(state):
        return [
            Event("order_failed", {"text": "Red's order TOWN 13 fails: Red lacks 1 wheat.", "seat": "RED"}),
            Event("note", {"text": "Blue holds 3 ore."}),
        ]

    lines = tampered("basic", leak)
    assert [line for line in lines if line.startswith(HIDDEN)] == [
        f"{HIDDEN}: every seat reads order_failed: Red's order TOWN 13 fails: Red lacks 1 wheat.",
        f"{HIDDEN}: every seat reads what a hand holds or lacks: Blue holds 3 ore.",
    ]


def test_awards_and_cards_given_wrongly_are_found():
    def award(state):
        state["longest"] = {"seat": state["seating"][0], "length": 9}
        state["dragonslayer_left"] = 9
        state["decks"]["science"].append("spy")

    def army(state):
        state["army"] = {"seat": state["seating"][1], "count": 3}
        state["decks"]["basic"].append("monopoly")

    assert named(tampered("wonders", award)) == {ROUTE, SLAYER, CARDS}
    assert named(tampered("basic", army)) == {ARMY, CARDS}


def test_a_wrong_price_planted_in_the_rules_fails_the_battery(monkeypatch):
    cheap = {**actions.COSTS, "town": {"wheat": 1, "ore": 1}}
    monkeypatch.setattr(actions, "COSTS", cheap)
    report = run_battery(ruleset, games=3, seed=4)
    assert report.findings and {f.invariant for f in report.findings} >= {PRICES}


def test_a_public_failure_planted_in_the_rules_fails_the_battery(monkeypatch):
    def public(self, seat, order, reason):
        self.add("order_failed", f"{self.name(seat)}'s order fails: {reason}.", seat=seat, reason=reason)

    monkeypatch.setattr(imperials_turn.Turn, "failed", public)
    report = run_battery(ruleset, games=2, seed=4)
    assert HIDDEN in {f.invariant for f in report.findings}


def test_a_robber_left_in_place_and_a_trade_nobody_accepted_are_found():
    before, orders, result = game("basic", 5, 10)
    before = {
        **before,
        "offers": [{"id": 9, "from": "RED", "to": "ALL", "give": {"wood": 1}, "get": {"ore": 1}, "round": 1}],
    }
    trade = {"offer": 9, "seat": "RED", "partner": "BLUE", "give": {"wood": 1}, "get": {"ore": 1}, "text": "t"}
    events = (Event("robber", {"seat": "RED", "tile": before["robber"], "text": "t"}), Event("trade", trade))
    lines = invariants(before, {**orders, "BLUE": []}, TurnResult(result.state, events))
    assert ROBBER in named(lines) and OFFERS in named(lines)
    assert f"{OFFERS}: offer #9 carried out without BLUE's ACCEPT or after WITHDRAW" in lines


def test_a_discard_limit_planted_wrong_in_the_rules_fails_the_battery(monkeypatch):
    # Robber: "Any player with more resources than the discard limit will have to discard half".
    monkeypatch.setattr(robber, "DISCARD_LIMIT", 9)
    report = run_battery(ruleset, games=3, seed=4)
    assert DISCARDS in {f.invariant for f in report.findings}


def test_a_discard_missing_or_of_the_wrong_count_is_found():
    before, orders, result = next(
        (b, o, r)
        for turns in range(2, 30)
        for b, o, r in [game("basic", 5, turns)]
        if any(e.kind == "discard" for e in r.events)
    )
    assert invariants(before, orders, result) == []
    first = next(i for i, e in enumerate(result.events) if e.kind == "discard")
    wrong = Event("discard", {**result.events[first].data, "count": result.events[first].data["count"] + 1})
    for events in (
        result.events[:first] + result.events[first + 1 :],
        (*result.events[:first], wrong, *result.events[first + 1 :]),
    ):
        assert DISCARDS in named(invariants(before, orders, TurnResult(result.state, events)))


def test_a_theft_from_a_player_away_from_the_robber_is_found():
    # Robber: "if any other player has a settlement adjacent to the tile on which the robber is
    # placed, the current player must choose one of these players to steal one random resource card from".
    before, orders, result = game("basic", 5, 10)
    seat, other = before["seating"][0], before["seating"][1]
    tile = next(
        code
        for code in imperials_turn.board_geometry(before).tiles
        if code != before["robber"]
        and not any(str(v) in before["buildings"] for v in imperials_turn.board_geometry(before).tile_vertices[code])
    )
    theft = {"thief": seat, "victim": other, "taken": True, "text": "t"}
    events = (Event("robber", {"seat": seat, "tile": tile, "text": "t"}), Event("theft", theft))
    assert THEFT in named(invariants(before, orders, TurnResult(result.state, events)))


def test_a_win_missed_in_the_last_turn_of_the_round_is_found():
    # Victory Conditions: a player wins with the points "in their own turn after the dice is rolled".
    before, orders, result = game("basic", 5, 10)
    after = copy.deepcopy(result.state)
    last = [e.data["seat"] for e in result.events if e.kind == "dice"][-1]
    after["seats"][last]["shown_points"] += after["target"]
    assert WIN in named(invariants(before, orders, TurnResult(after, result.events)))


def test_a_seven_without_the_robber_moving_or_with_production_is_found():
    # Robber: "Whenever 7 is rolled on the dice ... the current player must move the robber".
    before, orders, result = next(
        (b, o, r)
        for turns in range(2, 30)
        for b, o, r in [game("basic", 5, turns)]
        if any(e.kind == "dice" and e.data["total"] == 7 for e in r.events)
    )
    assert invariants(before, orders, result) == []
    seven = next(i for i, e in enumerate(result.events) if e.kind == "dice" and e.data["total"] == 7)
    moved = next(i for i, e in enumerate(result.events) if i > seven and e.kind == "robber")
    unmoved = result.events[:moved] + result.events[moved + 1 :]
    produced = (
        *result.events[: seven + 1],
        Event("production", {"produced": {}, "total": 7}),
        *result.events[seven + 1 :],
    )
    for events in (unmoved, produced):
        assert ROBBER in named(invariants(before, orders, TurnResult(result.state, events)))


def test_a_trade_of_a_type_for_itself_or_for_nothing_is_found():
    # Trade: "Resources of the same type may not be exchanged during a trade"; "At least one
    # resource must be given by each player during a trade".
    before, orders, result = game("basic", 5, 10)
    same = {"seat": "RED", "give": {"wood": 4}, "get": {"wood": 1}, "rate": 4, "text": "t"}
    free = {"offer": 1, "seat": "RED", "partner": "BLUE", "give": {"wood": 1}, "get": {}, "text": "u"}
    events = (*result.events, Event("market", same), Event("trade", free))
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert f"{TRADES}: t" in lines and f"{TRADES}: u" in lines


def test_two_basic_cards_in_a_turn_or_a_card_not_held_are_found():
    # Action Cards: "Players may play upto one action card every turn"; "An action card may not
    # be played on the turn it is purchased".
    before, orders, result = game("basic", 5, 10)
    seat = before["seating"][0]
    before = copy.deepcopy(before)
    before["seats"][seat]["cards"] = [{"card": "roads", "round": 1, "bought": True}]
    plays = tuple(Event("play", {"seat": seat, "card": c, "text": "t"}) for c in ("roads", "monopoly"))
    events = tuple(e for e in result.events if e.kind != "play") + plays
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert f"{PLAYS}: {seat} plays a second action card in its turn" in lines
    assert f"{PLAYS}: {seat} plays a monopoly card it did not hold when its turn began" in lines
    assert not any("roads" in line for line in lines)


def test_a_warrior_acting_in_the_turn_it_was_activated_is_found():
    # Warriors: "An action may be performed only if the warrior was not activated during the
    # current turn".
    before, orders, result = game("wonders", 5, 10)
    events = (
        *result.events,
        Event("activate", {"seat": "RED", "vertex": 30, "text": "a"}),
        Event("warrior_moves", {"seat": "RED", "start": 30, "end": 35, "text": "m"}),
        Event("activate", {"seat": "RED", "vertex": 35, "text": "a"}),
        Event("chase", {"seat": "RED", "vertex": 35, "text": "c"}),
    )
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert f"{ACTIONS}: m" in lines and f"{ACTIONS}: c" in lines


def test_a_road_village_town_or_warrior_out_of_place_is_found():
    # "The player may build roads adjacent to any settlement belonging to the player or adjacent
    # to another road"; villages "adjacent to a road belonging to the player"; a town is a
    # village upgraded (D-IM-3); a warrior is placed "similar to settlements".
    before, orders, result = game("wonders", 5, 10)
    geo = imperials_turn.board_geometry(before)
    seat = before["seating"][0]
    mine = {v for e, o in before["roads"].items() if o == seat for v in geo.edge_ends[e]}
    mine |= {int(v) for v, b in before["buildings"].items() if b["owner"] == seat}
    far = next(e for e, ends in geo.edge_ends.items() if not set(ends) & mine and e not in before["roads"])
    alone = next(v for v in sorted(geo.vertex_edges) if v not in mine and str(v) not in before["buildings"])
    other = next(v for v, b in before["buildings"].items() if b["owner"] != seat)
    events = (
        *result.events,
        Event("road", {"seat": seat, "edge": far, "free": True, "text": "r"}),
        Event("village", {"seat": seat, "vertex": alone, "text": "v"}),
        Event("town", {"seat": seat, "vertex": int(other), "cost": {"wheat": 2, "ore": 3}, "text": "t"}),
        Event("warrior", {"seat": seat, "vertex": int(other), "free": True, "text": "w"}),
    )
    lines = [line for line in invariants(before, orders, TurnResult(result.state, events)) if line.startswith(PLACES)]
    assert lines == [
        f"{PLACES}: {seat}'s road on {far} touches none of its roads or settlements",
        f"{PLACES}: {seat}'s village at {alone} is at the end of none of its roads",
        f"{PLACES}: {seat}'s town at {other} is not on a village of its own",
        f"{PLACES}: {seat}'s warrior at {other} is not on an empty vertex at the end of its road",
    ]


def test_an_award_passed_on_a_tie_is_found():
    # "If another player builds a longer trade route, the two victory points will pass"; "If any
    # other player uses more Warrior cards, the two extra points will pass" (D-IM-7: a tie keeps).
    before, orders, result = game("basic", 5, 10)
    red, blue = before["seating"][:2]
    before = copy.deepcopy(before)
    before["army"] = {"seat": red, "count": 3}
    before["seats"][red]["warriors_played"] = before["seats"][blue]["warriors_played"] = 3
    events = (
        *result.events,
        Event("longest_route", {"seat": blue, "lost": red, "length": 1, "text": "l"}),
        Event("strongest_army", {"seat": blue, "lost": red, "count": 3, "text": "a"}),
    )
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert any(line.startswith(f"{ROUTE}: it passes from {red} to {blue}") for line in lines)
    assert any(line.startswith(f"{ARMY}: it passes from {red} to {blue}") for line in lines)


def test_a_dragon_of_the_wrong_strength_or_verdict_is_found():
    # "The strength of the dragon is determined by the total number of towns on the board";
    # "if one player has more active warriors than any other player, they receive an extra
    # victory point"; "the player(s) with the fewest number of active knights must choose one
    # town to demote" (D-IM-6, D-IM-11).
    before, orders, result = game("wonders", 5, 10)
    red, blue = before["seating"][:2]
    towns = sum(1 for b in before["buildings"].values() if b["kind"] == "town")
    counts = {s: 0 for s in before["seating"]}
    won = {"attack": towns, "defence": towns, "forces": {red: towns}, "warriors": {**counts, red: 1, blue: 1}}
    lost = {"attack": towns + 1, "defence": 0, "forces": {}, "warriors": counts}
    events = (
        *result.events,
        Event("dragon_battle", {**won, "won": True, "text": "b"}),
        Event("dragonslayer", {"seat": red, "point": True, "text": "d"}),
        Event("dragon_battle", {**lost, "won": False, "text": "b"}),
    )
    lines = [line for line in invariants(before, orders, TurnResult(result.state, events)) if line.startswith(DRAGON)]
    assert len(lines) == 3 and f"with {towns} towns on the board" in lines[1]
    assert lines[0].startswith(f"{DRAGON}: a defeat") and lines[2].startswith(f"{DRAGON}: a victory")


def test_an_end_with_the_wrong_winner_or_none_due_is_found():
    # "A player wins by accumuating victory points"; at gm's round limit the most points win.
    before, orders, result = game("basic", 5, 10)
    after = copy.deepcopy(result.state)
    after["phase"] = "over"
    lines = invariants(before, orders, TurnResult(after, result.events))
    assert any(line.startswith(f"{END}: round") for line in lines)
    after["round_limit"] = after["round"]
    wrong = Event("game_over", {"winners": [after["seating"][0]], "scores": {}, "text": "g"})
    lines = invariants(before, orders, TurnResult(after, (*result.events, wrong)))
    assert any(line.startswith(f"{END}: the game ends with [") for line in lines)


def test_a_roll_paid_wrongly_is_found():
    # "A village produces one resource from any adjacent tile while towns produces two
    # resources"; "the settlements adjacent to this tile will not produce any resources".
    before, orders, result = next(
        (b, o, r)
        for turns in range(2, 30)
        for b, o, r in [game("basic", 5, turns)]
        if any(e.kind == "production" for e in r.events) and not any(e.kind == "shortage" for e in r.events)
    )
    first = next(i for i, e in enumerate(result.events) if e.kind == "production")
    data = result.events[first].data
    seat = next(iter(data["produced"]))
    more = {**data["produced"], seat: {**data["produced"][seat], "ore": data["produced"][seat].get("ore", 0) + 1}}
    events = (*result.events[:first], Event("production", {**data, "produced": more}), *result.events[first + 1 :])
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert any(line.startswith(f"{PRODUCE}: the roll of {data['total']} gives {seat}") for line in lines)
    unpaid = result.events[:first] + result.events[first + 1 :]
    assert PRODUCE in named(invariants(before, orders, TurnResult(result.state, unpaid)))


def test_event_die_cards_to_the_wrong_players_or_a_sixth_village_are_found():
    # "If the player has at least one and upto one less improvement than the roll of the red dice
    # for the color of the event dice, they receive an action card" (D-IM-5); "A player may have a
    # maximum of 5 villages on the board at any time" (D-IM-13: at all times).
    before, orders, result = game("wonders", 5, 10)
    red, blue = before["seating"][:2]
    before = copy.deepcopy(before)
    for seat in before["seating"]:
        before["seats"][seat]["improvements"]["trade"] = 0
    before["seats"][red]["improvements"]["trade"] = 3
    before["buildings"].update({str(n): {"owner": blue, "kind": "village", "wonder": None} for n in range(900, 905)})
    dice = {"seat": red, "white": 1, "red": 4, "total": 5, "event": "trade", "text": "d"}
    events = (
        *result.events,
        Event("dice", dice),
        Event("card", {"seat": blue, "improvement": "trade", "text": "c"}),
        Event("order_of_play", {"text": "o"}),
        Event("village", {"seat": blue, "vertex": 1, "text": "v"}),
    )
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert any(line.startswith(f"{LIMIT}: {blue} has") and "villages on the board at once" in line for line in lines)
    assert any(line.startswith(f"{EVENT_DIE}: trade with red 4") and f"{{'{blue}'}}" in line for line in lines)


def test_a_robber_that_robs_nobody_beside_a_player_holding_cards_is_found():
    # Robber: "if any other player has a settlement adjacent to the tile on which the robber is
    # placed, the current player must choose one of these players to steal one random resource card from".
    before, orders, result = game("basic", 5, 10)
    geo = imperials_turn.board_geometry(before)
    vertex, building = next(
        (v, b)
        for v, b in before["buildings"].items()
        if sum(before["seats"][b["owner"]]["hand"].values()) and str(v) in result.state["buildings"]
    )
    tile = next(c for c in geo.tiles if int(vertex) in geo.tile_vertices[c] and c != before["robber"])
    mover = next(s for s in before["seating"] if s != building["owner"])
    events = (Event("robber", {"seat": mover, "tile": tile, "text": "t"}),)
    lines = invariants(before, orders, TurnResult(result.state, events))
    assert any(line.startswith(f"{THEFT}: {mover} moves the robber to {tile} and robs none of") for line in lines)


def test_a_robber_that_robs_the_owner_of_a_village_built_this_turn_is_no_finding():
    # The battery's seed 32 (Basic, first-game): Purple built a village at vertex 50 and Orange then
    # moved the robber to S, beside it and beside Blue's village, and robbed Purple, as "choose one
    # of these players" allows; the check knew only the turn's first settlements and said Orange
    # robbed none of ['BLUE'].
    before, orders, result = game("basic", 5, 10)
    geo = imperials_turn.board_geometry(before)
    tile, other, vertex = next(
        (code, before["buildings"][str(w)]["owner"], v)
        for code in geo.tiles
        if code != before["robber"]
        for w in geo.tile_vertices[code]
        if str(w) in before["buildings"] and sum(before["seats"][before["buildings"][str(w)]["owner"]]["hand"].values())
        for v in geo.tile_vertices[code]
        if str(v) not in before["buildings"]
    )
    builder = next(s for s in before["seating"] if s != other)
    mover = next(s for s in before["seating"] if s not in (other, builder))
    after = copy.deepcopy(result.state)
    after["buildings"][str(vertex)] = {"owner": builder, "kind": "village", "fence": False, "wonder": None}
    events = (
        Event("village", {"seat": builder, "vertex": vertex, "text": "t"}),
        Event("robber", {"seat": mover, "tile": tile, "text": "t"}),
        Event("theft", {"thief": mover, "victim": builder, "taken": True, "text": "t"}),
    )
    before = copy.deepcopy(before)  # the builder pays for the village and still holds a card
    before["seats"][builder]["hand"].update(wood=1, brick=1, wool=1, wheat=1, ore=1)
    assert THEFT not in named(invariants(before, orders, TurnResult(after, events)))


def test_a_robber_that_robs_the_owner_of_a_town_the_dragon_burns_away_later_is_no_finding():
    # The battery's seed 7417 (Wonders & Warriors, round 42): Blue rolled a 7, moved the robber to
    # G beside Orange's settlement and Purple's town and robbed Purple; in Orange's turn the dragon
    # burned that town away (Purple had 5 villages, rule D-IM-13). The check knew only the
    # settlements still standing at the end and said Blue robbed none of ['ORANGE'].
    before, orders, result = game("wonders", 5, 10)
    geo = imperials_turn.board_geometry(before)
    tile = next(c for c in geo.tiles if c != before["robber"])
    burnt, kept = geo.tile_vertices[tile][0], geo.tile_vertices[tile][2]
    owner, other, mover = before["seating"][:3]
    before = copy.deepcopy(before)
    for vertex in geo.tile_vertices[tile]:
        before["buildings"].pop(str(vertex), None)
    before["buildings"][str(burnt)] = {"owner": owner, "kind": "town", "fence": False, "wonder": None}
    before["buildings"][str(kept)] = {"owner": other, "kind": "village", "fence": False, "wonder": None}
    for seat in (owner, other):
        before["seats"][seat]["hand"]["ore"] += 1
    after = copy.deepcopy(before)
    del after["buildings"][str(burnt)]
    robbed = (
        Event("robber", {"seat": mover, "tile": tile, "text": "t"}),
        Event("theft", {"thief": mover, "victim": owner, "taken": True, "text": "t"}),
    )
    burn = Event("demote", {"seat": owner, "vertex": burnt, "removed": True, "text": "t"})
    assert THEFT not in named(invariants(before, orders, TurnResult(after, (*robbed, burn))))
    # Burnt away before the robber moves, the town is no reason to rob its owner.
    lines = invariants(before, orders, TurnResult(after, (burn, *robbed)))
    assert f"{THEFT}: {mover} moves the robber to {tile} and robs none of {[other]}" in lines


def test_a_granary_and_a_war_planted_wrong_in_the_rules_fail_the_battery(monkeypatch):
    # "Science: The granary provides one resource ... when a dice roll does not produce any
    # resource", with "3 improvements of a type"; "Regardless of the result of the dragon war, all
    # warriors are deactivated after the war". Seeds 9 and 10 draw Wonders & Warriors games.
    monkeypatch.setattr(produce, "GRANARY_LEVEL", 1)
    fought = warriors.battle

    def awake(turn):
        active = [v for v, w in turn.state["warriors"].items() if w["active"]]
        fought(turn)
        for v in active:
            turn.state["warriors"][v]["active"] = True

    monkeypatch.setattr(warriors, "battle", awake)
    report = run_battery(ruleset, games=2, seed=9)
    assert {GRANARY, WAR} <= {f.invariant for f in report.findings}


def test_a_granary_after_a_roll_that_paid_or_a_warrior_awake_after_the_war_is_found():
    before, orders, result = game("wonders", 5, 10)
    red, blue = before["seating"][:2]
    before = copy.deepcopy(before)
    before["seats"][red]["improvements"]["science"] = 3
    before["seats"][blue]["improvements"]["science"] = 3
    roll = (
        Event("dice", {"seat": red, "white": 2, "red": 3, "total": 5, "event": "black", "text": "d"}),
        Event("production", {"total": 5, "produced": {red: {"wood": 1}}, "text": "p"}),
    )
    paid = Event("granary", {"seat": red, "cards": {"ore": 1}, "text": "g"})
    owed = Event("granary", {"seat": blue, "cards": {"ore": 1}, "text": "g"})
    lines = invariants(before, orders, TurnResult(result.state, (*result.events, *roll, paid, owed)))
    assert [line for line in lines if line.startswith(GRANARY)] == [
        f"{GRANARY}: {red} with 3 science improvements gets {{'ore': 1}}"
    ]
    after = copy.deepcopy(result.state)
    for warrior in after["warriors"].values():
        warrior["active"] = False
    vertex = next(v for v in map(str, range(1, 60)) if v not in after["buildings"] and v not in after["warriors"])
    after["warriors"][vertex] = {"owner": red, "level": 1, "active": True, "activated": after["round"]}
    war = Event("dragon_battle", {"attack": 0, "defence": 0, "forces": {}, "warriors": {}, "won": True, "text": "b"})
    lines = invariants(before, orders, TurnResult(after, (*result.events, war)))
    assert [line for line in lines if line.startswith(WAR)] == [
        f"{WAR}: {red}'s warrior at {vertex} is active after the war, woken by nothing since"
    ]
    woken = Event("activate", {"seat": red, "vertex": int(vertex), "text": "a"})
    lines = invariants(before, orders, TurnResult(after, (*result.events, war, woken)))
    assert not any(line.startswith(WAR) for line in lines)


def test_a_chase_of_a_robber_away_from_the_warrior_is_found():
    # "A warrior may chase away the robber if the robber is on a tile adjacent to the warrior."
    before, orders, result = game("wonders", 5, 10)
    geo = imperials_turn.board_geometry(before)
    red = before["seating"][0]
    near = geo.tile_vertices["A"][0]
    far = next(v for v in range(1, geo.vertex_count + 1) if "A" not in geo.vertex_tiles[v])
    moved = Event("robber", {"seat": red, "tile": "A", "text": "r"})
    for vertex, wrong in ((far, True), (near, False)):
        chase = Event("chase", {"seat": red, "vertex": vertex, "text": "c"})
        lines = invariants(before, orders, TurnResult(result.state, (*result.events, moved, chase)))
        found = [line for line in lines if line.startswith(CHASE)]
        assert found == ([f"{CHASE}: the warrior at {vertex} chases the robber from tile A"] if wrong else [])


def test_an_improvement_without_a_town_is_found():
    # "you may build improvements only when you have at least one town on the board".
    before, orders, result = game("wonders", 5, 10)
    towns = [(int(v), b["owner"]) for v, b in result.state["buildings"].items() if b["kind"] == "town"]
    seat = towns[0][1]
    improve = Event("improve", {"seat": seat, "improvement": "science", "level": 1, "cost": {"paper": 1}, "text": "i"})
    lines = invariants(before, orders, TurnResult(result.state, (*result.events, improve)))
    assert not any(line.startswith(TOWNED) for line in lines)
    burnt = [Event("demote", {"seat": s, "vertex": v, "removed": False, "text": "d"}) for v, s in towns if s == seat]
    lines = invariants(before, orders, TurnResult(result.state, (*result.events, *burnt, improve)))
    assert [line for line in lines if line.startswith(TOWNED)] == [f"{TOWNED}: {seat} builds science 1 with no town"]


def test_a_move_onto_an_equal_or_an_own_warrior_is_found():
    # "This location must be empty or contain another player's warrior of lesser strength";
    # "Strong warriors may also displace regular warriors of other players".
    before, orders, result = game("wonders", 5, 10)
    red, blue = before["seating"][:2]
    free = [v for v in range(1, 55) if str(v) not in result.state["buildings"] and str(v) not in before["warriors"]]
    a, b = free[:2]

    def lines(*planted: Event) -> list[str]:
        found = invariants(before, orders, TurnResult(result.state, (*result.events, *planted)))
        return [line for line in found if line.startswith(DISPLACE)]

    placed = Event("warrior", {"seat": red, "vertex": a, "free": False, "text": "w"})
    move = Event("warrior_moves", {"seat": red, "start": a, "end": b, "text": "m"})
    displaced = Event("warrior_displaced", {"seat": blue, "start": b, "end": 1, "text": "d"})
    upgraded = Event("upgrade", {"seat": red, "vertex": a, "level": 2, "free": False, "text": "u"})
    theirs = Event("warrior", {"seat": blue, "vertex": b, "free": False, "text": "w"})
    mine = Event("warrior", {"seat": red, "vertex": b, "free": False, "text": "w"})
    assert lines(placed, theirs, move, displaced) == [f"{DISPLACE}: m (its level 1, ('{blue}', 1) there)"]
    assert lines(placed, theirs, upgraded, move, displaced) == []
    assert lines(placed, mine, upgraded, move) == [f"{DISPLACE}: m (its level 2, ('{red}', 1) there)"]


# ----------------------------------------------------------------------------------------------
# The eleventh session's invariants: each fed a turn that breaks its rule, silent on the turn
# the robots played.


def with_event(result: TurnResult, event: Event) -> TurnResult:
    return TurnResult(result.state, (*result.events, event))


def test_a_market_trade_below_the_seats_rate_is_found():
    """ "The player can give any 4 cards of the same type in exchange for one card of any other
    type to the market"; 3 at a general port, 2 at a port of the type."""
    before, orders, result = game("basic", 5, 10)
    assert [line for line in invariants(before, orders, result) if line.startswith(RATES)] == []
    geo = imperials_turn.board_geometry(before)
    seat = before["seating"][0]
    at = {v for p in before["board"]["ports"] for v in geo.edge_ends[p["edge"]]}
    assert not {int(v) for v, b in before["buildings"].items() if b["owner"] == seat} & at, "a seat without a port"
    cheap = Event("market", {"seat": seat, "give": {"wool": 3}, "get": {"ore": 1}, "rate": 3, "text": "m"})
    lines = [line for line in invariants(before, orders, with_event(result, cheap)) if line.startswith(RATES)]
    assert lines == [f"{RATES}: {seat} gives the market 3 wool for one card, its rates are [4]"]
    fair = Event("market", {"seat": seat, "give": {"wool": 4}, "get": {"ore": 1}, "rate": 4, "text": "m"})
    assert [line for line in invariants(before, orders, with_event(result, fair)) if line.startswith(RATES)] == []


def test_a_black_roll_that_does_not_move_the_dragon_or_a_war_out_of_time_is_found():
    """ "If the event dice rolls black, the dragon moves towards the island by one step";
    "The dragon arrives after 7 black rolls, then starts again" (D-IM-6)."""
    before, orders, result = game("wonders", 5, 10)
    assert [line for line in invariants(before, orders, result) if line.startswith(DRAGON_TRACK)] == []
    stalled = copy.deepcopy(result.state)
    stalled["dragon"] = (stalled["dragon"] + 1) % 7
    lines = invariants(before, orders, TurnResult(stalled, result.events))
    assert any(line.startswith(f"{DRAGON_TRACK}: the dragon stands at") for line in lines), lines
    roll = next(e for e in reversed(result.events) if e.kind == "dice")
    black = with_event(result, Event("dice", {**roll.data, "event": "black"}))
    near = {**before, "dragon": 6}  # one black roll from the island: the war is due
    lines = [line for line in invariants(near, orders, black) if line.startswith(DRAGON_TRACK)]
    assert f"{DRAGON_TRACK}: the dragon reached the island and made no war" in lines, lines
    before, orders, result = game("wonders", 5, 7)  # the turn of the dragon's first war
    assert any(e.kind == "dragon_battle" for e in result.events)
    assert [line for line in invariants(before, orders, result) if line.startswith(DRAGON_TRACK)] == []
    far = {**before, "dragon": before["dragon"] - 1}  # a step further from the island
    lines = [line for line in invariants(far, orders, result) if line.startswith(DRAGON_TRACK)]
    assert lines == [f"{DRAGON_TRACK}: the dragon makes war at step 6 of 7"], lines


def test_a_road_gone_a_settlement_changing_hands_or_a_town_lost_without_the_dragon_is_found():
    """What is built stays: a road goes only by the Diplomat, a town becomes a village only by
    the dragon (D-IM-3, D-IM-10, D-IM-13)."""
    before, orders, result = game("wonders", 5, 10)
    assert [line for line in invariants(before, orders, result) if line.startswith(STAY)] == []
    after = copy.deepcopy(result.state)
    edge, owner = next(iter(before["roads"].items()))
    del after["roads"][edge]
    vertex, building = next((v, b) for v, b in before["buildings"].items() if b["kind"] == "village")
    other = next(s for s in before["seating"] if s != building["owner"])
    after["buildings"][vertex]["owner"] = other
    lines = [line for line in invariants(before, orders, TurnResult(after, result.events)) if line.startswith(STAY)]
    assert lines == [
        f"{STAY}: {owner}'s road on {edge} is gone after the round",
        f"{STAY}: {building['owner']}'s village at {vertex} is {other}'s",
    ]
    town = next(v for v, b in before["buildings"].items() if b["kind"] == "town" and v in after["buildings"])
    after = copy.deepcopy(result.state)
    after["buildings"][town]["kind"] = "village"
    lines = [line for line in invariants(before, orders, TurnResult(after, result.events)) if line.startswith(STAY)]
    assert lines == [f"{STAY}: {before['buildings'][town]['owner']}'s town at {town} is a village with no dragon"]


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_a_start_out_of_order_or_with_the_wrong_pieces_is_found(mode):
    """ "The first player must start placing ... they place one village in reverse back to the
    first player"; Wonders & Warriors: "the players place one village and one town"."""
    before, orders, result = game(mode, 5, 1)
    assert before["phase"] == "setup"
    assert [line for line in invariants(before, orders, result) if line.startswith(SETUP)] == []

    def setup_lines(events: list[Event]) -> list[str]:
        return [
            line
            for line in invariants(before, orders, TurnResult(result.state, tuple(events)))
            if line.startswith(SETUP)
        ]

    settles = [n for n, e in enumerate(result.events) if e.kind == "settle"]
    first, last = result.events[settles[0]].data["seat"], result.events[settles[-1]].data
    assert first == last["seat"] == before["first"]
    wrong = list(result.events)
    other = "town" if mode == "basic" else "village"
    wrong[settles[-1]] = Event("settle", {**last, "piece": other, "edge": None})
    if mode == "basic":
        counts = f"{SETUP}: {first} placed {{'village': 1, 'town': 1}}, not {{'village': 2}}"
    else:
        counts = f"{SETUP}: {first} placed {{'village': 2}}, not {{'village': 1, 'town': 1}}"
    assert setup_lines(wrong) == [counts, f"{SETUP}: ['{first}'] placed a settlement without its road"]
    swapped = list(result.events)
    swapped[settles[0]], swapped[settles[1]] = swapped[settles[1]], swapped[settles[0]]
    lines = setup_lines(swapped)
    assert len(lines) == 1 and lines[0].startswith(f"{SETUP}: the places were taken by"), lines


def test_an_upgrade_skipping_a_level_past_mighty_or_of_another_players_warrior_is_found():
    """ "a regular warrior will be upgraded to a strong warrior"; "The player may further
    upgrade a strong warrior to a mighty warrior"; "Mighty warriors cannot be upgraded further"."""
    before, orders, result = game("wonders", 5, 10)
    assert [line for line in invariants(before, orders, result) if line.startswith(UPGRADE)] == []
    red, blue = before["seating"][:2]
    a = next(v for v in range(1, 55) if str(v) not in result.state["buildings"] and str(v) not in before["warriors"])

    def lines(*planted: Event) -> list[str]:
        found = invariants(before, orders, TurnResult(result.state, (*result.events, *planted)))
        return [line for line in found if line.startswith(UPGRADE)]

    def up(seat: str, level: int) -> Event:
        return Event("upgrade", {"seat": seat, "vertex": a, "level": level, "free": False, "text": "u"})

    placed = Event("warrior", {"seat": red, "vertex": a, "free": False, "text": "w"})
    assert lines(placed, up(red, 2), up(red, 3)) == []
    assert lines(placed, up(red, 3)) == [f"{UPGRADE}: {red}'s warrior at {a} (('{red}', 1)) becomes level 3"]
    assert lines(placed, up(red, 2), up(red, 3), up(red, 4)) == [
        f"{UPGRADE}: {red}'s warrior at {a} (('{red}', 3)) becomes level 4"
    ]
    assert lines(placed, up(blue, 2)) == [f"{UPGRADE}: {blue}'s warrior at {a} (('{red}', 1)) becomes level 2"]


def test_an_action_card_bought_in_wonders_and_warriors_is_found():
    """ "Improvements produce action cards for the player (which cannot be purchased)"."""
    before, orders, result = game("wonders", 5, 10)
    assert [line for line in invariants(before, orders, result) if line.startswith(CARDS)] == []
    seat = before["seating"][0]
    lines = invariants(before, orders, with_event(result, Event("buy", {"seat": seat, "text": "b"})))
    assert f"{CARDS}: {seat} buys an action card in Wonders & Warriors" in lines, lines
