"""Press and announcements from the command line: gm submit with press, gm game announce, gm game
press, the press settings; exact messages and exit codes, and a bad message changes nothing."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys

import pytest

from tests.cli.test_game import table_dump
from tests.cli.test_turnfiles import archived, current_orders, turn_file
from tests.intake.mails import rows, set_mail_address


def press_file(secret: str, body: str, seat: str = "BR", game: str = "g1") -> str:
    return f"GAME {game}\nPLAYER {seat}\nPASSWORD {secret}\n{body}\nEND\n"


@pytest.fixture
def mailing(home, game):
    """The game fixture (clash g1: BR Ann, RU Bob, FR Cy, GE Di) with the GM's address set."""
    set_mail_address(home)
    return game


def seated(out: str) -> tuple[str, str]:
    """(seat, secret) from what gm game join printed."""
    line = next(entry for entry in out.splitlines() if entry.startswith("Secret for "))
    code, secret = line.removeprefix("Secret for ").split(": ")
    return code, secret


def outbox(home) -> list[tuple]:
    return rows(home, "SELECT kind, seat, recipient, subject FROM outbox ORDER BY id")


def test_a_file_of_press_only_sends_it_and_leaves_the_orders_alone(home, gm, mailing, tmp_path):
    orders, note = tmp_path / "orders.txt", tmp_path / "press.txt"
    orders.write_text(turn_file(mailing["BR"], "CLAIM ENG"))
    assert gm("submit", orders, home=home).code == 0
    note.write_text(press_file(mailing["BR"], "PRESS TO fr, ru\nShall we share Burgundy?\nENDPRESS"))
    ran = gm("submit", note, home=home)
    assert (ran.code, ran.out, ran.err) == (0, f"{note}:4: press sent to RU, FR\n", "")
    [kept] = current_orders(home, "BR")
    assert kept[0]["text"] == "CLAIM ENG"
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)]
    assert outbox(home) == [
        ("press", "RU", "bob@example.org", "g1: press from BR to RU"),
        ("press", "FR", "cy@example.org", "g1: press from BR to FR"),
    ]
    assert rows(home, "SELECT turn, kind, signed, everyone, recipients, text, channel, archive FROM press") == [
        (
            1,
            "press",
            1,
            0,
            '["RU", "FR"]',
            "Shall we share Burgundy?",
            "file",
            hashlib.sha256(note.read_bytes()).hexdigest(),
        )
    ]


