"""Rule D-ALL-5 by implication: the bank's stock. Everyone sees how many cards each player holds,
so a bank shown kind by kind would tell every seat what the others hold between them (all of it
when one of two others holds none) and, from one report to the next, which cards a player gave
back on a 7, which only that player reads ("You give back ...")."""

from __future__ import annotations

import copy
from pathlib import Path

from gm_games.imperials import ruleset
from gm_games.imperials.goods import BANK

from gm.core.cases import ScriptedSeeds, _orders, _start, load_case_text
from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds

CASES = Path(__file__).resolve().parents[3] / "games" / "imperials" / "cases"


def three_seats() -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("first-game"), "first-game")
    seats = [SeatInfo(code, code) for code in ("RED", "BLUE", "ORANGE")]
    state = ruleset.new_game(scenario, seats, TurnSeeds(1, 0))
    state["phase"] = "play"
    return state


def holding(state: dict, hands: dict[str, dict[str, int]]) -> dict:
    state = copy.deepcopy(state)
    for seat, hand in hands.items():
        state["seats"][seat]["hand"].update(hand)
    state["bank"] = {g: n - sum(s["hand"][g] for s in state["seats"].values()) for g, n in BANK.items()}
    return state


def test_the_bank_does_not_tell_a_seat_the_hand_of_the_only_other_player_holding_cards():
    state = three_seats()
    one = holding(state, {"RED": {"wood": 2}, "BLUE": {"wheat": 3, "ore": 2}})
    other = holding(state, {"RED": {"wood": 2}, "BLUE": {"brick": 4, "wool": 1}})
    assert ruleset.view(one, "RED") == ruleset.view(other, "RED")
    assert ruleset.view(one, "ORANGE") == ruleset.view(other, "ORANGE")
    assert ruleset.view(one, "BLUE") != ruleset.view(other, "BLUE")
    assert (
        ruleset.view(one, "RED")["bank"]
        == f"{sum(BANK[g] for g in ('wood', 'brick', 'wool', 'wheat', 'ore')) - 7} cards"
    )


def after_the_seven(discard: list[str]) -> dict:
    """The case seven-discard-half played with Blue's DISCARD answer `discard`: Red rolls a 7,
    Red and Blue give back 4 cards each."""
    case = load_case_text((CASES / "seven-discard-half.toml").read_text(encoding="utf-8"), "seven-discard-half")
    case["orders"]["BLUE"] = ["DISCARD " + " ".join(discard)]
    state, seats = _start(case, ruleset)
    orders, problems = _orders(case, ruleset, state, seats)
    assert not problems
    return ruleset.resolve(state, orders, ScriptedSeeds(case["seed"], 1, list(case["dice"]))).state


def test_the_bank_does_not_tell_the_others_which_cards_a_player_discarded():
    ores, wheats = after_the_seven(["ore"] * 4), after_the_seven(["wheat"] * 4)
    assert ores["seats"]["BLUE"]["hand"] != wheats["seats"]["BLUE"]["hand"]
    assert ruleset.view(ores, "ORANGE") == ruleset.view(wheats, "ORANGE")


def test_the_check_s_answers_to_a_seat_stay_the_same_whatever_another_holds():
    # D-ALL-5: what the rules keep from a player "never reaches that player, in any report,
    # mail ..." - the answers and warnings to its own orders included.
    from random import Random

    from gm.core.model import SeatInfo as Seat

    loaded = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    for mode in ("basic", "wonders"):
        scenario = {**loaded, "options": {**loaded.get("options", {}), "mode": mode}}
        codes = ruleset.seat_codes(scenario)[:4]
        state = ruleset.new_game(scenario, [Seat(c, c) for c in codes], TurnSeeds(3, 0))
        for number in range(1, 9):
            seeds = TurnSeeds(3, number)
            orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
            for seat in codes:
                mine = (
                    orders[seat]
                    + ruleset.parse_orders(
                        list(enumerate(["TOWN 13", "ROAD 13-18", "WARRIOR 18", "ROBBER E", "ACCEPT 1"], 100))
                    )[0]
                )
                answers = (ruleset.check_orders(state, seat, mine), ruleset.order_warnings(state, seat, mine))
                for other in codes:
                    if other != seat:
                        variant = ruleset.hidden_variant(state, other, Random(number))
                        assert (
                            ruleset.check_orders(variant, seat, mine),
                            ruleset.order_warnings(variant, seat, mine),
                        ) == answers
            state = ruleset.resolve(state, orders, seeds).state


