"""The Jinja2 environment for reports: GM overrides, then ruleset templates, then gm's shared ones.

gm.render.gridmap, which draws with Pillow, is imported inside make_environment, where its
functions become the templates' globals: `gm --help` imports this module (gm/services use its
filters) and should not pay for Pillow.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from gm.core.names import named
from gm.render.hexmap import hex_map, hex_picture
from gm.render.hexregion import hex_region
from gm.render.svgmap import safe_colour, svg_map
from gm.render.turnmap import board_sheet, map_figure, map_sections

# Every template escapes, whatever its name: a player's name or an order line must never become
# markup, or WeasyPrint would fetch what it points at. Listing the extensions keeps
# env.autoescape(name) callable so a test can check each template by name.
ESCAPED_EXTENSIONS = ("html", "htm", "xml", "svg", "j2", "css", "txt")

_UTC_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2})?Z")

REPORT_TEMPLATE = "report.html"
STANDINGS_TEMPLATE = "standings.html"


def shared_templates_dir() -> Path:
    """The folder of gm's own templates and assets (the installed gm_templates package)."""
    return Path(str(files("gm_templates")))


def package_templates_dir(package: str) -> Path:
    """The folder of a ruleset's templates given as a package, e.g. "gm_games.clash.templates"."""
    return Path(str(files(package)))


def template_dirs(override_dir: Path | None, ruleset_dirs: Iterable[Path]) -> list[Path]:
    """The lookup order: the GM's override folder, the ruleset's folders, the shared folder."""
    dirs = [Path(override_dir)] if override_dir is not None else []
    dirs += [Path(d) for d in ruleset_dirs]
    dirs.append(shared_templates_dir())
    return dirs


def asset_dirs(env: jinja2.Environment) -> list[Path]:
    """The folders an environment reads templates from (one of make_environment's); the URL
    fetcher serves files from these."""
    loader = env.loader
    if not isinstance(loader, jinja2.FileSystemLoader):
        raise TypeError(f"asset_dirs needs an environment of make_environment (templates in folders), not {loader!r}")
    return [Path(p) for p in loader.searchpath]


@functools.cache
def base_url() -> str:
    """The base URL to pass to WeasyPrint: relative asset URLs resolve in the shared folder.
    Worked out once a process: every seat's report asks for it, and importlib.resources finds
    the folder anew each time (about 0.3 ms)."""
    return shared_templates_dir().as_uri() + "/"


