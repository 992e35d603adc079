"""gm credits, gm ledger check and gm seat: exact messages, exit codes, and refusals that change
nothing; turn runs charge seats, reports of unpaid turns are held, reruns reverse charges."""

from __future__ import annotations

import csv
import io
import shutil
import sqlite3
from datetime import UTC, datetime

from gm.clock import FixedClock
from gm.core.model import Outcome
from gm.services import credits, turn_charges
from gm.store import records
from gm.store.database import open_database, transaction
from tests.cli.test_game import table_dump

ANN = "ann@example.org"
ERR_NOT_ADDRESS = "Error: 'not an address' is not an e-mail address.\n"
ERR_NAME = "Error: the player's name must be 1-60 printable characters.\n"


def test_buy_show_and_the_bonus(home, gm, game):
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", home=home)
    assert (ran.code, ran.out) == (
        0,
        "Payment recorded: 10 credits for 25.00 from ann@example.org (entry 1).\n"
        "ann@example.org now has 10 credits and a discount of 0.\n",
    )
    ran = gm("credits", "adjust", ANN, "--discount", "3", "--reason", "won knockout in old-7", home=home)
    assert ran.out == (
        "Adjustment recorded (entry 2): +0 credits, +3 discount: won knockout in old-7\n"
        "ann@example.org now has 10 credits and a discount of 3.\n"
    )
    ran = gm("credits", "buy", ANN, "12", "--paid", "30.5", "--game", "g1", home=home)
    assert ran.out == (
        "Payment recorded: 12 credits for 30.50 from ann@example.org (entry 3).\n"
        "Bonus: 3 credits for a discount of 3 (entry 4).\n"
        "ann@example.org now has 25 credits and a discount of 3.\n"
    )
    ran = gm("credits", "show", ANN, home=home)
    lines = ran.out.splitlines()
    assert lines[0] == "ann@example.org (Ann): 25 credits, discount 3 bonus turns."
    assert lines[1].split() == ["ENTRY", "DATE", "GAME", "KIND", "CREDITS", "MONEY", "DISC", "BALANCE", "MEMO"]
    assert lines[5].split()[2:] == [
        "g1",
        "bonus",
        "3",
        "0.00",
        "0",
        "25",
        "discount",
        "of",
        "3",
        "on",
        "a",
        "payment",
        "of",
        "12",
    ]
    assert gm("ledger", "check", home=home).out == "The books balance: 4 entries, 1 account.\n"


