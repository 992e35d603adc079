"""Conqueror! diplomats: all those arriving in a province in one phase, counted together."""

from __future__ import annotations

from dataclasses import dataclass

from .board import nation
from .economy import CONTROL_GAIN, share_gains
from .turn import Turn


@dataclass(frozen=True)
class Envoy:
    """Diplomats one province finished this phase.

    seat: the nation sending them. source: the province that made or bought them. target: the
    province they go to (the source itself or a neighbour). units: how many.
    """

    seat: str
    source: str
    target: str
    units: int


def words(units: int) -> str:
    return f"{units} diplomat{'s' if units > 1 else ''}"


def send(turn: Turn, envoys: list[Envoy], bought: bool) -> None:
    """Every province's diplomats of one phase at once (README choice 6): each nation's gain in
    a province is 10 a diplomat, all taken from the influence as it stood before any of them,
    so no nation gains by being counted last (rule D-CQ-6). `bought`: the rush-bought ones (the
    start of the turn), else those labour made (after every province's labour)."""
    for target in turn.board.order:
        arriving = [e for e in envoys if e.target == target]
        if not arriving:
            continue
        wanted: dict[str, int] = {}
        for envoy in arriving:
            wanted[envoy.seat] = wanted.get(envoy.seat, 0) + CONTROL_GAIN["DIPLOMAT"] * envoy.units
        got = share_gains(turn.provinces[target]["influence"], wanted, turn.parties())
        for seat in turn.state["seating"]:
            mine = [e for e in arriving if e.seat == seat]
            if mine:
                _event(turn, target, mine, got.get(seat, 0), bought)
        # Recorded for the GM, in no seat's report: the whole province's influence after the
        # phase, every party's share, which no nation sees of another (D-ALL-5).
        turn.add(
            "diplomacy",
            f"Influence in {turn.board.label(target)} after the diplomats: "
            + ", ".join(f"{k} {v}" for k, v in turn.provinces[target]["influence"].items())
            + ".",
            (),
            province=target,
            bought=bought,
            influence=dict(turn.provinces[target]["influence"]),
        )


def _event(turn: Turn, target: str, mine: list[Envoy], won: int, bought: bool) -> None:
    # Its own gain and its own influence after (its control: a diplomat goes to a province of its
    # nation's), never the other parties' shares, which no nation sees of another (D-ALL-5).
    seat, province = mine[0].seat, turn.provinces[target]
    influence = province["influence"]
    units = sum(e.units for e in mine)
    sources = sorted({e.source for e in mine}, key=turn.board.order.index)
    turn.add(
        "diplomat",
        f"{nation(turn.state, seat)} sends {words(units)} from "
        f"{' and '.join(turn.board.label(c) for c in sources)} to {turn.board.label(target)}: "
        f"its influence there rises by {won} to {influence[seat]}%.",
        (seat,),
        seat=seat,
        province=target,
        sources=sources,
        bought=bought,
        diplomats=units,
        points=won,
        influence={seat: influence[seat]},
    )
