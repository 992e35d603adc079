"""An observer on the portal (issue 33): the one-time link in each observer mail signs in once,
to the public pages of the game's published turns and nothing else; no seat's page, report,
picture or form answers an observer's session (D-ALL-5); stopped, their session and links end."""

from __future__ import annotations

import re

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.cli.test_turnfiles import every_seat_votes_draw
from tests.conftest import played_home, use_home
from tests.intake.mails import rows, set_mail_address, turn_file
from tests.web.conftest import Player

OLGA = "olga@example.org"
PRESS = "meet me in Paris"
# The pages an observer's session may see (and those anybody may: sign-in, link, assets).
OPEN_TO_ALL = {"player.home", "player.link", "link_pages.ask", "css", "zone_script", "handoff_script"}
OBSERVER_PAGES = {"observer_pages.latest", "observer_pages.turn_page"}
# A value for each part of a portal address, naming what BR of g1 has: every seat page is asked
# for something that exists for the seat.
PARTS = {"turn": 1, "game_name": "g1", "seat_code": "BR", "kind": "pdf", "file": "map.svg", "token": "x", "name": "g1"}


def observer_links(home) -> list[str]:
    """The tokens of the sign-in links in the observer mails queued so far, in order."""
    bodies = [body for (body,) in rows(home, "SELECT body FROM outbox WHERE kind = 'observer' ORDER BY id")]
    return [m[1] for body in bodies if (m := re.search(r"^  http://127\.0\.0\.1:8000/link/(\S+)$", body, re.M))]


@pytest.fixture(scope="module")
def observed_once(made, tmp_path_factory):
    """g1 observed by Olga, BR's orders with press sent, turn 1 run and published: once a module."""
    orders = tmp_path_factory.mktemp("orders") / "br.txt"
    orders.write_text(turn_file(made.secrets["BR"], f"CLAIM ENG SCO WAL\nPRESS TO FR\n{PRESS}\nENDPRESS"))
    steps = [set_mail_address, ("game", "observe", "g1", OLGA), ("submit", str(orders)), ("turn", "run", "g1", "--now")]
    return played_home(made, tmp_path_factory.mktemp("observed") / "home", *steps)


@pytest.fixture
def observed(observed_once, home, game):
    """observed_once, copied into this test's home."""
    return use_home(observed_once, home)


def signed_in_observer(app, token: str) -> Player:
    olga = Player(app.test_client())
    button = olga.get(f"/link/{token}")
    assert button.status_code == 200 and 'action="/link"' in button.text  # a button: scanners use nothing
    olga.post("/link", {"token": token}, follow=False)
    return olga


def test_the_mailed_link_signs_in_once_to_the_public_pages(observed, gm, home, game):
    [token] = observer_links(home)
    [(body,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'observer'")
    assert "This\nlink signs you in there once, until " in body
    [(stored,)] = rows(home, "SELECT nonce_hash FROM observer_links")
    assert re.fullmatch(r"[0-9a-f]{64}", stored) and stored not in token  # kept hashed
    app = create_app(Home(home))
    olga = signed_in_observer(app, token)
    assert olga.page.status_code == 303 and olga.page.headers["Location"] == "/observe"
    page = olga.get("/observe")
    assert page.status_code == 303 and page.headers["Location"] == "/observe/1"
    page = olga.get("/observe/1")
    assert page.status_code == 200
    text = page.text
    assert "You observe <strong>g1</strong>" in text and "Britain" in text and "Ann" in text
    assert 'id="events"' in text and '<table class="data">' in text
    # Nothing of any seat's own: no secret, no press, no order form, no report files.
    assert PRESS not in text and not any(secret in text for secret in game.values())
    assert "PASSWORD" not in text and "/reports/" not in text and "map.svg" not in text
    assert olga.get("/observe/2").status_code == 404  # not run yet
    assert olga.get("/").status_code == 302  # the first page sends an observer to theirs
    # The link works once.
    again = Player(app.test_client())
    assert again.post("/link", {"token": token}).status_code == 401


def test_no_seat_or_gm_page_answers_an_observer(observed, home, game):
    app = create_app(Home(home))
    olga = signed_in_observer(app, observer_links(home)[0])
    asked = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in OPEN_TO_ALL | OBSERVER_PAGES:
            continue
        url = rule.build({k: PARTS[k] for k in rule.arguments}, append_unknown=False)[1]
        answer = olga.client.get(url)
        # A GM page shows its sign-in form (a password is asked for, nothing of a game shown).
        if rule.endpoint.startswith(("gm.", "gm_desk.")) and answer.status_code in (200, 302, 303):
            assert "Britain" not in answer.text and PRESS not in answer.text, url
            continue
        assert answer.status_code in (403, 404), (url, answer.status_code)
        assert PRESS not in answer.text and "Britain" not in answer.text, url
        asked += 1
    assert asked >= 6  # the seat's pages, reports, pictures, press, history
    olga.get("/observe/1")  # the signed-in session's form token
    for url, data in (("/orders", {"orders": "GAME g1\nEND\n", "action": "submit"}), ("/orders/final", {})):
        assert olga.post(url, data).status_code == 403, url
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)]  # BR's own, nothing from Olga


