"""Each ruleset's warnings beside the errors, as echeck gives them (issue 15): units or money left
unused where the rules reward using them, an order that will probably fail when it is carried
out. A warning never makes a file invalid: every file here passes the check."""

from __future__ import annotations

import copy

import pytest

from gm.core.model import SeatInfo
from gm.core.ruleset import BaseRuleset, TurnSeeds
from gm.rulesets import installed

NAMES = sorted(installed())


def warned(name: str, state: dict, seat: str, *lines: str) -> list[tuple[int, str]]:
    """The warnings of a turn file's lines, after checking that they are accepted."""
    ruleset = installed()[name]
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 1)))
    assert problems == [] and ruleset.check_orders(state, seat, orders) == [], "the file must be valid"
    return [(w.line, w.message) for w in ruleset.order_warnings(state, seat, orders)]


def new_state(name: str, scenario: str, seats: list[str], **options) -> dict:
    ruleset = installed()[name]
    loaded = ruleset.load_scenario(ruleset.scenario_text(scenario), scenario)
    if options:
        loaded = {**loaded, "options": {**loaded["options"], **options}}
    return ruleset.new_game(loaded, [SeatInfo(c, f"Player {c}") for c in seats], TurnSeeds(1, 0))


@pytest.mark.parametrize("name", NAMES)
def test_every_ruleset_gives_warnings_and_never_raises_on_odd_orders(name):
    """Every ruleset has order_warnings (each of gm's overrides BaseRuleset's none); orders the
    parser made of junk, and orders for seats that are not there, give warnings or nothing,
    never an exception."""
    from tests.games.test_names import played, seats_of

    ruleset = installed()[name]
    own = type(ruleset.unguarded)
    if own.__module__.startswith("gm_games."):
        assert own.order_warnings is not BaseRuleset.order_warnings, f"gm's {name} gives no warnings of its own"
    state = played(name, 6)[-1][0]
    junk, _ = ruleset.parse_orders(
        list(
            enumerate(
                [
                    "MOVE ZZZ QQQ 99",
                    "ATTACK G99 G98",
                    "ATTACK 1,1 2,2 3",
                    "1 ATTACK XXX YYY 9",
                    "PLACE XXX 999",
                    "ROAD 1-99",
                    "ACCEPT 77",
                    "ROBBER Z",
                    "BUY ZZZ 3",
                    "MARKET wood FOR wood",
                ],
                1,
            )
        )
    )
    for seat in [*seats_of(name), "ZZ"]:
        assert all(isinstance(w.line, int) and w.message for w in ruleset.order_warnings(state, seat, junk))


# ----------------------------------------------------------------------------------------------
# Clash of Empires


def clash_lowlands(**territories) -> dict:
    state = new_state("clash", "lowlands", ["BR", "FR"])
    state.update(phase="play", round=3, start="BR")
    for code, (owner, troops) in territories.items():
        state["territories"][code].update(owner=owner, troops=troops)
    return state


def test_clash_warns_of_an_attack_too_weak_to_take_its_target():
    state = clash_lowlands(ENG=("BR", 4), BEL=("FR", 3), HOL=(None, 0))
    assert warned("clash", state, "BR", "MOVE ENG BEL 3") == [
        (
            1,
            "3 troops against 3 in BEL: both sides are wiped out and it is left empty (Combat Rules), "
            "unless someone weakens it before your action",
        )
    ]
    assert warned("clash", state, "BR", "MOVE ENG BEL 2") == [
        (
            1,
            "2 troops against 3 in BEL: 1 of its defenders survive and hold it (Combat Rules), "
            "unless someone weakens it before your action",
        )
    ]
    assert warned("clash", state, "BR", "MOVE ENG BEL ALL") == []
    assert warned("clash", state, "BR", "MOVE ENG HOL 1") == [], "an empty territory is taken without a fight"


def test_clash_warns_of_a_revolt_with_no_enemy_troop_to_remove_yet():
    state = clash_lowlands(ENG=("BR", 4), HOL=(None, 0))
    state["territories"]["HOL"]["core_of"] = "BR"
    state["start"] = "FR"  # France acts first and may move into Holland
    assert warned("clash", state, "BR", "REVOLT HOL") == [
        (1, "HOL is empty now: the revolt fails unless another player moves troops in before your action")
    ]


