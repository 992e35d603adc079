"""The turn kit's check (templates/kit.js) in the real Chromium against the Python check of the
same declaration (gm orders check --report: gm/services/offline.py, gm/core/order_grammar.py):
the same refusal, the same findings, words and line numbers, on every order of every ruleset's
conformance cases and on a corpus of players' mistakes (Minecraft EMPIRES' blocks cut as its
parser cuts them: "12, 40" one word, "12," a block missing a part)."""

from __future__ import annotations

from gm.core.envelope import read_envelope, wrap_envelope
from gm.core.order_grammar import check_lines, from_json
from gm.render.environment import make_environment
from gm.render.kit import kit_html
from gm.rulesets import installed, template_dirs
from gm.services.offline import Report, check_offline
from gm.testing.reports import report_contexts
from tests.games.order_mistakes import MISTAKES, case_lines
from tests.web.chromium import browser_tests

pytestmark = browser_tests


def _files(context: dict, lines: list[str]) -> list[str]:
    """Turn files for the kit and Python alike: the orders in tens, and the envelope's mistakes."""
    game, seat, turn = context["game"]["name"], context["seat"], context["turn"]
    files = [wrap_envelope(game, seat, turn + 1, lines[i : i + 10], "s3cret") for i in range(0, len(lines), 10)]
    files += [
        wrap_envelope(game, seat, turn + 1, ["PASS"]),  # the secret left as the form has it
        wrap_envelope(game, seat, turn + 5, ["PASS"], "s3cret"),  # the wrong turn
        wrap_envelope("other-game", seat, turn + 1, ["PASS"], "s3cret"),
        wrap_envelope(game, "ZZ", turn + 1, ["PASS"], "s3cret"),
        f"GAME {game}\nPLAYER {seat}\nPASSWORD s3cret\nPASS\n",  # no END
        "PLAYER x\nEND\n",  # no GAME
        f"> GAME {game}\nGAME {game}\nPLAYER {seat}\nPASSWORD s3cret\nTURN x\nEND\n",
        f"GAME {game}\nPLAYER {seat}\nPASSWORD two words\nTURN {turn + 1}\nMOVE ENG # a comment\n"
        "PRESS ALL\nMOVE in a press message\nENDPRESS\nPRESS FR: one line\nFROB\nEND\nFROB after the end\n",
        f"GAME {game}\nPLAYER {seat.lower()}\nPASSWORD s3cret\nTURN {turn + 1}\n\tFROB\u00a0X\n1 FROB\nEND\n",
    ]
    return files


def _python(context: dict, text: str) -> dict:
    grammar = from_json(context["order_grammar"]) if context["order_grammar"] else None
    report = Report(
        context["game"]["name"],
        context["game"]["ruleset"],
        context["seat"],
        context["turn"],
        context["view"],
        grammar=grammar,
        declared=True,
    )
    checked = check_offline(report, text.encode("utf-8"))
    declared = check_lines(grammar, read_envelope(text).lines) if grammar and not checked.refusal else []
    # The declaration's findings are the offline check's own on their lines.
    assert all(p in checked.problems for p in declared)
    return {"refusal": checked.refusal, "problems": [[p.line, p.message] for p in declared]}


def test_the_kit_and_python_agree_on_every_case_and_every_mistake(browser):
    page = browser.new_page()
    compared = 0
    for name in sorted(installed()):
        ruleset = installed()[name]
        context = report_contexts(ruleset)[0]
        page.set_content(kit_html(make_environment(None, template_dirs(ruleset)), context, "gm@house.example"))
        texts = _files(context, case_lines(ruleset) + MISTAKES)
        report = {
            "game": context["game"]["name"],
            "seat": context["seat"],
            "turn": context["turn"],
            "grammar": context["order_grammar"],
        }
        in_browser = page.evaluate(
            "([report, texts]) => texts.map(t => { const r = KIT.check(report, t); "
            "return {refusal: r.refusal, problems: r.problems}; })",
            [report, texts],
        )
        for text, kit in zip(texts, in_browser, strict=True):
            assert kit == _python(context, text), f"{name}: {text}"
            compared += 1
        # Every shipped ruleset declares its grammar, and the corpus is refuted there line by line.
        assert context["order_grammar"], name
        assert sum(len(k["problems"]) for k in in_browser) >= len(MISTAKES) // 2
    assert compared > 100
    page.close()