def test_orders_and_press_in_one_file_both_count(home, gm, mailing, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(turn_file(mailing["BR"], "CLAIM ENG\nPRESS TO ALL: Good luck, all of you."))
    ran = gm("submit", path, home=home)
    assert (ran.code, ran.out) == (
        0,
        f"{path}:6: press sent to everyone\n{path}: accepted 1 order for BR in g1, turn 1\n",
    )
    assert [row[1] for row in outbox(home)] == ["RU", "FR", "GE"]


@pytest.mark.parametrize(
    "setting, body, reason",
    [
        (("press", "none"), "PRESS TO FR: hi", "the GM allows no press in 'g1'"),
        (None, "PRESS TO FR, XX: hi", "there is no seat XX in this game; its seats are BR, RU, FR, GE"),
        (None, "PRESS TO BR: hi", "BR is your own seat: press goes to the other seats"),
        (("press-to", "all"), "PRESS TO FR: hi", "press in 'g1' goes to everyone or to nobody: write PRESS TO ALL"),
        (
            ("press-length", "10"),
            "PRESS TO FR: eleven char",
            "the press is 11 characters long and 'g1' takes at most 10: shorten it, or send it in parts",
        ),
        (None, "PRESS TO FR\nhi", "the press on line 4 has no ENDPRESS line: write ENDPRESS after the message"),
        (
            None,
            "PRESS\nhi\nENDPRESS",
            "say whom the press is for: PRESS TO FR,GE (or PRESS TO ALL), the message on "
            "the lines below, then ENDPRESS",
        ),
    ],
)
def test_a_bad_message_is_refused_with_its_reason_and_changes_nothing(
    home, gm, mailing, tmp_path, setting, body, reason
):
    if setting:
        assert gm("game", "set", "g1", *setting, home=home).code == 0
    path = tmp_path / "t.txt"
    path.write_text(press_file(mailing["BR"], body))
    before = table_dump(home)
    ran = gm("submit", path, home=home)
    assert (ran.code, ran.out, ran.err) == (1, "", f"{path}:4: press NOT sent: {reason}\n")
    assert table_dump(home) == before
    assert hashlib.sha256(path.read_bytes()).hexdigest() in archived(home)


def test_a_wrong_secret_sends_no_press(home, gm, mailing, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(press_file("wrong-secret", "PRESS TO FR: I am BR, honestly"))
    before = table_dump(home)
    ran = gm("submit", path, home=home)
    assert (ran.code, ran.out, ran.err) == (1, "", f"{path}: refused: wrong password for player BR of 'g1'\n")
    assert table_dump(home) == before


def test_one_bad_message_never_stops_the_others(home, gm, mailing, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(press_file(mailing["BR"], "PRESS TO XX: lost\nPRESS TO GE\nfound\nENDPRESS"))
    ran = gm("submit", path, home=home)
    assert ran.code == 1 and ran.out == f"{path}:5: press sent to GE\n"
    assert ran.err == f"{path}:4: press NOT sent: there is no seat XX in this game; its seats are BR, RU, FR, GE\n"
    assert rows(home, "SELECT recipients, text FROM press") == [('["GE"]', "found")]


def test_orders_refused_for_their_turn_still_send_their_press(home, gm, mailing, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(turn_file(mailing["BR"], "CLAIM ENG\nPRESS TO FR: still here", turn="TURN 4"))
    ran = gm("submit", path, home=home)
    assert ran.code == 1 and ran.out == f"{path}:6: press sent to FR\n"
    assert ran.err.startswith(f"{path}: refused: these orders are for turn 4")
    assert current_orders(home, "BR") == []


def test_seats_that_left_and_robots_get_press_in_the_report_only(home, gm, mailing, tmp_path):
    assert gm("seat", "drop", "g1", "FR", home=home).code == 0
    path = tmp_path / "t.txt"
    path.write_text(press_file(mailing["BR"], "PRESS TO ALL: To every seat."))
    assert gm("submit", path, home=home).code == 0
    assert rows(home, "SELECT recipients FROM press") == [('["RU", "FR", "GE"]',)]
    assert [row[1] for row in outbox(home) if row[0] == "press"] == ["RU", "GE"]
    dropped = tmp_path / "fr.txt"
    dropped.write_text(press_file(mailing["FR"], "PRESS TO BR: I am back", seat="FR"))
    ran = gm("submit", dropped, home=home)
    assert ran.err == f"{dropped}:4: press NOT sent: seat FR has left 'g1'; only the players in the game send press\n"


def test_a_robot_seat_is_never_mailed(home, gm, tmp_path):
    set_mail_address(home)
    assert gm("game", "new", "r1", "--ruleset", "clash", "--seed", "2", "--robots", "1", home=home).code == 0
    code, secret = seated(gm("game", "join", "r1", "ann@example.org", "--name", "Ann", home=home).out)
    gm("game", "join", "r1", "bob@example.org", "--name", "Bob", home=home)
    path = tmp_path / "t.txt"
    path.write_text(press_file(secret, "PRESS TO ALL: hello", seat=code, game="r1"))
    assert gm("submit", path, home=home).code == 0
    assert rows(home, "SELECT recipients FROM press") == [('["GE", "RU"]',)]
    assert [row[2] for row in outbox(home)] == ["bob@example.org"]


def test_a_finished_game_takes_no_press(home, gm, tmp_path):
    assert gm("game", "new", "m1", "--ruleset", "mcempires", "--seed", "5", "-o", "round-limit=1", home=home).code == 0
    (code, secret), (other, _) = (
        seated(gm("game", "join", "m1", f"{n}@example.org", "--name", n, home=home).out) for n in ("ann", "bob")
    )
    assert gm("turn", "run", "m1", "--now", "--no-render", home=home).out.endswith("m1 is over.\n")
    path = tmp_path / "t.txt"
    path.write_text(press_file(secret, f"PRESS TO {other}: good game", seat=code, game="m1"))
    before = table_dump(home)
    ran = gm("submit", path, home=home)
    assert (ran.code, ran.err) == (1, f"{path}:4: press NOT sent: game 'm1' is over; it takes no more press\n")
    assert table_dump(home) == before
    ran = gm("game", "announce", "m1", "-m", "Thanks for playing", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'm1' is over; there is no next report to put the note in. Write to the players yourself.\n",
    )


@pytest.mark.parametrize(
    "value, message",
    [
        (("press", "shout"), "Error: press takes none or signed or anonymous, not 'shout'.\n"),
        (("press-to", "some"), "Error: press-to takes any or all, not 'some'.\n"),
        (("press-length", "0"), "Error: press-length takes a number of characters from 1 to 10000, not '0'.\n"),
        (("press-per-turn", "0"), "Error: press-per-turn takes a number of messages from 1 to 1000, not '0'.\n"),
    ],
)
def test_press_settings_are_checked(home, gm, game, value, message):
    ran = gm("game", "set", "g1", *value, home=home)
    assert (ran.code, ran.err) == (1, message)


def test_the_settings_list_the_press_rules_with_their_defaults(home, gm, game):
    listed = {s["name"]: s["value"] for s in json.loads(gm("game", "settings", "g1", "--json", home=home).out)}
    assert (listed["press"], listed["press-to"], listed["press-length"], listed["press-per-turn"]) == (
        "signed",
        "any",
        5000,
        50,
    )


def test_a_seat_sends_at_most_press_per_turn_messages_in_a_turn(home, gm, mailing, tmp_path):
    """More than the game's press-per-turn in one turn would flood the others' mail: the rest are
    refused with the reason (and nothing of theirs is stored or mailed) until the turn has run."""
    assert gm("game", "set", "g1", "press-per-turn", "2", home=home).code == 0
    first = tmp_path / "first.txt"
    first.write_text(press_file(mailing["BR"], "PRESS TO FR: one\nPRESS TO RU: two\nPRESS TO GE: three"))
    ran = gm("submit", first, home=home)
    unread = (
        "this turn file holds 3 press messages and gm reads at most 2 of one file (the most a seat sends "
        "in a turn of 'g1'): this one was not read"
    )
    assert (ran.code, ran.out, ran.err) == (
        1,
        f"{first}:4: press sent to FR\n{first}:5: press sent to RU\n",
        f"{first}:6: press NOT sent: {unread}\n",
    )
    # A file within the limit: the seat's count for the turn refuses it.
    more = tmp_path / "more.txt"
    more.write_text(press_file(mailing["BR"], "PRESS TO GE: three"))
    ran = gm("submit", more, home=home)
    refused = (
        "this seat has sent 2 press messages this turn, the most 'g1' takes in one turn; send it after the turn has run"
    )
    assert (ran.code, ran.err) == (1, f"{more}:4: press NOT sent: {refused}\n")
    assert rows(home, "SELECT text FROM press ORDER BY id") == [("one",), ("two",)]
    assert [seat for _, seat, _, _ in outbox(home)] == ["FR", "RU"]
    # Another seat has its own count.
    other = tmp_path / "other.txt"
    other.write_text(press_file(mailing["FR"], "PRESS TO BR: hello", seat="FR"))
    assert gm("submit", other, home=home).code == 0
    # The next turn counts afresh.
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    again = tmp_path / "again.txt"
    again.write_text(press_file(mailing["BR"], "PRESS TO GE: three"))
    ran = gm("submit", again, home=home)
    assert (ran.code, ran.out) == (0, f"{again}:4: press sent to GE\n")


def test_announce_mails_every_player_and_is_written_in_the_audit_log(home, gm, mailing):
    ran = gm("game", "announce", "g1", "-m", "The deadline moves to Saturday.", home=home)
    assert (ran.code, ran.out) == (
        0,
        "Announcement 1 to every seat of g1; it is in each seat's next report.\n"
        "Mailed to BR, RU, FR, GE (gm mail send, or gm run-due, sends it).\n",
    )
    assert [(kind, seat) for kind, seat, _, _ in outbox(home)] == [
        ("announcement", s) for s in ("BR", "RU", "FR", "GE")
    ]
    [entry] = json.loads(gm("audit", "g1", "--last", "1", "--json", home=home).out)
    assert entry["action"] == "announcement"
    assert entry["detail"] == {
        "id": 1,
        "turn": 1,
        "mailed": ["BR", "RU", "FR", "GE"],
        "text": "The deadline moves to Saturday.",
    }


def test_announce_reads_a_file_or_standard_input(home, gm, game, tmp_path, monkeypatch):
    note = tmp_path / "note.txt"
    note.write_bytes("Caf\xe9 at 8\r\n".encode("cp1252"))
    ran = gm("game", "announce", "g1", "--file", note, home=home)
    assert ran.code == 0 and ran.out.endswith("Not mailed to BR, RU, FR, GE (gm.toml has no [mail] address).\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"From standard input\n")))
    assert gm("game", "announce", "g1", home=home).code == 0
    assert rows(home, "SELECT text, channel FROM press ORDER BY id") == [
        ("Café at 8", "gm"),
        ("From standard input", "gm"),
    ]
    assert rows(home, "SELECT count(*) FROM outbox") == [(0,)]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["-m", "a", "--file", "x.txt"], "", "Error: give the note once: with --message or with --file, not both.\n"),
        (
            ["-m", "  \n"],
            "",
            "Error: the announcement has no text. Give it with --message, --file or on standard input.\n",
        ),
        ([], None, "Error: no note given. Write it with --message TEXT, --file FILE or on standard input.\n"),
        (["--file", "missing.txt"], "", "Error: no file missing.txt.\n"),
    ],
)
def test_announce_without_a_usable_note_changes_nothing(home, gm, game, monkeypatch, args, stdin, message):
    monkeypatch.setattr(sys, "stdin", _Terminal() if stdin is None else io.StringIO(stdin))
    before = table_dump(home)
    ran = gm("game", "announce", "g1", *args, home=home)
    assert (ran.code, ran.err) == (1, message)
    assert table_dump(home) == before


def test_the_gm_sees_who_sent_anonymous_press(home, gm, game, tmp_path):
    assert gm("game", "set", "g1", "press", "anonymous", home=home).code == 0
    path = tmp_path / "t.txt"
    path.write_text(press_file(game["RU"], "PRESS TO BR, FR\nBeware of GE.\nMore to come.\nENDPRESS", seat="RU"))
    assert gm("submit", path, home=home).code == 0
    [row] = json.loads(gm("game", "press", "g1", "--json", home=home).out)
    assert (row["from"], row["signed"], row["to"], row["text"]) == (
        "RU",
        False,
        "BR, FR",
        "Beware of GE.\nMore to come.",
    )
    listed = gm("game", "press", "g1", home=home).out
    assert listed.endswith("RU (anonymous) to BR, FR: Beware of GE. …\n")
    assert gm("game", "press", "g1", "--turn", "2", home=home).out == "No press in g1 in turn 2.\n"


def test_press_is_in_the_next_report_of_each_seat_as_that_seat_may_read_it(home, gm, game, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(press_file(game["BR"], "PRESS TO FR: Signed by Britain."))
    assert gm("submit", path, home=home).code == 0
    assert gm("game", "set", "g1", "press", "anonymous", home=home).code == 0
    path.write_text(press_file(game["RU"], "PRESS TO BR, FR\n<b>Not</b> from Russia.\nENDPRESS", seat="RU"))
    assert gm("submit", path, home=home).code == 0
    assert gm("game", "announce", "g1", "-m", "Turn 2 is due on Friday.", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    folder = home / "reports" / "g1" / "1"

    def press_of(seat: str) -> list[tuple]:
        report = json.loads((folder / f"{seat}.json").read_text())
        return [(p["kind"], p["from"], p["to"], p["text"]) for p in report["press"]]

    announcement = ("announcement", "the GM", "everyone", "Turn 2 is due on Friday.")
    assert press_of("FR") == [
        ("press", "BR", "you", "Signed by Britain."),
        ("press", "anonymous", "you and 1 other seat", "<b>Not</b> from Russia."),
        announcement,
    ]
    assert press_of("BR") == [
        ("press", "you", "FR", "Signed by Britain."),
        ("press", "anonymous", "you and 1 other seat", "<b>Not</b> from Russia."),
        announcement,
    ]
    assert press_of("RU") == [("press", "you", "BR, FR", "<b>Not</b> from Russia."), announcement]
    assert press_of("GE") == [announcement]
    report = json.loads((folder / "FR.json").read_text())
    assert "RU" not in json.dumps(report["press"])
    assert (
        report["press_how"] == "PRESS TO BR,RU (or PRESS TO ALL), the message on the lines below, then ENDPRESS "
        "(anonymous)."
    )
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    # Press sent now belongs to turn 2: turn 1's reports render to the same bytes.
    path.write_text(press_file(game["BR"], "PRESS TO GE: Too late for turn 1."))
    assert gm("submit", path, home=home).code == 0
    assert rows(home, "SELECT turn FROM press ORDER BY id") == [(1,), (1,), (1,), (2,)]
    assert gm("report", "render", "g1", "--turn", "1", home=home).code == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert gm("turn", "verify", "g1", home=home).code == 0


def test_the_reports_press_example_names_the_other_players_before_robots_never_the_reader(home, gm, game):
    """Issue 30: the hint named the first two other seats, robots, and never the other player."""
    for seat in ("RU", "FR"):
        assert gm("seat", "resign", "g1", seat, home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    folder = home / "reports" / "g1" / "1"
    how = {seat: json.loads((folder / f"{seat}.json").read_text())["press_how"] for seat in ("BR", "RU", "GE")}
    tail = " (or PRESS TO ALL), the message on the lines below, then ENDPRESS (signed with your seat)."
    assert how == {"BR": "PRESS TO GE" + tail, "RU": "PRESS TO BR,GE" + tail, "GE": "PRESS TO BR" + tail}


def test_with_no_other_player_the_press_example_names_a_robot(home, gm):
    assert gm("game", "new", "r1", "--ruleset", "clash", "--seed", "2", "--robots", "3", home=home).code == 0
    gm("game", "join", "r1", "ann@example.org", "--name", "Ann", home=home)
    assert gm("turn", "run", "r1", "--now", home=home).code == 0
    report = json.loads((home / "reports" / "r1" / "1" / "BR.json").read_text())
    assert report["press_how"].startswith("PRESS TO RU,FR (or PRESS TO ALL)")


def test_orders_check_warns_of_press_written_wrong_without_failing_the_orders(home, gm, game, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(turn_file(game["BR"], "CLAIM ENG\nPRESS TO FR\nno end"))
    ran = gm("orders", "check", path, home=home)  # END ends the message too, and says so
    assert (ran.code, ran.err) == (
        0,
        f"{path}:6: warning: this press would not be sent: the press on line 6 has no "
        "ENDPRESS line: write ENDPRESS after the message\n",
    )
    path.write_text(turn_file(game["BR"], "CLAIM ENG\nPRESS\nhi\nENDPRESS\nPRESS TO FR: fine"))
    ran = gm("orders", "check", path, home=home)
    assert ran.code == 0 and ran.out == f"{path}: OK, 1 order for BR in g1, turn 1\n"
    assert ran.err == (
        f"{path}:6: warning: this press would not be sent: say whom the press is for: PRESS TO FR,GE "
        "(or PRESS TO ALL), the message on the lines below, then ENDPRESS\n"
    )
    assert rows(home, "SELECT count(*) FROM press") == [(0,)]


def pdf_pages(path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(info.split("Pages:")[1].split()[0])


def test_a_flood_of_press_prints_within_the_budget_and_the_report_says_where_the_rest_is(home, gm, mailing, tmp_path):
    """Issue 29: messages of 5,000 one-character lines made every report of the game thousands of
    pages. Each reader's report prints the first message as far as the sender's budget goes
    and none of that sender's others; another sender's press still prints whole."""
    flood = "\n".join("x" * 2_500)
    path = tmp_path / "flood.txt"
    path.write_text(press_file(mailing["BR"], "".join(f"PRESS TO ALL\n{flood}\nENDPRESS\n" for _ in range(3))))
    assert gm("submit", path, home=home).code == 0
    path.write_text(press_file(mailing["FR"], "PRESS TO RU: Shall we share Burgundy?", seat="FR"))
    assert gm("submit", path, home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    folder = home / "reports" / "g1" / "1"
    report = json.loads((folder / "RU.json").read_text())
    first, second = report["press"]
    assert (first["from"], first["cut"]) == ("BR", {"lines": 2_500 - 98, "characters": 4_999 - 195})
    assert first["text"] == "\n".join("x" * 98)
    assert (second["from"], second["text"], second["cut"]) == ("FR", "Shall we share Burgundy?", None)
    assert report["press_left"] == {
        "messages": 2,
        "cut": 1,
        "from": {"BR": 2},
        "mailed": True,
        "portal": "http://127.0.0.1:8000/press/1",
    }
    assert json.loads((folder / "BR.json").read_text())["press_left"]["from"] == {"you": 2}
    for seat in ("BR", "RU", "FR", "GE"):
        assert pdf_pages(folder / f"{seat}.pdf") <= 10  # about 7,500 lines of press unbudgeted: 170 pages
    text = subprocess.run(["pdftotext", str(folder / "RU.pdf"), "-"], check=True, capture_output=True, text=True)
    assert "Not printed here, to keep this report short: 2 more messages from BR" in " ".join(text.stdout.split())


def test_the_gm_withholds_a_message_from_its_readers_and_the_sender_sees_it_withheld(home, gm, mailing, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(press_file(mailing["BR"], "PRESS TO FR, GE\nSomething the GM will not allow.\nENDPRESS"))
    assert gm("submit", path, home=home).code == 0
    [(press_id,)] = rows(home, "SELECT id FROM press")
    ran = gm("game", "press", "g1", "--withhold", press_id, "--reason", "abuse", home=home)
    assert (ran.code, ran.out) == (
        0,
        f"Press message {press_id} of g1 is withheld: its recipients no longer read it, in the reports rendered "
        "from now on or on the portal; BR sees it marked withheld.\n"
        "Its press mail to FR, GE was not sent yet and never is.\n",
    )
    assert rows(home, "SELECT kind, seat, status FROM outbox ORDER BY id") == [
        ("press", "FR", "cancelled"),
        ("press", "GE", "cancelled"),
    ]
    [entry] = json.loads(gm("audit", "g1", "--json", home=home).out)[-1:]
    assert entry["action"] == "press withheld"
    assert entry["detail"] == {"id": press_id, "turn": 1, "from": "BR", "cancelled": ["FR", "GE"], "reason": "abuse"}
    assert "[withheld]: Something the GM will not allow." in gm("game", "press", "g1", home=home).out
    ran = gm("game", "press", "g1", "--withhold", press_id, home=home)
    assert ran.code == 1 and ran.err.startswith(f"Error: press message {press_id} of 'g1' is withheld already")
    ran = gm("game", "press", "g1", "--withhold", "999", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'g1' has no press message 999. 'gm game press g1' lists them with their ids.\n",
    )
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    folder = home / "reports" / "g1" / "1"
    assert json.loads((folder / "FR.json").read_text())["press"] == []
    [mine] = json.loads((folder / "BR.json").read_text())["press"]
    assert (mine["withheld"], mine["text"], mine["to"]) == (True, "", "FR, GE")
    ran = gm("game", "press", "g1", "--release", press_id, home=home)
    assert ran.code == 0 and "Turn 1 has run" in ran.out and "gm report render g1 --turn 1" in ran.out
    assert gm("report", "render", "g1", "--turn", "1", home=home).code == 0
    assert [p["text"] for p in json.loads((folder / "FR.json").read_text())["press"]] == [
        "Something the GM will not allow."
    ]