def test_clash_warns_of_units_left_unplaced_at_the_set_up():
    state = new_state("clash", "lowlands", ["BR", "FR"])
    state["phase"] = "place"
    state["territories"]["ENG"]["core_of"] = "BR"
    assert warned("clash", state, "BR", "PLACE ENG 5") == [
        (
            0,
            "you place 5 of your 20 units; the other 15 are spread one at a time over your core "
            "territories, in code order",
        )
    ]
    assert warned("clash", state, "BR", "PLACE ENG 20") == []


# ----------------------------------------------------------------------------------------------
# Conqueror!


def conqueror_vale() -> dict:
    state = new_state("conqueror", "vale", ["AR", "BE"])
    state.update(phase="play", turn=3)
    return state


def test_conqueror_warns_of_an_attack_the_duels_will_probably_lose():
    state = conqueror_vale()
    state["provinces"]["ARD"]["armies"] = 6
    state["provinces"]["FEN"].update(owner="BE", armies=4, fort=1)
    assert warned("conqueror", state, "AR", "ATTACK ARD FEN 4") == [
        (
            1,
            "4 armies against 4 in FEN: the defender wins a duel 11 times in 21, so this attack will probably fail",
        )
    ]
    assert warned("conqueror", state, "AR", "ATTACK ARD FEN 5") == []


@pytest.mark.parametrize("fort", [0, 1, 2, 3])
def test_conqueror_attack_warning_never_names_a_foreign_fortification(fort):
    """Arden's view holds Fenland's armies but not its fort, keep or castle (D-ALL-5): Belmont's
    building is its own business until a battle there shows the garrison, so the warning on an
    attack is the same whatever stands in Fenland, and the same as Arden's view of it."""
    state = conqueror_vale()
    state["provinces"]["ARD"]["armies"] = 6
    state["provinces"]["FEN"].update(owner="BE", armies=4, fort=fort)
    built = {**state, "provinces": {**state["provinces"], "FEN": {**state["provinces"]["FEN"], "fort": 0}}}
    assert installed()["conqueror"].view(state, "AR") == installed()["conqueror"].view(built, "AR")
    assert warned("conqueror", state, "AR", "ATTACK ARD FEN 4") == warned("conqueror", built, "AR", "ATTACK ARD FEN 4")


def test_conqueror_warns_of_a_single_army_in_the_singular():
    state = conqueror_vale()
    state["provinces"]["FEN"].update(owner="BE", armies=1, fort=0)
    assert warned("conqueror", state, "AR", "ATTACK ARD FEN 1") == [
        (1, "1 army against 1 in FEN: the defender wins a duel 11 times in 21, so this attack will probably fail")
    ]


def test_conqueror_counts_soldiers_rush_bought_this_turn_among_the_attackers():
    """The turn buys before any army moves, so the 2 bought in Arden go too: 8 + 2 against 9."""
    state = conqueror_vale()
    state["seats"]["AR"]["gold"] = 50
    state["provinces"]["ARD"]["armies"] = 8
    state["provinces"]["FEN"].update(owner="BE", armies=9, fort=0)
    assert warned("conqueror", state, "AR", "BUY ARD 2", "ATTACK ARD FEN 10") == []
    assert warned("conqueror", state, "AR", "BUY ARD 1", "ATTACK ARD FEN ALL") == [
        (2, "9 armies against 9 in FEN: the defender wins a duel 11 times in 21, so this attack will probably fail")
    ]


def test_conqueror_warns_that_a_move_fails_if_its_province_is_attacked_first():
    state = conqueror_vale()
    state["provinces"]["ARD"]["armies"] = 6
    state["provinces"]["HOL"].update(owner="AR", armies=0)
    state["provinces"]["FEN"].update(owner="BE", armies=3)
    assert warned("conqueror", state, "AR", "MOVE ARD HOL 2") == [
        (1, "Bervia (BE) has armies next to ARD (FEN): if ARD is attacked before this move runs, the move fails")
    ]
    state["provinces"]["FEN"]["armies"] = 0
    assert warned("conqueror", state, "AR", "MOVE ARD HOL 2") == []


