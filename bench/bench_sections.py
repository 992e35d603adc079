"""A seat's own pages, section by section: their boxes and what each section costs to lay out and draw (issue 32).

    .venv/bin/python bench/bench_sections.py                       # Empires of 16 and Imperials of 4, turn 10
    .venv/bin/python bench/bench_sections.py --rounds 5 clash --pdf /tmp/sections

The seat and turn are bench_stages.py's (`seat_job`: the first seat's report of the last of
`--turns` robot turns). Its HTML is taken apart as a render worker does (gm.render.turnpages):
the turn's pages, laid out once a turn for every seat, are measured once on their own; the seat's
own document, with the blank pages the turn's pages go over, is measured section by section.

A section is what a heading opens: an h1 or h2 opens one, an h3 opens a part of the section it
stands in, and a `<header>` or `<section>` element belongs, with all it holds, to the first
heading among its own children (so the masthead is "Turn 10", the order form's section its
heading's). The running header and page numbers of the pages (margin boxes) are a row of their
own, as are the blank pages under the turn's pages.

For each section: the boxes of the laid-out pages it makes (every box, and the text boxes among
them), and the CPU ms of WeasyPrint's layout and of writing the tagged PDF that the seat's
document takes with the section in it against without it (the section's elements taken out of the
parsed page before layout), the best of `--rounds` each, Python's collector off while timed (a
render worker collects once between jobs). The difference also moves page breaks, so the rows do
not add up to the whole exactly; read them as what cutting the section would save.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import weasyprint
from bench_cycle import bare_pdf, floor_html
from bench_stages import seat_job
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from gm.render import pdf, turnpages
from gm.render.fetcher import AssetFetcher
from gm.render.worker import Renderer, drawn

HEADINGS = ("h1", "h2", "h3")
PAGE = ("(the pages: running header and page numbers)",)
OUTSIDE = ("(outside any section)",)
TURN_PAGES = ("(blank pages under the turn's pages)",)

Path_ = tuple[str, ...]


@dataclass(frozen=True)
class Seat:
    """One seat's report as a worker lays it out: its own HTML (blank pages placed), how it is read."""

    html: str
    base_url: str
    fetcher: AssetFetcher
    cache: dict[str, Any]
    created: str
    identifier: str
    turn_html: str | None


@dataclass(frozen=True)
class Cost:
    """A layout of the seat's own document: its boxes by section, and the CPU it took."""

    boxes: Counter[Path_]
    text: Counter[Path_]
    layout: float
    drawing: float
    pages: int


def heading_text(element: Any) -> str:
    words = " ".join("".join(element.itertext()).split())
    return words if len(words) <= 44 else words[:43] + "…"


def sections(root: Any) -> dict[int, Path_]:
    """id(element) -> the section it belongs to, for every element of the parsed page."""
    found: dict[int, Path_] = {}

    def opens(element: Any, path: Path_) -> Path_:
        text = heading_text(element)
        return (text,) if element.tag in ("h1", "h2") or not path or path[0] == OUTSIDE[0] else (path[0], text)

    def walk(element: Any, path: Path_) -> None:
        if element.tag in ("section", "header"):
            first = next((child for child in element if child.tag in HEADINGS), None)
            if first is not None:
                path = opens(first, ())
        if str(element.get("id", "")).startswith(turnpages.BLANK_ID):
            path = TURN_PAGES
        found[id(element)] = path
        for child in element:
            if not isinstance(child.tag, str):
                continue
            if child.tag in HEADINGS and found.get(id(element)) != opens(child, ()):
                path = opens(child, path)
            walk(child, path)

    body = root.find("body")
    found[id(root)] = OUTSIDE
    walk(body, OUTSIDE)
    return found


def laid_boxes(box: Any, path: Path_, found: dict[int, Path_]) -> Iterator[tuple[Path_, Any]]:
    """(section, box) for every box of a laid-out page, its own and its margin boxes' included."""
    if isinstance(box, (boxes.PageBox, boxes.MarginBox)):
        path = PAGE
    elif box.element is not None and id(box.element) in found:
        path = found[id(box.element)]
    yield path, box
    for child in getattr(box, "children", ()):
        yield from laid_boxes(child, path, found)


def measure(seat: Seat, drop: Path_ | None = None) -> Cost:
    """Lay out and write the seat's document once, `drop`'s elements taken out first."""
    html, cache = pdf._shorten(seat.html, seat.cache)
    page = HTML(string=html, base_url=seat.base_url, url_fetcher=seat.fetcher)
    sheets = pdf._take_stylesheets(page, seat.base_url, seat.fetcher)
    found = sections(page.etree_element)
    if drop is not None and cut(page.etree_element, drop, found):
        body = page.etree_element.find("body")
        for child in list(body):
            body.remove(child)
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        document = page.render(stylesheets=sheets, font_config=pdf.font_configuration(), cache=cache)
        laid = time.process_time()
        pdf._write(document, seat.created, seat.identifier)
        written = time.process_time()
    finally:
        gc.enable()
    counted: Counter[Path_] = Counter()
    text: Counter[Path_] = Counter()
    for laid_page in document.pages:
        for path, box in laid_boxes(laid_page._page_box, OUTSIDE, found):
            counted[path] += 1
            text[path] += isinstance(box, boxes.TextBox)
    return Cost(counted, text, laid - start, written - laid, len(document.pages))


def cut(element: Any, drop: Path_, found: dict[int, Path_]) -> bool:
    """Take out of `element` every child whose whole subtree belongs to `drop`; True if `element`'s
    own whole subtree does (its parent takes it out then)."""
    inside = [child for child in element if isinstance(child.tag, str)]
    whole = [cut(child, drop, found) for child in inside]
    if found.get(id(element), OUTSIDE)[: len(drop)] == drop and all(whole):
        return True
    for child, gone in zip(inside, whole, strict=True):
        if gone:
            element.remove(child)
    return False


