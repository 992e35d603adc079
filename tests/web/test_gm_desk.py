"""The portal's GM page acts (issue 16): hold and release, move a deadline, remind, prune and seat
the waiting list, answer the questions, read the audit log; behind the GM's password and CSRF,
through the same services as the command line, written in the audit log as the CLI writes it."""

from __future__ import annotations

import json
import mailbox
import re
import sqlite3

import pytest

import gm.services.questions as questions_service
from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address, signed_up
from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import set_gm_password


@pytest.fixture
def the_gm(app, gm, home, game, monkeypatch):
    """A test client signed in to /gm, in a home whose [mail] address is set."""
    set_mail_address(home)
    assert set_gm_password(gm, home, monkeypatch).code == 0
    player = Player(app.test_client())
    player.get("/gm")
    assert "<h1>Games</h1>" in player.post("/gm/sign-in", {"password": GM_PASSWORD}).text
    return player


def db_value(home, sql: str, *params):
    return sqlite3.connect(home / "gm.db").execute(sql, params).fetchone()[0]


def audit(gm, home) -> list[dict]:
    return json.loads(gm("audit", "--json", home=home).out)


def test_hold_and_release_as_the_cli_does(the_gm, gm, home):
    page = the_gm.post("/gm/game/g1/hold")
    assert page.request.path == "/gm/game/g1"  # back on the game's page, saying what was done
    assert "g1 is held: gm run-due runs none of its turns until you release it." in page.text
    assert db_value(home, "SELECT held FROM games WHERE name = 'g1'") == 1
    assert "g1 is held" not in the_gm.get("/gm/game/g1").text  # said once
    assert '<strong class="bad">held</strong>' in the_gm.get("/gm").text
    assert "g1 is released." in the_gm.post("/gm/game/g1/release").text
    assert db_value(home, "SELECT held FROM games WHERE name = 'g1'") == 0
    from_portal = [(e["action"], e["detail"]) for e in audit(gm, home)[-2:]]
    assert gm("game", "hold", "g1", home=home).code == 0 and gm("game", "release", "g1", home=home).code == 0
    assert from_portal == [(e["action"], e["detail"]) for e in audit(gm, home)[-2:]] == [("hold", {}), ("release", {})]


def test_moving_the_deadline_and_what_is_refused(the_gm, gm, home):
    page = the_gm.post("/gm/game/g1/deadline", {"when": "2030-01-04 18:00 UTC"})
    assert "The deadline of g1 is now Fri 2030-01-04 18:00 UTC." in page.text
    assert db_value(home, "SELECT due FROM games WHERE name = 'g1'") == "2030-01-04T18:00:00Z"
    assert audit(gm, home)[-1]["action"] == "deadline"
    page = the_gm.post("/gm/game/g1/deadline", {"when": "2020-01-04 18:00 UTC"})
    assert page.status_code == 400 and "has passed already. Give a time to come, or --past" in page.text
    assert 'value="2020-01-04 18:00 UTC"' in page.text  # what was typed stays in the form
    assert db_value(home, "SELECT due FROM games WHERE name = 'g1'") == "2030-01-04T18:00:00Z"
    page = the_gm.post("/gm/game/g1/deadline", {"when": "tomorrowish"})
    assert (
        page.status_code == 400 and db_value(home, "SELECT due FROM games WHERE name = 'g1'") == "2030-01-04T18:00:00Z"
    )
    the_gm.post("/gm/game/g1/deadline", {"when": "2020-01-04 18:00 UTC", "past": "yes"})
    assert db_value(home, "SELECT due FROM games WHERE name = 'g1'") == "2020-01-04T18:00:00Z"


