"""A seat's turn kit made by the render worker that makes its report's PDF (issue 32: the `gm`
process made every kit itself, a tenth of its CPU in a run-due): the kit is byte for byte the one
the `gm` process makes from the report's JSON, a report mail takes it rather than making it
again, and a kit made with other addresses or of another JSON is not taken."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest

from gm.home import Home
from gm.render import kit as kit_module, pictures
from gm.render.environment import asset_dirs, base_url, make_environment, render_report_html
from gm.render.kit import KitOrder, kit_html
from gm.render.pool import RenderJob, RenderPool, render_outcomes
from gm.rulesets import installed, template_dirs
from gm.services import turn_kits
from gm.services.reports import _json_bytes
from gm.services.turn_kits import made_kits, write_kit

from . import ruleset_report

CREATED = "2026-11-28T19:00:00Z"
HOUSE = "turns@house.example"
PORTAL = "http://127.0.0.1:8000/"


def _jobs(ruleset: str, folder: Path, seats: int = 2) -> list[RenderJob]:
    """Two seats' report jobs of a game robots played 3 turns of, as a run-due makes them: the
    map pictures left to the workers, each with its kit ordered."""
    dirs = template_dirs(installed()[ruleset])
    env = make_environment(None, dirs)
    jobs = []
    for context in ruleset_report.report_contexts(ruleset, turns=3)[:seats]:
        with pictures.deferred() as named:
            html = render_report_html(env, context)
        twin = _json_bytes(context, "turn")
        json_path = folder / f"{context['seat']}.json"
        json_path.write_bytes(twin)
        order = KitOrder(twin, json_path.with_suffix(".html"), None, tuple(dirs), HOUSE, PORTAL)
        pdf = folder / f"{context['seat']}.pdf"
        jobs.append(
            RenderJob(html, base_url(), CREATED, f"t/3/{context['seat']}", pdf, (), (*named.values(),), kit=order)
        )
    return jobs


@pytest.mark.parametrize("ruleset", ["clash", "mcempires"])
def test_a_render_worker_writes_the_kit_the_gm_process_would(ruleset, tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "_given", type(pictures._given)())
    jobs = _jobs(ruleset, tmp_path)
    env = make_environment(None, template_dirs(installed()[ruleset]))
    with RenderPool(2) as pool:
        results = pool.submit(jobs, asset_dirs=asset_dirs(env)).results(timeout=300)
    for job, result in zip(jobs, results, strict=True):
        assert job.kit is not None and result.kit is not None
        written = job.kit.path.read_bytes()
        assert result.kit == hashlib.sha256(written).hexdigest()
        pictures._given.clear()  # the gm process draws its own grid pictures: nothing handed over
        alone = kit_html(env, orjson.loads(job.kit.report), HOUSE, PORTAL).encode("utf-8")
        assert written == alone
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_kit_that_fails_in_the_worker_leaves_the_report_standing(tmp_path):
    """A kit is not the report: should making it fail, the PDF is written all the same and the
    result says no kit, for the `gm` process to make it (and tell the GM what is wrong)."""
    [job] = _jobs("clash", tmp_path, seats=1)
    assert job.kit is not None
    broken = RenderJob(job.html, job.base_url, job.created, job.identifier, job.out_path, kit=_order(job.kit, b"[1]"))
    env = make_environment(None, template_dirs(installed()["clash"]))
    [result] = render_outcomes([broken], 1, asset_dirs=asset_dirs(env))
    assert not isinstance(result, Exception)
    assert result.kit is None and job.out_path.is_file() and not job.kit.path.exists()


def _order(order: KitOrder, report: bytes) -> KitOrder:
    return KitOrder(report, order.path, order.override, order.template_dirs, order.house, order.portal)


@pytest.fixture
def home_with_a_kit(tmp_path, monkeypatch):
    """A home whose gm.toml gives the house's address, one Clash seat's report JSON in it, and
    a kit of it as a render worker made it (kept by made_kits)."""
    monkeypatch.setattr(turn_kits, "_made", type(turn_kits._made)())
    (tmp_path / "gm.toml").write_text(f'[mail]\naddress = "{HOUSE}"\n', "utf-8")
    home = Home(tmp_path)
    folder = tmp_path / "reports" / "c1" / "3"
    folder.mkdir(parents=True)
    [job] = _jobs("clash", folder, seats=1)
    assert job.kit is not None
    portal = turn_kits.portal_address(home)
    order = KitOrder(job.kit.report, job.kit.path, None, job.kit.template_dirs, HOUSE, portal)
    sha = kit_module.make_kit(order)
    json_sha = hashlib.sha256(order.report).hexdigest()
    made_kits([(order, json_sha, sha)])
    return home, order, json_sha, sha


def test_a_report_mail_takes_the_kit_a_worker_made(home_with_a_kit, monkeypatch):
    home, order, json_sha, sha = home_with_a_kit
    json_path = order.path.with_suffix(".json").relative_to(home.root)

    def not_again(*args, **kwargs):
        raise AssertionError("the kit was made again")

    monkeypatch.setattr(kit_module, "kit_html", not_again)
    kit = write_kit(home, json_path, orjson.loads(order.report), json_sha)
    assert kit == turn_kits.Kit(str(json_path.with_suffix(".html")), sha)


@pytest.mark.parametrize("change", ["another JSON", "another address", "the kit gone", "no digest"])
def test_a_kit_made_of_something_else_is_made_again(home_with_a_kit, monkeypatch, change):
    home, order, json_sha, sha = home_with_a_kit
    json_path = order.path.with_suffix(".json").relative_to(home.root)
    report = orjson.loads(order.report)
    digest: str | None = json_sha
    if change == "another JSON":
        digest = "0" * 64
    elif change == "another address":
        (home.root / "gm.toml").write_text('[mail]\naddress = "new@house.example"\n', "utf-8")
    elif change == "the kit gone":
        order.path.unlink()
    else:
        digest = None
    made = []
    real = kit_module.kit_html
    monkeypatch.setattr(kit_module, "kit_html", lambda *a, **k: made.append(a) or real(*a, **k))
    kit = write_kit(home, json_path, report, digest)
    assert len(made) == 1
    assert kit.sha256 == hashlib.sha256(order.path.read_bytes()).hexdigest()
    assert ("new@house.example" in order.path.read_text("utf-8")) == (change == "another address")
