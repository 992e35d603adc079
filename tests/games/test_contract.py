"""The ruleset contract, held for every installed ruleset by the suite gm ships
(gm.testing.suite, which `gm rules test --contract NAME` and the pytest plug-in run too): one
source, so a plug-in's author and gm's own tests run the same checks. A new ruleset gets them
free. docs/writing-a-ruleset.md describes the contract.
"""

from __future__ import annotations

import pytest

from gm.rulesets import installed
from gm.testing.suite import Check, checks

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
        assert any(n.startswith("case ") for n in listed) and any(n.startswith("a robot game ends") for n in listed)
