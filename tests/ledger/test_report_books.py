"""The books on a rendered report: a seat whose credits ran out reads it in its PDF (Clash, which
showed no books before they moved to the shared report)."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta

from gm.clock import FixedClock
from gm.services import credits, endgame, prizes
from gm.services.games import game_ruleset
from gm.store import records
from gm.store.database import open_database


def test_a_clash_report_shows_credits_and_warns_of_an_unpaid_next_turn(home, gm, game):
    gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home)
    gm("credits", "buy", "bob@example.org", "5", "--paid", "12.50", home=home)
    assert gm("game", "set", "g1", "nmr-limit", "0", home=home).code == 0
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0, ran.err
    folder = home / "reports" / "g1" / "1"
    codes = {json.loads(p.read_text())["player"]: p.stem for p in folder.glob("*.json")}
    ann, bob = (json.loads((folder / f"{codes[n]}.json").read_text())["credits"] for n in ("Ann", "Bob"))
    assert (ann["balance"], ann["next_unpaid"], bob["balance"], bob["next_unpaid"]) == (0, True, 4, False)
    text = " ".join(
        subprocess.run(
            ["pdftotext", str(folder / f"{codes['Ann']}.pdf"), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "Your next turn is not paid for: no turn credits are left." in text
    assert "Your turn credits Turn credits left 0" in text
    bob_text = subprocess.run(
        ["pdftotext", str(folder / f"{codes['Bob']}.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Turn credits left" in bob_text and "not paid for" not in bob_text


def test_the_end_of_game_books_of_an_account_the_game_booked_nothing_to(home, gm):
    """A game of free turns whose prize the account cannot take (its discount is at the cap of 10)
    books it nothing: its end-of-game report still says what it holds, not 0 and 0."""
    assert gm("game", "new", "m1", "--ruleset", "mcempires", "--seed", "5", "-o", "round-limit=1", home=home).code == 0
    for name in ("bob", "ann"):
        assert gm("game", "join", "m1", f"{name}@example.org", "--name", name.title(), home=home).code == 0
    gm("credits", "buy", "bob@example.org", "20", "--paid", "50", home=home)
    gm("credits", "adjust", "bob@example.org", "--discount", "10", "--reason", "earlier games", home=home)
    gm("credits", "policy", "m1", "--unpaid", "free", home=home)
    assert gm("turn", "run", "m1", "--now", "--no-render", home=home).out.endswith("m1 is over.\n")
    db = open_database(home / "gm.db")
    game = records.game_by_name(db, "m1")
    later = FixedClock(datetime.fromisoformat(records.turn_record(db, game, 1).resolved) + timedelta(days=1))
    credits.buy(db, later, "bob@example.org", 5, 1250)  # after the end: not in the report rendered again
    seats = records.seats_of(db, game.id)
    bob = next(s for s in seats if s.email == "bob@example.org")
    context = endgame.endgame_context(
        db, game, game_ruleset(game)[0], records.turn_record(db, game, 1), bob, seats, prizes.game_table(game, {})
    )
    assert (context["discount"]["now"], context["discount"]["awarded"], context["credits"]["left"]) == (10, 0, 20)


def test_the_end_of_game_books_when_the_clock_went_wrong(home, gm):
    """A payment booked while the GM's machine had a date a week ahead, then the game ends with the
    clock put right: the end-of-game report of an account the game booked nothing to still counts
    the payment, which came before the end in the books (entries are in the order written; a
    date is only what the clock said)."""
    assert gm("game", "new", "m1", "--ruleset", "mcempires", "--seed", "5", "-o", "round-limit=1", home=home).code == 0
    for name in ("bob", "ann"):
        assert gm("game", "join", "m1", f"{name}@example.org", "--name", name.title(), home=home).code == 0
    db = open_database(home / "gm.db")
    ahead = FixedClock(datetime.now(UTC) + timedelta(days=7))
    credits.buy(db, ahead, "bob@example.org", 20, 5000)
    credits.adjust(db, ahead, "bob@example.org", 0, "earlier games", discount=10)
    gm("credits", "policy", "m1", "--unpaid", "free", home=home)
    assert gm("turn", "run", "m1", "--now", "--no-render", home=home).out.endswith("m1 is over.\n")
    game = records.game_by_name(db, "m1")
    seats = records.seats_of(db, game.id)
    bob = next(s for s in seats if s.email == "bob@example.org")
    context = endgame.endgame_context(
        db, game, game_ruleset(game)[0], records.turn_record(db, game, 1), bob, seats, prizes.game_table(game, {})
    )
    assert (context["discount"]["now"], context["discount"]["awarded"], context["credits"]["left"]) == (10, 0, 20)
