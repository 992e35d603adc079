"""The three wins, the warning and the end at the next census (D-EMP-9..13), elimination
(D-EMP-14) and the discounts a finished game earns (D-EMP-15)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gm.core.model import JSONObject

RUNAWAY, KNOCKOUT, POINTS = "runaway", "knockout", "points"
CONDITIONS = (RUNAWAY, KNOCKOUT, POINTS)  # best first for the winner (rule D-EMP-13)
# A ruleset that opts in keeps new_record(...) under state[STATE_KEY].
STATE_KEY = "victory"
DISCOUNT = {RUNAWAY: 3, KNOCKOUT: 3, POINTS: 2}  # rule D-EMP-15
TAKING_PART = 1  # every other country that played to the end or was knocked out playing
KNOCKOUT_SHARE = Fraction(2, 5)  # 11.6: "at least 40%"


@dataclass(frozen=True)
class Standing:
    """Who leads and which win conditions hold for the leader right now.

    leader: the country strictly above every other survivor (rule D-EMP-9), or None on a tie
        at the top or with no survivors.
    top: the highest total among survivors (shown in every report, 11.3), None without survivors.
    holds: the conditions that hold for the leader, best first.
    """

    leader: str | None
    top: int | None
    holds: tuple[str, ...] = ()


def standing(vp: Mapping[str, int], survivors: Iterable[str], target: int) -> Standing:
    """Check runaway (D-EMP-10), knockout (D-EMP-11) and points (D-EMP-12) for the leader."""
    alive = sorted(survivors)
    if not alive:
        return Standing(None, None)
    ranked = sorted((vp.get(s, 0) for s in alive), reverse=True)
    top = ranked[0]
    leaders = [s for s in alive if vp.get(s, 0) == top]
    if len(leaders) > 1:
        return Standing(None, top)
    holds = []
    second = ranked[1] if len(ranked) > 1 else None
    if top > 0 and (second is None or top >= 2 * second):
        holds.append(RUNAWAY)
    total = sum(ranked)
    if total > 0 and Fraction(top) >= KNOCKOUT_SHARE * total:
        holds.append(KNOCKOUT)
    if top > target:
        holds.append(POINTS)
    return Standing(leaders[0], top, tuple(holds))


@dataclass(frozen=True)
class Verdict:
    """What the end-of-turn check decides (rule D-EMP-13).

    warning: the turn the current warning was first given, None when there is none.
    news: "warning" (given this turn), "withdrawn", "win", "no survivors" or None.
    winner, condition: set when the game ends with a win.
    """

    warning: int | None
    news: str | None = None
    winner: str | None = None
    condition: str | None = None

    @property
    def over(self) -> bool:
        return self.news in ("win", "no survivors")


def judge(warning: int | None, turn: int, census_turn: bool, now: Standing) -> Verdict:
    """The end-of-turn decision, after this turn's VP changes and eliminations.

    warning: the turn the standing warning was given (None if none); census_turn: whether the
    turn being ended is a census turn.
    """
    if now.top is None:  # every country is out: nobody is left to win
        return Verdict(warning, "no survivors")
    if warning is not None and census_turn and turn > warning:
        if now.holds:
            return Verdict(warning, "win", now.leader, now.holds[0])
        return Verdict(None, "withdrawn")
    if warning is None and now.holds:
        return Verdict(turn, "warning")
    return Verdict(warning)


def is_eliminated(land_areas: int, bps: int, income: int) -> bool:
    """11.1 and rule D-EMP-14: no land areas, or no BPs and no income at the end of the turn."""
    return land_areas == 0 or (bps <= 0 and income <= 0)


def earned_discounts(seats: Iterable[str], winner: str | None, condition: str | None) -> dict[str, int]:
    """Bonus turns each country earned by the result (rule D-EMP-15), before drop-outs and the
    cap of 10, which the books apply: the winner 3 or 2, every other country 1."""
    return {seat: DISCOUNT[condition] if seat == winner and condition in DISCOUNT else TAKING_PART for seat in seats}


def new_record(target: int) -> JSONObject:
    """What a ruleset keeps under state[STATE_KEY]: the points target (set at creation, rule
    D-EMP-12), the standing warning, eliminations (seat -> turn), and the result once over."""
    return {"target": target, "warning": None, "eliminated": {}, "winner": None, "condition": None, "discounts": {}}


def still_playing(state: Mapping[str, Any], seat: str) -> bool:
    """False once the toolkit has recorded the seat's country as eliminated."""
    record = state.get(STATE_KEY) if isinstance(state, Mapping) else None
    return not (isinstance(record, Mapping) and seat in record.get("eliminated", {}))


def earned(state: Mapping[str, Any]) -> dict[str, int]:
    """The discounts a finished game's state records per seat; empty for games without them."""
    record = state.get(STATE_KEY) if isinstance(state, Mapping) else None
    found = record.get("discounts", {}) if isinstance(record, Mapping) else {}
    return {str(k): int(v) for k, v in found.items()} if isinstance(found, Mapping) else {}
