"""Names and codes consistent (issue 15), held for every installed ruleset: an event, a table or
a list that names a place or a seat shows the code the map labels it with ("Benevento (NAP)",
"France (FR)"), so the player finds it on the map. gm.core.names.named writes it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from gm.core.model import Event
from gm.core.names import named, possessive
from gm.render.environment import make_environment, package_templates_dir, render_report_html
from gm.rulesets import installed
from gm.testing.reports import context_of
from gm.testing.suite import new_game, robot_orders, scenario_of

NAMES = sorted(installed())
TURNS = 8  # past the set-up of every game (Clash claims, places, then plays)
SEED = 11


def labels(view: dict) -> dict[str, set[str]]:
    """Every name the view gives a seat or a map place, and the codes that bear it (Khazaria is
    a nation and a province). A name that is its code in other letters (Imperials' Red) is left
    out: the legend prints it as it is."""
    found: dict[str, set[str]] = {}
    places = (view.get("map") or {}).get("territories", []) if isinstance(view.get("map"), dict) else []
    pairs = [(s.get("nation"), s["code"]) for s in view["seats"]] + [(t.get("name"), t["code"]) for t in places]
    for name, code in pairs:
        if name and str(name).casefold() != str(code).casefold():
            found.setdefault(str(name), set()).add(str(code))
    return found


def unlabelled(text: str, names: dict[str, set[str]]) -> list[str]:
    """Each name in text that has no code of its own beside it: "Name (CODE)" after it, or the
    code in the next or previous word (a table's code column beside its name column)."""
    if not names:
        return []
    pattern = re.compile(
        r"(?<![\w'])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?![\w])"
    )
    bad = []
    for match in pattern.finditer(text):
        codes = "|".join(re.escape(c) for c in names[match[1]])
        after, before = text[match.end() :], text[: match.start()]
        if not (
            re.match(rf"\s*\(({codes})\b", after)
            or re.match(rf"\s+({codes})\b", after)
            or re.search(rf"\b({codes})\s+$", before)
        ):
            bad.append(f"{match[1]!r} in …{text[max(0, match.start() - 60) : match.end() + 40]}…")
    return bad


class _Text(HTMLParser):
    """The words a reader sees in a report's HTML, cells kept apart by a space; no style, no
    map picture, no order form (its comments name codes as the form's own lines)."""

    SKIP = {"style", "svg", "title", "head"}

    def __init__(self):
        super().__init__()
        self.parts, self.skipping, self.open = [], 0, []

    VOID = {"meta", "br", "img", "link", "hr", "input", "col", "wbr"}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            self.parts.append(" ")
            return
        skip = tag in self.SKIP or (tag == "pre" and ("class", "order-form") in attrs)
        self.open.append(skip)
        self.skipping += skip
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        self.skipping -= self.open.pop() if self.open else 0
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    reader = _Text()
    reader.feed(html)
    return re.sub(r"\s+", " ", "".join(reader.parts))


def played(name: str, turns: int = TURNS) -> list[tuple[dict, list[Event]]]:
    """(state, events) after each of `turns` robot turns of the most seats."""
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1], SEED)
    out = []
    for turn in range(1, turns + 1):
        if ruleset.is_over(state):
            break
        result = ruleset.resolve(state, robot_orders(ruleset, state, codes, SEED, turn), ruleset_seeds(turn))
        state = result.state
        out.append((state, list(result.events)))
    return out


def ruleset_seeds(turn: int):
    from gm.core.ruleset import TurnSeeds

    return TurnSeeds(SEED, turn)


# ----------------------------------------------------------------------------------------------


def test_a_name_is_written_beside_its_code():
    assert named("Benevento", "NAP") == "Benevento (NAP)"
    assert named(None, "G12") == "G12" and named("", "BR1") == "BR1"
    assert named("Red", "RED") == "Red", "a name that is its code in other letters is not said twice"
    assert possessive(named("France", "FR")) == "France (FR)'s"
    assert possessive("the neutrals") == "the neutrals'"


def test_the_check_finds_a_bare_name_and_passes_a_labelled_one():
    names = {"Benevento": {"NAP"}, "Poland": {"PO"}, "Little Poland": {"LPO"}}
    assert unlabelled("Naples takes Benevento (NAP) and Little Poland (LPO) from Poland (PO).", names) == []
    assert unlabelled("NAP Benevento 3 armies", names) == [], "a table's code column beside its name"
    assert len(unlabelled("Poland attacks Benevento.", names)) == 2


@pytest.mark.parametrize("name", NAMES)
def test_every_event_names_places_and_seats_with_their_codes(name):
    ruleset = installed()[name]
    bad, seen = [], 0
    for state, events in played(name):
        view = ruleset.view(state, seats_of(name)[0])
        names = labels(view)
        for event in events:
            seen += 1
            bad += [f"{event.kind}: {b}" for b in unlabelled(event.data["text"], names)]
    assert seen and bad == [], "\n".join(bad[:20])


@pytest.mark.parametrize("name", NAMES)
def test_every_table_and_list_of_a_report_names_them_with_their_codes(name):
    ruleset = installed()[name]
    env = make_environment(None, [package_templates_dir(ruleset.templates_package)])
    history = played(name)
    before, (state, events) = history[-2][0], history[-1]
    for seat in seats_of(name)[:3]:
        context = context_of(ruleset, before, state, events, seat, len(history), seats_of(name))
        text = visible_text(render_report_html(env, context))
        bad = unlabelled(text, labels(context["view"]))
        assert bad == [], f"{seat}'s report:\n" + "\n".join(bad[:20])


def seats_of(name: str) -> list[str]:
    """The seats played() seats: the most the default scenario takes, as the ruleset lists them
    (a ruleset keeps its seating where it likes in its state)."""
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    return ruleset.seat_codes(scenario)[: ruleset.seat_limits(scenario)[1]]
