"""Within one request the portal reads a seat's game, its seats and the turn's view once; the next
request reads them again, so a join, a new secret or a turn run shows at once."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from gm.store import records
from gm.store.database import open_database
from gm.web.turn_views import CachedRows, turn_view
from tests.web.test_portal import orders

_SEATS = "FROM seats s JOIN accounts a"
_VIEW_KEY = "SELECT number, state_hash FROM turns"
_GAME_BY_NAME = "SELECT * FROM games WHERE name"


@pytest.fixture
def statements(app):
    """statements(): the SQL the portal ran since the last call, on this thread's connection."""
    seen: list[str] = []
    app.extensions["gm"].db().conn.set_trace_callback(seen.append)

    def taken() -> Counter:
        counts = Counter(re.sub(r"\s+", " ", s).strip() for s in seen)
        seen.clear()
        return counts

    return taken


def _count(counts: Counter, start: str) -> int:
    return sum(n for sql, n in counts.items() if start in sql)


def test_the_seat_page_reads_the_seats_and_the_view_once(signed_in, statements):
    statements()
    assert "Sign out" in signed_in.get("/").text
    counts = statements()
    assert _count(counts, _SEATS) == 1 and _count(counts, _VIEW_KEY) == 1
    assert all(n == 1 for n in counts.values()), counts


@pytest.mark.parametrize("action", ["check", "submit"])
def test_checking_orders_uses_the_game_and_seats_the_request_read(signed_in, statements, action):
    statements()
    page = signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": action})
    assert "no problems" in page.text or "Submitted" in page.text
    counts = statements()
    # The game by name once: re-read for the page shown after (a turn may have run); the check
    # itself takes the one the request read with the seat.
    assert _count(counts, _SEATS) == 1 and _count(counts, _GAME_BY_NAME) == 1
    # The view key twice: for the check, and for the page shown after it (a turn may have run).
    assert _count(counts, _VIEW_KEY) == 2


def test_the_next_request_sees_a_new_secret_and_a_turn_run(signed_in, gm, home, game):
    signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": "submit"})
    assert gm("turn", "run", "g1", "--no-render", home=home).code == 0
    assert "TURN 2\n" in signed_in.get("/").text
    page = signed_in.post("/orders", {"orders": orders("CLAIM ENG").replace("TURN 1", "TURN 2"), "action": "check"})
    assert "Checked" in page.text and "TURN 2" in page.text
    assert gm("game", "secret", "g1", "BR", home=home).code == 0
    assert "Sign in to your seat" in signed_in.get("/").text


def test_rows_known_from_the_request_answer_only_for_their_own_game(home, game, gm):
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    db = open_database(home / "gm.db")
    g1, g2 = records.game_by_name(db, "g1"), records.game_by_name(db, "g2")
    seats = records.seats_of(db, g1.id)
    rows = CachedRows(db, known=(g1, seats))
    assert rows.game("g1") is g1 and rows.seats(g1) is seats
    assert rows.game("g2") == g2 and rows.seats(g2) == [] and rows.game("nope") is None
    assert rows.state(g1) is turn_view(db, g1).state


def test_security_headers_are_added_once_and_never_override_a_pages_own(app, signed_in):
    css = app.test_client().get("/portal.css")
    assert css.headers.getlist("Cache-Control") == ["max-age=3600"]
    for response in (css, signed_in.get("/"), app.test_client().get("/nowhere")):
        for name, value in (
            ("X-Frame-Options", "DENY"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ):
            assert response.headers.getlist(name) == [value]
        assert len(response.headers.getlist("Content-Security-Policy")) == 1
    assert signed_in.page.headers.getlist("Cache-Control") == ["no-store"]


def test_pages_reach_the_server_as_one_list_and_streams_stay_streams(app):
    """granian sends a list in one call but steps through any other iterable from Rust, holding the GIL."""
    from werkzeug.test import EnvironBuilder

    from gm.web.portal import PortalResponse

    answer = app(EnvironBuilder(path="/").get_environ(), lambda status, headers, exc_info=None: None)
    assert isinstance(answer, list) and b"Sign in" in b"".join(answer)
    closed = []
    page = PortalResponse("<p>page</p>")
    page.call_on_close(lambda: closed.append(True))
    assert page.get_app_iter({"REQUEST_METHOD": "GET"}) == [b"<p>page</p>"] and closed == [True]
    streamed = PortalResponse(iter([b"a", b"b"]))
    body = streamed.get_app_iter({"REQUEST_METHOD": "GET"})
    assert not isinstance(body, list) and b"".join(body) == b"ab"
