"""The turn kit in the real Chromium: an order built by clicks, the check seen, the turn file
taken for mailing, and not one network request; and its size for an Empires seat at 32 players."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from gm.render.environment import make_environment
from gm.render.kit import kit_html
from gm.rulesets import installed, template_dirs
from gm.testing.reports import report_contexts
from tests.web.chromium import browser_tests, screenshot

pytestmark = browser_tests

KIT_BYTES = 500_000  # an Empires seat's kit at 32 players stays under this (docs/turn-kit.md)


def _kit(name: str, seats: int | None = None) -> tuple[dict, str]:
    ruleset = installed()[name]
    context = report_contexts(ruleset, seats=seats)[0]
    context["order_form"] = (
        f"GAME {context['game']['name']}\nPLAYER {context['seat']}\nPASSWORD <your secret>\n"
        f"TURN {context['turn'] + 1}\n{context['order_form']}\nEND\n"
    )
    return context, kit_html(make_environment(None, template_dirs(ruleset)), context, "gm@house.example")


def test_an_order_built_by_clicks_is_checked_and_mailed_without_a_request(browser, tmp_path):
    context, html = _kit("empires")
    path = tmp_path / "kit.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    seat = context["seat"]
    mine = next(t for t in context["view"]["map"]["territories"] if t.get("owner") == seat)
    # A click on one of the seat's areas, at the zoom it has after a zoom in, says what it holds.
    page.click(".zoom-in")
    where = page.evaluate(
        "([x, y]) => { const m = document.querySelector('.kit-map svg').getScreenCTM();"
        " return [m.a * x + m.e, m.d * y + m.f]; }",
        [mine["x"], mine["y"]],
    )
    page.mouse.click(*where)
    said = page.inner_text("#details")
    assert (
        said.startswith(mine["code"])
        and f"Armies: {mine['troops']}" in said
        and f"{mine['code']} {mine['name']}" in said
    )
    page.fill("#secret", "s3cret")
    page.click("button.word >> text=MOVE")
    assert page.inner_text("#builder-usage") == "MOVE <from> <to> <n|ALL|AB-n>"
    fields = page.locator(".builder-arg")
    fields.nth(0).select_option(mine["code"])
    # Its destinations: the areas beside the chosen start first, as the map links them.
    offered = fields.nth(1).locator("option").all_inner_texts()
    assert offered[1 : 1 + len(mine["neighbours"])] == mine["neighbours"]
    fields.nth(1).select_option(mine["neighbours"][0])
    fields.nth(2).fill("2")
    page.click("#builder-add")
    built = f"MOVE {mine['code']} {mine['neighbours'][0]} 2"
    text = page.input_value("#turn-file")
    assert text.rstrip().endswith(f"{built}\nEND") and "s3cret" not in text
    assert page.inner_text("#orders").count(built) == 1
    assert page.inner_text("#findings") == "" and page.inner_text("#verdict").startswith("No problem")
    # A slip typed into the file is found at once, in gm's words, on its line; removed, it is gone.
    page.fill("#turn-file", text.replace(built, f"FORTIFI {mine['code']}\n{built}"))
    line = text.splitlines().index(built) + 1
    assert page.inner_text("#findings") == (
        f"line {line}: FORTIFI is not an action (did you mean FORTIFY?); the actions are LEVY, ARMY, RESERVE, "
        "GROW, FORTIFY, RAZE, MOVE, ATTACK, DEFEND, ENTRENCH, AMBUSH, RETREAT, GIFT"
    )
    screenshot(page, "kit-empires-check")
    page.click(f"button[aria-label='Remove FORTIFI {mine['code']}']")
    assert page.input_value("#turn-file") == text and page.inner_text("#findings") == ""
    # The mail: to the house, the file in the body with the secret put in only there.
    page.locator("#mail").dispatch_event("click")
    mailto = urlsplit(page.get_attribute("#mail", "href"))
    assert mailto.scheme == "mailto" and mailto.path == "gm@house.example"
    body = parse_qs(mailto.query)["body"][0]
    assert body == text.replace("PASSWORD <your secret>", "PASSWORD s3cret")
    # The page itself and the mail program's mailto: (no network), nothing else.
    assert [r for r in requests if not r.startswith("mailto:")] == [path.as_uri()] and errors == []
    page.close()


def test_an_empires_seat_at_32_players_gets_a_kit_under_500_kb():
    context, html = _kit("empires", seats=32)
    assert len(context["scores"]) == 32
    assert len(html.encode("utf-8")) < KIT_BYTES


def test_a_minecraft_empires_order_is_built_field_by_field_and_its_blocks_read_as_its_parser_reads_them(
    browser, tmp_path
):
    """Minecraft EMPIRES' builder: a field per argument, the empire's groups offered, a block
    typed as x,y; a spaced "12, 40" is one block in the check, "12," a block missing a part."""
    context, html = _kit("mcempires")
    path = tmp_path / "kit.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    group = context["view"]["you"]["groups"][0]
    page.click("button.word >> text=MOVE")
    assert page.inner_text("#builder-usage") == "MOVE <group> [n] <x,y or city> [x,y ...]"
    fields = page.locator(".builder-arg")
    assert fields.count() == 3
    assert fields.nth(0).locator("option").all_inner_texts()[1:] == [g["id"] for g in context["view"]["you"]["groups"]]
    fields.nth(0).select_option(group["id"])
    fields.nth(1).fill("2")
    fields.nth(2).fill("12, 40")
    page.click("#builder-add")
    built = f"MOVE {group['id']} 2 12, 40"
    text = page.input_value("#turn-file")
    assert text.rstrip().endswith(f"{built}\nEND")
    assert page.inner_text("#findings") == "" and page.inner_text("#verdict").startswith("No problem")
    # The count left empty is left out (MOVE takes none there), not written "-".
    city = context["view"]["you"]["cities"][0]["id"]
    page.click("button.word >> text=MOVE")
    fields.nth(0).select_option(group["id"])
    fields.nth(2).fill(city)
    page.click("#builder-add")
    assert page.input_value("#turn-file").rstrip().endswith(f"{built}\nMOVE {group['id']} {city}\nEND")
    assert page.inner_text("#findings") == ""
    page.fill("#turn-file", text.replace(built, f"{built}\nCITY 12,\nCAPITL (3,4)"))
    line = text.splitlines().index(built) + 2
    assert page.inner_text("#findings").splitlines() == [
        f"line {line}: 12, is not a block x,y: write CITY x,y",
        f"line {line + 1}: CAPITL is not an order (did you mean CAPITAL?); the orders are CAPITAL, CITY, LAND, "
        "BASE, TRANSPORT, NAVAL, TREASURY, RAIL, MOVE, TRAIN, ATTACK, DEFEND, DESTROY, DECLARE, PEACE, BORDERS, "
        "ALLY, LEAVE, ACCEPT and PAY",
    ]
    screenshot(page, "kit-mcempires-builder")
    assert errors == []
    page.close()
