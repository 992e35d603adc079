"""The books after 'gm restore': the backup's, balanced as of then; what was booked after the
backup is booked again, and a payment's reference keeps each payment booked once (README, 'Safe
keeping')."""

from __future__ import annotations

import csv
import io

ANN, BOB = "ann@example.org", "bob@example.org"


def test_a_restore_gives_the_backups_books_and_references_keep_rebooking_safe(home, gm, game, tmp_path):
    assert gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "PAY-1", home=home).code == 0
    backup = tmp_path / "books.tar"
    assert gm("backup", str(backup), home=home).code == 0
    assert gm("credits", "buy", BOB, "4", "--paid", "10", "--ref", "PAY-2", home=home).code == 0
    before_restore = list(csv.reader(io.StringIO(gm("credits", "export", "--csv", home=home).out)))
    restored = tmp_path / "restored"
    assert gm("restore", str(backup), str(restored)).code == 0
    ran = gm("ledger", "check", home=restored)
    assert (ran.code, ran.out) == (0, "The books balance: 1 entry, 1 account.\n")
    # Bob's payment came after the backup: booked again, once; Ann's is in the books already.
    assert gm("credits", "buy", BOB, "4", "--paid", "10", "--ref", "pay-2", home=restored).code == 0
    assert gm("credits", "buy", BOB, "4", "--paid", "10", "--ref", "PAY-2", home=restored).code == 1
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", "--ref", "PAY-1", home=restored)
    assert ran.code == 1 and ran.err.startswith("Error: payment PAY-1 is in the books already: entry 1,")
    after = list(csv.reader(io.StringIO(gm("credits", "export", "--csv", home=restored).out)))
    fields = slice(2, 13)  # all but the entry's number, date, memo and reference
    assert [row[fields] for row in after] == [row[fields] for row in before_restore]
    assert gm("ledger", "check", home=restored).code == 0
