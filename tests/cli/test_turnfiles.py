"""gm orders template/check and gm submit: archive first, last valid wins, refusals change nothing."""

from __future__ import annotations

import codecs
import hashlib
import json
import sqlite3

import pytest

from tests.cli.test_game import table_dump


def turn_file(
    secret: str, body: str = "CLAIM ENG SCO WAL", seat: str = "BR", game: str = "g1", turn: str = "TURN 1"
) -> str:
    return f"GAME {game}\nPLAYER {seat}\nPASSWORD {secret}\n{turn}\n{body}\nEND\n"


def every_seat_votes_draw(gm, home, secrets: dict[str, str], folder) -> None:
    """Allow draws in g1 and submit a DRAW from every seat (for the turn being collected)."""
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    for seat, secret in secrets.items():
        vote = folder / f"{seat}.txt"
        vote.write_text(turn_file(secret, "DRAW", seat=seat, turn=""))
        assert gm("submit", vote, home=home).code == 0


def archived(home) -> set[str]:
    return {p.name for p in (home / "archive").rglob("*") if p.is_file()}


def current_orders(home, seat: str) -> list:
    conn = sqlite3.connect(home / "gm.db")
    rows = conn.execute(
        """SELECT sub.orders FROM submissions sub JOIN seats s ON s.id = sub.seat_id
                           WHERE s.code = ? AND sub.current = 1""",
        [seat],
    ).fetchall()
    return [json.loads(r[0]) for r in rows]


def test_template_is_a_turn_file_that_checks(home, gm, game, tmp_path):
    form = tmp_path / "br.txt"
    assert gm("orders", "template", "g1", "br", "--output", form, home=home).code == 0
    text = form.read_text()
    assert text.startswith("GAME g1\nPLAYER BR\nPASSWORD <your secret>\nTURN 1\n") and text.endswith("END\n")
    form.write_text(text.replace("<your secret>", game["BR"]))
    ran = gm("orders", "check", form, home=home)
    assert ran.code == 0, ran.err
    n = int(ran.out.split("OK, ")[1].split()[0])
    assert ran.out == f"{form}: OK, {n} order{'' if n == 1 else 's'} for BR in g1, turn 1\n"


def test_check_reports_file_line_message(home, gm, game, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(turn_file(game["BR"], "CLAIM ENG\nFROBNICATE 3"))
    ran = gm("orders", "check", bad, home=home)
    assert ran.code == 1
    assert ran.err.startswith(f"{bad}:6: ")


def test_check_gives_warnings_beside_errors_by_line(home, gm, game, tmp_path):
    slip = tmp_path / "slip.txt"
    slip.write_text(turn_file(game["BR"], "CLAIM EGN") + "FINAL\n")
    ran = gm("orders", "check", slip, home=home)
    assert ran.code == 1
    assert ran.err.splitlines()[1:] == [
        f"{slip}:5: warning: EGN is not a code in this game; did you mean ENG or DEN?",
        f"{slip}:7: warning: FINAL after END is ignored, so these orders are not final: put FINAL before END",
    ]
    slip.write_text(turn_file(game["BR"], "CLAIM ENG") + "FINAL\n")
    ran = gm("orders", "check", slip, home=home)
    assert ran.code == 0 and ran.err.endswith(
        "warning: FINAL after END is ignored, so these orders are not final: put FINAL before END\n"
    )


def test_submit_archives_first_and_last_valid_wins(home, gm, game, tmp_path):
    first, second, broken = tmp_path / "1.txt", tmp_path / "2.txt", tmp_path / "3.txt"
    first.write_text(turn_file(game["BR"], "CLAIM ENG"))
    second.write_text(turn_file(game["BR"], "claim sco wal"))
    broken.write_text(turn_file(game["BR"], "CLAIM ENG\nFROBNICATE"))
    ran = gm("submit", first, home=home)
    assert (ran.code, ran.out) == (0, f"{first}: accepted 1 order for BR in g1, turn 1\n")
    ran = gm("submit", second, home=home)
    assert ran.out == f"{second}: accepted 1 order for BR in g1, turn 1 (replaces the earlier submission)\n"
    ran = gm("submit", broken, home=home)
    assert ran.code == 1 and "stored but NOT used for BR in g1, turn 1" in ran.err
    [orders] = current_orders(home, "BR")
    assert orders[0]["text"] == "claim sco wal"
    conn = sqlite3.connect(home / "gm.db")
    assert conn.execute("SELECT verdict, current FROM submissions ORDER BY id").fetchall() == [
        ("accepted", 0),
        ("accepted", 1),
        ("rejected", 0),
    ]
    digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (first, second, broken)}
    assert digests <= archived(home)


