"""One page of a report's table, laid out and written by WeasyPrint and by the engines that could follow it (issue 32).

    python bench/bench_engines.py [--rows 40] [--rounds 7]

Not one of gm's own dependencies: run it in a scratch environment that has them, e.g.

    python3 -m venv /tmp/engines && /tmp/engines/bin/pip install weasyprint==70.0 typst reportlab
    /tmp/engines/bin/python bench/bench_engines.py

The table is an Empires seat's "Your neighbours" as its facts go (code, name, holder, terrain,
population, armies, fort, the areas of yours next to it), `--rows` rows of made-up areas on one
A4 page in DejaVu Sans 8.5 pt, a header row, a rule under each row. Each engine makes a PDF of it
from its own source (HTML and CSS; Typst markup; ReportLab's platypus Table), every cell a cell of
a table; WeasyPrint and Typst write a tagged PDF/UA-1, as gm's reports are, ReportLab an untagged
one (it has no tagging: the cost of moving to it is in bench/README.md). CPU time (time.process_time) in this one process, the best of `--rounds` after one that
warms it (fonts found, style sheets parsed); an engine not installed is left out. The PDFs' sizes
and pages are printed beside, to see that each made the one page it was asked for.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import platform
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

COLUMNS = ("Code", "Name", "Held by", "Terrain", "Population", "Armies", "Fort", "Next to your")
NUMERIC = {"Population", "Armies", "Fort"}
TERRAINS = ("lowlands", "uplands", "towns", "forests", "plains", "mountains", "wetlands")
FONT = "DejaVu Sans"
DEJAVU = "/usr/share/fonts/truetype/dejavu"


def rows(count: int, salt: int = 0) -> list[tuple[str, ...]]:
    """Made-up areas, the same every run; another `salt`, other areas (so that no engine lays
    out the very text it laid out the round before: Typst remembers what it computed)."""
    made = []
    for n in range(count):
        code = "".join(chr(65 + (n * k + 7 + salt) % 26) for k in (1, 3, 5))
        made.append(
            (
                code,
                f"Area {code.title()}",
                ("Saxony (SA)", "France (FR)", "neutral", "Ireland (IR)")[n % 4],
                TERRAINS[n % len(TERRAINS)],
                str(1 + n % 8),
                str(n % 5),
                str(n % 3),
                " ".join(("LON", "WSX", "GAL", "HIG", "NUM")[: 1 + n % 4]),
            )
        )
    return made


_fonts: list[object] = []


def weasyprint_pdf(table: list[tuple[str, ...]]) -> bytes:
    import weasyprint
    import weasyprint.text.fonts

    head = "".join(f'<th class="{"num" if c in NUMERIC else ""}">{c}</th>' for c in COLUMNS)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{"num" if c in NUMERIC else ""}">{v}</td>' for c, v in zip(COLUMNS, row, strict=True))
        + "</tr>"
        for row in table
    )
    html = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><style>"
        f"@page {{ size: A4; margin: 18mm 20mm; }} body {{ font: 8.5pt '{FONT}'; }}"
        "table { border-collapse: collapse; width: 100%; } th { text-align: left; border-bottom: 0.8pt solid #1d1d1b; }"
        "td { border-bottom: 0.4pt solid #d8d3c8; padding: 0.7mm 1.4mm; } th { padding: 0.7mm 1.4mm; }"
        ".num { text-align: right; }"
        f"</style></head><body><h3>Your neighbours</h3><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        "</body></html>"
    )
    if not _fonts:
        _fonts.append(weasyprint.text.fonts.FontConfiguration())  # once a process, as gm's workers
    return weasyprint.HTML(string=html).write_pdf(pdf_variant="pdf/ua-1", font_config=_fonts[0])  # type: ignore[no-any-return]  # tagged, as gm's


def typst_source(table: list[tuple[str, ...]]) -> bytes:
    def cell(text: str) -> str:
        return "[" + text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace("#", "\\#") + "]"

    align = ", ".join("right" if c in NUMERIC else "left" for c in COLUMNS)
    cells = ",\n".join(", ".join(cell(v) for v in row) for row in table)
    header = ", ".join(f"[*{c}*]" for c in COLUMNS)
    return (
        f'#set page(paper: "a4", margin: (x: 20mm, y: 18mm))\n#set text(font: "{FONT}", size: 8.5pt, lang: "en")\n'
        "#set document(title: [Your neighbours])\n"
        "#show heading: set text(size: 11pt)\n= Your neighbours\n"
        f'#table(columns: {len(COLUMNS)}, align: ({align}), stroke: (x: none, y: 0.4pt + rgb("#d8d3c8")),\n'
        f"  inset: (x: 1.4mm, y: 0.7mm),\n  table.header({header}),\n{cells})\n"
    ).encode()


_typst: list[object] = []


def typst_pdf(table: list[tuple[str, ...]]) -> bytes:
    """Through one Compiler a process (as a render worker would keep it: its fonts read once),
    tagged to PDF/UA-1 as gm's reports are."""
    import typst

    if not _typst:
        _typst.append(typst.Compiler(font_paths=[DEJAVU], ignore_system_fonts=True))
    compiler = _typst[0]
    return compiler.compile(input=typst_source(table), format="pdf", pdf_standards=["ua-1"])  # type: ignore[attr-defined,no-any-return]


