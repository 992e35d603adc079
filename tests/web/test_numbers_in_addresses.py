"""A number in a portal address that names nothing is refused (404, or the GM page's reason), never
a 500, however large: every route with a number in it (found from the app's own rules, so a route
added later is held too), for a seat's session and for the GM's; and the GM's deadline form."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import set_gm_password

# SQLite's largest integer, one past it, far past it, and past Python's default digit limit for str->int.
HUGE = (2**63 - 1, 2**63, 10**30, "9" * 5000)


def numbered_rules(app) -> list[tuple[str, str]]:
    """(rule, method) for every rule of the portal that takes a number."""
    found = []
    for rule in app.url_map.iter_rules():
        if "<int:" in rule.rule:
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                found.append((rule.rule, method))
    return sorted(found)


def filled(rule: str, number) -> str:
    """The rule with every number replaced by `number` and every other part by what g1 has."""
    address = re.sub(r"<int:[a-z_]+>", str(number), rule)
    names = {"name": "g1", "game_name": "g1", "seat_code": "BR", "kind": "pdf", "file": "map.svg"}
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: names[m[1]], address)


@pytest.fixture
def the_gm(app, gm, home, game, monkeypatch):
    assert set_gm_password(gm, home, monkeypatch).code == 0
    signed = Player(app.test_client())
    signed.get("/gm")
    assert "<h1>Games</h1>" in signed.post("/gm/sign-in", {"password": GM_PASSWORD}).text
    return signed


def test_every_route_with_a_number_refuses_one_that_names_nothing(app, signed_in, the_gm, gm, home):
    assert gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home).code == 0  # nothing held
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    rules = numbered_rules(app)
    # The routes this test knows of today; a new one is held by the loop below as well.
    assert {rule for rule, _ in rules} >= {
        "/reports/<game_name>/<seat_code>/<int:turn>.<kind>",
        "/turn/<int:turn>",
        "/turn/<int:turn>/<file>",
        "/gm/game/<name>/waiting/<int:number>/remove",
        "/gm/questions/<int:number>/reply",
        "/gm/questions/<int:number>/answered",
    }
    for who in (signed_in, the_gm):
        for rule, method in rules:
            for number in HUGE:
                address = filled(rule, number)
                answer = (
                    who.get(address)
                    if method == "GET"
                    else who.post(address, {"reason": "spam", "answer": "Hello"}, follow=False)
                )
                assert answer.status_code in (400, 403, 404), (address[:80], method, answer.status_code)
    # The same addresses with a number that names something still work.
    assert signed_in.get("/reports/g1/BR/1.pdf").status_code == 200
    assert signed_in.get("/turn/1").status_code == 200 and signed_in.get("/turn/1/map.svg").status_code == 200


def test_a_deadline_with_a_huge_number_is_refused_with_a_reason(the_gm):
    for when in ("99999999-01-01 12:00", "in 99999999999999999999 days", "2030-01-01 12:00 +99999999999", "9" * 5000):
        page = the_gm.post("/gm/game/g1/deadline", {"when": when})
        assert page.status_code == 400 and "The portal hit a bug" not in page.text, when
