"""Issue 33: orders a GM types in for a postal or phoned player (gm submit FILE --for GAME SEAT
--reason TEXT): no secret, archived first, checked and stored as any turn file, in the audit log
with the GM's name and the reason, and acknowledged: mailed to the player over real SMTP, or
printed when they have no address. A mistake is one line and stores nothing."""

from __future__ import annotations

import hashlib
import json
from email import message_from_bytes, policy

import pytest

from tests.intake.mails import configure, outbox_bodies, rows, set_mail_address

TYPED = "CLAIM ENG SCO WAL\n"


def audit(gm, home) -> list[dict]:
    return json.loads(gm("audit", "--json", home=home).out)


def submissions(home) -> list[tuple]:
    return rows(
        home,
        "SELECT s.code, sub.channel, sub.verdict, sub.current FROM submissions sub "
        "JOIN seats s ON s.id = sub.seat_id ORDER BY sub.id",
    )


def archived(home, data: bytes) -> bool:
    digest = hashlib.sha256(data).hexdigest()
    return (home / "archive" / digest[:2] / digest).is_file()


@pytest.fixture
def letter(tmp_path):
    """Write what a player's letter said into a file, as the GM types it."""

    def write(text: str, name: str = "br-letter.txt"):
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def test_orders_typed_in_are_stored_audited_and_mailed_to_the_player(home, gm, game, letter, smtp):
    set_mail_address(home)
    configure(home, smtp.settings())
    assert gm("gm", "add", "bob", home=home).code == 0
    path = letter(TYPED)
    ran = gm("--as", "bob", "submit", path, "--for", "g1", "br", "--reason", "letter of 3 May", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.splitlines() == [
        f"{path}: accepted 1 order for BR in g1, turn 1, typed in",
        "The acknowledgement is queued to ann@example.org (mail 1); gm mail send sends it.",
    ]
    assert archived(home, TYPED.encode())  # as typed, before anything read it
    assert submissions(home) == [("BR", "postal", "accepted", 1)]
    entry = audit(gm, home)[-1]
    assert (entry["game"], entry["action"], entry["by"]) == ("g1", "orders typed in", "bob")
    assert entry["detail"] == {
        "file": str(path),
        "reason": "letter of 3 May",
        "seat": "BR",
        "turn": 1,
        "verdict": "accepted",
    }
    assert gm("mail", "send", home=home).out == "Sent 1 mail(s) over SMTP; 0 to try again; 0 failed.\n"
    [delivered] = smtp.handler.delivered
    assert delivered.rcpt_tos == ["ann@example.org"]
    message = message_from_bytes(delivered.content, policy=policy.default)
    assert message["Subject"] == "Your orders for BR in g1, turn 1"
    body = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert body.startswith(
        "Hello Ann,\n\nYour GM (bob) typed in the orders you sent by post or gave by phone; this is what\n"
        "gm made of them. If they are not what you sent, tell your GM before the deadline.\n\n"
        "ACCEPTED: 1 order for BR in g1, turn 1.\n"
    )
    assert "  line 1: CLAIM ENG SCO WAL\n" in body and "1 of 4 seats are in." in body
    assert "letter of 3 May" not in body  # the reason is the GM's, for the log


def test_without_an_address_the_acknowledgement_is_printed_to_post(home, gm, game, letter):
    # No [mail] address in gm.toml: nothing can be mailed, so the GM gets it to post or read out.
    ran = gm("submit", letter(TYPED), "--for", "g1", "BR", "--reason", "phone call", home=home)
    assert ran.code == 0
    # Ann has an address: it is the house that has none to mail from, and the GM is told which.
    assert (
        "Nothing is mailed: gm.toml names no [mail] address to mail it from. Post or read them this "
        "acknowledgement.\n\n"
    ) in ran.out
    assert "Subject: Your orders for BR in g1, turn 1\n\nHello Ann,\n\nYour GM (owner) typed in" in ran.out
    assert outbox_bodies(home) == []
    set_mail_address(home)
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "join", "g2", "zed@post.invalid", "--name", "Zed", home=home).code == 0  # a postal player
    ran = gm(
        "submit", letter("GAME g2\nPLAYER BR\nCLAIM ENG\nEND\n"), "--for", "g2", "BR", "--reason", "post", home=home
    )
    assert "Nothing is mailed: the player has no address to mail (zed@post.invalid). Post" in ran.out
    assert outbox_bodies(home) == []