def test_conqueror_warns_when_winter_pay_will_not_be_met():
    state = conqueror_vale()
    state["turn"] = 4  # a winter turn (rule D-CQ-5)
    state["provinces"]["ARD"].update(armies=state["provinces"]["ARD"]["population"] + 30, item="SOLDIERS")
    state["seats"]["AR"]["gold"] = 3
    [(line, message)] = warned("conqueror", state, "AR", "PRODUCE ARD SOLDIERS")
    assert line == 0 and message.startswith(
        "this is a winter turn: your troops cost about 30 gold at its end, "
        "and you will have about 3 (3 after your BUY orders, 0 in taxes)"
    )
    state["turn"] = 3
    assert warned("conqueror", state, "AR", "PRODUCE ARD SOLDIERS") == []


def test_conqueror_winter_estimate_counts_full_taxes_from_a_province_taken_last_turn():
    """ "a country that was just conquered will have its production rate cut in half": the turn of
    the conquest only. Fenland, taken last turn, levies (3 + 0) x 1 = 3 this turn, not 1."""
    state = conqueror_vale()
    state["turn"] = 4
    state["seats"]["AR"]["gold"] = 0
    state["provinces"]["ARD"].update(armies=state["provinces"]["ARD"]["population"] + 3, item="SOLDIERS")
    mine = {"AR": 100, "BE": 0, "neutral": 0}
    state["provinces"]["FEN"].update(owner="AR", armies=3, item="TAXES", conquered=True, influence=mine)
    assert warned("conqueror", state, "AR", "PRODUCE ARD SOLDIERS") == []


def test_conqueror_winter_estimate_pays_the_soldiers_bought_this_turn():
    """Arden, the capital, holds its population's worth of armies: nothing to pay. Bought soldiers
    stand at the end of the winter turn, a gold each past the population: one bought (8 gold at
    +50%) leaves 8 for a bill of 1; two (15 gold) leave 1 for a bill of 2."""
    state = conqueror_vale()
    state["turn"] = 4
    state["provinces"]["ARD"].update(armies=state["provinces"]["ARD"]["population"], item="SOLDIERS")
    state["seats"]["AR"]["gold"] = 16
    assert warned("conqueror", state, "AR", "BUY ARD 1") == []
    [(line, message)] = warned("conqueror", state, "AR", "BUY ARD 2")
    assert message.startswith(
        "this is a winter turn: your troops cost about 2 gold at its end, and you will have about 1"
    )


# ----------------------------------------------------------------------------------------------
# Empires


def hill_and_midmarch(armies: int) -> dict:
    """Duchies with AL's Hilltop holding `armies` next to a neutral Midmarch that defends with 5
    (3 armies, population 2, no fort, plains); AL's BPs pay for the ARMY fillers that use up
    the 16 actions."""
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 100
    state["areas"]["HIL"].update(owner="AL", armies=armies)
    state["areas"]["MID"].update(owner="neutral", armies=3, population=2, fort=0)
    return state


