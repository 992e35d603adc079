"""The conformance-case runner: it passes good cases, fails broken ones and names malformed ones."""

from __future__ import annotations

import copy

import pytest

from gm.core.cases import CaseError, ScriptedSeeds, load_case_text, run_case
from gm.core.model import Event, Order, Problem, TurnResult
from gm.core.ruleset import GameOption, TurnSeeds


class DiceGame:
    """A tiny ruleset for the runner's tests: each turn a die is added to the seat's total."""

    name, version, title = "dice", "1", "Dice"

    def __init__(self, mutate: bool = False, crash: bool = False, tuple_state: bool = False):
        self.mutate, self.crash, self.tuple_state = mutate, crash, tuple_state

    def scenario_text(self, name):
        if name != "plain":
            raise ValueError(f"no scenario {name}")
        return "plain"

    def load_scenario(self, text, source):
        return {"seats": ["A", "B"]}

    def seat_codes(self, scenario):
        return scenario["seats"]

    def seat_limits(self, scenario):
        return 1, 2

    def new_game(self, scenario, seats, seeds):
        return {"totals": {s.code: 0 for s in seats}, "turn": 0, "log": {}}

    def parse_orders(self, lines):
        orders = [Order("ROLL", (), n, t) for n, t in lines if t.strip().upper() == "ROLL"]
        problems = [Problem(n, f"{t} is not ROLL") for n, t in lines if t.strip().upper() != "ROLL"]
        return orders, problems

    def check_orders(self, state, seat, orders):
        return [Problem(o.line, "one ROLL only") for o in orders[1:]]

    def resolve(self, state, orders, seeds):
        if self.crash:
            raise RuntimeError("boom")
        if self.mutate:
            state["turn"] = 99
        new = copy.deepcopy(state)
        rng = seeds.rng("roll")
        events = []
        for seat, seat_orders in orders.items():
            if seat_orders:
                die = rng.randint(1, 6)
                new["totals"][seat] += die
                events.append(Event("roll", {"text": f"{seat} rolls {die}", "seat": seat, "die": die}))
        new["turn"] = (1, 2) if self.tuple_state else new["turn"] + 1
        return TurnResult(new, tuple(events))

    def is_over(self, state):
        return None


def case(**changes) -> dict:
    base = {
        "title": "a roll adds up",
        "rule": "Rolling",
        "quote": "Roll a die.",
        "scenario": "plain",
        "seed": 1,
        "dice": [4],
        "orders": {"A": ["ROLL"]},
        "expect": [{"path": "totals.A", "equals": 4}, {"event": "roll", "data": {"seat": "A", "die": 4}, "count": 1}],
    }
    base.update(changes)
    return base


def test_a_good_case_passes():
    assert run_case(case(), DiceGame()) == []


def test_a_broken_expectation_fails_with_what_was_found():
    failures = run_case(case(expect=[{"path": "totals.A", "equals": 5}]), DiceGame())
    assert failures == ["expect #1: totals.A: expected 5, got 4"]


def test_a_missing_event_fails_and_lists_the_events_of_that_kind():
    failures = run_case(case(expect=[{"event": "roll", "data": {"die": 6}}]), DiceGame())
    assert failures == ["expect #1: expected some roll event(s) with {'die': 6}, found 0 (roll events: A rolls 4)"]


def test_an_event_may_say_who_reads_it():
    # DiceGame's rolls are public (Event.seats None): rule D-ALL-5 cases say who may read an event.
    assert run_case(case(expect=[{"event": "roll", "seen_by": "everyone"}]), DiceGame()) == []
    assert run_case(case(expect=[{"event": "roll", "seen_by": ["A"]}]), DiceGame()) == [
        "expect #1: expected some roll event(s) with {} seen by ['A'], found 0 (roll events: A rolls 4 (seen by everyone))"
    ]


def test_event_count_and_none_and_missing_paths():
    failures = run_case(
        case(
            expect=[
                {"event": "roll", "count": 2},
                {"path": "totals.C", "equals": 0},
                {"path": "totals.A", "is_none": True},
            ]
        ),
        DiceGame(),
    )
    assert failures[0].startswith("expect #1: expected exactly 2 roll event(s)")
    assert failures[1] == "expect #2: totals.C: no such path in the resulting state"
    assert failures[2] == "expect #3: totals.A: expected None, got 4"


def test_true_is_not_one():
    failures = run_case(
        case(expect=[{"path": "totals.A", "equals": True}]),
        DiceGame(),
    )
    assert failures == ["expect #1: totals.A: expected True, got 4"]


def test_problems_must_be_expected_and_expected_problems_must_appear():
    orders = {"A": ["ROLL", "JUMP"]}
    assert run_case(case(orders=orders), DiceGame()) == ["unexpected problem for A on line 2: JUMP is not ROLL"]
    wanted = {"problem": "JUMP is not ROLL", "seat": "A", "line": 2}
    assert run_case(case(orders=orders, expect=[wanted]), DiceGame()) == []
    assert run_case(case(expect=[wanted]), DiceGame()) == [
        "expect #1: no problem 'JUMP is not ROLL' for A (problems: none)"
    ]


def test_forced_dice_must_all_be_rolled():
    assert run_case(case(dice=[4, 2]), DiceGame()) == ["1 forced dice were never rolled: [2]"]


def test_a_forced_die_out_of_range_is_reported():
    assert run_case(case(dice=[7]), DiceGame()) == [
        "resolve raised CaseError: forced die 7 is outside the roll's range 1 to 6"
    ]


