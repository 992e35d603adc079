"""The turn kit: one self-contained HTML file per seat and turn, `<game>-<turn>-<seat>.html`, made
from the seat's JSON report (docs/turn-kit.md). It draws the seat's maps with the report's own
drawing functions (svgmap, hexmap, gridmap through seat_arrows), holds the turn file as the PDF's
form gives it, checks it in the browser from the ruleset's order grammar, builds orders from
the seat's position, and copies or mails the file; it needs no network and asks none.

The page is templates/kit.html with its script and style (kit.js, kit.css) put in whole, each
allowed by its SHA-256 in the page's Content-Security-Policy, so that nothing else runs or
loads; a GM overrides any of the three as any template. The report's data goes in a
<script type="application/json"> with every <, > and & written as a JSON escape, so no text of
the report can close the element.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import orjson
from markupsafe import Markup

from gm.render.environment import kept_environment, nations
from gm.render.files import write_whole
from gm.render.gridmap import arrow_marks, geometry, picture_uri
from gm.render.hexmap import centre, corner_point
from gm.render.pictures import PNG_DATA_URL
from gm.render.seat_arrows import draw_turn_map
from gm.render.seat_maps import SVG, seat_maps
from gm.render.svgmap import territory_radius

TEMPLATE = "kit.html"
SCRIPT = "kit.js"
STYLE = "kit.css"
# The fields of a place that only draw it: what a click shows leaves them out.
_DRAWING = {
    "x",
    "y",
    "shape",
    "colour",
    "fill",
    "col",
    "row",
    "at",
    "hot",
    "ring",
    "badge",
    "from",
    "to",
    "text",
    "label",
}

Report = Mapping[str, Any]
_GRID_FILES = {"world.png", "region.png"}  # a grid world's maps (seat_maps): a PNG with SVG arrows over it


@dataclass(frozen=True)
class KitOrder:
    """A seat's kit to make beside its report, in the render worker that makes the report's PDF
    (gm.render.worker; issue 32: the `gm` process made every kit itself, a tenth of its CPU in a
    run-due): the report's JSON as written (its twin, the bytes the kit would be read from), the
    kit's file, where its templates are (the GM's folder, the ruleset's), the house's addresses.

    A Minecraft EMPIRES kit shows the grid pictures the worker drew for the report."""

    report: bytes
    path: Path
    override: Path | None
    template_dirs: tuple[Path, ...]
    house: str
    portal: str | None = None


def make_kit(order: KitOrder) -> str:
    """Write the ordered kit (kit_file) and return its SHA-256."""
    report = orjson.loads(order.report)
    env = kept_environment(order.override, order.template_dirs)  # kit.html compiled once a process
    data = kit_html(env, report, order.house, order.portal).encode("utf-8")
    kit_file(order.path, data)
    return hashlib.sha256(data).hexdigest()


def kit_file(path: Path, data: bytes) -> None:
    """Write a kit's bytes unless the file holds them already, whole (files.write_whole), so that
    the portal or a mail never reads half a kit."""
    if not path.is_file() or path.read_bytes() != data:
        write_whole(path, data)


def kit_html(env: jinja2.Environment, report: Report, house: str, portal: str | None = None) -> str:
    """The kit of a seat's turn report (its JSON, as gm writes it), `house` the address turn
    files go to (gm.toml's [mail] address; "" when the house mails nothing), `portal` the portal's
    address as players reach it (None when the house has none), where the kit hands the turn
    file over (templates/web/handoff.js)."""
    script = _source(env, SCRIPT)
    style = _source(env, STYLE)
    view = report.get("view") or {}
    names = nations(report.get("scores") or [])
    maps = [_map(view, report, names, m.file, m.title, m.note, m.media_type) for m in seat_maps(view)]
    data = {
        "report": {
            "game": report["game"]["name"],
            "seat": report["seat"],
            "turn": report["turn"],
            "grammar": report.get("order_grammar"),
        },
        "form": report.get("order_form") or "",
        "house": house,
        "portal": portal or "",
        "maps": [{"spots": m["spots"], "reach": m["reach"]} for m in maps],
        "details": place_details(view, names),
    }
    context = {
        "report": report,
        "maps": maps,
        "house": house,
        "portal": portal or "",
        "script": Markup(script),
        "style": Markup(style),
        "data": Markup(script_json(data)),
        "csp": content_policy(script, style),
        "names": names,
    }
    return env.get_template(TEMPLATE).render(context)


def _source(env: jinja2.Environment, name: str) -> str:
    """A template's text as written (the GM's override first), not rendered: script and style
    go into the page byte for byte, as their hashes in the policy say."""
    loader = env.loader
    assert loader is not None, "the kit's environment reads templates from folders"
    return loader.get_source(env, name)[0]


def content_policy(script: str, style: str) -> str:
    """The page's Content-Security-Policy: nothing from anywhere (default-src 'none'), the one
    script and the one style by their hashes, pictures only from the page itself (data:)."""
    return (
        f"default-src 'none'; script-src '{_sha256(script)}'; style-src '{_sha256(style)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def script_json(data: object) -> str:
    """`data` as JSON that cannot end the <script> element it stands in, whatever its text."""
    try:  # orjson: json.dumps(ensure_ascii=False, sort_keys=True) compact at a tenth of its CPU (1e-05 as 1e-5)
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except orjson.JSONEncodeError:  # what orjson does not write (a key not a string, a number past 64 bits)
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _map(
    view: Mapping[str, Any], report: Report, names: Mapping[str, str], file: str, title: str, note: str, media: str
) -> dict[str, Any]:
    """One map of the kit: its picture as an SVG element (a PNG inside one), and the points a
    click finds, with how far from one a click still counts (in the picture's units)."""
    if file in _GRID_FILES:
        svg = _grid_in_svg(view, view.get("region") if file == "region.png" else None, report.get("events") or [])
    else:
        drawn = draw_turn_map(view, str(report["seat"]), names, file, report.get("events") or [])
        assert drawn is not None, "seat_maps named the map"
        svg = drawn.decode("utf-8") if media == SVG else _png_in_svg(drawn)
    spots, reach = _spots(view, file)
    return {"title": title, "note": note, "svg": Markup(svg), "spots": spots, "reach": reach}


def _png_in_svg(png: bytes, over: str = "") -> str:
    """A PNG as an SVG of its own size, so every map pans and zooms alike; `over`, SVG elements in
    the PNG's pixels drawn over it."""
    return _uri_in_svg(PNG_DATA_URL + base64.b64encode(png).decode("ascii"), over)


def _uri_in_svg(uri: str, over: str = "") -> str:
    """_png_in_svg of a PNG given as its data: URI."""
    head = base64.b64decode(uri[len(PNG_DATA_URL) : len(PNG_DATA_URL) + 32])  # the signature and IHDR
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">'
        f'<image href="{uri}" width="{width}" height="{height}"/>{over}</svg>'
    )