def best(rounds: int, work: Callable[[], Cost]) -> Cost:
    runs = [work() for _ in range(rounds)]
    return min(runs, key=lambda cost: cost.layout + cost.drawing)


def paired(rounds: int, seat: Seat, drop: Path_) -> tuple[float, float]:
    """(layout, drawing) seconds the section `drop` adds: the whole document and the one without
    it laid out in turn, `rounds` times, the best of each (alternating, so that a change in the
    machine's load falls on both)."""
    whole, without = [], []
    for _ in range(rounds):
        whole.append(measure(seat))
        without.append(measure(seat, drop))
    layout = min(cost.layout for cost in whole) - min(cost.layout for cost in without)
    return layout, min(cost.drawing for cost in whole) - min(cost.drawing for cost in without)


def the_seat(job: Any, dirs: tuple[str, ...]) -> Seat:
    ready = drawn(job)
    fetcher, cache = AssetFetcher(dirs), Renderer().images.cache_for(ready.images)
    parts = turnpages.split(ready.html)
    html, turn_html = ready.html, None
    if parts is not None:
        turn = pdf._turn_document(parts.turn_html, "sections", ready.base_url, fetcher, cache)
        html, turn_html = turnpages.place_blank_pages(parts.seat_html, turn), parts.turn_html
    return Seat(html, ready.base_url, fetcher, dict(cache), ready.created, ready.identifier, turn_html)


def keys(cost: Cost) -> list[Path_]:
    """The sections and their parts in the order they first appear, each section before its parts."""
    order: list[Path_] = []
    for path in cost.boxes:
        for prefix in (path[:1], path):
            if prefix not in order:
                order.append(prefix)
    return order


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def floor(job: Any, rounds: int) -> float:
    """The floor of issue 32: bare WeasyPrint on the whole report's HTML, maps drawn (bench_cycle.py)."""
    html = floor_html(job)
    times = []
    for _ in range(rounds):
        start = time.process_time()
        bare_pdf(html, job.base_url)
        times.append(time.process_time() - start)
    return min(times)


def table(seat: Seat, rounds: int) -> list[str]:
    whole = best(rounds, lambda: measure(seat))
    lines = [
        "| section | boxes | text boxes | layout ms | drawing ms | ms a text box |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for path in keys(whole):
        count = sum(n for key, n in whole.boxes.items() if key[: len(path)] == path)
        text = sum(n for key, n in whole.text.items() if key[: len(path)] == path)
        name = path[-1] if len(path) == 1 else "  · " + path[-1]
        if path == PAGE:  # the pages' own boxes come and go only with their pages
            lines.append(f"| {name} | {count} | {text} | - | - | - |")
            continue
        layout, drawing = paired(rounds, seat, path)
        per = f"{(layout + drawing) * 1000 / text:.2f}" if text else "-"
        lines.append(f"| {name} | {count} | {text} | {ms(layout)} | {ms(drawing)} | {per} |")
    total_text = sum(whole.text.values())
    lines.append(
        f"| **the seat's own pages** | {sum(whole.boxes.values())} | {total_text} | {whole.layout * 1000:.0f} | "
        f"{whole.drawing * 1000:.0f} | {(whole.layout + whole.drawing) * 1000 / total_text:.2f} |"
    )
    empty = best(rounds, lambda: measure(seat, ()))
    lines.append(
        f"| (of it, an empty document: one page, its header) | {sum(empty.boxes.values())} | "
        f"{sum(empty.text.values())} | {ms(empty.layout)} | {ms(empty.drawing)} | - |"
    )
    if seat.turn_html is not None:
        turn = Seat(seat.turn_html, seat.base_url, seat.fetcher, seat.cache, seat.created, "turn", None)
        once = best(rounds, lambda: measure(turn))
        lines.append(
            f"| (the turn's pages, once a turn: {once.pages} pages) | {sum(once.boxes.values())} | "
            f"{sum(once.text.values())} | {once.layout * 1000:.0f} | {once.drawing * 1000:.0f} | - |"
        )
    lines.insert(0, f"{whole.pages} pages of the seat's own document")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["empires", "imperials"])
    parser.add_argument("--turns", type=int, default=10, help="turns the robots play (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="layouts of each, the best counted (default 3)")
    parser.add_argument("--pdf", type=Path, help="a folder to write each seat's whole report PDF in, to look at")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-sections-") as folder:
        print(
            f"python {platform.python_version()}, weasyprint {weasyprint.__version__}, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}; turn {args.turns}, first seat, CPU ms, best of {args.rounds}"
        )
        for ruleset in args.rulesets:
            job, _, dirs = seat_job(Path(folder), ruleset, args.turns)
            seat = the_seat(job, dirs)
            measure(seat)  # warms the process: fonts, style sheets
            print(f"\n{ruleset}: " + "\n".join(table(seat, args.rounds)))
            print(f"the floor (bare WeasyPrint, the whole report, maps drawn): {floor(job, args.rounds) * 1000:.0f} ms")
            if args.pdf is not None:
                args.pdf.mkdir(parents=True, exist_ok=True)
                ready = drawn(job)
                out = args.pdf / f"{ruleset}.pdf"
                Renderer().write(
                    ready.__class__(ready.html, ready.base_url, ready.created, ready.identifier, out, ready.images),
                    dirs,
                )
                print(f"{out} written")


if __name__ == "__main__":
    main()
