"""A player's offline check (gm orders check --report) answers a DRAW or CONCEDE line as the
house's check does, in the same words at the same lines, from the `votes` every turn report
carries; a report written before it had them says once that it cannot know."""

from __future__ import annotations

import json

import pytest

from gm.core.agreement import Ballot, Vote, check_line
from gm.core.model import Problem
from gm.errors import GMError
from gm.services import offline
from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address

# The rules set on the game -> each vote line and what the house says of it (both checks must
# agree; the answers are spelled out too). None: refused whole, the same words from both.
CASES = {
    "votes off": (
        {},
        {
            "DRAW": ["{f}:4: game 'g1' takes no votes for draws: its GM has not allowed them"],
            "CONCEDE RU": ["{f}:4: game 'g1' takes no votes for concessions: its GM has not allowed them"],
            "NO DRAW": [],
        },
    ),
    "draws on": (
        {"draw": "all"},
        {
            "DRAW": [],
            "CONCEDE RU": ["{f}:4: game 'g1' takes no votes for concessions: its GM has not allowed them"],
        },
    ),
    "concessions on": (
        {"concede": "all"},
        {
            "CONCEDE RU": [],
            "concede br": ["{f}:4: CONCEDE names your own seat: concede the game to another seat"],
            "CONCEDE XX": ["{f}:4: CONCEDE: 'g1' has no seat 'XX' (its seats: BR, RU, FR, GE)"],
            "DRAW": ["{f}:4: game 'g1' takes no votes for draws: its GM has not allowed them"],
            "DRAW\nCONCEDE RU": None,
        },
    ),
}


def on_votes(err: str, orders) -> list[str]:
    """What a check said at the vote line (line 4 of every file here) or of the file as a whole."""
    return [line for line in err.splitlines() if line.startswith((f"{orders}:4:", f"{orders}: refused"))]


def player_copy(home, tmp_path):
    copied = tmp_path / "player" / "g1-1-BR.json"
    copied.parent.mkdir(exist_ok=True)
    copied.write_bytes((home / "reports/g1/1/BR.json").read_bytes())
    return copied


@pytest.mark.parametrize("case", CASES)
def test_the_offline_check_gives_the_house_answer_on_a_vote(gm, home, game, tmp_path, case):
    rules, lines = CASES[case]
    for kind, rule in rules.items():
        assert gm("game", "set", "g1", kind, rule, home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    report = player_copy(home, tmp_path)
    orders = tmp_path / "orders.txt"
    for vote, said in lines.items():
        orders.write_text(f"GAME g1\nPLAYER BR\nPASSWORD {game['BR']}\n{vote}\nEND\n")
        house = gm("orders", "check", orders, home=home)
        own = gm("orders", "check", "--report", report, orders)
        # The house warns of what the whole game shows (units left unplaced); the vote lines and
        # refusals are what both must say alike.
        assert (own.code, on_votes(own.err, orders)) == (house.code, on_votes(house.err, orders)), vote
        if said is None:
            assert house.code == 1
            assert "refused: line 5: a turn file holds one vote; line 4 has one already" in house.err
        else:
            assert on_votes(house.err, orders) == [line.format(f=orders) for line in said], vote
            assert house.code == (1 if said else 0)
            assert own.out.startswith(f"{orders}: OK as far as the report can tell") == (not said)


# The game's placing turn, with no PLACE line: the GM's warning of the units left, which the
# report's units settle offline too, before the vote's line.
UNPLACED = (
    "warning: you place 0 of your 20 units; the other 20 are spread one at a time over your core territories, "
    "in code order"
)


def test_the_house_answer_by_mail_is_the_offline_answer(gm, home, game, tmp_path, monkeypatch):
    """The mail intake refuses the vote the offline check refuses, with the same words."""
    set_mail_address(home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    report = player_copy(home, tmp_path)
    orders = tmp_path / "orders.txt"
    orders.write_text(f"GAME g1\nPLAYER BR\nPASSWORD {game['BR']}\nDRAW\nEND\n")
    own = gm("orders", "check", "--report", report, orders)
    assert own.code == 1
    assert (
        own.err
        == f"{orders}: {UNPLACED}\n{orders}:4: game 'g1' takes no votes for draws: its GM has not allowed them\n"
    )
    message = "  line 4: DRAW\n    game 'g1' takes no votes for draws: its GM has not allowed them\n"
    raw = mail(orders.read_text(), sender="ann@example.org", message_id="<offline-vote@example.org>")
    assert receive(gm, monkeypatch, raw, home).code == 0
    answer = outbox_bodies(home)[-1][3]
    assert message in answer


def test_a_report_without_votes_says_it_cannot_know_in_one_line(gm, home, game, tmp_path):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    report = player_copy(home, tmp_path)
    data = json.loads(report.read_text())
    assert data["votes"] == {"draw": "all", "concede": "off", "seats": ["BR", "RU", "FR", "GE"], "out": []}
    del data["votes"]  # as gm wrote reports before they carried the game's votes
    report.write_text(json.dumps(data))
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nDRAW\nEND\n")
    own = gm("orders", "check", "--report", report, orders)
    assert own.code == 0
    assert own.err == (
        f"{orders}: {UNPLACED}\n"
        f"{orders}:4: warning: your report does not say whether game 'g1' takes votes (gm wrote it before "
        "reports did): this vote is checked when gm receives the file\n"
    )
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nEND\n")  # no vote line: nothing to say
    assert gm("orders", "check", "--report", report, orders).err == f"{orders}: {UNPLACED}\n"


NOT_VOTES = [
    ([], 'its "votes" is a list, not an object'),
    ({"draw": 3, "concede": "off", "seats": [], "out": []}, 'its votes\' "draw" is 3, not a name gm gives'),
    ({"draw": "off", "concede": "off", "seats": "BR", "out": []}, "not a list of at most 1,000 seats"),
    ({"draw": "off", "concede": "off", "seats": ["BR"] * 1001, "out": []}, "not a list of at most 1,000 seats"),
    ({"draw": "off", "concede": "off", "seats": ["B R"], "out": []}, "its votes' seats names is 'B R', not a name"),
    ({"draw": "off", "seats": [], "out": []}, 'its votes\' "concede" is missing'),
]


def test_a_report_whose_votes_are_no_votes_is_refused_in_one_line(gm, home, game, tmp_path):
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    report = player_copy(home, tmp_path)
    data = json.loads(report.read_text())
    for votes, why in NOT_VOTES:
        report.write_text(json.dumps({**data, "votes": votes}))
        with pytest.raises(GMError, match="is not a gm JSON report") as raised:
            offline.read_report(report)
        assert why in str(raised.value) and "\n" not in str(raised.value), votes


def test_a_concession_to_a_seat_out_of_the_game_is_a_problem_in_both_checks():
    ballot = Ballot("g1", {"draw": "off", "concede": "all"}, ("BR", "RU", "FR"), ("FR",))
    assert check_line(ballot, "BR", (6, "concede", "FR")) == Problem(
        6, "CONCEDE: FR is out of the game; concede to a seat still playing"
    )
    assert check_line(ballot, "BR", (6, "concede", "RU")) == Vote("concede", "RU")
    assert check_line(ballot, "BR", (6, "none", "")) is None
    # A rule this gm does not know (a later gm's) takes votes: the house decides, never a guess of off.
    assert check_line(Ballot("g1", {"draw": "most"}, ("BR",)), "BR", (2, "draw", "")) == Vote("draw")
