"""A standby who takes a dropped seat gets a welcome mail with the secret and then the last
report; the player who dropped out gets a notice; the standby pays nothing for, and is sent no
held notice of, the turn they did not play."""

from __future__ import annotations

import email
import email.policy
import sqlite3

from tests.cycle.test_gunboat import pdf_text
from tests.intake.mails import set_mail_address


def _rows(home, sql, *params):
    with sqlite3.connect(home / "gm.db") as db:
        return db.execute(sql, params).fetchall()


def _secret(out: str, seat: str) -> str:
    return (
        out.split(f"secret for {seat}: ")[1].split()[0]
        if f"secret for {seat}: " in out
        else next(line for line in out.splitlines() if line.startswith(f"Secret for {seat}: ")).split(": ")[1]
    )


def _submit(gm, home, tmp_path, seat, secret, name):
    form = tmp_path / name
    assert gm("orders", "template", "g", seat, "-o", form, home=home).code == 0
    form.write_text(form.read_text().replace("<your secret>", secret))
    return gm("submit", form, home=home)


def _turn_one_without_ann(gm, home, tmp_path):
    """Game g, Ann in BR and Bob in FR, nmr-limit 1, standby Zed; only Bob sends orders for turn
    1, which is run: Ann drops out, Zed takes BR from turn 2. Returns the run."""
    set_mail_address(home)
    assert gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--seed", "3", home=home).code == 0
    gm("game", "join", "g", "ann@example.org", "--name", "Ann", "--seat", "BR", home=home)
    bob = _secret(gm("game", "join", "g", "bob@example.org", "--name", "Bob", "--seat", "FR", home=home).out, "FR")
    assert gm("game", "set", "g", "nmr-limit", "1", home=home).code == 0
    assert gm("game", "standby", "g", "zed@example.org", "--name", "Zed", home=home).code == 0
    assert _submit(gm, home, tmp_path, "FR", bob, "fr1.txt").code == 0
    ran = gm("turn", "run", "g", "--now", home=home)
    assert ran.code == 0, ran.err
    return ran


def test_a_standby_is_welcomed_with_the_secret_and_the_leaver_told(home, gm, tmp_path):
    ran = _turn_one_without_ann(gm, home, tmp_path)
    zed = _secret(ran.out, "BR")

    notices = {
        to: body
        for to, body in _rows(home, "SELECT recipient, body FROM outbox WHERE kind = 'notice' AND seat IS NULL")
    }
    assert set(notices) == {"ann@example.org", "zed@example.org"}
    assert f"\n    {zed}\n" in notices["zed@example.org"] and "from turn 2" in notices["zed@example.org"]
    assert zed not in notices["ann@example.org"] and "dropped out of it after turn 1" in notices["ann@example.org"]
    # The seat's report of turn 1 goes to Zed, not held for Ann's unpaid charge, with no word of her books.
    assert _rows(home, "SELECT recipient, kind FROM outbox WHERE seat = 'BR' AND turn = 1") == [
        ("zed@example.org", "report")
    ]
    charged = _rows(
        home,
        "SELECT a.email, l.turn FROM ledger l JOIN accounts a ON a.id = l.account_id "
        "WHERE l.kind = 'turn charge' ORDER BY a.email",
    )
    assert charged == [("ann@example.org", 1), ("bob@example.org", 1)]
    assert _submit(gm, home, tmp_path, "BR", zed, "br2.txt").code == 0  # the mailed secret works

    sent = gm("mail", "send", home=home)
    assert sent.code == 0, sent.err
    letters = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in (home / "outbox").rglob("*.eml")
    ]
    welcome = next(
        m for m in letters if m["To"].addresses[0].addr_spec == "zed@example.org" and "take over" in m["Subject"]
    )
    assert welcome["Subject"] == "g: you take over seat BR from turn 2"
    assert zed in welcome.get_content()
    report = next(m for m in letters if m["To"].addresses[0].addr_spec == "zed@example.org" and m is not welcome)
    # The last report and its turn kit, with the order form for the turn the standby now plays.
    assert [a.get_filename() for a in report.iter_attachments()] == ["g-1-BR.pdf", "g-1-BR.html", "g-2-BR-orders.txt"]


