"""A game's prize table from its settings, gm.toml and its ruleset, and what its seats earned."""

from __future__ import annotations

from collections.abc import Mapping

from gm.core import prizes
from gm.core.model import JSONObject, Outcome
from gm.core.prizes import PrizeTable
from gm.core.ruleset import Ruleset
from gm.errors import GMError
from gm.home import Home
from gm.store.records import GameRecord, SeatRecord

SECTION = "discounts"  # gm.toml: [discounts.empires] win = 3, finish = 1, knockout = 1


def house_tables(home: Home | None) -> dict[str, dict[str, int]]:
    """gm.toml's [discounts.RULESET] tables, checked: each part a whole number from 0 to 10."""
    if home is None:
        return {}
    found = home.settings().get(SECTION, {})
    where = home.settings_file
    if not isinstance(found, dict):
        raise GMError(f"{where}: {SECTION} must be tables such as [{SECTION}.empires]. Fix the file and try again.")
    for ruleset, table in found.items():
        if not isinstance(table, dict):
            raise GMError(
                f"{where}: [{SECTION}.{ruleset}] must be a table of win, finish and knockout. "
                "Fix the file and try again."
            )
        for key, value in table.items():
            if key not in prizes.PARTS:
                raise GMError(
                    f"{where}: [{SECTION}.{ruleset}] has '{key}'; it takes win, finish and "
                    "knockout. Fix the file and try again."
                )
            if type(value) is not int or not 0 <= value <= prizes.HIGHEST:
                raise GMError(
                    f"{where}: [{SECTION}.{ruleset}] {key} must be a whole number from 0 to "
                    f"{prizes.HIGHEST}, not {value!r}. Fix the file and try again."
                )
    return found


def game_table(game: GameRecord, house: Mapping[str, Mapping[str, int]]) -> PrizeTable:
    """The table of a game: its `discount-*` settings, else gm.toml's, else the ruleset's."""
    chosen = {part: game.options.get(f"discount-{part}", prizes.HOUSE) for part in prizes.PARTS}
    return prizes.table_for(game.ruleset, house.get(game.ruleset, {}), chosen)


def earned_at_end(
    ruleset: Ruleset, state: JSONObject, outcome: Outcome, seats: list[SeatRecord], table: PrizeTable
) -> dict[str, int]:
    """What each seat still playing at the end earned (drop-outs and resignations earn nothing)."""
    out = prizes.knocked_out(state, ruleset.knocked_out(state))
    playing = [s.code for s in seats if s.status == "active"]
    return prizes.earned(table, playing, outcome.winners, prizes.condition_of(state), out)
