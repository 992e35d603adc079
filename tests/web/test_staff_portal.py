"""Issue 33: the house's GMs on the portal. Each signs in with their name and password (the
owner with the password alone, as before), or their own one-time link; what they do is written
in the audit log under their name; a GM of some games sees and acts on those only, and is told
so clearly anywhere else; a GM removed, or given a new password, is signed out."""

from __future__ import annotations

import io
import json
import sqlite3
import sys

import pytest

from tests.intake.mails import set_mail_address
from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import set_gm_password

ANN = "ann's own long password"


@pytest.fixture
def staffed(app, gm, home, game, monkeypatch):
    """g1 (the game fixture) and g2; the owner's password set; ann, a GM of g2 only, with hers."""
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    assert set_gm_password(gm, home, monkeypatch).code == 0
    assert gm("gm", "add", "ann", "--games", "g2", home=home).code == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(ANN + "\n"))
    assert gm("gm", "password", "ann", home=home).code == 0
    return app


def sign_in(app, name: str, password: str) -> Player:
    player = Player(app.test_client())
    player.get("/gm")
    player.post("/gm/sign-in", {"name": name, "password": password})
    return player


def audit(gm, home) -> list[dict]:
    return json.loads(gm("audit", "--json", home=home).out)


def held(home, name: str) -> int:
    return sqlite3.connect(home / "gm.db").execute("SELECT held FROM games WHERE name = ?", [name]).fetchone()[0]


def test_each_gm_signs_in_with_their_name_and_acts_under_it(staffed, gm, home):
    ann = sign_in(staffed, "ann", ANN)
    assert "Signed in as <strong>ann</strong>, a GM of g2 only." in ann.page.text
    assert "g2 is held" in ann.post("/gm/game/g2/hold").text
    owner = sign_in(staffed, "", GM_PASSWORD)  # the owner, as before there were names
    assert "Signed in as <strong>owner</strong>." in owner.page.text
    assert "g1 is held" in owner.post("/gm/game/g1/hold").text
    assert [(e["game"], e["action"], e["by"]) for e in audit(gm, home)[-2:]] == [
        ("g2", "hold", "ann"),
        ("g1", "hold", "owner"),
    ]
    assert "by ann" in owner.get("/gm/game/g2").text  # the game's log says who


@pytest.mark.parametrize(
    ("name", "password"), [("ann", GM_PASSWORD), ("owner", ANN), ("zed", ANN), ("", ANN), ("ann", "")]
)
def test_a_wrong_name_or_password_signs_nobody_in(staffed, name, password):
    player = sign_in(staffed, name, password)
    assert player.page.status_code == 401 and "That is not the password of that GM." in player.page.text
    assert player.get("/gm/game/g2").status_code == 403


def test_a_gm_of_some_games_sees_and_acts_on_those_only(staffed, gm, home):
    ann = sign_in(staffed, "ann", ANN)
    games = ann.get("/gm").text
    assert 'id="game-g2"' in games and 'id="game-g1"' not in games
    assert 'href="/gm/questions"' not in games
    page = ann.get("/gm/game/g1")
    assert page.status_code == 403
    assert (
        "You are a GM of g2 only: &#39;g1&#39; is not yours to see or act on. Ask the house&#39;s owner." in page.text
    )
    before = audit(gm, home)
    for action in ("hold", "remind", "seat-waiting"):
        assert ann.post(f"/gm/game/g1/{action}").status_code == 403
    assert ann.post("/gm/game/g1/deadline", {"when": "2030-01-04 18:00 UTC"}).status_code == 403
    assert held(home, "g1") == 0 and audit(gm, home) == before
    page = ann.get("/gm/questions")
    assert page.status_code == 403 and "the questions mailed to the house are the house&#39;s" in page.text
    assert ann.post("/gm/questions/1/answered").status_code == 403
    assert ann.get("/gm/audit?game=g1").status_code == 403
    log = ann.get("/gm/audit").text
    assert "Every game of yours" in log and "<option>g1</option>" not in log
    assert "· g1 ·" not in log and "· g2 ·" in log and "· the house ·" not in log


