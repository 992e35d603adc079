"""HTML to PDF: the same report gives the same bytes, dated by the report, not by the clock."""

from __future__ import annotations

import base64
import io
import re
import subprocess

import pytest

from gm.render import turnpages
from gm.render.environment import base_url, render_report_html, render_standings_html
from gm.render.pdf import SharedImages, font_configuration, html_to_pdf, shared_images

from .sample_game import report_context, standings_context


def to_pdf(html, fetcher, created="2026-11-21T19:00:00Z", identifier="clash-1/5/BR", cache=None):
    return html_to_pdf(html, base_url=base_url(), created=created, identifier=identifier, fetcher=fetcher, cache=cache)


def test_the_same_report_gives_identical_bytes(env, strict_fetcher):
    html = render_report_html(env, report_context())
    assert to_pdf(html, strict_fetcher) == to_pdf(html, strict_fetcher)


def test_the_identifier_and_date_are_what_change_the_bytes(env, strict_fetcher):
    html = render_standings_html(env, standings_context())
    first = to_pdf(html, strict_fetcher)
    assert to_pdf(html, strict_fetcher, identifier="other") != first
    assert to_pdf(html, strict_fetcher, created="2027-01-01T00:00:00Z") != first


def test_the_pdf_carries_the_report_date(env, strict_fetcher, tmp_path):
    path = tmp_path / "r.pdf"
    path.write_bytes(to_pdf(render_report_html(env, report_context()), strict_fetcher))
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    assert "Title:" in info and "Round 3 of 30" in info
    assert "Pages:           3" in info
    assert "Tagged:          yes" in info  # PDF/UA-1: a screen reader follows it (test_report_pages.py)
    creation = next(line for line in info.splitlines() if line.startswith("CreationDate:"))
    assert "2026" in creation and "Nov 21" in creation
    assert "Page size:       595.276 x 841.89 pts (A4)" in info


@pytest.mark.parametrize("created", ["yesterday", "2026-11-21", "2026-11-21 19:00", ""])
def test_a_date_weasyprint_would_drop_is_refused(strict_fetcher, created):
    with pytest.raises(ValueError, match="W3C"):
        to_pdf("<p>x</p>", strict_fetcher, created=created)


def test_one_font_configuration_per_process():
    assert font_configuration() is font_configuration()


def png_url(mode: str) -> str:
    """A 40 x 20 picture: left half red, right half blue, with a dark stripe, as a PNG data: URL."""
    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (40, 20), "#c8553d")
    draw = ImageDraw.Draw(picture)
    draw.rectangle((20, 0, 39, 19), fill="#3d7ec8")
    draw.rectangle((0, 8, 39, 11), fill="#1d1d1b")
    if mode == "P":
        picture = picture.quantize(colors=16, method=Image.Quantize.FASTOCTREE)
    elif mode != "RGB":
        picture = picture.convert(mode)
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def page_with(url: str) -> str:
    return f'<style>@page {{ size: 40px 20px; margin: 0 }} body {{ margin: 0 }}</style><img src="{url}" style="width: 40px">'


@pytest.mark.parametrize("mode, space", [("P", b"/Indexed"), ("RGB", b"/DeviceRGB")])
def test_a_shared_png_is_embedded_as_it_is_and_reads_back_the_same(strict_fetcher, tmp_path, mode, space):
    url = png_url(mode)
    shared = SharedImages()
    pdf = to_pdf(page_with(url), strict_fetcher, cache=shared.cache_for(shared_images(page_with(url))))
    png = base64.b64decode(url.split(",", 1)[1])
    rows = png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8]
    assert space in pdf and rows in pdf  # the PNG's own compressed rows, not re-encoded
    (tmp_path / "p.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "96", "-singlefile", str(tmp_path / "p.pdf"), str(tmp_path / "p")], check=True
    )
    from PIL import Image

    read = Image.open(tmp_path / "p.png").convert("RGB")
    assert read.getpixel((5, 3)) == (0xC8, 0x55, 0x3D) and read.getpixel((30, 3)) == (0x3D, 0x7E, 0xC8)
    assert read.getpixel((10, 9)) == (0x1D, 0x1D, 0x1B)
    # The same page with and without the shared image cache: the same look, and again the same bytes.
    assert to_pdf(page_with(url), strict_fetcher, cache=shared.cache_for([url])) == pdf