def test_refusals_change_nothing(home, gm, game):
    before = table_dump(home)
    for args, message in [
        (
            ("credits", "buy", "zed@example.org", "10", "--paid", "25"),
            "Error: no account zed@example.org. Accounts open when a player joins a game ('gm game join'), "
            "or give --name to open one with the payment.\n",
        ),
        (
            ("credits", "buy", ANN, "10", "--paid", "25,00"),
            "Error: '25,00' is not an amount of money: write it like 25 or 25.50.\n",
        ),
        (
            ("credits", "buy", ANN, "10", "--paid", "\u0661\u0662"),
            "Error: '\u0661\u0662' is not an amount of money: write it like 25 or 25.50.\n",
        ),
        (
            ("credits", "buy", ANN, "10", "--paid", "25.\uff15"),
            "Error: '25.\uff15' is not an amount of money: write it like 25 or 25.50.\n",
        ),
        (
            # Said "is not an amount of money: write it like 25 or 25.50", which it is, one digit too long.
            ("credits", "buy", ANN, "10", "--paid", "1000000000"),
            "Error: '1000000000' is more money than one payment takes (at most 999999999.99): check the amount.\n",
        ),
        (("credits", "buy", ANN, "0", "--paid", "1"), "Error: a payment buys at least 1 credit.\n"),
        # A new account takes an address and a name, as one joining a game does.
        (("credits", "buy", "not an address", "1", "--paid", "1", "--name", "X"), ERR_NOT_ADDRESS),
        (("credits", "buy", "", "1", "--paid", "1", "--name", "X"), "Error: '' is not an e-mail address.\n"),
        (("credits", "buy", "zed@example.org", "1", "--paid", "1", "--name", "\x1b[2J"), ERR_NAME),
        (("credits", "buy", "zed@example.org", "1", "--paid", "1", "--name", " "), ERR_NAME),
        (
            ("credits", "adjust", ANN, "--credits", "2", "--reason", "  "),
            "Error: an adjustment needs a reason: give --reason TEXT.\n",
        ),
        (
            ("credits", "adjust", ANN, "--discount", "11", "--reason", "x"),
            "Error: ann@example.org has a discount of 0; it must stay between 0 and 10, so it cannot change by 11.\n",
        ),
        (
            ("credits", "adjust", ANN, "--credits", "1", "--reason", "paid\x1b]0;owned\x07"),
            "Error: a reason is printable text: no control characters such as a terminal's escape.\n",
        ),
        (
            ("credits", "transfer", ANN, "bob@example.org", "1", "--reason", "\u202egift"),
            "Error: a reason is printable text: no control characters such as a terminal's escape.\n",
        ),
        (
            ("credits", "transfer", ANN, "bob@example.org", "3"),
            "Error: ann@example.org has 0 credits; 3 cannot be transferred.\n",
        ),
        (
            ("credits", "policy", "g1", "--unpaid", "later"),
            "Error: 'later' is not a policy for unpaid turns; use hold, deliver, free.\n",
        ),
        (("credits", "export"), "Error: say which format: gm credits export --csv.\n"),
        (("seat", "drop", "g1", "XX"), "Error: game 'g1' has no seat 'XX'. Its seats: BR, RU, FR, GE.\n"),
    ]:
        ran = gm(*args, home=home)
        assert (ran.code, ran.err) == (1, message), args
    assert gm("credits", "adjust", ANN, "--credits", "2", home=home).code == 2  # --reason is required
    assert table_dump(home) == before


def test_buy_opens_an_account_and_transfer_moves_credits(home, gm, game):
    ran = gm("credits", "buy", "zed@example.org", "5", "--paid", "12.50", "--name", "Zed", home=home)
    assert ran.code == 0 and ran.out.endswith("zed@example.org now has 5 credits and a discount of 0.\n")
    ran = gm("credits", "transfer", "zed@example.org", ANN, "2", "--reason", "return slip", home=home)
    assert ran.out == "Transferred 2 credits from zed@example.org to ann@example.org (entries 2 and 3).\n"
    assert gm("ledger", "check", home=home).code == 0


def test_export_defuses_formulas(home, gm, game):
    gm("credits", "adjust", ANN, "--credits", "1", "--reason", '=HYPERLINK("http://x","y")', home=home)
    gm("credits", "adjust", ANN, "--credits", "-1", "--reason", "@SUM(A1) +1 -2", home=home)
    gm("credits", "buy", ANN, "1", "--paid", "1", "--ref", "=2+3", home=home)
    ran = gm("credits", "export", "--csv", home=home)
    rows = list(csv.reader(io.StringIO(ran.out)))
    assert rows[0][:6] == ["entry", "date", "account", "game", "kind", "credits"]
    memo = credits.CSV_FIELDS.index("memo")
    assert rows[1][memo] == '\'=HYPERLINK("http://x","y")' and rows[2][memo] == "'@SUM(A1) +1 -2"
    assert rows[2][5] == "-1" and rows[2][6] == "0.00"
    assert rows[3][credits.CSV_FIELDS.index("reference")] == "'=2+3"
    assert credits.csv_cell("+cmd") == "'+cmd" and credits.csv_cell("-1+1") == "'-1+1"
    assert credits.csv_cell(-3) == "-3" and credits.csv_cell("plain") == "plain"


