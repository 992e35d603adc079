"""The seat page's cached view of a turn agrees with `gm game show` at every step, and sees a join,
a submission, a turn run and a re-run at once."""

from __future__ import annotations

from gm.clock import SystemClock
from gm.home import Home
from gm.services import seat_page as facts
from gm.services.gameview import game_facts
from gm.services.turnfiles import order_template
from gm.store import records
from gm.store.database import open_database
from gm.web.turn_views import turn_view
from tests.web.test_portal import orders


def _agrees_with_game_show(db, home, name: str, code: str) -> dict:
    """The seat page's facts for a seat, checked against game_facts and the turns as stored."""
    game = records.game_by_name(db, name)
    seat = records.seat_by_code(db, game, code)
    seen = facts.seat_page_facts(db, Home(home), game, seat, "UTC", SystemClock(), turn_view(db, game))
    shown = game_facts(db, name)
    mine = next(s for s in shown["seats"] if s["code"] == code)
    assert seen["game"] == {
        "name": name,
        "title": shown["title"],
        "status": shown["status"],
        "turn": shown["turn"],
        "turn_label": shown["turn_label"],
    }
    assert seen["seat"] == {
        "code": code,
        "name": mine["name"],
        "orders": mine["orders"],
        "final": mine["final"],
        "score": mine["score"],
    }
    assert seen["outcome"] == shown["outcome"]
    # NMR counts and what counted, the long way: every stored turn loaded whole.
    robot = [t.orders.get(code, {}).get("by") == "robot" for t in records.turns_of(db, game.id, 1)]
    in_a_row = len(robot) - max((i + 1 for i, r in enumerate(robot) if not r), default=0)
    assert seen["nmr"] == {"in_a_row": in_a_row, "total": sum(robot)}
    counted = {t.number: t.orders.get(code, {}).get("submission") for t in records.turns_of(db, game.id, 1)}
    for h in seen["history"]:
        if h["turn"] in counted:
            assert h["counts"] == (counted[h["turn"]] == h["id"])
    if game.status != "over":
        assert facts.order_form(game, seat, turn_view(db, game)) == order_template(db, name, code)
    return seen


def test_the_cached_view_follows_submissions_turns_and_a_rerun(signed_in, gm, home, game):
    assert gm("credits", "buy", "ann@example.org", "3", "--paid", "7.50", home=home).code == 0  # nothing held
    db = open_database(home / "gm.db")
    assert _agrees_with_game_show(db, home, "g1", "BR")["seat"]["orders"] == "none"
    signed_in.post("/orders", {"orders": orders("CLAIM ENG\nBOGUS"), "action": "submit"})
    assert _agrees_with_game_show(db, home, "g1", "BR")["seat"]["orders"] == "rejected"
    signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL", final=True), "action": "submit"})
    seen = _agrees_with_game_show(db, home, "g1", "BR")
    assert seen["seat"]["orders"] == "accepted" and seen["seat"]["final"] is True
    before = turn_view(db, records.game_by_name(db, "g1"))

    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    after_one = _agrees_with_game_show(db, home, "g1", "BR")
    assert after_one["game"]["turn"] == 2 and after_one["seat"]["orders"] == "none"
    assert turn_view(db, records.game_by_name(db, "g1")) is not before
    assert "TURN 2\n" in signed_in.get("/").text  # the order form is the new turn's at once

    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0  # BR sends nothing: the robot plays
    assert _agrees_with_game_show(db, home, "g1", "BR")["nmr"] == {"in_a_row": 1, "total": 1}

    # The last turn run again with BR's orders corrected: same turn number, another state.
    fixed = home.parent / "br.txt"
    fixed.write_text("GAME g1\nPLAYER BR\nTURN 2\nPLACE ENG 5\nEND\n")
    view_before = turn_view(db, records.game_by_name(db, "g1"))
    assert gm("turn", "rerun", "g1", "2", "--orders", fixed, "--reason", "a fix", "--no-render", home=home).code == 0
    seen = _agrees_with_game_show(db, home, "g1", "BR")
    assert seen["game"]["turn"] == 3 and seen["nmr"] == {"in_a_row": 0, "total": 0}
    assert turn_view(db, records.game_by_name(db, "g1")).state != view_before.state


def test_a_join_before_the_start_changes_the_view(gm, home):
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    db = open_database(home / "gm.db")
    assert turn_view(db, records.game_by_name(db, "g2")) is None  # nobody seated: no state yet
    for name in ("Ann", "Bob"):
        assert gm("game", "join", "g2", f"{name.lower()}@example.org", "--name", name, home=home).code == 0
    two = turn_view(db, records.game_by_name(db, "g2"))
    assert set(two.scores) == {"BR", "RU"}
    _agrees_with_game_show(db, home, "g2", "BR")
    assert gm("game", "join", "g2", "cy@example.org", "--name", "Cy", home=home).code == 0
    three = turn_view(db, records.game_by_name(db, "g2"))
    assert set(three.scores) == {"BR", "RU", "FR"}
    _agrees_with_game_show(db, home, "g2", "FR")


def test_the_view_is_shared_and_left_unchanged_by_pages(signed_in, home):
    db = open_database(Home(home).database)
    game = records.game_by_name(db, "g1")
    view = turn_view(db, game)
    state = repr(view.state)
    for action in ("check", "submit", "check"):  # both check against the cached state
        signed_in.get("/")
        page = signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": action})
        assert "no problems" in page.text or "Submitted" in page.text
        page = signed_in.post("/orders", {"orders": orders("CLAIM ZZZ"), "action": action})
        assert "problem" in page.text
    assert turn_view(db, game) is view and repr(view.state) == state