def reportlab_pdf(table: list[tuple[str, ...]]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, f"{DEJAVU}/DejaVuSans.ttf"))
        pdfmetrics.registerFont(TTFont(FONT + " Bold", f"{DEJAVU}/DejaVuSans-Bold.ttf"))
    out = io.BytesIO()
    document = SimpleDocTemplate(out, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm)
    grid = Table([list(COLUMNS), *[list(row) for row in table]], repeatRows=1)
    numeric = [i for i, c in enumerate(COLUMNS) if c in NUMERIC]
    grid.setStyle(
        TableStyle(
            [("FONT", (0, 0), (-1, -1), FONT, 8.5), ("FONT", (0, 0), (-1, 0), FONT + " Bold", 8.5)]
            + [("ALIGN", (i, 0), (i, -1), "RIGHT") for i in numeric]
            + [("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black), ("LINEBELOW", (0, 1), (-1, -1), 0.4, colors.grey)]
        )
    )
    heading = Paragraph("Your neighbours", ParagraphStyle("h3", fontName=FONT + " Bold", fontSize=11))
    document.build([heading, grid])
    return out.getvalue()


ENGINES: dict[str, tuple[str, Callable[[list[tuple[str, ...]]], bytes]]] = {
    "WeasyPrint (HTML table)": ("weasyprint", weasyprint_pdf),
    "Typst (typst.compile)": ("typst", typst_pdf),
    "ReportLab (platypus Table)": ("reportlab", reportlab_pdf),
}


def pages(pdf: bytes) -> str:
    """The PDF's page count as pdfinfo (poppler) reads it."""
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=False).stdout.decode()
    return next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "?")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, help="a folder to write each engine's PDF in, to look at")
    args = parser.parse_args()
    table = rows(args.rows)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
        f"{args.rows} rows x {len(COLUMNS)} cells, CPU ms, best of {args.rounds}"
    )
    for name, (module, make) in ENGINES.items():
        if importlib.util.find_spec(module) is None:
            print(f"{name:>28}: not installed")
            continue
        pdf = make(table)  # warms it
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{module}.pdf").write_bytes(pdf)
        times = []
        for salt in range(1, args.rounds + 1):
            other = rows(args.rows, salt)
            start = time.process_time()
            make(other)
            times.append(time.process_time() - start)
        best = min(times)
        cells = args.rows * len(COLUMNS)
        print(
            f"{name:>28}: {best * 1000:6.1f} ms, {best * 1e6 / cells:5.0f} us a cell; "
            f"PDF {len(pdf) // 1000} KB, {pages(pdf)} page(s)"
        )


if __name__ == "__main__":
    main()
