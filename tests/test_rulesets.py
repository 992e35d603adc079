"""The door of gm/rulesets.py: every ruleset gm uses is behind it, a ruleset's exception comes
out as a RulesetFault naming ruleset, method and game; BaseRuleset's defaults; a plug-in that
lacks a member, or whose templates are no package, is broken before any game of it runs."""

from __future__ import annotations

from random import Random
from types import SimpleNamespace

import pytest

from gm import rulesets
from gm.core.model import SeatInfo
from gm.core.ruleset import OPTIONAL, REQUIRED, BaseRuleset, Ruleset, ScenarioError, TurnSeeds
from gm.errors import GMError
from gm.packaged import PackagedRuleset, Parts
from gm.rulesets import Guarded, RulesetFault
from gm.services import games
from gm.store import records
from gm.store.database import open_database
from tests.faulty_plugin import faulty, faulty_without_templates_init  # noqa: F401 (fixtures)


def test_every_installed_ruleset_is_behind_the_door_which_has_every_member_of_the_contract():
    assert rulesets.installed() and all(isinstance(r, Guarded) for r in rulesets.installed().values())
    assert isinstance(rulesets.get_ruleset("clash"), Guarded)
    # A member added to the contract (gm.core.ruleset) and not to the door fails here.
    assert isinstance(rulesets.get_ruleset("clash"), Ruleset)
    assert all(hasattr(Guarded, member) for member in REQUIRED + OPTIONAL)