def _grid_in_svg(view: Mapping[str, Any], crop: Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]]) -> str:
    """A grid world's map as its report lays it (gridmap.grid_figure): the picture, the same for
    every seat with the same view and crop, drawn once (or taken from the render worker that drew
    it for the report), and this turn's arrows the seat may see as SVG over it, in its pixels. A
    PNG drawn and packed per seat with the arrows in it cost the `gm` process about 50 ms a map
    (issue 32, bench/README.md)."""
    marks, _ = arrow_marks(view["world"], crop, events, view.get("seats"))
    return _uri_in_svg(picture_uri(view["world"], crop), f'<g class="arrows">{marks}</g>' if marks else "")


def _spots(view: Mapping[str, Any], file: str) -> tuple[list[list[Any]], float]:
    if file == "map.svg":
        places = [t for t in view["map"].get("territories", []) if isinstance(t, Mapping)]
        spots = [[_n(t.get("x")), _n(t.get("y")), str(t.get("code"))] for t in places]
        return spots, territory_radius(view["map"]) * 1.2
    if file == "board.svg":
        board = view["board"]
        points = [(centre(h["col"], h["row"]), h.get("label")) for h in board.get("hexes", [])]
        points += [(corner_point(c["at"]), c.get("text")) for c in board.get("corners", [])]
        points += [(corner_point(p["at"]), p.get("text")) for p in board.get("pieces", [])]
        return [[round(x, 1), round(y, 1), str(code)] for (x, y), code in points if code], 30.0
    return _grid_spots(view["world"], view.get("region") if file == "region.png" else None)


def _grid_spots(world: Mapping[str, Any], crop: Mapping[str, Any] | None) -> tuple[list[list[Any]], float]:
    """The marks of a grid world (capitals, cities, groups) where gridmap.draw puts their blocks:
    block x,y's top left pixel is (margin + (x - x0) * scale, ...) in the crop (gridmap.geometry)."""
    width, height = int(world["width"]), int(world["height"])
    x0, y0 = (int(crop["x0"]), int(crop["y0"])) if crop else (0, 0)
    x1, y1 = (int(crop["x1"]), int(crop["y1"])) if crop else (width, height)
    scale, margin = geometry(x1 - x0, y1 - y0)
    spots = [
        [margin + (_n(m.get("x")) - x0 + 0.5) * scale, margin + (_n(m.get("y")) - y0 + 0.5) * scale, str(m["label"])]
        for m in world.get("marks") or []
        if isinstance(m, Mapping) and m.get("label") and x0 <= _n(m.get("x")) < x1 and y0 <= _n(m.get("y")) < y1
    ]
    return spots, scale * 1.5


def _n(value: object) -> float:
    number = float(value) if isinstance(value, int | float) else 0.0
    return number if math.isfinite(number) else 0.0


