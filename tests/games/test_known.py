"""Everything the seat sees (issue 15), listed as Eressea and Atlantis reports do: every foreign
place with its holder and what the rules let the seat see of it, in every ruleset's report and
its JSON twin, and nothing the seat may not see."""

from __future__ import annotations

import copy
import json

import pytest

from gm.rulesets import installed
from gm.testing.reports import context_of
from tests.games.test_names import played, seats_of, visible_text

NAMES = sorted(installed())


def rows(known: dict) -> dict[str, tuple[str, dict]]:
    """code -> (holder, place) of every place the listing names."""
    return {p["code"]: (g["holder"], p) for g in known["groups"] for p in g["places"]}


def others_only(listed: dict, owners: dict[str, str], seat: str) -> set[str]:
    """Every place of the others is listed and none of the seat's own; the others' places."""
    theirs = {code for code, owner in owners.items() if owner != seat}
    assert theirs and theirs <= set(listed)
    assert not {code for code, owner in owners.items() if owner == seat} & set(listed)
    return theirs


def first_seat_sees(name: str, turns: int = 10) -> tuple[object, dict, str, dict]:
    """(ruleset, state, seat, listing rows) of the first seat after `turns` robot turns."""
    ruleset = installed()[name]
    _, state, _ = late(name, turns)
    seat = seats_of(name)[0]
    return ruleset, state, seat, rows(ruleset.view(state, seat)["known"])


def late(name: str, turns: int = 10) -> tuple[dict, dict, list]:
    history = played(name, turns)
    return history[-2][0], history[-1][0], history[-1][1]


@pytest.mark.parametrize("name", NAMES)
def test_every_report_lists_every_place_it_sees_and_its_json_twin_holds_the_listing(name):
    from gm.render.environment import make_environment, package_templates_dir, render_report_html

    ruleset = installed()[name]
    before, state, events = late(name)
    seat = seats_of(name)[0]
    context = context_of(ruleset, before, state, events, seat, 10, seats_of(name))
    known = context["view"]["known"]
    assert known["count"] > 0, f"{seat} sees nothing of the others after 10 turns of {name}"
    assert json.loads(json.dumps(context))["view"]["known"] == known, "the JSON twin carries the listing"
    html = render_report_html(make_environment(None, [package_templates_dir(ruleset.templates_package)]), context)
    text = visible_text(html)
    assert known["title"] in text
    for code, (_, place) in rows(known).items():
        assert place["place"] in text and all(cell in text for cell in place["cells"]), code


def test_clash_lists_every_territory_it_does_not_hold_as_the_map_shows_it():
    ruleset = installed()["clash"]
    _, state, _ = late("clash")
    view = ruleset.view(state, "BR")
    listed = rows(view["known"])
    mine = {t["code"] for t in view["you"]["territories"]}
    board = {t["code"]: t for t in view["map"]["territories"]}
    assert set(listed) == set(board) - mine
    for code, (holder, place) in listed.items():
        assert holder == (board[code]["owner"] or "") and place["cells"][0] == str(board[code]["troops"])


def test_conqueror_shows_foreign_provinces_as_a_visitor_sees_them_and_nothing_of_their_production():
    ruleset, state, seat, listed = first_seat_sees("conqueror")
    foreign = [c for c, p in state["provinces"].items() if p["owner"] not in (seat, "neutral")]
    assert set(foreign) <= set(listed) and not {c for c, p in state["provinces"].items() if p["owner"] == seat} & set(
        listed
    )
    code = foreign[0]
    holder, place = listed[code]
    assert place["cells"][1] in ("unproductive", "barely", "somewhat", "moderately", "highly", "extremely")
    assert place["cells"][2] in ("rebellious", "restless", "content", "supportive", "devoted")
    # What its ruler makes, how far it has got, the treasury and the exact influence stay the ruler's.
    other = copy.deepcopy(state)
    province = other["provinces"][code]
    province.update(item="CASTLE", progress=77, target=code)
    other["seats"][holder]["gold"] += 500
    assert ruleset.view(other, seat)["known"] == ruleset.view(state, seat)["known"]


def test_empires_lists_every_land_area_and_no_sea_the_same_for_every_seat():
    ruleset, state, seat, listed = first_seat_sees("empires")
    land = {a["code"] for a in state["scenario"]["areas"] if a["land"]}
    assert set(listed) == land  # the map is open: the seat's own areas are on the board too
    for code, (holder, _) in listed.items():
        assert holder == state["areas"][code]["owner"]
    # Nothing in it depends on the reader, so the report lays it out once a turn.
    assert all(ruleset.view(state, other)["known"] == ruleset.view(state, seat)["known"] for other in state["seating"])
    assert ruleset.view(state, seat)["known"]["everyone"]
    capital = state["countries"][state["seating"][1]]["capital"]
    assert listed[capital][1]["note"] == "capital"


def test_imperials_lists_the_others_pieces_and_a_tile_under_fog_stays_fog():
    ruleset, state, seat, listed = first_seat_sees("imperials", 12)
    theirs = others_only(listed, {v: b["owner"] for v, b in state["buildings"].items()}, seat)
    vertex = sorted(theirs, key=int)[0]
    fogged = copy.deepcopy(state)
    for code in fogged["board"]["tiles"]:
        fogged["board"]["tiles"][code]["fog"] = True
    around = rows(ruleset.view(fogged, seat)["known"])[vertex][1]["cells"][2]
    assert "fog" in around and not any(ch.isdigit() for ch in around), around


def test_minecraft_empires_lists_the_others_cities_and_groups_with_their_ids():
    # 20 rounds: Minecraft EMPIRES 1.1's robots of a 16-empire world buy land and cities first and
    # raise their first troops at round 16 (its Land Game pays 5 E$ in round 1, D-MC-15).
    _, state, seat, listed = first_seat_sees("mcempires", 20)
    cities = others_only(listed, {c: city["owner"] for c, city in state["cities"].items()}, seat)
    groups = {g for g, group in state["groups"].items() if group["owner"] != seat}
    assert set(listed) - cities and set(listed) - cities <= groups, "the rest are the others' groups, by id"
    gid = sorted(set(listed) - cities)[0]
    group = state["groups"][gid]
    assert listed[gid][1]["cells"][:3] == ["group", f"{group['x']},{group['y']}", str(group["troops"])]
