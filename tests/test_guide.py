"""docs/writing-a-ruleset.md holds to the contract, as datasette's test_docs holds every hook
documented with its signature: every member of gm.core.ruleset's Ruleset, required and optional,
is in the guide, a method as it is called (its parameters by name, in order), and every
fixture of gm's pytest plug-in is named there."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from gm.core.ruleset import OPTIONAL, REQUIRED, Ruleset
from gm.testing import pytest_plugin

GUIDE = (Path(__file__).resolve().parents[1] / "docs" / "writing-a-ruleset.md").read_text(encoding="utf-8")


def spelled(name: str) -> str | None:
    """The member as the guide must write it: `name(a, b)` for a method, None for an attribute."""
    member = inspect.getattr_static(Ruleset, name)
    if isinstance(member, property):
        return None
    parameters = list(inspect.signature(member).parameters)[1:]
    return f"{name}({', '.join(parameters)})"


@pytest.mark.parametrize("name", REQUIRED + OPTIONAL)
def test_every_member_of_the_contract_is_in_the_guide_with_its_signature(name):
    call = spelled(name)
    if call is None:
        assert re.search(rf"`{name}`|^    {name} = ", GUIDE, re.MULTILINE), (
            f"the guide never names the attribute {name}"
        )
    else:
        written = re.findall(rf"\b{name}\(([^)]*)\)", GUIDE)
        assert written, f"the guide never shows {call}"
        assert call in GUIDE or f"def {name}(self, {call[len(name) + 1 :]}" in GUIDE, (
            f"the guide writes {name}({written[0]}), the contract {call}"
        )


def test_every_optional_member_has_its_default_in_the_guide():
    table = GUIDE[GUIDE.index("### Optional members and their defaults") :]
    table = table[: table.index("\n\n", table.index("| member"))]
    for name in OPTIONAL:
        row = rf"^\| [^|]*`{name}[`(]"
        assert re.search(row, table, re.MULTILINE), f"{name} has no row in the guide's table of defaults"


def test_every_fixture_of_the_pytest_plugin_is_in_the_guide():
    fixtures = [name for name in vars(pytest_plugin) if name.startswith("gm_")]
    assert fixtures == ["gm_contract", "gm_case", "gm_golden", "gm_report_html"]
    assert all(f"`{name}`" in GUIDE or f"{name}(" in GUIDE for name in fixtures)


def test_the_guide_test_can_fail():
    assert spelled("resolve") == "resolve(state, orders, seeds)"
    assert spelled("name") is None
    assert "resolve(state, orders_by_seat, seeds)" not in GUIDE
