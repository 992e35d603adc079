"""Rule D-ALL-5 through gm itself: Red's orders fail for want of cards, the turn is published, and
Blue's report (PDF and JSON), Blue's report mail and Blue's portal page hold nothing of it, while
Red's own say why."""

from __future__ import annotations

import email
import json
import subprocess
from email import policy
from pathlib import Path

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.web.conftest import Player

FAILING = "MARKET ore FOR wheat"  # 4 ore for 1 wheat: no hand of round 1 pays for all six
HAND_WORDS = ("lacks", FAILING, "fails:")


def secrets_of(gm, home: Path) -> dict[str, str]:
    found = {}
    for name in ("Ann", "Bob", "Cy"):
        ran = gm("game", "join", "g", f"{name.lower()}@example.org", "--name", name, home=home)
        line = next(entry for entry in ran.out.splitlines() if entry.startswith("Secret for "))
        seat, secret = line.removeprefix("Secret for ").split(": ")
        found[seat] = secret
    return found


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout


def mails_to(home: Path, address: str) -> list[email.message.EmailMessage]:
    found = []
    for path in sorted((home / "outbox").glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if message["To"] and address in message["To"]:
            found.append(message)
    return found


@pytest.fixture
def failed_turn(gm, home, tmp_path):
    """Game g (Imperials, Basic) after its set-up and a round in which six of Red's orders could
    not be paid for; every report published and mailed into the outbox folder."""
    settings = home / "gm.toml"
    settings.write_text(settings.read_text().replace('address = ""', 'address = "gm@example.org"', 1))
    assert gm("game", "new", "g", "--ruleset", "imperials", "--seed", "3", home=home).code == 0
    secrets = secrets_of(gm, home)
    for name in ("ann", "bob", "cy"):  # paid up: no report held, on the portal or by mail
        assert gm("credits", "buy", f"{name}@example.org", "5", "--paid", "12.50", home=home).code == 0
    assert gm("turn", "run", "g", "--now", home=home).code == 0
    orders = tmp_path / "red.txt"
    assert gm("orders", "template", "g", "RED", "-o", orders, home=home).code == 0
    text = orders.read_text().replace("<your secret>", secrets["RED"])
    orders.write_text(text.replace("\nEND", "".join(f"\n{FAILING}" for _ in range(6)) + "\nEND"))
    assert gm("submit", orders, home=home).code == 0
    assert gm("turn", "run", "g", "--now", home=home).code == 0
    assert gm("mail", "send", home=home).code == 0
    return secrets


def test_only_red_reads_that_its_orders_failed_for_want_of_cards(failed_turn, home, tmp_path):
    folder = home / "reports" / "g" / "2"
    red, blue = (json.loads((folder / f"{s}.json").read_text()) for s in ("RED", "BLUE"))
    mine = [e for e in red["events"] if e["kind"] == "order_failed"]
    assert mine and all("Red lacks" in e["data"]["reason"] for e in mine)
    assert not any(e["kind"] == "order_failed" for e in blue["events"])
    blue_json = (folder / "BLUE.json").read_text()
    assert not any(word in blue_json for word in HAND_WORDS)

    red_pdf = pdf_text((folder / "RED.pdf").read_bytes(), tmp_path)
    blue_pdf = pdf_text((folder / "BLUE.pdf").read_bytes(), tmp_path)
    assert "Red lacks" in red_pdf and "What happened to you" in red_pdf
    assert not any(word in blue_pdf for word in HAND_WORDS) and "The dice this round" in blue_pdf

    [mail] = [m for m in mails_to(home, "bob@example.org") if "turn 2" in m["Subject"]]
    for part in mail.walk():
        if part.get_content_maintype() == "multipart":
            continue
        data = part.get_payload(decode=True)
        if part.get_content_type() == "application/pdf":
            assert data == (folder / "BLUE.pdf").read_bytes()
        else:
            assert not any(word.encode() in data for word in HAND_WORDS), part.get_filename()


def test_the_portal_page_of_the_turn_shows_red_its_failure_and_blue_nothing(failed_turn, home):
    app = create_app(Home(home))
    pages = {}
    for seat in ("RED", "BLUE"):
        player = Player(app.test_client())
        assert player.sign_in(seat, failed_turn[seat], game="g").status_code == 200
        page = player.get("/turn/2")
        assert page.status_code == 200
        pages[seat] = page.text
    assert "Red lacks" in pages["RED"] and FAILING in pages["RED"]
    assert not any(word in pages["BLUE"] for word in HAND_WORDS)
    assert "Round 1" in pages["BLUE"]