def after_a_shortage(bank_wheat: int) -> tuple:
    """The case shortage-nobody-gets (4 wheat owed, nobody gets it) with the bank holding
    `bank_wheat` and Blue the rest of the 24: what each seat reads of the round."""
    case = load_case_text((CASES / "shortage-nobody-gets.toml").read_text(encoding="utf-8"), "shortage-nobody-gets")
    state, seats = _start(case, ruleset)
    state["seats"]["BLUE"]["hand"]["wheat"] += state["bank"]["wheat"] - bank_wheat
    state["bank"]["wheat"] = bank_wheat
    orders, problems = _orders(case, ruleset, state, seats)
    assert not problems
    return ruleset.resolve(state, orders, ScriptedSeeds(case["seed"], 1, list(case["dice"]))).events


def test_a_shortage_does_not_tell_the_others_how_many_cards_the_bank_holds():
    # D-IM-4 makes public that the bank cannot pay the 4 wheat owed; how many it holds would tell
    # Red and Orange how much wheat Blue holds.
    two, none = after_a_shortage(2), after_a_shortage(0)
    assert any(e.kind == "shortage" for e in two) and any(e.kind == "shortage" for e in none)
    for seat in ("RED", "ORANGE"):
        assert [(e.kind, e.data) for e in two if e.visible_to(seat)] == [
            (e.kind, e.data) for e in none if e.visible_to(seat)
        ]


def robot_with_plenty(bank_short: str | None) -> dict:
    """The case shortage-nobody-gets's island before its roll: Red (a robot) holds a Year of
    Plenty bought in an earlier round, Blue 6 cards; with bank_short, all of that resource is in
    Blue's hand (the bank has none), else Blue holds wool instead. Blue's count and the bank's
    total are the same either way."""
    case = load_case_text((CASES / "shortage-nobody-gets.toml").read_text(encoding="utf-8"), "shortage-nobody-gets")
    state, _ = _start(case, ruleset)
    state["bank"] = dict(BANK)
    state["seats"]["RED"]["cards"] = [{"card": "plenty", "round": 1, "bought": True}]
    good = bank_short or "wool"
    state["seats"]["BLUE"]["hand"][good] += BANK[good]
    state["bank"][good] = 0
    if bank_short:  # the same count for Blue and the bank: the difference is wool against bank_short
        state["seats"]["BLUE"]["hand"][bank_short] -= BANK[bank_short] - BANK["wool"]
    return state


def test_a_robot_plans_from_what_its_seat_sees_not_from_the_bank_s_stock():
    # D-ALL-5: the bank's stock kind by kind is nobody's (view.py shows its total only). A robot
    # that read it would show it by what it does: with a Year of Plenty it played the card only
    # when the bank held both resources, so its public play (and every plan after it) told the
    # others what the bank lacks, hence what the other players hold.
    from gm_games.imperials.robot import _wanted

    state = robot_with_plenty(None)
    wanted = _wanted(state, "RED")[:2]
    assert "wool" not in wanted
    short = robot_with_plenty(wanted[0])
    assert state["bank"] != short["bank"]
    assert sum(state["bank"].values()) == sum(short["bank"].values())
    assert sum(state["seats"]["BLUE"]["hand"].values()) == sum(short["seats"]["BLUE"]["hand"].values())
    assert ruleset.view(state, "RED") == ruleset.view(short, "RED")
    for k in range(20):
        seeds = TurnSeeds(k, 2)
        mine = ruleset.robot_orders(state, "RED", seeds.rng("robot:RED"))
        assert mine == ruleset.robot_orders(short, "RED", seeds.rng("robot:RED"))


def robot_short_of_wood(wood_in_bank: bool) -> dict:
    """The same island: Red (a robot) holds 1 brick and 4 wool, a wood short of a road; Blue holds
    all the wood (the bank has none) or all the ore instead."""
    case = load_case_text((CASES / "shortage-nobody-gets.toml").read_text(encoding="utf-8"), "shortage-nobody-gets")
    state, _ = _start(case, ruleset)
    state["bank"] = dict(BANK)
    state["seats"]["RED"]["hand"].update({"brick": 1, "wool": 4})
    state["bank"]["brick"] -= 1
    state["bank"]["wool"] -= 4
    good = "ore" if wood_in_bank else "wood"
    state["seats"]["BLUE"]["hand"][good] += state["bank"][good]
    state["bank"][good] = 0
    return state


def test_a_robot_trades_with_the_market_whatever_the_bank_holds():
    # D-ALL-5: a robot a wood short of a road traded wool for it only when the bank held wood, so
    # its public road (or the offer it posted instead) told the others whether the bank had any.
    some, none = robot_short_of_wood(True), robot_short_of_wood(False)
    assert ruleset.view(some, "RED") == ruleset.view(none, "RED")
    assert sum(some["seats"]["BLUE"]["hand"].values()) == sum(none["seats"]["BLUE"]["hand"].values())
    traded = 0
    for k in range(20):
        seeds = TurnSeeds(k, 2)
        mine = ruleset.robot_orders(some, "RED", seeds.rng("robot:RED"))
        assert mine == ruleset.robot_orders(none, "RED", seeds.rng("robot:RED"))
        traded += any(o.verb == "MARKET" for o in mine)
    assert traded
