"""The JSON report as a documented, versioned format (issue 30): every report gm writes says its
version and kind and validates against the schemas in docs/report-format/, and so do the views
of robot games of seeds the schemas were not made from; the schemas refute what breaks them."""

from __future__ import annotations

import copy
import hashlib
import json
import os
from pathlib import Path

import pytest

from gm.render import pool
from gm.render.worker import RenderResult
from gm.report_format import SCHEMA_VERSION
from gm.rulesets import get_ruleset
from gm.services import reports as reports_service
from gm.testing.report_schema import problems, view_samples
from tests.conftest import run_gm

FORMAT = Path(__file__).resolve().parents[1] / "docs" / "report-format"
RULESETS = ["clash", "conqueror", "empires", "imperials", "mcempires"]


def _no_pdfs(jobs, workers=1, **options) -> list[RenderResult]:
    """render_outcomes for a demo whose JSON twins are all a test reads: each job's file holds a
    placeholder, not a PDF, and nothing is laid out (gm's PDFs are tested in tests/render and by
    tests/cli/test_demo.py)."""
    results = []
    for job in jobs:
        data = b"%PDF placeholder: tests/test_report_format.py reads only the JSON twins\n"
        job.out_path.parent.mkdir(parents=True, exist_ok=True)
        job.out_path.write_bytes(data)
        results.append(RenderResult(job.out_path, len(data), hashlib.sha256(data).hexdigest(), os.getpid(), 0))
    return results


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    """A home where every ruleset's demo played two turns (seed 7, not the schemas' 101), and a
    two-empire Minecraft EMPIRES demo played to its end (standings and end-of-game reports).

    `gm demo` runs as a user types it, in this process, but its PDFs are not laid out: they took
    most of the fixture's time (about 85 % of a demo's CPU), and the JSON twins, written before
    and apart from them (gm.services.reports.start_render), are the same bytes either way."""
    home = tmp_path_factory.mktemp("format") / "home"
    runs = [[r, "--turns", "2"] for r in RULESETS] + [["mcempires", "--seats", "2"]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pool, "render_outcomes", _no_pdfs)
        for ruleset, *more in runs:
            ran = run_gm("demo", "--ruleset", ruleset, "--seed", "7", *more, home=home)
            assert ran.code == 0, ran.err
    return home / "reports"


@pytest.mark.slow
def test_every_report_gm_writes_is_of_the_format(reports):
    written = sorted(reports.rglob("*.json"))
    kinds = {"turn": 0, "standings": 0, "endgame": 0}
    for path in written:
        report = json.loads(path.read_text(encoding="utf-8"))
        kind = "standings" if path.name == "final.json" else "endgame" if path.parent.name == "endgame" else "turn"
        assert (report["schema_version"], report["report"]) == (SCHEMA_VERSION, kind), path
        assert problems(report, FORMAT) == [], path
        kinds[kind] += 1
    assert kinds["standings"] == 1 and kinds["endgame"] == 2 and kinds["turn"] > 40, kinds
    assert {json.loads(p.read_text())["game"]["ruleset"] for p in written} == set(RULESETS)


@pytest.mark.slow
def test_every_twin_is_written_as_pythons_json_writes_it(reports):
    """orjson writes the twins (issue 32: Python's json with an indent is its slow pure encoder);
    the bytes of every report gm writes are those of json.dumps(indent=2, sort_keys=True)."""
    written = sorted(reports.rglob("*.json"))
    assert len(written) > 40
    for path in written:
        data = path.read_bytes()
        again = json.dumps(json.loads(data), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        assert data == again.encode("utf-8"), path


def test_a_twin_orjson_cannot_write_is_written_by_pythons_json():
    """A key that is not a string and an integer past 64 bits stop orjson; the twin is still
    written, as Python's json writes it, and reads back."""
    context = {"scores": {3: 2**70}, "name": "Pläyer <1>"}
    data = reports_service._json_bytes(context, "turn")
    assert data.endswith(b"\n")
    assert json.loads(data) == {
        "schema_version": SCHEMA_VERSION,
        "report": "turn",
        "scores": {"3": 2**70},
        "name": "Pläyer <1>",
    }
    assert data == (json.dumps(json.loads(data), indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_views_of_other_seeds_validate(ruleset):
    """Robot games of seeds 9000 on (the schemas were made from seeds 1-12), options drawn."""
    checked = 0
    for view in view_samples(get_ruleset(ruleset), games=3, seed=9000, every=2, cap=60):
        report = {"schema_version": 1, "report": "turn", "game": {"ruleset": ruleset}, "view": view}
        assert [p for p in problems(report, FORMAT) if p.startswith("view")] == []
        checked += 1
    assert checked > 10


@pytest.mark.slow
def test_the_schemas_refute_what_breaks_a_report(reports):
    """A client relies on the schema: a field gone, a type changed, a view's field gone, a kind
    unknown, each is named by its path."""
    path = next(p for p in sorted(reports.rglob("*.json")) if "mcempires" in str(p) and p.parent.name == "2")
    report = json.loads(path.read_text(encoding="utf-8"))
    assert problems(report, FORMAT) == []

    def broken(change) -> list[str]:
        copied = copy.deepcopy(report)
        change(copied)
        return problems(copied, FORMAT)

    assert broken(lambda r: r.pop("seat")) == ["(top): 'seat' is a required property"]
    assert broken(lambda r: r.update(turn="2")) == ["turn: '2' is not of type 'integer'"]
    assert broken(lambda r: r.update(schema_version=2)) == ["schema_version: 1 was expected"]
    assert broken(lambda r: r["view"].pop("you")) == ["view: 'you' is a required property"]
    assert broken(lambda r: r["view"]["you"].update(money="12")) == ["view.you.money: '12' is not of type 'integer'"]
    assert broken(lambda r: r.update(report="weekly")) == ["report: 'weekly' is not one of turn, standings, endgame"]
    assert broken(lambda r: r["game"].update(ruleset="chess")) == [
        "game.ruleset: no view schema " + str(FORMAT / "views" / "chess.schema.json")
    ]


def test_every_ruleset_of_gm_has_its_view_schema_documented():
    documented = sorted(p.name.removesuffix(".schema.json") for p in (FORMAT / "views").glob("*.schema.json"))
    assert documented == RULESETS
    guide = (FORMAT.parent / "report-format.md").read_text(encoding="utf-8")
    for name in ["turn", "standings", "endgame", *[f"views/{r}" for r in RULESETS]]:
        assert f"report-format/{name}.schema.json" in guide
        schema = json.loads((FORMAT / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert f"gm report format {SCHEMA_VERSION}" in schema["title"]
