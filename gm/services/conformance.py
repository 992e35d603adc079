"""Rule-book conformance cases: finding the case files and running them through gm.core.cases."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from gm.core.cases import load_case_text, run_case
from gm.core.ruleset import Ruleset
from gm.errors import GMError
from gm.rulesets import case_files, get_ruleset, installed


@dataclass(frozen=True)
class CaseFile:
    """One case file: where it came from, its text, and the ruleset it is for."""

    source: str
    text: str
    ruleset: Ruleset


def packaged_cases(ruleset: Ruleset) -> list[CaseFile]:
    """The cases a ruleset ships in its cases_package."""
    return [
        CaseFile(f"{ruleset.name}/cases/{f.name}", f.read_text(encoding="utf-8"), ruleset) for f in case_files(ruleset)
    ]


def collect(files: list[Path], ruleset_name: str | None) -> list[CaseFile]:
    if not files:
        names = [ruleset_name] if ruleset_name else sorted(installed())
        return [case for name in names for case in packaged_cases(get_ruleset(name))]
    cases = []
    for path in files:
        paths = sorted(path.glob("*.toml")) if path.is_dir() else [path]
        for one in paths:
            try:
                text = one.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise GMError(f"cannot read case file {one}: {exc}.") from exc
            cases.append(CaseFile(str(one), text, get_ruleset(ruleset_name or _declared(text) or "clash")))
    return cases


def _declared(text: str) -> str | None:
    """The case's own 'ruleset' key, if the text parses; run() reports a text that does not."""
    try:
        value = tomllib.loads(text).get("ruleset")
    except tomllib.TOMLDecodeError:
        return None
    return value if isinstance(value, str) else None


def run(case: CaseFile) -> list[str]:
    """The failures of one case; a case file that does not parse is one failure, not a crash."""
    try:
        parsed = load_case_text(case.text, case.source)
    except ValueError as exc:
        # The loader names the source itself; the CLI prints the source before every failure.
        return [str(exc).removeprefix(f"{case.source}: ")]
    return run_case(parsed, case.ruleset)