def test_turns_charge_seats_and_hold_unpaid_reports(home, gm, game):
    gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home)
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    db = open_database(home / "gm.db")
    charged = db.execute("SELECT seat, balance FROM ledger WHERE kind = 'turn charge' ORDER BY id").fetchall()
    assert charged == [("BR", 0), ("RU", -1), ("FR", -1), ("GE", -1)]
    assert [turn_charges.report_held(db, "g1", 1, s) for s in ("BR", "RU", "FR", "GE")] == [False, True, True, True]
    assert turn_charges.held_facts(db, "g1", 1, "BR") is None
    assert turn_charges.held_facts(db, "g1", 1, "RU") == {
        "email": "bob@example.org",
        "short": 1,
        "discount": 0,
        "bonus_from": 10,
    }
    gm("turn", "run", "g1", "--now", "--no-render", home=home)
    # bob owes two turns: one credit pays the older one, so only turn 2 stays held.
    gm("credits", "buy", "bob@example.org", "1", "--paid", "2.50", home=home)
    assert [turn_charges.report_held(db, "g1", n, "RU") for n in (1, 2)] == [False, True]
    game_record = records.game_by_name(db, "g1")
    assert turn_charges.report_credits(db, game_record, 2, "BR") == {
        "balance": -1,
        "discount": 0,
        "charged": True,
        "low": True,
        "next_unpaid": True,
        "unpaid": True,
        "policy": "hold",
        "bonus_from": 10,
    }
    assert gm("credits", "policy", "g1", "--unpaid", "deliver", home=home).out == (
        "g1: unpaid turns: deliver (charged; the report goes out even on credit).\n"
    )
    assert not turn_charges.report_held(db, "g1", 2, "FR")
    gm("credits", "policy", "g1", "--unpaid", "free", home=home)
    gm("turn", "run", "g1", "--now", "--no-render", home=home)
    assert db.execute("SELECT COUNT(*) FROM ledger WHERE kind = 'turn charge'").fetchone()[0] == 8
    assert gm("ledger", "check", home=home).code == 0


def test_rerun_reverses_the_discarded_charges(home, gm, game):
    assert gm("game", "set", "g1", "nmr-limit", "0", home=home).code == 0  # robots play on
    for _ in range(3):
        gm("turn", "run", "g1", "--now", "--no-render", home=home)
    ran = gm("turn", "rerun", "g1", "2", "--reason", "a fix", "--yes", "--no-render", home=home)
    assert ran.code == 0, ran.err
    db = open_database(home / "gm.db")
    kinds = db.execute("SELECT kind, turn, credits FROM ledger WHERE seat = 'BR' ORDER BY id").fetchall()
    assert kinds == [
        ("turn charge", 1, -1),
        ("turn charge", 2, -1),
        ("turn charge", 3, -1),
        ("adjustment", 2, 1),
        ("adjustment", 3, 1),
        ("turn charge", 2, -1),
    ]
    assert gm("ledger", "check", home=home).code == 0


def test_ledger_check_names_the_faulty_entry(home, gm, game):
    gm("credits", "buy", ANN, "10", "--paid", "25", home=home)
    gm("turn", "run", "g1", "--now", "--no-render", home=home)
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("DROP TRIGGER ledger_no_update")
        conn.execute("UPDATE ledger SET balance = 7 WHERE id = 2")
        conn.execute("UPDATE ledger SET turn = 9 WHERE id = 3")
    ran = gm("ledger", "check", home=home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        "the books are not append-only: the database's trigger ledger_no_update is gone\n"
        "entry 2: balance 7 does not equal the sum of the entries of ann@example.org, 9\n"
        "entry 3: a turn charge for g1 turn 9, which was never played\n"
        "3 fault(s) in the books.\n"
    )


