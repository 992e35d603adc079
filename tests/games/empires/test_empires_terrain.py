"""Jungle, the one terrain of the rulebook on neither packaged map, at GROW and in battle."""

from __future__ import annotations

from gm_games.empires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds


def jungle_duchies() -> dict:
    """The duchies' map with Darkwood (WOD, Carn's, 2 people, 1 army) as jungle."""
    text = ruleset.scenario_text("duchies")
    assert text.count('terrain = "forests"') == 1  # Darkwood is the map's only forest
    scenario = ruleset.load_scenario(text.replace('terrain = "forests"', 'terrain = "jungle"'), "duchies")
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in ("AL", "BR", "CA")], TurnSeeds(3, 0))
    state["countries"]["CA"]["bps"] = 6
    return state


def test_jungle_grows_for_four_more_and_defends_with_one_more():
    # DECISIONS.md: GROW costs "the current population plus a terrain extra (... 4 jungle ...)";
    # D-EMP-5: the terrain bonus is "1 forests, wetlands, jungle, deserts, tundra".
    state = jungle_duchies()
    orders = {
        "BR": ruleset.parse_orders([(1, "1 ATTACK PLN WOD 1")])[0],
        "CA": ruleset.parse_orders([(1, "2 GROW WOD")])[0],
    }
    events = ruleset.resolve(state, orders, TurnSeeds(3, 1)).events
    battle = next(e.data for e in events if e.kind == "battle")
    assert (battle["to"], battle["terrain"], battle["defending"], battle["captured"]) == ("WOD", 1, 4, False)
    grow = next(e.data for e in events if e.kind == "grow")
    assert (grow["area"], grow["population"], grow["cost"]) == ("WOD", 3, 6)  # 2 people + 4, all 6 BPs
    assert not [e for e in events if e.kind == "order_failed"]
