"""gm game new --option, gm demo --mode, gm rules list: a ruleset's game options end to end,
and a broken plug-in ruleset that is reported instead of stopping gm."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from gm_games.clash import ClashRuleset

from gm import rulesets
from gm.core.ruleset import GameOption
from gm.services import games
from gm.store import records
from gm.store.database import open_database


class ModalClash(ClashRuleset):
    """Clash with two options, as a plug-in with modes would offer them."""

    name = "modal"
    options = (
        GameOption("mode", "basic", "which rules", ("basic", "fancy")),
        GameOption("round-limit", 30, "rounds before the game ends"),
    )


class Entry:
    """An entry point as importlib.metadata gives it, loading what the test says."""

    def __init__(self, name, value, load):
        self.name, self.value, self._load = name, value, load

    def load(self):
        return self._load()


def _raises():
    raise ImportError("No module named 'shiny'")


@pytest.fixture
def plugins(monkeypatch):
    real = rulesets.found()
    extra = rulesets.load_entry_points(
        [
            Entry("modal", "tests:modal", ModalClash),
            Entry("shiny", "shiny_game:ruleset", _raises),
            Entry("husk", "husk:ruleset", lambda: SimpleNamespace(name="husk", version="1")),
        ]
    )
    merged = rulesets.Found({**real.rulesets, **extra.rulesets}, {**real.broken, **extra.broken})
    monkeypatch.setattr(rulesets, "found", lambda: merged)
    return merged


def test_options_are_chosen_stored_and_reach_the_ruleset(home, gm, plugins):
    ran = gm("game", "new", "m1", "--ruleset", "modal", "--option", "mode=Fancy", "-o", "round-limit=12", home=home)
    assert ran.code == 0, ran.err
    assert "Options: mode=fancy, round-limit=12" in ran.out
    game = records.game_by_name(open_database(home / "gm.db"), "m1")
    assert game.options == {"rules": {"mode": "fancy", "round-limit": 12}}
    _, scenario = games.game_ruleset(game)
    assert scenario["options"] == {"mode": "fancy", "round-limit": 12}


def test_options_left_out_take_their_defaults(home, gm, plugins):
    assert gm("game", "new", "m2", "--ruleset", "modal", home=home).code == 0
    game = records.game_by_name(open_database(home / "gm.db"), "m2")
    assert games.game_ruleset(game)[1]["options"] == {"mode": "basic", "round-limit": 30}


@pytest.mark.parametrize(
    "words, error",
    [
        (
            ["--option", "mode=expert"],
            "Error: option mode is one of basic, fancy, not 'expert' (modal; see 'gm rules list').\n",
        ),
        (
            ["--option", "colour=red"],
            "Error: there is no option 'colour'; the options are: mode, round-limit (modal; see 'gm rules list').\n",
        ),
        (["--option", "mode"], "Error: --option takes NAME=VALUE, for example --option mode=wonders, not 'mode'.\n"),
    ],
)
def test_a_wrong_option_is_refused_and_nothing_is_created(home, gm, plugins, words, error):
    ran = gm("game", "new", "m3", "--ruleset", "modal", *words, home=home)
    assert (ran.code, ran.err) == (1, error)
    assert gm("game", "list", home=home).out.startswith("No games yet")


def test_a_ruleset_without_options_refuses_any(home, gm):
    ran = gm("game", "new", "c1", "--ruleset", "clash", "--option", "mode=x", home=home)
    assert ran.err == "Error: there is no option 'mode'; the options are: none (clash; see 'gm rules list').\n"


def test_demo_mode_is_short_for_the_mode_option(tmp_path, gm, plugins):
    ran = gm("demo", "--home", str(tmp_path / "d"), "--ruleset", "modal", "--mode", "fancy", "--turns", "1")
    assert ran.code == 0, ran.err
    game = records.game_by_name(open_database(tmp_path / "d" / "gm.db"), "modal-demo")
    assert game.options["rules"]["mode"] == "fancy"
    audit = (
        open_database(tmp_path / "d" / "gm.db")
        .execute("SELECT detail FROM audit WHERE action = 'game new'")
        .fetchone()[0]
    )
    assert json.loads(audit)["options"] == {"mode": "fancy", "round-limit": 30}


def test_rules_list_shows_options_and_broken_plugins(gm, plugins):
    ran = gm("rules", "list")
    assert ran.code == 0
    assert "  --option mode=basic | fancy (default basic): which rules" in ran.out
    assert "  --option round-limit=N (default 30): rounds before the game ends" in ran.out
    assert "shiny      BROKEN  shiny_game:ruleset cannot be loaded: ImportError: No module named 'shiny'" in ran.err
    assert "husk       BROKEN  husk:ruleset is not a ruleset: it has no title, scenario_names" in ran.err
    assert ran.out.startswith("clash")


def test_a_broken_plugin_stops_only_its_own_games(home, gm, plugins):
    ran = gm("game", "new", "s1", "--ruleset", "shiny", home=home)
    assert ran.code == 1
    assert ran.err.startswith("Error: ruleset 'shiny' is installed but broken: shiny_game:ruleset cannot be loaded")
    assert gm("game", "new", "c1", "--ruleset", "clash", home=home).code == 0
