"""A number in an order written oddly (a superscript, another script's digits, a minus sign, a
number of 29 digits) gets a problem or a warning, never an exception: `"²".isdigit()` is true and
`int("²")` raises, which stopped Imperials' grammar at `PLAY ALCHEMIST 4 ²`. Every order line
of every ruleset's conformance cases is tried, each of its numbers replaced in turn, against a
game a few robot turns in."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.rulesets import installed

ROOT = Path(__file__).resolve().parents[2]
ODD = ["²", "１２", "٣", "-1", "0", "1e9", "99999999999999999999999999999", "9223372036854775808"]
NUMBER = re.compile(r"-?\d+|\d+,\d+")


def case_lines(name: str) -> list[str]:
    lines: set[str] = set()
    for path in (ROOT / "games" / name / "cases").glob("*.toml"):
        for orders in tomllib.loads(path.read_text(encoding="utf-8")).get("orders", {}).values():
            lines.update(line for line in orders if isinstance(line, str))
    return sorted(lines)


def odd_variants(line: str) -> list[str]:
    words = line.split()
    found = []
    for i, word in enumerate(words):
        if NUMBER.fullmatch(word):
            for odd in ODD:
                found.append(" ".join([*words[:i], f"{odd},{odd}" if "," in word else odd, *words[i + 1 :]]))
    return found


def played(name: str, turns: int = 4) -> tuple[dict, str]:
    ruleset = installed()[name]
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(5, 0))
    for turn in range(1, turns + 1):
        seeds = TurnSeeds(5, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        state = ruleset.resolve(state, orders, seeds).state
    return state, state["seating"][0]


@pytest.mark.parametrize("name", sorted(installed()))
def test_an_oddly_written_number_is_a_problem_never_an_exception(name):
    ruleset = installed()[name]
    state, seat = played(name)
    variants = sorted({v for line in case_lines(name) for v in odd_variants(line)})
    assert len(variants) > 50, "the cases give the test something to try"
    for variant in variants:
        orders, _ = ruleset.parse_orders([(1, variant)])  # an exception fails the test, naming nothing
        ruleset.check_orders(state, seat, orders)
        ruleset.order_warnings(state, seat, orders)