def test_problems_are_told_at_the_lines_the_gm_typed(home, gm, game, letter):
    set_mail_address(home)
    path = letter("# Ann's letter\nCLAIM ENG\nCLAIM XXX\n")
    ran = gm("submit", path, "--for", "g1", "BR", "--reason", "letter", home=home)
    assert ran.code == 1
    assert ran.err.splitlines() == [
        f"{path}:3: XXX is not a territory on this map",
        f"{path}: stored but NOT used for BR in g1, turn 1: fix the problems above and type them in again",
    ]
    [(kind, to, _, body)] = outbox_bodies(home)
    assert (kind, to) == ("acknowledgement", "ann@example.org")
    assert "NOT USED: your turn file for BR in g1, turn 1, has 1 problem:\n\n  line 3: CLAIM XXX\n" in body
    assert submissions(home) == [("BR", "postal", "rejected", 0)]
    assert audit(gm, home)[-1]["detail"]["verdict"] == "rejected"


def test_a_form_from_gm_orders_template_is_typed_in_as_it_is(home, gm, game, letter):
    form = gm("orders", "template", "g1", "FR", home=home).out.replace("# For example:  CLAIM IRE SCO WAL", "CLAIM PAR")
    path = letter(form, "fr.txt")
    ran = gm("submit", path, "--for", "g1", "FR", "--reason", "phone", home=home)
    line = form.splitlines().index("CLAIM PAR") + 1
    assert ran.code == 0 and f"  line {line}: CLAIM PAR\n" in ran.out
    assert archived(home, form.encode())
    # Without --for, the same form still needs the seat's secret, as ever.
    ran = gm("submit", path, home=home)
    assert ran.code == 1 and "PASSWORD needs your secret" in ran.err


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--for", "g1", "BR"), "Error: orders typed in for a player need both --for GAME SEAT and --reason TEXT.\n"),
        (("--reason", "post"), "Error: orders typed in for a player need both --for GAME SEAT and --reason TEXT.\n"),
        (
            ("--for", "g1", "BR", "--reason", "  "),
            "Error: say why you type in this seat's orders, for the audit log: --reason 'letter of 3 May'.\n",
        ),
        (
            ("--for", "g1", "BR", "--reason", "x" * 501),
            "Error: the reason is 501 characters long; keep it to 500.\n",
        ),
        (("--for", "g9", "BR", "--reason", "post"), "Error: unknown game 'g9'. Games here: g1.\n"),
        (("--for", "g1", "XX", "--reason", "post"), "Error: game 'g1' has no seat 'XX'. Its seats: "),
    ],
)
def test_typing_in_mistakes_are_one_line_and_store_nothing(home, gm, game, letter, args, error):
    before = audit(gm, home)
    ran = gm("submit", letter(TYPED), *args, home=home)
    assert ran.code == 1 and ran.err.startswith(error) and ran.err.count("\n") == 1
    assert submissions(home) == [] and audit(gm, home) == before and outbox_bodies(home) == []


def test_a_file_for_another_seat_or_another_gms_game_is_refused(home, gm, game, letter):
    path = letter("GAME g1\nPLAYER FR\nCLAIM PAR\nEND\n")
    ran = gm("submit", path, "--for", "g1", "BR", "--reason", "post", home=home)
    assert ran.err == (
        f"Error: {path} is for FR in 'g1', not BR in 'g1': nothing was stored. "
        "Check the file's GAME and PLAYER lines, or --for.\n"
    )
    assert archived(home, path.read_bytes())  # archived before it was read, all the same
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    assert gm("gm", "add", "ann", "--games", "g2", home=home).code == 0
    before = audit(gm, home)
    ran = gm("--as", "ann", "submit", letter(TYPED), "--for", "g1", "BR", "--reason", "post", home=home)
    assert ran.err == (
        "Error: ann is a GM of some games only, and game 'g1' is not one of them: nothing was done. "
        "Ask the house's owner to do it.\n"
    )
    assert submissions(home) == [] and audit(gm, home) == before