def test_anything_but_a_plain_opaque_png_is_left_to_weasyprint(strict_fetcher):
    assert SharedImages().cache_for([png_url("RGBA"), png_url("L"), "data:image/svg+xml,<svg/>"]) == {}
    pdf = to_pdf(page_with(png_url("RGBA")), strict_fetcher, cache=SharedImages().cache_for([png_url("RGBA")]))
    rows = base64.b64decode(png_url("RGBA").split(",", 1)[1])
    assert b"/Indexed" not in pdf and rows[rows.index(b"IDAT") + 4 : rows.index(b"IEND") - 8] not in pdf


def test_a_report_renders_to_the_bytes_weasyprint_alone_gives(env, strict_fetcher):
    """Its <style> sheets parsed once per process and its map picture named shortly change
    nothing in the PDF: the same bytes as WeasyPrint given the whole page."""
    from weasyprint import HTML

    from gm.render.pdf import SharedImages

    # Without the place for the turn's pages, the report is one document (gm.render.turnpages,
    # tested in test_turnpages.py): what is compared here is that one document's bytes.
    html = re.sub(r"<!--gm:turn-pages[^>]*-->", "", render_report_html(env, report_context()))
    assert turnpages.split(html) is None
    cache = SharedImages().cache_for(shared_images(html))
    assert cache, "the sample report shows its map as a shared picture"
    page = HTML(string=html, base_url=base_url(), url_fetcher=strict_fetcher).render(
        font_config=font_configuration(), cache=SharedImages().cache_for(shared_images(html))
    )
    page.metadata.created = page.metadata.modified = "2026-11-21T19:00:00Z"
    bare = page.write_pdf(pdf_identifier=b"clash-1/5/BR", pdf_variant="pdf/ua-1")  # tagged, as gm writes it
    assert to_pdf(html, strict_fetcher, cache=cache) == bare


def test_each_style_sheet_is_parsed_once_per_process(env, strict_fetcher, monkeypatch):
    import gm.render.pdf as pdf

    parsed, real = [], pdf.CSS
    monkeypatch.setattr(pdf, "_sheets", type(pdf._sheets)())
    monkeypatch.setattr(pdf, "_turn_pages", type(pdf._turn_pages)())  # both reports lay out their turn pages
    monkeypatch.setattr(pdf, "CSS", lambda **kw: parsed.append(kw["string"]) or real(**kw))
    first = render_report_html(env, report_context("BR", 5))
    second = render_report_html(env, report_context("RU", 8, deadline=None))
    to_pdf(first, strict_fetcher)
    sheets = len(parsed)
    assert sheets >= 1 and any("@page" in text for text in parsed)  # report.css among them
    to_pdf(second, strict_fetcher)
    assert len(parsed) == sheets  # the second report parsed none again


@pytest.mark.parametrize(
    "head", ['<link rel="stylesheet" href="report.css">', '<style media="screen">p { color: red }</style>']
)
def test_a_page_with_other_sheets_keeps_weasyprints_own_cascade(strict_fetcher, monkeypatch, head):
    """A <link> or a <style media=...> beside the <style> sheets: nothing is taken out, so the
    order of the sheets, and so the cascade, stays WeasyPrint's."""
    import gm.render.pdf as pdf

    monkeypatch.setattr(pdf, "CSS", lambda **kw: pytest.fail("a sheet was taken out of the page"))
    to_pdf(f"<html><head>{head}<style>p {{ color: blue }}</style></head><body><p>x</p></body></html>", strict_fetcher)


def test_weasyprint_parses_the_page_without_the_shared_pictures_bytes(strict_fetcher, monkeypatch):
    """The map picture is most of a report's HTML; WeasyPrint's HTML parser reads a short name
    for it and the worker's image cache gives the picture."""
    import gm.render.pdf as pdf

    seen, real = [], pdf.HTML
    monkeypatch.setattr(pdf, "HTML", lambda **kw: seen.append(kw["string"]) or real(**kw))
    url = png_url("P")
    shared = SharedImages()
    pdf_bytes = to_pdf(page_with(url), strict_fetcher, cache=shared.cache_for([url]))
    assert url not in seen[0] and pdf.SHARED_IMAGE_SCHEME in seen[0]
    png = base64.b64decode(url.split(",", 1)[1])
    assert png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8] in pdf_bytes  # and the picture is in the page