def test_reminders_from_the_page(the_gm, gm, home):
    assert "Set a deadline first" in the_gm.get("/gm/game/g1").text
    the_gm.post("/gm/game/g1/deadline", {"when": "2030-01-04 18:00 UTC"})
    assert "Without orders for turn 1: <strong>BR, FR, GE, RU</strong>" in the_gm.get("/gm/game/g1").text
    page = the_gm.post("/gm/game/g1/remind")
    assert "Reminded BR, FR, GE, RU; the mail is queued" in page.text
    assert [kind for kind, *_ in outbox_bodies(home)] == ["reminder"] * 4
    assert audit(gm, home)[-1]["detail"] == {"seats": ["BR", "FR", "GE", "RU"], "turn": 1}


def test_the_waiting_list_pruned_and_seated(the_gm, gm, home, monkeypatch):
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    for n, who in enumerate(["Ann <ann@example.org>", "Eve <eve@example.org>", "Bob <bob@example.org>"]):
        assert signed_up(gm, monkeypatch, home, who, n).code == 0
    numbers = {w["email"]: w["number"] for w in json.loads(gm("game", "waiting", "c2", "--json", home=home).out)}
    page = the_gm.get("/gm/game/c2").text
    assert page.count('<li id="waiting-') == 3
    eve = numbers["eve@example.org"]
    page = the_gm.post(f"/gm/game/c2/waiting/{eve}/remove", {"reason": "<b>asked</b> to leave"})
    assert (
        "Eve &lt;eve@example.org&gt; is off the waiting list." in page.text and f'id="waiting-{eve}"' not in page.text
    )
    entry = audit(gm, home)[-1]
    assert (entry["action"], entry["detail"]["email"], entry["detail"]["reason"]) == (
        "waiting removed",
        "eve@example.org",
        "<b>asked</b> to leave",
    )
    assert "&lt;b&gt;asked&lt;/b&gt; to leave" in page.text  # the log on the page, escaped
    assert the_gm.post(f"/gm/game/c2/waiting/{eve}/remove").status_code == 400  # gone already
    page = the_gm.post("/gm/game/c2/seat-waiting")
    assert "seated ann@example.org in " in page.text and "seated bob@example.org in " in page.text
    assert gm("game", "waiting", "c2", home=home).out == "Nobody waits for c2.\n"


def test_questions_read_answered_by_mail_or_marked(the_gm, gm, home, monkeypatch):
    receive(
        gm,
        monkeypatch,
        mail("Can I <b>join</b>?", sender="Zed <zed@example.org>", subject="Join?", message_id="<q1@x>"),
        home,
    )
    receive(
        gm,
        monkeypatch,
        mail("Where are the rules?", sender="Yan <yan@example.org>", subject="Rules", message_id="<q2@x>"),
        home,
    )
    assert "2 questions mailed to the house wait for you" in the_gm.get("/gm").text
    page = the_gm.get("/gm/questions").text
    assert "Can I &lt;b&gt;join&lt;/b&gt;?" in page and "<b>join" not in page
    blank = the_gm.post("/gm/questions/1/reply", {"answer": "   "})
    assert blank.status_code == 400 and "The answer is empty." in blank.text
    page = the_gm.post("/gm/questions/1/reply", {"answer": "Yes: write JOIN clash."})
    assert "Your answer to question 1 is queued for zed@example.org." in page.text
    kind, to, subject, body = outbox_bodies(home)[-1]
    assert (kind, to, subject) == ("notice", "zed@example.org", "Re: Join?") and "Yes: write JOIN clash." in body
    assert 'id="question-1"' not in page.text and 'id="question-2"' in page.text
    page = the_gm.post("/gm/questions/2/answered")
    assert "Question 2 is marked answered." in page.text and "No questions wait for you." in page.text
    assert 'id="question-1"' in the_gm.get("/gm/questions?all=1").text
    assert [e["detail"]["how"] for e in audit(gm, home) if e["action"] == "question answered"] == [
        "by mail",
        "elsewhere",
    ]


