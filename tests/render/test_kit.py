"""The turn kit (gm/render/kit.py): one self-contained page per seat and turn, from the report's
JSON, that loads nothing and runs nothing but its own script and style."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re

import pytest

from gm.render.environment import make_environment, nations
from gm.render.kit import kit_html, place_details, script_json
from gm.rulesets import installed, template_dirs
from gm.services.turn_kits import kit_name
from gm.testing.reports import report_contexts

HOUSE = "gm@house.example"


def kit_of(context: dict) -> str:
    ruleset = installed()[context["game"]["ruleset"]]
    return kit_html(make_environment(None, template_dirs(ruleset)), context, HOUSE)


def _inline(page: str, tag: str) -> str:
    [text] = re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
    return text


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


@pytest.mark.parametrize("name", sorted(installed()))
def test_every_ruleset_gets_a_kit_that_loads_nothing_from_outside(name):
    context = report_contexts(installed()[name])[0]
    page = kit_of(context)
    [policy] = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    policy = policy.replace("&#39;", "'")
    assert policy.startswith("default-src 'none'; ")
    # The one script and the one style run, by their hashes; nothing else may.
    assert f"script-src '{_hash(_inline(page, 'script'))}'" in policy
    assert f"style-src '{_hash(_inline(page, 'style'))}'" in policy
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)  # no outside asset
    assert "@import" not in page and "url(http" not in page
    data = json.loads(re.search(r'<script type="application/json" id="kit-data">(.*?)</script>', page, re.S)[1])
    assert data["form"] == context["order_form"] and data["house"] == HOUSE
    assert data["report"]["grammar"] == context["order_grammar"]
    assert kit_name(context) == f"{context['game']['name']}-1-{context['seat']}.html"


def test_the_template_is_autoescaped_and_the_data_cannot_close_its_script():
    context = report_contexts(installed()["clash"])[0]
    hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
    context = dict(context, player=hostile, order_form=context["order_form"] + f"\n# {hostile}")
    context["scores"] = [dict(row, nation=hostile) for row in context["scores"]]
    env = make_environment(None, [])
    assert env.autoescape("kit.html")
    page = kit_of(context)
    assert page.count("<script") == 2 and page.count("</script>") == 2  # the data's and the kit's own
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "</" not in script_json({"a": hostile}) and json.loads(script_json({"a": hostile})) == {"a": hostile}


def test_the_maps_are_the_reports_own_drawing_and_every_place_can_be_clicked():
    context = report_contexts(installed()["empires"])[0]
    page = kit_of(context)
    assert page.count('<figure class="kit-map">') == 1 and 'class="map"' in page  # svgmap's own picture
    data = json.loads(re.search(r'id="kit-data">(.*?)</script>', page, re.S)[1])
    codes = {t["code"] for t in context["view"]["map"]["territories"]}
    assert {spot[2] for spot in data["maps"][0]["spots"]} == codes
    assert codes <= set(data["details"])
    mine = next(t for t in context["view"]["map"]["territories"] if t.get("owner") == context["seat"])
    assert f"Armies: {mine['troops']}" in data["details"][mine["code"]]


@pytest.mark.parametrize("name", ["clash", "conqueror", "empires", "imperials", "mcempires"])
def test_a_click_says_each_fact_once_in_the_listings_words(name):
    """A place the listing of what the seat sees names shows its lines, and of the map's own facts
    only those the listing does not give: never "troops: 1" beside "Armies: 1", nor the holder,
    code or name again; a place it does not list (the seat's own) calls its troops as the
    listing's column does."""
    context = report_contexts(installed()[name])[0]
    view = context["view"]
    details = place_details(view, nations(context["scores"]))
    listed = {p["code"]: p for g in view["known"]["groups"] for p in g["places"]}
    labels = [c["label"] for c in view["known"]["columns"]]
    count = next((label for label in labels if label in ("Troops", "Armies")), None)
    assert listed
    for code, place in listed.items():
        lines = details[code]
        assert len(lines) == len(set(lines)), lines
        assert lines[:2] == [lines[0], place["place"]] and lines[0].startswith("Held by "), lines
        raw = [
            line for line in lines if line.split(":")[0] in {"troops", "owner", "code", "name", "seat", "shape", "tag"}
        ]
        assert not raw, (code, lines)
        assert not any(line.endswith(f" at {place['cells'][1]}") for line in lines if name == "mcempires"), lines
        if count:
            assert sum(line.startswith(f"{count}: ") for line in lines) == 1, lines
    for place in view.get("map", {}).get("territories", []):
        if place["code"] not in listed and place.get("troops") is not None:
            assert f"{count}: {place['troops']}" in details[place["code"]]
            assert not any(line.startswith("troops: ") for line in details[place["code"]])


def test_no_secret_is_ever_in_a_kit():
    context = report_contexts(installed()["clash"])[0]
    page = kit_of(context)
    assert 'type="password"' in page and 'autocomplete="off"' in page
    assert "value=" not in re.search(r'<input id="secret"[^>]*>', page)[0]


def test_a_report_written_before_the_grammar_still_gets_its_kit():
    """A JSON report from before order_grammar (the portal serves old turns' kits) has no builder,
    the free text box and the envelope's check."""
    context = report_contexts(installed()["empires"])[0]
    older = {key: value for key, value in context.items() if key != "order_grammar"}
    page = kit_of(older)
    assert 'id="turn-file"' in page and 'id="builder-words"' not in page
    assert "declares no order grammar" in page


def test_a_grid_worlds_marks_can_be_clicked():
    context = report_contexts(installed()["mcempires"])[0]
    page = kit_of(context)
    data = json.loads(re.search(r'id="kit-data">(.*?)</script>', page, re.S)[1])
    marks = {m["label"] for m in context["view"]["world"]["marks"]}
    assert {spot[2] for spot in data["maps"][0]["spots"]} == marks  # the whole world: every mark
    assert marks <= set(data["details"])


def test_a_homes_kits_compile_their_page_once_and_an_edited_template_shows_in_the_next(tmp_path, monkeypatch):
    """Issue 32: write_kit made a new Jinja environment for every seat, so kit.html was compiled
    for every seat, a third of the `gm` process's CPU in a run-due. The environment is kept; a
    GM's template still shows in the next kit, whether added to the override folder or edited."""
    from gm.home import Home, create_home
    from gm.render import environment
    from gm.services.turn_kits import write_kit

    home = Home(tmp_path / "home")
    create_home(home)
    for number, context in enumerate(report_contexts(installed()["clash"])[:2]):
        (home.root / f"{number}.json").write_text(json.dumps(context), encoding="utf-8")
    made = []
    monkeypatch.setattr(environment, "make_environment", lambda *a: made.append(a) or make_environment(*a))
    environment._kept.cache_clear()
    first, second = write_kit(home, "0.json"), write_kit(home, "1.json")
    assert len(made) == 1 and first.sha256 != second.sha256  # two seats' kits, one environment

    shipped = (environment.shared_templates_dir() / "kit.html").read_text(encoding="utf-8")
    home.templates.mkdir(exist_ok=True)
    override = home.templates / "kit.html"
    override.write_text(shipped.replace("</body>", "<!-- house mark one --></body>"), encoding="utf-8")
    assert "house mark one" in (home.root / write_kit(home, "0.json").path).read_text(encoding="utf-8")
    override.write_text(shipped.replace("</body>", "<!-- house mark two --></body>"), encoding="utf-8")
    later = override.stat().st_mtime + 10
    os.utime(override, (later, later))
    page = (home.root / write_kit(home, "0.json").path).read_text(encoding="utf-8")
    assert "house mark two" in page and "house mark one" not in page


def test_what_another_seat_keeps_is_left_out_of_its_row_not_shown_as_none():
    """Empires' reserve is a country's own (D-ALL-5): another's row in the view has it null, and
    the kit's click on that country says nothing of it rather than "reserve: none"."""
    context = report_contexts(installed()["empires"])[0]
    view, me = context["view"], context["seat"]
    rows = {seat["code"]: seat for seat in view["seats"]}
    other = next(code for code, seat in rows.items() if code != me and seat.get("reserve") is None)
    details = place_details(view, {})
    assert any(line.startswith("reserve: ") for line in details[me])
    assert not any(line.startswith("reserve") for line in details[other])
    assert all(not line.endswith(": none") for line in details[other])