def test_empires_warns_of_more_armies_than_an_area_will_hold_and_an_attack_that_cannot_capture():
    state = hill_and_midmarch(2)
    rest = [f"{n} ARMY - - 1" for n in range(3, 17)]
    assert warned("empires", state, "AL", "1 GROW FEN", "2 ATTACK HIL MID 5", *rest) == [
        (2, "HIL has 2 armies and no earlier action of yours brings more: asking for 5 makes the order fail")
    ]
    [(line, message)] = warned("empires", state, "AL", "1 GROW FEN", "2 ATTACK HIL MID ALL", *rest)
    assert line == 2 and message.startswith(
        "2 armies against a defence of 5 in MID (3 armies, population 2, "
        "fort 0, +0 for its terrain) cannot take it as the map stands"
    )
    reserved = copy.deepcopy(state)
    reserved["countries"]["AL"]["reserve"] = 3
    assert warned("empires", reserved, "AL", "1 RESERVE HIL - 3", "2 ATTACK HIL MID 5", *rest) == [], (
        "an earlier action that brings armies in leaves the number to the turn"
    )
    # The reserve grows only by the seat's own ARMY actions: with none before it, a RESERVE of
    # more than the reserve holds fails, and brings nothing to the attack after it.
    assert warned("empires", state, "AL", "1 RESERVE HIL - 3", "2 ATTACK HIL MID 5", *rest) == [
        (1, "your reserve holds 0: placing 3 makes this RESERVE fail"),
        (2, "HIL has 2 armies and no earlier action of yours brings more: asking for 5 makes the order fail"),
    ]
    assert warned("empires", reserved, "AL", "1 RESERVE HIL - 2", "2 ATTACK HIL MID 5", *rest) == [
        (2, "HIL has 2 armies and your earlier actions bring at most 2 more: asking for 5 makes the order fail")
    ]
    # No RESERVE can follow an ARMY action of the turn (the publisher's rulebook 5.3): each
    # RESERVE after one fails if the ARMY is carried out; an earlier RESERVE empties the reserve.
    army_first = (
        "your ARMY of action 1 comes first, and no RESERVE can follow an ARMY action in the same turn: "
        "this RESERVE fails if that ARMY is carried out"
    )
    assert warned("empires", state, "AL", "1 ARMY - - 1", "2 RESERVE HIL - 1", "3 RESERVE HIL - 1", *rest[1:]) == [
        (2, army_first),
        (3, army_first),
    ]
    assert warned("empires", reserved, "AL", "1 RESERVE HIL - 2", "2 RESERVE HIL - 2", *rest) == [
        (2, "your reserve holds 3, 1 after your earlier RESERVE actions: placing 2 makes this RESERVE fail")
    ]
    unused = warned("empires", state, "AL", "1 GROW FEN", "2 ATTACK HIL MID 2")
    assert [line for line, _ in unused] == [0, 2] and unused[0][1].startswith("you use 2 of your 16 actions")


def test_empires_warns_of_an_action_from_an_area_its_attack_cannot_take_and_of_all_of_nothing():
    # The check takes an action on an area an earlier ATTACK of the seat's may capture (D-ALL-3);
    # when no such attack can, as the map stands, the action fails with it: a warning is due.
    state = hill_and_midmarch(2)
    rest = [f"{n} ARMY - - 1" for n in range(3, 17)]
    found = warned("empires", state, "AL", "1 ATTACK HIL MID ALL", "2 MOVE MID HIL 1", *rest)
    assert [line for line, _ in found] == [1, 2] and found[1] == (
        2,
        "MID is not yours now and your attack on it (action 1) cannot take it as the map stands: "
        "this MOVE fails unless it does",
    )
    strong = copy.deepcopy(state)
    strong["areas"]["HIL"]["armies"] = 20
    assert warned("empires", strong, "AL", "1 ATTACK HIL MID ALL", "2 MOVE MID HIL 1", *rest) == []
    empty = copy.deepcopy(state)
    empty["areas"]["HIL"]["armies"] = 0
    assert warned("empires", empty, "AL", "1 ATTACK HIL MID ALL", "2 GROW FEN", *rest) == [
        (1, "HIL has 0 armies and no earlier action of yours brings more: ALL of them is none, so the order fails")
    ]


def test_empires_warns_of_an_action_the_bps_left_after_the_earlier_ones_do_not_pay_for():
    # An action that costs more than the seat has fails and costs nothing (D-ALL-3); only a gift
    # can bring BPs during the turn, so it is a warning, counted after the earlier actions' costs.
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 7
    state["areas"]["ALB"].update(fort=0)
    # AB-1 of the 1 army that 5 BPs buy is none: the ARMY fails as surely as one too dear.
    assert [
        (line, message) for line, message in warned("empires", state, "AL", "1 FORTIFY ALB", "2 ARMY - - AB-1") if line
    ] == [
        (
            2,
            "you will have 5 BPs when this ARMY comes, after your earlier actions, enough for 1: AB-1 of them is "
            "none, so it fails unless a gift reaches you first",
        )
    ]
    found = warned(
        "empires", state, "AL", "1 FORTIFY ALB", "2 FORTIFY ALB", "3 ARMY - - 1", "4 GIFT - BR 1", "5 ARMY - - 1"
    )
    assert [(line, message) for line, message in found if line] == [
        (
            3,
            "this ARMY costs 3 BPs and you will have 1 when it comes, after your earlier actions: it fails unless a gift reaches you first",
        ),
        (
            5,
            "this ARMY costs 3 BPs and you will have 0 when it comes, after your earlier actions: it fails unless a gift reaches you first",
        ),
    ]

    # A RESERVE after an ARMY fails (the publisher's rulebook 5.3) and costs nothing: the 1 BP
    # the ARMY leaves still pays for the RAZE after it.
    state["countries"]["AL"]["reserve"] = 1
    state["areas"]["ALB"].update(fort=1)
    found = warned("empires", state, "AL", "1 ARMY - - 2", "2 RESERVE HIL - 1", "3 RAZE ALB - 1")
    assert [line for line, _ in found if line] == [2]