# What a hand edit of the database (sqlite3 gm.db, the append-only guard lifted and put back)
# does to the books, and what `gm ledger check` says of it. Entries 1 to 4: Ann's payment, Bob's,
# Ann's second and Cy's.
TAMPERED = [
    (
        "DELETE FROM ledger WHERE id = 2",  # Bob's only entry: no balance of his is off after it
        "entry 2: it is missing: the books number their entries 1, 2, 3, ... and never delete one\n",
    ),
    (
        "UPDATE ledger SET id = 40 WHERE id = 4",
        "entry 4: it is missing, and so are entries 5 to 39: the books number their entries 1, 2, 3, ... "
        "and never delete one\n",
    ),
    (
        "DELETE FROM accounts WHERE email = 'cy@example.org'",  # Cy's entry was left out of the check
        "entry 4: it cannot be read as an entry: its account 3 is not in the accounts table\n",
    ),
    (
        "UPDATE ledger SET game_id = 99 WHERE id = 1",
        "entry 1: it cannot be read as an entry: its game 99 is not in the games table\n",
    ),
    (
        "UPDATE ledger SET credits = 'ten' WHERE id = 1",  # a traceback (TypeError) before
        "entry 1: it cannot be read as an entry: its credits holds text, not a whole number\n"
        "entry 3: balance 15 does not equal the sum of the entries of ann@example.org, 5\n",
    ),
    (
        "UPDATE ledger SET credits = 12 WHERE id = 1",
        "entry 1: balance 10 does not equal the sum of the entries of ann@example.org, 12; the same difference "
        "carries on into 1 later entry of the account\n",
    ),
]


def test_ledger_check_says_what_a_hand_edit_did(home, gm, game, tmp_path):
    """A deleted entry, a renumbered one, an account removed from under its entries, a value
    SQLite kept as text: each named by its entry and the exit code 1, never a traceback and never
    "The books balance" (a deleted entry and a vanished account passed before); the guard
    dropped is named too."""
    for who, credits_ in ((ANN, "10"), ("bob@example.org", "4"), (ANN, "5"), ("cy@example.org", "3")):
        assert gm("credits", "buy", who, credits_, "--paid", "10", "--game", "g1", home=home).code == 0
    for statement, faults in TAMPERED:
        copy = tmp_path / f"copy-{TAMPERED.index((statement, faults))}"
        shutil.copytree(home, copy)
        conn = sqlite3.connect(copy / "gm.db")
        guards = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'ledger_no_%'")
        kept = [sql for (sql,) in guards.fetchall()]
        with conn:
            conn.execute("DROP TRIGGER ledger_no_update")
            conn.execute("DROP TRIGGER ledger_no_delete")
            conn.execute(statement)
            for sql in kept:
                conn.execute(sql)
        conn.close()
        ran = gm("ledger", "check", home=copy)
        count = faults.count("\n")
        assert (ran.code, ran.out, ran.err) == (1, "", f"{faults}{count} fault(s) in the books.\n"), statement
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("DROP TRIGGER ledger_no_delete")
    conn.close()
    ran = gm("ledger", "check", home=home)
    assert (ran.code, ran.err) == (
        1,
        "the books are not append-only: the database's trigger ledger_no_delete is gone\n1 fault(s) in the books.\n",
    )
    # No new entry puts a guard back: gm doctor says to restore a backup, not to add an adjustment.
    assert (
        "PROBLEM  ledger: the books are not append-only: the database's trigger ledger_no_delete is gone. "
        "Restore the last good backup into a new home (gm restore BACKUP NEWHOME)"
    ) in gm("doctor", home=home).out


def test_the_ledger_is_append_only(home, gm, game):
    gm("credits", "buy", ANN, "10", "--paid", "25", home=home)
    conn = sqlite3.connect(home / "gm.db")
    for statement in ("UPDATE ledger SET credits = 99", "DELETE FROM ledger"):
        try:
            with conn:
                conn.execute(statement)
        except sqlite3.IntegrityError as exc:
            assert str(exc) == "the ledger is append-only"
        else:
            raise AssertionError(statement)


