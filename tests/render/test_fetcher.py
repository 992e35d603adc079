"""The URL fetcher: hostile HTML reads nothing outside gm's asset folders and makes no request."""

from __future__ import annotations

import http.server
import os
import subprocess
import threading

import pytest
from weasyprint.urls import FatalURLFetchingError

from gm.render.environment import base_url, render_report_html, shared_templates_dir
from gm.render.fetcher import AssetFetcher, RefusedURL
from gm.render.pdf import html_to_pdf

from .sample_game import report_context

CREATED = "2026-11-21T19:00:00Z"

HOSTILE_URLS = {
    "img": '<img src="{url}">',
    "css url()": '<div style="background: url({url}); height: 1cm"></div>',
    "@font-face": (
        "<style>@font-face {{ font-family: evil; src: url({url}); }} p {{ font-family: evil; }}</style><p>x</p>"
    ),
    "stylesheet": '<link rel="stylesheet" href="{url}">',
    "attachment": '<link rel="attachment" href="{url}">',
    "svg image": '<svg width="10" height="10"><image href="{url}" width="10" height="10"/></svg>',
    "object": '<object data="{url}" type="image/png"></object>',
}
OUTSIDE = [
    "file:///etc/passwd",
    "file:///etc/hostname",
    "http://127.0.0.1:1/x",
    "https://example.com/x.png",
    "ftp://example.com/x",
]


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><meta charset=utf-8></head><body><p>report</p>{body}</body></html>"


def render(html: str, fetcher: AssetFetcher) -> bytes:
    return html_to_pdf(html, base_url=base_url(), created=CREATED, identifier="test", fetcher=fetcher)


def pdf_tool(tool: str, pdf: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        [tool, *(["-list"] if tool != "pdftotext" else []), str(path), *(["-"] if tool == "pdftotext" else [])],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.mark.parametrize("url", OUTSIDE)
@pytest.mark.parametrize("element", sorted(HOSTILE_URLS))
def test_a_refused_url_stops_the_render(element, url, strict_fetcher):
    html = page(HOSTILE_URLS[element].format(url=url))
    if element == "svg image":
        # WeasyPrint draws inline SVG under a catch-all, so even a fatal refusal only drops the
        # drawing; what matters is that the fetcher refused.
        render(html, strict_fetcher)
    else:
        with pytest.raises(FatalURLFetchingError):
            render(html, strict_fetcher)
    assert strict_fetcher.refused == [url]


def test_without_fail_on_errors_nothing_outside_gets_into_the_pdf(env, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-MARKER")
    body = "".join(template.format(url=secret.as_uri()) for template in HOSTILE_URLS.values())
    body += '<link rel="attachment" href="file:///etc/hostname">'
    fetcher = AssetFetcher([shared_templates_dir()])
    pdf = render(page(body), fetcher)
    assert secret.as_uri() in fetcher.refused and "file:///etc/hostname" in fetcher.refused
    assert "0 embedded files" in pdf_tool("pdfdetach", pdf, tmp_path)
    assert "TOP-SECRET-MARKER" not in pdf_tool("pdftotext", pdf, tmp_path)


def test_an_attachment_inside_the_asset_folders_is_embedded(tmp_path):
    # The control for the test above: pdfdetach does see an attachment the fetcher allows.
    (tmp_path / "rules.txt").write_text("house rules")
    pdf = render(page(f'<link rel="attachment" href="{(tmp_path / "rules.txt").as_uri()}">'), AssetFetcher([tmp_path]))
    assert "1 embedded files" in pdf_tool("pdfdetach", pdf, tmp_path)


def test_no_http_request_is_made(strict_fetcher):
    requests = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/pixel.png"
        fetcher = AssetFetcher([shared_templates_dir()])
        render(page(f'<img src="{url}"><div style="background: url({url})">x</div>'), fetcher)
    finally:
        server.shutdown()
        server.server_close()
    assert requests == []
    assert set(fetcher.refused) == {url}


def test_an_asset_in_the_templates_folder_is_served(strict_fetcher):
    response = strict_fetcher.fetch(base_url() + "report.css")
    assert response.content_type == "text/css"
    assert b"@page" in response.read()


def test_a_relative_stylesheet_resolves_in_the_templates_folder(strict_fetcher, tmp_path):
    pdf = render(page('<link rel="stylesheet" href="report.css">'), strict_fetcher)
    assert "page 1 of 1" in pdf_tool("pdftotext", pdf, tmp_path)
    assert strict_fetcher.refused == []


def test_data_urls_are_served(strict_fetcher):
    dot = (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    )
    render(page(f'<img src="{dot}">'), strict_fetcher)
    assert strict_fetcher.refused == []


@pytest.fixture
def assets(tmp_path):
    """An asset folder with one good file, and a secret beside it."""
    folder = tmp_path / "assets"
    folder.mkdir()
    (folder / "logo.svg").write_text("<svg/>")
    (tmp_path / "secret.txt").write_text("secret")
    return folder


def test_a_symlink_out_of_the_asset_folder_is_refused(assets):
    os.symlink(assets.parent / "secret.txt", assets / "leak.txt")
    os.symlink("/etc", assets / "etc")
    fetcher = AssetFetcher([assets])
    for url in [(assets / "leak.txt").as_uri(), (assets / "etc" / "hostname").as_uri()]:
        with pytest.raises(RefusedURL):
            fetcher.fetch(url)


@pytest.mark.parametrize(
    "tail", ["/../secret.txt", "/%2e%2e/secret.txt", "/./../secret.txt", "/", "/missing.png", "/logo.svg%00.png"]
)
def test_escapes_and_non_files_are_refused(assets, tail):
    with pytest.raises(RefusedURL):
        AssetFetcher([assets]).fetch(assets.as_uri() + tail)


@pytest.mark.parametrize(
    "url",
    [
        "file://evil.example/share/logo.svg",
        "FILE://remote/etc/passwd",
        "javascript:alert(1)",
        "gopher://x/",
        "logo.svg",
    ],
)
def test_other_hosts_and_schemes_are_refused(assets, url):
    with pytest.raises(RefusedURL):
        AssetFetcher([assets]).fetch(url)


def test_good_asset_urls_are_served(assets):
    fetcher = AssetFetcher([assets])
    for url in [
        (assets / "logo.svg").as_uri(),
        "file://localhost" + str(assets / "logo.svg"),
        (assets / "logo.svg").as_uri() + "?v=1",
    ]:
        assert fetcher.fetch(url).read() == b"<svg/>"
    assert fetcher.refused == []


def test_the_whole_sample_report_fetches_nothing_it_may_not(env, strict_fetcher):
    render(render_report_html(env, report_context()), strict_fetcher)
    assert strict_fetcher.refused == []
