"""The ruleset contract, held for every installed ruleset by the suite gm ships
(gm.testing.suite, which `gm rules test --contract NAME` and the pytest plug-in run too): one
source, so a plug-in's author and gm's own tests run the same checks. A new ruleset gets them
free. docs/writing-a-ruleset.md describes the contract.
"""

from __future__ import annotations

import pytest

from gm.rulesets import installed
from gm.testing.suite import Check, checks, failed_orders_stay_private

NAMES = sorted(installed())
# The suite's battery games are left to tests/testing/test_battery.py, which plays more of them.
CHECKS = [check for name in NAMES for check in checks(installed()[name], battery_games=0)]


@pytest.mark.parametrize("check", [c for c in CHECKS if not c.slow], ids=str)
def test_the_contract_holds(check: Check):
    check.assert_holds()


@pytest.mark.slow
@pytest.mark.parametrize("check", [c for c in CHECKS if c.slow], ids=str)
def test_robot_games_hold_the_contract_to_the_end(check: Check):
    check.assert_holds()


def test_the_suite_covers_every_installed_ruleset_and_all_it_ships():
    named = {check.ruleset for check in CHECKS}
    assert named == set(NAMES)
    for name in NAMES:
        listed = [check.name for check in CHECKS if check.ruleset == name]
        assert "the package imports nothing impure" in listed and "every report renders and holds no secret" in listed
        assert "a failed order is told to its own seat alone" in listed
        assert any(n.startswith("case ") for n in listed) and any(n.startswith("a robot game ends") for n in listed)


@pytest.mark.parametrize("name", ["clash", "conqueror", "empires", "imperials", "mcempires"])
def test_gm_s_games_give_the_failed_order_check_something_to_look_at(name):
    """Each of gm's own games fails some of a neighbour's robot orders, so the suite's D-ALL-5
    check of failed orders proves something for it (Minecraft EMPIRES' 16 robots give no order but
    CAPITAL and LAND in their first 8 rounds, so this plays 20)."""
    assert failed_orders_stay_private(installed()[name], turns=20) > 0
