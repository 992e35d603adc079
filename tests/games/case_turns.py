"""The turn a conformance case plays, for tests that hold a ruleset's invariants to it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gm.core.cases import ScriptedSeeds, _orders, _start, load_case_text
from gm.core.model import Event, Order, TurnResult
from gm.core.ruleset import Ruleset

Invariants = Callable[[dict, dict[str, list[Order]], TurnResult], list[str]]


def case_turn(cases: Path, ruleset: Ruleset, name: str) -> tuple[dict, dict[str, list[Order]], TurnResult]:
    """The turn (round) the case `name` in `cases` plays: the state before it, the orders, the result."""
    case = load_case_text((cases / f"{name}.toml").read_text(encoding="utf-8"), name)
    state, seats = _start(case, ruleset)
    orders, _ = _orders(case, ruleset, state, seats)
    seeds = ScriptedSeeds(case["seed"], case.get("turn", 1), case.get("dice", []), case.get("dice_purpose", "roll"))
    return state, orders, ruleset.resolve(state, orders, seeds)


def played_case(cases: Path, ruleset: Ruleset, name: str, invariants: Invariants) -> list[str]:
    """The invariants' findings on the turn (round) the case `name` in `cases` plays."""
    return invariants(*case_turn(cases, ruleset, name))


def with_event(result: TurnResult, kind: str, number: int = 0, **changed: object) -> TurnResult:
    """The result with the `number`th event of `kind` (0: the first) changed as `changed` says:
    a fault planted in a turn, for a test that an invariant finds it."""
    events, seen = list(result.events), -1
    for n, event in enumerate(events):
        seen += event.kind == kind
        if event.kind == kind and seen == number:
            events[n] = Event(kind, {**event.data, **changed}, event.seats)
            return TurnResult(result.state, tuple(events))
    raise AssertionError(f"no {kind} event {number}")
