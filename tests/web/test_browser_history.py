""" "What you sent" in Chromium (through Playwright, against `gm serve` on a loopback port): each
version named as its player sent it (how, the mail's subject and part or the file's name, its size,
its turn), never by a key or path of gm's own."""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage

from tests.intake.mails import GM_ADDRESS, set_mail_address, turn_file
from tests.web.chromium import DESKTOP, browser_tests, screenshot
from tests.web.test_browser import sign_in

pytestmark = browser_tests

# The archive's key for a file (SHA-256, 64 hex digits): gm's name for it, meaningless to a player.
ARCHIVE_KEY = re.compile(r"\b[0-9a-f]{64}\b")


def mail_with_attachment(text: str, subject: str, filename: str) -> bytes:
    message = EmailMessage()
    message["From"] = "Ann <ann@example.org>"
    message["To"] = GM_ADDRESS
    message["Subject"] = subject
    message["Message-ID"] = "<orders-1@example.org>"
    message.set_content("Hello GM, my orders are attached.\n")
    message.add_attachment(text.encode(), maintype="text", subtype="plain", filename=filename)
    return message.as_bytes(policy=policy.SMTP)


def history_rows(page) -> list[str]:
    return [" ".join(row.split()) for row in page.locator("#history tbody tr").all_inner_texts()]


def test_what_you_sent_says_how_and_what_each_version_was(browser, served, game, gm, home, tmp_path):
    set_mail_address(home)
    mailed = tmp_path / "mailed.eml"
    mailed.write_bytes(mail_with_attachment(turn_file(game["BR"], "CLAIM ENG"), "My orders, turn 1", "ann-t1.txt"))
    assert gm("inbox", "import", mailed, home=home).out.endswith("Taken: 1 accepted\n")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    sign_in(page, served, "BR", game["BR"])
    uploaded = tmp_path / "br-orders.txt"
    uploaded.write_text(turn_file(game["BR"], "CLAIM ENG SCO"))
    page.set_input_files("input[name=turn_file]", str(uploaded))
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Submitted"
    page.fill("#orders-text", page.input_value("#orders-text").replace("END", "CLAIM ENG SCO WAL\nEND"))
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Submitted"
    for address in ("/", "/history"):
        page.goto(served + address)
        assert not ARCHIVE_KEY.search(page.inner_text("#history")), page.inner_text("#history")
        pasted, upload, mail = history_rows(page)
        assert pasted.startswith("1 ") and "typed or pasted in the portal" in pasted and "✔ this one" in pasted
        size = len(uploaded.read_bytes())
        assert "uploaded to the portal" in upload and f"br-orders.txt, {size} bytes" in upload
        assert re.search(r"by mail “My orders, turn 1”, attachment ann-t1\.txt, \d+ bytes", mail), mail
        assert mail.startswith("1 ") and "accepted" in mail
        screenshot(page, "history" if address == "/history" else "seat-history")
    context.close()
