"""A sign-in link by mail for a player who lost the secret: game and seat in, one answer out.

The answer reads the same whether or not the game and seat exist (nobody learns which seats
there are); the link goes only to the address the GM registered for the seat. Two limits keep
anyone from flooding a player's mailbox: at most one mailed link per seat every
[portal] mailed_link_minutes (10), and [portal] link_requests_per_hour (10) requests from one
client address, or from one browser that signed in to the seat before (that browser alone).
"""

from __future__ import annotations

from typing import cast

from flask import Blueprint, Flask, current_app, request
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from gm.errors import GMError
from gm.services.guesses import SignInLimiter, seat_target
from gm.services.portal_links import LINK_REQUESTS_PER_HOUR, MAILED_LINK_MINUTES, can_mail, request_link
from gm.web.guard import check_csrf
from gm.web.portal import page, portal, portal_of
from gm.web.proxies import client_of

blueprint = Blueprint("link_pages", __name__)

_TITLE = "Get a sign-in link by mail"
_NO_MAIL = (
    "This portal does not send mail, so it cannot send you a sign-in link. Ask your GM for a "
    "one-time link or a new secret."
)


def register(app: Flask) -> None:
    """Add the pages to the portal (after create_app has set up app.extensions['gm'])."""
    gm = portal_of(app)
    per_hour = gm.home.setting("portal", "link_requests_per_hour", LINK_REQUESTS_PER_HOUR)
    if per_hour < 1:
        raise GMError(f"{gm.home.settings_file}: [portal] link_requests_per_hour must be 1 or more, not {per_hour}.")
    # Kept where the sign-in limiter keeps its count, so every worker process of `gm serve` counts
    # the same requests.
    app.extensions["gm_link_requests"] = SignInLimiter(per_hour, 3600, path=gm.limiter.path, scope="link-request")
    app.register_blueprint(blueprint)


def _limiter() -> SignInLimiter:
    return cast(SignInLimiter, current_app.extensions["gm_link_requests"])


def _minutes() -> int:
    minutes: int = portal().home.setting("portal", "mailed_link_minutes", MAILED_LINK_MINUTES)
    return minutes


@blueprint.get("/link-by-mail")
def ask() -> Response:
    home = portal().home
    if not can_mail(home):
        return page("link_request.html", title=_TITLE, no_mail=_NO_MAIL)
    return page("link_request.html", title=_TITLE, minutes=home.setting("portal", "link_minutes", 60))


@blueprint.post("/link-by-mail")
def send() -> Response:
    check_csrf(request.form.get("csrf"))
    p = portal()
    if not can_mail(p.home):
        return page("link_request.html", title=_TITLE, no_mail=_NO_MAIL)
    game, seat = (request.form.get(k, "")[:100] for k in ("game", "seat"))
    where = _counted_against(game, seat)
    wait = _limiter().blocked(where)
    if wait:
        minutes = max(1, round(wait / 60))
        here = "this browser" if where.startswith("browser:") else "here"
        raise TooManyRequests(
            f"Too many requests for sign-in links from {here}. Try again in about {minutes} minute(s), or ask your GM.",
            retry_after=int(wait) + 1,
        )
    _limiter().failed(where)  # every request counts, found or not
    request_link(p.db(), p.home, p.clock, game, seat)
    return page(
        "link_request.html",
        title=_TITLE,
        answered=True,
        minutes=p.home.setting("portal", "link_minutes", 60),
        every=_minutes(),
    )


def _counted_against(game: str, seat: str) -> str:
    """What a request counts against: a browser that signed in to the seat before, that browser
    alone (as its guesses do, gm/web/guard.py), so whoever shares the player's client address
    (a campus, a mobile carrier's NAT) cannot use up her requests; any other, its client address
    (an IPv6 client by its /64)."""
    browser = portal().known.known_for(request, seat_target(game, seat))
    return f"browser:{browser}" if browser is not None else f"address:{client_of(request.remote_addr)}"