def test_a_drop_out_without_a_standby_is_told_and_no_one_welcomed(home, gm, tmp_path):
    set_mail_address(home)
    assert gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--seed", "3", home=home).code == 0
    assert (
        gm(
            "game", "join", "g", "ann@example.org", "--name", "Ann\r\nBcc: all@example.org", "--seat", "BR", home=home
        ).code
        == 0
    )
    bob = _secret(gm("game", "join", "g", "bob@example.org", "--name", "Bob", "--seat", "FR", home=home).out, "FR")
    assert gm("game", "set", "g", "nmr-limit", "1", home=home).code == 0
    assert _submit(gm, home, tmp_path, "FR", bob, "fr1.txt").code == 0
    assert gm("turn", "run", "g", "--now", home=home).code == 0
    notices = _rows(home, "SELECT recipient, subject, body FROM outbox WHERE kind = 'notice' AND seat IS NULL")
    assert [(to, subject) for to, subject, _ in notices] == [("ann@example.org", "g: you have dropped out of seat BR")]
    assert "From turn 2 the seat plays by the game's rules for missed turns" in notices[0][2]
    assert gm("mail", "send", home=home).code == 0
    told = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in (home / "outbox").rglob("*.eml")
        if b"dropped out" in p.read_bytes()
    ]
    assert len(told) == 1 and told[0]["Bcc"] is None  # the name's line break never became a header
    assert [a.addr_spec for a in told[0]["To"].addresses] == ["ann@example.org"]