def test_the_audit_log_every_game_or_one(the_gm, gm, home):
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    the_gm.post("/gm/game/g1/hold")
    page = the_gm.get("/gm/audit").text
    shown = re.findall(r"· ([^·<]+?) · <strong class=\"action\">([^<]+)</strong>", page)
    assert shown == [(e["game"] or "the house", e["action"]) for e in reversed(audit(gm, home))]  # newest first
    assert shown[0] == ("g1", "hold") and ("c2", "game new") in shown
    only = the_gm.get("/gm/audit?game=c2").text
    assert "· g1 ·" not in only and '· c2 · <strong class="action">game new</strong>' in only


def test_the_audit_page_shows_the_newest_two_hundred_entries(the_gm, home):
    """gm audit --json has every entry; the page, the newest AUDIT_SHOWN."""
    with sqlite3.connect(home / "gm.db") as conn:
        conn.executemany(
            "INSERT INTO audit (at, game_id, action, detail, actor) VALUES (?, NULL, ?, '{}', 'owner')",
            [(f"2030-01-01T00:{n // 60:02d}:{n % 60:02d}+00:00", f"entry {n}") for n in range(250)],
        )
    conn.close()
    shown = re.findall(r'<strong class="action">entry (\d+)</strong>', the_gm.get("/gm/audit").text)
    assert [int(n) for n in shown] == list(range(249, 49, -1))


GM_FORMS = [
    "/gm/game/g1/hold",
    "/gm/game/g1/release",
    "/gm/game/g1/deadline",
    "/gm/game/g1/remind",
    "/gm/game/g1/waiting/1/remove",
    "/gm/game/g1/seat-waiting",
    "/gm/questions/1/reply",
    "/gm/questions/1/answered",
]


@pytest.mark.parametrize("url", GM_FORMS)
def test_every_gm_form_needs_the_gm_and_its_csrf_token(the_gm, app, game, home, url):
    assert the_gm.client.post(url, data={"csrf": "forged", "when": "2030-01-04 18:00 UTC"}).status_code == 400
    player = Player(app.test_client())
    player.sign_in("BR", game["BR"])  # a player, with a token of their own
    assert player.post(url, {"when": "2030-01-04 18:00 UTC"}).status_code == 403
    assert Player(app.test_client()).post(url).status_code == 403  # nobody signed in
    assert db_value(home, "SELECT held FROM games WHERE name = 'g1'") == 0
    assert db_value(home, "SELECT due FROM games WHERE name = 'g1'") is None


@pytest.mark.parametrize("url", ["/gm/game/g1", "/gm/questions", "/gm/audit"])
def test_the_gm_pages_are_the_gms(app, game, url):
    page = Player(app.test_client()).get(url)
    assert page.status_code == 403 and "Sign in with the GM password first" in page.text


def test_a_gm_cookie_copied_before_sign_out_acts_no_more(the_gm, app, home):
    cookie = next(c for c in the_gm.client._cookies.values() if c.key == "gm_session").value
    token = the_gm.token
    the_gm.post("/sign-out")
    stranger = app.test_client()
    stranger.set_cookie("gm_session", cookie)
    assert stranger.post("/gm/game/g1/hold", data={"csrf": token}).status_code in (400, 403)
    assert db_value(home, "SELECT held FROM games WHERE name = 'g1'") == 0


