"""Issue 33: the house's GMs. Named accounts (gm gm add/list/remove/password), each action in the
audit log under the name of the GM who did it (gm --as, GM_NAME, else the owner), a GM of some
games refused the others', and a home from before there were names kept working as its owner's."""

from __future__ import annotations

import io
import json
import sys

import pytest

from gm.services.portal_access import check_password, hash_password
from gm.store import database
from gm.store.migrations import all_migrations

PASSWORD = "a long enough password"


def audit(gm, home) -> list[dict]:
    return json.loads(gm("audit", "--json", home=home).out)


def set_password(gm, home, monkeypatch, *args, password=PASSWORD):
    monkeypatch.setattr(sys, "stdin", io.StringIO(password + "\n"))
    return gm(*args, home=home)


@pytest.fixture
def staffed(home, gm, game, monkeypatch):
    """g1 (the game fixture), g2, and two GMs: ann for g2 only, bob for every game."""
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    assert gm("gm", "add", "ann", "--games", "g2", home=home).out == (
        "Added GM ann, for games g2 only. Next: gm gm password ann\n"
    )
    assert gm("gm", "add", "bob", home=home).code == 0
    return home


def test_every_audit_entry_names_the_gm_who_did_it(staffed, gm, monkeypatch):
    home = staffed
    assert gm("--as", "bob", "game", "hold", "g1", home=home).code == 0
    monkeypatch.setenv("GM_NAME", "ann")
    assert gm("game", "hold", "g2", home=home).code == 0
    assert gm("--as", "owner", "game", "release", "g2", home=home).code == 0  # --as before GM_NAME
    monkeypatch.delenv("GM_NAME")
    assert gm("game", "release", "g1", home=home).code == 0  # nobody named: the owner
    last = [(e["game"], e["action"], e["by"]) for e in audit(gm, home)[-4:]]
    assert last == [
        ("g1", "hold", "bob"),
        ("g2", "hold", "ann"),
        ("g2", "release", "owner"),
        ("g1", "release", "owner"),
    ]
    assert {e["by"] for e in audit(gm, home)[:-4]} == {"owner"}  # the game, its seats, the GMs added
    table = gm("audit", "g2", "--last", "2", home=home).out.splitlines()
    assert [line.split()[2:4] for line in table] == [["hold", "ann"], ["release", "owner"]]


def test_a_gm_the_house_does_not_have_is_refused_before_anything(staffed, gm):
    home = staffed
    before = audit(gm, home)
    ran = gm("--as", "zed", "game", "hold", "g1", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: this house has no GM named 'zed' (check --as or GM_NAME). Its GMs: owner, ann, bob.\n",
    )
    assert audit(gm, home) == before
    assert "held" not in gm("game", "show", "g1", home=home).out.split("\n")[0]


def test_a_gm_of_some_games_acts_on_those_only(staffed, gm):
    home = staffed
    before = audit(gm, home)
    ran = gm("--as", "ann", "game", "hold", "g1", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: ann is a GM of some games only, and game 'g1' is not one of them: nothing was done. "
        "Ask the house's owner to do it.\n",
    )
    ran = gm("--as", "ann", "game", "new", "g3", "--ruleset", "clash", home=home)
    assert ran.code == 1 and "game 'g3' is not one of them: nothing was done" in ran.err
    assert "g3" not in gm("game", "list", home=home).out  # the refusal rolled the new game back
    ran = gm("--as", "ann", "credits", "buy", "ann@example.org", "5", "--paid", "10", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: ann is a GM of some games only, and 'gm credits' works on the whole house: nothing was done. "
        "Ask the house's owner, or use the GM pages of the portal.\n",
    )
    assert audit(gm, home) == before
    assert gm("--as", "ann", "game", "hold", "g2", home=home).code == 0
    assert audit(gm, home)[-1] | {"at": ""} == {"at": "", "game": "g2", "action": "hold", "by": "ann", "detail": {}}


def test_gm_list_remove_and_the_name_that_stays(staffed, gm):
    home = staffed
    assert gm("gm", "list", home=home).out.splitlines() == [
        "owner                 owner   every game                      no password yet",
        "ann                   gm      g2                              no password yet",
        "bob                   gm      every game                      no password yet",
    ]
    assert gm("gm", "remove", "bob", home=home).out == (
        "bob is no longer a GM of this house; their sessions on the portal have ended.\n"
    )
    listed = json.loads(gm("gm", "list", "--json", home=home).out)
    assert [(a["name"], a["removed"] is not None) for a in listed] == [("owner", False), ("ann", False), ("bob", True)]
    ran = gm("--as", "bob", "game", "hold", "g1", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: bob is no longer a GM of this house (removed ")
    ran = gm("gm", "add", "BOB", home=home)
    assert ran.code == 1 and "has (or had) a GM named 'BOB'" in ran.err
    assert gm("gm", "remove", "owner", home=home).err == (
        "Error: the owner cannot be removed: the house needs one GM who may do everything.\n"
    )
    assert [e["action"] for e in audit(gm, home)[-1:]] == ["gm remove"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("gm", "add", "1ann"), "Error: '1ann' is not a GM name: a letter, then letters, digits"),
        (("gm", "add", "a" * 33), f"Error: '{'a' * 33}' is not a GM name"),
        (("gm", "add", "eve", "--games", "nope"), "Error: unknown game 'nope'. Games here: g1, g2."),
        (
            ("--as", "bob", "gm", "add", "eve"),
            "Error: only the house's owner may add a GM; you act as bob. Ask the owner.",
        ),
        (("--as", "bob", "gm", "remove", "ann"), "Error: only the house's owner may remove a GM; you act as bob."),
        (("gm", "remove", "zed"), "Error: this house has no GM named 'zed' (check the name)."),
    ],
)
def test_gm_account_mistakes_are_one_line_and_change_nothing(staffed, gm, args, error):
    home = staffed
    before = gm("gm", "list", "--json", home=home).out
    ran = gm(*args, home=home)
    assert ran.code == 1 and ran.err.startswith(error) and ran.err.count("\n") == 1
    assert gm("gm", "list", "--json", home=home).out == before


