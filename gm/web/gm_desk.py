"""The GM's page acts: hold and release a game, move its deadline, remind the seats without
orders, seat or prune the waiting list, answer the questions mailed to the house, read the audit
log. Behind a GM's password and a CSRF token on every form, through the same services as the
command line, so each action is written in the audit log as the CLI writes it, with the name of
the GM signed in. A GM of some games sees and acts on those only; the questions are the house's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypedDict, TypeVar

from flask import Blueprint, redirect, request, session
from werkzeug.wrappers import Response

from gm.errors import GMError
from gm.services import cycle, questions, reminders, signups, waiting
from gm.services.audit_text import detail_words
from gm.services.gameview import game_facts
from gm.store import records, staff
from gm.web.gm_pages import require_game, require_gm, require_whole_house
from gm.web.guard import check_csrf
from gm.web.portal import page, portal

blueprint = Blueprint("gm_desk", __name__)

AUDIT_SHOWN = 200  # entries on the audit page, newest last (gm audit --json has every one)
GAME_AUDIT_SHOWN = 15  # the game's latest entries on its page
# Questions on the questions page, players' first, then strangers', each oldest first (gm inbox
# questions lists every one): each is read again from its mail in the archive, so a flood of 5,000
# made every load of the page read 5,000; and a flood of strangers' must not hide a player's.
QUESTIONS_SHOWN = 20

QUESTIONS = "the questions mailed to the house"
Done = TypeVar("Done")  # what a GM action returns, for the notice that says it was done


def _posted(check: Callable[[], object]) -> None:
    """Every action of this page: a form of this session, from a GM whose it is to do (check)."""
    check_csrf(request.form.get("csrf"))
    check()


def _done(where: str, notice: str) -> Response:
    """After an action: back to the page, which says what was done once (a reload does nothing)."""
    session["gm_notice"] = notice
    return redirect(where, 303)


# ------------------------------------------------------------------ one game


@blueprint.get("/gm/game/<name>")
def game_page(
    name: str, error: str | None = None, status: int = 200, typed: Mapping[str, object] | None = None
) -> Response:
    account = require_game(name)
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
        gm_account=account,
    )


def _act(
    name: str, action: Callable[[], Done], notice: Callable[[Done], str], typed: Mapping[str, object] | None = None
) -> Response:
    """Do a GM action on a game; a refusal shows on the game's page with what was typed, and
    changes nothing (the services refuse before they write)."""
    _posted(lambda: require_game(name))
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
    account = require_whole_house(QUESTIONS)
    p = portal()
    every = request.args.get("all") == "1"
    return page(
        "gm_questions.html",
        status,
        title="Questions — GM",
        questions=questions.questions(p.db(), p.home, every, QUESTIONS_SHOWN, players_first=True),
        left=questions.count(p.db(), every) - QUESTIONS_SHOWN,
        every=every,
        mail=bool(p.home.setting("mail", "address", "")),
        notice=session.pop("gm_notice", None),
        error=error,
        typed=typed or {},
        gm_account=account,
    )


def _answer(
    action: Callable[[], Done], notice: Callable[[Done], str], typed: Mapping[str, object] | None = None
) -> Response:
    _posted(lambda: require_whole_house(QUESTIONS))
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
    """The log of every game and the house; for a GM of some games, of theirs only."""
    account = require_gm()
    db = portal().db()
    name = request.args.get("game", "").strip()[:100]
    if name:
        require_game(name)
    game = records.game_by_name(db, name) if name else None
    if game is not None:
        entries = records.audit_log(db, game.id, AUDIT_SHOWN)
    elif account.games:
        entries = records.audit_log_of(db, staff.game_ids_of(db, account.id), AUDIT_SHOWN)
    else:
        entries = records.audit_log(db, None, AUDIT_SHOWN)
    games = account.games or tuple(g.name for g in records.all_games(db))
    return page(
        "gm_audit.html",
        title="Audit log — GM",
        entries=_shown(entries),
        chosen=name,
        games=games,
        house=not account.games,
        shown=AUDIT_SHOWN,
        gm_account=account,
    )


class ShownEntry(TypedDict):
    """An audit entry as the pages show it."""

    at: str
    game: str | None
    action: str
    detail: str
    by: str


def _shown(entries: list[records.AuditEntry]) -> list[ShownEntry]:
    """Audit entries as the page shows them: the details in words as `gm audit` prints them
    (escaped in the page like any text)."""
    return [
        {
            "at": e.at,
            "game": e.game,
            "action": e.action,
            "detail": detail_words(e.detail),
            "by": e.actor,
        }
        for e in entries
    ]
