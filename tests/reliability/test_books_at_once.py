"""Two bookkeepers typing payments into one home at once while a turn runs and spends credits:
real `gm` processes, as a house has them. Each payment is booked once (the same payment typed
into both, by its reference, once in all), none is lost or refused for the other's lock, the
turn charges each seat once, and the books balance after."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SEATS = ("ann", "bob", "cy", "di")


def gm_process(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gm", *args, "--home", str(home)], capture_output=True, text=True, timeout=120
    )


def bookkeeper(home: Path, who: str, references: range, ran: list[subprocess.CompletedProcess]) -> None:
    """One person booking a payment of 1 credit for each reference, one after another."""
    for n in references:
        ran.append(gm_process(home, "credits", "buy", f"{who}@example.org", "1", "--paid", "2.50", "--ref", f"R{n}"))


def test_two_bookkeepers_and_a_turn_at_once_book_each_payment_once(home, gm, game):
    for who in SEATS:
        assert gm("credits", "buy", f"{who}@example.org", "10", "--paid", "25", home=home).code == 0
    first, second = [], []
    people = [
        threading.Thread(target=bookkeeper, args=(home, "ann", range(1, 9), first)),
        threading.Thread(target=bookkeeper, args=(home, "bob", range(5, 13), second)),  # R5 to R8 typed twice
    ]
    for person in people:
        person.start()
    turn = gm_process(home, "turn", "run", "g1", "--now", "--no-render")
    for person in people:
        person.join()
    assert turn.returncode == 0, turn.stderr
    for done in first + second:
        assert done.returncode == 0 or (done.returncode == 1 and " is in the books already: entry " in done.stderr), (
            done.stderr
        )  # never the database busy, never a traceback
    conn = sqlite3.connect(home / "gm.db")
    try:
        booked = conn.execute(
            "SELECT reference, count(*) FROM ledger WHERE reference IS NOT NULL GROUP BY reference ORDER BY 1"
        ).fetchall()
        charges = conn.execute("SELECT seat, count(*) FROM ledger WHERE kind = 'turn charge' GROUP BY seat").fetchall()
        balances = conn.execute(
            "SELECT a.email, sum(l.credits) FROM ledger l JOIN accounts a ON a.id = l.account_id GROUP BY 1 ORDER BY 1"
        ).fetchall()
    finally:
        conn.close()
    assert booked == sorted((f"R{n}", 1) for n in range(1, 13))  # each payment once, none lost
    assert sum(done.returncode == 0 for done in first + second) == 12
    assert sorted(charges) == [("BR", 1), ("FR", 1), ("GE", 1), ("RU", 1)]
    left = {f"{who}@example.org": 10 - 1 for who in SEATS}  # bought 10, charged 1
    left["ann@example.org"] += sum(done.returncode == 0 for done in first)
    left["bob@example.org"] += sum(done.returncode == 0 for done in second)
    assert balances == sorted(left.items())
    ran = gm("ledger", "check", home=home)
    assert (ran.code, ran.out) == (0, "The books balance: 20 entries, 4 accounts.\n")
