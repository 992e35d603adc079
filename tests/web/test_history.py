"""What the seat sent: the seat page shows the newest versions (and the one that counts), /history every one."""

from __future__ import annotations

import io
import re

from tests.web.conftest import Player
from tests.web.test_portal import orders


def history_rows(html: str) -> list[str]:
    """The rows of the "What you sent" table, each as its cells' text run together."""
    section = re.search(r'<section class="card" id="history">(.*?)</section>', html, re.S)[1]
    return [re.sub(r"<[^>]+>|\s+", " ", row).strip() for row in re.findall(r"<tr class=.*?</tr>", section, re.S)]


def send(player: Player, name: str, body: str = "CLAIM ENG", seat: str = "BR", turn: int = 1, expect: int = 200):
    """Submit orders as an upload named `name`, so each version's row can be told apart by its source."""
    text = orders(body, seat).replace("TURN 1\n", f"TURN {turn}\n")
    data = {"turn_file": (io.BytesIO(text.encode()), name), "action": "submit"}
    page = player.post("/orders", data, content_type="multipart/form-data")
    assert page.status_code == expect, page.text
    return page


def test_the_seat_page_shows_the_ten_newest_and_a_link_to_every_version(signed_in):
    for n in range(12):
        send(signed_in, f"v{n}.txt")
    for page in (signed_in.page.text, signed_in.get("/").text):  # after POST /orders, and GET /
        rows = history_rows(page)
        assert len(rows) == 10
        assert [re.search(r"uploaded to the portal\s+(v\d+)\.txt", r)[1] for r in rows] == [
            f"v{n}" for n in range(11, 1, -1)
        ]
        assert "✔ this one" in rows[0] and page.count("✔ this one") == 1
        assert "The latest 10 of 12 versions." in page
        assert '<a href="/history">See every version</a>' in page


def test_the_version_that_counts_stays_visible_when_older_than_the_ten_newest(signed_in):
    send(signed_in, "good.txt", "CLAIM ENG SCO WAL")
    for n in range(11):  # refused versions are stored but do not count: the good one still does
        send(signed_in, f"bad{n}.txt", "CLAIM ENG\nFROBNICATE")
    page = signed_in.get("/").text
    rows = history_rows(page)
    assert len(rows) == 11
    assert all("rejected" in r and "✔" not in r for r in rows[:10])
    assert re.search(r"uploaded to the portal\s+good\.txt", rows[10]) and "✔ this one" in rows[10]
    assert '<tr class="counts">' in page
    assert "The latest 10 of 12 versions." in page and 'href="/history"' in page
    assert 'Your orders for this turn:\n<strong class="ok">in</strong>' in page


def test_history_lists_every_version_of_every_turn(signed_in, gm, home):
    send(signed_in, "t1-bad.txt", "CLAIM ENG\nBOGUS")
    send(signed_in, "t1-good.txt", "CLAIM ENG SCO WAL")
    assert gm("turn", "run", "g1", "--no-render", home=home).code == 0
    for n in range(12):
        send(signed_in, f"t2-{n}.txt", "PLACE ENG 5" if n % 2 else "PLACE ENG 5\nBOGUS", turn=2)
    assert len(history_rows(signed_in.get("/").text)) == 10
    page = signed_in.get("/history")
    assert page.status_code == 200
    rows = history_rows(page.text)
    assert len(rows) == 14
    sources = [re.search(r"uploaded to the portal\s+(\S+)\.txt", r)[1] for r in rows]
    assert sources == [f"t2-{n}" for n in range(11, -1, -1)] + ["t1-good", "t1-bad"]
    counting = [s for s, r in zip(sources, rows) if "✔ this one" in r]
    assert counting == ["t2-11", "t1-good"]  # the newest valid one of turn 2, and what turn 1 used
    assert "See every version" not in page.text and '<a href="/">Back to your seat page</a>' in page.text
    assert "Sign out" in page.text  # the portal's own layout


def test_history_needs_a_signed_in_seat(player):
    assert player.get("/history").status_code == 403


def test_a_seat_sees_only_its_own_versions(app, signed_in, game):
    for n in range(3):
        send(signed_in, f"br-{n}.txt")
    fr = Player(app.test_client())
    fr.sign_in("FR", game["FR"])
    send(fr, "fr-0.txt", "CLAIM PAR", seat="FR")
    for page in (fr.get("/history").text, fr.get("/").text):
        rows = history_rows(page)
        assert len(rows) == 1 and re.search(r"uploaded to the portal\s+fr-0\.txt", rows[0])
        assert "br-" not in page
    assert len(history_rows(signed_in.get("/history").text)) == 3


def test_three_versions_no_count_line(signed_in):
    for n in range(3):
        send(signed_in, f"v{n}.txt")
    page = signed_in.get("/").text
    assert len(history_rows(page)) == 3
    assert "The latest" not in page and "See every version" not in page
    assert len(history_rows(signed_in.get("/history").text)) == 3


def test_history_escapes_what_the_player_sent(signed_in):
    send(signed_in, "<b>mine.txt")
    page = signed_in.get("/history").text
    assert "&lt;b&gt;mine.txt" in page and "<b>mine" not in page


def test_a_file_the_gm_entered_is_named_without_the_gms_path(signed_in, gm, home, game, tmp_path):
    folder = tmp_path / "gm-private-notes"
    folder.mkdir()
    (folder / "ann-br.txt").write_text(orders("CLAIM ENG").replace("<your secret>", game["BR"]))
    assert gm("submit", folder / "ann-br.txt", home=home).code == 0
    [row] = history_rows(signed_in.get("/history").text)
    assert "entered by your GM" in row and re.search(r"\d+ bytes", row)
    assert "gm-private-notes" not in row and "ann-br" not in row


def test_orders_typed_in_for_the_player_say_so_on_their_page(signed_in, gm, home, game, tmp_path):
    """Issue 33: orders the GM typed in from a letter or a call read as such, not as the player's
    own upload, and the GM's file name and reason stay the GM's."""
    path = tmp_path / "gm-private-notes.txt"
    path.write_text("CLAIM ENG\n")
    assert gm("submit", path, "--for", "g1", "BR", "--reason", "phoned, sounded unsure", home=home).code == 0
    [row] = history_rows(signed_in.get("/history").text)
    assert "typed in by your GM" in row
    assert "gm-private-notes" not in row and "unsure" not in row
