"""Forms whose examples are true for their reader (issue 30). Every example an order form offers
(a piece of a comment line that reads as an order: gm.testing.suite.form_examples), copied
alone into a turn file of the seat's as a player would, passes the GM's own check, for every
ruleset and each choice of its options, at several turns of seeded robot games, for every seat.
The contract suite checks the same on every turn of its robot games to the end."""

from __future__ import annotations

import pytest

from gm.core.ruleset import Ruleset, TurnSeeds
from gm.rulesets import installed
from gm.testing.suite import (
    Breach,
    HiddenCheck,
    check_order_form,
    example_problems,
    form_examples,
    label,
    new_game,
    robot_orders,
    scenario_of,
    variants,
)

TURNS = 9  # the set-up and the first rounds of every ruleset, and a few more
GAMES = [(name, chosen) for name in sorted(installed()) for chosen in variants(installed()[name])]


def looked_at(ruleset: Ruleset, chosen: dict) -> tuple[int, list[str]]:
    """How many examples the forms of two seeded robot games' first TURNS turns offered, one
    at the fewest and one at the most seats, every seat, and each that fails the check, with why."""
    scenario = scenario_of(ruleset, ruleset.default_scenario(), chosen)
    count, wrong = 0, []
    for seats, seed in zip(ruleset.seat_limits(scenario), (7, 20261127)):
        state, codes = new_game(ruleset, scenario, seats, seed)
        for turn in range(1, TURNS + 1):
            if ruleset.is_over(state):
                break
            for seat in codes:
                lines = ruleset.order_form(state, seat)
                count += len(form_examples(ruleset, lines))
                said = example_problems(ruleset, state, seat, turn, lines)
                wrong += [f"turn {turn}, {seat}: {example}: {message}" for example, message in said]
            orders = robot_orders(ruleset, state, codes, seed, turn)
            state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
    return count, wrong


@pytest.mark.parametrize(("name", "chosen"), GAMES, ids=[f"{n}-{label(c)}" for n, c in GAMES])
def test_every_example_in_every_form_passes_the_gms_check_as_copied(name, chosen):
    count, wrong = looked_at(installed()[name], chosen)
    assert wrong == []
    assert count > 0  # every ruleset's form offers examples: the check had something to check


def imperials_round() -> tuple[Ruleset, dict, list[str]]:
    ruleset = installed()["imperials"]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, 4, 7)
    for turn in (1, 2, 3):
        state = ruleset.resolve(state, robot_orders(ruleset, state, codes, 7, turn), TurnSeeds(7, turn)).state
    return ruleset, state, codes


def test_the_check_finds_the_examples_the_issue_found_false():
    """The form main printed, `#   ROAD 12-13   VILLAGE 12 ...` and `PLAY WARRIOR H BLUE` to
    Blue: each is an example (it reads as an order), and the GM's check refutes it."""
    ruleset, state, _ = imperials_round()
    lines = [
        "# Actions, run in the order written:",
        "#   ROAD 12-13   VILLAGE 12   TOWN 12",
        "#   BUY   PLAY WARRIOR H BLUE",
    ]
    assert form_examples(ruleset, lines) == ["ROAD 12-13", "VILLAGE 12", "TOWN 12", "BUY", "PLAY WARRIOR H BLUE"]
    wrong = dict(example_problems(ruleset, state, "BLUE", 4, lines))
    assert wrong["ROAD 12-13"] == "12-13 is not an edge of this island: name an edge by the two vertices at its ends"
    assert wrong["PLAY WARRIOR H BLUE"] in ("you hold no Warrior card", "you cannot name yourself")
    assert "BUY" not in wrong
    with pytest.raises(Breach, match="an example in BLUE's order form fails the GM's check"):
        check_order_form(Planted(ruleset, lines), state, "BLUE", 4)


class Planted:
    """A ruleset whose order form is given: the suite's checks judge it as they would the real one's."""

    def __init__(self, ruleset: Ruleset, form: list[str]) -> None:
        self.ruleset, self.form = ruleset, form

    def __getattr__(self, name: str) -> object:
        return getattr(self.ruleset, name)

    def order_form(self, state: dict, seat: str) -> list[str]:
        return self.ruleset.order_form(state, seat) + self.form


def test_an_order_form_that_tells_another_seats_secret_breaks_the_contract():
    """D-ALL-5: examples are drawn from the state, so the suite holds the forms, as the views,
    to what each seat may know (a form that counts another seat's hand fails it)."""
    ruleset, state, codes = imperials_round()
    HiddenCheck(ruleset).check(state, codes, 4)  # the forms gm ships keep the secrets

    class Telling(Planted):
        def order_form(self, state: dict, seat: str) -> list[str]:
            other = codes[(codes.index(seat) + 1) % len(codes)]
            return self.ruleset.order_form(state, seat) + [f"# {other} holds {state['seats'][other]['hand']}"]

    with pytest.raises(Breach, match="what only .* may know shows in .*'s order form"):
        HiddenCheck(Telling(ruleset, [])).check(state, codes, 4)
