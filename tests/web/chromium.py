"""Debian's Chromium through Playwright for the portal's browser tests: the browser, a page at a
phone's width and at a desktop's, and screenshots to look at (GM_SCREENSHOTS=DIR keeps them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/lib/chromium/chromium"
# No outside connections: no updates, no sync, no background fetches.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 420, "height": 900}
DESKTOP = {"width": 1280, "height": 900}

# Every browser test is slow, and needs Chromium (CI installs it: a skip there fails the run).
browser_tests = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture(scope="session")
def launched_browser():
    """One Chromium (and one Playwright driver) for every browser test of a test process, instead
    of one launched for each test: what each test sees is its own browser context (below)."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def browser(launched_browser):
    """The browser, as a test finds it: no context open (no page, cookie or storage of another
    test: each context is a fresh profile of its own); every context the test opens is closed after it."""
    assert launched_browser.contexts == []
    yield launched_browser
    for context in launched_browser.contexts:
        context.close()


@pytest.fixture
def page(browser):
    """A page the width of a phone (where a one-column portal must read first)."""
    context = browser.new_context(accept_downloads=True, viewport=PHONE)
    yield context.new_page()
    context.close()


def screenshot(page, name: str) -> None:
    """Keep a full-page screenshot as GM_SCREENSHOTS/<name>.png, when that is set, to look at."""
    folder = os.environ.get("GM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
