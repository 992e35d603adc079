"""Victory points with reasons: every change in a turn is a VPChange, so a report can say why."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# The reasons chapter 11 names; "defence" is the defender's loss in a failed attack (11.5).
REASONS = ("census", "capture", "loss", "failed attack", "defence", "adjustment")


@dataclass(frozen=True)
class VPChange:
    """One change of a country's victory points.

    seat: the country's seat code.
    points: the change, negative for a loss (totals may go negative, rule D-EMP-7).
    reason: one of REASONS.
    note: what happened, in a few words ("captured Kent (KEN) with 3 population").
    """

    seat: str
    points: int
    reason: str
    note: str = ""

    def to_json(self) -> dict[str, str | int]:
        return {"seat": self.seat, "points": self.points, "reason": self.reason, "note": self.note}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VPChange:
        return cls(data["seat"], int(data["points"]), data["reason"], data.get("note", ""))


def battle_changes(
    attacker: str, defender: str | None, captured: bool, population: int, collateral: int, place: str
) -> list[VPChange]:
    """The VP a land battle moves (rule D-EMP-7, chapter 11.4 and 11.5).

    defender: the previous owner, or None for a neutral area (no owner to lose VPs).
    population: p0, the population before the battle; collateral: c, what the battle destroyed.
    """
    changes = []
    if captured:
        gain = population - collateral
        if gain:
            changes.append(VPChange(attacker, gain, "capture", f"captured {place} with {gain} population"))
        if defender is not None:
            changes.append(VPChange(defender, -(1 + population), "loss", f"lost {place}: 1 + {population} population"))
        return changes
    changes.append(
        VPChange(
            attacker, -(collateral + 1), "failed attack", f"attack on {place} failed: {collateral} population lost, + 1"
        )
    )
    if defender is not None and collateral:
        changes.append(VPChange(defender, -collateral, "defence", f"{place} held but lost {collateral} population"))
    return changes


def apply(totals: Mapping[str, int], changes: Iterable[VPChange]) -> dict[str, int]:
    """New totals after the changes; the input is left as it was."""
    out = dict(totals)
    for change in changes:
        out[change.seat] = out.get(change.seat, 0) + change.points
    return out


def of_seat(changes: Iterable[VPChange], seat: str) -> list[VPChange]:
    return [c for c in changes if c.seat == seat]
