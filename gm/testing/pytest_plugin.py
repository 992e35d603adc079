"""gm's pytest plug-in, for a ruleset's own tests: the contract suite, the case runner and golden
files as fixtures. Installed with gm and registered as the pytest11 entry point `gm.testing`,
as datasette ships its own, so a plug-in's tests need no conftest to have them:

    def test_the_contract(gm_contract):
        gm_contract("hilltop")                       # every check of gm.testing.suite

    def test_my_cases(gm_case):
        assert gm_case("hilltop", Path(__file__).parent / "cases" / "extra.toml") == []

    def test_the_report(gm_golden, gm_report_html):
        gm_golden(Path(__file__).parent / "golden" / "report.html", gm_report_html("hilltop"))

A plug-in's golden files live in the plug-in's own tree; GM_UPDATE_GOLDEN=1 writes them.
`-p no:gm.testing` turns the plug-in off.

pytest loads this module in every run in an environment where gm is installed, so the fixtures
import gm.testing.suite and gm.testing.reports (gm's services and renderer) only when a test asks
for them, to save the start-up time of every other test run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gm.core.cases import load_case_text, run_case
from gm.core.ruleset import Ruleset
from gm.rulesets import get_ruleset

UPDATE = "GM_UPDATE_GOLDEN"  # =1: the golden files are written instead of compared

Named = Ruleset | str  # a ruleset object, or the name of an installed one


def ruleset_of(ruleset: Named) -> Ruleset:
    """An installed ruleset by name (through gm's door), or the object given."""
    return get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def contract(ruleset: Named, battery_games: int = 3) -> None:
    """Run the whole contract suite on the ruleset; fail the test with every check that broke."""
    from gm.testing import suite

    results = suite.run(suite.checks(ruleset_of(ruleset), battery_games))
    broken = [f"{r.check}: {line}" for r in results for line in r.failures]
    if broken:
        pytest.fail(f"{len(broken)} breach(es) of the ruleset contract:\n" + "\n".join(broken), pytrace=False)


def case(ruleset: Named, path: Path) -> list[str]:
    """The failures of one conformance case file (gm.core.cases), [] when it passes."""
    return run_case(load_case_text(Path(path).read_text(encoding="utf-8"), str(path)), ruleset_of(ruleset))


def golden(path: Path, text: str, what: str = "") -> None:
    """Compare `text` with the golden file at `path` (in the plug-in's tree); with
    GM_UPDATE_GOLDEN=1 write it first. A missing golden fails."""
    path = Path(path)
    if os.environ.get(UPDATE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; run with {UPDATE}=1 to create it, then review it", pytrace=False)
    assert text == path.read_text(encoding="utf-8"), (
        f"{path.name} differs from its golden{': ' + what if what else ''} "
        f"(if on purpose, rerun with {UPDATE}=1 and review the diff)"
    )


def report_html(ruleset: Named, seed: int = 3, turns: int = 1, seat: int = 0) -> str:
    """A robot game's report page (gm.testing.reports.report_html) as HTML."""
    from gm.testing import reports

    return reports.report_html(ruleset_of(ruleset), seed, turns, seat)


@pytest.fixture
def gm_contract() -> Callable[..., None]:
    """gm_contract(ruleset, battery_games=3): the contract suite; fails with every breach."""
    return contract


@pytest.fixture
def gm_case() -> Callable[[Named, Path], list[str]]:
    """gm_case(ruleset, path): the failures of a conformance case file, [] when it passes."""
    return case


@pytest.fixture
def gm_golden() -> Callable[..., None]:
    """gm_golden(path, text, what=""): text equals the golden file (GM_UPDATE_GOLDEN=1 writes it)."""
    return golden


@pytest.fixture
def gm_report_html() -> Callable[..., str]:
    """gm_report_html(ruleset, seed=3, turns=1, seat=0): a robot game's report as HTML."""
    return report_html
