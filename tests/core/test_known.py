"""gm.core.known: the listing of what a seat sees, grouped by holder, with its column widths."""

from __future__ import annotations

import pytest

from gm.core.known import NOBODY, Column, Sighting, listing

COLUMNS = (Column("Armies", numeric=True), Column("Next to yours"))


def test_places_are_grouped_by_holder_seats_first_in_seating_order_then_the_others():
    known = listing(
        "Every area you see",
        "Area",
        ("area", "areas"),
        COLUMNS,
        [
            Sighting("NAP", "Benevento", "neutral", (2, "")),
            Sighting("ROM", "Rome", "PA", (4, "TUS"), "capital"),
            Sighting("PAR", "Paris", "FR", (1, None)),
            Sighting("ANC", "Ancona", "PA", (0, "")),
            Sighting("SEA", "", NOBODY, (None, "")),
        ],
        ["FR", "PA", "EN"],
        {"neutral": "Neutral areas", NOBODY: "Nobody's"},
    )
    assert [(g["holder"], g["label"], g["count"]) for g in known["groups"]] == [
        ("FR", "", "1 area"),
        ("PA", "", "2 areas"),
        ("neutral", "Neutral areas", "1 area"),
        (NOBODY, "Nobody's", "1 area"),
    ]
    rome = known["groups"][1]["places"][0]
    assert rome == {
        "code": "ROM",
        "name": "Rome",
        "note": "capital",
        "place": "ROM Rome (capital)",
        "cells": ["4", "TUS"],
    }
    assert known["groups"][0]["places"][0]["cells"] == ["1", "–"], "nothing known prints as a dash"
    assert known["count"] == 5
    assert known["widths"] == [len("ROM Rome (capital)"), len("Armies"), len("Next to yours")]


def test_a_holder_nobody_named_or_a_fact_too_few_is_a_mistake_of_the_ruleset():
    with pytest.raises(ValueError, match="neither seated nor named"):
        listing("t", "Area", ("area", "areas"), COLUMNS, [Sighting("X", "", "ZZ", (1, ""))], ["FR"], {})
    with pytest.raises(ValueError, match="1 facts for 2 columns"):
        listing("t", "Area", ("area", "areas"), COLUMNS, [Sighting("X", "", "FR", (1,))], ["FR"], {})


def test_an_empty_listing_has_no_groups():
    known = listing("t", "Area", ("area", "areas"), COLUMNS, [], ["FR"], {})
    assert known["groups"] == [] and known["count"] == 0 and known["widths"] == [4, 6, 13]
