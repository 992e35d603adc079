"""The GM's page acts: hold and release a game, move its deadline, remind the seats without
orders, seat or prune the waiting list, answer the questions mailed to the house, read the audit
log. Behind the GM's password and a CSRF token on every form, through the same services as the
command line, so each action is written in the audit log as the CLI writes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypedDict, TypeVar

from flask import Blueprint, abort, redirect, request, session
from werkzeug.wrappers import Response

from gm.errors import GMError
from gm.services import cycle, questions, reminders, signups, waiting
from gm.services.audit_text import detail_words
from gm.services.gameview import game_facts
from gm.store import records
from gm.web.gm_pages import signed_in_gm
from gm.web.guard import check_csrf
from gm.web.portal import page, portal

blueprint = Blueprint("gm_desk", __name__)

AUDIT_SHOWN = 200  # entries on the audit page, newest last (gm audit --json has every one)
GAME_AUDIT_SHOWN = 15  # the game's latest entries on its page

Done = TypeVar("Done")  # what a GM action returns, for the notice that says it was done


def require_gm() -> None:
    if not signed_in_gm():
        abort(403, "This is the GM's page. Sign in with the GM password first (/gm).")


def _posted() -> None:
    """Every action of this page: a form of this session, from the GM."""
    check_csrf(request.form.get("csrf"))
    require_gm()


def _done(where: str, notice: str) -> Response:
    """After an action: back to the page, which says what was done once (a reload does nothing)."""
    session["gm_notice"] = notice
    return redirect(where, 303)


# ------------------------------------------------------------------ one game


@blueprint.get("/gm/game/<name>")
def game_page(
    name: str, error: str | None = None, status: int = 200, typed: Mapping[str, object] | None = None
) -> Response:
    require_gm()
    p = portal()
    db = p.db()
    game = records.game_by_name(db, name)
    facts = game_facts(db, game.name)
    facts.pop("state", None)
    remind = reminders.seats_to_remind(db, p.clock, game) if game.status != "over" else ()
    return page(
        "gm_game.html",
        status,
        title=f"{game.name} — GM",
        g=facts,
        game=game,
        remind=remind,
        waiting=waiting.waiting_for(db, game.name),
        audit=_shown(records.audit_log(db, game.id, GAME_AUDIT_SHOWN)),
        mail=bool(p.home.setting("mail", "address", "")),
        notice=session.pop("gm_notice", None),
        error=error,
        typed=typed or {},
    )


def _act(
    name: str, action: Callable[[], Done], notice: Callable[[Done], str], typed: Mapping[str, object] | None = None
) -> Response:
    """Do a GM action on a game; a refusal shows on the game's page with what was typed, and
    changes nothing (the services refuse before they write)."""
    _posted()
    try:
        done = action()
    except GMError as exc:
        text = str(exc)
        return game_page(name, error=text[:1].upper() + text[1:], status=400, typed=typed)
    return _done(f"/gm/game/{name}", notice(done))


@blueprint.post("/gm/game/<name>/hold")
def hold(name: str) -> Response:
    p = portal()
    return _act(
        name,
        lambda: cycle.set_held(p.db(), p.clock, name, True),
        lambda _: f"{name} is held: gm run-due runs none of its turns until you release it.",
    )


@blueprint.post("/gm/game/<name>/release")
def release(name: str) -> Response:
    p = portal()
    return _act(name, lambda: cycle.set_held(p.db(), p.clock, name, False), lambda _: f"{name} is released.")


@blueprint.post("/gm/game/<name>/deadline")
def deadline(name: str) -> Response:
    p = portal()
    when = request.form.get("when", "").strip()[:200]
    past = request.form.get("past") == "yes"
    return _act(
        name,
        lambda: cycle.push_deadline(p.db(), p.clock, name, when, past),
        lambda shown: f"The deadline of {name} is now {shown}.",
        typed={"when": when, "past": past},
    )


@blueprint.post("/gm/game/<name>/remind")
def remind(name: str) -> Response:
    p = portal()
    return _act(
        name,
        lambda: reminders.remind_now(p.db(), p.home, p.clock, name),
        lambda seats: f"Reminded {', '.join(seats)}; the mail is queued (gm mail send, or gm run-due, sends it).",
    )


@blueprint.post("/gm/game/<name>/waiting/<int:number>/remove")
def remove_waiting(name: str, number: int) -> Response:
    p = portal()
    reason = request.form.get("reason", "")[:500]
    return _act(
        name,
        lambda: waiting.remove(p.db(), p.clock, name, number, reason),
        lambda gone: f"{gone.name} <{gone.email}> is off the waiting list.",
    )


@blueprint.post("/gm/game/<name>/seat-waiting")
def seat_waiting(name: str) -> Response:
    p = portal()
    return _act(
        name,
        lambda: signups.seat_waiting(p.db(), p.home, p.clock, name),
        lambda lines: "; ".join(lines) + "." if lines else f"Nobody on the list could be seated in {name}.",
    )


# ------------------------------------------------------------------ questions


@blueprint.get("/gm/questions")
def questions_page(error: str | None = None, status: int = 200, typed: Mapping[str, object] | None = None) -> Response:
    require_gm()
    p = portal()
    every = request.args.get("all") == "1"
    return page(
        "gm_questions.html",
        status,
        title="Questions — GM",
        questions=questions.questions(p.db(), p.home, every),
        every=every,
        mail=bool(p.home.setting("mail", "address", "")),
        notice=session.pop("gm_notice", None),
        error=error,
        typed=typed or {},
    )


def _answer(
    action: Callable[[], Done], notice: Callable[[Done], str], typed: Mapping[str, object] | None = None
) -> Response:
    _posted()
    try:
        done = action()
    except GMError as exc:
        text = str(exc)
        return questions_page(error=text[:1].upper() + text[1:], status=400, typed=typed)
    return _done("/gm/questions", notice(done))


@blueprint.post("/gm/questions/<int:number>/reply")
def reply(number: int) -> Response:
    p = portal()
    text = request.form.get("answer", "")[:20_000]
    return _answer(
        lambda: questions.reply(p.db(), p.home, p.clock, number, text),
        lambda q: f"Your answer to question {q.id} is queued for {q.answer_to}.",
        typed={"number": number, "answer": text},
    )


@blueprint.post("/gm/questions/<int:number>/answered")
def answered(number: int) -> Response:
    p = portal()
    return _answer(
        lambda: questions.mark_answered(p.db(), p.home, p.clock, number),
        lambda q: f"Question {q.id} is marked answered.",
    )


# ------------------------------------------------------------------ the audit log


@blueprint.get("/gm/audit")
def audit_page() -> Response:
    require_gm()
    db = portal().db()
    name = request.args.get("game", "").strip()[:100]
    game = records.game_by_name(db, name) if name else None
    entries = records.audit_log(db, game.id if game else None, AUDIT_SHOWN)
    return page(
        "gm_audit.html",
        title="Audit log — GM",
        entries=_shown(entries),
        chosen=name,
        games=[g.name for g in records.all_games(db)],
        shown=AUDIT_SHOWN,
    )


class ShownEntry(TypedDict):
    """An audit entry as the pages show it."""

    at: str
    game: str | None
    action: str
    detail: str


def _shown(entries: list[records.AuditEntry]) -> list[ShownEntry]:
    """Audit entries as the page shows them: the details in words as `gm audit` prints them
    (escaped in the page like any text)."""
    return [
        {
            "at": e.at,
            "game": e.game,
            "action": e.action,
            "detail": detail_words(e.detail),
        }
        for e in entries
    ]
