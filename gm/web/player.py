"""The player's pages: sign in and out, the seat page, check and submit orders, own reports."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from flask import Blueprint, abort, g, redirect, request, send_file, session
from werkzeug.exceptions import Forbidden
from werkzeug.wrappers import Response

from gm.core.words import counted
from gm.mail.settings import mail_settings
from gm.services import observer_portal, open_games, press, seat_page as facts, seat_turns, staff, turnfiles, uploads
from gm.services.guesses import seat_target
from gm.services.house import paying
from gm.services.portal_access import (
    GONE,
    SIGNED_IN,
    holder,
    no_longer_theirs,
    seat_by_id,
    seat_in_game,
    seat_sign_in,
    session_vouches,
    use_link,
)
from gm.services.seats import LEFT
from gm.services.turn_charges import held_turns
from gm.store import records
from gm.store.records import GameRecord, SeatRecord
from gm.web.gm_pages import gm_session, signed_in_gm
from gm.web.guard import check_csrf, end_session, guess_keys, refuse_if_blocked, start_session
from gm.web.observer_pages import observer_session, signed_in_observer
from gm.web.portal import PortalResponse, page, portal
from gm.web.turn_views import CachedRows, turn_view
from gm.web.zones import find_zone, zone_list

blueprint = Blueprint("player", __name__)

# A turn file is plain text; these are the names players' editors give it.
_UPLOAD_SUFFIXES = {"", ".txt", ".text", ".asc", ".ord", ".orders"}
_UPLOAD_TYPES = ("text/", "application/octet-stream")


def signed_in_seat() -> tuple[GameRecord, SeatRecord] | None:
    """The signed-in seat; None when nobody is, or when the seat has changed since sign-in (a new
    secret or player, or its player left the game): that ends the session, and g.signed_out says
    why, for the page that answers."""
    seat_id = session.get("seat")
    if seat_id is None:
        return None
    found = seat_in_game(portal().db(), seat_id)
    if found is None:  # no such seat (a database restored from before it): nobody's
        end_session(portal().sessions)
        return None
    game, seat, seats = found
    why = no_longer_theirs(seat, session.get("fp"))
    if why:
        end_session(portal().sessions)
        g.signed_out = "You were signed out: " + _not_yours(game, seat, why)
        return None
    g.seats = (game.id, seats)
    return game, seat


def _not_yours(game: GameRecord, seat: SeatRecord, why: str, since: str = "you signed in") -> str:
    """Why a session (or, with `since` saying so, a link) made for a seat no longer signs in to
    it, and what to do."""
    if why == GONE:
        return (
            f"the player of seat {seat.code} of {game.name} has left the game ({seat.status}), so it takes no "
            "orders or press from them, and its reports are no longer theirs. If you think this is a mistake, "
            "ask your GM."
        )
    return (
        f"seat {seat.code} of {game.name} has a new secret or a new player since {since}. If the seat is yours, "
        "sign in with its current secret, or ask for a new sign-in link by mail."
    )


def _seats_read(game: GameRecord) -> list[SeatRecord] | None:
    """The game's seats as this request read them in signed_in_seat, or None. (flask.g lives for
    one request: the next request reads them again, and sees a join or a new secret.)"""
    read: tuple[int, list[SeatRecord]] | None = g.get("seats")
    return read[1] if read is not None and read[0] == game.id else None


class SignedOut(Forbidden):
    """403 for a session that this very request ended: the page is titled so."""

    title = "Signed out"


def require_seat() -> tuple[GameRecord, SeatRecord]:
    """The signed-in seat, or 403 saying why there is none."""
    found = signed_in_seat()
    if found is None and g.get("signed_out"):
        raise SignedOut(g.signed_out)
    if found is None:
        abort(403, "You are not signed in (or your session has ended). Sign in again on the first page.")
    return found


@blueprint.get("/")
def home() -> Response:
    found = signed_in_seat()
    if found is None:
        if session.get("gm"):
            return redirect("/gm")
        if signed_in_observer() is not None:
            return redirect("/observe")
        p = portal()
        return page(
            "sign_in.html",
            title="Sign in",
            notice=g.get("signed_out") or session.pop("ended_notice", None),
            listing=open_games.open_games(p.db(), p.home),
            gm_address=mail_settings(p.home).address,
        )
    return seat_page(*found, press_result=session.pop("press_notice", None))


@blueprint.post("/sign-in")
def sign_in() -> Response:
    check_csrf(request.form.get("csrf"))
    p = portal()
    game, code, secret = (request.form.get(k, "")[:100] for k in ("game", "seat", "secret"))
    target = seat_target(game, code)
    keys = guess_keys(p.known, target)
    refuse_if_blocked(p.limiter, *keys)
    seat = seat_sign_in(p.db(), p.verified, game, code, secret)
    if seat is None:
        p.limiter.failed(*keys)
        return _no_match(game, code)
    if seat.status in LEFT:  # the right secret, of a seat its player has left: nothing to sign in to
        held_by = records.game_of_seat(p.db(), seat.id)
        if held_by is None:  # the seat went meanwhile (a database restored from before it): no match
            return _no_match(game, code)
        left = _not_yours(held_by, seat, GONE)
        return page("sign_in.html", 403, title="Sign in", game=game, seat=code, error=left[:1].upper() + left[1:])
    start_session(p.sessions, f"seat:{seat.id}", seat=seat.id, fp=holder(seat), via="secret")
    _browser_zone()
    response = redirect("/", 303)
    p.known.remember(request, response, target)
    return response


def _no_match(game: str, code: str) -> PortalResponse:
    return page(
        "sign_in.html",
        401,
        title="Sign in",
        game=game,
        seat=code,
        error="That game, seat and secret do not match. Check all three (the secret is on "
        "the message that seated you) and try again.",
    )


@blueprint.post("/sign-out")
def sign_out() -> Response:
    check_csrf(request.form.get("csrf"))
    end_session(portal().sessions)
    return redirect("/", 303)


@blueprint.post("/sign-out-everywhere")
def sign_out_everywhere() -> Response:
    """Sign out this browser and every other signed in as the same seat, GM or observer (a
    browser left signed in elsewhere, a copied cookie): without it only a new secret or password
    ended them. Only a live session of whoever holds the seat now can do it."""
    check_csrf(request.form.get("csrf"))
    who = _signed_in_as()
    if who is None:  # nobody signed in (or the session just ended): nothing to end
        return redirect("/", 303)
    ended = portal().sessions.end_all(who)
    session.clear()
    session["ended_notice"] = (
        f"You are signed out everywhere: {counted(ended, 'session')} ended, this one among "
        "them. A copy of a cookie made before no longer signs in; sign in again here."
    )
    return redirect("/", 303)


def _signed_in_as() -> str | None:
    """Whom this session's sessions are recorded for ('seat:ID', 'gm:ID', 'observer:ID'), while
    it still signs in to it; None otherwise."""
    if session.get("seat") is not None:
        found = signed_in_seat()
        return f"seat:{found[1].id}" if found is not None else None
    if session.get("gm") is not None:
        account = signed_in_gm()
        return f"gm:{account.id}" if account is not None else None
    if session.get("observer") is not None:
        observer = signed_in_observer()
        return f"observer:{observer.observer_id}" if observer is not None else None
    return None


@blueprint.get("/link/<token>")
def link(token: str) -> Response:
    # A button, not an automatic sign-in: mail scanners that open links must not use them up.
    return page("link.html", title="Sign in with your link", token=token)


@blueprint.post("/link")
def use_sign_in_link() -> Response:
    # No limit on tries: a link is signed and random, so there is nothing to guess, and a player
    # whose seat strangers are guessing at signs in this way.
    check_csrf(request.form.get("csrf"))
    p = portal()
    token = request.form.get("token", "")[:500]
    signed_gm = staff.use_link(p.db(), p.home, p.clock, token)
    if signed_gm is not None:
        return gm_session(signed_gm)
    observer = observer_portal.use_link(p.db(), p.home, p.clock, token)
    if observer is not None:
        return observer_session(observer)
    used = use_link(p.db(), p.home, p.clock, token)
    found = seat_by_id(p.db(), used.seat_id) if used.seat_id is not None else None
    if found is None:
        return page(
            "error.html",
            401,
            title="That link does not work",
            message="The link has expired, was used already, or was cut short by your mail program. "
            "Ask your GM for a new one, or sign in with your secret.",
        )
    game, seat = found
    if used.refusal:
        return page(
            "error.html",
            401,
            title="That link is no longer valid",
            message="This link no longer signs in: " + _not_yours(game, seat, used.refusal, "it was made"),
        )
    start_session(p.sessions, f"seat:{seat.id}", seat=seat.id, fp=holder(seat), via="link")
    _browser_zone()
    response = redirect("/", 303)
    p.known.remember(request, response, seat_target(game.name, seat.code))
    return response


def _browser_zone() -> None:
    """At sign-in, the zone the portal's script read from the browser (a hidden field of the
    form), for a session that has none yet; without the script times stay in UTC until chosen."""
    guess = find_zone(request.form.get("zone", ""))
    if guess is not None and "zone" not in session:
        session["zone"] = guess


@blueprint.post("/zone")
def choose_zone() -> Response:
    check_csrf(request.form.get("csrf"))
    typed = request.form.get("zone", "")
    zone = find_zone(typed)
    if zone is None:
        found = signed_in_seat()
        if found is None:
            return redirect("/", 303)
        return seat_page(
            *found,
            status=400,
            zone_error=(
                f"“{typed.strip()[:100]}” is not a time zone gm knows, so nothing changed. Type a city such as "
                "Tokyo or a zone such as Asia/Tokyo, and choose it from the list."
            ),
        )
    session["zone"] = zone
    return redirect("/", 303)


def _sent_orders() -> tuple[bytes, str] | str:
    """(bytes, source) from the upload if one was chosen, else from the text area; or why not
    (a refusal)."""
    upload = request.files.get("turn_file")
    if upload is not None and upload.filename:
        name = Path(upload.filename).name[:100]
        suffix = Path(name).suffix.lower()
        if suffix not in _UPLOAD_SUFFIXES or not upload.mimetype.startswith(_UPLOAD_TYPES):
            return f"'{name}' is not a plain-text turn file. Upload a .txt file, or paste the orders into the text box."
        return upload.stream.read(portal().max_bytes + 1), f"portal upload {name}"
    text = request.form.get("orders", "")
    if not text.strip():
        return "Write or paste your orders in the text box, or choose a file, first."
    return text.encode("utf-8"), "portal form"


@blueprint.post("/orders")
def orders() -> Response:
    check_csrf(request.form.get("csrf"))
    game, seat = require_seat()
    p = portal()
    sent = _sent_orders()
    final = request.form.get("final") == "yes"
    if isinstance(sent, str):
        return seat_page(
            game, seat, result={"refusal": sent, "final_box": final}, text=request.form.get("orders"), status=400
        )
    raw, source = sent
    # Orders without a secret of their own go on the session's word (portal_access.SIGNED_IN).
    prepared = uploads.prepare_turn_file(raw, game, seat, SIGNED_IN, final, p.max_bytes)
    if prepared.refusal:
        return seat_page(
            game,
            seat,
            result={"refusal": prepared.refusal, "final_box": final},
            text=prepared.shown or None,
            status=400,
        )
    return _check_or_submit(game, seat, prepared, source, request.form.get("action") == "submit", final)


def _check_or_submit(
    game: GameRecord, seat: SeatRecord, prepared: uploads.Prepared, source: str, send: bool, final_box: bool = False
) -> PortalResponse:
    p = portal()
    db = p.db()
    if session.get("via") == "link":
        source += " (signed in by link)"  # who vouched for the orders, for the GM reading the history
    # A secret written in an uploaded file is a guess like one on the sign-in page, and limited the same way.
    keys = guess_keys(p.known, seat_target(game.name, seat.code))
    if not prepared.written_in:
        # A file without a secret of its own goes on the session's word and guesses at nothing:
        # strangers' guesses at the seat must not hold up its signed-in player (docs/portal.md).
        refuse_if_blocked(p.limiter, *keys)

    def secret_check(secret: str, stored: str) -> bool:
        if secret == SIGNED_IN:
            return session_vouches(stored, seat, session.get("fp"))
        if p.verified.check(secret, stored):
            return True
        p.limiter.failed(*keys)
        return False

    seats = _seats_read(game)
    rows = CachedRows(db, (game, seats) if seats is not None else None)
    if send:
        receipt = turnfiles.submit(
            db, p.home, p.clock, prepared.data, "web", source, secret_check=secret_check, rows=rows, writing=p.writing
        )
        checked = receipt.checked
    else:
        receipt, checked = (
            None,
            turnfiles.check_turn_file(db, p.home, prepared.data, secret_check=secret_check, rows=rows),
        )
    press_result = {"lines": [r.to_json() for r in receipt.press]} if receipt and receipt.press else None
    if receipt and checked.press_only and checked.seat is not None:  # press alone: the orders stay as they were
        return seat_page(
            records.game_by_name(db, game.name),
            seat,
            press_result=press_result,
            status=200 if all(r.sent for r in receipt.press) else 400,
        )
    problems = [prepared.sent(pr) for pr in checked.problems]  # at the lines the player sent
    # What the game warns of (an order that will probably fail): the acknowledgement says it too.
    warnings = [prepared.sent(w) for w in checked.warnings]
    result: dict[str, object] = {
        "action": "submit" if send else "check",
        "refusal": turnfiles.refusal_at(checked, prepared.sent),
        "accepted": checked.accepted,
        "orders": len(checked.orders),
        "final": checked.final,
        "vote": checked.vote.words() if checked.vote else None,  # the seat's own, never another's
        "stored": bool(receipt and receipt.stored),
        "replaced": bool(receipt and receipt.replaced),
        "whole_file": [pr.message for pr in problems if pr.line == 0],
        "problem_count": len(problems),
        "whole_file_warnings": [w.message for w in warnings if w.line == 0],
        "warning_count": len(warnings),
        "lines": uploads.numbered_lines(prepared.shown, problems, warnings),
        "final_box": final_box,  # what the player ticked, shown again after a check
    }
    # The turn may have been run meanwhile; show the game as it is now.
    return seat_page(
        records.game_by_name(db, game.name),
        seat,
        result=result,
        text=prepared.shown,
        status=400 if checked.refusal else 200,
        press_result=press_result,
    )


@blueprint.post("/orders/final")
def mark_final() -> Response:
    check_csrf(request.form.get("csrf"))
    game, seat = require_seat()
    p = portal()
    raw = facts.current_archived(p.db(), p.home, game, seat)
    if raw is None:
        return seat_page(
            game, seat, result={"refusal": "You have no valid orders for this turn to mark final."}, status=400
        )
    prepared = uploads.prepare_turn_file(raw, game, seat, SIGNED_IN, True, p.max_bytes)
    return _check_or_submit(game, seat, prepared, "portal final", True)


@blueprint.get("/history")
def history() -> Response:
    """Every version the seat sent, all turns (the seat page shows only the newest)."""
    game, seat = require_seat()
    db = portal().db()
    view = turn_view(db, game, _seats_read(game))
    title = view.title if view is not None else game.name
    return page(
        "history.html",
        title=f"What you sent — {title} — {seat.code}",
        heading=title,
        game=game.name,
        seat=seat.code,
        history=facts.submission_history(db, portal().home, game, seat),
    )


REPORT_TYPES = {"pdf": "application/pdf", "json": "application/json", "html": "text/html"}


@blueprint.get("/reports/<game_name>/<seat_code>/<int:turn>.<kind>")
def report(game_name: str, seat_code: str, turn: int, kind: str) -> Response:
    game, seat = require_seat()
    # Another seat's report and a report that does not exist look the same from outside.
    if game_name != game.name or seat_code.upper() != seat.code:
        abort(404)
    p = portal()
    if turn in held_turns(p.db(), game, seat):
        return held_page(game, seat, turn)
    path = facts.report_file(p.db(), p.home, game, seat, turn, kind)
    if path is None:
        abort(404)
    return send_file(
        path,
        mimetype=REPORT_TYPES[kind],
        as_attachment=True,
        # The kit is named as in the report mail; the others keep the name they always had.
        download_name=f"{game.name}-{turn}-{seat.code}.html"
        if kind == "html"
        else f"{game.name}-turn{turn}-{seat.code}.{kind}",
    )


def held_page(game: GameRecord, seat: SeatRecord, turn: int) -> PortalResponse:
    """What a report held for credits shows instead of itself, and how to pay (402: Payment Required)."""
    p = portal()
    db = p.db()
    return page(
        "held.html",
        402,
        title=f"Turn {turn} of {game.name}: held until paid for",
        held=sorted(held_turns(db, game, seat)),
        credits=facts.credits_for(db, seat.email),
        paying=paying(p.home),
    )


def seat_page(
    game: GameRecord,
    seat: SeatRecord,
    result: Mapping[str, object] | None = None,
    text: str | None = None,
    status: int = 200,
    zone_error: str | None = None,
    press_result: Mapping[str, object] | None = None,
) -> PortalResponse:
    """The seat's page, with what was just checked, sent or refused (`result`, `press_result`) and
    the text to show again in the orders form."""
    p = portal()
    db = p.db()
    zone = session.get("zone", "UTC")
    view = turn_view(db, game, _seats_read(game))  # once for the facts and the form
    seen = facts.seat_page_facts(db, p.home, game, seat, zone, p.clock, view)
    form = text if text is not None else facts.order_form(game, seat, view, seen["seat"]["score"] is None)
    return page(
        "seat.html",
        status,
        title=f"{seen['game']['title']} — {seat.code}",
        facts=seen,
        result=result,
        form=form,
        open=game.status != "over",
        zone=zone,
        zone_list=zone_list(),
        zone_error=zone_error,
        latest=seat_turns.turn_report(db, p.home, game, seat, turns=facts.visible_turns(seen["reports"])),
        paying=paying(p.home),
        press=press.seat_press(db, game, seat, _seats_read(game)),
        press_result=press_result,
    )
