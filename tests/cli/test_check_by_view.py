"""The player's own check (gm orders check --report) refutes what the seat's report alone
refutes, in every ruleset, with the GM's own messages: each example is checked offline against
the report's view and by the GM against the whole state, and the two say the same."""

from __future__ import annotations

import copy
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gm.core.model import JSONObject, Problem, SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.rulesets import get_ruleset
from gm.services import offline


def played(name: str) -> tuple[JSONObject, str]:
    """The state after robots played turn 1 of the default scenario, and its first seat."""
    ruleset = get_ruleset(name)
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(3, 0))
    seeds = TurnSeeds(3, 1)
    orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
    return ruleset.resolve(state, orders, seeds).state, codes[0]


def both_checks(name: str, state: JSONObject, seat: str, lines: list[str]) -> tuple[list[str], list[str]]:
    """(the offline check's problems, the GM's check's problems), each as "line: message"."""
    ruleset = get_ruleset(name)
    report = offline.Report(f"{name}-1", name, seat, 1, ruleset.view(state, seat))
    text = "\n".join([f"GAME {name}-1", f"PLAYER {seat}", "PASSWORD x", *lines, "END"])
    checked = offline.check_offline(report, text.encode())
    assert checked.refusal is None
    orders, problems = ruleset.parse_orders([(n + 4, line) for n, line in enumerate(lines)])
    gm = list(problems) + ruleset.check_orders(state, seat, orders)
    return [f"{p.line}: {p.message}" for p in checked.problems], sorted(f"{p.line}: {p.message}" for p in gm)


def refused_alike(name: str, state: JSONObject, seat: str, lines: list[str], said: str) -> None:
    """The GM refuses the file with one problem, beginning `said`, and the offline check gives
    that problem, word for word, and no other."""
    offline_says, gm_says = both_checks(name, state, seat, lines)
    assert len(gm_says) == 1 and gm_says[0].startswith(said), (lines, gm_says)
    assert offline_says == gm_says, lines


@pytest.fixture(scope="module")
def mcempires() -> tuple[JSONObject, str]:
    return played("mcempires")


def test_minecraft_groups_and_blocks_the_report_refutes(mcempires):
    state, seat = mcempires
    mine = sorted(state["groups"], key=lambda g: int(g[1:]))
    gid = next(g for g in mine if state["groups"][g]["owner"] == seat)
    width, height = state["world"]["width"], state["world"]["height"]
    lines = [
        f"MOVE G44{gid[1:]} 3,3",
        f"MOVE {gid} 99,99",
        f"ATTACK G9{gid[1:]} 1,1",
        f"DEFEND {gid} ALL RETREAT 99,99",
    ]
    offline_says, gm_says = both_checks("mcempires", state, seat, lines)
    assert offline_says == [
        f"4: G44{gid[1:]} is not one of your groups",
        f"5: 99,99 is off the map (x runs 0 to {width - 1}, y 0 to {height - 1})",
        f"6: G9{gid[1:]} is not one of your groups",
        "7: 99,99 is off the map",
    ]
    assert set(offline_says) <= set(gm_says)


def test_minecraft_a_valid_order_passes_offline(mcempires):
    state, seat = mcempires
    gid = next(g for g, group in state["groups"].items() if group["owner"] == seat)
    offline_says, gm_says = both_checks("mcempires", state, seat, [f"DEFEND {gid} ALL"])
    assert offline_says == gm_says == []


def _declaring(state: JSONObject, **changes: object) -> JSONObject:
    """The Minecraft state with declarations of war and peace treaties in use, and `changes`."""
    return {**state, "options": {**state["options"], "declarations": True, "peace": True}, **changes}


_AT_WAR = [{"sides": ["BL", "RE"], "since": 1, "taken": {}}]


@pytest.mark.parametrize(
    ("changes", "lines", "said"),
    [
        (None, ["DECLARE BL"], "4: DECLARE belongs to an optional rule this game does not use (declarations)"),
        (None, ["ACCEPT ALLY BL"], "4: ALLY belongs to an optional rule this game does not use (alliances)"),
        (None, ["LAND 0,0"], "4: 0,0 is ocean: bodies of water cannot be purchased"),
        (None, ["LAND 0,0 1,1"], "4: every block there is water or claimed already"),
        ({}, ["DECLARE RE"], "4: RE is not another empire of this game"),
        ({}, ["DECLARE XX"], "4: XX is not another empire of this game"),
        ({}, ["PAY RE 1"], "4: RE is not another empire of this game"),
        ({}, ["DECLARE BL", "DECLARE BL"], "5: you are at war with Blue (BL) already"),
        ({"wars": _AT_WAR}, ["DECLARE BL"], "4: you are at war with Blue (BL) already"),
        ({"wars": _AT_WAR}, ["ACCEPT PEACE BL"], "4: Blue (BL) made no peace proposal to you in round 1"),
    ],
)
def test_minecraft_diplomacy_and_water_the_report_refutes(mcempires, changes, lines, said):
    """The game's optional rules, every empire, the wars, the proposals made to the empire and
    the world's terrain are in every report: what the GM's dry run refuses of them, the player's
    own check refuses too, in its words (kit8 found a DECLARE twice, LAND on the ocean passing)."""
    state, seat = mcempires
    if changes is not None:
        state = _declaring(state, **changes)
    refused_alike("mcempires", state, seat, lines, said)


