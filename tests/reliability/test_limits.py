"""Limits that had no test of their own (docs/limits.md): one past each is refused with a clear
message and changes nothing; at the limit it is taken."""

from __future__ import annotations

import json

import pytest

from gm.cli import common
from gm.core import order_grammar
from gm.core.signup import MAX_PREFERENCES, read_join
from gm.errors import GMError
from gm.home import Home
from gm.render import pictures
from gm.services import observer_portal, offline
from gm.services.credits import REFERENCE_MOST
from gm.services.observers import MOST_OBSERVERS
from gm.services.press import ANNOUNCEMENT_LIMIT
from gm.store.database import open_database
from tests.cli.test_game import table_dump
from tests.intake.mails import rows, set_mail_address
from tests.render.ruleset_report import report_context
from tests.web.test_portal import set_gm_password


def unchanged(home) -> list:
    return [t for t in table_dump(home) if t[0] != "audit"]


def test_a_seat_link_lasts_at_most_seven_days(home, gm, game):
    before = unchanged(home)
    ran = gm("portal", "link", "g1", "BR", "--minutes", str(7 * 24 * 60 + 1), home=home)
    assert (ran.code, ran.err) == (1, "Error: a sign-in link must last between 1 minute and 7 days.\n")
    assert unchanged(home) == before
    assert gm("portal", "link", "g1", "BR", "--minutes", str(7 * 24 * 60), home=home).code == 0


def test_an_observer_link_lasts_at_most_seven_days(home, gm, game):
    set_mail_address(home)
    assert gm("game", "observe", "g1", "eve@example.org", home=home).code == 0
    [(observer_id,)] = rows(home, "SELECT id FROM observers")
    db = open_database(home / "gm.db")
    try:
        minutes = observer_portal.LONGEST_DAYS * 24 * 60
        try:
            observer_portal.make_link(db, Home(home), common.CLOCK, observer_id, minutes=minutes + 1)
        except GMError as exc:
            assert str(exc) == "a sign-in link must last between 1 minute and 7 days."
        else:
            raise AssertionError("a link of 7 days and a minute was made")
        assert observer_portal.make_link(db, Home(home), common.CLOCK, observer_id, minutes=minutes)[0]
    finally:
        db.close()


def test_a_game_takes_at_most_fifty_observers(home, gm, game):
    for n in range(50):  # MOST_OBSERVERS written out: a raised limit fails here, a loop on it would not end
        assert gm("game", "observe", "g1", f"o{n}@example.org", home=home).code == 0
    before = unchanged(home)
    ran = gm("game", "observe", "g1", "one-more@example.org", home=home)
    assert (ran.code, ran.err) == (
        1,
        f"Error: 'g1' has {MOST_OBSERVERS} observers, the most a game may have; stop one first (--stop).\n",
    )
    assert unchanged(home) == before and MOST_OBSERVERS == 50


def test_a_payment_reference_is_at_most_a_hundred_characters(home, gm, game):
    before = unchanged(home)
    ran = gm("credits", "buy", "ann@example.org", "1", "--paid", "1", "--ref", "R" * 101, home=home)
    assert ran.code == 1 and "Traceback" not in ran.err and f"{REFERENCE_MOST}" in ran.err
    assert unchanged(home) == before
    ran = gm("credits", "buy", "ann@example.org", "1", "--paid", "1", "--ref", "R" * 100, home=home)
    assert ran.code == 0, ran.err


