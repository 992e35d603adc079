"""A map in words: the alternative text a screen reader reads for each map of a report.

A tagged report (PDF/UA) needs a text for every figure. Each text here says what the map shows
the seat, from the view data the map is drawn from: whose places lie where and with how many
troops, not the picture's colours. A region map names every place in it; a whole board that
holds hundreds counts each holder's places and names the seat's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Box = tuple[float, float, float, float]  # left, top, right, bottom, in the map's own units


def territories(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None,
    box: Box | None = None,
    title: str = "",
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """A territory map (Clash of Empires, Conqueror!, Empires) in words: within `box` each place by
    its holder; the whole board (box None) as each holder's count, the seat's own places named.
    A holder is named by `names`, else by the view's `seats` (an AI nation has no player's row)."""
    names = {**{s["code"]: s.get("nation", s["code"]) for s in seats or ()}, **(names or {})}
    shown = [t for t in view_map["territories"] if box is None or _inside(t, box)]
    held: dict[str, list[Mapping[str, Any]]] = {}
    for place in shown:
        held.setdefault(_holder(place.get("owner"), names), []).append(place)
    mine = held.pop(_holder(you, names), []) if you else []
    parts = [f"{title or 'Map'}: {len(shown)} places."]
    if mine:
        parts.append(f"Yours ({len(mine)}): {_places(mine)}.")
    for holder, places in sorted(held.items(), key=lambda item: (item[0] == "nobody", item[0])):
        parts.append(f"{holder}: {len(places)}" + (f", {_places(places)}." if box is not None else "."))
    return " ".join(parts)


def _inside(place: Mapping[str, Any], box: Box) -> bool:
    return box[0] <= float(place["x"]) <= box[2] and box[1] <= float(place["y"]) <= box[3]


def _holder(owner: str | None, names: Mapping[str, str]) -> str:
    if not owner:
        return "nobody"
    if owner == "neutral":
        return "local leaders"
    return f"{names[owner]} ({owner})" if owner in names else owner


def _places(places: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(
        f"{p['code']} {p.get('name', '')} with {_troops(p.get('troops', 0))}".replace("  ", " ") for p in places
    )


def _troops(count: int) -> str:
    return f"{count} troop" if count == 1 else f"{count} troops"


def grid(
    world: Mapping[str, Any],
    crop: Mapping[str, Any] | None,
    seats: Sequence[Mapping[str, Any]] | None,
    you: str | None,
    title: str,
) -> str:
    """A block world (Minecraft EMPIRES) in words: its size, then each empire's cities and
    groups with their blocks, within `crop` (x0, x1, y0, y1) or on the whole world."""
    x0, x1 = (crop["x0"], crop["x1"]) if crop else (0, int(world["width"]))
    y0, y1 = (crop["y0"], crop["y1"]) if crop else (0, int(world["height"]))
    names = {s["code"]: s.get("nation", s["code"]) for s in seats or ()}
    marks = [m for m in world.get("marks", ()) if x0 <= m["x"] < x1 and y0 <= m["y"] < y1]
    by_empire: dict[str, list[str]] = {}
    for mark in marks:
        owner = mark.get("tag") or mark.get("note") or ""
        by_empire.setdefault(owner, []).append(_grid_mark(mark))
    parts = [f"{title}: blocks {x0} to {x1 - 1} across, {y0} to {y1 - 1} down."]
    order = sorted(by_empire, key=lambda code: (code != you, code))
    for code in order:
        who = "Yours" if code == you else (f"{names[code]} ({code})" if code in names else code or "Unheld")
        parts.append(f"{who}: {'; '.join(by_empire[code])}.")
    if not marks:
        parts.append("No city and no group stands here.")
    return " ".join(parts)


def _grid_mark(mark: Mapping[str, Any]) -> str:
    where = f"{mark['x']},{mark['y']}"
    if mark.get("shape") == "group":
        return f"a group of {mark.get('label', '')} troops at {where}"
    kind = "capital" if mark.get("shape") == "capital" else mark.get("shape", "city")
    return f"{kind} {mark.get('label', '')} at {where}"


def island(
    board: Mapping[str, Any],
    seat: str | None,
    names: Mapping[str, str],
    corner_number: Callable[[Sequence[Any]], str | None],
    tiles: Sequence[Mapping[str, Any]] | None = None,
    title: str = "The island",
) -> str:
    """A hex board (Imperials) in words: its tiles (or `tiles`, those a region shows) with their
    goods and numbers, the robber, and each seat's villages, towns and roads by vertex numbers;
    a region says the seat's own first. corner_number: a corner's vertex number, as printed."""
    shown = list(tiles if tiles is not None else board.get("hexes", ()))
    parts = [f"{title}: {len(shown)} tiles."]
    parts.append(
        "Tiles: "
        + ", ".join(
            f"{h.get('label', '')} {h.get('caption', '')}{' ' + str(h['number']) if h.get('number') else ''}".strip()
            for h in shown
        )
        + "."
    )
    for mark in board.get("marks", ()):
        if mark.get("shape") == "robber":
            tile = next((h for h in board.get("hexes", ()) if (h["col"], h["row"]) == (mark["col"], mark["row"])), None)
            parts.append(f"The robber is on tile {tile.get('label', '') if tile else '?'}.")
    codes = sorted({p["seat"] for p in board.get("pieces", ())} | {line["seat"] for line in board.get("lines", ())})
    for code in sorted(codes, key=lambda c: (c != seat, c)):
        parts.append(_seat_pieces(board, code, "Yours" if code == seat else names.get(code, code), corner_number))
    return " ".join(parts)


def _seat_pieces(
    board: Mapping[str, Any], code: str, who: str, corner_number: Callable[[Sequence[Any]], str | None]
) -> str:
    pieces = [p for p in board.get("pieces", ()) if p.get("seat") == code]
    said = []
    for shape in sorted({p["shape"] for p in pieces}):
        at = [str(p.get("text", "")) for p in pieces if p["shape"] == shape]
        said.append(f"{shape}s at {', '.join(at)}" if len(at) > 1 else f"a {shape} at {at[0]}")
    roads = [
        f"{corner_number(line['from']) or '?'}-{corner_number(line['to']) or '?'}"
        for line in board.get("lines", ())
        if line.get("seat") == code
    ]
    if roads:
        said.append(f"road{'s' if len(roads) > 1 else ''} {', '.join(roads)}")
    return f"{who}: {'; '.join(said) or 'nothing on the board'}."