def test_minecraft_what_the_dry_run_takes_passes_offline(mcempires):
    """A first declaration, a war declared after a refused ACCEPT (it changed nothing), land with
    a block of grass: the GM takes them, and so does the player's own check."""
    state, seat = mcempires
    rows = state["world"]["terrain"]
    land = next(f"{x},{y}" for y, row in enumerate(rows) for x, c in enumerate(row) if c == "." and x and y)
    assert both_checks("mcempires", _declaring(state), seat, ["DECLARE BL", "DECLARE YE"]) == ([], [])
    offline_says, gm_says = both_checks("mcempires", _declaring(state), seat, ["ACCEPT PEACE YE", "DECLARE BL"])
    assert offline_says == gm_says == ["4: Yellow (YE) made no peace proposal to you in round 1"]
    offline_says, _ = both_checks("mcempires", state, seat, [f"LAND 0,0 {land}"])
    assert offline_says == []


@pytest.fixture(scope="module")
def imperials() -> tuple[JSONObject, str]:
    return played("imperials")


def test_imperials_places_and_the_hand_the_report_refutes(imperials):
    state, seat = imperials
    assert state["phase"] == "play" and state["mode"] == "basic" and not state["seats"][seat]["cards"]
    lines = ["ROAD 12-13", "VILLAGE 99", "SETTLE 5", "PLAY MONOPOLY wool", "TOWN 0"]
    offline_says, gm_says = both_checks("imperials", state, seat, lines)
    count = get_ruleset("imperials").view(state, seat)["tiles"] and max(
        max(t["vertices"]) for t in get_ruleset("imperials").view(state, seat)["tiles"]
    )
    assert offline_says == [
        "4: 12-13 is not an edge of this island: name an edge by the two vertices at its ends",
        f"5: 99 is not a vertex of this island (they are numbered 1 to {count})",
        "6: the set-up is over: SETTLE is only for the first turn",
        "7: you hold no Monopoly card",
        f"8: 0 is not a vertex of this island (they are numbered 1 to {count})",
    ]
    assert set(offline_says) <= set(gm_says)


def test_imperials_a_valid_order_passes_offline(imperials):
    state, seat = imperials
    offline_says, gm_says = both_checks("imperials", state, seat, ["BUY", "MARKET wool FOR brick"])
    assert offline_says == gm_says == []


def _imperials_refusals(state: JSONObject, seat: str) -> list[tuple[list[str], str]]:
    """Imperials' orders the GM refuses from what every report shows (the seats, the open offers,
    the roads and settlements), each with the GM's words: Red after turn 1 of the Basic game,
    with its road 23-29 and village 29, Orange's road 19-24 and village 24, and no offer open."""
    from games.imperials.turn import board_geometry

    assert state["roads"]["23-29"] == seat and state["roads"]["19-24"] == "ORANGE" and not state["offers"]
    free = next(e for e in board_geometry(state).vertex_edges[29] if e not in state["roads"])
    seats = "RED, BLUE, ORANGE, PURPLE"
    return [
        (["ROBBER A BRICK"], f"4: BRICK is not a seat in this game ({seats})"),
        (["WITHDRAW 1"], "4: you have no open offer #1"),
        (["ACCEPT 1"], "4: there is no open offer #1"),
        (["CHOOSE 1 BLUE"], "4: you have no open offer #1"),
        (["ROAD 23-29"], "4: edge 23-29 already has your road"),
        (["ROAD 19-24"], "4: edge 19-24 already has Orange's road"),
        ([f"ROAD {free}", f"ROAD {free}"], f"5: edge {free} already has your road"),
        (["VILLAGE 29"], "4: vertex 29 already has your village"),
        (["TOWN 24"], "4: vertex 24 has no village of yours"),
        (["TOWN 29", "TOWN 29"], "5: vertex 29 is a town already"),
        (["MARKET wood FOR wood"], "4: a trade must give one type of card for another, not wood for wood"),
        (["OFFER ALL 1 wood FOR 1 wood"], "4: resources of the same type may not be exchanged (wood on both sides)"),
        (["OFFER RED 1 wood FOR 1 ore"], "4: an offer must be made to another player"),
        (["OFFER BROWN 1 wood FOR 1 ore"], f"4: BROWN is not a seat in this game; write a seat code ({seats}) or ALL"),
    ]


@pytest.mark.parametrize("case", range(14))
def test_imperials_seats_offers_and_the_board_the_report_refutes(imperials, case):
    """Every report shows the seats, the open offers and, in the Basic game, every road and
    settlement on a board no other player's turn can clear: what the GM refuses of them, the
    player's own check refuses too, in the GM's words (kit8 found these passing offline)."""
    state, seat = imperials
    lines, said = _imperials_refusals(state, seat)[case]
    refused_alike("imperials", state, seat, lines, said)


@pytest.mark.parametrize(
    ("offer", "line", "said"),
    [
        ({"from": "RED", "to": "ALL"}, "ACCEPT 7", "4: offer #7 is your own"),
        ({"from": "BLUE", "to": "ORANGE"}, "ACCEPT 7", "4: offer #7 is made to ORANGE, not to you"),
        ({"from": "RED", "to": "BLUE"}, "CHOOSE 7 ORANGE", "4: offer #7 is made to BLUE only"),
        ({"from": "RED", "to": "ALL"}, "CHOOSE 7 RED", "4: you cannot trade with yourself"),
    ],
)
def test_imperials_the_open_offers_the_report_shows_refute(imperials, offer, line, said):
    state, seat = imperials
    state = {**state, "offers": [{"id": 7, **offer, "give": {"wood": 1}, "get": {"ore": 1}, "round": 1}]}
    refused_alike("imperials", state, seat, [line], said)


