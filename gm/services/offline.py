"""A player's own check of a turn file against the seat's last JSON report: no GM home, no database.

What the report lets a player settle is checked with the GM's own parser: the envelope, the game,
seat and turn, every order line, and the near-code and ruleset warnings the seat's view allows.
What needs the whole game (the password, the rules against the state others cannot see) is left
to the GM's check, and the answer says so.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from gm.core.envelope import TurnFileError, decode_turn_file, read_envelope
from gm.core.model import Order, Problem
from gm.core.press import PressDraft
from gm.core.warnings import near_codes, view_codes
from gm.errors import GMError
from gm.rulesets import installed

# Said with every offline check: what only the GM's check can settle.
LEFT_TO_THE_GM = (
    "the password, and the rules that need the whole game (what you own now, what you can "
    "pay, what others do) are checked when gm receives the file"
)


@dataclass(frozen=True)
class Report:
    """What an offline check needs of a seat's JSON report (reports/<game>/<turn>/<seat>.json).

    game, ruleset, seat: whose report it is; turn: the turn it reports, so the orders are for
    turn + 1; view: the seat's view; form_words: every word of its order form, the order words
    a near-code hint must not mistake for codes (ALL, SOLDIERS)."""

    game: str
    ruleset: str
    seat: str
    turn: int
    view: dict
    form_words: frozenset = field(default_factory=frozenset)
    over: bool = False


def read_report(path: Path) -> Report:
    """A seat's JSON report, or GMError saying why it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        form = data.get("order_form") or ""
        return Report(
            game=data["game"]["name"],
            ruleset=data["game"]["ruleset"],
            seat=data["seat"],
            turn=int(data["turn"]),
            view=data["view"],
            over=bool(data.get("outcome")),
            form_words=frozenset(re.findall(r"[A-Za-z]+", form.upper())),
        )
    except FileNotFoundError:
        raise GMError(f"no file {path}.") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise GMError(
            f"{path} is not a gm JSON report; use the .json file of your last report (send JSON ON to get it by mail)."
        ) from None


@dataclass
class OfflineCheck:
    """A turn file read against a report: refusal (the file as a whole cannot be used), else the
    orders, the problems and warnings by line."""

    refusal: str | None = None
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    press: tuple[PressDraft, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.refusal is None and not self.problems


def check_offline(report: Report, data: bytes) -> OfflineCheck:
    """Check a turn file as far as the seat's report can settle it; never raises for bad input."""
    checked = OfflineCheck()
    try:
        text, _ = decode_turn_file(data)
    except TurnFileError as exc:
        checked.refusal = str(exc)
        return checked
    envelope = read_envelope(text)
    checked.refusal = _refusal(report, envelope)
    if checked.refusal:
        return checked
    checked.press = envelope.press
    ruleset = installed().get(report.ruleset)
    if ruleset is None:
        raise GMError(
            f"the report is of a game of '{report.ruleset}', which is not installed here. Install the gm that has it."
        )
    checked.orders, problems = ruleset.parse_orders(list(envelope.lines))
    checked.problems = sorted(problems, key=lambda p: p.line)
    # Every line is searched for near codes: without the state there is no error to start from.
    searched = {n for n, _ in envelope.lines}
    near = near_codes(envelope.lines, searched, view_codes(report.view), report.form_words)
    checked.warnings = sorted(list(envelope.warnings) + near, key=lambda p: p.line)
    return checked


def _refusal(report: Report, envelope) -> str | None:
    if not envelope.ok:
        return "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in envelope.problems)
    if report.over:
        return f"game '{report.game}' is over; it takes no more orders"
    if envelope.game != report.game:
        return f"the file is for game '{envelope.game}', the report for '{report.game}' (check the GAME line)"
    if envelope.player != report.seat.upper():
        return f"the file is for player {envelope.player}, the report for {report.seat} (check the PLAYER line)"
    if envelope.turn is not None and envelope.turn != report.turn + 1:
        return (
            f"these orders are for turn {envelope.turn}, the report is of turn {report.turn}: "
            f"its orders are for turn {report.turn + 1}"
        )
    return None
