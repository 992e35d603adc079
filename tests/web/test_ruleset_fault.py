"""A turn file sent through the portal that makes its game's ruleset raise: the player is told it
is the program's fault and nothing was stored, the fault goes to gm serve's log, not a bare 500."""

from __future__ import annotations

import logging
import sqlite3

from gm.home import Home
from gm.web.app import create_app
from tests.faulty_plugin import faulty  # noqa: F401 (fixture)
from tests.web.conftest import Player


def test_a_ruleset_fault_on_an_upload_is_said_plainly_and_logged(home, gm, faulty, caplog):
    assert (
        gm("game", "new", "f1", "--ruleset", "faulty", "--scenario", "lowlands", "--robots", "1", home=home).code == 0
    )
    joined = gm("game", "join", "f1", "bea@example.org", "--name", "Bea", home=home).out
    secret = next(line for line in joined.splitlines() if line.startswith("Secret for BR: ")).split(": ")[1]
    player = Player(create_app(Home(home)).test_client())
    assert player.sign_in("BR", secret, game="f1").status_code == 200
    faulty.FAULTS.add("check_orders")
    with caplog.at_level(logging.ERROR, logger="gm.web"):
        page = player.post(
            "/orders", {"orders": "GAME f1\nPLAYER BR\nPASSWORD <your secret>\nCLAIM ENG\nEND\n", "action": "submit"}
        )
    assert page.status_code == 500 and "The game could not read that" in page.text
    assert "a fault in the program, not in your orders. Nothing was stored. Tell your GM" in page.text
    assert "failed in check_orders for game &#39;f1&#39;" not in page.text  # the details are the GM's
    assert "the faulty ruleset (0.1) failed in check_orders for game 'f1': ZeroDivisionError" in caplog.text
    assert sqlite3.connect(home / "gm.db").execute("SELECT COUNT(*) FROM submissions").fetchone() == (0,)
