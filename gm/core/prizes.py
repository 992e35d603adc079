"""The house's prize discounts: what a win, a finish and a knock-out earn in bonus turns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gm.core import victory

PARTS = ("win", "finish", "knockout")
HIGHEST = 10  # one game cannot earn more than the whole cap (rule D-EMP-15)
HOUSE = "house"  # a game setting left at this uses gm.toml, else the ruleset's default


@dataclass(frozen=True)
class PrizeTable:
    """Bonus turns a finished game earns a seat still playing at its end (rules D-EMP-15, H-1).

    win: what each winner earns (all tied winners alike).
    finish: what a seat that played to the end without winning earns.
    knockout: what a seat knocked out while still sending orders earns.
    by_condition: (condition, bonus turns) pairs that replace `win` for a win by that toolkit
    victory condition; Empires' 11.7 gives a points win 2. Empty once the GM sets `win`.
    """

    win: int
    finish: int
    knockout: int
    by_condition: tuple[tuple[str, int], ...] = ()

    def for_win(self, condition: str | None) -> int:
        return dict(self.by_condition).get(condition or "", self.win)

    def to_json(self) -> dict[str, object]:
        return {
            "win": self.win,
            "finish": self.finish,
            "knockout": self.knockout,
            "by_condition": dict(self.by_condition),
        }


# Rule D-EMP-15 (11.7): runaway and knockout wins 3, a points win 2, every other country 1.
EMPIRES = PrizeTable(3, 1, 1, tuple(sorted(victory.DISCOUNT.items())))
# Rule H-1: the rule books of the other games are silent, so the house uses 11.7's values.
DEFAULT = PrizeTable(3, 1, 1)
RULESET_DEFAULTS = {"empires": EMPIRES}


def table_for(ruleset: str, house: Mapping[str, int | str], chosen: Mapping[str, int | str]) -> PrizeTable:
    """The table of one game: each part as the GM set it for the game (chosen, from
    `gm game set`), else for the ruleset in gm.toml (house: that ruleset's [discounts.R] table),
    else the ruleset's default."""
    base = RULESET_DEFAULTS.get(ruleset, DEFAULT)
    given: dict[str, int] = {}
    for source in (house, chosen):
        given.update({p: int(source[p]) for p in PARTS if source.get(p, HOUSE) != HOUSE})
    values = {part: given.get(part, getattr(base, part)) for part in PARTS}
    return PrizeTable(**values, by_condition=() if "win" in given else base.by_condition)


def earned(
    table: PrizeTable, seats: Iterable[str], winners: Iterable[str], condition: str | None, knocked_out: Iterable[str]
) -> dict[str, int]:
    """Bonus turns each seat earned, before the cap of 10 on an account (the books apply it);
    seats: the seats still playing at the end (drop-outs and resignations earn nothing)."""
    won, out = set(winners), set(knocked_out)
    return {
        seat: table.for_win(condition) if seat in won else table.knockout if seat in out else table.finish
        for seat in seats
    }


def knocked_out(state: Mapping[str, object], named: Iterable[str] = ()) -> set[str]:
    """Seats knocked out: those the toolkit recorded as eliminated, and those the ruleset names
    (its optional knocked_out(state), docs/writing-a-ruleset.md)."""
    record = state.get(victory.STATE_KEY) if isinstance(state, Mapping) else None
    found = set(record.get("eliminated", {})) if isinstance(record, Mapping) else set()
    return found | set(named)


def condition_of(state: Mapping[str, object]) -> str | None:
    """The toolkit victory condition the game was won by, where the ruleset uses the toolkit."""
    record = state.get(victory.STATE_KEY) if isinstance(state, Mapping) else None
    return record.get("condition") if isinstance(record, Mapping) else None
