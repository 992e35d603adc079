"""gm demo: a human can take a seat in the demo game beside the robots and play by turn file."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_game import table_dump


@pytest.mark.slow
def test_a_human_plays_the_conqueror_demo_beside_the_ai(tmp_path, gm):
    home = tmp_path / "demo"
    ran = gm("demo", "--ruleset", "conqueror", "--human", "ann@example.org", "--home", home)
    assert ran.code == 0, ran.err
    seated = next(entry for entry in ran.out.splitlines() if entry.startswith("Seated you (ann@example.org) as "))
    seat, secret = seated.removeprefix("Seated you (ann@example.org) as ").split(", secret ")
    assert "Demo game conqueror-demo stopped after 0 turns: waiting for the first orders" in ran.out
    assert sum(entry.startswith("Seated ") and "(robot)" in entry for entry in ran.out.splitlines()) == 7
    form = tmp_path / "orders.txt"
    assert gm("orders", "template", "conqueror-demo", seat, "-o", form, home=home).code == 0
    form.write_text(form.read_text().replace("<your secret>", secret))
    ran = gm("submit", form, home=home)
    assert ran.code == 0 and f"for {seat} in conqueror-demo, turn 1" in ran.out
    ran = gm("turn", "run", "conqueror-demo", home=home)
    assert ran.code == 0 and seat not in ran.out.split("no orders from ")[1].split(";")[0]
    report = json.loads((home / "reports" / "conqueror-demo" / "1" / f"{seat}.json").read_text())
    assert report["player"] == "ann" and report["seat"] == seat


def test_demo_counts_one_pdf_per_seat_per_turn(tmp_path, gm):
    ran = gm("demo", "--turns", "2", "--home", tmp_path / "d")
    assert ran.code == 0, ran.err
    assert f"Reports (8 PDFs, one per seat per turn): {tmp_path / 'd' / 'reports' / 'clash-demo'}" in ran.out
    assert sorted(p.name for p in (tmp_path / "d" / "reports" / "clash-demo" / "2").glob("*.pdf")) == [
        "BR.pdf",
        "FR.pdf",
        "GE.pdf",
        "RU.pdf",
    ]


def test_the_human_is_told_the_command_for_their_own_seat(tmp_path, gm):
    """Issue 30: after 'Seated you ... as BR' it printed 'gm orders template clash-demo SEAT'."""
    home = tmp_path / "demo"
    ran = gm("demo", "--human", "ann@example.org", "--home", home)
    assert ran.code == 0, ran.err
    assert "Seated you (ann@example.org) as BR, secret " in ran.out
    assert f"Your orders: gm orders template clash-demo BR --home {home} -o orders.txt; " in ran.out


def test_a_real_house_is_refused_and_left_as_it_was(home, gm, game):
    """gm demo --home pointed at a live house added a demo game (and its robots) among the real ones."""
    before = table_dump(home)
    ran = gm("demo", "--human", "ann@example.org", "--home", home)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == (
        f"Error: {home} is a GM home with games that are not demos (g1): gm demo would add a game to it. "
        "Give the demo a folder of its own (gm demo --home gm-demo), or add --force to play it there.\n"
    )
    assert table_dump(home) == before
    ran = gm("demo", "--human", "ann@example.org", "--home", home, "--force")
    assert ran.code == 0 and "Demo game clash-demo stopped after 0 turns" in ran.out


def test_a_home_of_demos_takes_another(tmp_path, gm):
    demos = tmp_path / "demos"
    assert gm("demo", "--human", "ann@example.org", "--home", demos).code == 0
    ran = gm("demo", "--human", "ann@example.org", "--home", demos)
    assert ran.code == 0 and "Demo game clash-demo-2 stopped after 0 turns" in ran.out


def test_a_folder_of_other_files_is_refused(tmp_path, gm):
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "letter.txt").write_text("Dear Ann")
    ran = gm("demo", "--home", folder)
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {folder} is a folder with files in it and no GM home: gm demo would make its folders and gm.toml there."
    )
    assert sorted(p.name for p in folder.iterdir()) == ["letter.txt"]


def test_the_help_says_what_home_it_takes(gm):
    help_text = " ".join(gm("demo", "--help").out.split())
    assert "--home DIR The GM home for the demo" in help_text  # a folder, as every other --home says
    assert (
        "a home of demos. A home with games that are not demos, or a folder of other files, is refused unless --force"
        in help_text
    )
