"""The signed-in seat's past turns: a page per turn (its maps, the standings, what happened, the
report's files) and the maps as pictures, all from that seat's own stored reports."""

from __future__ import annotations

from flask import Blueprint, Response, abort

from gm.services import seat_turns
from gm.services.turn_charges import held_turns
from gm.web.player import held_page, require_seat
from gm.web.portal import page, portal

blueprint = Blueprint("turns", __name__)


@blueprint.get("/turn/<int:turn>")
def turn_page(turn: int) -> Response:
    game, seat = require_seat()
    p = portal()
    if turn in held_turns(p.db(), game, seat):
        return held_page(game, seat, turn)
    found = seat_turns.turn_report(p.db(), p.home, game, seat, turn)
    if found is None:
        abort(404)  # no report of that turn for this seat (yet): there is nothing to show
    title = found.report.get("game", {}).get("title", game.name)
    return page(
        "turn.html",
        title=f"Turn {turn} — {title} — {seat.code}",
        heading=title,
        game=game.name,
        seat=seat.code,
        player=seat.name,
        t=found,
    )


@blueprint.get("/turn/<int:turn>/<file>")
def turn_map(turn: int, file: str) -> Response:
    game, seat = require_seat()
    p = portal()
    found = seat_turns.turn_map(p.db(), p.home, game, seat, turn, file)
    if found is None:
        abort(404)
    drawn, picture = found
    # Like the reports, not kept by the browser (Cache-Control: no-store): after sign-out nobody
    # at the same computer finds it in the cache. The server draws each one once.
    return Response(picture, mimetype=drawn.media_type)
