"""A one-time link and a session belong to the player and the secret they were made for (issue 29):
after `gm game secret`, a standby taking the seat, or the seat's player leaving, the old link
says it is no longer valid, and the old session's next request is signed out with a page that
says why; the rightful player's new links and sessions work. In-process, through the portal's
routes; tests/web/test_browser_links.py does it in Chromium, and the abuse battery over HTTP."""

from __future__ import annotations

import re

from tests.web.conftest import Player
from tests.web.test_portal import submissions
from tests.web.test_sign_out import cookie_of

STILL_YOURS = "has a new secret or a new player since you signed in"
LINK_MADE = "has a new secret or a new player since it was made"
LEFT = "has left the game (dropped)"


def orders(body: str, seat: str) -> str:
    """A turn file for whatever turn g1 collects, vouched for by the session (no secret in it)."""
    return f"GAME g1\nPLAYER {seat}\nPASSWORD <your secret>\n{body}\nEND\n"


def link_token(gm, home, seat: str) -> str:
    made = gm("portal", "link", "g1", seat, home=home)
    assert made.code == 0, made.err
    return made.out.strip().rsplit("/", 1)[1]


def by_link(app, token: str) -> Player:
    player = Player(app.test_client())
    player.post("/link", {"token": token})
    return player


def copy_of(app, player: Player) -> Player:
    """Another browser holding a copy of the player's cookie (and the page's CSRF token)."""
    stranger = Player(app.test_client())
    stranger.client.set_cookie("gm_session", cookie_of(player))
    stranger.token = player.token
    return stranger


def acts_as_seat(player: Player, seat: str, claim: str) -> list[bool]:
    """What the session can do as the seat: submit orders (taken, whatever the rules then say
    of them), send press, read its page, its report of turn 1, the page of turn 1."""
    sent = player.post("/orders", {"orders": orders(claim, seat=seat), "action": "submit"})
    pressed = player.post("/press", {"to": "GE", "text": "hello"}, follow=False)
    return [
        sent.status_code == 200 and ("Accepted:" in sent.text or "Stored, but not used" in sent.text),
        pressed.status_code == 303,
        f"You are <strong>{seat}</strong>" in player.get("/").text,
        player.get(f"/reports/g1/{seat}/1.json").status_code == 200,
        player.get("/turn/1").status_code == 200,
    ]


NOTHING, EVERYTHING = [False] * 5, [True] * 5


def paid_up(gm, home) -> None:
    """Every player has credits, so no report is held (held reports are not read on the portal)."""
    for name in ("ann", "bob", "cy", "di"):
        assert gm("credits", "buy", f"{name}@example.org", "5", "--paid", "12.50", home=home).code == 0


