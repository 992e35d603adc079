"""This turn's arrows come only from the events a seat may see, by the events' own facts."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from gm.core.arrows import Arrow, arrows
from gm.core.model import Event


def test_moves_and_attacks_of_every_ruleset_become_arrows():
    events = [
        {"kind": "move", "data": {"seat": "BR", "from": "ENG", "to": "WAL", "troops": 3}},  # clash
        {
            "kind": "battle",
            "data": {
                "attacker": "AS",
                "defender": "neutral",
                "from": "AST",
                "to": "GAL",
                "attacking": 4,
                "captured": False,
            },
        },  # conqueror
        {
            "kind": "battle",
            "data": {"attacker": "AR", "from": "BAR", "to": "BAL", "attacking": 3, "armies": 1, "captured": True},
        },  # empires: armies are the defenders'
        {
            "kind": "move",
            "data": {"seat": "BL", "group": "BL2", "troops": 2, "path": ["3,4", "4,4", "5,5"]},
        },  # mcempires
    ]
    assert arrows(events) == [
        Arrow("move", "BR", ("ENG", "WAL"), 3),
        Arrow("attack", "AS", ("AST", "GAL"), 4, taken=False),
        Arrow("attack", "AR", ("BAR", "BAL"), 3, taken=True),
        Arrow("move", "BL", ("3,4", "4,4", "5,5"), 2),
    ]


def test_an_attack_arrow_counts_the_attacking_side_not_the_defenders_armies():
    # Empires' battle event holds the defending armies as `armies` beside the attack's
    # `attacking`: "attacks Cotentin (COT) from London (LON) with 3 armies" against 1 army there
    # drew an arrow marked 1.
    battle = {"attacker": "EN", "defender": "neutral", "from": "LON", "to": "COT", "attacking": 3, "armies": 1}
    move = {"seat": "EN", "from": "LON", "to": "KNT", "armies": 2, "attacking": 7}
    assert [a.count for a in arrows([{"kind": "battle", "data": battle}, {"kind": "move", "data": move}])] == [3, 2]


def test_other_events_give_no_arrow():
    events = [
        {"kind": "roll", "data": {"die": 5, "text": "The die shows 5."}},
        {"kind": "rail", "data": {"ends": ["BL1", "BL2"], "pieces": 4}},
        {"kind": "offer", "data": {"from": "RED", "to": "ALL"}},  # not a move: no kind move, no attacker
        {"kind": "move", "data": {"seat": "BR", "from": "ENG", "to": "ENG"}},  # nowhere
        {"kind": "move", "data": {"seat": "BR", "path": ["ENG"]}},
    ]
    assert arrows(events) == []


def test_a_report_gets_only_the_arrows_of_events_its_seat_may_see():
    hidden = Event("move", {"seat": "IT", "from": "ROM", "to": "TUS", "armies": 2}, ("IT",))
    public = Event("battle", {"attacker": "BY", "from": "CON", "to": "ANA", "attacking": 5}, None)
    seen_by = {seat: arrows(e.to_json() for e in (hidden, public) if e.visible_to(seat)) for seat in ("IT", "AS")}
    assert [a.path for a in seen_by["IT"]] == [("ROM", "TUS"), ("CON", "ANA")]
    assert [a.path for a in seen_by["AS"]] == [("CON", "ANA")]


def test_an_arrow_is_plain_json():
    assert Arrow("attack", "AR", ("BAR", "BAL"), 1, True).to_json() == {
        "kind": "attack",
        "seat": "AR",
        "path": ["BAR", "BAL"],
        "count": 1,
        "taken": True,
    }


facts = st.dictionaries(
    st.sampled_from(["from", "to", "path", "seat", "attacker", "armies", "troops", "captured"]),
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=4),
        st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=4),
    ),
)


@settings(deadline=None)  # a shared machine's load is no failure
@given(st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["move", "battle", "combat", "roll"]), "data": facts})))
def test_whatever_an_event_holds_arrows_never_raises_and_every_arrow_has_two_places(events):
    for arrow in arrows(events):
        assert arrow.kind in ("move", "attack") and len(arrow.path) >= 2
        assert all(isinstance(place, str) for place in arrow.path)