def test_a_ruleset_that_raises_gives_a_fault_naming_ruleset_method_game_and_line(faulty):
    ruleset = rulesets.get_ruleset("faulty")
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    state = ruleset.new_game(scenario, [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(1, 0))
    faulty.FAULTS.add("resolve")
    with pytest.raises(RulesetFault) as raised:
        ruleset.for_game("g1").resolve(state, {}, TurnSeeds(1, 1))
    fault = raised.value
    assert isinstance(fault, GMError)
    assert (fault.ruleset, fault.version, fault.method, fault.game) == ("faulty", "0.1", "resolve", "g1")
    assert str(fault) == (
        "the faulty ruleset (0.1) failed in resolve for game 'g1': ZeroDivisionError: division by zero "
        "(faulty_game/__init__.py line 10). This is a bug in the ruleset, not in the game: give this message to "
        "the ruleset's author and install a fixed version."
    )
    faulty.FAULTS.add("robot_orders")
    with pytest.raises(RulesetFault, match="failed in robot_orders: ZeroDivisionError"):
        ruleset.robot_orders(state, "BR", Random(1))  # no game: the fault names none


def test_a_scenario_error_passes_the_door_where_the_contract_allows_it():
    clash = rulesets.get_ruleset("clash").for_game("g1")
    with pytest.raises(ScenarioError):
        clash.load_scenario("not = [toml", "broken.toml")
    scenario = clash.load_scenario(clash.scenario_text("europe"), "europe")
    with pytest.raises(ScenarioError):  # too few seats: gm says the game cannot start yet
        clash.new_game(scenario, [SeatInfo("BR", "Ann")], TurnSeeds(1, 0))


class Minimal(BaseRuleset):
    """Only the required members; BaseRuleset gives the rest."""

    name, version, title = "minimal", "1", "Minimal"


def test_the_base_gives_every_optional_member_its_default():
    ruleset, scenario = Minimal(), {"seats": [{"code": "A"}, {"code": "B"}], "min_seats": 2, "max_seats": 2}
    assert all(hasattr(ruleset, member) for member in OPTIONAL)
    assert (ruleset.templates_package, ruleset.cases_package, ruleset.demo_seats) == (None, None, 4)
    assert ruleset.game_options() == ()
    assert (ruleset.seat_codes(scenario), ruleset.seat_limits(scenario)) == (["A", "B"], (2, 2))
    assert ruleset.order_warnings({}, "A", []) == [] and ruleset.knocked_out({}) == []
    assert ruleset.score_label({}) == ("Score", "Score")
    assert ruleset.hidden_variant({}, "A", Random(1)) is None


def packaged(offline: object) -> PackagedRuleset:
    class Packaged(PackagedRuleset):
        name, version, title = "packaged", "1", "Packaged"
        parts = Parts(scenario=None, rules=None, orders=None, robot=None, view=None, offline=offline)

    return Packaged()


def test_a_packaged_ruleset_gives_the_players_own_check_its_offline_part_or_the_defaults():
    offline = SimpleNamespace(
        check_by_view=lambda view, seat, orders: [f"problem of {seat}"],
        warnings_by_view=lambda view, seat, orders: [f"warning of {seat}"],
        order_grammar=lambda view, seat: f"grammar of {seat}",
    )
    ruleset = packaged(offline)
    assert ruleset.check_by_view({}, "A", []) == ["problem of A"]
    assert ruleset.warnings_by_view({}, "A", []) == ["warning of A"]
    assert ruleset.order_grammar({}, "A") == "grammar of A"
    bare = packaged(None)
    assert (bare.check_by_view({}, "A", []), bare.warnings_by_view({}, "A", []), bare.order_grammar({}, "A")) == (
        [],
        [],
        None,
    )


class Entry:
    def __init__(self, name: str, loaded: object):
        self.name, self.value, self._loaded = name, f"{name}_game:ruleset", loaded

    def load(self) -> object:
        return self._loaded


def test_a_plugin_without_an_optional_member_is_broken_and_says_what_gives_it():
    bare = SimpleNamespace(**{member: "x" for member in REQUIRED if member not in ("name",)}, name="bare")
    found = rulesets.load_entry_points([Entry("bare", bare)])
    assert found.rulesets == {}
    assert found.broken["bare"] == (
        "bare_game:ruleset is not a ruleset: it has no " + ", ".join(OPTIONAL) + " (a subclass of "
        "gm.packaged.PackagedRuleset or gm.core.ruleset.BaseRuleset has every optional member)"
    )


def test_a_plugin_whose_templates_are_no_package_is_broken_and_no_game_of_it_starts(
    faulty_without_templates_init, gm, home
):
    ran = gm("rules", "list")
    assert ran.code == 0 and "faulty" not in ran.out
    assert (
        "faulty     BROKEN  faulty_game:ruleset: its templates_package faulty_game.templates is not a "
        "package (a folder without __init__.py): add an empty faulty_game/templates/__init__.py and "
        "ship it with the templates\n"
    ) in ran.err
    ran = gm("game", "new", "f1", "--ruleset", "faulty", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: ruleset 'faulty' is installed but broken: ")
    assert gm("game", "list", home=home).out.startswith("No games yet")


def test_a_game_whose_plugin_lost_its_templates_package_runs_no_turn(tmp_path, monkeypatch, gm, home):
    """A game made while the plug-in was whole: once its templates are no package, no turn of it
    commits (it could not be published)."""
    from tests import faulty_plugin

    faulty_plugin.install(tmp_path / "site", monkeypatch)
    try:
        assert gm("game", "new", "f1", "--ruleset", "faulty", "--robots", "2", home=home).code == 0
        (tmp_path / "site" / "faulty_game" / "templates" / "__init__.py").unlink()
        faulty_plugin._uninstall()
        ran = gm("turn", "run", "f1", home=home)
        assert ran.code == 1 and "ruleset 'faulty' is installed but broken" in ran.err
        assert (
            records.turns_of(
                open_database(home / "gm.db"), records.game_by_name(open_database(home / "gm.db"), "f1").id
            )
            == []
        )
    finally:
        faulty_plugin._uninstall()


def test_a_fault_in_a_game_names_the_game(faulty, gm, home):
    assert gm("game", "new", "f1", "--ruleset", "faulty", "--robots", "2", home=home).code == 0
    game = records.game_by_name(open_database(home / "gm.db"), "f1")
    ruleset, _ = games.game_ruleset(game)
    faulty.FAULTS.add("view")
    with pytest.raises(RulesetFault) as raised:
        ruleset.view({}, "BR")
    assert raised.value.game == "f1" and raised.value.method == "view"