def test_imperials_what_the_gm_only_warns_of_passes_offline(imperials):
    """Naming oneself to the robber, a road that connects, an open offer answered: the GM takes
    them (the first with a warning), and so does the player's own check."""
    state, seat = imperials
    from games.imperials.turn import board_geometry

    free = next(e for e in board_geometry(state).vertex_edges[29] if e not in state["roads"])
    state = {
        **state,
        "offers": [{"id": 7, "from": "BLUE", "to": "ALL", "give": {"wood": 1}, "get": {"ore": 1}, "round": 1}],
    }
    lines = ["ROBBER A RED", f"ROAD {free}", "ACCEPT 7", "OFFER BLUE 1 wood FOR 1 ore", "MARKET wood FOR ore"]
    assert both_checks("imperials", state, seat, lines) == ([], [])


@pytest.mark.parametrize(
    ("line", "warned"),
    [
        ("ROBBER A RED", "you cannot name yourself: gm chooses the other player for the robber"),
        ("PLAY warrior A RED", None),  # Red holds no Warrior card: refused before its victim is read
    ],
)
def test_imperials_naming_oneself_is_warned_of_offline_as_by_the_gm(imperials, line, warned):
    """The GM takes a ROBBER answer naming the seat itself and warns that gm chooses the victim
    (the order still counts, D-ALL-3): the player's own check warns of it too, in its words."""
    state, seat = imperials
    ruleset = get_ruleset("imperials")
    report = offline.Report("imperials-1", "imperials", seat, 1, ruleset.view(state, seat))
    text = "\n".join(["GAME imperials-1", f"PLAYER {seat}", "PASSWORD x", line, "END"])
    checked = offline.check_offline(report, text.encode())
    orders, _ = ruleset.parse_orders([(4, line)])
    gm_warned = [p.message for p in ruleset.order_warnings(state, seat, orders) if p.line == 4]
    offline_warned = [p.message for p in checked.warnings if p.line == 4]
    assert offline_warned == gm_warned == ([warned] if warned else [])


def test_imperials_the_hand_warnings_are_given_offline_in_the_gms_words(imperials):
    """The seat's hand, its market rates and discard limit, the open offers and the robber's tile
    are in its report: the GM's warnings of them (a build the hand cannot pay, an offer accepted
    without its cards, the robber left where it stands) come offline too, word for word."""
    state, seat = imperials
    robber = state["robber"]
    state = {
        **state,
        "offers": [{"id": 7, "from": "BLUE", "to": "ALL", "give": {"wood": 1}, "get": {"ore": 9}, "round": 1}],
    }
    lines = ["BUY", "BUY", "TOWN 29", "ACCEPT 7", f"ROBBER {robber}", "MARKET ore FOR wool 2"]
    ruleset = get_ruleset("imperials")
    orders, _ = ruleset.parse_orders(list(enumerate(lines, 4)))
    gm_warned = [(p.line, p.message) for p in ruleset.order_warnings(state, seat, orders)]
    offline_warned = [(p.line, p.message) for p in ruleset.warnings_by_view(ruleset.view(state, seat), seat, orders)]
    assert len(gm_warned) >= 4 and offline_warned == gm_warned


@pytest.fixture(scope="module")
def imperials_wonders() -> tuple[JSONObject, str]:
    """A Wonders & Warriors game of six robots after 8 turns (battery seed 41): Red has a warrior
    at vertex 19, Black one at 29 and Orange one at 11."""
    from gm.testing.battery import draw_setup, robot_turn, stored

    ruleset = get_ruleset("imperials")
    setup, scenario = draw_setup(ruleset, 41)
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in setup.seats], TurnSeeds(setup.seed, 0))
    for turn in range(1, 9):
        seeds = TurnSeeds(setup.seed, turn)
        state = ruleset.resolve(state, stored(robot_turn(ruleset, state, setup.seats, seeds)), seeds).state
    owners = {int(v): w["owner"] for v, w in state["warriors"].items()}
    assert state["mode"] == "wonders" and owners[19] == "RED" and owners[29] == "BLACK" and owners[11] == "ORANGE"
    return state, "RED"


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        (["ACTIVATE 29"], "4: you have no warrior at vertex 29"),
        (["UPGRADE 11"], "4: you have no warrior at vertex 11"),
        (["MOVE 29 19"], "4: you have no warrior at vertex 29"),
        (["CHASE 30 A"], "4: you have no warrior at vertex 30"),
    ],
)
def test_imperials_warriors_the_report_shows_refute(imperials_wonders, lines, said):
    """No other player's turn gives a seat a warrior: an order for one it has not on the report's
    map is refused offline as by the GM (until an order of the file may put one there)."""
    state, seat = imperials_wonders
    refused_alike("imperials", state, seat, lines, said)


def test_imperials_a_warrior_the_file_may_place_is_left_to_the_gm(imperials_wonders):
    state, seat = imperials_wonders
    offline_says, _ = both_checks("imperials", state, seat, ["ACTIVATE 19", "WARRIOR 5", "ACTIVATE 5", "ACTIVATE 29"])
    assert offline_says == []


def robot_lines(name: str, state: JSONObject, seat: str) -> list[str]:
    """The orders a robot would give (the first of a few draws that gives any): valid ones,
    which neither check refutes."""
    draws = (get_ruleset(name).robot_orders(state, seat, Random(n)) for n in range(20))
    return [o.text for o in next((d for d in draws if d), [])]


