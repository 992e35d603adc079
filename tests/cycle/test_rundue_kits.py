"""A run-due's turn kits are made by its render workers, beside the reports (issue 32): the
`gm` process makes none of them, and each seat's mail carries the kit the `gm` process would have
made of its report's JSON, byte for byte."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson

from gm.home import Home
from gm.render import kit as kit_module
from gm.render.environment import make_environment
from gm.rulesets import installed, template_dirs
from gm.services.house import portal_address
from tests.cycle.test_rundue import clock, duel, eml, mail_home  # noqa: F401 - fixtures


def test_a_run_dues_kits_come_from_its_render_workers(mail_home, gm, clock, duel, monkeypatch):  # noqa: F811
    home = mail_home
    settings = (home / "gm.toml").read_text()
    assert "\nworkers = 0\n" in settings
    (home / "gm.toml").write_text(settings.replace("\nworkers = 0\n", "\nworkers = 2\n", 1))  # a pool, not this process
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "20", home=home).code == 0
    made_here = []
    real = kit_module.kit_html
    monkeypatch.setattr(kit_module, "kit_html", lambda *a, **k: made_here.append(a) or real(*a, **k))
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert "d1: 1 report mail(s) queued" in ran.out and "mail: sent 2" in ran.out, ran.err  # Bob's held
    assert made_here == []  # Ann's kit came from a worker
    ran = gm("credits", "buy", "bob@example.org", "10", "--paid", "20", home=home)  # releases Bob's report
    assert ran.code == 0 and gm("mail", "send", home=home).code == 0
    env = make_environment(None, template_dirs(installed()["clash"]))
    house = "gm@pbm.example.org"
    reports = [m for m in eml(home) if "(turn 1)" in m["Subject"]]
    assert sorted(m["To"] for m in reports) == ["Ann <ann@example.org>", "Bob <bob@example.org>"]
    for mail in reports:
        [kit] = [a for a in mail.iter_attachments() if a.get_content_type() == "text/html"]
        seat = kit.get_filename().removesuffix(".html").rsplit("-", 1)[1]
        report = orjson.loads((home / "reports" / "d1" / "1" / f"{seat}.json").read_bytes())
        alone = real(env, report, house, portal_address(Home(home)))
        assert kit.get_payload(decode=True) == alone.encode("utf-8")


def test_a_new_rendering_leaves_the_kits_its_queued_mails_carry(mail_home, gm, clock, duel):  # noqa: F811
    """Kits are made with the reports of a turn being published, not when a GM renders a turn
    again: a mail queued before (with its kit's SHA-256) still goes out, with the kit it was
    queued with, though the GM restyled the kit meanwhile."""
    home = mail_home
    for player in ("ann", "bob"):
        assert gm("credits", "buy", f"{player}@example.org", "10", "--paid", "20", home=home).code == 0
    assert gm("turn", "run", "--now", "d1", home=home).code == 0  # queued, not sent
    kit = home / "reports" / "d1" / "1" / "BR.html"
    queued = kit.read_bytes()
    from gm.render.environment import shared_templates_dir

    (home / "templates" / "kit.css").write_text(
        (shared_templates_dir() / "kit.css").read_text() + "\nh1 { color: red; }\n"
    )
    assert gm("report", "render", "d1", "--turn", "1", home=home).code == 0
    assert kit.read_bytes() == queued
    ran = gm("mail", "send", home=home)
    assert ran.code == 0 and "Sent 2 mail(s)" in ran.out, ran.out + ran.err
    [ann] = [m for m in eml(home) if m["To"] == "Ann <ann@example.org>"]
    [sent] = [a for a in ann.iter_attachments() if a.get_content_type() == "text/html"]
    assert sent.get_payload(decode=True) == queued
