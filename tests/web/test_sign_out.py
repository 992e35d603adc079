"""A session ends when it is ended: a copy of its cookie made before sign-out, a new secret or a new
GM password signs nobody in afterwards, in-process and across the workers of `gm serve`."""

from __future__ import annotations

from urllib.parse import urlencode

from gm.web.app import create_app
from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import orders, set_gm_password, submissions
from tests.web.test_workers import Served, csrf, request, session_cookie, sign_in


def cookie_of(player: Player) -> str:
    return next(c for c in player.client._cookies.values() if c.key == "gm_session").value


def replayed(app, cookie: str, url: str = "/") -> str:
    """The page a stranger gets with a copy of the cookie."""
    stranger = app.test_client()
    stranger.set_cookie("gm_session", cookie)
    return stranger.get(url).text


def test_a_cookie_copied_before_sign_out_does_not_work_after_it(app, signed_in):
    copy = cookie_of(signed_in)
    assert "You are <strong>BR</strong>" in replayed(app, copy)  # the copy works while signed in
    signed_in.post("/sign-out")
    page = replayed(app, copy)
    assert "Sign in to your seat" in page and "You are <strong>" not in page
    # Nor in a new portal on the same home (a restart): the ending is on disk, not in a worker's memory.
    assert "Sign in to your seat" in replayed(create_app(app.extensions["gm"].home), copy)


def test_a_copy_cannot_post_orders_after_sign_out(app, signed_in, home):
    copy, token = cookie_of(signed_in), signed_in.token
    form = {"csrf": token, "orders": orders("CLAIM ENG"), "action": "check"}
    stranger = app.test_client()
    stranger.set_cookie("gm_session", copy)
    assert stranger.post("/orders", data=form).status_code == 200  # the copy works while signed in
    signed_in.post("/sign-out")
    page = stranger.post("/orders", data=form)
    assert page.status_code in (400, 403) and "You are <strong>" not in page.text


def test_a_cookie_copied_before_a_new_secret_does_not_work_after_it(app, signed_in, gm, home):
    copy = cookie_of(signed_in)
    assert gm("game", "secret", "g1", "BR", home=home).code == 0
    assert "Sign in to your seat" in replayed(app, copy)
    assert "Sign in to your seat" in signed_in.get("/").text


def test_a_link_sign_in_ends_at_sign_out_and_the_link_works_once(app, gm, home, game):
    token = gm("portal", "link", "g1", "RU", home=home).out.strip().rsplit("/", 1)[1]
    player = Player(app.test_client())
    assert "You are <strong>RU</strong>" in player.post("/link", {"token": token}).text
    copy = cookie_of(player)
    player.post("/sign-out")
    assert "Sign in to your seat" in replayed(app, copy)
    again = Player(app.test_client())
    assert again.post("/link", {"token": token}).status_code == 401


def test_a_link_session_submits_without_the_secret_until_it_ends(app, gm, home, game):
    """What the secret no longer guards on the portal, the session does: a copy of a link session's
    cookie submits while the session lives, and nothing once it is signed out or the secret changes."""

    def copy_submits(cookie: str, token: str, claim: str) -> bool:
        stranger = app.test_client()
        stranger.set_cookie("gm_session", cookie)
        page = stranger.post("/orders", data={"csrf": token, "orders": orders(claim, seat="RU"), "action": "submit"})
        return "Accepted: 1 order for" in page.text

    def link_session() -> Player:
        token = gm("portal", "link", "g1", "RU", home=home).out.strip().rsplit("/", 1)[1]
        player = Player(app.test_client())
        assert "You are <strong>RU</strong>" in player.post("/link", {"token": token}).text
        return player

    player = link_session()
    copy, token = cookie_of(player), player.token
    assert copy_submits(copy, token, "CLAIM MOS")
    player.post("/sign-out")
    assert not copy_submits(copy, token, "CLAIM UKR")
    player = link_session()
    copy, token = cookie_of(player), player.token
    assert gm("game", "secret", "g1", "RU", home=home).code == 0
    assert not copy_submits(copy, token, "CLAIM UKR")
    assert [row[2] for row in submissions(home)] == ["accepted"]  # only the first went in