# Minecraft's robots wait in round 2 (no orders): its valid DEFEND is tested above.
@pytest.mark.parametrize("name", ["clash", "conqueror", "empires", "imperials"])
def test_a_robots_valid_orders_pass_offline_in_every_ruleset(name):
    state, seat = played(name)
    lines = robot_lines(name, state, seat)
    assert lines
    assert both_checks(name, state, seat, lines) == ([], [])


def test_clash_territories_and_the_phase_the_report_refutes():
    state, seat = played("clash")
    assert state["phase"] == "place"
    lines = ["PLACE XYZ 3", "CLAIM ENG", robot_lines("clash", state, seat)[0]]
    offline_says, gm_says = both_checks("clash", state, seat, lines)
    assert offline_says == [
        "4: XYZ is not a territory on this map",
        "5: CLAIM is not an order for this turn: this turn is for placing units with PLACE",
    ]
    assert set(offline_says) <= set(gm_says)


def test_conqueror_provinces_and_the_moves_a_turn_takes():
    state, seat = played("conqueror")
    lines = ["MOVE XXX YYY 3", "PRODUCE QQQ TAXES", *["ATTACK CNW WAL 1"] * 4, "MOVE CNW WAL 1"]
    offline_says, gm_says = both_checks("conqueror", state, seat, lines)
    assert offline_says == [
        "4: XXX is not a province on this map",
        "5: QQQ is not a province on this map",
        "10: only 5 move or attack orders a turn: line 10 is one too many",
    ]
    assert set(offline_says) <= set(gm_says)


def test_empires_areas_and_seas_the_report_refutes():
    state, seat = played("empires")
    lines = ["1 MOVE LON XXX 3", "2 GROW CEL - -", "3 GROW LON - -"]
    offline_says, gm_says = both_checks("empires", state, seat, lines)
    assert offline_says == [
        "4: XXX is not an area on this map",
        "5: CEL is a sea; armies cross seas but cannot stand or fight there",
    ]
    assert set(offline_says) <= set(gm_says)


# Any JSON at all, as a hostile or broken report may hold in the parts check_by_view reads.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
_PARTS = [
    "you",
    "you.groups",
    "you.cards",
    "you.alive",
    "you.eliminated",
    "mode",
    "phase",
    "world",
    "world.width",
    "board",
    "board.hexes",
    "map",
    "map.territories",
    "seats",
]
_LINES = {
    "clash": ["PLACE BEL 4", "MOVE IRE SCO ALL", "CLAIM ENG"],
    "conqueror": ["ATTACK CNW WAL ALL", "PRODUCE WES TAXES", "BUY WES 2"],
    "empires": ["1 MOVE LON KNT 3", "2 GROW LON - -"],
    "imperials": ["ROAD 1-2", "PLAY MONOPOLY wool", "SETTLE 3 3-4", "DEMOTE 5"],
    "mcempires": ["MOVE G1 3,3 4,4", "ATTACK G2 1,1", "DEFEND G1 ALL RETREAT 9,9", "RAIL 1,1 RE1 5,5"],
}


@pytest.fixture(scope="module")
def views() -> dict[str, tuple[JSONObject, str]]:
    views = {}
    for name in _LINES:
        state, seat = played(name)
        views[name] = (get_ruleset(name).view(state, seat), seat)
    return views


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(_LINES)), changes=st.lists(st.tuples(st.sampled_from(_PARTS), _JSON), max_size=3))
def test_whatever_a_report_holds_check_by_view_never_raises(views, name, changes):
    """A report is a file the player holds: check_by_view reads it as untrusted input and gives
    Problems (a RulesetFault would tell the player of a bug in the ruleset)."""
    view, seat = views[name]
    view = copy.deepcopy(view)
    for path, value in changes:
        *parents, last = path.split(".")
        where = view
        for key in parents:
            where = where.get(key) if isinstance(where, dict) else None
        if isinstance(where, dict):
            where[last] = value
    ruleset = get_ruleset(name)
    orders, _ = ruleset.parse_orders(list(enumerate(_LINES[name], 4)))
    assert all(isinstance(p.line, int) for p in ruleset.check_by_view(view, seat, orders))


