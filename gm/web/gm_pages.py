"""The GM's pages: sign in with the password from gm.toml, every game's status at a glance."""
from __future__ import annotations

from flask import Blueprint, redirect, request, session

from gm.services.portal import gm_overview
from gm.services.portal_access import check_password, fingerprint, gm_password_hash
from gm.web.app import page, portal
from gm.web.guard import check_csrf, refuse_if_blocked, start_session

blueprint = Blueprint("gm", __name__)


def signed_in_gm() -> bool:
    """True when the GM signed in with the password gm.toml holds now."""
    stored = gm_password_hash(portal().home)
    return bool(stored) and session.get("gm") == fingerprint(stored)


@blueprint.get("/gm")
def overview():
    if not signed_in_gm():
        return page("gm_sign_in.html", title="GM sign-in", configured=bool(gm_password_hash(portal().home)))
    return page("gm.html", title="Games", games=gm_overview(portal().db()))


@blueprint.post("/gm/sign-in")
def sign_in():
    check_csrf(request.form.get("csrf"))
    p = portal()
    stored = gm_password_hash(p.home)
    # The GM's password is chosen by a person, so guesses are limited for everyone together too.
    keys = (f"address:{request.remote_addr}", "gm")
    refuse_if_blocked(p.limiter, *keys)
    if not stored or not check_password(request.form.get("password", "")[:200], stored):
        p.limiter.failed(*keys)
        return page("gm_sign_in.html", 401, title="GM sign-in", configured=bool(stored),
                    error="That is not the GM password.")
    start_session(gm=fingerprint(stored))
    return redirect("/gm", 303)
