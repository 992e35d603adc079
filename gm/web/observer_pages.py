"""An observer's pages (gm.services.observer_portal): the public pages of each published turn of
the game they observe, read-only. An observer's session has no seat and is no GM's, so every
seat's and GM's page refuses it as it refuses anybody not signed in."""

from __future__ import annotations

from flask import Blueprint, abort, g, redirect, session
from werkzeug.exceptions import Forbidden
from werkzeug.wrappers import Response

from gm.services import observers
from gm.services.observer_portal import Watching, watching
from gm.web.guard import end_session, start_session
from gm.web.portal import page, portal

blueprint = Blueprint("observer_pages", __name__)

_ENDED = (
    "You were signed out: you no longer observe this game (the GM stopped it, you were forgotten, "
    "or the game is over). Ask the game master if you wish to observe a game again."
)


def signed_in_observer() -> Watching | None:
    """The signed-in observer while they observe; None when nobody is, or when they no longer
    observe (stopped, forgotten, the game over): that ends the session, and g.signed_out says so."""
    observer_id = session.get("observer")
    if observer_id is None:
        return None
    found = watching(portal().db(), observer_id)
    if found is None:
        end_session(portal().sessions)
        g.signed_out = _ENDED
    return found


def observer_session(observer: Watching) -> Response:
    """Sign the observer in (a one-time link's button did): a fresh session, then their page."""
    start_session(portal().sessions, f"observer:{observer.observer_id}", observer=observer.observer_id, via="link")
    return redirect("/observe", 303)


def _require() -> Watching:
    found = signed_in_observer()
    if found is None:
        raise Forbidden(g.get("signed_out") or "You are not signed in as an observer. Use the link in your last mail.")
    return found


@blueprint.get("/observe")
def latest() -> Response:
    observer = _require()
    turns = observers.public_turns(portal().db(), observer.game)
    if turns:
        return redirect(f"/observe/{turns[-1]}", 303)
    return page("observe.html", title=f"{observer.game.name}: public pages", observer=observer, turns=[], p=None)


@blueprint.get("/observe/<int:turn>")
def turn_page(turn: int) -> Response:
    observer = _require()
    db = portal().db()
    public = observers.public_page(db, observer.game, turn)
    if public is None:
        abort(404)
    turns = observers.public_turns(db, observer.game)
    return page(
        "observe.html",
        title=f"Turn {turn} — {public['game']['title']} — public pages",
        observer=observer,
        turns=turns,
        p=public,
    )