def test_resign_and_drop_out(home, gm, game):
    gm("credits", "adjust", ANN, "--discount", "4", "--reason", "earlier games", home=home)
    gm("credits", "adjust", "bob@example.org", "--discount", "2", "--reason", "earlier games", home=home)
    ran = gm("seat", "resign", "g1", "br", home=home)
    assert ran.out == "Ann <ann@example.org> resigned seat BR of g1 and keeps the discount.\n"
    ran = gm("seat", "drop", "g1", "RU", home=home)
    assert ran.out == "Bob <bob@example.org> dropped out of g1 (seat RU) and forfeits every discount.\n"
    assert gm("credits", "show", "bob@example.org", home=home).out.startswith(
        "bob@example.org (Bob): 0 credits, discount 0 bonus turns."
    )
    before = table_dump(home)
    ran = gm("seat", "resign", "g1", "BR", "--forfeit", home=home)
    assert ran.err == "Error: seat BR of 'g1' has already resigned (Ann <ann@example.org>).\n"
    assert table_dump(home) == before
    gm("turn", "run", "g1", "--now", "--no-render", home=home)
    db = open_database(home / "gm.db")
    assert db.execute("SELECT seat FROM ledger WHERE kind = 'turn charge' ORDER BY id").fetchall() == [("FR",), ("GE",)]


def test_game_end_awards_discounts_to_seats_still_playing(home, gm, game):
    clock = FixedClock(datetime(2026, 11, 21, 12, tzinfo=UTC))
    db = open_database(home / "gm.db")
    gm("credits", "adjust", "cy@example.org", "--discount", "9", "--reason", "old", home=home)
    gm("seat", "drop", "g1", "GE", home=home)
    game_record = records.game_by_name(db, "g1")
    final = {"victory": {"eliminated": {"RU": 9}}}
    # A clash game: the house's default table (H-1) gives the winner 3, a knock-out 1, a finish 1.
    with transaction(db):
        made = turn_charges.award_discounts(
            db,
            game_record,
            12,
            final,
            Outcome(("FR",), "most VP", {}),
            "2026-11-21T12:00:00Z",
            {"clash": {"knockout": 2}},
        )
    assert [(e.seat, e.discount, e.memo) for e in made] == [
        ("BR", 1, "g1: 1 bonus turns, seat BR"),
        ("RU", 2, "g1: 2 bonus turns, seat RU"),
        ("FR", 1, "g1: 1 bonus turns, seat FR (3 earned; the cap is 10)"),
    ]
    assert clock.now().year == 2026


def test_a_drop_out_by_nmr_forfeits_every_discount(home, gm, game):
    gm("credits", "adjust", ANN, "--discount", "5", "--reason", "earlier games", home=home)
    for _ in range(3):  # nmr-limit is 3 by default: the third missed turn drops every seat out
        gm("turn", "run", "g1", "--now", "--no-render", home=home)
    db = open_database(home / "gm.db")
    assert db.execute("SELECT kind, discount, memo FROM ledger WHERE kind = 'forfeit'").fetchall() == [
        ("forfeit", -5, "g1 seat BR dropped out (no orders): all 5 bonus turns forfeited")
    ]
    assert gm("ledger", "check", home=home).code == 0


def test_accounts_apart_in_the_accounts_table_are_apart_in_the_books(home, gm, game):
    """The accounts table tells addresses apart by SQLite's NOCASE (ASCII letters only), so
    'Ä@example.org' and 'ä@example.org' are two accounts: the books' check must keep them two."""
    for email in ("Ä@example.org", "ä@example.org"):
        ran = gm("credits", "buy", email, "3", "--paid", "7.50", "--name", "Umlaut", home=home)
        assert ran.code == 0, ran.err
    assert gm("credits", "buy", "ann@EXAMPLE.org", "1", "--paid", "2.50", home=home).code == 0
    ran = gm("credits", "transfer", "Ä@example.org", "ä@example.org", "2", home=home)
    assert ran.out == "Transferred 2 credits from Ä@example.org to ä@example.org (entries 4 and 5).\n"
    assert gm("credits", "transfer", ANN, "ANN@example.org", "1", home=home).err == (
        "Error: a transfer needs two different accounts.\n"
    )
    ran = gm("ledger", "check", home=home)
    assert (ran.code, ran.out, ran.err) == (0, "The books balance: 5 entries, 3 accounts.\n", "")