def test_a_stopped_observer_is_signed_out_and_their_links_end(observed, gm, home):
    app = create_app(Home(home))
    olga = signed_in_observer(app, observer_links(home)[0])
    assert gm("turn", "run", "g1", "--now", home=home).code == 0  # a second mail, a second link
    unused = observer_links(home)[1]
    assert olga.get("/observe/2").status_code == 200
    assert gm("game", "observe", "g1", OLGA, "--stop", home=home).code == 0
    ended = olga.get("/observe/1")
    assert ended.status_code == 403 and "You were signed out: you no longer observe this game" in ended.text
    assert olga.get("/observe/1").status_code == 403  # the session is gone, not only refused once
    assert Player(app.test_client()).post("/link", {"token": unused}).status_code == 401


def test_a_gunboat_game_shows_an_observer_no_names(gm, home, tmp_path):
    set_mail_address(home)
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "7", home=home).code == 0
    assert gm("game", "set", "g2", "gunboat", "yes", home=home).code == 0
    for name in ["Ann", "Bob", "Cy", "Di"]:
        assert gm("game", "join", "g2", f"{name.lower()}@example.org", "--name", name, home=home).code == 0
    assert gm("game", "observe", "g2", OLGA, home=home).code == 0
    assert gm("turn", "run", "g2", "--now", home=home).code == 0
    app = create_app(Home(home))
    page = signed_in_observer(app, observer_links(home)[0]).get("/observe/1").text
    assert "Player BR" in page and "Britain" in page
    shown = re.findall(r"<tr><td class=\"num\">.*?</tr>", page)
    assert len(shown) == 4 and all("Player " in row for row in shown)
    assert not re.search(r"\b(Ann|Bob|Cy|Di)\b|(ann|bob|cy|di)@example\.org", page)


def test_a_forgotten_person_observes_no_more(gm, home, game):
    set_mail_address(home)
    zed = "zed@example.org"
    assert gm("credits", "buy", zed, "2", "--paid", "5", "--name", "Zed", home=home).code == 0  # a person of the house
    assert gm("game", "observe", "g1", zed, home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    app = create_app(Home(home))
    watcher = signed_in_observer(app, observer_links(home)[0])
    assert watcher.get("/observe/1").status_code == 200
    assert gm("person", "forget", zed, home=home).code == 0
    assert watcher.get("/observe/1").status_code == 403
    [(email, stopped)] = rows(home, "SELECT email, stopped FROM observers")
    assert email.endswith("@forgotten.invalid") and stopped is not None
    assert gm("game", "observe", "g1", home=home).out == "Nobody observes g1.\n"


def test_an_observer_who_never_played_can_be_forgotten(observed, gm, home):
    """Olga observes and never played: `gm person forget` takes her address out of everything
    (the observers table, the mails sent her, the audit log) and ends her session."""
    app = create_app(Home(home))
    olga = signed_in_observer(app, observer_links(home)[0])
    assert rows(home, "SELECT count(*) FROM outbox WHERE recipient = ?", OLGA) != [(0,)]
    forgot = gm("person", "forget", OLGA, home=home)
    assert forgot.code == 0, forgot.err
    assert "Forgotten: olga@example.org is Forgotten observer 1 <observer-1@forgotten.invalid> now" in forgot.out
    assert olga.get("/observe/1").status_code == 403
    [(email, stopped)] = rows(home, "SELECT email, stopped FROM observers")
    assert email == "observer-1@forgotten.invalid" and stopped is not None
    for table, column in (("outbox", "recipient"), ("outbox", "body"), ("audit", "detail")):
        assert rows(home, f"SELECT count(*) FROM {table} WHERE instr(lower({column}), 'olga@example') > 0") == [(0,)], (
            table
        )
    # An address that neither plays nor observes is still no one's, said plainly.
    nobody = gm("person", "forget", "nobody@example.org", home=home)
    assert nobody.code == 1 and "no player has the address 'nobody@example.org'" in nobody.err


def test_when_the_game_is_over_the_observer_is_signed_out_and_the_last_mail_has_no_link(
    observed, gm, home, game, tmp_path
):
    app = create_app(Home(home))
    olga = signed_in_observer(app, observer_links(home)[0])
    every_seat_votes_draw(gm, home, game, tmp_path)
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0 and "g1 is over" in ran.out, ran.out
    ended = olga.get("/observe/2")
    assert ended.status_code == 403 and "You were signed out" in ended.text
    [(last,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'observer' AND turn = 2")
    assert "The game is over: this is the last mail you get of it." in last and "/link/" not in last
    assert len(observer_links(home)) == 1


def test_an_observer_signs_out_everywhere(observed, gm, home):
    app = create_app(Home(home))
    assert gm("turn", "run", "g1", "--now", home=home).code == 0  # a second mail, a second link
    first, second = observer_links(home)[:2]
    here, there = signed_in_observer(app, first), signed_in_observer(app, second)
    assert there.get("/observe/1").status_code == 200
    here.get("/observe/1")
    assert "signed out everywhere: 2 sessions ended" in here.post("/sign-out-everywhere").text
    assert there.get("/observe/1").status_code == 403
