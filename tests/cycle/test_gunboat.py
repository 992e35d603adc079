"""Gunboat games (settings gunboat, gunboat-reveal): no report, page or mail of the seats names
another seat's player, nor gives an address, until the end; then the final standings and the
end-of-game reports name them, or not, as the GM set."""

from __future__ import annotations

import json
import subprocess

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.web.conftest import Player

NAMES = {"BR": "Annabel", "RU": "Boris", "FR": "Cyrille", "GE": "Dietlinde"}


def gunboat_game(gm, home, reveal: str = "yes") -> dict[str, str]:
    """gb: a clash game set gunboat (and draws, to end it in one turn) before its seats fill."""
    assert gm("game", "new", "gb", "--ruleset", "clash", "--seed", "7", home=home).code == 0
    assert gm("game", "set", "gb", "gunboat", "yes", home=home).code == 0
    assert gm("game", "set", "gb", "gunboat-reveal", reveal, home=home).code == 0
    assert gm("game", "set", "gb", "draw", "all", home=home).code == 0
    secrets = {}
    for code, name in NAMES.items():
        ran = gm("game", "join", "gb", f"{name.lower()}@example.org", "--name", name, home=home)
        assert ran.code == 0, ran.err
        secrets[code] = next(line for line in ran.out.splitlines() if line.startswith("Secret for ")).split(": ")[1]
    return secrets


def submit(gm, home, tmp_path, secrets, body: str) -> None:
    for code, secret in secrets.items():
        path = tmp_path / f"{code}.txt"
        path.write_text(f"GAME gb\nPLAYER {code}\nPASSWORD {secret}\n{body}\nEND\n")
        assert gm("submit", path, home=home).code == 0


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def others(code: str) -> list[str]:
    return [w for c, name in NAMES.items() if c != code for w in (name, f"{name.lower()}@example.org")]


def test_a_gunboat_game_names_no_player_to_the_others_while_it_runs(gm, home, tmp_path):
    secrets = gunboat_game(gm, home)
    ran = gm("game", "set", "gb", "gunboat", "no", home=home)
    assert ran.code == 1 and "gunboat can be set only before 'gb' starts" in ran.err
    submit(gm, home, tmp_path, secrets, "CLAIM ENG SCO WAL")
    assert gm("credits", "buy", "cyrille@example.org", "1", "--paid", "2.50", home=home).code == 0  # FR's not held
    assert gm("turn", "run", "gb", home=home).code == 0
    folder = home / "reports" / "gb" / "1"
    for code in NAMES:
        report = json.loads((folder / f"{code}.json").read_text())
        text = (folder / f"{code}.json").read_text() + pdf_text(folder / f"{code}.pdf")
        assert [word for word in others(code) if word in text] == []
        assert {row["seat"]: row["name"] for row in report["scores"]} == {c: f"Player {c}" for c in NAMES}
        assert report["player"] == NAMES[code]  # a seat's own report names its own player
    # The portal's page of turn 1 (read from the seat's stored report) names nobody else either.
    player = Player(create_app(Home(home)).test_client())
    assert player.sign_in("FR", secrets["FR"], game="gb").status_code == 200
    page = player.get("/turn/1").text
    assert "Player BR" in page and [word for word in others("FR") if word in page] == []


@pytest.mark.parametrize("reveal", ["yes", "no"])
def test_at_the_end_the_names_are_revealed_or_not_as_the_gm_set(gm, home, tmp_path, reveal):
    secrets = gunboat_game(gm, home, reveal)
    submit(gm, home, tmp_path, secrets, "CLAIM ENG SCO WAL\nDRAW")
    ran = gm("turn", "run", "gb", home=home)
    assert ran.code == 0 and "gb is over" in ran.out
    final = (home / "reports" / "gb" / "final.json").read_text() + pdf_text(home / "reports" / "gb" / "final.pdf")
    endgame = (home / "reports" / "gb" / "endgame" / "BR.json").read_text()
    for name in ("Boris", "Cyrille", "Dietlinde"):
        assert (name in final and name in endgame) == (reveal == "yes")
    # The last turn's own report: the ruleset's tables and events, whose state has held "Player RU"
    # since the start, name the players too once revealed (and still mask them if not).
    last = (home / "reports" / "gb" / "1" / "BR.json").read_text()
    assert ("Player RU" in last) == (reveal == "no") and ("Boris" in last) == (reveal == "yes")
    # Addresses stay out either way: the end-of-game report gives each seat only its own.
    assert "boris@example.org" not in final + endgame


def test_a_standby_taking_a_gunboat_seat_reads_nothing_of_whom_they_follow(gm, home, tmp_path):
    assert gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--seed", "3", home=home).code == 0
    assert gm("game", "set", "g", "gunboat", "yes", home=home).code == 0
    assert gm("game", "join", "g", "annabel@example.org", "--name", "Annabel", "--seat", "BR", home=home).code == 0
    ran = gm("game", "join", "g", "boris@example.org", "--name", "Boris", "--seat", "FR", home=home)
    fr = next(line for line in ran.out.splitlines() if line.startswith("Secret for ")).split(": ")[1]
    assert gm("game", "set", "g", "nmr-limit", "1", home=home).code == 0
    assert gm("game", "standby", "g", "zed@example.org", "--name", "Zed", home=home).code == 0
    form = tmp_path / "fr.txt"
    assert gm("orders", "template", "g", "FR", "-o", form, home=home).code == 0
    form.write_text(form.read_text().replace("<your secret>", fr))
    assert gm("submit", form, home=home).code == 0
    assert gm("turn", "run", "g", "--now", home=home).code == 0  # Annabel sent nothing: Zed takes BR
    report = (home / "reports" / "g" / "1" / "BR.json").read_text()
    assert "From turn 2 this seat is played by Zed." in report and "Annabel" not in report