def nations(scores: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Jinja filter: seat code -> nation (or player name) from the scores rows, for map legends."""
    return {row["seat"]: row.get("nation") or row["name"] for row in scores}


def when(stamp: str) -> str:
    """Jinja filter: "2026-11-21T19:00:00Z" -> "2026-11-21 19:00 UTC"; other text unchanged."""
    match = _UTC_STAMP.fullmatch(stamp)
    return f"{match[1]} {match[2]} UTC" if match else stamp


def known_line(known: Mapping[str, Any], values: Sequence[object]) -> str:
    """Jinja global: one line of the listing of what a seat sees (known.html): the place, then
    each fact in its column, numbers to the right, two spaces between (_aligned). In
    Python rather than a Jinja macro: an Empires listing is 215 lines a seat (70 ms a report as
    a macro)."""
    return _aligned([str(value) for value in values], known["widths"], _numeric(known))


def known_lines(known: Mapping[str, Any], places: Sequence[Mapping[str, Any]]) -> Markup:
    """Jinja global: the lines of a group of the listing (known_line of each place's code and
    cells), each escaped and ended by a newline. One call a group rather than one a line: an
    Empires listing is 215 lines in every seat's report, and the template's loop over them was
    about 5 % of the `gm` process's CPU in a run-due (issue 32)."""
    numeric, widths = _numeric(known), known["widths"]
    return Markup("").join(
        escape(_aligned([str(value) for value in (p["place"], *p["cells"])], widths, numeric)) + "\n" for p in places
    )


def _numeric(known: Mapping[str, Any]) -> list[bool]:
    """Which of the listing's columns are numbers, the place's first (it is not)."""
    return [False] + [column["numeric"] for column in known["columns"]]


def text_table(header: Sequence[str], rows: Iterable[Sequence[object]], numeric: Iterable[str] = ()) -> Markup:
    """Jinja global: a table of a seat's own as lines of text in aligned columns, drawn as the
    listing of what it sees is (known.html, pre.known): the header line bold, the columns named
    in `numeric` to the right (_aligned). Every cell of an HTML table costs WeasyPrint about
    0.75 ms to lay out and draw, every line of text about as much as one cell: an Empires seat's
    areas and neighbours, 25 rows of 7-8 cells, were 230 ms of its report's 570 as tables
    (bench/README.md, "a seat's own tables as text"). The cells are escaped here."""
    lines = [[str(value) for value in header]] + [[str(value) for value in row] for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    numeric = set(numeric)
    right = [label in numeric for label in header]
    text = [escape(_aligned(line, widths, right)) for line in lines]
    return Markup('<pre class="known"><b>{}</b>\n{}</pre>').format(text[0], Markup("\n").join(text[1:]))


def _aligned(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    """Cells padded to their column's width, two spaces between; the last left unpadded unless
    it is a number (a list of codes there may run on)."""
    last = len(cells) - 1
    return "  ".join(
        cell.rjust(widths[index]) if right[index] else cell if index == last else cell.ljust(widths[index])
        for index, cell in enumerate(cells)
    )


# A run of this many letters without a space may break after any of them (see breakable).
BREAKABLE_RUN = 40
_LONG_RUN = re.compile(rf"\S{{{BREAKABLE_RUN}}}(?=\S)")


def breakable(text: str) -> Markup:
    """A player's text, escaped, with a line-break opportunity (<wbr>) after every BREAKABLE_RUN
    letters of a word longer than that. CSS's overflow-wrap would break such a word too, but
    WeasyPrint tries every break of it anew: a Clash report with one word of 20,000 letters took
    8.5 CPU-s to lay out, with a <wbr> every 40 letters 1.2 (0.2 without the word)."""
    return Markup("").join(_with_breaks(str(text)))


def _with_breaks(text: str) -> Iterable[Markup]:
    start = 0
    for run in _LONG_RUN.finditer(text):
        yield escape(text[start : run.end()])
        yield Markup("<wbr>")
        start = run.end()
    yield escape(text[start:])


def make_environment(override_dir: Path | None, ruleset_dirs: list[Path]) -> jinja2.Environment:
    """An environment with autoescape everywhere and StrictUndefined, so a typo fails the render."""
    from gm.render.gridmap import grid_figure, grid_map

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(override_dir, ruleset_dirs)]),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=ESCAPED_EXTENSIONS, default_for_string=True, default=True
        ),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["svg_map"] = svg_map
    env.globals["map_figure"] = map_figure
    env.globals["map_sections"] = map_sections
    env.globals["board_sheet"] = board_sheet
    env.globals["hex_map"] = hex_map
    env.globals["hex_picture"] = hex_picture
    env.globals["hex_region"] = hex_region
    env.globals["grid_map"] = grid_map
    env.globals["grid_figure"] = grid_figure
    env.globals["known_line"] = known_line
    env.globals["known_lines"] = known_lines
    env.globals["text_table"] = text_table
    env.filters["nations"] = nations
    env.filters["colour"] = safe_colour
    env.filters["when"] = when
    env.filters["named"] = named  # {{ s.nation|named(s.code) }}: "France (FR)", as the map labels it
    env.filters["breakable"] = breakable
    return env


def kept_environment(override_dir: Path | None, ruleset_dirs: Sequence[Path]) -> jinja2.Environment:
    """make_environment's environment for this template lookup, kept by the process: a run-due
    makes game after game of the same rulesets, and a new environment compiles its templates
    anew (about 80 ms for a report's; the turn kit's page, made for every seat, was compiled for
    every seat: a third of the `gm` process's CPU in a run-due, issue 32). Jinja notices an
    edited template itself (it checks the file's time at each get_template); a file that comes
    into the override folder or goes from it changes the folder's time, and so the key."""
    version = override_dir.stat().st_mtime_ns if override_dir is not None and override_dir.is_dir() else 0
    return _kept(override_dir, version, tuple(ruleset_dirs))


@functools.lru_cache(maxsize=16)
def _kept(override_dir: Path | None, version: int, ruleset_dirs: tuple[Path, ...]) -> jinja2.Environment:
    return make_environment(override_dir, list(ruleset_dirs))


def render_report_html(env: jinja2.Environment, context: Mapping[str, Any]) -> str:
    """A seat's turn report as HTML (see templates/report.html for the context it reads)."""
    return env.get_template(REPORT_TEMPLATE).render(context)


def render_standings_html(env: jinja2.Environment, context: Mapping[str, Any]) -> str:
    """The final standings of a finished game as HTML (see templates/standings.html)."""
    return env.get_template(STANDINGS_TEMPLATE).render(context)
