"""The order form survives copy and paste: copied out of a seat's report PDF with pdftotext (plain
and -layout, as poppler-based viewers copy) and with PDFium (the engine of Chromium's PDF viewer),
it passes `gm orders check` unchanged but for the password, in every ruleset."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pypdfium2
import pytest

from gm.rulesets import installed

NAMES = sorted(installed())


def copied_text(pdf: Path, mode: str) -> str:
    """The PDF's text as a viewer copies it: pdftotext plain or -layout, or PDFium ("pdfium")."""
    if mode == "pdfium":
        document = pypdfium2.PdfDocument(pdf)
        try:
            return "\n".join(document[n].get_textpage().get_text_range() for n in range(len(document)))
        finally:
            document.close()
    return subprocess.run(
        ["pdftotext", *([mode] if mode else []), str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def copied_form(pdf: Path, mode: str) -> list[str]:
    """What a player gets who selects the form in the PDF: from its GAME line to its END."""
    lines = copied_text(pdf, mode).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("GAME "))
    end = next(i for i, line in enumerate(lines) if i > start and line.strip() == "END")
    return lines[start : end + 1]


def played_one_turn(gm, home: Path, name: str) -> tuple[str, str]:
    """A game of `name` with its fewest seats after one turn; (a seat, its secret)."""
    ruleset = installed()[name]
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    assert gm("game", "new", "g", "--ruleset", name, "--seed", "5", home=home).code == 0
    secrets = {}
    for n in range(ruleset.seat_limits(scenario)[0]):
        ran = gm("game", "join", "g", f"p{n}@example.org", "--name", f"P{n}", home=home)
        assert ran.code == 0, ran.err
        seat, secret = re.search(r"^Secret for (\S+): (\S+)$", ran.out, re.M).groups()
        secrets[seat] = secret
    ran = gm("turn", "run", "g", "--now", home=home)
    assert ran.code == 0, ran.err
    seat = sorted(secrets)[0]
    return seat, secrets[seat]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_form_copied_out_of_the_pdf_checks(gm, home, tmp_path, name):
    seat, secret = played_one_turn(gm, home, name)
    pdf = home / "reports" / "g" / "1" / f"{seat}.pdf"
    for mode in ("", "-layout", "pdfium"):
        lines = copied_form(pdf, mode)
        assert any(line.lstrip().startswith("#") for line in lines)  # comments made it through
        typed = [re.sub(r"PASSWORD\s+\S.*", f"PASSWORD {secret}", line) for line in lines]
        path = tmp_path / f"copied{mode}.txt"
        path.write_text("\n".join(typed) + "\n", encoding="utf-8")
        ran = gm("orders", "check", path, home=home)
        # Warnings are allowed (an Empires form uses none of its 16 actions yet); errors are not.
        assert ran.code == 0 and all(": warning: " in said for said in ran.err.splitlines()), "\n".join(lines)
        assert ran.out.startswith(f"{path}: OK, ") and f" for {seat} in g, turn 2" in ran.out