def test_empires_warns_of_more_armies_than_a_capture_leaves_and_of_an_attack_on_what_an_earlier_one_takes():
    # 10 armies against MID's defence of 5 (3 armies, population 2) take it with 8 left there
    # (D-EMP-5): a MOVE of 9 from it fails, and so does a second ATTACK on it, now the seat's own.
    state = hill_and_midmarch(20)
    rest = [f"{n} ARMY - - 1" for n in range(4, 17)]
    assert warned("empires", state, "AL", "1 ATTACK HIL MID 10", "2 MOVE MID HIL 9", "3 ATTACK HIL MID 5", *rest) == [
        (
            2,
            "your attack at action 1 takes MID as the map stands with at most 8 armies left there, and your "
            "earlier actions bring at most 0 more: 9 of them makes this MOVE fail",
        ),
        (
            3,
            "your attack at action 1 takes MID as the map stands: this ATTACK on it then fails, as one on your own area",
        ),
    ]
    assert warned("empires", state, "AL", "1 ATTACK HIL MID 10", "2 MOVE MID HIL 8", "3 GROW FEN", *rest) == []


def test_empires_warns_of_an_attack_on_an_area_of_your_own_and_takes_the_file():
    # Another country may take the area by an earlier action of the turn (D-ALL-3): a warning.
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 100  # the ARMY fillers that use up the 16 actions are paid for
    state["areas"]["HIL"].update(owner="AL", armies=2)
    rest = [f"{n} ARMY - - 1" for n in range(2, 17)]
    assert warned("empires", state, "AL", "1 ATTACK ALB HIL 1", *rest) == [
        (
            1,
            "HIL is your own area now: the attack fails unless it is taken from you by an earlier action; to send armies there, MOVE",
        )
    ]


def test_empires_warns_of_a_second_grow_of_an_area_and_takes_the_file():
    # "Once per area per turn" counts the growth: the first GROW may fail when it comes (D-ALL-3).
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 100  # the ARMY fillers that use up the 16 actions are paid for
    rest = [f"{n} ARMY - - 1" for n in range(3, 17)]
    assert warned("empires", state, "AL", "1 GROW FEN", "2 GROW FEN", *rest) == [
        (2, "FEN already grows at action 1 (GROW once per area per turn): this one fails unless that one does")
    ]


def test_empires_warns_of_a_second_defence_order_on_an_area_and_takes_the_file():
    # A new defence order cancels the old one (the publisher's rulebook 7.7-7.9): the file is
    # taken, and the player is told which earlier action will not be carried out.
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 100  # the ARMY fillers that use up the 16 actions are paid for
    rest = [f"{n} ARMY - - 1" for n in range(5, 17)]
    assert warned(
        "empires", state, "AL", "1 AMBUSH HIL", "2 ENTRENCH FEN MID", "3 DEFEND HIL", "4 RETREAT HIL ALB", *rest
    ) == [
        (
            3,
            "HIL already has action 1 (AMBUSH): a new defence order on an area cancels the old, so action 1 is not carried out if this one is",
        ),
        (
            4,
            "HIL already has action 3 (DEFEND): a new defence order on an area cancels the old, so action 3 is not carried out if this one is",
        ),
    ]