def test_each_gm_has_their_own_one_time_link(staffed, gm, home):
    owners = gm("portal", "link", "--gm", home=home)
    anns = gm("--as", "ann", "portal", "link", "--gm", home=home)
    assert "it signs in as ann" in anns.err and "it signs in as owner" in owners.err
    ann = Player(staffed.test_client())
    assert "Signed in as <strong>ann</strong>, a GM of g2 only." in ann.post("/link", {"token": token(anns)}).text
    owner = Player(staffed.test_client())
    assert "Signed in as <strong>owner</strong>." in owner.post("/link", {"token": token(owners)}).text  # still good
    assert Player(staffed.test_client()).post("/link", {"token": token(anns)}).status_code == 401  # used once


def test_a_gm_given_another_game_sees_it_at_the_next_request(staffed, gm, home):
    ann = sign_in(staffed, "ann", ANN)
    assert ann.get("/gm/game/g1").status_code == 403
    assert gm("gm", "games", "ann", "g1,g2", home=home).code == 0
    assert ann.get("/gm/game/g1").status_code == 200
    assert "Signed in as <strong>ann</strong>, a GM of g1, g2 only." in ann.page.text
    assert "g1 is held" in ann.post("/gm/game/g1/hold").text


def token(ran) -> str:
    return ran.out.strip().rsplit("/", 1)[1]


def test_a_gm_removed_or_given_a_new_password_is_signed_out(staffed, gm, home, monkeypatch):
    ann = sign_in(staffed, "ann", ANN)
    link = token(gm("--as", "ann", "portal", "link", "--gm", home=home))
    monkeypatch.setattr(sys, "stdin", io.StringIO("another long password\n"))
    assert gm("gm", "password", "ann", home=home).code == 0
    assert ann.get("/gm/game/g2").status_code == 403
    assert Player(staffed.test_client()).post("/link", {"token": link}).status_code == 401  # void with it
    ann = sign_in(staffed, "ann", "another long password")
    assert ann.get("/gm/game/g2").status_code == 200
    assert gm("gm", "remove", "ann", home=home).code == 0
    assert ann.get("/gm/game/g2").status_code == 403
    assert sign_in(staffed, "ann", "another long password").page.status_code == 401


def test_a_players_own_action_is_logged_as_the_players_not_a_gms(staffed, gm, home):
    """A sign-in link a player asks for by mail is logged as the portal's player, not as the
    owner, nor as the GM who last used the portal."""
    ann = sign_in(staffed, "ann", ANN)
    assert "g2 is held" in ann.post("/gm/game/g2/hold").text
    set_mail_address(home)
    player = Player(staffed.test_client())
    player.get("/link-by-mail")
    assert player.post("/link-by-mail", {"game": "g1", "seat": "BR"}).status_code == 200
    assert [(e["action"], e["by"]) for e in audit(gm, home)[-2:]] == [
        ("hold", "ann"),
        ("portal link", "portal (a player)"),
    ]


def from_address(app, address: str) -> Player:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Player(client)


def test_guessing_at_one_gms_password_holds_up_no_other(staffed):
    def attempt(address: str, name: str, password: str):
        player = from_address(staffed, address)
        player.get("/gm")
        return player.post("/gm/sign-in", {"name": name, "password": password})

    # [portal] sign_in_failures (10) wrong passwords for ann, one from each of ten addresses ...
    assert [attempt(f"203.0.113.{n}", "ann", "not hers").status_code for n in range(10)] == [401] * 10
    # ... stop ann's sign-in from any new browser (the limit of her name) ...
    page = attempt("198.51.100.1", "ann", ANN)
    assert page.status_code == 429 and "Too many wrong GM passwords lately" in page.text
    # ... and nobody else's: the owner's guesses are counted apart.
    assert "Signed in as <strong>owner</strong>." in attempt("198.51.100.2", "", GM_PASSWORD).text