def test_each_gm_sets_their_own_password_and_the_owner_anyones(staffed, gm, monkeypatch):
    home = staffed
    ran = set_password(gm, home, monkeypatch, "gm", "password", "ann", password="short")
    assert ran.err == "Error: the GM password must be at least 10 characters long.\n"
    assert set_password(gm, home, monkeypatch, "gm", "password", "ann").code == 0
    ran = set_password(gm, home, monkeypatch, "--as", "bob", "gm", "password", "ann")
    assert ran.err == "Error: only the house's owner may set ann's password; you act as bob. Ask the owner.\n"
    assert set_password(gm, home, monkeypatch, "--as", "ann", "portal", "password").out == (
        "GM password set for ann (the database keeps its scrypt hash). Sign in at /gm.\n"
    )
    listed = {a["name"]: a["password"] for a in json.loads(gm("gm", "list", "--json", home=home).out)}
    assert listed == {"owner": False, "ann": True, "bob": False}
    assert [(e["action"], e["by"], e["detail"]) for e in audit(gm, home)[-2:]] == [
        ("gm password", "owner", {"name": "ann"}),
        ("gm password", "ann", {"name": "ann"}),  # a GM of some games may change their own
    ]
    assert PASSWORD not in (home / "gm.toml").read_text() and PASSWORD not in (home / "gm.db").read_bytes().decode(
        "latin-1"
    )


def test_a_home_from_before_names_keeps_its_password_and_log_as_the_owners(tmp_path, gm, monkeypatch):
    home = tmp_path / "old"
    old = [m for m in all_migrations() if m.name < "m020"]
    with monkeypatch.context() as patched:
        patched.setattr(database, "all_migrations", lambda: old)
        assert gm("init", home=home).code == 0
        db = database.open_database(home / "gm.db")
        assert [r[1] for r in db.execute("PRAGMA table_info(audit)")] == ["id", "at", "game_id", "action", "detail"]
        db.execute("""INSERT INTO audit (at, action, detail) VALUES ('2026-01-01T00:00:00Z', 'credits buy', '{}')""")
        db.conn.commit()
        db.conn.close()
    stored = hash_password(PASSWORD)
    settings = home / "gm.toml"
    # As gm portal password wrote it before there were names: the line right under [portal].
    text = settings.read_text().replace("\n[portal]\n", f'\n[portal]\ngm_password_hash = "{stored}"\n', 1)
    settings.write_text(text)
    # The first command after the update: the one password is the owner's, the log the owner's.
    ran = gm("audit", "--json", home=home)
    assert ran.err == "", ran.err
    assert [(e["action"], e["by"]) for e in audit(gm, home)] == [("credits buy", "owner")]
    assert stored not in settings.read_text()
    assert settings.read_text() == text.replace(f'gm_password_hash = "{stored}"\n', "")
    assert gm("gm", "list", home=home).out.startswith(
        "owner                 owner   every game                      password set"
    )
    db = database.open_database(home / "gm.db")
    (owner_hash,) = db.execute("SELECT password_hash FROM staff WHERE name = 'owner'").fetchone()
    assert owner_hash == stored and check_password(PASSWORD, owner_hash)


def test_the_owner_changes_the_games_a_gm_is_limited_to(staffed, gm):
    home = staffed
    assert gm("--as", "ann", "game", "hold", "g1", home=home).code == 1
    assert gm("gm", "games", "ann", "g1,g2", home=home).out == "ann is now a GM of games g1, g2 only.\n"
    assert gm("--as", "ann", "game", "hold", "g1", home=home).code == 0
    assert gm("--as", "ann", "credits", "buy", "ann@example.org", "5", "--paid", "10", home=home).code == 1
    assert gm("gm", "games", "ann", "all", home=home).out == "ann is now a GM of every game.\n"
    assert gm("--as", "ann", "credits", "buy", "ann@example.org", "5", "--paid", "10", home=home).code == 0
    assert [(e["action"], e["by"], e["detail"]) for e in audit(gm, home) if e["action"] == "gm games"] == [
        ("gm games", "owner", {"name": "ann", "games": ["g1", "g2"]}),
        ("gm games", "owner", {"name": "ann", "games": "every game"}),
    ]
    assert gm("gm", "games", "owner", "g1", home=home).err == (
        "Error: the owner is a GM of every game; limit another GM.\n"
    )
    ran = gm("--as", "bob", "gm", "games", "ann", "g2", home=home)
    assert ran.err == "Error: only the house's owner may change a GM's games; you act as bob. Ask the owner.\n"
    ran = gm("gm", "games", "ann", "g2,nope", home=home)
    assert ran.err == "Error: unknown game 'nope'. Games here: g1, g2.\n"
    assert gm("gm", "list", home=home).out.splitlines()[1].split()[:3] == ["ann", "gm", "every"]
