"""The template lookup: autoescape everywhere, StrictUndefined, GM override before ruleset before shared."""

from __future__ import annotations

import jinja2
import pytest

from gm.render.environment import (
    asset_dirs,
    make_environment,
    render_report_html,
    shared_templates_dir,
    text_table,
    when,
)

from .sample_game import report_context

TEMPLATE_NAMES = ["report.html", "standings.html", "outcome.html", "report.css", "clash_report.html"]
HOSTILE = "<img src=file:///etc/hostname>"


@pytest.mark.parametrize("name", TEMPLATE_NAMES + ["notes.html.j2", "mail.txt", "map.svg", "x.xml", "y.htm"])
def test_every_template_name_autoescapes(env, name):
    assert env.autoescape(name) is True


def test_every_template_on_disk_autoescapes(env):
    names = [n for n in env.list_templates() if not n.endswith((".py", ".pyc"))]
    assert set(TEMPLATE_NAMES) <= set(names)
    assert all(env.autoescape(name) for name in names)


def test_a_string_template_autoescapes(env):
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"


def test_a_missing_key_raises_instead_of_printing_nothing(env):
    context = report_context()
    del context["player"]
    with pytest.raises(jinja2.UndefinedError, match="player"):
        render_report_html(env, context)


def test_a_missing_key_in_the_ruleset_part_raises(env):
    context = report_context()
    del context["view"]["you"]["money"]
    with pytest.raises(jinja2.UndefinedError, match="money"):
        render_report_html(env, context)


def test_a_hostile_player_name_is_escaped_everywhere(env):
    context = report_context()
    context["player"] = HOSTILE
    context["scores"][0]["name"] = HOSTILE
    context["scores"][0]["nation"] = HOSTILE  # the maps' legend and the region map's key
    context["view"]["seats"][0]["name"] = HOSTILE
    context["events"][0]["data"]["text"] = HOSTILE
    context["order_form"] = "</pre>" + HOSTILE
    html = render_report_html(env, context)
    # The only pictures are the maps (the whole board, and the seat's region where it has one).
    assert html.count("<img") == html.count('<img class="map-picture" src="data:image/png;base64,') >= 1
    assert "<img src=file" not in html
    assert "&lt;img src=file:///etc/hostname&gt;" in html
    assert "&lt;/pre&gt;" in html


def test_lookup_order_is_override_then_ruleset_then_shared(tmp_path, clash_dir):
    override, ruleset = tmp_path / "override", tmp_path / "ruleset"
    override.mkdir()
    ruleset.mkdir()
    (override / "outcome.html").write_text("override")
    (ruleset / "outcome.html").write_text("ruleset")
    (ruleset / "standings.html").write_text("ruleset standings")
    env = make_environment(override, [ruleset, clash_dir])
    assert env.get_template("outcome.html").render() == "override"
    assert env.get_template("standings.html").render() == "ruleset standings"
    assert env.get_template("report.css").filename.startswith(str(shared_templates_dir()))
    assert asset_dirs(env) == [override, ruleset, clash_dir, shared_templates_dir()]


def test_a_gm_can_override_the_ruleset_part(tmp_path, clash_dir):
    (tmp_path / "clash_report.html").write_text("<p>house rules for {{ view.you.nation }}</p>")
    html = render_report_html(make_environment(tmp_path, [clash_dir]), report_context())
    assert "<p>house rules for Britain</p>" in html
    assert "Your territories" not in html


def test_no_override_folder_is_fine(clash_dir):
    assert asset_dirs(make_environment(None, [clash_dir])) == [clash_dir, shared_templates_dir()]


def test_the_asset_folders_of_an_environment_without_folders_are_refused_plainly():
    # The fetcher's folders come from the loader's: one that reads no folders has none to give.
    with pytest.raises(TypeError, match="asset_dirs needs an environment of make_environment"):
        asset_dirs(jinja2.Environment(loader=jinja2.DictLoader({"report.html": "x"})))


def test_when_formats_utc_stamps_and_leaves_other_text():
    assert when("2026-11-21T19:00:00Z") == "2026-11-21 19:00 UTC"
    assert when("next Friday") == "next Friday"


def test_text_table_aligns_columns_and_escapes_every_cell():
    table = text_table(
        ["Code", "Name", "Armies", "Can reach"],
        [["BRN", "Brunswick <script>", 12, "HAM MAG"], ["MAG", "Magdeburg (capital)", 3, "BRN"]],
        ["Armies"],
    )
    assert str(table) == (
        '<pre class="known"><b>Code  Name                 Armies  Can reach</b>\n'
        "BRN   Brunswick &lt;script&gt;       12  HAM MAG\n"
        "MAG   Magdeburg (capital)       3  BRN</pre>"
    )


def test_text_table_is_a_global_of_every_report_environment(env):
    html = env.from_string('{{ text_table(["Code", "Fort"], [["A & B", 1]], ["Fort"]) }}').render()
    assert html == '<pre class="known"><b>Code   Fort</b>\nA &amp; B     1</pre>'


def test_text_table_takes_the_numeric_columns_from_any_iterable():
    table = text_table(
        ["Code", "Armies", "Fort"], [["A", 12, 1], ["B", 3, 10]], (label for label in ["Armies", "Fort"])
    )
    assert str(table).splitlines()[1:] == ["A         12     1", "B          3    10</pre>"]