def test_prestate_is_merged_and_typos_in_it_are_caught():
    good = case(prestate={"totals": {"A": 10}}, expect=[{"path": "totals.A", "equals": 14}])
    assert run_case(good, DiceGame()) == []
    bad = case(prestate={"totlas": {"A": 10}})
    assert run_case(bad, DiceGame()) == [
        'malformed case: prestate.totlas is not in the state of a new game (write "+totlas" to add it)'
    ]
    # An empty table may take new keys.
    assert run_case(case(prestate={"log": {"x": 1}}), DiceGame()) == []


def test_prestate_adds_a_key_a_new_game_lacks_where_the_case_says_so():
    """A state later in a game holds keys a new game does not (a siege, a pending trade):
    "+key" adds one, anywhere in the state; the rest of the merge stays strict."""
    added = case(
        prestate={"+siege": {"A": 2}, "totals": {"+C": 5}},
        expect=[{"path": "siege.A", "equals": 2}, {"path": "totals.C", "equals": 5}, {"path": "totals.A", "equals": 4}],
    )
    assert run_case(added, DiceGame()) == []
    replaced = case(
        prestate={"+totals": {"B": 1}},
        orders={"B": ["ROLL"]},
        expect=[{"path": "totals.B", "equals": 5}, {"path": "totals.A", "equals": 0}],
    )
    assert run_case(replaced, DiceGame()) == ["expect #2: totals.A: no such path in the resulting state"]


def test_a_crashing_mutating_or_non_json_ruleset_fails():
    assert run_case(case(), DiceGame(crash=True)) == ["resolve raised RuntimeError: boom"]
    assert run_case(case(), DiceGame(mutate=True)) == ["resolve changed the state it was given"]
    assert run_case(case(), DiceGame(tuple_state=True)) == ["the resulting state.turn holds a tuple, which is not JSON"]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"title": None}, "title is missing or not a string"),
        ({"seed": "7"}, "seed is missing or not a whole number"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"dice": "six"}, "dice must be a list of numbers"),
        ({"orders": {"A": "ROLL"}}, "orders must be a table of seat = [order lines]"),
        ({"expect": []}, "expect must be a non-empty list of [[expect]] tables"),
        ({"expect": [{"equals": 3}]}, "expect #1: give exactly one of path, event, problem, winners or over"),
        ({"expect": [{"path": "turn"}]}, "expect #1: a path needs either equals or is_none = true"),
        ({"expect": [{"problem": "x"}]}, "expect #1: a problem needs the seat that sent the order"),
        ({"expect": [{"event": "roll", "count": -1}]}, "expect #1: count must be a number, 0 or more"),
        (
            {"expect": [{"event": "roll", "seen_by": "BR"}]},
            'expect #1: seen_by belongs to an event: "everyone", or the list of seats that may see it',
        ),
        (
            {"expect": [{"path": "turn", "equals": 1, "seen_by": ["A"]}]},
            'expect #1: seen_by belongs to an event: "everyone", or the list of seats that may see it',
        ),
    ],
)
def test_malformed_cases_are_named(changes, message):
    broken = {k: v for k, v in case(**changes).items() if v is not None}
    assert f"malformed case: {message}" in run_case(broken, DiceGame())


def test_unknown_scenario_and_unknown_seat():
    assert run_case(case(scenario="moon"), DiceGame()) == ["cannot start the game: ValueError: no scenario moon"]
    assert run_case(case(orders={"Z": ["ROLL"]}), DiceGame()) == [
        "malformed case: orders are given for Z, which has no seat"
    ]


def test_load_case_text_names_the_source_and_line():
    assert load_case_text('title = "x"\n', "a.toml") == {"title": "x"}
    with pytest.raises(CaseError, match=r"^b.toml: not valid TOML: .*line 2"):
        load_case_text('title = "x"\nseed = = 3\n', "b.toml")


def test_scripted_seeds_force_only_their_purpose_and_fall_back_to_the_seed():
    seeds = ScriptedSeeds(5, 1, [3, 1])
    roll = seeds.rng("roll")
    assert [roll.randint(1, 6), roll.randint(1, 6)] == [3, 1]
    assert seeds.rng("other").random() == ScriptedSeeds(5, 1, []).rng("other").random()
    # Once the forced dice are used up, the rolls are those of an unscripted turn.
    plain = TurnSeeds(5, 1).rng("roll")
    assert [roll.randint(1, 6) for _ in range(5)] == [plain.randint(1, 6) for _ in range(5)]
    assert seeds.dice == []


def test_a_case_may_name_its_ruleset():
    assert run_case(case(ruleset="dice"), DiceGame()) == []
    assert run_case(case(ruleset="clash"), DiceGame()) == ["the case is for ruleset 'clash', not 'dice'"]


class ModalDice(DiceGame):
    """DiceGame with a game option that new_game copies into the state."""

    def game_options(self):
        return (GameOption("sides", 6, "faces on the die"),)

    def new_game(self, scenario, seats, seeds):
        return {**super().new_game(scenario, seats, seeds), "sides": scenario.get("options", {}).get("sides")}


def test_a_case_chooses_game_options_as_a_gm_would():
    chosen = case(options={"sides": 8}, expect=[{"path": "sides", "equals": 8}])
    assert run_case(chosen, ModalDice()) == []
    assert run_case(case(expect=[{"path": "sides", "is_none": True}]), ModalDice()) == []
    wrong = run_case(case(options={"faces": 8}), ModalDice())
    assert wrong == ["cannot start the game: ScenarioError: there is no option 'faces'; the options are: sides"]
    assert run_case(case(options=[8]), ModalDice()) == [
        "malformed case: options must be a table of game options, NAME = value"
    ]
