"""Turn kits: each seat's offline HTML page of a turn (gm/render/kit.py), written beside its
report as reports/<game>/<turn>/<seat>.html from the report's JSON, for the report mail and the
portal's download. The kit is made again whenever it is asked for: the same JSON, templates and
house addresses (mail and portal) give the same bytes, and a GM's new template or address shows in the next one.

gm.render.kit is imported inside write_kit: it draws the seat's maps with PIL, which `gm --help`
and every command that never makes a kit should not load (tests/render/test_render_imports.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.render.environment import kept_environment
from gm.rulesets import installed, template_dirs
from gm.services.house import portal_address


def kit_name(report: Mapping[str, Any]) -> str:
    """The kit's file name in a mail: `<game>-<turn>-<seat>.html`, as the report's other attachments."""
    return f"{report['game']['name']}-{report['turn']}-{report['seat']}.html"


def read_report(home: Home, json_path: str | Path, again: str = "'gm report render'") -> dict[str, Any]:
    """The seat's report whose JSON is `json_path` (relative to the home), as a dict (orjson reads
    it: the twin is orjson's writing, and reading it is a tenth of json.loads' CPU); GMError when
    it is missing or damaged, saying to render it again with `again`."""
    try:
        report = orjson.loads((home.root / json_path).read_bytes())
    except (OSError, ValueError):
        report = None
    if not isinstance(report, dict):
        raise GMError(f"the report {json_path} is missing or damaged; render it again with {again}.")
    return report


@dataclass(frozen=True)
class Kit:
    """A written kit: its path (relative to the home, as the reports table keeps paths) and SHA-256."""

    path: str
    sha256: str


def write_kit(home: Home, json_path: str | Path, report: Mapping[str, Any] | None = None) -> Kit:
    """Write the kit of the seat's report whose JSON is `json_path` (relative to the home) beside
    it; GMError when the JSON is missing or damaged. `report`: that JSON as its caller read it
    already (read_report), so that a report mail reads it once."""
    if report is None:
        report = read_report(home, json_path)
    ruleset = installed().get(str(report.get("game", {}).get("ruleset")))
    override = home.templates if home.templates.is_dir() else None
    from gm.render.kit import kit_html  # PIL: see the module docstring

    env = kept_environment(override, template_dirs(ruleset) if ruleset else [])  # kit.html compiled once
    data = kit_html(env, report, mail_settings(home).address, portal_address(home)).encode("utf-8")
    path = str(Path(json_path).with_suffix(".html"))
    target = home.root / path
    if not target.is_file() or target.read_bytes() != data:
        target.write_bytes(data)
    return Kit(path, hashlib.sha256(data).hexdigest())
