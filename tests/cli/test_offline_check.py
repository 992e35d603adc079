"""gm orders check --report: a player's check against the seat's last JSON report, without a GM home;
and whatever a report holds, one line when it is no report."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gm.errors import GMError
from gm.services import offline
from tests.conftest import played_home
from tests.render.ruleset_report import report_context


@pytest.fixture(scope="module")
def turn_one(made, tmp_path_factory):
    """The game's home with turn 1 run: once for the module."""
    return played_home(made, tmp_path_factory.mktemp("turn-one") / "home", ("turn", "run", "g1", "--now"))


@pytest.fixture
def report(turn_one, tmp_path):
    """BR's report of turn 1, copied away from the GM's home (as a player has it)."""
    copied = tmp_path / "player" / "g1-1-BR.json"
    copied.parent.mkdir()
    copied.write_bytes((turn_one / "reports/g1/1/BR.json").read_bytes())
    return copied


def test_the_form_of_the_report_checks_offline(gm, report, tmp_path, monkeypatch):
    monkeypatch.delenv("GM_HOME", raising=False)
    monkeypatch.chdir(tmp_path / "player")  # no GM home here, no database anywhere near
    form = json.loads(report.read_text())["order_form"].replace("<your secret>", "anything")
    orders = tmp_path / "orders.txt"
    orders.write_text(form)
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out.startswith(f"{orders}: OK as far as the report can tell, ")
    assert " for BR in g1, turn 2; left to the GM's check: the password, and the rules " in ran.out
    assert not (tmp_path / "player" / "gm.db").exists()


def test_mistakes_the_report_can_settle(gm, report, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nPLACE EGN 3\nFROB 1\nEND\nFINAL\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert ran.code == 1
    assert ran.err.splitlines() == [
        # the units to place are in the report: the GM's warning of those left, in its words
        f"{orders}: warning: you place 3 of your 20 units; the other 17 are spread one at a time over your core "
        "territories, in code order",
        f"{orders}:4: EGN is not a territory on this map",  # the map is in the report: the GM's words
        f"{orders}:4: warning: EGN is not a code in this game; did you mean ENG or DEN?",
        f"{orders}:5: FROB is not an order; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE",
        f"{orders}:7: warning: FINAL after END is ignored, so these orders are not final: put FINAL before END",
    ]
    orders.write_text("GAME g1\nPLAYER RU\nPASSWORD x\nEND\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (
        1,
        f"{orders}: refused: the file is for player RU, the report for BR (check the PLAYER line)\n",
    )
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nTURN 1\nEND\n")
    assert "the report is of turn 1: its orders are for turn 2" in gm("orders", "check", "--report", report, orders).err


def test_a_file_that_is_no_report_is_a_clear_error(gm, tmp_path):
    (tmp_path / "x.json").write_text("[1, 2]")
    (tmp_path / "o.txt").write_text("GAME g1\nEND\n")
    ran = gm("orders", "check", "--report", tmp_path / "x.json", tmp_path / "o.txt")
    assert (ran.code, ran.err) == (
        1,
        f"Error: {tmp_path / 'x.json'} is not a gm JSON report: it is a list, not an object. Use the .json file "
        "of your last report (send JSON ON to get it by mail).\n",
    )


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"schema_version": 2}, "it is in report format 2, newer than this gm reads (1); update gm to check it"),
        ({"report": "standings"}, "it is the game's final standings, not a seat's turn report"),
        ({"schema_version": "1"}, "its \"schema_version\" is '1', not a version number"),
        ({"report": "weekly\nnews"}, "it is a report of kind text of 11 characters, not a seat's turn report"),
    ],
)
def test_a_report_of_another_format_or_kind_is_named(gm, report, tmp_path, changes, why):
    """The report format's version and kind (gm.report_format) are read first: a newer format or
    the game's standings is told apart from a broken file."""
    data = json.loads(report.read_text())
    assert (data["schema_version"], data["report"]) == (1, "turn")
    report.write_text(json.dumps(dict(data, **changes)))
    (tmp_path / "o.txt").write_text("GAME g1\nPLAYER BR\nEND\n")
    ran = gm("orders", "check", "--report", report, tmp_path / "o.txt")
    assert (ran.code, ran.err) == (
        1,
        f"Error: {report} is not a gm JSON report: {why}. Use the .json file "
        "of your last report (send JSON ON to get it by mail).\n",
    )


def test_press_written_wrong_is_a_warning_offline_too(gm, report, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nPRESS TO ALL FR\nhi\nENDPRESS\nPRESS TO FR: fine\nEND\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (
        0,
        # No PLACE: the GM's warning of the units left, from the report's units to place, comes too.
        f"{orders}: warning: you place 0 of your 20 units; the other 20 are spread one at a time over your core "
        "territories, in code order\n"
        f"{orders}:4: warning: this press would not be sent: PRESS TO ALL goes to everyone: name no seats beside ALL\n",
    )


# Any JSON at all, as a hostile or broken report may hold (floats without NaN: JSON has none).
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
_PARTS = [
    "schema_version",
    "report",
    "game",
    "game.name",
    "game.ruleset",
    "seat",
    "turn",
    "view",
    "view.seats",
    "view.map",
    "view.codes",
]


@pytest.fixture(scope="module")
def clash_report() -> dict:
    return report_context("clash")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(_PARTS + ["order_form", "outcome", "view.you", "view.known"]), _JSON), max_size=3
    ),
    whole=st.none() | _JSON,
)
def test_a_malformed_report_is_refused_in_one_line_or_read(clash_report, tmp_path, changes, whole):
    """Whatever a report holds, reading it and checking a file against it never raises but
    GMError, in one line; a report read is one the check can use."""
    report = copy.deepcopy(clash_report)
    for path, value in changes:
        *parents, last = path.split(".")
        where = report
        for key in parents:
            where = where.get(key) if isinstance(where, dict) else None
        if isinstance(where, dict):
            where[last] = value
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report if whole is None else whole))
    try:
        read = offline.read_report(path)
    except GMError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    checked = offline.check_offline(
        read, f"GAME {read.game}\nPLAYER {read.seat}\nPASSWORD x\nCLAIM ENG\nEND\n".encode()
    )
    assert all("\n" not in p.message for p in checked.problems + checked.warnings)