@pytest.fixture(scope="module")
def clash_round() -> tuple[JSONObject, str]:
    """A Clash game played by robots into its rounds (phase "play"), and the seat that acts
    first in the next round."""
    ruleset = get_ruleset("clash")
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(3, 0))
    for turn in range(1, 6):
        seeds = TurnSeeds(3, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        state = ruleset.resolve(state, orders, seeds).state
    assert state["phase"] == "play"
    return state, codes[0]


def clash_sure_refusals(state: JSONObject, seat: str) -> list[tuple[str, str]]:
    """A round's actions the GM refuses whatever the players before the seat do, each with the
    start of the GM's words, found on the board as it stands."""
    land = state["territories"]
    mine = next(c for c, t in land.items() if t["owner"] == seat and t["troops"] > 0)
    near = next(t["neighbours"] for t in state["scenario"]["territories"] if t["code"] == mine)
    far = next(c for c in land if c != mine and c not in near)
    theirs = next(c for c, t in land.items() if t["owner"] not in (seat, None) and t["troops"] > 0)
    core = next(c for c, t in land.items() if t["core_of"] != seat)
    money = state["seats"][seat]["money"]
    count = money // 2 + 1
    return [
        (f"MOVE {theirs} {mine} 1", f"4: {theirs} is not yours (it is held by "),
        (f"MOVE {mine} {mine} 1", f"4: a move needs two different territories, not {mine} twice"),
        (f"MOVE {mine} {far} 1", f"4: {mine} and {far} are not neighbours"),
        (f"MOVE {mine} {near[0]} 999", f"4: {mine} has {land[mine]['troops']} troop"),
        (f"REVOLT {core}", f"4: {core} is not one of your core territories"),
        (f"RECRUIT {theirs} 1", f"4: {theirs} is not yours (it is held by "),
        (f"RECRUIT {mine} {count}", f"4: you have ${money}; {count} troops cost ${count * 2}"),
    ]


@pytest.mark.parametrize("case", range(7))
def test_clash_a_rounds_sure_refusals_the_report_shows(clash_round, case):
    """Who holds what, the neighbours, the troops and the seat's money are on the report's
    public map: an action the GM refuses whatever the players before the seat do is refused
    offline too, in the GM's words (a player trusts the offline check)."""
    state, seat = clash_round
    line, said = clash_sure_refusals(state, seat)[case]
    refused_alike("clash", state, seat, [line], said)


def test_clash_a_rounds_valid_action_passes_offline(clash_round):
    state, seat = clash_round
    mine = next(c for c, t in state["territories"].items() if t["owner"] == seat and t["troops"] > 1)
    near = next(t["neighbours"] for t in state["scenario"]["territories"] if t["code"] == mine)
    second = ["5: only one action per round: line 5 is a second one"]
    assert both_checks("clash", state, seat, [f"MOVE {mine} {near[0]} 1", "PASS"]) == (second, second)


# Empires, England (EN) after turn 1: LON and KNT are England's, PAR and ROU France's; ROU is
# across the Channel from LON, PAR is not.
_EMPIRES_REFUSED = [
    (["1 GROW PAR - -"], "4: PAR is not yours (it is held by "),
    (["1 MOVE LON PAR 3"], "4: LON and PAR are not next to each other (nor across one sea)"),
    (["1 MOVE LON ROU 3"], "4: ROU is not yours; MOVE goes to an area you own (to take it, ATTACK)"),
]


@pytest.mark.parametrize(("lines", "said"), _EMPIRES_REFUSED)
def test_empires_owners_and_crossings_the_report_refutes(lines, said):
    """Every area's owner and the map's seas are in the report: what the GM refuses of them,
    the player's own check refuses too, in the GM's words."""
    state, seat = played("empires")
    assert seat == "EN" and state["areas"]["LON"]["owner"] == "EN" and state["areas"]["PAR"]["owner"] == "FR"
    refused_alike("empires", state, seat, lines, said)


def test_empires_a_second_defence_order_on_an_area_passes_both_checks():
    # A new defence order cancels the old one (the publisher's rulebook 7.7-7.9): not a problem.
    state, seat = played("empires")
    assert both_checks("empires", state, seat, ["1 AMBUSH LON - -", "2 DEFEND LON - -"]) == ([], [])


def test_empires_an_attack_across_one_sea_passes_offline():
    state, seat = played("empires")
    assert both_checks("empires", state, seat, ["1 ATTACK LON ROU 3", "2 MOVE LON KNT 1"]) == ([], [])


def conqueror_map_refusals(state: JSONObject, seat: str) -> list[tuple[str, str]]:
    """Moves and productions the GM refuses from the map's owners alone, with the start of
    its words, found on the board as it stands."""
    land = state["provinces"]
    near = {p["code"]: p["neighbours"] for p in state["scenario"]["provinces"]}
    mine = next(c for c, p in land.items() if p["owner"] == seat)
    far = next(c for c in land if c != mine and c not in near[mine])
    theirs = next(c for c in near[mine] if land[c]["owner"] != seat)
    other = next(c for c, p in land.items() if p["owner"] != seat)
    return [
        (f"MOVE {other} {mine} 1", f"4: {other} is not yours (it is held by "),
        (f"ATTACK {mine} {mine} 1", f"4: an order needs two different provinces, not {mine} twice"),
        (f"ATTACK {mine} {far} 1", f"4: {mine} and {far} are not neighbours"),
        (f"MOVE {mine} {theirs} 1", f"4: {theirs} is not yours (it is held by "),
        (f"PRODUCE {other} TAXES", f"4: {other} is not yours (it is held by "),
    ]


@pytest.mark.parametrize("case", range(5))
def test_conqueror_the_owners_the_report_shows_refute(case):
    """Every province's owner is on the report's map, and the GM checks every order against
    the map as it stands: a move or a production the owners refuse is refused offline too, in
    the GM's words."""
    state, seat = played("conqueror")
    line, said = conqueror_map_refusals(state, seat)[case]
    refused_alike("conqueror", state, seat, [line], said)


# Refusals the GM reads from the nation's own provinces and gold, all in its report: the played
# state's EN holds WES (4 armies, a fort, developed culture, making SOLDIERS) and CNW (5 armies,
# no fort, primitive culture, levying TAXES), beside the neutral WAL, and 20 gold.
_CONQUEROR_OWN = [
    (["MOVE WES CNW 5"], "4: WES has 4 armies free to move; you cannot move 5"),
    (["ATTACK CNW WAL ALL", "MOVE CNW WES 1"], "5: CNW has no armies left that can move this turn"),
    (["PRODUCE WES TAXES", "PRODUCE WES FARMS"], "5: a second PRODUCE for WES: a province makes one thing at a time"),
    (["BUY WES", "BUY WES"], "5: a second BUY for WES: buy more units in one line, BUY WES <n>"),
    (["BUY WAL"], "4: WAL is not yours (it is held by the local leaders)"),
    (["BUY CNW"], "4: CNW levies taxes; taxes cannot be rush-bought"),
    (["BUY WES 9"], "4: you have 20 gold; buying 9 x SOLDIERS in WES"),
    (["PRODUCE CNW KEEP"], "4: CNW cannot build a keep: a keep is built on a fort"),
    (["PRODUCE CNW DIPLOMAT"], "4: CNW cannot send a diplomat: a diplomat needs developed culture"),
    (["PRODUCE CNW FORT", "BUY CNW 2"], "5: CNW can build a fort only once; buy 1"),
]


@pytest.mark.parametrize("case", range(len(_CONQUEROR_OWN)))
def test_conqueror_the_nations_own_provinces_and_gold_the_report_shows_refute(case):
    """The report holds the nation's own provinces (armies, what they make, culture, fort) and
    its gold, and the open map every province's armies and owner: the GM's check asked of a state
    built from it refuses offline what the GM refuses, in its words."""
    state, seat = played("conqueror")
    assert seat == "EN"
    lines, said = _CONQUEROR_OWN[case]
    refused_alike("conqueror", state, seat, lines, said)


@pytest.mark.parametrize("name", ["clash", "conqueror", "empires"])
@pytest.mark.parametrize("field", ["owner", "neighbours", "troops"])
@pytest.mark.parametrize("junk", [True, 7, "LON", [{}], {}])
def test_a_map_place_of_any_shape_never_breaks_check_by_view(name, field, junk):
    """The owners and neighbours check_by_view now reads from a report's map may be anything a
    file holds: it gives Problems, never an exception (the unguarded ruleset raises it)."""
    state, seat = played(name)
    view = copy.deepcopy(get_ruleset(name).view(state, seat))
    view["map"]["territories"][0][field] = junk
    lines = {"clash": "MOVE ENG HOL 3", "conqueror": "MOVE WES SCO 1", "empires": "1 MOVE LON ROU 3"}
    orders, _ = get_ruleset(name).parse_orders([(1, lines[name])])
    assert all(isinstance(p, Problem) for p in get_ruleset(name).unguarded.check_by_view(view, seat, orders))


def test_empires_actions_left_unused_are_warned_of_offline_in_the_gms_words():
    """The file alone says how many of the 16 actions it uses: the GM's warning of the rest lost
    comes offline too, word for word, and none when all are used or the country is out."""
    state, seat = played("empires")
    ruleset = get_ruleset("empires")
    area = next(code for code, a in sorted(state["areas"].items()) if a["owner"] == seat)
    lines = [f"1 GROW {area} - -", f"2 DEFEND {area} - -"]
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 4)))
    assert len(orders) == 2 and not problems
    view = ruleset.view(state, seat)
    unused = [w for w in ruleset.order_warnings(state, seat, orders) if w.line == 0]
    assert [(w.line, w.message) for w in ruleset.warnings_by_view(view, seat, orders)] == [
        (w.line, w.message) for w in unused
    ]
    assert unused and "you use 2 of your 16 actions" in unused[0].message
    out = {**view, "you": {**view["you"], "eliminated": 1}}
    assert ruleset.warnings_by_view(out, seat, orders) == []


