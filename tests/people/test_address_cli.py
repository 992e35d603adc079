"""gm person address and show: the GM moves a player to a new address; every game, the books,
the portal and mail not yet sent follow, the history keeps the change; refusals change nothing."""

from __future__ import annotations

from tests.cli.test_game import table_dump
from tests.intake.mails import rows

ANN, NEW = "ann@example.org", "ann@new.example"


def test_a_new_address_is_followed_everywhere(home, gm, game):
    assert gm("credits", "buy", ANN, "3", "--paid", "7.50", home=home).code == 0
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "2", home=home).code == 0
    assert gm("game", "join", "g2", ANN, "--name", "Ann", home=home).code == 0
    ran = gm("person", "address", ANN, NEW, home=home)
    assert (ran.code, ran.out) == (
        0,
        f"Ann: address {ANN} changed to {NEW} (every game, the books, the portal, mail).\n",
    )
    seats = rows(
        home,
        "SELECT g.name, a.email FROM seats s JOIN games g ON g.id = s.game_id "
        "JOIN accounts a ON a.id = s.account_id WHERE s.code = 'BR' OR a.name = 'Ann'",
    )
    assert {email for _, email in seats} == {NEW} and {name for name, _ in seats} == {"g1", "g2"}
    assert gm("credits", "show", NEW, home=home).out.startswith(f"{NEW} (Ann): 3 credits")
    # The old address holds no account of its own now: it finds Ann's, at her new address.
    assert gm("credits", "show", ANN, home=home).out.startswith(f"{NEW} (Ann): 3 credits")
    assert gm("ledger", "check", home=home).code == 0
    # The history: gm person show finds Ann by either address.
    for asked in (ANN, NEW):
        shown = gm("person", "show", asked, home=home).out.splitlines()
        assert shown[0].startswith(f"Ann <{NEW}>, a player since ")
        assert "  seat BR of g1, from turn 1" in shown
        assert shown[-1].endswith(f": {ANN} -> {NEW} (by gm)")
    [(detail,)] = rows(home, "SELECT detail FROM audit WHERE action = 'address changed'")
    assert ANN in detail and NEW in detail


def test_mail_not_sent_yet_follows_the_new_address(home, gm, game):
    from tests.intake.mails import set_mail_address

    set_mail_address(home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    queued = rows(home, "SELECT id FROM outbox WHERE recipient = ? AND status = 'queued'", ANN)
    assert queued, "the turn queued Ann's report"
    assert gm("person", "address", ANN, NEW, home=home).code == 0
    assert rows(home, "SELECT count(*) FROM outbox WHERE recipient = ?", ANN) == [(0,)]
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert rows(home, "SELECT DISTINCT recipient FROM outbox WHERE seat = 'BR' AND turn = 2") == [(NEW,)]


def test_refusals_change_nothing(home, gm, game):
    before = table_dump(home)
    for args, message in [
        (("nobody@example.org", NEW), "Error: no player has the address 'nobody@example.org'."),
        ((ANN, "bob@example.org"), "Error: the address bob@example.org is another player's."),
        ((ANN, "BOB@example.org"), "Error: the address BOB@example.org is another player's."),
        ((ANN, "not an address"), "Error: 'not an address' is not an e-mail address."),
        ((ANN, ANN), f"Error: Ann has the address {ANN} already."),
    ]:
        ran = gm("person", "address", *args, home=home)
        assert ran.code == 1 and ran.err.startswith(message), ran.err
    assert table_dump(home) == before
