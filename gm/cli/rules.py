"""gm rules: list rulesets, run rule-book conformance cases and the whole contract suite.

gm.testing.suite (the contract suite) is imported only by `gm rules test --contract`, to save the
other commands its start-up time (it brings gm's services and the report renderer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from gm import rulesets
from gm.cli.common import JsonOption, echo_json, shown_option
from gm.cli.shown import echo
from gm.core.ruleset import Ruleset
from gm.errors import GMError
from gm.rulesets import RulesetFault, installed
from gm.services import conformance

app = typer.Typer(help="Rulesets and their rule-book conformance cases.", no_args_is_help=True)


@app.command("list")
def list_rulesets(as_json: JsonOption = False) -> None:
    """List installed rulesets, their scenarios and game options, and any that are broken."""
    described, broken = {}, dict(rulesets.found().broken)
    for name, ruleset in sorted(installed().items()):
        try:
            described[name] = _described(ruleset)
        except RulesetFault as fault:  # its scenarios or options cannot be listed: it is broken too
            broken[name] = fault.cause
    if as_json:
        echo_json({"rulesets": list(described.values()), "broken": broken})
        return
    for name, facts in described.items():
        echo(f"{name:<10} {facts['version']:<6} {facts['title']}  scenarios: {', '.join(facts['scenarios'])}")
        for option in facts["options"]:
            values = " | ".join(option["choices"]) if option["choices"] else _kind(option["default"])
            echo(f"  --option {option['name']}={values} (default {shown_option(option['default'])}): {option['help']}")
    for name, why in sorted(broken.items()):
        echo(f"{name:<10} BROKEN  {why}", err=True)


def _described(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "name": ruleset.name,
        "version": ruleset.version,
        "title": ruleset.title,
        "scenarios": ruleset.scenario_names(),
        "default_scenario": ruleset.default_scenario(),
        "options": [
            {"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help}
            for o in ruleset.game_options()
        ],
    }


def _kind(default: object) -> str:
    return "yes|no" if isinstance(default, bool) else "N" if isinstance(default, int) else "TEXT"


@app.command("test")
def test(
    files: Annotated[
        list[Path] | None, typer.Argument(help="Case files (default: every case of every installed ruleset).")
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option(help="The ruleset for FILES (default: the case's own 'ruleset' key, else clash).")
    ] = None,
    contract: Annotated[
        str | None,
        typer.Option(
            "--contract",
            metavar="RULESET",
            help="Run the whole contract suite on this installed ruleset instead: every check gm makes of a "
            "ruleset (games, views, forms, purity, reports, its cases and a few battery games).",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(min=0, max=1000, help="With --contract: robot games of the invariant battery.")
    ] = 3,
) -> None:
    """Run conformance cases; print each failure as FILE: message; exit 1 if any fails.

    With --contract RULESET, run the contract suite on that ruleset: each check's line, each
    failure as RULESET: check: message, and exit 1 if any fails."""
    if contract is not None:
        if files:
            raise typer.BadParameter("give case FILES or --contract RULESET, not both.")
        _contract(contract, games)
        return
    cases = conformance.collect(files or [], ruleset)
    if not cases:
        raise GMError("no conformance cases found.")
    failed = 0
    for case in cases:
        failures = conformance.run(case)
        for failure in failures:
            echo(f"{case.source}: {failure}", err=True)
        failed += bool(failures)
    echo(f"{len(cases) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


def _contract(name: str, games: int) -> None:
    from gm.testing import suite

    ruleset = rulesets.get_ruleset(name)

    def shown(result: suite.Result) -> None:
        verdict = "FAILED" if result.failures else "ok"
        echo(f"{verdict:<6} {result.check.name} ({result.seconds:.1f} s)")
        for failure in result.failures:
            echo(f"{result.check}: {failure}", err=True)

    results = suite.run(suite.checks(ruleset, battery_games=games), shown)
    failed = sum(bool(r.failures) for r in results)
    echo(f"{len(results) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)
