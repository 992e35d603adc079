"""The GM's console: gm --version, help texts that keep [sections], -o - for stdout, --json on the
list commands, gm audit, and gm game show marking seats that changed hands."""

from __future__ import annotations

import json
from importlib.metadata import version


def test_version(gm):
    ran = gm("--version")
    assert (ran.code, ran.out) == (0, f"gm {version('gm')}\n")


def test_help_keeps_the_sections_of_gm_toml(gm):
    assert "([mail] transport)" in gm("mail", "send", "--help").out


def test_an_order_template_to_standard_output(home, gm, game, tmp_path):
    printed = gm("orders", "template", "g1", "BR", "-o", "-", home=home)
    assert printed.code == 0 and printed.out.startswith("GAME g1\nPLAYER BR\n") and not (tmp_path / "-").exists()
    assert gm("orders", "template", "g1", "BR", home=home).out == printed.out


def test_list_commands_print_json(home, gm, game):
    games = json.loads(gm("game", "list", "--json", home=home).out)
    assert games == [{"name": "g1", "ruleset": "clash", "status": "running", "turn": 1, "seats": 4}]  # full: started
    rulesets = json.loads(gm("rules", "list", "--json").out)
    assert {r["name"] for r in rulesets["rulesets"]} >= {"clash", "conqueror", "empires"}
    assert rulesets["broken"] == {}
    settings = json.loads(gm("game", "settings", "g1", "--json", home=home).out)
    assert {"name": "nmr-policy", "value": "robot"} == {
        k: v for k, v in settings[[s["name"] for s in settings].index("nmr-policy")].items() if k != "help"
    }
    assert json.loads(gm("mail", "list", "--json", home=home).out) == []
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "25.00", home=home).code == 0
    account = json.loads(gm("credits", "show", "ann@example.org", "--json", home=home).out)
    assert account["balance"] == 10 and account["entries"][0]["kind"] == "payment"


def test_the_audit_log(home, gm, game):
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    every = json.loads(gm("audit", "--json", home=home).out)
    assert [e["action"] for e in every][:2] == ["game new", "seat join"]
    assert all(e["game"] == "g1" for e in every)
    assert every[-1]["action"] == "turn run" and every[-1]["detail"]["turn"] == 1
    table = gm("audit", "g1", "--last", "1", home=home).out.splitlines()
    assert len(table) == 1 and "g1" in table[0] and "turn run" in table[0]
    assert gm("audit", "nope", home=home).err == "Error: unknown game 'nope'. Games here: g1.\n"


def test_game_show_marks_seats_that_changed_hands(home, gm, game):
    assert gm("game", "set", "g1", "nmr-limit", "1", home=home).code == 0
    assert gm("game", "standby", "g1", "zed@example.org", "--name", "Zed", home=home).code == 0
    assert gm("game", "standby", "g1", "yan@example.org", "--name", "Yan", home=home).code == 0
    shown = gm("game", "show", "g1", home=home).out
    assert "Standbys, first in line first: Zed <zed@example.org>, Yan <yan@example.org>" in shown
    assert gm("turn", "run", "g1", "--now", home=home).code == 0  # nobody sent orders: every seat misses one
    facts = json.loads(gm("game", "show", "g1", "--json", home=home).out)
    taken = [s for s in facts["seats"] if s["since_turn"]]
    assert [(s["name"], s["since_turn"], s["status"]) for s in taken] == [("Zed", 2, "active"), ("Yan", 2, "active")]
    assert sum(s["status"] == "dropped" for s in facts["seats"]) == 2 and facts["standbys"] == []
    text = gm("game", "show", "g1", home=home).out
    assert "(standby since turn 2)" in text and "(dropped)" in text and "Standbys" not in text


def test_the_audit_log_reads_in_words(home, gm, game):
    """Issue 28: the audit log's details were raw JSON; they read as words, --json keeps them."""
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "25.00", home=home).code == 0
    assert gm("game", "set", "g1", "early", "no", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    digest = json.loads(gm("audit", "--json", home=home).out)[-1]["detail"]["state_hash"]
    details = [line[72:] for line in gm("audit", home=home).out.splitlines()[-3:]]
    assert details == [
        "account ann@example.org, credits 10, money 25.00",
        "name early, value no",
        f"state {digest[:12]}, turn 1",
    ]
    assert not any("{" in line or '"' in line for line in gm("audit", home=home).out.splitlines())
