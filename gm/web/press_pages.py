"""The portal's press: a seat sends press through gm from its page (the form is web/_press.html),
and reads a turn's press whole (web/press_turn.html), where a report's press budget sends it."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, session
from werkzeug.wrappers import Response

from gm.services import press
from gm.store import records
from gm.web.guard import check_csrf
from gm.web.player import require_seat, seat_page
from gm.web.portal import page, portal

blueprint = Blueprint("press", __name__)


@blueprint.post("/press")
def send_press() -> Response:
    """Archive the form as it came, check it as a turn file's press is checked, send it."""
    check_csrf(request.form.get("csrf"))
    game, seat = require_seat()
    p = portal()
    to = request.form.getlist("to")[:100]
    text = request.form.get("text", "")
    result = press.send_from_portal(p.db(), p.home, p.clock, game, seat, to, text, p.writing)
    if result.sent:
        # Post/redirect/get: reloading the page that says "Sent" must not send the press again.
        # The notice rides in the session once (without the text: a cookie stays small).
        session["press_notice"] = result.to_json()
        return redirect("/#press", 303)
    shown = dict(result.to_json(), text=text, to_ticked=[code.upper() for code in to])
    return seat_page(records.game_by_name(p.db(), game.name), seat, press_result=shown, status=400)


@blueprint.get("/press/<int:turn>")
def turn_press(turn: int) -> Response:
    """Every message of a turn the seat reads, whole (a report prints them within its budget)."""
    game, seat = require_seat()
    p = portal()
    if not 1 <= turn <= game.turn:  # never asks the database about a turn that cannot be
        abort(404)
    return page(
        "press_turn.html",
        title=f"Press of turn {turn} — {game.name} — {seat.code}",
        game=game.name,
        seat=seat.code,
        player=seat.name,
        turn=turn,
        newest=game.turn,
        messages=press.turn_press(p.db(), game, seat.code, turn),
    )
