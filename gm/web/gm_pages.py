"""The GM's pages: each GM signs in with their name and password (the owner with the password
alone, as before there were names), and sees every game's status at a glance, or the games they
are limited to."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, session
from werkzeug.wrappers import Response

from gm.services import questions, staff
from gm.services.gameview import gm_overview
from gm.store.acting import PORTAL_PLAYER, Actor
from gm.store.staff import StaffRecord
from gm.web.guard import check_csrf, guess_keys, refuse_if_blocked, start_session
from gm.web.portal import page, portal

blueprint = Blueprint("gm", __name__)


def signed_in_gm() -> StaffRecord | None:
    """The GM signed in, while they stand and have the password they signed in with."""
    staff_id, tag = session.get("gm_id"), session.get("gm")
    if not isinstance(staff_id, int) or not isinstance(tag, str):
        return None
    return staff.still_signed_in(portal().db(), staff_id, tag)


def request_actor() -> Actor:
    """Who acts in this request, as the audit log names them: the GM signed in, else a player."""
    account = signed_in_gm() if session.get("gm") else None
    return staff.actor_of(portal().db(), account) if account is not None else PORTAL_PLAYER


def require_gm() -> StaffRecord:
    account = signed_in_gm()
    if account is None:
        abort(403, "This is the GM's page. Sign in with the GM password first (/gm).")
    return account


def require_game(name: str) -> StaffRecord:
    """The GM signed in, when the game is theirs to see and act on."""
    account = require_gm()
    if account.games and name.strip().lower() not in {g.lower() for g in account.games}:
        abort(
            403,
            f"You are a GM of {', '.join(account.games)} only: '{name[:100]}' is not yours to see or act on. "
            "Ask the house's owner.",
        )
    return account


def require_whole_house(what: str) -> StaffRecord:
    """The GM signed in, when they are a GM of every game (the house's own pages)."""
    account = require_gm()
    if account.games:
        abort(
            403,
            f"You are a GM of {', '.join(account.games)} only: {what} are the house's, for its GMs of every game. "
            "Ask the house's owner.",
        )
    return account


@blueprint.get("/gm")
def overview() -> Response:
    account = signed_in_gm()
    p = portal()
    if account is None:
        return page("gm_sign_in.html", title="GM sign-in", configured=staff.any_password(p.db(), p.home))
    games = [g for g in gm_overview(p.db()) if not account.games or g["name"] in account.games]
    waiting = questions.count(p.db()) if not account.games else 0
    return page("gm.html", title="Games", games=games, waiting_questions=waiting, gm_account=account)


@blueprint.post("/gm/sign-in")
def sign_in() -> Response:
    check_csrf(request.form.get("csrf"))
    p = portal()
    name = request.form.get("name", "")[:100]
    # A GM's password is chosen by a person, so strangers' guesses are limited all together too;
    # a browser the GM signed in with before has a limit of its own, so they cannot lock the GM out.
    keys = guess_keys(p.known, staff.target(None, name))
    refuse_if_blocked(p.limiter, *keys)
    signed = staff.sign_in(p.db(), p.home, name, request.form.get("password", "")[:200])
    if signed is None:
        p.limiter.failed(*keys)
        return page(
            "gm_sign_in.html",
            401,
            title="GM sign-in",
            configured=staff.any_password(p.db(), p.home),
            error="That is not the password of that GM.",
            typed_name=name.strip(),
        )
    return gm_session(signed)


def gm_session(signed: staff.SignedIn) -> Response:
    """Start the GM's session (after their password, or their one-time link: player.py checks it)."""
    p = portal()
    start_session(p.sessions, f"gm:{signed.account.id}", gm=signed.tag, gm_id=signed.account.id)
    response = redirect("/gm", 303)
    p.known.remember(request, response, staff.target(signed.account))
    return response