def test_a_new_secret_ends_the_old_links_and_sessions_and_the_new_ones_work(app, gm, home, game):
    paid_up(gm, home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    unused = link_token(gm, home, "RU")
    session = by_link(app, link_token(gm, home, "RU"))
    assert acts_as_seat(session, "RU", "CLAIM MOS") == EVERYTHING
    copy = copy_of(app, session)
    made = gm("game", "secret", "g1", "RU", home=home)
    assert made.code == 0
    new_secret = re.search(r"New secret for RU in g1: (\S+)", made.out)[1]

    # The session's next request (here from a copy of its cookie) is refused and says why...
    refused = copy.post("/orders", {"orders": orders("CLAIM UKR", seat="RU"), "action": "submit"})
    assert refused.status_code == 403 and "You were signed out: seat RU of g1 " + STILL_YOURS in refused.text
    assert acts_as_seat(copy, "RU", "CLAIM UKR") == NOTHING
    # ... and the session has ended, for every copy of it.
    assert "Sign in to your seat" in session.get("/").text and acts_as_seat(session, "RU", "CLAIM UKR") == NOTHING
    old_link = by_link(app, unused).page
    assert old_link.status_code == 401 and "That link is no longer valid" in old_link.text
    assert "This link no longer signs in: seat RU of g1 " + LINK_MADE in old_link.text
    assert len([row for row in submissions(home) if row[0] == "RU"]) == 1  # only the first went in

    # The rightful player: the new secret, and a link made now, sign in and act as the seat.
    player = Player(app.test_client())
    assert "You are <strong>RU</strong>" in player.sign_in("RU", new_secret).text
    assert acts_as_seat(player, "RU", "CLAIM UKR") == EVERYTHING
    assert acts_as_seat(by_link(app, link_token(gm, home, "RU")), "RU", "CLAIM MOS") == EVERYTHING


def test_a_standby_taking_the_seat_ends_the_leavers_links_and_sessions(app, gm, home, game):
    assert gm("game", "set", "g1", "nmr-limit", "1", home=home).code == 0
    assert gm("game", "standby", "g1", "zed@example.org", "--name", "Zed", home=home).code == 0
    unused = link_token(gm, home, "BR")
    ann = by_link(app, link_token(gm, home, "BR"))
    ann_by_secret = Player(app.test_client())
    assert "You are <strong>BR</strong>" in ann_by_secret.sign_in("BR", game["BR"]).text
    ran = gm("turn", "run", "g1", "--now", home=home)  # nobody sent orders: all drop, Zed takes BR
    assert ran.code == 0, ran.err
    zed = re.search(r"secret for BR: (\S+)", ran.out)[1]

    for old in (ann, ann_by_secret):
        assert f"You were signed out: seat BR of g1 {STILL_YOURS}" in old.get("/").text
    assert acts_as_seat(copy_of(app, ann), "BR", "CLAIM ENG") == NOTHING
    assert "That link is no longer valid" in by_link(app, unused).page.text
    assert ann_by_secret.sign_in("BR", game["BR"]).status_code == 401  # Ann's secret is not the seat's
    # Zed, the standby, signs in with the mailed secret and reads the seat's report of turn 1.
    standby = Player(app.test_client())
    assert "You are <strong>BR</strong>, Zed." in standby.sign_in("BR", zed).text
    assert acts_as_seat(standby, "BR", "PLACE ENG 3") == EVERYTHING
    assert acts_as_seat(by_link(app, link_token(gm, home, "BR")), "BR", "PLACE ENG 3") == EVERYTHING


def test_a_seat_whose_player_left_takes_nothing_from_their_links_sessions_or_secret(app, gm, home, game, tmp_path):
    paid_up(gm, home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    unused = link_token(gm, home, "RU")
    session = by_link(app, link_token(gm, home, "RU"))
    copy = copy_of(app, session)
    assert gm("seat", "drop", "g1", "RU", home=home).code == 0

    assert f"You were signed out: the player of seat RU of g1 {LEFT}" in session.get("/").text
    assert acts_as_seat(copy, "RU", "CLAIM MOS") == NOTHING
    old_link = by_link(app, unused).page
    assert old_link.status_code == 401 and f"This link no longer signs in: the player of seat RU of g1 {LEFT}" in (
        old_link.text
    )
    by_secret = Player(app.test_client()).sign_in("RU", game["RU"])
    assert by_secret.status_code == 403 and f"The player of seat RU of g1 {LEFT}" in by_secret.text
    assert "You are <strong>" not in by_secret.text
    made = gm("portal", "link", "g1", "RU", home=home)
    assert made.code == 1 and "seat RU of 'g1' has dropped: Bob no longer plays it" in made.err
    # Nor by mail, with the secret the player still has: the seat is the robot's now.
    form = tmp_path / "ru.txt"
    form.write_text(f"GAME g1\nPLAYER RU\nPASSWORD {game['RU']}\nCLAIM MOS\nEND\n")
    sent = gm("submit", form, home=home)
    assert sent.code == 1 and "player RU of 'g1' has dropped: the seat takes no more orders" in sent.err
    assert [row for row in submissions(home) if row[0] == "RU"] == []
    # The players who stay are not touched by it.
    ann = Player(app.test_client())
    ann.sign_in("BR", game["BR"])
    assert acts_as_seat(ann, "BR", "PLACE ENG 3") == EVERYTHING


def test_a_gm_link_made_before_a_new_password_no_longer_signs_in(app, gm, home, game, monkeypatch):
    from tests.web.test_portal import set_gm_password

    assert set_gm_password(gm, home, monkeypatch).code == 0
    old = gm("portal", "link", "--gm", home=home).out.strip().rsplit("/", 1)[1]
    assert set_gm_password(gm, home, monkeypatch, "another long password").code == 0
    assert by_link(app, old).page.status_code == 401
    new = gm("portal", "link", "--gm", home=home).out.strip().rsplit("/", 1)[1]
    assert "<h1>Games</h1>" in by_link(app, new).page.text
