"""Checks every map-based scenario needs, and the line loop every order parser shares."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from gm.core.model import JSONObject, Order, OrderArgs, Problem


def duplicates(codes: list[str], what: str, tail: str = "is used twice") -> list[str]:
    """'{what} {code} {tail}' for each code seen before."""
    seen: set[str] = set()
    found = []
    for code in codes:
        if code in seen:
            found.append(f"{what} {code} {tail}")
        seen.add(code)
    return found


def unconnected(links: dict[str, list[str]], places: str) -> list[str]:
    """Troops only ever move to a neighbour, so a place nobody can reach is a map error.

    links: each place's neighbours, in map order; places: the plural noun ("territories").
    """
    if not links:
        return [f"the map has no {places}"]
    first = next(iter(links))
    reached, queue = {first}, deque([first])
    while queue:
        for other in links[queue.popleft()]:
            if other in links and other not in reached:
                reached.add(other)
                queue.append(other)
    lost = [code for code in links if code not in reached]
    return [f"the map is not connected: {lost[0]} cannot be reached from {first}"] if lost else []


def view_places(view: JSONObject) -> dict[str, JSONObject] | None:
    """The places a seat's view lists on its map (view["map"]["territories"]), by code: what the
    player's own check (check_by_view) knows of the board. None when the view has no map it can
    read, as a report file may hold anything."""
    board = view.get("map")
    listed = board.get("territories") if isinstance(board, dict) else None
    if not isinstance(listed, list) or not listed:
        return None
    places = {p["code"]: p for p in listed if isinstance(p, dict) and isinstance(p.get("code"), str)}
    return places if len(places) == len(listed) else None


def shown(word: str) -> str:
    """A player's word as a problem quotes it: long ones cut, so a pasted essay stays readable."""
    return word if len(word) <= 20 else word[:20] + "..."


def parse_lines(
    lines: list[tuple[int, str]], parse_words: Callable[[list[str]], tuple[str, OrderArgs] | str]
) -> tuple[list[Order], list[Problem]]:
    """Run a ruleset's word parser over the body lines of a turn file. Never raises: a line
    the parser rejects (it returns a message) becomes a Problem with that line's number."""
    orders: list[Order] = []
    problems: list[Problem] = []
    for number, raw in lines:
        text = str(raw).strip()
        words = text.replace(",", " ").split()
        if not words:
            continue
        parsed = parse_words(words)
        if isinstance(parsed, str):
            problems.append(Problem(number, parsed))
        else:
            orders.append(Order(parsed[0], parsed[1], number, text))
    return orders, problems


def next_to(places: dict[str, JSONObject]) -> dict[str, tuple[str, ...]]:
    """Each place's neighbours as view_places gives them (its "neighbours" codes that are places),
    for the turn kit's order builder (gm.core.order_grammar)."""
    return {
        code: tuple(str(n) for n in place.get("neighbours") or [] if isinstance(n, str) and n in places)
        for code, place in places.items()
        if isinstance(place.get("neighbours"), list)
    }