def test_a_question_answered_at_another_address_than_its_from_says_so(the_gm, gm, home, monkeypatch):
    """Anyone can write a player's From and a Reply-To of their own: "I lost my secret, send me a
    link". The page named the From, and the answer went to the Reply-To; now the GM reads where
    it goes before writing it."""
    forged = mail(
        "I lost my secret.",
        sender="Ann Player <ann@example.org>",
        subject="Help",
        message_id="<f1@x>",
        Reply_To="Ann Player <ann@elsewhere.example.net>",
    )
    receive(gm, monkeypatch, forged, home)
    receive(gm, monkeypatch, mail("Rules?", sender="Yan <yan@example.org>", Reply_To="YAN@example.org"), home)
    page = the_gm.get("/gm/questions").text
    warning = "Its Reply-To is &lt;ann@elsewhere.example.net&gt;, not the From address: an answer goes there."
    assert (
        page.count(warning) == 1 and page.count("not the From address") == 1
    )  # the same address in capitals is no other
    listed = gm("inbox", "questions", home=home).out
    assert (
        "(its Reply-To is ann@elsewhere.example.net: gm inbox reply answers there, not at the From address)" in listed
    )
    assert listed.count("its Reply-To is") == 1
    assert [q["answer_to"] for q in json.loads(gm("inbox", "questions", "--json", home=home).out)] == [
        "ann@elsewhere.example.net",
        "yan@example.org",
    ]


# QUESTIONS_SHOWN written out: the floods below are counted from it, so a raised limit fails
# these tests rather than sending them mail without end.
SHOWN = 20


def test_a_flood_of_questions_is_counted_without_reading_it_and_shown_a_page_at_a_time(
    the_gm, gm, home, monkeypatch, tmp_path
):
    """The GM's page read every waiting question's mail from the archive to count them, and the
    questions page read and listed them all: a flood of 5,000 made each load read 5,000 mails."""
    box = mailbox.Maildir(tmp_path / "flood", create=True)
    for n in range(SHOWN + 5):
        box.add(mail(f"Buy now {n}", sender=f"v{n}@victims.example", message_id=f"<q{n}@spam.example>"))
    assert gm("inbox", "import", tmp_path / "flood", home=home).code == 0
    reads = []
    real = questions_service.read_letter
    monkeypatch.setattr(questions_service, "read_letter", lambda raw: reads.append(1) or real(raw))
    assert f"{SHOWN + 5} questions mailed to the house wait for you" in the_gm.get("/gm").text
    assert reads == []  # on main: one for each
    page = the_gm.get("/gm/questions").text
    assert len(reads) == SHOWN and page.count('class="card question"') == SHOWN
    shown = [int(n) for n in re.findall(r'id="question-(\d+)"', page)]
    assert shown == list(range(1, SHOWN + 1))  # the oldest first
    assert "5 more are not shown here: answer or mark these, and the next come up" in page
    the_gm.post("/gm/questions/1/answered")
    page = the_gm.get("/gm/questions").text
    assert [int(n) for n in re.findall(r'id="question-(\d+)"', page)] == list(range(2, SHOWN + 2))


def test_a_flood_of_strangers_questions_does_not_hide_a_players_question(the_gm, gm, home, tmp_path):
    """The page shows 20 questions, oldest first: 25 strangers' questions, then Bob's (he holds
    RU), and Bob's was not on it until the GM had cleared the flood. Players' questions come first."""
    box = mailbox.Maildir(tmp_path / "flood", create=True)
    for n in range(SHOWN + 5):
        box.add(mail(f"Buy now {n}", sender=f"v{n}@victims.example", message_id=f"<q{n}@spam.example>"))
    assert gm("inbox", "import", tmp_path / "flood", home=home).code == 0
    box = mailbox.Maildir(tmp_path / "bob", create=True)
    box.add(mail("May I hold my fleet at sea?", sender="Bob <BOB@example.org>", message_id="<bob-q@example.org>"))
    assert gm("inbox", "import", tmp_path / "bob", home=home).code == 0
    page = the_gm.get("/gm/questions").text
    shown = [int(n) for n in re.findall(r'id="question-(\d+)"', page)]
    assert shown == [SHOWN + 6, *range(1, SHOWN)]  # Bob's, then the oldest strangers'
    assert "May I hold my fleet at sea?" in page
    assert "6 more are not shown here" in page
    listed = json.loads(gm("inbox", "questions", "--json", home=home).out)
    assert [q["id"] for q in listed] == list(range(1, SHOWN + 7))  # the command lists all, as they came