@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda s: turn_file(s, game="g9"), "refused: unknown game 'g9' (check the GAME line)"),
        (lambda s: turn_file(s, seat="XX"), "refused: game 'g1' has no player 'XX' (check the PLAYER line)"),
        (lambda s: turn_file("wrong-secret"), "refused: wrong password for player BR of 'g1'"),
        (
            lambda s: turn_file(s, turn="TURN 5"),
            "refused: these orders are for turn 5, which is not being collected yet; 'g1' is collecting turn 1",
        ),
        (lambda s: "Dear GM, I attack!\n", "refused: no turn file found"),
        (lambda s: turn_file(s).replace("END\n", ""), "refused: the turn file has no END line"),
    ],
)
def test_refusals_change_nothing_but_the_archive(home, gm, game, tmp_path, make, reason):
    path = tmp_path / "t.txt"
    path.write_text(make(game["BR"]))
    before = table_dump(home)
    ran = gm("submit", path, home=home)
    assert ran.code == 1 and ran.err.startswith(f"{path}: {reason}")
    assert table_dump(home) == before
    assert hashlib.sha256(path.read_bytes()).hexdigest() in archived(home)


def test_odd_encodings_are_read(home, gm, game, tmp_path):
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes(
        codecs.BOM_UTF16_LE + turn_file(game["RU"], "CLAIM MOS", seat="RU").replace("\n", "\r\n").encode("utf-16-le")
    )
    latin = tmp_path / "latin.txt"
    latin.write_bytes(("Grüße!\n" + turn_file(game["FR"], "claim par  # à moi", seat="FR")).encode("latin-1"))
    lower = tmp_path / "lower.txt"
    lower.write_text(
        turn_file(game["GE"], "claim ber", seat="GE").lower().replace(game["GE"].lower(), game["GE"].upper())
    )
    for path in (utf16, latin, lower):
        ran = gm("submit", path, home=home)
        assert ran.code == 0, ran.err


def test_binary_and_huge_files_are_refused(home, gm, game, tmp_path):
    binary = tmp_path / "orders.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    huge = tmp_path / "huge.txt"
    huge.write_bytes(turn_file(game["BR"]).encode() + b"x" * 10_000_000)
    before = table_dump(home)
    ran = gm("submit", binary, huge, home=home)
    assert ran.code == 1
    assert f"{binary}: refused: the file is not text (it holds binary data); send the orders as plain text" in ran.err
    assert f"{huge}: refused: the file is too large (10.0 MB); a turn file may be at most 1.0 MB" in ran.err
    assert table_dump(home) == before


def test_missing_file_is_a_clear_error(home, gm, tmp_path):
    ran = gm("submit", tmp_path / "nope.txt", home=home)
    assert (ran.code, ran.err) == (1, f"Error: no file {tmp_path / 'nope.txt'}.\n")


def test_orders_for_someone_elses_territory(home, gm, game, tmp_path):
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0  # the claiming draft
    state = json.loads(gm("game", "show", "g1", "--json", home=home).out)["state"]
    # Set-up units go "anywhere on the board" where no other troops stand: not among neutral troops.
    theirs = next(code for code, t in sorted(state["territories"].items()) if t["owner"] == "neutral" and t["troops"])
    path = tmp_path / "place.txt"
    path.write_text(turn_file(game["BR"], f"PLACE {theirs} 5", turn="TURN 2"))
    ran = gm("submit", path, home=home)
    assert ran.code == 1
    assert ran.err.splitlines()[:2] == [  # the whole file's warning (line 0) first, then line 5
        f"{path}: warning: you place 5 of your 20 units; the other 15 are spread one at a time over your "
        "core territories, in code order",
        f"{path}:5: {theirs} is not yours (it is held by neutral troops)",
    ]
    assert current_orders(home, "BR") == []
