"""A report past its render budget: the seat gets a short report instead, and the GM is told.

No report may take a render worker past its budget (gm/render/budget.py: [reports] max_pages,
max_cpu_seconds, stall_seconds in gm.toml). One that would is not made; its seat gets a page
saying so with its order form (templates/report_short.html), the rest of the game is published
as usual, the GM reads which seat and why (gm run-due's and gm turn run's warnings) and the
audit log keeps it. Once the cause is put right (a press message withheld, a template fixed),
`gm report render GAME --turn N` makes the whole report.

gm/render's worker module (RenderJob) is imported where a short report is made, not here: every
`gm turn` command imports this module (through gm/services/reports.py), and only a render needs it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from gm.home import Home
from gm.render.budget import MAX_CPU_SECONDS, MAX_PAGES, STALL_SECONDS, OverBudget, RenderBudget

if TYPE_CHECKING:
    from gm.render.worker import RenderJob, RenderResult

SHORT_TEMPLATE = "report_short.html"


@dataclass(frozen=True)
class ShortReport:
    """A report made short: its identifier ("g1/3/RU", "g1/final"), its turn and seat (None
    for the final standings and the end-of-game reports), and why, in the GM's words."""

    identifier: str
    turn: int | None
    seat: str | None
    why: str


def budget_of(home: Home) -> RenderBudget:
    """The render budget of gm.toml's [reports] (max_pages, max_cpu_seconds, stall_seconds, tagged)."""
    return RenderBudget(
        home.setting("reports", "max_pages", MAX_PAGES),
        float(home.setting("reports", "max_cpu_seconds", int(MAX_CPU_SECONDS))),
        float(home.setting("reports", "stall_seconds", int(STALL_SECONDS))),
        home.setting("reports", "tagged", True),
    )


def stand_in(
    home: Home,
    env: jinja2.Environment,
    jobs: Sequence[RenderJob],
    jsons: Sequence[tuple[Path, bytes]],
    rows: Sequence[tuple[int, str, Path]],
    outcomes: Sequence[RenderResult | OverBudget],
    render: Callable[[list[RenderJob]], list[RenderResult | OverBudget]],
) -> tuple[list[RenderResult], tuple[ShortReport, ...]]:
    """The render's results with a short report in place of each one over budget (jobs[i]'s
    JSON is jsons[i]; rows: (turn, seat, PDF) of the seats' reports); render(jobs) makes the
    short ones. RuntimeError should even a short report not be made (the game then fails as a
    render that died does)."""
    over = {i: outcome.why for i, outcome in enumerate(outcomes) if isinstance(outcome, OverBudget)}
    made: dict[int, RenderResult | OverBudget] = {}
    if over:
        budget = budget_of(home)
        short_jobs = [_short_job(home, env, jobs[i], jsons[i][1], why, budget) for i, why in over.items()]
        made = dict(zip(over, render(short_jobs)))
    results = []
    for i, outcome in enumerate(outcomes):
        done = made.get(i, outcome)
        if isinstance(done, OverBudget):
            raise RuntimeError(f"{jobs[i].identifier} went past its budget ({over[i]}), and so did its short report")
        results.append(done)
    seats: dict[Path, tuple[int | None, str | None]] = {Path(pdf): (turn, seat) for turn, seat, pdf in rows}
    shorts = []
    for i, why in over.items():
        turn, seat = seats.get(Path(jobs[i].out_path), (None, None))
        shorts.append(ShortReport(jobs[i].identifier, turn, seat, why))
    return results, tuple(shorts)


def gm_lines(game: str, shorts: Sequence[ShortReport]) -> list[str]:
    """What the GM reads of each report made short: which seat, why, and what to do."""
    lines: list[str] = []
    for short in shorts:
        whose = f"{short.seat}'s report of turn {short.turn}" if short.seat else f"the report {short.identifier}"
        again = f"gm report render {game}" + (f" --turn {short.turn}" if short.turn else "")
        lines.append(
            f"{game}: {whose} went past its budget ([reports] in gm.toml): {short.why}. "
            f"{short.seat or 'It'} got a short report saying so, with the order form; the rest of the game went out. "
            f"Put right what made it long (a press message: gm game press {game} --withhold ID), then {again}."
        )
    return lines


def _short_job(
    home: Home, env: jinja2.Environment, job: RenderJob, json_bytes: bytes, why: str, budget: RenderBudget
) -> RenderJob:
    from gm.render.worker import RenderJob

    context = json.loads(json_bytes)
    game = context.get("game") or {}
    turn = context.get("turn", context.get("turns"))
    html = env.get_template(SHORT_TEMPLATE).render(
        game={"name": game.get("name", ""), "title": game.get("title", game.get("name", ""))},
        turn=turn,
        next_turn=turn + 1 if isinstance(turn, int) else None,
        seat=context.get("seat", ""),
        player=context.get("player", ""),
        why=why,
        limits={"pages": budget.pages, "cpu": f"{budget.cpu_seconds:g}"},
        portal=home.setting("portal", "base_url", "http://127.0.0.1:8000").rstrip("/") + "/",
        order_form=context.get("order_form") or "",
        deadline=context.get("deadline"),
        created=job.created,
    )
    return RenderJob(html, job.base_url, job.created, job.identifier, job.out_path)
