"""The score table every report shows: the turn reports, the final standings, the end-of-game report."""

from __future__ import annotations

from typing import Any

from gm.core.model import JSONObject
from gm.core.ruleset import Ruleset
from gm.store.records import SeatRecord


def seat_nations(view: JSONObject) -> dict[str | None, Any]:
    """Each seat's nation as the view names it ("" where the ruleset names none), by the code the
    view gives the seat (None where it gives none)."""
    return {s.get("code"): s.get("nation", "") for s in view.get("seats", []) if isinstance(s, dict)}


def score_rows(ruleset: Ruleset, state: JSONObject, view: JSONObject, seats: list[SeatRecord]) -> list[dict[str, Any]]:
    """One row per seat (seat, name, nation, score), highest score first, ties in seat order."""
    scores = ruleset.scores(state)
    nation = seat_nations(view)
    rows = [
        {"seat": s.code, "name": s.name, "nation": nation.get(s.code, ""), "score": scores.get(s.code, 0)}
        for s in seats
    ]
    return sorted(rows, key=lambda r: (-r["score"], r["seat"]))