def place_details(view: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, list[str]]:
    """What a click on a place, a piece or a seat shows: the map's own facts of each place, what
    the listing of others (view["known"]) says of it, and each seat's row of the scores. A fact
    both give is said once, in the listing's words: a place it lists shows its lines (who holds
    it, its code and name, its columns) and of the map's facts only those it does not give (a
    piece or a mark it lists: none, its lines say what it is, where and whose), and a place it
    does not list (the seat's own) names the map's facts as its columns do."""
    found: dict[str, list[str]] = {}
    listed, words = _listing(view.get("known"), names)
    merged = set()  # the places whose listing lines are in already, with the map's facts
    graph = view.get("map")
    for place in graph.get("territories", []) if isinstance(graph, Mapping) else []:
        if isinstance(place, Mapping) and place.get("code"):
            code = str(place["code"])
            said = listed.get(code)
            facts = _facts(place, names, words, skip=_LISTED if said else frozenset())
            found[code] = [*said, *facts] if said else list(facts)
            merged.add(code)
    board: Mapping[str, Any] = view["board"] if isinstance(view.get("board"), Mapping) else {}
    for tile in board.get("hexes", []):
        if isinstance(tile, Mapping) and tile.get("label"):
            found[str(tile["label"])] = list(_facts(tile, names))
    for piece in board.get("pieces", []):
        if isinstance(piece, Mapping) and piece.get("text") and str(piece["text"]) not in listed:
            found.setdefault(str(piece["text"]), []).extend(_facts(piece, names))
    for corner in board.get("corners", []):
        if isinstance(corner, Mapping) and corner.get("text") and str(corner["text"]) not in listed:
            found.setdefault(str(corner["text"]), [f"corner {corner['text']}: nothing built there"])
    world: Mapping[str, Any] = view["world"] if isinstance(view.get("world"), Mapping) else {}
    for mark in world.get("marks") or []:
        if isinstance(mark, Mapping) and mark.get("label") and str(mark["label"]) not in listed:
            at = f"at {mark.get('x')},{mark.get('y')}"
            found.setdefault(str(mark["label"]), [f"{mark.get('shape')} {at}", *_facts(mark, names, skip=_SHAPE)])
    for code, lines in listed.items():
        if code not in merged:
            found.setdefault(code, []).extend(lines)
    for seat in view.get("seats") or []:
        if isinstance(seat, Mapping) and seat.get("code"):
            found.setdefault(str(seat["code"]), []).extend(_facts(seat, names))
    return found


# A map's fact and the listing's words for it (gm.core.known): the number a graph map draws on a
# place is the listing's Troops or Armies, whose home it is its "Home of".
_COLUMN_OF = {"troops": ("Troops", "Armies"), "core_of": ("Home of",)}
# The map's facts of a place that a listing line of it gives: its holder ("Held by"), its code and
# name (the place's own line), and the facts of its columns (_COLUMN_OF).
_LISTED = frozenset({"owner", "code", "name"})
_SHAPE = frozenset({"shape"})  # a grid world's mark: its first line says it ("capital at 29,18")


def _listing(known: object, names: Mapping[str, str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The listing's lines of each place it lists, and the map's facts it has a column for, by
    the column's label ({"troops": "Armies"})."""
    if not isinstance(known, Mapping):
        return {}, {}
    labels = [str(c.get("label")) for c in known.get("columns", []) if isinstance(c, Mapping)]
    words = {key: label for key, said in _COLUMN_OF.items() for label in labels if label in said}
    listed: dict[str, list[str]] = {}
    for group in known.get("groups", []):
        holder = names.get(str(group.get("holder")), str(group.get("holder") or "nobody"))
        for place in group.get("places", []):
            said = [f"{label}: {cell}" for label, cell in zip(labels, place.get("cells", []), strict=False)]
            listed.setdefault(str(place.get("code")), []).extend([f"Held by {holder}", place.get("place", ""), *said])
    return listed, words


def _facts(
    item: Mapping[str, Any],
    names: Mapping[str, str],
    words: Mapping[str, str] | None = None,
    skip: frozenset[str] = frozenset(),
) -> Iterable[str]:
    """The item's facts as "key: value" lines, a key the listing has a column for in its words
    (`words`, _listing) and left out of a place it lists (`skip` and those: its lines say them).
    A null is left out: on another seat's row it is what the rules keep from this seat (Empires'
    reserve, Conqueror's prestige, D-ALL-5), which "none" would misread as nothing held."""
    words = words or {}
    for key, value in sorted(item.items()):
        if key in _DRAWING and not (key == "shape" and isinstance(value, str)):
            continue  # what only draws it (a territory's outline; a piece's "village" is a fact)
        if key in skip or (skip and key in words):
            continue
        if isinstance(value, str):  # most facts: JSON's own types are tested first, the ABCs last
            shown = names.get(value, value) if key in _NAMED else value
        elif isinstance(value, int | float):
            shown = str(value)
        elif value is None:  # not known to this seat (another's reserve) or not so: not a fact
            continue
        elif type(value) is dict or isinstance(value, Mapping):
            continue
        else:
            shown = _shown(value)
        yield f"{words.get(key) or key.replace('_', ' ')}: {shown}"


_NAMED = frozenset({"owner", "seat", "core_of"})  # facts that name a seat: its nation's name shown


def _shown(value: object) -> str:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ", ".join(str(v) for v in value) or "none"
    return "none" if value is None else str(value)
