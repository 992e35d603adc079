"""The GM's pages: sign in with the password from gm.toml, every game's status at a glance."""

from __future__ import annotations

from flask import Blueprint, redirect, request, session
from werkzeug.wrappers import Response

from gm.services.gameview import gm_overview
from gm.services.portal_access import check_password, fingerprint, gm_password_hash
from gm.services.questions import questions
from gm.web.guard import check_csrf, guess_keys, refuse_if_blocked, start_session
from gm.web.portal import page, portal

blueprint = Blueprint("gm", __name__)


def signed_in_gm() -> bool:
    """True when the GM signed in with the password gm.toml holds now."""
    stored = gm_password_hash(portal().home)
    return bool(stored) and session.get("gm") == fingerprint(stored)


@blueprint.get("/gm")
def overview() -> Response:
    if not signed_in_gm():
        return page("gm_sign_in.html", title="GM sign-in", configured=bool(gm_password_hash(portal().home)))
    p = portal()
    return page("gm.html", title="Games", games=gm_overview(p.db()), waiting_questions=len(questions(p.db(), p.home)))


@blueprint.post("/gm/sign-in")
def sign_in() -> Response:
    check_csrf(request.form.get("csrf"))
    p = portal()
    stored = gm_password_hash(p.home)
    # The GM's password is chosen by a person, so strangers' guesses are limited all together too;
    # a browser the GM signed in with before has a limit of its own, so they cannot lock the GM out.
    keys = guess_keys(p.known, "gm")
    refuse_if_blocked(p.limiter, *keys)
    if not stored or not check_password(request.form.get("password", "")[:200], stored):
        p.limiter.failed(*keys)
        return page(
            "gm_sign_in.html", 401, title="GM sign-in", configured=bool(stored), error="That is not the GM password."
        )
    return _gm_session(stored)


def gm_signed_in_by_link() -> Response:
    """The GM used a one-time link from 'gm portal link --gm' (player.py checks it)."""
    return _gm_session(gm_password_hash(portal().home))


def _gm_session(stored: str) -> Response:
    p = portal()
    start_session(p.sessions, "gm", gm=fingerprint(stored))
    response = redirect("/gm", 303)
    p.known.remember(request, response, "gm")
    return response