def test_empires_warns_of_a_fortify_raze_or_levy_bound_to_fail_and_takes_the_file():
    # A fort changes only by its owner's FORTIFY and RAZE, population grows only by GROW: without
    # an earlier one of those, the order fails when it runs (D-ALL-3), so it is a warning.
    state = new_state("empires", "duchies", ["AL", "BR"])
    state["countries"]["AL"]["bps"] = 100  # the ARMY fillers that use up the 16 actions are paid for
    state["areas"]["ALB"].update(fort=3)
    state["areas"]["HIL"].update(fort=0, population=3)
    rest = [f"{n} ARMY - - 1" for n in range(4, 17)]
    assert warned("empires", state, "AL", "1 FORTIFY ALB", "2 RAZE HIL", "3 LEVY HIL - 2", *rest) == [
        (1, "the fort of ALB is at level 3, the highest, and no earlier RAZE of yours lowers it: this FORTIFY fails"),
        (2, "the fort of HIL is at level 0 and no earlier FORTIFY of yours raises it: this RAZE fails"),
        (3, "half the population of HIL is 1 and no earlier GROW of yours adds to it: this LEVY fails"),
    ]
    rest = [f"{n} ARMY - - 1" for n in range(7, 17)]
    assert (
        warned(
            "empires",
            state,
            "AL",
            "1 RAZE ALB - 1",
            "2 FORTIFY ALB",
            "3 FORTIFY HIL",
            "4 RAZE HIL",
            "5 GROW HIL",
            "6 LEVY HIL - 2",
            *rest,
        )
        == []
    ), "an earlier action of the seat's that changes the fort or the population leaves it to the turn"
    # The seat's own earlier FORTIFY, RAZE or LEVY of an area changes it as the turn will: a
    # second one that then has nothing to act on fails, so it is warned of as the first would be.
    state["areas"]["ALB"].update(fort=2)
    state["areas"]["HIL"].update(fort=1, population=2)
    rest = [f"{n} ARMY - - 1" for n in range(7, 17)]
    lines = ("1 FORTIFY ALB", "2 FORTIFY ALB", "3 RAZE HIL", "4 RAZE HIL - 1", "5 LEVY HIL", "6 LEVY HIL")
    assert warned("empires", state, "AL", *lines, *rest) == [
        (
            2,
            "the fort of ALB is at level 2 and your earlier FORTIFY action raises it to 3, the highest: this FORTIFY fails",
        ),
        (4, "the fort of HIL is at level 1 and your earlier RAZE action leaves 0: this RAZE fails"),
        (
            6,
            "the population of HIL is 2 and your earlier LEVY action leaves 1, half of it 0, and no earlier GROW "
            "of yours adds to it: this LEVY fails",
        ),
    ]


# ----------------------------------------------------------------------------------------------
# Imperials


def imperials_round(mode: str = "basic") -> dict:
    from tests.games.test_names import played

    state = copy.deepcopy(played("imperials", 6)[-1][0])
    state["mode"] = mode
    return state


def test_imperials_warns_of_builds_the_hand_cannot_pay_and_cards_over_the_limit():
    state = imperials_round()
    seat = state["seating"][0]
    state["seats"][seat]["hand"] = {
        **state["seats"][seat]["hand"],
        "wood": 1,
        "brick": 1,
        "wool": 0,
        "wheat": 0,
        "ore": 0,
    }
    assert warned("imperials", state, seat, "BUY") == [
        (
            1,
            "BUY takes 1 wool, 1 wheat, 1 ore; after your orders before it you would be short of 1 wool, "
            "1 wheat, 1 ore: it fails unless your roll or a trade brings them",
        )
    ]
    state["seats"][seat]["hand"].update(wood=5, brick=5)
    assert warned("imperials", state, seat, "BUY") == [
        (
            0,
            "after your orders you would still hold 10 cards, more than your limit of 7: a 7 rolled before "
            "your next turn costs you half",
        ),
        (
            1,
            "BUY takes 1 wool, 1 wheat, 1 ore; after your orders before it you would be short of 1 wool, "
            "1 wheat, 1 ore: it fails unless your roll or a trade brings them",
        ),
    ]


def test_imperials_warns_of_a_robber_answer_that_cannot_be_followed_and_an_offer_it_cannot_keep():
    state = imperials_round()
    seat, other = state["seating"][0], state["seating"][1]
    state["seats"][seat]["hand"] = dict.fromkeys(state["seats"][seat]["hand"], 0)
    state["robber"] = state["robber"] or "A"
    assert warned("imperials", state, seat, f"ROBBER {state['robber']} {other}") == [
        (
            1,
            f"the robber stands on tile {state['robber']} now and must move to a different tile: if it is still "
            "there when you roll a 7, gm chooses for you",
        )
    ]
    state["offers"] = [
        {"id": 9, "from": other, "to": "ALL", "give": {"wood": 1}, "get": {"ore": 2}, "round": state["round"]}
    ]
    state["seats"][seat]["hand"]["ore"] = 0
    assert warned("imperials", state, seat, "ACCEPT 9") == [
        (
            1,
            "offer #9 wants 2 ore of you and you hold 2 ore too few now: it is carried out only if you hold "
            "them by then",
        )
    ]