def test_empires_the_gms_warnings_of_armies_bps_and_attacks_are_given_offline_in_its_words():
    """Every area's armies, population, fort and terrain are in the report's listing and the
    country's BPs and reserve in its own part: the GM's warnings that read them (armies an area
    will not have, BPs or a reserve short, a second GROW, an attack that cannot take its target
    or on one's own area) come offline too, word for word, on the same lines."""
    state, seat = played("empires")
    ruleset = get_ruleset("empires")
    areas = state["areas"]
    mine = [code for code, a in sorted(areas.items()) if a["owner"] == seat]
    start = max(mine, key=lambda code: areas[code]["armies"])
    reach = get_ruleset("empires").view(state, seat)["you"]["areas"]
    beside = next(a["reach"] for a in reach if a["code"] == start)
    foreign = max((c for c in beside if areas[c]["owner"] != seat), key=lambda c: areas[c]["armies"] + areas[c]["fort"])
    own = next((c for c in beside if areas[c]["owner"] == seat), start)
    bps, reserve = state["countries"][seat]["bps"], state["countries"][seat]["reserve"]
    lines = [
        f"1 MOVE {start} {own} {areas[start]['armies'] + 1}",
        f"2 ATTACK {start} {foreign} 1",
        f"3 GROW {start} - -",
        f"4 GROW {start} - -",
        f"5 RESERVE {start} - {reserve + 1}",
        f"6 ARMY - - {bps // 3 + 1}",
        f"7 ATTACK {start} {own} 1",
    ]
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 4)))
    assert len(orders) == len(lines) and not problems
    gm_warned = [(p.line, p.message) for p in ruleset.order_warnings(state, seat, orders)]
    offline_warned = [(p.line, p.message) for p in ruleset.warnings_by_view(ruleset.view(state, seat), seat, orders)]
    assert {line for line, _ in gm_warned} >= {0, 4, 5, 7, 8, 9}, gm_warned
    assert offline_warned == gm_warned


