"""Census turns (rule D-EMP-8): the hidden schedule drawn at game creation, and census scoring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random

from gm.core.model import JSONObject
from gm.core.seeds import rng_for
from gm.core.vp import VPChange

# A ruleset that opts into the census keeps the schedule in state[STATE_KEY]["turns"]. Views
# never copy it, and `gm game show` strips it unless the GM asks with --gm-secrets.
STATE_KEY = "census"
PURPOSE = "census"
FIRST = (3, 4, 5)  # 11.3: "the first will be turn three, four or five"
GAP = (3, 4, 5)  # "each subsequent census turn will be three, four or five turns after"
HORIZON = 200  # turns drawn at creation; a longer game extends the list the same way


def draw_schedule(game_seed: int, horizon: int = HORIZON) -> list[int]:
    """The census turns up to `horizon`, from the game seed alone (purpose "census" of turn 0)."""
    return extend_schedule([], game_seed, horizon)


def extend_schedule(turns: list[int], game_seed: int, through: int) -> list[int]:
    """The schedule continued until it passes `through`; turns already drawn never move.

    A continuation draws from the generator of (game seed, last census turn), so it is as
    reproducible as the first draw (rule D-ALL-1).
    """
    out = list(turns)
    rng: Random = rng_for(game_seed, out[-1] if out else 0, PURPOSE)
    while not out or out[-1] <= through:
        out.append(rng.choice(GAP) + out[-1] if out else rng.choice(FIRST))
    return out


def kept_ahead(census: Mapping[str, list[int]], game_seed: int, turn: int) -> Mapping[str, list[int]]:
    """The schedule with a census still to come after `turn`: a game that reaches the last turn
    drawn gets its next census 3, 4 or 5 turns after the last one (11.3), drawn from the game
    seed (extend_schedule). Before that the very same schedule comes back, unchanged."""
    turns = list(census.get("turns", ()))
    if turns and turns[-1] > turn:
        return census
    return dict(census, turns=extend_schedule(turns, game_seed, turn))


def new_census(game_seed: int, horizon: int = HORIZON) -> dict[str, list[int]]:
    """What a ruleset stores under state[STATE_KEY] at creation."""
    return {"turns": draw_schedule(game_seed, horizon)}


def is_census(census: Mapping[str, list[int]], turn: int) -> bool:
    return turn in census.get("turns", ())


def next_census(census: Mapping[str, list[int]], after: int) -> int | None:
    """The first census turn strictly after `after`, or None past the drawn schedule."""
    return next((t for t in census.get("turns", ()) if t > after), None)


def held_censuses(census: Mapping[str, list[int]], through: int) -> list[int]:
    """The census turns that have happened by the end of turn `through` (public knowledge)."""
    return [t for t in census.get("turns", ()) if t <= through]


def census_points(populated_areas: Mapping[str, int], survivors: Iterable[str]) -> list[VPChange]:
    """1 VP per owned land area with population, for every surviving country (rule D-EMP-8).

    populated_areas: country -> number of owned land areas whose population is above 0.
    """
    changes = []
    for seat in survivors:
        count = populated_areas.get(seat, 0)
        if count:
            areas = "area" if count == 1 else "areas"
            changes.append(VPChange(seat, count, "census", f"{count} populated land {areas}"))
    return changes


def without_schedule(state: object) -> object:
    """The state with the census schedule left out (what `gm game show` prints by default)."""
    if not isinstance(state, Mapping) or STATE_KEY not in state:
        return state
    return {key: value for key, value in state.items() if key != STATE_KEY}


def gm_census(state: object, last_resolved: int | None) -> JSONObject | None:
    """The schedule for the GM: every census turn drawn, those held, and the next one."""
    if not isinstance(state, Mapping) or not isinstance(state.get(STATE_KEY), Mapping):
        return None
    schedule = state[STATE_KEY]
    done = last_resolved or 0
    return {
        "turns": list(schedule.get("turns", [])),
        "held": held_censuses(schedule, done),
        "next": next_census(schedule, done),
    }
