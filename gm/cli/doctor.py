"""gm doctor: check a GM home and say what to fix."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, JsonOption, echo_json
from gm.cli.shown import echo
from gm.core.words import counted
from gm.home import require_home, resolve_home
from gm.services.doctor import examine
from gm.services.findings import Finding

SHOWN = 20  # problems printed per check; --json gives them all


def doctor(
    mail: Annotated[
        bool, typer.Option("--mail", help="Also connect and log in to the [smtp] and [imap] servers of gm.toml.")
    ] = False,
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Check the home: gm.toml, the folders, the database's integrity, its migrations, every
    archive file it refers to, the report files, the ledger, the seats, the games (no ruleset
    broken, no fault holds), your template overrides and who can read the secrets. One line per check, OK or each problem with what to do; exit 1 on a problem.
    Changes nothing."""
    where = require_home(resolve_home(home))
    findings = []
    for finding in examine(where, mail):
        findings.append(finding)
        if not as_json:
            _show(finding)
    ok = all(f.ok for f in findings)
    if as_json:
        echo_json({"home": str(where.root), "ok": ok, "checks": [f.to_json() for f in findings]})
    elif not ok:
        echo(f"{counted(sum(len(f.problems) for f in findings), 'problem')} in {where.root}.", err=True)
    if not ok:
        raise typer.Exit(1)


def _show(finding: Finding) -> None:
    if finding.ok:
        echo(f"OK       {finding.check}: {finding.summary}")
        return
    for problem in finding.problems[:SHOWN]:
        echo(f"PROBLEM  {finding.check}: {problem.what.rstrip('.')}. {problem.fix}")
    if len(finding.problems) > SHOWN:
        echo(f"PROBLEM  {finding.check}: and {len(finding.problems) - SHOWN} more (gm doctor --json lists them all).")