@pytest.mark.parametrize("part", ["cells", "code", "columns", "bps", "armies"])
@pytest.mark.parametrize("junk", [True, -3, "x", [None], {}, "\u00b2", "9" * 5000])
def test_empires_a_report_listing_of_any_shape_never_breaks_warnings_by_view(part, junk):
    """The armies, BPs and forts the offline warnings read come from a file the player holds:
    junk there gives only the warning the file alone settles, never an exception."""
    state, seat = played("empires")
    ruleset = get_ruleset("empires")
    view = copy.deepcopy(ruleset.view(state, seat))
    if part == "bps":
        view["you"]["bps"] = junk
    elif part == "columns":
        view["known"]["columns"] = junk
    elif part == "armies":  # a superscript two is a digit to str.isdigit, and no int()
        view["known"]["groups"][0]["places"][0]["cells"][2] = junk
    else:
        view["known"]["groups"][0]["places"][0][part] = junk
    orders, _ = ruleset.parse_orders([(1, f"1 ARMY - - {10**5}")])
    warned = ruleset.unguarded.warnings_by_view(view, seat, orders)
    assert [w.line for w in warned] == [0]


def clash_lowlands(phase: str, start: str, **territories: tuple) -> JSONObject:
    """A lowlands Clash game of Britain and France in `phase`, `start` first, with territories
    set as (owner, troops, core)."""
    ruleset = get_ruleset("clash")
    scenario = ruleset.load_scenario(ruleset.scenario_text("lowlands"), "lowlands")
    state = ruleset.new_game(scenario, [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(1, 0))
    state.update(phase=phase, round=3, start=start)
    for code, (owner, troops, core) in territories.items():
        state["territories"][code].update(owner=owner, troops=troops, core_of=core)
    return state


def clash_alike(state: JSONObject, seat: str, lines: list[str]) -> list[tuple[int, str]]:
    """The GM's warnings of the lines, which the offline check gives word for word."""
    ruleset = get_ruleset("clash")
    orders, _ = ruleset.parse_orders(list(enumerate(lines, 4)))
    gm_warned = [(p.line, p.message) for p in ruleset.order_warnings(state, seat, orders)]
    view = json_copy(ruleset.view(state, seat))
    assert [(p.line, p.message) for p in ruleset.warnings_by_view(view, seat, orders)] == gm_warned
    return gm_warned


def json_copy(view: JSONObject) -> JSONObject:
    """The view as the report's JSON twin holds it."""
    import json

    return json.loads(json.dumps(view))


def test_clash_placing_warnings_and_problems_are_given_offline_in_the_gms_words():
    """The board, the order of play and the units to place are in the report: a fallback past
    the units (France places first), units left unplaced and a PLACE past the units left when
    nobody can change it come offline as the GM gives them."""
    state = clash_lowlands("place", "FR", ENG=(None, 0, "BR"), HOL=(None, 0, "BR"), BEL=(None, 0, "FR"))
    warned = clash_alike(state, "BR", ["PLACE ENG 12", "PLACE HOL 12"])
    assert [line for line, _ in warned] == [5] and warned[0][1].startswith("only 8 of your 20 units are left")
    warned = clash_alike(state, "BR", ["PLACE ENG 5"])
    assert [line for line, _ in warned] == [0] and "the other 15 are spread" in warned[0][1]
    state["start"] = "BR"
    lines = ["PLACE ENG 12", "PLACE HOL 12", "PLACE LUX 1"]
    offline_says, gm_says = both_checks("clash", state, "BR", lines)
    assert (
        offline_says
        == gm_says
        == [
            "5: only 8 of your 20 units are left to place; this order places 12",
            "6: LUX is not yours (it is held by neutral troops)",
        ]
    )


@pytest.mark.parametrize(
    "line, begins",
    [
        ("MOVE ENG BEL 2", "2 troops against 3 in BEL: 1 of its defenders survive"),
        ("MOVE ENG BEL 3", "3 troops against 3 in BEL: both sides are wiped out"),
        ("REVOLT HOL", "HOL is empty now"),
        ("RECRUIT ENG 3", "you have 99 troops on the board now; 3 more would pass the limit of 100"),
    ],
)
def test_clash_round_warnings_are_given_offline_in_the_gms_words(line, begins):
    """An attack too weak to take its target, a revolt with no enemy troop yet and a recruit past
    the unit limit (France acting first) read only the open board, the order of play, the seat's
    money and the scenario's limit, all in the report."""
    state = clash_lowlands("play", "FR", ENG=("BR", 60, "BR"), BEL=("FR", 3, "FR"), HOL=(None, 0, "BR"))
    state["territories"]["PIC"].update(owner="BR", troops=39)
    state["seats"]["BR"]["money"] = 30
    warned = clash_alike(state, "BR", [line])
    assert len(warned) == 1 and warned[0][1].startswith(begins), warned


@pytest.mark.parametrize("field", ["start_units", "unit_limit", "order_of_play"])
@pytest.mark.parametrize("junk", [None, True, -1, "20", [{}]])
def test_clash_a_report_of_any_shape_never_breaks_warnings_by_view(field, junk):
    """The units and order of play come from a file the player holds (a report written before
    it had the units has none): what is not of its kind settles no warning, and never raises."""
    state = clash_lowlands("place", "FR", ENG=(None, 0, "BR"), HOL=(None, 0, "BR"), BEL=(None, 0, "FR"))
    ruleset = get_ruleset("clash")
    view = {**json_copy(ruleset.view(state, "BR")), field: junk}
    orders, _ = ruleset.parse_orders([(4, "PLACE ENG 12")])
    assert ruleset.unguarded.warnings_by_view(view, "BR", orders) == []
    assert all(isinstance(p, Problem) for p in ruleset.unguarded.check_by_view(view, "BR", orders))


@pytest.mark.parametrize(
    "line, message",
    [
        ("RECRUIT ENG 3", "4: you have 99 troops on the board; 3 more would pass the limit of 100"),
        ("REVOLT HOL", "4: HOL is empty; there is no troop to remove"),
    ],
)
def test_clash_what_nobody_before_the_seat_can_save_is_refused_offline_in_the_gms_words(line, message):
    """Britain acts first: a recruit past the unit limit (in the report now) and a revolt with no
    enemy troop cannot come good, and the offline check refuses them as the GM does."""
    state = clash_lowlands("play", "BR", ENG=("BR", 60, "BR"), BEL=("FR", 3, "FR"), HOL=(None, 0, "BR"))
    state["territories"]["PIC"].update(owner="BR", troops=39)
    state["seats"]["BR"]["money"] = 30
    offline_says, gm_says = both_checks("clash", state, "BR", [line])
    assert offline_says == gm_says == [message]


def test_conqueror_the_gms_warnings_are_given_offline_in_its_words():
    """The armies of every province are on the open map, and the nation's own provinces, gold,
    capital and the turn in its report: an attack the duels will probably lose, a move out of a
    province another nation's armies border and, in winter, pay the treasury will not meet come
    offline too, word for word (the rival's treasury and production stay out of it)."""
    state, seat = played("conqueror")
    state = copy.deepcopy(state)
    rival = next(s for s in state["seating"] if s != seat)
    provinces = state["provinces"]
    provinces["MER"].update(owner=rival, armies=3)
    provinces["CNW"]["armies"] = provinces["CNW"]["population"] + 30
    state["seats"][seat]["gold"] = 1
    ruleset = get_ruleset("conqueror")
    lines = ["MOVE WES CNW 1", f"ATTACK CNW IRE {provinces['IRE']['armies']}", "ATTACK CNW WAL ALL"]
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 4)))
    assert len(orders) == 3 and not problems
    for turn in (state["turn"], 4):
        state["turn"] = turn
        gm_warned = [(p.line, p.message) for p in ruleset.order_warnings(state, seat, orders)]
        view = json_copy(ruleset.view(state, seat))
        offline_warned = [(p.line, p.message) for p in ruleset.warnings_by_view(view, seat, orders)]
        assert offline_warned == gm_warned
        assert {line for line, _ in gm_warned} == ({4, 5} if turn != 4 else {0, 4, 5}), gm_warned