def _three_seats(gm, home) -> None:
    """A Clash game g that mails, with Ann (BR), Bob (FR) and Cy (GE) seated."""
    set_mail_address(home)
    assert gm("game", "new", "g", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    for name, seat in (("Ann", "BR"), ("Bob", "FR"), ("Cy", "GE")):
        joined = gm("game", "join", "g", f"{name.lower()}@example.org", "--name", name, "--seat", seat, home=home)
        assert joined.code == 0, joined.err


def test_a_standby_takes_a_seat_its_player_resigned_or_the_gm_dropped(home, gm, tmp_path):
    # docs/people.md: "the seat is resigned, a standby takes it over at the next turn run if one
    # waits (with the welcome mail and the mails that follow), else the robot plays it". It was
    # only ever handed over after NMRs: the standby waited for ever, the robot played on.
    _three_seats(gm, home)
    assert gm("game", "standby", "g", "zed@example.org", "--name", "Zed", home=home).code == 0
    assert gm("seat", "resign", "g", "BR", home=home).code == 0
    assert gm("seat", "drop", "g", "FR", home=home).code == 0
    ran = gm("turn", "run", "g", "--now", home=home)
    assert ran.code == 0, ran.err
    zed = _secret(ran.out, "BR")  # the first seat that left, to the first standby; FR waits for another
    assert "FR is now played" not in ran.out
    seats = dict(_rows(home, "SELECT s.code, s.status FROM seats s ORDER BY s.code"))
    assert seats == {"BR": "active", "FR": "dropped", "GE": "active"}
    notices = _rows(home, "SELECT recipient, subject FROM outbox WHERE kind = 'notice' AND seat IS NULL")
    assert notices == [("zed@example.org", "g: you take over seat BR from turn 2")]  # Ann was told when she left
    assert _rows(home, "SELECT recipient FROM outbox WHERE seat = 'BR' AND turn = 1 AND kind = 'report'") == [
        ("zed@example.org",)
    ]
    assert _submit(gm, home, tmp_path, "BR", zed, "br2.txt").code == 0  # the new secret works
    assert gm("game", "standby", "g", "yan@example.org", "--name", "Yan", home=home).code == 0
    ran = gm("turn", "run", "g", "--now", home=home)
    assert ran.code == 0 and "FR is now played by standby Yan <yan@example.org> from turn 3" in ran.out, ran.out


def test_a_player_who_left_the_seat_gets_no_further_report_of_it(home, gm, tmp_path):
    # docs/mail.md: the player who dropped out gets dropped.txt "and no further report of the
    # seat". Every seat's report went to whoever the seat last had, gone or not, every turn.
    _three_seats(gm, home)
    assert gm("game", "set", "g", "nmr-limit", "1", home=home).code == 0
    assert gm("seat", "resign", "g", "BR", home=home).code == 0
    assert gm("seat", "drop", "g", "FR", home=home).code == 0
    assert gm("turn", "run", "g", "--now", home=home).code == 0  # Cy sent nothing: dropped for NMR
    assert _rows(home, "SELECT recipient FROM outbox WHERE kind = 'report'") == []
    assert ("cy@example.org", "g: you have dropped out of seat GE") in _rows(
        home, "SELECT recipient, subject FROM outbox WHERE seat IS NULL"
    )


def test_a_rerun_of_the_turn_a_standby_took_over_after_neither_charges_nor_drops_the_standby(home, gm, tmp_path):
    """Re-running turn 1 after Ann dropped out in it and Zed took BR from turn 2: the turn is
    played again as it was, so Ann (who played it) is charged for it again and Zed, who did not,
    pays nothing and keeps BR; he is not dropped for a turn he did not play, nor Ann again."""
    _turn_one_without_ann(gm, home, tmp_path)
    assert gm("turn", "rerun", "g", "1", "--reason", "a fix", "--yes", home=home).code == 0
    net = _rows(
        home,
        "SELECT a.email, sum(l.credits) FROM ledger l JOIN accounts a ON a.id = l.account_id "
        "WHERE l.turn = 1 GROUP BY a.email ORDER BY a.email",
    )
    assert net == [("ann@example.org", -1), ("bob@example.org", -1)]
    told = _rows(home, "SELECT recipient, subject FROM outbox WHERE kind = 'notice' AND seat IS NULL ORDER BY id")
    assert ("zed@example.org", "g: you have dropped out of seat BR") not in told
    assert _rows(home, "SELECT code, status FROM seats ORDER BY code") == [("BR", "active"), ("FR", "active")]


def test_a_standby_is_dropped_for_the_turns_they_missed_not_for_those_before_them(home, gm, tmp_path):
    # nmr-limit 2: Ann misses turns 1 and 2 and drops out; Zed plays BR from turn 3. Missing turn 3
    # is Zed's first miss, not Ann's third: he stays, and drops out only after missing turn 4 too.
    set_mail_address(home)
    assert gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--seed", "3", home=home).code == 0
    gm("game", "join", "g", "ann@example.org", "--name", "Ann", "--seat", "BR", home=home)
    gm("game", "join", "g", "bob@example.org", "--name", "Bob", "--seat", "FR", home=home)
    assert gm("game", "set", "g", "nmr-limit", "2", home=home).code == 0
    assert gm("game", "set", "g", "nmr-spike", "100", home=home).code == 0
    assert gm("game", "standby", "g", "zed@example.org", "--name", "Zed", home=home).code == 0
    for _turn in (1, 2):
        ran = gm("turn", "run", "g", "--now", home=home)
        assert ran.code == 0, ran.err
    assert "BR is now played by standby Zed <zed@example.org> from turn 3" in ran.out, ran.out
    assert gm("game", "standby", "g", "yan@example.org", "--name", "Yan", home=home).code == 0
    ran = gm("turn", "run", "g", "--now", home=home)  # turn 3: Zed's first miss
    assert ran.code == 0 and "BR (Zed) dropped out" not in ran.out, ran.out
    assert _rows(
        home, "SELECT s.status, a.email FROM seats s JOIN accounts a ON a.id = s.account_id WHERE code = 'BR'"
    ) == [("active", "zed@example.org")]
    told = pdf_text(home / "reports" / "g" / "3" / "BR.pdf")  # his report counts his turns only
    assert "Missed turns in a row: 1 of 2. You may miss 1 more" in " ".join(told.split()), told
    ran = gm("turn", "run", "g", "--now", home=home)  # turn 4: his second
    assert ran.code == 0 and "BR (Zed) dropped out after 2 missed turns in a row" in ran.out, ran.out
