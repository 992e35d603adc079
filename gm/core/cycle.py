"""What the weekly cycle should do with one game now: pure decisions from facts and the time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class GameFacts:
    """What run-due knows about a game at a moment.

    due: when the turn being collected is due (None: no deadline, the game runs by hand).
    grace_minutes: how long after due the turn still waits. held: the GM holds the game.
    active: seat codes that play (dropped seats excluded). submitted: seats with valid orders.
    final_at: for each seat whose valid orders are marked FINAL, when they came in.
    absent: seats whose announced absence covers the due time.
    early, early_delay_minutes, reminder_minutes, spike_percent: the game's settings.
    reminded, late_noticed: seats already sent a reminder / a late notice for this turn.
    """

    due: datetime | None
    grace_minutes: int
    held: bool
    active: tuple[str, ...]
    submitted: tuple[str, ...]
    final_at: dict[str, datetime]
    absent: tuple[str, ...]
    early: bool
    early_delay_minutes: int
    reminder_minutes: int
    spike_percent: int
    reminded: tuple[str, ...]
    late_noticed: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    """run: run the turn now (why says why, or why not); remind/late: seats to mail;
    spike: too many seats without orders, the turn must wait for the GM."""

    run: bool
    why: str
    remind: tuple[str, ...] = ()
    late: tuple[str, ...] = ()
    spike: bool = False


def missing_seats(facts: GameFacts) -> tuple[str, ...]:
    """The active seats that have sent no valid orders for the turn and are not away: those the
    cycle reminds, and whose share of all decides an NMR spike."""
    return tuple(s for s in facts.active if s not in facts.submitted and s not in facts.absent)


def decide(facts: GameFacts, now: datetime) -> Decision:
    if facts.held:
        return Decision(False, "held by the GM")
    if facts.due is None:
        return Decision(False, "no deadline (manual schedule)")
    missing = missing_seats(facts)
    remind: tuple[str, ...] = ()
    if now >= facts.due - timedelta(minutes=facts.reminder_minutes) and now < facts.due:
        remind = tuple(s for s in missing if s not in facts.reminded)
    run_at = facts.due + timedelta(minutes=facts.grace_minutes)
    early_at = _early_at(facts)
    if now >= run_at or (early_at is not None and now >= early_at):
        why = "deadline passed" if now >= run_at else "every active seat sent final orders"
        if facts.active and len(missing) * 100 > facts.spike_percent * len(facts.active):
            return Decision(
                False,
                f"{len(missing)} of {len(facts.active)} seats sent no orders: "
                "held for the GM (is mail intake working?)",
                spike=True,
            )
        return Decision(True, why)
    late: tuple[str, ...] = ()
    if facts.due <= now < run_at:
        late = tuple(s for s in missing if s not in facts.late_noticed)
    return Decision(False, "waiting for the deadline", remind, late)


def _early_at(facts: GameFacts) -> datetime | None:
    """When the turn may run early: every active seat sent final orders, plus the delay."""
    if not facts.early or not facts.active:
        return None
    if any(s not in facts.final_at for s in facts.active if s not in facts.absent):
        return None
    finals = [facts.final_at[s] for s in facts.active if s in facts.final_at]
    if not finals:
        return None
    return max(finals) + timedelta(minutes=facts.early_delay_minutes)
