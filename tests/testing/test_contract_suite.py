"""The contract suite as gm ships it (gm.testing.suite): `gm rules test --contract NAME` on an
installed plug-in, and the pytest plug-in a plug-in's own tests use. Each passes on a plug-in
that keeps the contract and names what broke in one that does not."""

from __future__ import annotations

import shutil

import pytest

from gm.core.model import Event
from gm.testing.suite import Breach, check_events
from tests.hilltop_plugin import TEMPLATE, hilltop  # noqa: F401 (a fixture)

pytest_plugins = ["pytester"]


def plant_faults(plugin, monkeypatch) -> None:
    """resolve changes the state it is given; a module of the package opens a database; the
    report template reads what the view does not have."""
    resolve = plugin.rules.resolve

    def careless(state, orders, seeds):
        result = resolve(state, orders, seeds)
        state["looked"] = True
        return result

    monkeypatch.setattr(plugin.rules, "resolve", careless)
    folder = plugin.__path__[0]
    with open(f"{folder}/ledger.py", "w") as out:
        out.write("import sqlite3\n")
    with open(f"{folder}/templates/hilltop_report.html", "a") as out:
        out.write("{{ view.you.hills.nothing.here }}\n")


def test_gm_rules_test_contract_passes_on_a_plugin_that_keeps_the_contract(gm, hilltop):  # noqa: F811
    ran = gm("rules", "test", "--contract", "hilltop", "--games", "2")
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert lines[-1] == f"{len(lines) - 1} passed, 0 failed"
    shown = [line.split(" (")[0] for line in lines[:-1]]
    assert "ok     case battle-won.toml" in shown
    assert "ok     the package imports nothing impure" in shown
    assert "ok     every report renders and holds no secret" in shown
    assert "ok     the battery: 2 robot games keep every invariant" in shown
    assert ran.err == ""


def test_gm_rules_test_contract_names_every_breach_and_exits_1(gm, hilltop, monkeypatch):  # noqa: F811
    plant_faults(hilltop, monkeypatch)
    ran = gm("rules", "test", "--contract", "hilltop", "--games", "0")
    assert ran.code == 1
    assert "hilltop: resolve is deterministic and leaves its input alone: turn 1: resolve changed its input" in ran.err
    assert "hilltop: the package imports nothing impure: hilltop: ledger.py:1: imports sqlite3" in ran.err
    assert (
        "hilltop: every report renders and holds no secret: raised UndefinedError: 'list object' has no attribute 'nothing' (hilltop/templates/hilltop_report.html line 24)"
        in ran.err
    )
    assert "FAILED resolve is deterministic and leaves its input alone" in ran.out
    assert ran.out.splitlines()[-1].endswith(" passed, 4 failed")  # and the robot game, whose turns it spoils


def test_gm_rules_test_contract_refuses_what_it_cannot_run(gm, hilltop):  # noqa: F811
    unknown = gm("rules", "test", "--contract", "nosuch")
    assert unknown.code == 1 and unknown.err.startswith("Error: unknown ruleset 'nosuch'. Installed rulesets:")
    both = gm("rules", "test", "--contract", "hilltop", "some-case.toml")
    assert both.code == 2 and "give case FILES or --contract RULESET, not both" in both.err


def test_pytest_loads_gms_plugin_through_its_entry_point(request):
    plugin = request.config.pluginmanager.get_plugin("gm.testing")
    assert plugin is not None and plugin.__name__ == "gm.testing.pytest_plugin"


def test_a_plugins_own_tests_get_the_suite_cases_and_goldens_from_the_pytest_plugin(
    pytester,
    hilltop,  # noqa: F811
    monkeypatch,
):
    shutil.copytree(TEMPLATE / "tests", pytester.path / "tests")
    passed = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:xdist", "tests")
    passed.assert_outcomes(passed=3)
    (pytester.path / "tests" / "golden" / "view_RA_start.json").write_text("{}\n")
    plant_faults(hilltop, monkeypatch)
    failed = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:xdist", "tests")
    failed.assert_outcomes(failed=3)  # the contract, the case (resolve changed its state), the golden
    failed.stdout.fnmatch_lines(
        [
            "*breach(es) of the ruleset contract:",
            "hilltop: resolve is deterministic and leaves its input alone: turn 1: resolve changed its input",
            "hilltop: every report renders and holds no secret: raised UndefinedError:*(hilltop/templates/hilltop_report.html line 24)",
            "*view_RA_start.json differs from its golden*",
        ],
        consecutive=False,
    )


def test_a_battle_without_the_numbers_the_report_draws_is_a_breach():
    """The shared page draws a battle's sides, troops and losses beside its text (a plug-in's
    battle without them stopped its report from rendering on the first battle)."""
    drawn = {"attacker": "RA", "defender": "WO", "from": "N", "to": "S", "attacking": 4, "defending": 3}
    whole = {**drawn, "attacker_losses": 1, "defender_losses": 3, "captured": True, "text": "RA take S."}
    check_events((Event("battle", whole), Event("roll", {"die": 3, "text": "A 3."})), 1)
    with pytest.raises(Breach, match="turn 2: a battle event lacks attacker_losses, defender_losses, captured"):
        check_events((Event("battle", {**drawn, "text": "RA attack S."}),), 2)
    with pytest.raises(Breach, match="turn 3: a move event has no text"):
        check_events((Event("move", {"from": "N"}),), 3)