def test_a_payment_reference_is_booked_once(home, gm, game):
    """The same payment typed in twice (its bank or PayPal reference in any case) is refused and
    books nothing; a reference is printable words; the check and the export carry it."""
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", " 8XK21934LP ", home=home)
    assert ran.out.startswith(
        "Payment recorded: 10 credits for 25.00 from ann@example.org (entry 1, reference 8XK21934LP)."
    )
    before = table_dump(home)
    for args, message in [
        (
            ("credits", "buy", "bob@example.org", "4", "--paid", "10", "--ref", "8xk21934lp"),
            "Error: payment 8XK21934LP is in the books already: entry 1, 10 credits for 25.00 from ann@example.org "
            f"on {datetime.now(UTC):%Y-%m-%d}. Nothing was booked; a second payment has its own reference.\n",
        ),
        (
            ("credits", "buy", ANN, "1", "--paid", "1", "--ref", " "),
            "Error: a payment reference is 1 to 100 printable characters, such as 8XK21934LP.\n",
        ),
        (
            ("credits", "buy", ANN, "1", "--paid", "1", "--ref", "x\x1b[2J"),
            "Error: a payment reference is 1 to 100 printable characters, such as 8XK21934LP.\n",
        ),
    ]:
        ran = gm(*args, home=home)
        assert (ran.code, ran.err) == (1, message), args
    assert table_dump(home) == before
    assert gm("credits", "buy", ANN, "1", "--paid", "2.50", "--ref", "8XK21934LQ", home=home).code == 0
    rows = list(csv.reader(io.StringIO(gm("credits", "export", "--csv", home=home).out)))
    assert [row[-1] for row in rows] == ["reference", "8XK21934LP", "8XK21934LQ"]
    assert gm("ledger", "check", home=home).code == 0


def test_forgetting_a_person_reaches_the_payment_references_naming_them(home, gm):
    """gm person forget rewrites the memos naming the address; a payment reference is the GM's words
    as a memo is, and may name it too (docs/people.md, 'Forgetting a person')."""
    gm(
        "credits",
        "buy",
        "zed@example.org",
        "1",
        "--paid",
        "1",
        "--name",
        "Zed",
        "--ref",
        "cheque zed@example.org",
        home=home,
    )
    assert gm("person", "forget", "zed@example.org", home=home).code == 0
    assert "zed@example.org" not in repr(table_dump(home)).lower()
    assert gm("ledger", "check", home=home).code == 0


def test_a_payment_from_an_old_address_is_the_players(home, gm, game):
    """A player's address changes ('gm person address': "every game, the books, the portal, mail")
    and their next payment comes from the old one: it is booked to their account, as `gm person`
    finds them by an old address, never to a new account opened at the old address."""
    assert gm("credits", "buy", ANN, "10", "--paid", "25", home=home).code == 0
    assert gm("person", "address", ANN, "ann@new.example", home=home).code == 0
    ran = gm("credits", "buy", ANN, "5", "--paid", "10", "--name", "Ann", home=home)
    assert (ran.code, ran.out) == (
        0,
        "Payment recorded: 5 credits for 10.00 from ann@new.example (entry 2).\n"
        "ann@new.example now has 15 credits and a discount of 0.\n",
    )
    assert gm("credits", "show", ANN, home=home).out.startswith("ann@new.example (Ann): 15 credits")
    ran = gm("credits", "adjust", ANN, "--credits", "-1", "--reason", "refund", home=home)
    assert ran.out.endswith("ann@new.example now has 14 credits and a discount of 0.\n")
    ran = gm("credits", "transfer", ANN, "bob@example.org", "4", home=home)
    assert ran.out == "Transferred 4 credits from ann@new.example to bob@example.org (entries 4 and 5).\n"
    ran = gm("ledger", "check", home=home)
    assert (ran.code, ran.out) == (0, "The books balance: 5 entries, 2 accounts.\n")
    # An address given up and then taken by a new player is the new player's.
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "join", "g2", ANN, "--name", "Eve", home=home).code == 0
    ran = gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home)
    assert ran.out.endswith("ann@example.org now has 1 credit and a discount of 0.\n")
    assert gm("credits", "show", "ann@new.example", home=home).out.startswith("ann@new.example (Ann): 10 credits")


