"""A human takes a seat of Imperials by turn file beside robots, through the gm command: the
set-up wish list, a refused file with its line-numbered problems, a good one, then the rest of
the game by NMR robot orders, every turn verified."""

from __future__ import annotations

import json

import pytest
from gm_games.imperials.board import geometry


def secret_of(out: str, seat: str) -> str:
    line = next(entry for entry in out.splitlines() if entry.startswith("Seated you ") and f" as {seat}, " in entry)
    return line.rsplit("secret ", 1)[1].strip()


def form(gm, home, tmp_path, seat: str, secret: str, *extra: str, name: str = "orders") -> str:
    """The prefilled order form for the seat, with its secret and extra orders written in."""
    path = tmp_path / f"{name}.txt"
    assert gm("orders", "template", "imperials-demo", seat, "-o", path, home=home).code == 0
    text = path.read_text().replace("<your secret>", secret)
    text = text.replace("\nEND", "".join(f"\n{line}" for line in extra) + "\nEND")
    path.write_text(text)
    return str(path)


def state_of(gm, home) -> dict:
    return json.loads(gm("game", "show", "imperials-demo", "--json", home=home).out)


@pytest.mark.slow
def test_a_human_seat_plays_by_turn_file_beside_robots(gm, tmp_path):
    home = tmp_path / "home"
    # A round limit of 6 keeps the test short: the game then ends on points after round 6.
    ran = gm(
        "demo",
        "--ruleset",
        "imperials",
        "--human",
        "you@example.org",
        "--seed",
        "5",
        "--option",
        "round-limit=6",
        home=home,
    )
    assert ran.code == 0, ran.err
    secret = secret_of(ran.out, "RED")

    # Turn 1, the set-up: a wish list of corners; the first is free, so RED gets it.
    orders = form(gm, home, tmp_path, "RED", secret, "SETTLE 19 19-24", "SETTLE 44", name="setup")
    ran = gm("submit", orders, home=home)
    assert (ran.code, ran.out.strip()) == (0, f"{orders}: accepted 2 orders for RED in imperials-demo, turn 1")
    ran = gm("turn", "run", "imperials-demo", "--now", "--no-render", home=home)
    assert ran.code == 0, ran.err
    state = state_of(gm, home)["state"]
    assert state["buildings"]["19"]["owner"] == "RED" and state["roads"]["19-24"] == "RED"
    assert state["phase"] == "play" and len(state["buildings"]) == 8

    # Turn 2: a file with mistakes is refused, each with its line; nothing is stored for RED.
    geo = geometry(tuple(tuple(s) for s in state["board"]["slots"]))
    far = next(
        e
        for e, (a, b) in geo.edge_ends.items()
        if not any(
            str(v) in state["buildings"] or any(state["roads"].get(x) for x in geo.vertex_edges[v]) for v in (a, b)
        )
    )
    bad = form(
        gm,
        home,
        tmp_path,
        "RED",
        secret,
        "VILLAGE 24",
        f"ROAD {far}",
        "MARKET wood FOR wood",
        "PLAY WARRIOR",
        name="bad",
    )
    ran = gm("submit", bad, home=home)
    assert ran.code == 1 and f"{bad}: stored but NOT used for RED in imperials-demo, turn 2" in ran.err
    lines = {
        int(entry.split(":")[1]): entry.split(": ", 1)[1]
        for entry in ran.err.splitlines()
        if entry.startswith(bad + ":") and entry.split(":")[1].isdigit()
    }
    text = open(bad).read().splitlines()
    at = {line: number for number, line in enumerate(text, 1)}
    assert lines[at["VILLAGE 24"]] == (
        "vertex 24 is next to your village at vertex 19; a village needs a free vertex all round"
    )
    assert lines[at[f"ROAD {far}"]] == f"edge {far} does not connect to your roads or settlements"
    assert lines[at["MARKET wood FOR wood"]] == "a trade must give one type of card for another, not wood for wood"
    assert lines[at["PLAY WARRIOR"]] == "you hold no Warrior card"
    good = form(
        gm, home, tmp_path, "RED", secret, "ROAD 24-30", "OFFER ALL 1 wood FOR 1 ore", "DISCARD wool", name="good"
    )
    ran = gm("submit", good, home=home)
    assert ran.code == 0, ran.err
    assert gm("turn", "run", "imperials-demo", "--now", home=home).code == 0
    report = json.loads((home / "reports" / "imperials-demo" / "2" / "RED.json").read_text())
    assert report["view"]["ruleset"] == "imperials" and report["view"]["you"]["standing"]["discard"] == ["wool"]
    assert (home / "reports" / "imperials-demo" / "2" / "RED.pdf").read_bytes().startswith(b"%PDF")
    events = [e["data"]["text"] for e in report["events"]]
    assert any(t.startswith("Red builds a road on 24-30") or "ROAD 24-30 fails" in t for t in events)

    # The rest of the game by NMR (robot orders for RED too), then verify every turn.
    while state_of(gm, home)["status"] != "over":
        assert gm("turn", "run", "imperials-demo", "--now", "--no-render", home=home).code == 0
    facts = state_of(gm, home)
    assert facts["outcome"]["winners"] and facts["state"]["round"] == 6
    # Won on points at the limit, or shared when tied there (which of the two is the dice's doing).
    assert "victory points" in facts["outcome"]["reason"] and "the round limit of 6" in facts["outcome"]["reason"]
    ran = gm("turn", "verify", "imperials-demo", home=home)
    assert ran.code == 0 and ran.out.endswith("every state hash matches.\n")


def test_the_demo_seats_four_for_imperials():
    from gm.services.demo import demo_seats

    assert demo_seats("imperials") == 4