def test_imperials_warns_of_a_corner_another_players_warrior_holds_and_does_not_refuse_it():
    from gm_games.imperials.turn import board_geometry

    state = imperials_round("wonders")
    seat, other = state["seating"][0], state["seating"][1]
    geo = board_geometry(state)
    ends = [v for e, owner in state["roads"].items() if owner == seat for v in geo.edge_ends[e]]
    corner = next(v for v in ends if str(v) not in state["buildings"] and str(v) not in state["warriors"])
    state["warriors"] = {str(corner): {"owner": other, "level": 1, "active": False, "activated": None}}
    state["seats"][seat]["hand"] = {**dict.fromkeys(state["seats"][seat]["hand"], 0), "wool": 1, "ore": 1}
    # Rule D-ALL-3: the warrior may leave before the order runs; if it stays, the order fails then.
    assert warned("imperials", state, seat, f"WARRIOR {corner}") == [
        (
            1,
            f"a warrior of {other} stands on vertex {corner} now: WARRIOR {corner} fails unless it leaves "
            "the corner before your turn",
        )
    ]


# ----------------------------------------------------------------------------------------------
# Minecraft EMPIRES


def test_minecraft_empires_warns_of_an_attack_that_starts_a_war_or_is_outnumbered():
    from tests.games.mcempires.test_mcempires_orders import played_state

    state = played_state()
    state["groups"]["G2"].update(x=4, y=2, troops=5)
    state["groups"]["G1"]["troops"] = 3
    assert warned("mcempires", state, "RE", "ATTACK G1 G2") == [
        (
            1,
            "you are not at war with Blue (BL): this attack starts a war with it; 3 dice against 5: this attack "
            "will probably be lost",
        )
    ]
    state["wars"] = [{"sides": ["BL", "RE"], "since": 30, "taken": {}}]
    state["groups"]["G1"]["troops"] = 6
    assert warned("mcempires", state, "RE", "ATTACK G1 G2") == []


def test_minecraft_empires_warns_of_a_military_base_whose_group_stays_full():
    from tests.games.mcempires.test_mcempires_orders import played_state

    state = played_state()
    state["cities"]["RE1"]["bases"] = [1]
    found = [m for _, m in warned("mcempires", state, "RE")]
    assert found == [
        "RE1's group G1 is full (6 troops) after your orders: its military base spawns nothing "
        "next round until troops move out"
    ]
    assert warned("mcempires", state, "RE", "MOVE G1 1 4,2") == []


@pytest.mark.parametrize(
    ("name", "line", "slip", "meant"),
    [
        ("clash", "CLAIM EGN", "EGN", "ENG"),
        ("conqueror", "PRODUCE WSE TAXES", "WSE", "WES"),
        ("empires", "1 GROW LODN", "LODN", "LON"),
    ],
)
def test_a_misspelt_territory_code_gets_did_you_mean_beside_the_checks_error(name, line, slip, meant):
    """Issue 30, "did you mean" for places: in the games of coded territories the GM's check
    (and the acknowledgement, the portal and gm orders check, which say what it says) warns
    beside the error which code the slip is near (gm.core.warnings.near_codes)."""
    from gm.core.warnings import order_warnings

    ruleset = installed()[name]
    scenario = ruleset.default_scenario()
    seats = ruleset.seat_codes(ruleset.load_scenario(ruleset.scenario_text(scenario), scenario))[:2]
    state, seat = new_state(name, scenario, seats), seats[0]
    orders, problems = ruleset.parse_orders([(1, line)])
    problems += ruleset.check_orders(state, seat, orders)
    assert problems and problems[0].line == 1
    warnings = order_warnings(ruleset, state, seat, [(1, line)], orders, problems)
    assert any(w.message.startswith(f"{slip} is not a code in this game; did you mean {meant}") for w in warnings)