def test_an_announcement_is_at_most_twenty_thousand_characters(home, gm, game, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("x" * 20_001)  # ANNOUNCEMENT_LIMIT and one, written out
    before = unchanged(home)
    ran = gm("game", "announce", "g1", "--file", str(note), home=home)
    assert ran.code == 1 and f"the announcement is 20,001 characters long; at most {ANNOUNCEMENT_LIMIT:,}" in ran.err
    assert unchanged(home) == before
    note.write_text("x" * 20_000)
    assert gm("game", "announce", "g1", "--file", str(note), home=home).code == 0


def test_a_join_names_at_most_twelve_seats():
    seats = " ".join(f"S{n}" for n in range(MAX_PREFERENCES + 1))
    assert read_join(f"JOIN clash\nSEATS {seats}") == (None, f"give at most {MAX_PREFERENCES} seats on the SEATS line")
    join, problem = read_join("JOIN clash\nSEATS " + " ".join(f"S{n}" for n in range(MAX_PREFERENCES)))
    assert problem is None and join is not None and len(join.preferences) == MAX_PREFERENCES == 12


def _grammar(words: int = 1, arguments: int = 0, facts: int = 0, text: int = 1) -> dict:
    """An order grammar as a report holds it, of that many words, arguments of the first word,
    facts and characters of a usage line."""
    word = {"word": "MOVE", "usage": "u" * text, "arguments": [{"name": f"a{n}"} for n in range(arguments)]}
    return {"words": [word] + [{"word": f"W{n}"} for n in range(words - 1)], "facts": {"place": ["X"] * facts}}


@pytest.mark.parametrize(
    ("past", "at", "refusal"),
    [
        (_grammar(words=101), _grammar(words=100), "it has more than 100 words"),
        (_grammar(arguments=13), _grammar(arguments=12), "it has more than 12 arguments"),
        (_grammar(facts=50_001), _grammar(facts=50_000), "it has more than 50,000 facts of one kind"),
        (
            dict(_grammar(), facts={"place": ["X"] * 25_001, "piece": ["Y"] * 25_000}),
            dict(_grammar(), facts={"place": ["X"] * 25_000, "piece": ["Y"] * 25_000}),
            "it has more than 50,000 facts",
        ),
        (_grammar(text=401), _grammar(text=400), "usage is not text of up to 400 characters"),
    ],
)
def test_an_order_grammar_a_report_holds_is_refused_past_its_limits(past, at, refusal):
    """A report file may hold anything: `gm orders check --report` reads its grammar within
    these bounds or refuses it whole (gm/core/order_grammar.py)."""
    with pytest.raises(ValueError) as refused:
        order_grammar.from_json(past)
    assert str(refused.value) == refusal
    assert order_grammar.from_json(at).words[0].word == "MOVE"


def test_a_reports_turn_is_at_most_a_million(tmp_path):
    report = report_context("clash")
    path = tmp_path / "g1-1-BR.json"
    for turn, read in ((1_000_001, False), (1_000_000, True)):
        path.write_text(json.dumps(dict(report, turn=turn)))
        try:
            assert offline.read_report(path).turn == turn and read
        except GMError as exc:
            assert not read and 'its "turn" is 1000001, not a whole number from 0 to 1,000,000.' in str(exc)


def test_a_region_picture_is_at_most_1600_pixels_wide():
    """However wide a ruleset's template makes a region's figure, its picture stays 1,600 pixels."""
    assert pictures._pixels(2_000.0) == 1_600
    assert pictures._pixels(100.0) < 1_600


def test_a_players_name_is_at_most_sixty_characters(home, gm):
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    before = unchanged(home)
    ran = gm("game", "join", "g2", "eve@example.org", "--name", "E" * 61, home=home)
    assert (ran.code, ran.err) == (1, "Error: the player's name must be 1-60 printable characters.\n")
    assert unchanged(home) == before
    assert gm("game", "join", "g2", "eve@example.org", "--name", "E" * 60, home=home).code == 0


def test_a_gm_link_lasts_at_most_a_day(home, gm, monkeypatch):
    assert set_gm_password(gm, home, monkeypatch).code == 0
    before = unchanged(home)
    ran = gm("portal", "link", "--gm", "--minutes", str(24 * 60 + 1), home=home)
    assert (ran.code, ran.err) == (1, "Error: a GM sign-in link must last between 1 minute and 1 day.\n")
    assert unchanged(home) == before
    assert gm("portal", "link", "--gm", "--minutes", str(24 * 60), home=home).code == 0


def _nested(depth: int) -> object:
    value: object = "deep"
    for _ in range(depth):
        value = [value]
    return value


def test_a_report_nested_deeper_than_64_levels_is_refused_in_one_line(tmp_path):
    """The report is one level; a key of it nested 63 more is read, 64 more refused."""
    report = report_context("clash")
    path = tmp_path / "g1-1-BR.json"
    path.write_text(json.dumps(dict(report, notes=_nested(63))))
    assert offline.read_report(path).turn == report["turn"]
    path.write_text(json.dumps(dict(report, notes=_nested(64))))
    with pytest.raises(GMError) as refused:
        offline.read_report(path)
    assert "is not a gm JSON report: it is nested deeper than 64 levels." in str(refused.value)


@pytest.mark.parametrize(
    ("setting", "past", "at", "refusal"),
    [
        ("nmr-limit", "10001", "10000", "nmr-limit takes a whole number from 0 to 10000, not '10001'."),
        ("grace", "367d", "366d", "grace takes a duration such as 90m, 2h or 1d, at most a year, not '367d'."),
        (
            "reminder",
            "527041",
            "527040",
            "reminder takes a duration such as 90m, 2h or 1d, at most a year, not '527041'.",
        ),
    ],
)
def test_a_game_setting_is_a_count_to_10000_or_a_duration_to_366_days(home, gm, game, setting, past, at, refusal):
    before = unchanged(home)
    ran = gm("game", "set", "g1", setting, past, home=home)
    assert (ran.code, ran.err) == (1, f"Error: {refusal}\n")
    assert unchanged(home) == before
    assert gm("game", "set", "g1", setting, at, home=home).code == 0


def test_a_number_in_a_report_is_at_most_30_digits(tmp_path):
    """json reads a number of a million digits in quadratic time: a report's are cut at 30."""
    report = report_context("clash")
    path = tmp_path / "g1-1-BR.json"
    path.write_text(json.dumps(report)[:-1] + ', "notes": ' + "9" * 30 + "}")
    assert offline.read_report(path).turn == report["turn"]
    path.write_text(json.dumps(report)[:-1] + ', "notes": -' + "9" * 31 + "}")
    with pytest.raises(GMError) as refused:
        offline.read_report(path)
    # 31 digits, its minus sign not counted
    assert "is not a gm JSON report: it holds a number of 31 digits." in str(refused.value)
