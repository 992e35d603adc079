"""Turn kits: each seat's offline HTML page of a turn (gm/render/kit.py), written beside its
report as reports/<game>/<turn>/<seat>.html from the report's JSON, for the report mail and the
portal's download. The kit is made again whenever it is asked for: the same JSON, templates and
house addresses (mail and portal) give the same bytes, and a GM's new template or address shows in the next one.

A turn's kits are made by the render workers, each beside its report (kit_order, made_kits;
issue 32), and write_kit takes such a kit rather than making it again when it is asked for the
very report (its JSON's SHA-256) with the same addresses and templates in the same run.

gm.render.kit is imported inside write_kit: it draws the seat's maps with PIL, which `gm --help`
and every command that never makes a kit should not load (tests/render/test_render_imports.py).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.render.environment import kept_environment
from gm.rulesets import installed, template_dirs
from gm.services.house import portal_address

if TYPE_CHECKING:
    from gm.render.kit import KitOrder


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


def write_kit(
    home: Home, json_path: str | Path, report: Mapping[str, Any] | None = None, json_sha256: str | None = None
) -> Kit:
    """Write the kit of the seat's report whose JSON is `json_path` (relative to the home) beside
    it; GMError when the JSON is missing or damaged. `report`: that JSON as its caller read it
    already (read_report), so that a report mail reads it once. `json_sha256`: that JSON's
    SHA-256 as the reports table records it; a kit a render worker made of that very JSON in
    this run, with today's addresses and templates, is taken as it is (made_kits)."""
    if report is None:
        report = read_report(home, json_path)
    ruleset = installed().get(str(report.get("game", {}).get("ruleset")))
    override = home.templates if home.templates.is_dir() else None
    dirs = tuple(template_dirs(ruleset)) if ruleset else ()
    house, portal = mail_settings(home).address, portal_address(home)
    path = str(Path(json_path).with_suffix(".html"))
    target = home.root / path
    if json_sha256 is not None:
        with _made_lock:
            made = _made.get((str(home.root / json_path), json_sha256))
        if made is not None and made[1:] == (house, portal, override, dirs) and target.is_file():
            return Kit(path, made[0])
    from gm.render.kit import kit_file, kit_html  # PIL: see the module docstring

    env = kept_environment(override, dirs)  # kit.html compiled once
    data = kit_html(env, report, house, portal).encode("utf-8")
    kit_file(target, data)
    return Kit(path, hashlib.sha256(data).hexdigest())


def kit_order(home: Home, ruleset_dirs: Iterable[Path], json_path: Path, report: bytes) -> KitOrder:
    """The order of the kit of a seat's report whose JSON (`report`, as written to `json_path`)
    is being rendered, for the render worker that makes its PDF (gm.render.worker.RenderJob.kit)."""
    from gm.render.kit import KitOrder  # PIL: see the module docstring

    return KitOrder(
        report,
        json_path.with_suffix(".html"),
        home.templates if home.templates.is_dir() else None,
        tuple(ruleset_dirs),
        mail_settings(home).address,
        portal_address(home),
    )


# The kits the render workers made in this run (made_kits), by their JSON's path and SHA-256:
# the kit's SHA-256 and what it was made with. A run-due queues a game's report mails right after
# its reports are rendered, so a few games' worth is plenty; a kit not found here is made again.
_made: OrderedDict[tuple[str, str], tuple[str, str, str | None, Path | None, tuple[Path, ...]]] = OrderedDict()
_made_lock = threading.Lock()
KEEP_MADE = 4096


def made_kits(made: Iterable[tuple[KitOrder, str, str]]) -> None:
    """Keep the kits render workers made: each (its order, the JSON's SHA-256, the kit's SHA-256)."""
    with _made_lock:
        for order, json_sha256, kit_sha256 in made:
            key = (str(order.path.with_suffix(".json")), json_sha256)
            _made[key] = (kit_sha256, order.house, order.portal, order.override, order.template_dirs)
            _made.move_to_end(key)
        while len(_made) > KEEP_MADE:
            _made.popitem(last=False)