@pytest.mark.parametrize(
    "part, junk",
    [
        (part, junk)
        for part in ("gold", "capital", "turn", "troops", "control", "culture", "item", "row")
        for junk in (None, True, -1, "QQQ", [{}])
        if (part, junk) != ("capital", None)  # a nation that has lost its capital has none
    ],
)
def test_conqueror_a_report_of_any_shape_never_breaks_warnings_by_view(part, junk):
    """What the offline warnings read comes from a file the player holds: a part that is not of
    its kind settles no warning, and never raises."""
    state, seat = played("conqueror")
    ruleset = get_ruleset("conqueror")
    view = json_copy(ruleset.view(state, seat))
    if part in ("gold", "capital"):
        view["you"][part] = junk
    elif part == "turn":
        view["turn"] = junk
    elif part == "troops":
        view["map"]["territories"][0]["troops"] = junk
    elif part == "row":
        view["you"]["provinces"][0] = junk
    else:
        view["you"]["provinces"][0][part] = junk
    orders, _ = ruleset.parse_orders([(4, "ATTACK CNW IRE 1")])
    assert ruleset.unguarded.warnings_by_view(view, seat, orders) == []


def test_the_offline_check_gives_no_ruleset_warning_on_a_line_with_a_problem_as_the_gm():
    """The GM drops a ruleset's warning on a line that has a problem (the error says why it
    fails): a MOVE of more armies than its area holds, to an area not next to it, is refused
    with no word of the armies, offline as by the GM."""
    state, seat = played("empires")
    ruleset = get_ruleset("empires")
    areas, board = state["areas"], {a["code"]: a for a in state["scenario"]["areas"]}
    start = next(code for code, a in sorted(areas.items()) if a["owner"] == seat)
    far = next(
        c for c, a in sorted(areas.items()) if a["owner"] == seat and c not in board[start]["reach"] and c != start
    )
    lines = [
        f"1 MOVE {start} {far} {areas[start]['armies'] + 5}",
        f"2 MOVE {start} {start} {areas[start]['armies'] + 5}",
    ]
    orders, _ = ruleset.parse_orders(list(enumerate(lines, 4)))
    ruled = {(w.line, w.message) for w in ruleset.order_warnings(state, seat, orders) if w.line in (4, 5)}
    assert {line for line, _ in ruled} == {4, 5}
    report = offline.Report("empires-1", "empires", seat, 1, ruleset.view(state, seat))
    text = "\n".join(["GAME empires-1", f"PLAYER {seat}", "PASSWORD x", *lines, "END"])
    checked = offline.check_offline(report, text.encode())
    assert [p.line for p in checked.problems] == [4, 5]
    assert ruled.isdisjoint((w.line, w.message) for w in checked.warnings)