def test_a_gm_cookie_copied_before_sign_out_or_a_new_password_does_not_work_after_it(app, gm, home, game, monkeypatch):
    assert set_gm_password(gm, home, monkeypatch).code == 0
    the_gm = Player(app.test_client())
    the_gm.get("/gm")
    assert "<h1>Games</h1>" in the_gm.post("/gm/sign-in", {"password": GM_PASSWORD}).text
    copy = cookie_of(the_gm)
    assert "<h1>Games</h1>" in replayed(app, copy, "/gm")
    the_gm.post("/sign-out")
    assert "Game master sign-in" in replayed(app, copy, "/gm")
    # A second GM session, then a new password: its copy stops working too.
    the_gm.get("/gm")
    the_gm.post("/gm/sign-in", {"password": GM_PASSWORD})
    copy = cookie_of(the_gm)
    assert "<h1>Games</h1>" in replayed(app, copy, "/gm")
    assert set_gm_password(gm, home, monkeypatch, "another long password").code == 0
    assert "Game master sign-in" in replayed(app, copy, "/gm")


def test_sign_out_ends_the_session_on_every_worker(home, game):
    server = Served(home)
    try:
        status, cookie = sign_in(server, "BR", game["BR"])
        assert status == 303
        connection = server.connect()
        response, page = request(connection, "GET", "/", cookie)
        assert "You are <strong>BR</strong>" in page
        form = urlencode({"csrf": csrf(page)}).encode()
        response, _ = request(connection, "POST", "/sign-out", cookie, form, "application/x-www-form-urlencoded")
        assert response.status == 303 and session_cookie(response) != cookie
        connection.close()

        def refused(connection) -> None:  # the copy, on every worker
            response, page = request(connection, "GET", "/", cookie)
            assert response.status == 200 and "Sign in to your seat" in page

        server.on_every_worker(refused)
    finally:
        server.stop()


def test_sign_out_everywhere_ends_every_session_of_the_seat_and_no_other(app, signed_in, game):
    """A browser left signed in elsewhere, or a copy of its cookie, ends when the player asks:
    before, only a new secret from the GM ended it."""
    elsewhere = Player(app.test_client())
    assert "You are <strong>BR</strong>" in elsewhere.sign_in("BR", game["BR"]).text
    russia = Player(app.test_client())
    assert "You are <strong>RU</strong>" in russia.sign_in("RU", game["RU"]).text
    copies = [cookie_of(signed_in), cookie_of(elsewhere)]
    page = signed_in.post("/sign-out-everywhere")
    assert "You are signed out everywhere: 2 sessions ended" in page.text
    for copy in copies:
        assert "Sign in to your seat" in replayed(app, copy)
        stranger = app.test_client()
        stranger.set_cookie("gm_session", copy)
        refused = stranger.post("/orders", data={"csrf": signed_in.token, "orders": orders("CLAIM ENG")})
        assert refused.status_code in (400, 403) and "You are <strong>" not in refused.text
    assert "You are <strong>RU</strong>" in russia.get("/").text  # another seat's session goes on
    # Nobody signed in ends nothing, and a session ended already ends nothing more.
    assert "signed out everywhere" not in Player(app.test_client()).post("/sign-out-everywhere").text
    assert "You are <strong>RU</strong>" in russia.get("/").text


def test_sign_out_everywhere_needs_its_csrf_token(app, signed_in):
    copy = cookie_of(signed_in)
    assert signed_in.client.post("/sign-out-everywhere", data={"csrf": "forged"}).status_code == 400
    assert "You are <strong>BR</strong>" in replayed(app, copy)


def test_a_gm_signs_out_everywhere(app, gm, home, game, monkeypatch):
    assert set_gm_password(gm, home, monkeypatch).code == 0
    browsers = []
    for _ in range(2):
        the_gm = Player(app.test_client())
        the_gm.get("/gm")
        assert "<h1>Games</h1>" in the_gm.post("/gm/sign-in", {"password": GM_PASSWORD}).text
        browsers.append(the_gm)
    copy = cookie_of(browsers[1])
    assert "signed out everywhere: 2 sessions ended" in browsers[0].post("/sign-out-everywhere").text
    assert "Game master sign-in" in replayed(app, copy, "/gm")