def test_a_message_counts_one_thing_in_the_singular(home, gm, game, tmp_path):
    """'Wrote 1 entries' was printed for a book of one entry: every count goes through counted()."""
    gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home)
    ran = gm("credits", "export", "--csv", "-o", str(tmp_path / "books.csv"), home=home)
    assert ran.out == f"Wrote 1 entry to {tmp_path / 'books.csv'}.\n"
    assert gm("credits", "show", ANN, home=home).out.startswith(f"{ANN} (Ann): 1 credit, discount 0 bonus turns.")
    assert "ledger: the books balance (1 entry)" in gm("doctor", home=home).out
    # The payment's memo, and the refusal of its reference typed in again, said "1 credits".
    assert credits.entry(open_database(home / "gm.db"), 1).memo == "1 credit for 2.50"
    gm("credits", "buy", ANN, "1", "--paid", "2.50", "--ref", "R-1", home=home)
    ran = gm("credits", "buy", ANN, "1", "--paid", "2.50", "--ref", "R-1", home=home)
    assert ran.err.startswith("Error: payment R-1 is in the books already: entry 2, 1 credit for 2.50 from ")


def test_a_reference_copied_in_full_width_is_the_payment_booked_already(home, gm, game):
    """A statement may print a transaction id in full-width characters ('８XK21934LP'); copied
    into --ref it is the payment typed in as 8XK21934LP, refused the second time, not booked twice."""
    assert gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "８XK21934LP", home=home).code == 0
    before = table_dump(home)
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "8xk21934lp", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: payment 8XK21934LP is in the books already: entry 1, 10 credits for 25.00 from ann@example.org "
        f"on {datetime.now(UTC):%Y-%m-%d}. Nothing was booked; a second payment has its own reference.\n",
    )
    assert table_dump(home) == before
    assert gm("ledger", "check", home=home).code == 0


def test_a_full_width_reference_booked_before_nfkc_is_still_found(home, gm, game, monkeypatch):
    """Books kept before references were read in NFKC may hold '８XK21934LP' as typed: typed
    again, it is refused, not booked a second time under its ASCII form."""
    with monkeypatch.context() as before:
        before.setattr(credits, "_reference", lambda text: " ".join(text.split()))
        assert gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "８XK21934LP", home=home).code == 0
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "８XK21934LP", home=home)
    assert (ran.code, ran.err.split(":")[0:2]) == (1, ["Error", " payment ８XK21934LP is in the books already"])
    assert gm("ledger", "check", home=home).code == 0


def test_an_empty_game_name_is_no_game_and_books_nothing(home, gm, game):
    """--game "$GAME" with the variable unset: refused as an unknown game, not booked to no game."""
    before = table_dump(home)
    for args in [
        ("credits", "buy", ANN, "3", "--paid", "7.50", "--game", ""),
        ("credits", "adjust", ANN, "--credits", "2", "--reason", "goodwill", "--game", ""),
    ]:
        ran = gm(*args, home=home)
        assert (ran.code, ran.err) == (1, "Error: unknown game ''. Games here: g1.\n"), args
    assert table_dump(home) == before
