"""The books on a rendered report: a seat whose credits ran out reads it in its PDF (Clash, which
showed no books before they moved to the shared report)."""

from __future__ import annotations

import json
import subprocess


def test_a_clash_report_shows_credits_and_warns_of_an_unpaid_next_turn(home, gm, game):
    gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home)
    gm("credits", "buy", "bob@example.org", "5", "--paid", "12.50", home=home)
    assert gm("game", "set", "g1", "nmr-limit", "0", home=home).code == 0
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0, ran.err
    folder = home / "reports" / "g1" / "1"
    codes = {json.loads(p.read_text())["player"]: p.stem for p in folder.glob("*.json")}
    ann, bob = (json.loads((folder / f"{codes[n]}.json").read_text())["credits"] for n in ("Ann", "Bob"))
    assert (ann["balance"], ann["next_unpaid"], bob["balance"], bob["next_unpaid"]) == (0, True, 4, False)
    text = " ".join(
        subprocess.run(
            ["pdftotext", str(folder / f"{codes['Ann']}.pdf"), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "Your next turn is not paid for: no turn credits are left." in text
    assert "Your turn credits Turn credits left 0" in text
    bob_text = subprocess.run(
        ["pdftotext", str(folder / f"{codes['Bob']}.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Turn credits left" in bob_text and "not paid for" not in bob_text
